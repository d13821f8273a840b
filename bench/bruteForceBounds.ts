/**
 * The upper bounds the brute force prunes with (bruteForce.ts's module comment): a pool hop's marginal rate, the best
 * product of rates over the remaining hops, and the gas of the most expensive pool hop of a chain.
 */
import type { PoolState } from '../src/core/liquidity/snapshot';
import type { PoolEdge, RoutingGraph } from '../src/core/routing/graph';
import { GAS, quotePoolHop } from './referencePricing';

const edgeRates = new WeakMap<PoolState, Map<string, number>>();

/**
 * Bound of output per unit of input of a pool hop: the marginal rate at the pool's current state (outputs are
 * concave in the input). Constant product and concentrated liquidity from their state; StableSwap from a
 * one-token probe with a 0.1 % margin (its invariant is solved numerically). Infinity when unknown.
 */
export function edgeRate(graph: RoutingGraph, edge: PoolEdge): number {
  const { pool, i, j } = edge;
  let cache = edgeRates.get(pool);
  if (!cache) {
    cache = new Map();
    edgeRates.set(pool, cache);
  }
  const key = `${i}:${j}`;
  let rate = cache.get(key);
  if (rate === undefined) {
    switch (pool.kind) {
      case 'constantProduct':
        rate = pool.reserves[i] > 0n ? (Number(1_000_000n - pool.feePpm) / 1e6) * (Number(pool.reserves[j]) / Number(pool.reserves[i])) : Infinity;
        break;
      case 'concentrated': {
        const sqrt = Number(pool.v3.sqrtPriceX96) / 2 ** 96;
        const price = sqrt * sqrt; // token1 per token0, raw units
        rate = (i === 0 ? price : 1 / price) * (Number(1_000_000n - pool.feePpm) / 1e6);
        break;
      }
      case 'stableswap': {
        const probe = 10n ** BigInt(graph.token(pool.chainId, pool.tokens[i]).decimals);
        const quote = quotePoolHop(edge, probe);
        rate = quote.ok ? (Number(quote.amountOut) + 1) / Number(probe) * 1.001 : Infinity;
        break;
      }
    }
    rate = rate * (1 + 1e-9);
    cache.set(key, rate);
  }
  return rate;
}

/** rates[k]: per token, the best product of hop rates to `to` over at most k pool hops (wraps free; simple or not). */
export function rateBounds(graph: RoutingGraph, chainId: number, to: string, maxHops: number): ReadonlyMap<string, number>[] {
  const tokens = new Set<string>([to]);
  for (const pool of graph.pools) if (pool.chainId === chainId) for (const t of pool.tokens) tokens.add(t);
  for (const t of [...tokens]) for (const e of graph.edgesFrom(chainId, t)) tokens.add(e.to);
  const levels: Map<string, number>[] = [];
  for (let k = 0; k <= maxHops; k++) {
    const level = new Map<string, number>(k === 0 ? [[to, 1]] : levels[k - 1]);
    for (let pass = 0; pass < 3; pass++) { // wrap chains are one edge long; passes make sure of the closure
      for (const t of tokens) {
        for (const edge of graph.edgesFrom(chainId, t)) {
          const next = edge.kind === 'pool' ? (k > 0 ? levels[k - 1].get(edge.to) : undefined) : level.get(edge.to);
          if (next === undefined) continue;
          const value = edge.kind === 'pool' ? edgeRate(graph, edge) * next : next;
          if (value > (level.get(t) ?? -1)) level.set(t, value);
        }
      }
    }
    levels.push(level);
  }
  return levels;
}

/** Gas bound of one pool hop on a chain: the most expensive pool (a concentrated pool crossing every tick of its window). */
export function maxHopGas(graph: RoutingGraph, chainId: number): bigint {
  let most: bigint = GAS.stableswap;
  for (const pool of graph.pools) {
    if (pool.chainId !== chainId || pool.kind !== 'concentrated') continue;
    const gas = GAS.concentrated + GAS.tickCrossed * BigInt(pool.v3.ticks.length + 2);
    if (gas > most) most = gas;
  }
  return most;
}
