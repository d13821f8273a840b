/**
 * Constant-product (x·y = k) pool math, Uniswap V2 and its forks.
 *
 * Fees are given in parts per million of the input (`feePpm`): 0.3 % = 3000 (Uniswap V2, Sushi), 0.25 % = 2500
 * (PancakeSwap V2), 1 % = 10000, 0.05 % = 500, 0.01 % = 100. Uniswap writes 0.3 % as 997/1000; 997000/1000000 is
 * the same rational, so every result here is bit-for-bit the one of UniswapV2Library for the same pool.
 *
 * Pure functions on raw token units; nothing is mutated. Outputs round down, required inputs round up.
 */
import { assertNonNegative, divFloor, MathDomainError, PPM, Rational, rationalToPpmCeil } from './rational';

/** Common fee tiers in parts per million. */
export const V2_FEE_PPM = {
  UNISWAP_V2: 3000n, // 0.3 %  (997/1000)
  PANCAKE_V2: 2500n, // 0.25 % (9975/10000)
  ONE_PERCENT: 10000n,
  FIVE_BPS: 500n,
  ONE_BP: 100n,
} as const;

function assertFee(feePpm: bigint): void {
  if (feePpm < 0n || feePpm >= PPM) {
    throw new MathDomainError('FEE_OUT_OF_RANGE', `feePpm must be in [0, 1e6) (got ${feePpm})`);
  }
}

/**
 * Exact-input quote: out = floor(aIn·(1e6−fee)·rOut / (rIn·1e6 + aIn·(1e6−fee))).
 * Zero input or an empty reserve gives 0 (no throw). Any input, however far above the reserves, gives an output
 * strictly below `reserveOut`.
 */
export function getAmountOut(amountIn: bigint, reserveIn: bigint, reserveOut: bigint, feePpm: bigint): bigint {
  assertFee(feePpm);
  assertNonNegative('amountIn', amountIn);
  assertNonNegative('reserveIn', reserveIn);
  assertNonNegative('reserveOut', reserveOut);
  if (amountIn === 0n || reserveIn === 0n || reserveOut === 0n) return 0n;
  const amountInWithFee = amountIn * (PPM - feePpm);
  const numerator = amountInWithFee * reserveOut;
  const denominator = reserveIn * PPM + amountInWithFee;
  return divFloor(numerator, denominator); // rounds down: the pool keeps the remainder
}

export type AmountInFailureReason = 'INSUFFICIENT_LIQUIDITY' | 'ZERO_RESERVES';

export type AmountInResult =
  | { readonly ok: true; readonly amountIn: bigint }
  | { readonly ok: false; readonly reason: AmountInFailureReason; readonly maxAmountOut: bigint };

/**
 * Exact-output quote: in = floor(rIn·aOut·1e6 / ((rOut − aOut)·(1e6−fee))) + 1 (the "+1" of UniswapV2Library,
 * which makes the result a strict upper bound, i.e. rounds up).
 * Requires aOut < rOut; otherwise a typed failure carrying the largest output that can be asked for (rOut − 1).
 * An output of 0 needs an input of 0 (Uniswap would revert; a router would rather skip the leg).
 */
export function getAmountIn(amountOut: bigint, reserveIn: bigint, reserveOut: bigint, feePpm: bigint): AmountInResult {
  assertFee(feePpm);
  assertNonNegative('amountOut', amountOut);
  assertNonNegative('reserveIn', reserveIn);
  assertNonNegative('reserveOut', reserveOut);
  if (reserveIn === 0n || reserveOut === 0n) return { ok: false, reason: 'ZERO_RESERVES', maxAmountOut: 0n };
  if (amountOut >= reserveOut) {
    return { ok: false, reason: 'INSUFFICIENT_LIQUIDITY', maxAmountOut: reserveOut - 1n };
  }
  if (amountOut === 0n) return { ok: true, amountIn: 0n };
  const numerator = reserveIn * amountOut * PPM;
  const denominator = (reserveOut - amountOut) * (PPM - feePpm);
  return { ok: true, amountIn: divFloor(numerator, denominator) + 1n }; // floor + 1: rounds up (strictly)
}

/** Mid price of the output token in units of the input token: rOut/rIn (raw units, exact). */
export function midPrice(reserveIn: bigint, reserveOut: bigint): Rational {
  if (reserveIn <= 0n) throw new MathDomainError('ZERO_RESERVES', 'midPrice needs reserveIn > 0');
  assertNonNegative('reserveOut', reserveOut);
  return { num: reserveOut, den: reserveIn };
}

/**
 * Price impact of a trade against the fee-adjusted mid price, as an exact rational:
 * impact = 1 − (aOut/aIn) / ((rOut/rIn)·(1 − fee)) = (aIn·rOut·(1e6−fee) − aOut·rIn·1e6) / (aIn·rOut·(1e6−fee)).
 * The fee is not counted as impact. A zero trade (or an empty pool) has impact 0/1; a negative value (an output
 * better than the mid price, impossible for a V2 quote) is clamped to 0.
 */
export function priceImpact(
  amountIn: bigint,
  amountOut: bigint,
  reserveIn: bigint,
  reserveOut: bigint,
  feePpm: bigint,
): Rational {
  assertFee(feePpm);
  assertNonNegative('amountIn', amountIn);
  assertNonNegative('amountOut', amountOut);
  if (amountIn === 0n || reserveIn === 0n || reserveOut === 0n) return { num: 0n, den: 1n };
  const den = amountIn * reserveOut * (PPM - feePpm);
  const num = den - amountOut * reserveIn * PPM;
  return num <= 0n ? { num: 0n, den: 1n } : { num, den };
}

/** Price impact in parts per million, rounded up (so a filter "impact ≤ max" errs on the safe side). */
export function priceImpactPpm(
  amountIn: bigint,
  amountOut: bigint,
  reserveIn: bigint,
  reserveOut: bigint,
  feePpm: bigint,
): bigint {
  return rationalToPpmCeil(priceImpact(amountIn, amountOut, reserveIn, reserveOut, feePpm)); // rounds up
}

/** The reserves after an exact-input swap, as new values (the inputs are not touched). */
export function reservesAfterSwap(
  amountIn: bigint,
  reserveIn: bigint,
  reserveOut: bigint,
  feePpm: bigint,
): { readonly amountOut: bigint; readonly reserveIn: bigint; readonly reserveOut: bigint } {
  const amountOut = getAmountOut(amountIn, reserveIn, reserveOut, feePpm);
  return { amountOut, reserveIn: reserveIn + amountIn, reserveOut: reserveOut - amountOut };
}
