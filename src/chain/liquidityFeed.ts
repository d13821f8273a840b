/**
 * One chain reader per instance: with several workers (WORKERS > 1, node:cluster) in chain mode, the primary process
 * follows the chains (liveLiquidity.ts) and feeds every worker the pool states it reads, instead of each worker
 * polling every RPC on its own. An update says which chains changed, the state of every pool that differs from the
 * embedded snapshot (discovered pools included) and the gas per chain; a worker applies it to its own graph
 * (RoutingGraph.derive: only the touched chains indexed again, the others keep their pool objects and memos).
 *
 * The primary sends the latest update to a worker as soon as it is online, so that a new or restarted worker starts
 * on the chains' state, not the snapshot's; the worker waits for that first update before it listens.
 */
import type { Token } from '../core/entities';
import type { LiquidityState } from '../core/routing/liquidityState';
import type { ChainGas, LiquiditySnapshot, PoolState } from '../core/liquidity/snapshot';
import { RoutingGraph } from '../core/routing/graph';
import { pricesOf } from '../core/liquidity/marketPrices';

/** What the primary sends a worker. */
export interface LiquidityUpdate {
  readonly type: 'liquidity';
  /** Chains whose pools or gas changed since the previous update (every chain of the instance for the first one). */
  readonly touched: readonly number[];
  /** Pools whose state is not the snapshot's, and pools discovered since it. */
  readonly pools: readonly PoolState[];
  /** Ids of the snapshot's pools that are not quoted (no contract at their address on a followed chain). */
  readonly dropped: readonly string[];
  readonly gas: readonly ChainGas[];
  /** Every coin's price (coinKey, decimal text) in the primary's catalog: the pools' prices in chain mode. */
  readonly prices: readonly (readonly [string, string])[];
  /** The tokens outside the catalog found with the factories' pools (unverified), every one so far. */
  readonly tokens: readonly Token[];
}

/** JSON with big integers kept exact: a bigint is written as {"$bigint": "<digits>"}. */
export function encodeUpdate(update: LiquidityUpdate): string {
  return JSON.stringify(update, (_key, value: unknown) => (typeof value === 'bigint' ? { $bigint: value.toString() } : value));
}

export function decodeUpdate(text: string): LiquidityUpdate {
  return JSON.parse(text, (_key, value: unknown) => {
    if (value !== null && typeof value === 'object' && '$bigint' in value && Object.keys(value).length === 1) return BigInt((value as { $bigint: string }).$bigint);
    return value;
  }) as LiquidityUpdate;
}

/**
 * The primary's side: a LiquidityState target for the chain follower (startChainMode) that, on every graph it
 * publishes, tells `send` what changed against the snapshot `base` and the graph before. `latest()` is the full
 * state for a worker that comes online.
 */
export class LiquidityFeed {
  private previous: LiquiditySnapshot;

  constructor(
    private readonly state: LiquidityState,
    private readonly base: LiquiditySnapshot,
    private readonly send: (update: LiquidityUpdate) => void,
  ) {
    this.previous = base;
  }

  get graph(): RoutingGraph {
    return this.state.graph;
  }

  replace(graph: RoutingGraph): void {
    const before = this.state.graph.catalog;
    this.state.replace(graph);
    const touched = changedChains(this.previous, graph.snapshot);
    this.previous = graph.snapshot;
    if (touched.length > 0 || graph.catalog !== before) this.send(this.updateOf(graph.snapshot, touched));
  }

  /** The full state against the snapshot, every chain touched (for a worker that starts). */
  latest(): LiquidityUpdate {
    const chains = [...new Set(this.base.pools.map((p) => p.chainId)), ...this.base.gas.keys()];
    return this.updateOf(this.previous, [...new Set(chains)].sort((a, b) => a - b));
  }

  private updateOf(snapshot: LiquiditySnapshot, touched: readonly number[]): LiquidityUpdate {
    const basePools = new Set(this.base.pools);
    const ids = new Set(snapshot.pools.map((p) => p.id));
    return {
      type: 'liquidity',
      touched,
      pools: snapshot.pools.filter((p) => !basePools.has(p)),
      dropped: this.base.pools.filter((p) => !ids.has(p.id)).map((p) => p.id),
      gas: [...snapshot.gas.values()],
      prices: [...pricesOf(this.state.graph.catalog)],
      tokens: discoveredTokensOf(this.state.graph),
    };
  }
}

/** The discovered (unverified) tokens of a graph's catalog. */
function discoveredTokensOf(graph: RoutingGraph): Token[] {
  return graph.catalog.chains.flatMap((chain) => graph.catalog.tokensOf(chain.id).filter((t) => t.verificationStatus === 'unverified'));
}

/** Chains whose pools (by object) or gas differ between two snapshots. */
function changedChains(before: LiquiditySnapshot, after: LiquiditySnapshot): number[] {
  const touched = new Set<number>();
  const old = new Set(before.pools);
  for (const p of after.pools) if (!old.has(p)) touched.add(p.chainId);
  const kept = new Set(after.pools);
  for (const p of before.pools) if (!kept.has(p)) touched.add(p.chainId);
  for (const [chainId, gas] of after.gas) if (before.gas.get(chainId) !== gas) touched.add(chainId);
  return [...touched].sort((a, b) => a - b);
}

/**
 * The worker's side: the update applied to `state`, on the worker's own snapshot `base` (the same embedded data as the
 * primary's). Pools of untouched chains keep the objects of the graph in use, so that their memos survive.
 */
export function applyUpdate(state: LiquidityState, base: LiquiditySnapshot, update: LiquidityUpdate): void {
  const touched = new Set(update.touched);
  const current = state.graph;
  const inUse = new Map(current.snapshot.pools.map((p) => [p.id, p]));
  const received = new Map(update.pools.map((p) => [p.id, p]));
  const pick = (p: PoolState) => (touched.has(p.chainId) ? received.get(p.id) ?? p : inUse.get(p.id) ?? p);
  // pools the primary discovered: every update lists them all, in the order it found them
  const baseIds = new Set(base.pools.map((p) => p.id));
  const discovered = update.pools.filter((p) => !baseIds.has(p.id)).map(pick);
  const gas = new Map(current.snapshot.gas);
  for (const g of update.gas) if (touched.has(g.chainId)) gas.set(g.chainId, g);
  const dropped = new Set(update.dropped);
  const snapshot: LiquiditySnapshot = {
    asOf: new Date().toISOString(),
    pools: [...base.pools.filter((p) => !dropped.has(p.id)).map(pick), ...discovered],
    bridges: base.bridges,
    gas,
  };
  // the tokens first: the discovered pools' tokens must be in the catalog the graph is built on
  state.replace(RoutingGraph.derive(current, snapshot, touched, current.catalog.withDiscoveredTokens(update.tokens).withPrices(new Map(update.prices))));
}
