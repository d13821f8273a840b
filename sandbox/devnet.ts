/**
 * A local multi-chain devnet for executing the service's quotes: one anvil per chain (real chain ids), seeded
 * with the catalog's tokens, the snapshot's pools (exact state; Uniswap's created through the genuine Uniswap
 * contracts, deployed at their canonical addresses: deploy.ts), the router, fee collector, exchange routers and
 * the sandbox bridge at their routers.json addresses, Multicall3 at its canonical address (what wallets and the
 * LI.FI SDK read balances through), funded test wallets, and a relayer for the bridge.
 *
 *   npx tsx sandbox/devnet.ts                      # Ethereum, Arbitrum, Base; Ctrl-C stops every anvil
 *   npx tsx sandbox/devnet.ts --chains 1,10,8453
 *
 * In code: `const devnet = await startDevnet(); ... await devnet.stop();` (stop kills every anvil it started, by
 * pid, and destroys the providers; nothing is left running).
 */
import { Wallet, type JsonRpcProvider } from 'ethers';
import { startAnvil, type AnvilProcess } from './anvil';
import { chainsArgument, stopOnSignal } from './cli';
import { compileContracts, type Artifacts } from './compile';
import { loadSandboxData, type DataLocations, type SandboxData } from './data';
import { seedChain, type ChainDeployment } from './deploy';
import { Relayer } from './relayer';
import { devAccountKey, makeProvider } from './rpc';

export const DEFAULT_CHAINS: readonly number[] = [1, 42161, 8453];

export interface DevnetOptions extends DataLocations {
  /** Chain ids to run (default Ethereum 1, Arbitrum 42161, Base 8453). */
  readonly chains?: readonly number[];
  /** Test wallets funded with every token (anvil dev accounts 2.., at most 8; default 4). */
  readonly wallets?: number;
  /** Router in the steady state of a router in use: dust balances and standing approvals (default true; deploy.ts). */
  readonly warmRouter?: boolean;
  /** Genuine pools in the state of pools in use: fees collected, price accumulators running (default true; deploy.ts). */
  readonly warmPools?: boolean;
  /** Start the bridge relayer (default true). */
  readonly relayer?: boolean;
  /**
   * Bridge transfers wait their route's modelled duration (durationSeconds of the snapshot) times this factor
   * before the relayer releases them: 0.01 turns a 90 s route into 0.9 s (default 0: released at once).
   */
  readonly bridgeTimeScale?: number;
  /**
   * The whole start's limit (default DEFAULT_START_TIMEOUT_MS, 120 s, or SANDBOX_START_TIMEOUT_MS): past it every
   * anvil started is stopped and a StartTimeoutError names the chains not ready and the phase each was in.
   */
  readonly startTimeoutMs?: number;
  /** Aborting it abandons the start as the timeout does (everything stopped), rejecting with the signal's reason. */
  readonly signal?: AbortSignal;
  /** Told each chain's phase as the start goes (startSandbox names them in its own timeout's error). */
  readonly onPhase?: (chainId: number, phase: string) => void;
  readonly log?: (line: string) => void;
}

export interface DevnetChain {
  readonly chainId: number;
  readonly url: string;
  readonly pid: number;
  readonly provider: JsonRpcProvider;
  readonly deployment: ChainDeployment;
}

export interface Devnet {
  readonly chains: ReadonlyMap<number, DevnetChain>;
  readonly artifacts: Artifacts;
  readonly data: SandboxData;
  /** Anvil dev account 0: initialised every contract, mints the test tokens. */
  readonly admin: string;
  /** Anvil dev account 1: the bridge relayer. */
  readonly relayerAddress: string;
  readonly relayer?: Relayer;
  /** Private keys of the funded test wallets. */
  readonly walletKeys: readonly string[];
  /** A test wallet connected to a chain's provider. */
  wallet(chainId: number, index?: number): Wallet;
  chain(chainId: number): DevnetChain;
  /** Snapshots every chain; the returned function reverts them all to it (usable once) and resyncs the relayer. */
  checkpoint(): Promise<() => Promise<void>>;
  /** Milliseconds from the call to ready, by phase. */
  readonly timings: Readonly<Record<string, number>>;
  stop(): Promise<void>;
}

