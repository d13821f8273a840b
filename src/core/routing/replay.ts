import { quoteHopExactIn } from '../liquidity/poolQuote';
import { WRAP_GAS, type SwapEdge } from './graph';
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
    const { pool, i, j } = edge;
    const key = `${pool.id}:${i}:${j}:in:${amount}`;
    let quote = memo.get(key);
    if (!quote) {
      quote = quoteHopExactIn(pool, i, j, amount);
      memo.set(key, quote);
    }
    if (!quote.ok) return undefined;
    legs.push({ edge, amountIn: amount, amountOut: quote.amountOut, gasUnits: quote.gasUnits });
    gasUnits += quote.gasUnits;
    amount = quote.amountOut;
  }
  const toToken = edges.length > 0 ? edges[edges.length - 1].to : fromToken;
  return { chainId, fromToken, toToken, amountIn, amountOut: amount, legs, gasUnits };
}

/** Re-prices a path's hops forward for another input amount (same pools, same order). */
export function replayPath(path: SwapPath, amountIn: bigint, memo: QuoteMemo): SwapPath | undefined {
  if (amountIn === path.amountIn) return path;
  return priceEdges(path.chainId, path.fromToken, path.legs.map((l) => l.edge), amountIn, memo);
}

/** A path's pool ids (for excluding them from the other half of a split). */
export function poolIdsOf(path: SwapPath): Set<string> {
  return new Set(path.legs.flatMap((l) => (l.edge.kind === 'pool' ? [l.edge.pool.id] : [])));
}
