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

export async function startDevnet(options: DevnetOptions = {}): Promise<Devnet> {
  const started = Date.now();
  const timings: Record<string, number> = {};
  const chainIds = [...(options.chains ?? DEFAULT_CHAINS)];
  const walletCount = options.wallets ?? 4;
  if (walletCount < 1 || walletCount > 8) throw new Error('wallets must be between 1 and 8');
  const data = loadSandboxData(options);
  for (const id of chainIds) {
    const chain = data.chains.find((c) => c.id === id);
    if (!chain || chain.chainType !== 'EVM') throw new Error(`chain ${id} is not an EVM chain of the catalog`);
  }

  const anvils: AnvilProcess[] = [];
  const providers: JsonRpcProvider[] = [];
  let relayer: Relayer | undefined;
  const stop = async () => {
    relayer?.stop();
    for (const p of providers) p.destroy();
    await Promise.all(anvils.map((a) => a.stop()));
  };
  try {
    const [artifacts] = await Promise.all([
      compileContracts({ log: options.log }).then((a) => {
        timings.compile = Date.now() - started;
        return a;
      }),
      ...chainIds.map(async (id) => {
        anvils.push(await startAnvil(id, { accounts: 2 + walletCount }));
      }),
    ]);
    timings.anvil = Date.now() - started;
    const admin = new Wallet(devAccountKey(0)).address;
    const relayerAddress = new Wallet(devAccountKey(1)).address;
    const walletKeys = Array.from({ length: walletCount }, (_, k) => devAccountKey(2 + k));
    const wallets = walletKeys.map((k) => new Wallet(k).address);

    const chains = new Map<number, DevnetChain>();
    await Promise.all(chainIds.map(async (chainId) => {
      const a = anvils.find((x) => x.chainId === chainId)!;
      const provider = makeProvider(a.url, chainId);
      providers.push(provider);
      const answered = BigInt(await provider.send('eth_chainId', []));
      if (answered !== BigInt(chainId)) throw new Error(`anvil on ${a.url} answers chain id ${answered}, not ${chainId}`);
      const deployment = await seedChain({ provider, chainId, artifacts, data, admin, relayer: relayerAddress, wallets, warmRouter: options.warmRouter, warmPools: options.warmPools });
      chains.set(chainId, { chainId, url: a.url, pid: a.pid, provider, deployment });
      options.log?.(`chain ${chainId} ready on ${a.url} (pid ${a.pid}): ${deployment.tokens.size} tokens, ${deployment.pools.length} pools, ${deployment.bridgeRoutes} bridge routes${uniswapSummary(deployment)}; ms ${JSON.stringify(deployment.timings)}`);
    }));
    timings.seeded = Date.now() - started;

    if (options.relayer ?? true) {
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
    }
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
          for (const [c, id] of ids) {
            const ok = (await c.provider.send('evm_revert', [id])) as boolean;
            if (!ok) throw new Error(`evm_revert ${id} failed on chain ${c.chainId}`);
          }
          await relayer?.resync();
        };
      },
      stop,
    };
  } catch (error) {
    await stop();
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