/** The overall start timeout: the option, else SANDBOX_START_TIMEOUT_MS, else DEFAULT_START_TIMEOUT_MS. */
export const DEFAULT_START_TIMEOUT_MS = 120_000;
export function startTimeoutMs(option?: number): number {
  const value = option ?? (process.env.SANDBOX_START_TIMEOUT_MS ? Number(process.env.SANDBOX_START_TIMEOUT_MS) : DEFAULT_START_TIMEOUT_MS);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`the start timeout must be a number of milliseconds > 0, not ${option ?? process.env.SANDBOX_START_TIMEOUT_MS}`);
  return value;
}

/** Where each chain of a start is: its phase and since when (ms since the start). */
export class StartPhases {
  private readonly phases = new Map<number, { phase: string; since: number }>();
  constructor(
    private readonly started: number,
    chainIds: readonly number[],
    phase: string,
    private readonly onPhase?: (chainId: number, phase: string) => void,
  ) {
    for (const id of chainIds) this.set(id, phase);
  }
  set(chainId: number, phase: string): void {
    this.phases.set(chainId, { phase, since: Date.now() - this.started });
    this.onPhase?.(chainId, phase);
  }
  setAll(phase: string): void {
    for (const id of this.phases.keys()) this.set(id, phase);
  }
  /** The chains not in `done`, with their phase and how long they have been in it. */
  pending(done = 'ready'): { chainId: number; phase: string; phaseMs: number }[] {
    const now = Date.now() - this.started;
    return [...this.phases].filter(([, p]) => p.phase !== done).map(([chainId, p]) => ({ chainId, phase: p.phase, phaseMs: now - p.since }));
  }
  ready(done = 'ready'): number[] {
    return [...this.phases].filter(([, p]) => p.phase === done).map(([id]) => id);
  }
}

/**
 * A start (startDevnet, startSandbox) that did not finish within its timeout: everything it had started is stopped
 * (every anvil by its pid) before this is thrown. `chains`: those that were not ready, with the phase they were in.
 */
export class StartTimeoutError extends Error {
  constructor(
    readonly what: string,
    readonly timeoutMs: number,
    readonly chains: readonly { readonly chainId: number; readonly phase: string; readonly phaseMs: number }[],
    readonly readyChains: readonly number[] = [],
  ) {
    const pending = chains.map((c) => `chain ${c.chainId} in phase "${c.phase}" (for ${(c.phaseMs / 1000).toFixed(1)} s)`).join(', ');
    super(`${what} did not start within ${timeoutMs} ms (startTimeoutMs, or SANDBOX_START_TIMEOUT_MS): ${pending || 'no chain pending'}`
      + `${readyChains.length > 0 ? `; ready: chain ${readyChains.join(', ')}` : ''}; everything it started was stopped`);
    this.name = 'StartTimeoutError';
  }
}

/**
 * Races `work` against `timeoutMs` from `startedAt` (and `signal`). On timeout (or abort) `abandon()` is called, which stops what the
 * work started, and then a StartTimeoutError naming `phases.pending()` as they were at that moment is thrown (on
 * abort: the signal's reason when it is an Error); the work's own later failure is ignored.
 */
export async function withStartTimeout<T>(
  what: string, timeoutMs: number, phases: StartPhases, work: Promise<T>, abandon: () => Promise<void>, signal?: AbortSignal, startedAt = Date.now(),
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const cut = new Promise<'timeout' | 'aborted'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), Math.max(0, startedAt + timeoutMs - Date.now()));
    onAbort = () => resolve('aborted');
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
  let reason: 'timeout' | 'aborted';
  try {
    const first = await Promise.race([work.then((value) => ({ value })), cut]);
    if (typeof first === 'object') return first.value;
    reason = first;
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
  const error = reason === 'aborted' && signal?.reason instanceof Error
    ? signal.reason
    : new StartTimeoutError(what, timeoutMs, phases.pending(), phases.ready());
  work.catch(() => undefined);
  await abandon();
  throw error;
}

