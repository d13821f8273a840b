/**
 * Chain mode start-up: checks that each configured chain is the chain it claims to be (eth_chainId), then reads
 * every snapshot pool from the chains and keeps them current (LiveLiquidity) in the service's LiquidityState.
 *
 * A chain that answers another chain id stops the start-up (a configuration error). A chain that does not answer
 * does not: the service starts, quotes that chain's pools from the embedded snapshot, logs it, and keeps trying;
 * the chain id is checked as soon as it answers (a mismatch then is logged and the chain is no longer followed).
 *
 * Entries of chains outside the EVM family open no EVM connection: a Solana entry is checked the same way with
 * getGenesisHash/getHealth (solanaNode.ts: a wrong genesis hash stops the start-up, a node that does not answer is
 * logged and asked again); an entry of a family the service speaks to no node of (Bitcoin, Sui, Tron) is only
 * advertised, which is logged. Nothing is read from them yet.
 */
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { Catalog } from '../core/catalog/catalog';
import type { LiquidityState } from '../core/routing/liquidityState';
import { ChainIdMismatchError, LiveLiquidity, verifyChainId, type ChainLiquidityStatus } from './liveLiquidity';
import type { ChainConnections } from './rpc';
import { SolanaNodes } from './solanaNode';
import { PoolDiscovery } from './poolDiscovery';
import type { RouterDeployments } from '../core/catalog/routers';
import type { PoolState } from '../core/liquidity/snapshot';
import type { RoutingGraph } from '../core/routing/graph';
import { familyOf } from '../core/chains/families';

/** What chain mode works on (the composition root's dependencies have them). */
export interface ChainModeParts {
  readonly catalog: Catalog;
  /** Receives every graph built from the chains' pool state. */
  readonly liquidity: LiquidityState;
  /** The connected chains; undefined or empty: nothing to follow. */
  readonly chains?: ChainConnections;
  /** The Solana nodes of CHAINS_FILE (checked, then read for blockhashes and fees); undefined: none. */
  readonly solana?: SolanaNodes;
  /** The exchanges' routers: which pools are the genuine Uniswap contracts (read through their real interface). */
  readonly routers?: RouterDeployments;
}

export interface ChainMode {
  /** Per chain: last block seen, pools read, last error (empty without CHAINS_FILE). */
  status(): ChainLiquidityStatus[];
  /** Stops following the chains (the providers stay open: close deps.chains afterwards). */
  stop(): Promise<void>;
}

export class ChainStartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChainStartError';
  }
}

/** How this process takes the chains' pool state. */
export interface ChainModeOptions {
  /**
   * `self` (default): it follows the EVM chains itself; `fed`: another process does (the primary of several workers,
   * liquidityFeed.ts) and this one only checks its Solana nodes.
   */
  readonly pools?: 'self' | 'fed';
  /** Where the graphs read from the chains go (default deps.liquidity): the primary's feed. */
  readonly target?: { readonly graph: RoutingGraph; replace(graph: RoutingGraph): void };
}

export async function startChainMode(deps: ChainModeParts, config: Config, logger: Logger, options: ChainModeOptions = {}): Promise<ChainMode> {
  const connections = options.pools === 'fed' ? [] : deps.chains?.chains ?? [];
  for (const c of config.chains?.chains ?? []) {
    const chain = deps.catalog.getChain(c.chainId);
    if (!chain || familyOf(chain).evmContracts || familyOf(chain).rpcCheck !== undefined) continue;
    logger.info({ chainId: c.chainId }, `chain ${c.chainId} (${chain.name}): its RPC URL is advertised, not checked (the service speaks to no ${familyOf(chain).label} node)`);
  }
  const solana = deps.solana ?? new SolanaNodes([], { timeoutMs: 0, retryMs: 0 });
  if ((connections.length === 0 && !deps.solana) || !config.chains) return { status: () => [], stop: async () => {} };
  const started = performance.now();

  const [checks, solanaMismatches] = await Promise.all([Promise.allSettled(connections.map((c) => verifyChainId(c.provider, c.chainId))), solana.start(logger)]);
  const mismatches = [
    ...checks.flatMap((r) => (r.status === 'rejected' && r.reason instanceof ChainIdMismatchError ? [r.reason.message] : [])),
    ...solanaMismatches,
  ];
  if (mismatches.length > 0) {
    await solana.stop();
    throw new ChainStartError(`CHAINS_FILE names the wrong RPC for ${mismatches.length === 1 ? 'a chain' : 'chains'}: ${mismatches.join('; ')}`);
  }
  const verified = new Set<number>();
  checks.forEach((r, k) => {
    const c = connections[k];
    if (r.status === 'fulfilled') verified.add(c.chainId);
    else {
      const reason = ((r.reason as Error)?.message ?? String(r.reason)).split('\n')[0].slice(0, 200);
      logger.warn({ chainId: c.chainId, rpcUrl: c.rpcUrl }, `chain ${c.chainId} (${c.rpcUrl}) does not answer (${reason}): quoting its pools from the embedded snapshot until it does`);
    }
  });

  if (connections.length === 0) {
    const status = solana.status();
    logger.info({ chains: status.map((s) => ({ chainId: s.chainId, state: s.state })), ms: Math.round(performance.now() - started) }, `chain mode: no EVM chain; ${status.filter((s) => s.state === 'following').length} of ${status.length} Solana RPCs answer`);
    return { status: () => solana.status(), stop: () => solana.stop() };
  }
  const routers = deps.routers;
  const live = new LiveLiquidity({
    catalog: deps.catalog,
    ...(routers ? {
      genuine: (pool: PoolState) => pool.kind !== 'stableswap' && routers.exchangeRouter(pool.exchange, pool.kind)?.genuine !== undefined,
      discovery: PoolDiscovery.fromRouters(deps.catalog, routers),
      exchangeRouters: (chainId: number) => routers.exchangeRoutersOn(chainId),
    } : {}),
    ...(config.chains.prices === 'pools' ? { prices: { minDepthUSD: config.chains.priceMinDepthUSD } } : {}),
    base: deps.liquidity.graph.snapshot,
    target: options.target ?? deps.liquidity,
    chains: connections.map((c) => {
      const entry = config.chains!.chains.find((x) => x.chainId === c.chainId);
      return {
        chainId: c.chainId,
        rpc: c.provider,
        gasPrice: entry?.gasPrice ?? 'chain',
        ...(entry?.discoverFromBlock !== undefined ? { discoverFromBlock: entry.discoverFromBlock } : {}),
      };
    }),
    pollIntervalMs: config.chains.pollIntervalMs,
    logger,
    verified,
  });
  await live.start().catch(async (error: unknown) => {
    await solana.stop();
    throw error;
  });
  const status = [...live.status(), ...solana.status()];
  logger.info(
    { chains: status.map((s) => ({ chainId: s.chainId, state: s.state, block: s.lastBlock, pools: s.poolsRead, missing: s.poolsMissing })), ms: Math.round(performance.now() - started) },
    `chain mode: ${status.filter((s) => s.state === 'following').length} of ${status.length} chains followed, ${status.reduce((n, s) => n + s.poolsRead, 0)} pools read from the chains`,
  );
  return {
    status: () => [...live.status(), ...solana.status()],
    stop: async () => {
      await Promise.all([solana.stop(), live.stop()]);
    },
  };
}
