import { quoteHopExactIn } from '../liquidity/poolQuote';
import { WRAP_GAS } from './graph';
import type { QuoteMemo, SwapLeg, SwapPath } from './paths';

/**
 * Re-prices a path's hops forward for another input amount (same pools, same order).
 * Undefined when a hop cannot take the amount.
 */
export function replayPath(path: SwapPath, amountIn: bigint, memo: QuoteMemo): SwapPath | undefined {
  if (amountIn === path.amountIn) return path;
  let amount = amountIn;
  const legs: SwapLeg[] = [];
  for (const leg of path.legs) {
    if (leg.edge.kind !== 'pool') {
      legs.push({ edge: leg.edge, amountIn: amount, amountOut: amount, gasUnits: WRAP_GAS });
      continue;
    }
    const { pool, i, j } = leg.edge;
    const key = `${pool.id}:${i}:${j}:in:${amount}`;
    let quote = memo.get(key);
    if (!quote) {
      quote = quoteHopExactIn(pool, i, j, amount);
      memo.set(key, quote);
    }
    if (!quote.ok) return undefined;
    legs.push({ edge: leg.edge, amountIn: amount, amountOut: quote.amountOut, gasUnits: quote.gasUnits });
    amount = quote.amountOut;
  }
  return { ...path, amountIn, amountOut: amount, legs, gasUnits: legs.reduce((s, l) => s + l.gasUnits, 0n) };
}

/** A path's pool ids (for excluding them from the other half of a split). */
export function poolIdsOf(path: SwapPath): Set<string> {
  return new Set(path.legs.flatMap((l) => (l.edge.kind === 'pool' ? [l.edge.pool.id] : [])));
}