/** `promise`, or undefined once `ms` have passed (for waiting on a start that may never settle). */
export async function settledWithin<T>(promise: Promise<T>, ms: number): Promise<PromiseSettledResult<T> | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise.then((value) => ({ status: 'fulfilled' as const, value }), (reason: unknown) => ({ status: 'rejected' as const, reason })),
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export async function startDevnet(options: DevnetOptions = {}): Promise<Devnet> {
  const started = Date.now();
  const timings: Record<string, number> = {};
  const chainIds = [...(options.chains ?? DEFAULT_CHAINS)];
  const walletCount = options.wallets ?? 4;
  if (walletCount < 1 || walletCount > 8) throw new Error('wallets must be between 1 and 8');
  const timeoutMs = startTimeoutMs(options.startTimeoutMs);
  const data = loadSandboxData(options);
  for (const id of chainIds) {
    const chain = data.chains.find((c) => c.id === id);
    if (!chain || chain.chainType !== 'EVM') throw new Error(`chain ${id} is not an EVM chain of the catalog`);
  }

  const phases = new StartPhases(started, chainIds, 'starting anvil', options.onPhase);
  const anvils: AnvilProcess[] = [];
  // every anvil start, settled or not: a failed or abandoned start waits for them all and stops those that listen
  // (startAnvil stops its process itself when it fails, and gives up after its own start timeout)
  const anvilStarts: Promise<AnvilProcess>[] = [];
  const providers: JsonRpcProvider[] = [];
  let relayer: Relayer | undefined;
  let abandoned = false;
  const stop = async () => {
    relayer?.stop();
    for (const p of providers) p.destroy();
    await Promise.all(anvils.map((a) => a.stop()));
  };
  /** After a failure or the timeout: no new step starts, every anvil start is waited for, everything is stopped. */
  const abandon = async () => {
    abandoned = true;
    await Promise.allSettled(anvilStarts);
    await stop();
  };
  const check = () => {
    if (abandoned) throw new Error('devnet start abandoned');
  };

  const work = async (): Promise<Devnet> => {
    const [artifacts] = await Promise.all([
      compileContracts({ log: options.log }).then((a) => {
        timings.compile = Date.now() - started;
        return a;
      }),
      ...chainIds.map((id) => {
        const start = startAnvil(id, { accounts: 2 + walletCount }).then((a) => {
          anvils.push(a);
          phases.set(id, 'waiting for the contracts to compile');
          return a;
        });
        anvilStarts.push(start);
        return start;
      }),
    ]);
    check();
    timings.anvil = Date.now() - started;
    const admin = new Wallet(devAccountKey(0)).address;
    const relayerAddress = new Wallet(devAccountKey(1)).address;
    const walletKeys = Array.from({ length: walletCount }, (_, k) => devAccountKey(2 + k));
    const wallets = walletKeys.map((k) => new Wallet(k).address);

    const chains = new Map<number, DevnetChain>();
    await Promise.all(chainIds.map(async (chainId) => {
      const a = anvils.find((x) => x.chainId === chainId)!;
      phases.set(chainId, 'connecting (eth_chainId)');
      const provider = makeProvider(a.url, chainId);
      providers.push(provider);
      const answered = BigInt(await provider.send('eth_chainId', []));
      if (answered !== BigInt(chainId)) throw new Error(`anvil on ${a.url} answers chain id ${answered}, not ${chainId}`);
      check();
      phases.set(chainId, 'seeding (tokens, pools, router, bridge: deploy.ts seedChain)');
      const deployment = await seedChain({ provider, chainId, artifacts, data, admin, relayer: relayerAddress, wallets, warmRouter: options.warmRouter, warmPools: options.warmPools });
      check();
      phases.set(chainId, 'seeded, waiting for the other chains');
      chains.set(chainId, { chainId, url: a.url, pid: a.pid, provider, deployment });
      options.log?.(`chain ${chainId} ready on ${a.url} (pid ${a.pid}): ${deployment.tokens.size} tokens, ${deployment.pools.length} pools, ${deployment.bridgeRoutes} bridge routes${uniswapSummary(deployment)}; ms ${JSON.stringify(deployment.timings)}`);
    }));
    timings.seeded = Date.now() - started;

    if (options.relayer ?? true) {
      phases.setAll('starting the bridge relayer');
      relayer = new Relayer(
        artifacts.BridgeEndpoint.abi,
        [...chains.values()].map((c) => ({ chainId: c.chainId, provider: c.provider, endpoint: c.deployment.bridgeEndpoint })),
        relayerAddress,
        {
          log: options.log,
          delayMs: (d) => {
            const scale = options.bridgeTimeScale ?? 0;
            if (scale <= 0) return 0;
            const route = data.bridges.find((b) => b.bridge === d.bridge && b.fromChainId === d.fromChainId && b.toChainId === d.toChainId && b.fromToken.toLowerCase() === d.token.toLowerCase());
            return Math.round((route?.durationSeconds ?? 0) * 1000 * scale);
          },
        },
      );
      await relayer.start();
      if (abandoned) relayer.stop(); // start() resumes polling even after stop(): stop it again
      check();
    }
    phases.setAll('ready');
    timings.ready = Date.now() - started;

    const chain = (chainId: number): DevnetChain => {
      const c = chains.get(chainId);
      if (!c) throw new Error(`chain ${chainId} is not running in this devnet`);
      return c;
    };
    return {
      chains, artifacts, data, admin, relayerAddress, relayer, walletKeys, timings,
      chain,
      wallet: (chainId, index = 0) => new Wallet(walletKeys[index], chain(chainId).provider),
      async checkpoint() {
        const ids = await Promise.all([...chains.values()].map(async (c) => [c, (await c.provider.send('evm_snapshot', [])) as string] as const));
        return async () => {
          // the relayer finishes what it is doing first: it records a release on the source chain (markReleased)
          // after the completion a test waits for, and such a transaction sent across the revert carries a nonce of
          // the reverted state, waits in anvil's pool, and holds the relayer up to waitForReceipt's timeout (20 s)
          await relayer?.resync();
          for (const [c, id] of ids) {
            const ok = (await c.provider.send('evm_revert', [id])) as boolean;
            if (!ok) throw new Error(`evm_revert ${id} failed on chain ${c.chainId}`);
          }
          await relayer?.resync();
        };
      },
      stop,
    };
  };

  try {
    return await withStartTimeout(`the devnet (chains ${chainIds.join(', ')})`, timeoutMs, phases, work(), abandon, options.signal, started);
  } catch (error) {
    if (!abandoned) await abandon();
    throw error;
  }
}

