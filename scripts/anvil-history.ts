/**
 * What an anvil of the sandbox keeps as its chain grows (sandbox/anvil.ts DEFAULT_HISTORY_STATES, `--prune-history N`):
 * a seeded one-chain devnet, then one ERC-20 transfer per block, printing anvil's resident memory and the size of
 * ~/.foundry/anvil/tmp (where anvil writes block states when not pruned) as it goes; then at which blocks back
 * eth_call still answers, that eth_getLogs still reads the whole chain, that evm_snapshot / evm_revert still work,
 * and that the stop leaves no process and nothing on disk.
 *
 *   npx tsx scripts/anvil-history.ts                          # 1,000 blocks on Ethereum (chain 1), the default N
 *   npx tsx scripts/anvil-history.ts --blocks 1500 --states 64 --chain 8453
 *
 * (about 25 ms a block on 2 cores). `--states` sets SANDBOX_ANVIL_HISTORY_STATES for the run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Interface } from 'ethers';
import { DEFAULT_HISTORY_STATES } from '../sandbox/anvil';
import { startDevnet } from '../sandbox/devnet';
import { UnlockedSender, waitForReceipt } from '../sandbox/rpc';
import { runScriptAsync } from './catalog/format';

const ERC20 = new Interface([
  'function transfer(address to, uint256 amount) returns (bool)',
  'function balanceOf(address owner) view returns (uint256)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
]);
const ANVIL_TMP = path.join(os.homedir(), '.foundry', 'anvil', 'tmp');

function bytesUnder(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  let total = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    total += e.isDirectory() ? bytesUnder(p) : fs.statSync(p).size;
  }
  return total;
}
const residentMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const mb = (bytes: number) => (bytes / 1e6).toFixed(1);

async function main(argv: string[]): Promise<number> {
  const arg = (name: string) => {
    const k = argv.indexOf(`--${name}`);
    return k >= 0 ? argv[k + 1] : undefined;
  };
  const blocks = Number(arg('blocks') ?? 1000);
  const chainId = Number(arg('chain') ?? 1);
  if (arg('states')) process.env.SANDBOX_ANVIL_HISTORY_STATES = arg('states');
  const states = Number(process.env.SANDBOX_ANVIL_HISTORY_STATES ?? DEFAULT_HISTORY_STATES);
  const diskBefore = bytesUnder(ANVIL_TMP);

  const devnet = await startDevnet({ chains: [chainId], wallets: 1, relayer: false });
  try {
    const { provider, pid, deployment } = devnet.chain(chainId);
    const token = [...deployment.tokens.values()].find((t) => t.contract === 'TestToken')!.address;
    const from = devnet.wallet(chainId).address;
    const sender = new UnlockedSender(provider, from);
    const seeded = await provider.getBlockNumber();
    const line = (what: string) => console.log(`${what}: anvil ${residentMb(pid).toFixed(0)} MB resident, ${mb(bytesUnder(ANVIL_TMP) - diskBefore)} MB more under ${ANVIL_TMP}`);
    line(`chain ${chainId} seeded at block ${seeded}, --prune-history ${states}`);
    const restore = await devnet.checkpoint();
    const started = Date.now();
    for (let k = 1; k <= blocks; k++) {
      const to = `0x${(0x1000 + k).toString(16).padStart(40, '0')}`;
      const receipt = await waitForReceipt(provider, await sender.send({ to: token, data: ERC20.encodeFunctionData('transfer', [to, 1n]), gas: 100_000n }));
      if (receipt.status !== 1) throw new Error(`transfer ${k} reverted`);
      if (k % 250 === 0 || k === blocks) line(`+${k} blocks (${((Date.now() - started) / k).toFixed(1)} ms a block)`);
    }

    const head = await provider.getBlockNumber();
    const balanceAt = async (block: number) => {
      try {
        return `answers ${BigInt(await provider.send('eth_call', [{ to: token, data: ERC20.encodeFunctionData('balanceOf', [from]) }, `0x${block.toString(16)}`]))}`;
      } catch (error) {
        return `refused (${(error as Error).message.split('\n')[0].slice(0, 80)})`;
      }
    };
    for (const back of [...new Set([1, 5, states - 1, states, states + 1, blocks - 1])].filter((b) => b > 0 && b < head).sort((a, b) => a - b)) {
      console.log(`eth_call at head − ${back}: ${await balanceAt(head - back)}`);
    }
    const logs = await provider.getLogs({ address: token, topics: [ERC20.getEvent('Transfer')!.topicHash], fromBlock: 0, toBlock: head });
    console.log(`eth_getLogs 0..${head}: ${logs.length} Transfer logs, ${logs.filter((l) => l.blockNumber > seeded).length} of them from the ${blocks} transfers`);
    await restore();
    console.log(`evm_revert to the checkpoint taken after seeding: block ${await provider.getBlockNumber()} (seeded at ${seeded})`);
  } finally {
    const pid = devnet.chain(chainId).pid;
    await devnet.stop();
    let running = true;
    try {
      process.kill(pid, 0);
    } catch {
      running = false;
    }
    console.log(`stopped: anvil ${pid} ${running ? 'STILL RUNNING' : 'gone'}; ${mb(bytesUnder(ANVIL_TMP) - diskBefore)} MB more under ${ANVIL_TMP} than before`);
  }
  return 0;
}

if (require.main === module) runScriptAsync(main);
