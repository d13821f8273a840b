/**
 * A swap path (a sequence of hops on one chain, each with its amounts) and its exact forward pricing: the
 * search (paths.ts) finds which hops to take, this prices them for an amount, and re-prices them for another.
 */
import { quoteHopExactIn, type HopQuote } from '../liquidity/poolQuote';
import { WRAP_GAS, type PoolEdge, type SwapEdge } from './graph';

export interface SwapLeg {
  readonly edge: SwapEdge;
  readonly amountIn: bigint;
  readonly amountOut: bigint;
  readonly gasUnits: bigint;
}

export interface SwapPath {
  readonly chainId: number;
  /** Lower-cased addresses. */
  readonly fromToken: string;
  readonly toToken: string;
  readonly amountIn: bigint;
  readonly amountOut: bigint;
  readonly legs: readonly SwapLeg[];
  readonly gasUnits: bigint;
}

/**
 * Per-request memo of hop quotes (quoteHop): by hop, then by amount. A hop is its graph edge (one edge per pool
 * and direction), so the memo goes with the request that made it.
 */
export type QuoteMemo = Map<PoolEdge, Map<bigint, HopQuote>>;

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

/** The exact quote of a pool hop for an amount, through the per-request memo: the same hop with the same amount is priced once. */
export function quoteHop(memo: QuoteMemo, edge: PoolEdge, amount: bigint): HopQuote {
  let byAmount = memo.get(edge);
  if (byAmount === undefined) memo.set(edge, (byAmount = new Map()));
  let quote = byAmount.get(amount);
  if (quote === undefined) {
    quote = quoteHopExactIn(edge.pool, edge.i, edge.j, amount);
    byAmount.set(amount, quote);
  }
  return quote;
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
