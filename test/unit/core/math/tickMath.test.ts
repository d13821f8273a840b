import {
  getSqrtRatioAtTick,
  getTickAtSqrtRatio,
  MAX_SQRT_RATIO,
  MAX_TICK,
  MIN_SQRT_RATIO,
  MIN_TICK,
  TICK_MATH_BIT0_MULTIPLIER,
  TICK_MATH_BIT_MULTIPLIERS,
} from '../../../../src/core/math/tickMath';
import { MathDomainError } from '../../../../src/core/math/rational';

const Q96 = 1n << 96n;

/**
 * Independent check against the definition: is v within ±tol of the exact √(1.0001^tick)·2^96?
 * Only multiplications of exact integers: (v−tol)²·10000^t ≤ 2^192·10001^t ≤ (v+tol)²·10000^t (t ≥ 0; swapped for t < 0).
 */
function isCloseToExactSqrtRatio(tick: number, v: bigint, tol: bigint): boolean {
  const t = BigInt(Math.abs(tick));
  const up = (tick >= 0 ? 10001n : 10000n) ** t; // numerator of 1.0001^tick
  const down = (tick >= 0 ? 10000n : 10001n) ** t; // denominator
  const target = (1n << 192n) * up;
  return (v - tol) ** 2n * down <= target && target <= (v + tol) ** 2n * down;
}

describe('TickMath.getSqrtRatioAtTick', () => {
  it.each([
    // known values (Uniswap v3-core TickMath.sol constants and TickMath.spec.ts)
    [0, Q96], // √1·2^96 = 79228162514264337593543950336
    [MIN_TICK, 4295128739n], // MIN_SQRT_RATIO
    [MIN_TICK + 1, 4295343490n],
    [MAX_TICK, 1461446703485210103287273052203988822378723970342n], // MAX_SQRT_RATIO
    [MAX_TICK - 1, 1461373636630004318706518188784493106690254656249n],
  ])('tick %p', (tick, expected) => {
    expect(getSqrtRatioAtTick(tick)).toBe(expected);
  });

  it('tick ±1 moves the price by √1.0001 ≈ 1.00005 (hand check)', () => {
    // 2^96·√1.0001 = 79228162514264337593543950336 · 1.0000499987500625 ≈ 79232123823359799118286999568
    expect(getSqrtRatioAtTick(1)).toBe(79232123823359799118286999568n);
    // 2^96/√1.0001 ≈ 79228162514264337593543950336 · 0.99995000375 ≈ 79224201403219477170569942574
    expect(getSqrtRatioAtTick(-1)).toBe(79224201403219477170569942574n);
  });

  it('throws outside [MIN_TICK, MAX_TICK]', () => {
    expect(() => getSqrtRatioAtTick(MIN_TICK - 1)).toThrow(MathDomainError);
    expect(() => getSqrtRatioAtTick(MAX_TICK + 1)).toThrow(MathDomainError);
    expect(() => getSqrtRatioAtTick(0.5)).toThrow(MathDomainError);
  });

  it('each magic multiplier is 2^128/√1.0001^(2^k) to within 1 (exact rational check)', () => {
    const all: Array<readonly [number, bigint]> = [[1, TICK_MATH_BIT0_MULTIPLIER], ...TICK_MATH_BIT_MULTIPLIERS];
    expect(all).toHaveLength(20);
    for (const [bit, m] of all) {
      // m ≈ 2^128·√(10000^bit/10001^bit)  ⇔  (m−1)²·10001^bit ≤ 2^256·10000^bit ≤ (m+1)²·10001^bit
      const b = BigInt(bit);
      const num = (1n << 256n) * 10000n ** b;
      const den = 10001n ** b;
      expect((m - 1n) ** 2n * den <= num && num <= (m + 1n) ** 2n * den).toBe(true);
    }
  });

  it.each([1, -1, 2, 60, -60, 200, 1000, -1000, 12345, -12345, 50000, -50000, 100000, -100000, 276324, -276324])(
    'tick %p agrees with the exact √(1.0001^tick)·2^96 to 1 + 1e-15 relative',
    (tick) => {
      const v = getSqrtRatioAtTick(tick);
      expect(isCloseToExactSqrtRatio(tick, v, 1n + v / 10n ** 15n)).toBe(true);
    },
  );

  it('is strictly increasing over a deterministic sample of ticks', () => {
    let prev = 0n;
    for (let t = MIN_TICK; t <= MAX_TICK; t += 7919) {
      const v = getSqrtRatioAtTick(t);
      expect(v > prev).toBe(true);
      prev = v;
    }
  });
});

describe('TickMath.getTickAtSqrtRatio', () => {
  it.each([
    [MIN_SQRT_RATIO, MIN_TICK],
    [MIN_SQRT_RATIO + 1n, MIN_TICK],
    [MAX_SQRT_RATIO - 1n, MAX_TICK - 1],
    [Q96, 0],
    [Q96 - 1n, -1],
    [4295343490n, MIN_TICK + 1],
  ])('ratio %p → tick %p', (ratio, tick) => {
    expect(getTickAtSqrtRatio(ratio)).toBe(tick);
  });

  it('throws outside [MIN_SQRT_RATIO, MAX_SQRT_RATIO)', () => {
    expect(() => getTickAtSqrtRatio(MIN_SQRT_RATIO - 1n)).toThrow(MathDomainError);
    expect(() => getTickAtSqrtRatio(MAX_SQRT_RATIO)).toThrow(MathDomainError);
  });

  it('is the greatest tick whose ratio is ≤ the input (definition, deterministic sweep)', () => {
    // every 997th tick plus the ends; at the exact ratio of t we get t, one below it we get t − 1
    const ticks = [MIN_TICK + 1, MAX_TICK - 1, -1, 0, 1];
    for (let t = MIN_TICK + 1; t < MAX_TICK; t += 997) ticks.push(t);
    for (const t of ticks) {
      const ratio = getSqrtRatioAtTick(t);
      expect(getTickAtSqrtRatio(ratio)).toBe(t);
      expect(getTickAtSqrtRatio(ratio - 1n)).toBe(t - 1);
      // halfway to the next tick still maps to t
      const mid = (ratio + getSqrtRatioAtTick(t + 1)) / 2n;
      expect(getTickAtSqrtRatio(mid)).toBe(t);
    }
  });
});
