/**
 * Concentrated-liquidity (Uniswap V3) quotes on a pool snapshot, following UniswapV3Pool.swap step by step:
 * the same tick-bitmap walk (steps stop at initialised ticks and at 256-tick word boundaries, which matters for
 * rounding), the same SwapMath.computeSwapStep, the same liquidityNet crossing rule.
 *
 * A snapshot holds only a window of initialised ticks around the price. The swap may move the price up to the last
 * initialised tick of the window in its direction (and crosses it); beyond that nothing is known, so the quote stops
 * there and reports `exhausted: true` if part of the amount is left. The snapshot is never mutated.
 */
import { addDelta } from './fullMath';
import { MathDomainError, Rational } from './rational';
import { computeSwapStep } from './swapMath';
import { getSqrtRatioAtTick, getTickAtSqrtRatio, MAX_SQRT_RATIO, MAX_TICK, MIN_SQRT_RATIO, MIN_TICK } from './tickMath';

export interface ConcentratedPool {
  readonly sqrtPriceX96: bigint;
  readonly tick: number;
  /** Active (in-range) liquidity. */
  readonly liquidity: bigint;
  /** Fee in pips (parts per million): 100, 500, 3000, 10000. */
  readonly feePpm: bigint;
  readonly tickSpacing: number;
  /** Initialised ticks of the window, sorted ascending, each a multiple of tickSpacing: [tick, liquidityNet]. */
  readonly ticks: ReadonlyArray<readonly [number, bigint]>;
}

export interface SwapStateAfter {
  readonly sqrtPriceAfter: bigint;
  readonly tickAfter: number;
  readonly liquidityAfter: bigint;
  /** Initialised ticks crossed (gas: ~31k each). */
  readonly ticksCrossed: number;
  /** Fee paid to the pool, in the input token. */
  readonly feePaid: bigint;
  /** True when the window (or the price range of the protocol) ran out before the amount was filled. */
  readonly exhausted: boolean;
}

export interface ExactInputQuote extends SwapStateAfter {
  readonly amountOut: bigint;
  /** Input actually consumed, fee included (< amountIn only when exhausted). */
  readonly amountInUsed: bigint;
}

export interface ExactOutputQuote extends SwapStateAfter {
  /** Input required, fee included, rounded up. */
  readonly amountIn: bigint;
  /** Output actually obtained (< requested only when exhausted). */
  readonly amountOut: bigint;
}

const MAX_INT256 = (1n << 255n) - 1n;

function checkPool(pool: ConcentratedPool): void {
  const { tickSpacing, ticks } = pool;
  if (!Number.isSafeInteger(tickSpacing) || tickSpacing <= 0) {
    throw new MathDomainError('BAD_TICK_SPACING', `tickSpacing must be a positive integer (got ${tickSpacing})`);
  }
  if (pool.liquidity < 0n) throw new MathDomainError('NEGATIVE_LIQUIDITY', 'liquidity must be >= 0');
  if (pool.sqrtPriceX96 < MIN_SQRT_RATIO || pool.sqrtPriceX96 >= MAX_SQRT_RATIO) {
    throw new MathDomainError('SQRT_RATIO_OUT_OF_RANGE', `sqrtPriceX96 ${pool.sqrtPriceX96} out of range`);
  }
  for (let k = 0; k < ticks.length; k++) {
    const t = ticks[k]![0];
    if (!Number.isSafeInteger(t) || t % tickSpacing !== 0 || t < MIN_TICK || t > MAX_TICK) {
      throw new MathDomainError('BAD_TICK', `tick ${t} is not a multiple of ${tickSpacing} inside the tick range`);
    }
    if (k > 0 && ticks[k - 1]![0] >= t) throw new MathDomainError('TICKS_NOT_SORTED', 'ticks must be strictly ascending');
  }
}

