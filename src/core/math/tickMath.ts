/**
 * Uniswap V3 TickMath ported to bigint, bit for bit (same magic constants, same rounding).
 * sqrtPriceX96 = √(1.0001^tick)·2^96, for tick in [MIN_TICK, MAX_TICK].
 */
import { MathDomainError } from './rational';

export const MIN_TICK = -887272;
export const MAX_TICK = 887272;
/** getSqrtRatioAtTick(MIN_TICK) */
export const MIN_SQRT_RATIO = 4295128739n;
/** getSqrtRatioAtTick(MAX_TICK) */
export const MAX_SQRT_RATIO = 1461446703485210103287273052203988822378723970342n;

const MAX_UINT256 = (1n << 256n) - 1n;

/**
 * Multipliers 2^128 / √1.0001^(2^k) for k = 1..19, applied when bit k of |tick| is set (bit 0 seeds the product).
 * Copied from TickMath.sol; each one is checked against an exact rational in the unit tests.
 */
const BIT_MULTIPLIERS: ReadonlyArray<readonly [number, bigint]> = [
  [0x2, 0xfff97272373d413259a46990580e213an],
  [0x4, 0xfff2e50f5f656932ef12357cf3c7fdccn],
  [0x8, 0xffe5caca7e10e4e61c3624eaa0941cd0n],
  [0x10, 0xffcb9843d60f6159c9db58835c926644n],
  [0x20, 0xff973b41fa98c081472e6896dfb254c0n],
  [0x40, 0xff2ea16466c96a3843ec78b326b52861n],
  [0x80, 0xfe5dee046a99a2a811c461f1969c3053n],
  [0x100, 0xfcbe86c7900a88aedcffc83b479aa3a4n],
  [0x200, 0xf987a7253ac413176f2b074cf7815e54n],
  [0x400, 0xf3392b0822b70005940c7a398e4b70f3n],
  [0x800, 0xe7159475a2c29b7443b29c7fa6e889d9n],
  [0x1000, 0xd097f3bdfd2022b8845ad8f792aa5825n],
  [0x2000, 0xa9f746462d870fdf8a65dc1f90e061e5n],
  [0x4000, 0x70d869a156d2a1b890bb3df62baf32f7n],
  [0x8000, 0x31be135f97d08fd981231505542fcfa6n],
  [0x10000, 0x9aa508b5b7a84e1c677de54f3e99bc9n],
  [0x20000, 0x5d6af8dedb81196699c329225ee604n],
  [0x40000, 0x2216e584f5fa1ea926041bedfe98n],
  [0x80000, 0x48a170391f7dc42444e8fa2n],
];

/** Exposed for the unit tests that check each constant against an independent rational. */
export const TICK_MATH_BIT_MULTIPLIERS = BIT_MULTIPLIERS;
export const TICK_MATH_BIT0_MULTIPLIER = 0xfffcb933bd6fad37aa2d162d1a594001n;

function assertTick(tick: number): void {
  if (!Number.isSafeInteger(tick) || tick < MIN_TICK || tick > MAX_TICK) {
    throw new MathDomainError('TICK_OUT_OF_RANGE', `tick ${tick} outside [${MIN_TICK}, ${MAX_TICK}] (T)`);
  }
}

/** TickMath.getSqrtRatioAtTick: √(1.0001^tick)·2^96 as a Q64.96, rounded up at the final 128→96 bit shift. */
export function getSqrtRatioAtTick(tick: number): bigint {
  assertTick(tick);
  const absTick = Math.abs(tick);
  let ratio = (absTick & 0x1) !== 0 ? TICK_MATH_BIT0_MULTIPLIER : 1n << 128n; // Q128.128
  for (const [bit, multiplier] of BIT_MULTIPLIERS) {
    if ((absTick & bit) !== 0) ratio = (ratio * multiplier) >> 128n; // rounds down, as in Solidity
  }
  if (tick > 0) ratio = MAX_UINT256 / ratio; // invert for positive ticks (rounds down, as in Solidity)
  // Q128.128 → Q64.96, rounding up so that getTickAtSqrtRatio(getSqrtRatioAtTick(t)) == t
  return (ratio >> 32n) + (ratio % (1n << 32n) === 0n ? 0n : 1n);
}

function mostSignificantBit(x: bigint): number {
  return x.toString(2).length - 1;
}

/**
 * TickMath.getTickAtSqrtRatio: the greatest tick t with getSqrtRatioAtTick(t) ≤ sqrtPriceX96.
 * Requires MIN_SQRT_RATIO ≤ sqrtPriceX96 < MAX_SQRT_RATIO ('R').
 */
export function getTickAtSqrtRatio(sqrtPriceX96: bigint): number {
  if (sqrtPriceX96 < MIN_SQRT_RATIO || sqrtPriceX96 >= MAX_SQRT_RATIO) {
    throw new MathDomainError('SQRT_RATIO_OUT_OF_RANGE', `sqrtPriceX96 ${sqrtPriceX96} out of range (R)`);
  }
  const ratio = sqrtPriceX96 << 32n; // Q128.128
  const msb = mostSignificantBit(ratio);
  let r = msb >= 128 ? ratio >> BigInt(msb - 127) : ratio << BigInt(127 - msb);
  let log2 = BigInt(msb - 128) << 64n; // Q64.64, signed
  for (let i = 63; i >= 50; i--) {
    r = (r * r) >> 127n;
    const f = r >> 128n; // 0 or 1
    log2 |= f << BigInt(i);
    r >>= f;
  }
  const logSqrt10001 = log2 * 255738958999603826347141n; // 128.128 number
  // `>>` on a negative bigint is an arithmetic shift (rounds towards −∞), as Solidity's sar on int256
  const tickLow = Number((logSqrt10001 - 3402992956809132418596140100660247210n) >> 128n);
  const tickHi = Number((logSqrt10001 + 291339464771989622907027621153398088495n) >> 128n);
  if (tickLow === tickHi) return tickLow;
  return getSqrtRatioAtTick(tickHi) <= sqrtPriceX96 ? tickHi : tickLow;
}
