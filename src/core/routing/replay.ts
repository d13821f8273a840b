import { quoteHopExactIn, type HopQuote } from '../liquidity/poolQuote';
import { WRAP_GAS, type PoolEdge, type SwapEdge } from './graph';
import type { QuoteMemo, SwapLeg, SwapPath } from './paths';

/**
 * Prices a sequence of hops forward, exactly, for an input amount. Undefined when a hop cannot take
 * the amount.
 */
export function priceEdges(chainId: number, fromToken: string, edges: readonly SwapEdge[], amountIn: bigint, memo: QuoteMemo): SwapPath | undefined {
  let amount = amountIn;
  const legs: SwapLeg[] = [];
  let gasUnits = 0n;
  for (const edge of edges) {
    if (edge.kind !== 'pool') {
      legs.push({ edge, amountIn: amount, amountOut: amount, gasUnits: WRAP_GAS });
      gasUnits += WRAP_GAS;
      continue;
    }
    const quote = quoteHop(memo, edge, amount);
    if (!quote.ok) return undefined;
    legs.push({ edge, amountIn: amount, amountOut: quote.amountOut, gasUnits: quote.gasUnits });
    gasUnits += quote.gasUnits;
    amount = quote.amountOut;
  }
  const toToken = edges.length > 0 ? edges[edges.length - 1].to : fromToken;
  return { chainId, fromToken, toToken, amountIn, amountOut: amount, legs, gasUnits };
}

/**
 * The exact quote of a pool hop for an amount, through the per-request memo: the same hop (pool id and
 * direction) with the same amount is priced once. Each edge's part of the key is written once per edge.
 */
export function quoteHop(memo: QuoteMemo, edge: PoolEdge, amount: bigint): HopQuote {
  let hop = HOP_KEYS.get(edge);
  if (hop === undefined) {
    hop = `${edge.pool.id}:${edge.i}:${edge.j}:in`;
    HOP_KEYS.set(edge, hop);
  }
  let byAmount = memo.get(hop);
  if (byAmount === undefined) memo.set(hop, (byAmount = new Map()));
  let quote = byAmount.get(amount);
  if (quote === undefined) {
    quote = quoteHopExactIn(edge.pool, edge.i, edge.j, amount);
    byAmount.set(amount, quote);
  }
  return quote;
}

/** The memo key of each edge's hop (an edge and its pool never change; weakly held: it goes with its graph). */
const HOP_KEYS = new WeakMap<PoolEdge, string>();

/** Re-prices a path's hops forward for another input amount (same pools, same order). */
export function replayPath(path: SwapPath, amountIn: bigint, memo: QuoteMemo): SwapPath | undefined {
  if (amountIn === path.amountIn) return path;
  return priceEdges(path.chainId, path.fromToken, path.legs.map((l) => l.edge), amountIn, memo);
}

/** A path's pool ids (for excluding them from the other half of a split). */
export function poolIdsOf(path: SwapPath): Set<string> {
  return new Set(path.legs.flatMap((l) => (l.edge.kind === 'pool' ? [l.edge.pool.id] : [])));
}