/** Index of the last listed tick ≤ tick, or -1. */
function lastAtOrBelow(ticks: ConcentratedPool['ticks'], tick: number): number {
  let lo = 0;
  let hi = ticks.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (ticks[mid]![0] <= tick) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/**
 * TickBitmap.nextInitializedTickWithinOneWord on the sorted tick list: the next initialised tick at or below
 * (`lte`, price going down) or strictly above the current tick, but never past the 256-compressed-tick word
 * boundary; in that case the boundary is returned as uninitialised.
 */
export function nextInitializedTickWithinOneWord(
  ticks: ConcentratedPool['ticks'],
  tick: number,
  tickSpacing: number,
  lte: boolean,
): { readonly next: number; readonly initialized: boolean } {
  const { next, index } = nextTickWithinOneWord(ticks, tick, tickSpacing, lte);
  return { next, initialized: index >= 0 };
}

/** nextInitializedTickWithinOneWord with the index of the initialised tick in `ticks` (−1: a word boundary). */
function nextTickWithinOneWord(ticks: ConcentratedPool['ticks'], tick: number, tickSpacing: number, lte: boolean): { next: number; index: number } {
  const compressed = Math.floor(tick / tickSpacing); // rounds towards −∞ like the Solidity code
  if (lte) {
    const wordStart = Math.floor(compressed / 256) * 256 * tickSpacing;
    const k = lastAtOrBelow(ticks, tick);
    if (k >= 0 && ticks[k]![0] >= wordStart) return { next: ticks[k]![0], index: k };
    return { next: wordStart, index: -1 };
  }
  const wordEnd = (Math.floor((compressed + 1) / 256) * 256 + 255) * tickSpacing;
  const k = lastAtOrBelow(ticks, tick) + 1; // first listed tick > tick
  if (k < ticks.length && ticks[k]![0] <= wordEnd) return { next: ticks[k]![0], index: k };
  return { next: wordEnd, index: -1 };
}

/**
 * getSqrtRatioAtTick of each initialised tick of the pool, in the order of `pool.ticks`. A quote computes the
 * price of every tick it reaches; a caller quoting one pool many times can compute these once and pass them in.
 */
export function tickSqrtRatios(pool: ConcentratedPool): readonly bigint[] {
  return pool.ticks.map(([tick]) => getSqrtRatioAtTick(tick));
}

interface SimulationResult extends SwapStateAfter {
  readonly amountIn: bigint; // fee included
  readonly amountOut: bigint;
}

/** What simulateSwap finds, as plain fields: the tick after is undefined when it has to be derived from the price. */
interface Simulation {
  readonly amountIn: bigint; // fee included
  readonly amountOut: bigint;
  readonly sqrtPriceAfter: bigint;
  readonly tick: number | undefined;
  readonly liquidityAfter: bigint;
  readonly ticksCrossed: number;
  readonly feePaid: bigint;
  readonly exhausted: boolean;
}

/** The outcome of an exact-input swap that a route's hop needs (no tick after: nothing to derive). */
export interface ExactInputOutcome {
  readonly amountOut: bigint;
  readonly ticksCrossed: number;
  readonly exhausted: boolean;
}

/**
 * quoteExactInput's amountOut, ticksCrossed and exhausted, without building its quote object (whose lazy
 * tickAfter costs an accessor and a closure per quote): the route search prices hops with this.
 */
export function exactInputOutcome(pool: ConcentratedPool, zeroForOne: boolean, amountIn: bigint, sqrtRatios?: readonly bigint[]): ExactInputOutcome {
  if (amountIn < 0n) throw new MathDomainError('NEGATIVE_AMOUNT', 'amountIn must be >= 0');
  return simulateSwap(pool, zeroForOne, amountIn, sqrtRatios);
}

/** A simulation as the quotes report it: tickAfter computed from the final price on first read when needed. */
function withTickAfter(simulation: Simulation): SimulationResult {
  const { amountIn, amountOut, sqrtPriceAfter, liquidityAfter, ticksCrossed, feePaid, exhausted } = simulation;
  let tickAfter = simulation.tick;
  return {
    amountIn,
    amountOut,
    sqrtPriceAfter,
    get tickAfter(): number {
      tickAfter ??= getTickAtSqrtRatio(sqrtPriceAfter);
      return tickAfter;
    },
    liquidityAfter,
    ticksCrossed,
    feePaid,
    exhausted,
  };
}

/**
 * UniswapV3Pool.swap without a caller-supplied limit; amountSpecified ≥ 0 is exact input, < 0 exact output.
 * `sqrtRatios`: tickSqrtRatios(pool), when the caller has them.
 */
function simulateSwap(pool: ConcentratedPool, zeroForOne: boolean, amountSpecified: bigint, sqrtRatios?: readonly bigint[]): Simulation {
  checkPool(pool);
  if (sqrtRatios !== undefined && sqrtRatios.length !== pool.ticks.length) throw new MathDomainError('BAD_SQRT_RATIOS', 'one sqrt ratio per tick');
  if (amountSpecified > MAX_INT256 || -amountSpecified > MAX_INT256) {
    throw new MathDomainError('AMOUNT_TOO_LARGE', 'amount does not fit in int256');
  }
  const exactInput = amountSpecified >= 0n;
  const sqrtPriceLimitX96 = zeroForOne ? MIN_SQRT_RATIO + 1n : MAX_SQRT_RATIO - 1n;
  const { ticks, tickSpacing, feePpm } = pool;
  const lowestTick = ticks.length > 0 ? ticks[0]![0] : undefined;
  const highestTick = ticks.length > 0 ? ticks[ticks.length - 1]![0] : undefined;

  let remaining = amountSpecified;
  let sqrtPriceX96 = pool.sqrtPriceX96;
  let tick = pool.tick;
  let liquidity = pool.liquidity;
  let amountIn = 0n;
  let amountOut = 0n;
  let feePaid = 0n;
  let ticksCrossed = 0;
  let exhausted = false;
  let tickStale = false;

  while (remaining !== 0n) {
    // leaving the window: no initialised tick known beyond this point in the swap direction
    const insideWindow = zeroForOne
      ? lowestTick !== undefined && lowestTick <= tick
      : highestTick !== undefined && highestTick > tick;
    if (!insideWindow || sqrtPriceX96 === sqrtPriceLimitX96) {
      exhausted = true;
      break;
    }
    const sqrtPriceStartX96 = sqrtPriceX96;
    const found = nextTickWithinOneWord(ticks, tick, tickSpacing, zeroForOne);
    const tickNext = Math.min(Math.max(found.next, MIN_TICK), MAX_TICK);
    // an initialised tick is inside the tick range (checkPool), so tickNext is that tick
    const sqrtPriceNextX96 = found.index >= 0 && sqrtRatios !== undefined ? sqrtRatios[found.index]! : getSqrtRatioAtTick(tickNext);
    const beyondLimit = zeroForOne ? sqrtPriceNextX96 < sqrtPriceLimitX96 : sqrtPriceNextX96 > sqrtPriceLimitX96;
    const step = computeSwapStep(
      sqrtPriceX96,
      beyondLimit ? sqrtPriceLimitX96 : sqrtPriceNextX96,
      liquidity,
      remaining,
      feePpm,
    );
    sqrtPriceX96 = step.sqrtRatioNextX96;
    if (exactInput) remaining -= step.amountIn + step.feeAmount;
    else remaining += step.amountOut;
    amountIn += step.amountIn + step.feeAmount;
    amountOut += step.amountOut;
    feePaid += step.feeAmount;

    if (sqrtPriceX96 === sqrtPriceNextX96) {
      if (found.index >= 0) {
        const liquidityNet = ticks[found.index]![1];
        // crossing down removes what crossing up adds (UniswapV3Pool: liquidityNet = -liquidityNet if zeroForOne)
        liquidity = addDelta(liquidity, zeroForOne ? -liquidityNet : liquidityNet);
        ticksCrossed++;
      }
      tick = zeroForOne ? tickNext - 1 : tickNext;
    } else if (sqrtPriceX96 !== sqrtPriceStartX96) {
      // The step ended inside a range, so the amount is filled and the loop ends: the tick of the final
      // price is only part of the reported state, and is computed when it is read.
      tickStale = true;
    }
  }

  return {
    amountIn,
    amountOut,
    sqrtPriceAfter: sqrtPriceX96,
    tick: tickStale ? undefined : tick,
    liquidityAfter: liquidity,
    ticksCrossed,
    feePaid,
    exhausted,
  };
}

/** Exact-input quote. zeroForOne: token0 in, token1 out. The output rounds down at every step. */
export function quoteExactInput(pool: ConcentratedPool, zeroForOne: boolean, amountIn: bigint, sqrtRatios?: readonly bigint[]): ExactInputQuote {
  if (amountIn < 0n) throw new MathDomainError('NEGATIVE_AMOUNT', 'amountIn must be >= 0');
  const result = withTickAfter(simulateSwap(pool, zeroForOne, amountIn, sqrtRatios));
  return {
    amountOut: result.amountOut,
    amountInUsed: result.amountIn,
    sqrtPriceAfter: result.sqrtPriceAfter,
    get tickAfter(): number {
      return result.tickAfter; // computed on first read
    },
    liquidityAfter: result.liquidityAfter,
    ticksCrossed: result.ticksCrossed,
    feePaid: result.feePaid,
    exhausted: result.exhausted,
  };
}

/**
 * Exact-output quote: the same steps driven by the output; the required input rounds up at every step
 * (and the fee is grossed up, rounding up). zeroForOne: token0 in, token1 out.
 */
export function quoteExactOutput(pool: ConcentratedPool, zeroForOne: boolean, amountOut: bigint, sqrtRatios?: readonly bigint[]): ExactOutputQuote {
  if (amountOut < 0n) throw new MathDomainError('NEGATIVE_AMOUNT', 'amountOut must be >= 0');
  return withTickAfter(simulateSwap(pool, zeroForOne, -amountOut, sqrtRatios));
}

/** Mid price in raw units of token1 per token0: sqrtPriceX96² / 2^192, exact. */
export function midPrice(pool: Pick<ConcentratedPool, 'sqrtPriceX96'>): Rational {
  return { num: pool.sqrtPriceX96 * pool.sqrtPriceX96, den: 1n << 192n };
}