/** How the chain's genuine Uniswap pools reproduce the snapshot, for the log line of a chain. */
export function uniswapSummary(deployment: ChainDeployment): string {
  const u = deployment.uniswap;
  if (!u) return '';
  const largest = u.differences.reduce<(typeof u.differences)[number] | undefined>((m, d) => (!m || d.difference > m.difference ? d : m), undefined);
  return `; genuine Uniswap and forks: ${u.v2Pairs} V2 pairs, ${u.v3Pools} V3 pools with ${u.bands} positions (${u.bandsExactByMint} minted exactly, ${u.bandsReduced} reduced to it, largest excess ${u.largestExcess}), `
    + `${u.poolsExact}/${u.v2Pairs + u.v3Pools} pools exactly the snapshot's`
    + (largest ? ` (${u.differences.length} differences, largest ${largest.pool} ${largest.field}: chain ${largest.chain}, snapshot ${largest.snapshot})` : '');
}

if (require.main === module) {
  startDevnet({ chains: chainsArgument(), log: (l) => console.log(l) }).then((devnet) => {
    console.log(JSON.stringify({
      timings: devnet.timings,
      chains: [...devnet.chains.values()].map((c) => ({ chainId: c.chainId, rpc: c.url, pid: c.pid, router: c.deployment.router, feeCollector: c.deployment.feeCollector, bridgeEndpoint: c.deployment.bridgeEndpoint })),
      walletKeys: devnet.walletKeys,
    }, null, 2));
    stopOnSignal(() => devnet.stop());
  }, (error: Error) => {
    console.error(error);
    process.exit(1);
  });
}
