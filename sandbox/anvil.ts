/**
 * Starts and stops anvil processes, one per chain: `anvil --chain-id N --port 0 --host 127.0.0.1 --prune-history 128`
 * (a bounded state history, in memory only: DEFAULT_HISTORY_STATES), the port read from its `Listening on
 * 127.0.0.1:PORT` line. The native binary of @foundry-rs/anvil-<platform> is spawned directly (no node wrapper),
 * so the pid we hold is anvil's own; every process is stopped by that pid.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export interface AnvilProcess {
  readonly chainId: number;
  readonly pid: number;
  readonly port: number;
  readonly url: string;
  /** SIGTERM, then SIGKILL after 2 s; resolves when the process has exited. */
  stop(): Promise<void>;
}

export interface AnvilOptions {
  /** Ether of every dev account (default 100,000,000). */
  readonly balanceEth?: number;
  /** Dev accounts (default 10). */
  readonly accounts?: number;
  /** Block gas limit (default: none, so that seeding mines all its transactions in one block). */
  readonly gasLimit?: bigint;
  readonly startTimeoutMs?: number;
  /**
   * Block states anvil keeps, all in memory and none on disk (`--prune-history N`; default DEFAULT_HISTORY_STATES,
   * or SANDBOX_ANVIL_HISTORY_STATES): calls at a block (eth_call with a block number, eth_getBalance at a block...)
   * work for the last N blocks. Blocks, receipts and logs are kept for the whole chain whatever N is.
   */
  readonly historyStates?: number;
}

/**
 * Why `--prune-history 128`. Without `--prune-history`, anvil (1.7) keeps each block's state, a whole copy of the
 * chain's state, in memory for the last 500 blocks (then gradually fewer, down to 10) and writes every older one as a
 * JSON file under ~/.foundry/anvil/tmp/anvil-state-*, up to 3,600 of them, which is not removed when the process is
 * stopped with SIGTERM (anvil then exits without cleaning up). Measured on a seeded Ethereum devnet chain, one
 * transfer per block: 3.6 GB on disk after 1,000 blocks, 5.5 GB after 1,500 (~3.7 MB a block), all left behind
 * after stop; memory 690 MB at 500 blocks, 140 MB later. `--prune-history` without a number keeps no state history
 * (eth_call at an earlier block then fails with "BlockOutOfRangeError"); `--prune-history N` keeps the last N block
 * states in memory only and writes nothing to disk. Measured the same way after 1,000 blocks: N = 64: 210 MB,
 * N = 128: 320 MB, N = 256: 520 MB resident, nothing on disk, eth_call answering at head − N and refused before.
 * What the sandbox needs is a recent window: a reverted transaction replayed at its parent block (sandbox/execute.ts
 * replayRevert, the service's status replay, src/chain/transferReads.ts), chain mode reading pools at the head it has
 * just seen; 128 blocks (128 transactions, as anvil mines one block per transaction) is ample for those and keeps
 * anvil's memory bounded (~0.3 GB per chain, below the 0.7 GB peak of anvil's default). Unaffected by the setting:
 * evm_snapshot / evm_revert (snapshots are whole-state copies of their own), eth_getLogs over any range, blocks,
 * transactions and receipts, which anvil keeps for the whole chain.
 */
export const DEFAULT_HISTORY_STATES = 128;

/** The block states an anvil keeps: the option, else SANDBOX_ANVIL_HISTORY_STATES, else DEFAULT_HISTORY_STATES. */
export function historyStates(option?: number): number {
  const raw = option ?? (process.env.SANDBOX_ANVIL_HISTORY_STATES ? Number(process.env.SANDBOX_ANVIL_HISTORY_STATES) : DEFAULT_HISTORY_STATES);
  if (!Number.isInteger(raw) || raw < 1) throw new Error(`anvil history states must be a whole number ≥ 1, not ${option ?? process.env.SANDBOX_ANVIL_HISTORY_STATES}`);
  return raw;
}

/** The anvil binary: ANVIL_BIN, else the platform package's bin/anvil. */
export function anvilBinary(): string {
  if (process.env.ANVIL_BIN) return process.env.ANVIL_BIN;
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const pkg = `@foundry-rs/anvil-${process.platform}-${arch}`;
  let dir: string;
  try {
    dir = path.dirname(require.resolve(`${pkg}/package.json`));
  } catch {
    throw new Error(`${pkg} is not installed (the anvil binary of this platform); set ANVIL_BIN to an anvil executable`);
  }
  const bin = path.join(dir, 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil');
  if (!fs.existsSync(bin)) throw new Error(`no anvil binary at ${bin}`);
  return bin;
}

const live = new Set<ChildProcess>();
let exitHookInstalled = false;
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // last resort if the owner never called stop(): kill our own children (by their pid) when this process exits
  process.on('exit', () => {
    for (const child of live) if (child.pid !== undefined && child.exitCode === null) {
      try {
        process.kill(child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
  });
}

export function startAnvil(chainId: number, options: AnvilOptions = {}): Promise<AnvilProcess> {
  installExitHook();
  const args = [
    '--chain-id', String(chainId),
    '--port', '0',
    '--host', '127.0.0.1',
    '--base-fee', '0', // the service's gas prices (e.g. 0.02 gwei on Arbitrum) must be accepted as they are
    '--balance', String(options.balanceEth ?? 100_000_000),
    '--accounts', String(options.accounts ?? 10),
    ...(options.gasLimit !== undefined ? ['--gas-limit', String(options.gasLimit)] : ['--disable-block-gas-limit']),
    '--prune-history', String(historyStates(options.historyStates)), // bounded history, in memory only: DEFAULT_HISTORY_STATES
  ];
  const child = spawn(anvilBinary(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => {
    live.delete(child);
    resolve();
  }));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(child.pid!, 'SIGTERM');
    } catch {
      return;
    }
    const timer = setTimeout(() => {
      try {
        process.kill(child.pid!, 'SIGKILL');
      } catch {
        /* gone */
      }
    }, 2000);
    await exited;
    clearTimeout(timer);
  };

  return new Promise<AnvilProcess>((resolve, reject) => {
    let output = '';
    let done = false;
    const timeout = setTimeout(() => setImmediate(() => fail(new Error(`anvil (chain ${chainId}) did not listen within ${options.startTimeoutMs ?? 10_000} ms:\n${output}`))), options.startTimeoutMs ?? 10_000);
    const fail = (error: Error) => {
      if (done) return;
      done = true;
      clearTimeout(timeout);
      void stop().then(() => reject(error));
    };
    const onData = (chunk: Buffer) => {
      if (done) return; // keep draining the pipes (anvil logs every transaction) but stop looking
      output += chunk.toString('utf8');
      const match = /Listening on 127\.0\.0\.1:(\d+)/.exec(output);
      if (!match) return;
      done = true;
      clearTimeout(timeout);
      const port = Number(match[1]);
      resolve({ chainId, pid: child.pid!, port, url: `http://127.0.0.1:${port}`, stop });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('error', (error) => fail(error));
    child.once('exit', (code, signal) => fail(new Error(`anvil (chain ${chainId}) exited (${code ?? signal}) before listening:\n${output}`)));
  });
}
