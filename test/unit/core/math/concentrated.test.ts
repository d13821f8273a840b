import {
  ConcentratedPool,
  exactInputOutcome,
  midPrice,
  nextInitializedTickWithinOneWord,
  quoteExactInput,
  quoteExactOutput,
} from '../../../../src/core/math/concentrated';
import { getAmountIn, getAmountOut } from '../../../../src/core/math/constantProduct';
import { MathDomainError } from '../../../../src/core/math/rational';
import { getSqrtRatioAtTick } from '../../../../src/core/math/tickMath';

const E18 = 10n ** 18n;
const Q96 = 1n << 96n;

/**
 * Two positions around price 1 (tick 0), fee 0.3 %, spacing 60:
 *   A = [−600, 600] with L 1e18, B = [−120, 120] with L 2e18  →  active L = 3e18,
 *   liquidityNet: −600: +1e18, −120: +2e18, 120: −2e18, 600: −1e18.
 * At price 1 with L = 3e18 the virtual reserves are x = L/√P = 3e18 and y = L·√P = 3e18.
 */
const TWO_POSITIONS_3000: ConcentratedPool = Object.freeze({
  sqrtPriceX96: Q96,
  tick: 0,
  liquidity: 3n * E18,
  feePpm: 3000n,
  tickSpacing: 60,
  ticks: Object.freeze([
    Object.freeze([-600, E18] as const),
    Object.freeze([-120, 2n * E18] as const),
    Object.freeze([120, -2n * E18] as const),
    Object.freeze([600, -E18] as const),
  ]),
});

/** Price 1 sits in an empty gap; liquidity 1e18 starts at tick 60 and ends at 600. */
const GAP_BELOW_RANGE_3000: ConcentratedPool = {
  sqrtPriceX96: Q96,
  tick: 0,
  liquidity: 0n,
  feePpm: 3000n,
  tickSpacing: 60,
  ticks: [
    [60, E18],
    [600, -E18],
  ],
};

describe('concentrated.quoteExactInput — one tick range', () => {
  it('equals a V2 swap on the virtual reserves (independent model), ±1 wei', () => {
    // V2 on 3e18/3e18: 1e15·0.997·3e18/(3e18 + 0.997e15) = 996668773744192.35 → 996668773744192
    const v3 = quoteExactInput(TWO_POSITIONS_3000, true, 10n ** 15n);
    const v2 = getAmountOut(10n ** 15n, 3n * E18, 3n * E18, 3000n);
    expect(v2).toBe(996668773744192n);
    expect(v3.amountOut >= v2 - 1n && v3.amountOut <= v2).toBe(true);
    expect(v3).toMatchObject({
      amountOut: 996668773744192n,
      amountInUsed: 10n ** 15n,
      feePaid: 3n * 10n ** 12n, // 0.3 % of 1e15
      ticksCrossed: 0,
      liquidityAfter: 3n * E18,
      exhausted: false,
      // √P' = 3e18/(3e18 + 0.997e15) = 0.99966777 → P' = 0.99933565 = 1.0001^−6.65 → tick −7
      tickAfter: -7,
    });
  });

  it('exact output equals the V2 inverse on virtual reserves, ±1 wei', () => {
    // V2: 3e18·1e15·1e6/((3e18 − 1e15)·997000) + 1 = 1003343474906212.6 + 1 → 1003343474906213
    const v2 = getAmountIn(10n ** 15n, 3n * E18, 3n * E18, 3000n);
    const v3 = quoteExactOutput(TWO_POSITIONS_3000, true, 10n ** 15n);
    expect(v2).toEqual({ ok: true, amountIn: 1003343474906213n });
    expect(v3).toMatchObject({ amountIn: 1003343474906213n, amountOut: 10n ** 15n, exhausted: false, tickAfter: -7 });
  });

  it('1 wei in: all of it is fee, nothing out, no exception', () => {
    // 1·997000/1e6 = 0.997 → 0 after fee; the price cannot move, the remaining 1 wei is the fee.
    // The first step walks onto tick 0 itself (the price sits exactly on it), so tick becomes −1, as in the pool.
    expect(quoteExactInput(TWO_POSITIONS_3000, true, 1n)).toMatchObject({
      amountOut: 0n,
      amountInUsed: 1n,
      feePaid: 1n,
      sqrtPriceAfter: Q96,
      tickAfter: -1,
      exhausted: false,
    });
    expect(quoteExactInput(TWO_POSITIONS_3000, false, 1n)).toMatchObject({ amountOut: 0n, tickAfter: 0 });
  });

  it('zero input leaves the state as it is', () => {
    expect(quoteExactInput(TWO_POSITIONS_3000, true, 0n)).toMatchObject({
      amountOut: 0n,
      amountInUsed: 0n,
      sqrtPriceAfter: Q96,
      tickAfter: 0,
      exhausted: false,
    });
  });
});

describe('concentrated.quoteExactInput — crossing one initialised tick', () => {
  // Range 1 (L = 3e18) from √P = 1 to √1.0001^−120 = 1.0001^−60 = 0.99401826:
  //   token0 needed = L·(1/0.99401826 − 1) = 3e18·0.0060177 = 1.80532e16 net = 1.81075e16 gross (÷0.997)
  //   token1 out    = L·(1 − 0.99401826) = 1.79452e16
  // Cross −120 going down: L = 3e18 − liquidityNet(2e18) = 1e18.
  // Range 2 with the rest: 3e16·0.997 − 1.80532e16 = 1.18568e16 net;
  //   √P'' = 1/(1/0.99401826 + 1.18568e16/1e18) = 1/1.0178745 = 0.98243936 → P'' = 1.0001^−354.35 → tick −355
  //   token1 out = 1e18·(0.99401826 − 0.98243936) = 1.15789e16; total ≈ 1.79452e16 + 1.15789e16 = 2.95241e16
  //   (continuous model: 29524118714128423.76; the pool rounds down at each step)
  it('token0 → token1 crosses −120 and drops L from 3e18 to 1e18', () => {
    const q = quoteExactInput(TWO_POSITIONS_3000, true, 3n * 10n ** 16n);
    expect(q).toMatchObject({
      amountOut: 29524118714128421n,
      amountInUsed: 3n * 10n ** 16n,
      ticksCrossed: 1,
      liquidityAfter: E18,
      tickAfter: -355,
      exhausted: false,
    });
    // fee: 0.3 % of 3e16 = 9e13, +1 from rounding up the fee of the first step
    expect(q.feePaid).toBe(90000000000001n);
    expect(q.sqrtPriceAfter < getSqrtRatioAtTick(-354) && q.sqrtPriceAfter >= getSqrtRatioAtTick(-355)).toBe(true);
  });

  it('token1 → token0 is the mirror image (the fixture is symmetric under 1/P)', () => {
    const q = quoteExactInput(TWO_POSITIONS_3000, false, 3n * 10n ** 16n);
    expect(q).toMatchObject({
      amountOut: 29524118714128421n,
      ticksCrossed: 1,
      liquidityAfter: E18,
      tickAfter: 354, // mirror of −355: 1.0001^354.35
      exhausted: false,
    });
  });

  it('the pool snapshot is not mutated', () => {
    const before = JSON.stringify(TWO_POSITIONS_3000, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));
    quoteExactInput(TWO_POSITIONS_3000, true, 3n * 10n ** 16n);
    quoteExactOutput(TWO_POSITIONS_3000, false, 3n * 10n ** 16n);
    expect(JSON.stringify(TWO_POSITIONS_3000, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))).toBe(before);
  });

  it('crosses a gap of zero liquidity for free, then adds liquidityNet going up', () => {
    // 0 → 60 costs nothing (L = 0); crossing 60 upwards: L = 0 + 1e18. Then 0.997e15 token1 with L = 1e18 from
    // √P = 1.0001^30 = 1.0030044: √P' = 1.0030044 + 0.000997 = 1.0040014 → P' = 1.0001^79.9 → tick 79;
    // out = L·(1/1.0030044 − 1/1.0040014) = 1e18·0.00099005 = 9.9005e14
    expect(quoteExactInput(GAP_BELOW_RANGE_3000, false, 10n ** 15n)).toMatchObject({
      amountOut: 990052082187569n,
      ticksCrossed: 1,
      liquidityAfter: E18,
      tickAfter: 79,
      exhausted: false,
    });
  });
});

describe('concentrated — leaving the tick window', () => {
  // Whole window going down: token1 = 3e18·(1 − 0.99401826) + 1e18·(0.99401826 − 1.0001^−300 = 0.97044699)
  //   = 1.79452e16 + 2.35713e16 = 4.15165e16 (continuous 41516486400156494.88)
  it('a huge input (2^200) stops at the last tick, crosses it, and flags exhausted', () => {
    const q = quoteExactInput(TWO_POSITIONS_3000, true, 2n ** 200n);
    expect(q).toMatchObject({
      amountOut: 41516486400156494n,
      ticksCrossed: 2,
      liquidityAfter: 0n, // 3e18 − 2e18 − 1e18
      tickAfter: -601,
      sqrtPriceAfter: getSqrtRatioAtTick(-600),
      exhausted: true,
    });
    // continuous model: 42616305831042214.25 gross token0 to empty the window; the pool rounds inputs up
    expect(q.amountInUsed).toBe(42616305831042215n);
    expect(quoteExactInput(TWO_POSITIONS_3000, false, 2n ** 200n)).toMatchObject({
      amountOut: 41516486400156494n,
      tickAfter: 600,
      sqrtPriceAfter: getSqrtRatioAtTick(600),
      exhausted: true,
    });
  });

  it('exact output above what the window holds returns the window content, exhausted', () => {
    expect(quoteExactOutput(TWO_POSITIONS_3000, true, 10n ** 17n)).toEqual({
      amountIn: 42616305831042215n,
      amountOut: 41516486400156494n,
      sqrtPriceAfter: getSqrtRatioAtTick(-600),
      tickAfter: -601,
      liquidityAfter: 0n,
      ticksCrossed: 2,
      feePaid: 127848917493127n,
      exhausted: true,
    });
  });

  it('a price outside the window (or no ticks at all) quotes 0, exhausted', () => {
    expect(quoteExactInput(GAP_BELOW_RANGE_3000, true, 10n ** 15n)).toMatchObject({
      amountOut: 0n,
      amountInUsed: 0n,
      exhausted: true,
    });
    const empty: ConcentratedPool = { ...TWO_POSITIONS_3000, ticks: [] };
    expect(quoteExactInput(empty, false, 10n ** 15n)).toMatchObject({ amountOut: 0n, exhausted: true });
    expect(quoteExactOutput(empty, true, 10n ** 15n)).toMatchObject({ amountIn: 0n, amountOut: 0n, exhausted: true });
  });
});

describe('concentrated — exact output / exact input consistency', () => {
  it('quoteExactInput(quoteExactOutput(x).amountIn) ≥ x over a deterministic sweep, both directions', () => {
    let checked = 0;
    for (const zeroForOne of [true, false]) {
      // x from 1 wei up to just under the window content (4.15e16), growing ×5 + 3
      for (let x = 1n; x < 41516486400156494n; x = x * 5n + 3n) {
        const exactOut = quoteExactOutput(TWO_POSITIONS_3000, zeroForOne, x);
        expect(exactOut.exhausted).toBe(false);
        expect(exactOut.amountOut).toBe(x);
        const forward = quoteExactInput(TWO_POSITIONS_3000, zeroForOne, exactOut.amountIn);
        expect(forward.amountOut).toBeGreaterThanOrEqual(x);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(40);
  });

  it('exact output across the tick: 3e16 token1 out needs ≈ 3.0495e16 token0 in', () => {
    // range 1 gives 1.79452e16 for 1.81075e16 gross; the remaining 1.20548e16 from L = 1e18 at √P 0.99401826:
    //   √P'' = 0.99401826 − 0.0120548 = 0.98196347 (tick −364.04 → −365); token0 = 1e18·(1/0.98196347 − 1/0.99401826) = 1.23501e16 net
    //   = 1.23872e16 gross; total ≈ 1.81075e16 + 1.23872e16 = 3.04947e16 (continuous 30494768886956717.7)
    expect(quoteExactOutput(TWO_POSITIONS_3000, true, 3n * 10n ** 16n)).toMatchObject({
      amountIn: 30494768886956720n,
      amountOut: 3n * 10n ** 16n,
      ticksCrossed: 1,
      liquidityAfter: E18,
      tickAfter: -365,
      exhausted: false,
    });
  });
});

describe('concentrated helpers', () => {
  it('nextInitializedTickWithinOneWord follows the 256-tick words of the bitmap', () => {
    const ticks = TWO_POSITIONS_3000.ticks;
    // from tick 0 going down: word of compressed 0 is [0, 255] → ticks 0..15300; nothing listed there → 0
    expect(nextInitializedTickWithinOneWord(ticks, 0, 60, true)).toEqual({ next: 0, initialized: false });
    // from −1: compressed −1, word [−256, −1] → largest listed ≤ −1 is −120
    expect(nextInitializedTickWithinOneWord(ticks, -1, 60, true)).toEqual({ next: -120, initialized: true });
    // from 0 going up: compressed + 1 = 1, same word, smallest listed > 0 is 120
    expect(nextInitializedTickWithinOneWord(ticks, 0, 60, false)).toEqual({ next: 120, initialized: true });
    // spacing 1, ticks ±1000: going up from 0 stops at the word end 255, then 511, 767, then 1000
    const wide: Array<[number, bigint]> = [
      [-1000, 1n],
      [1000, -1n],
    ];
    expect(nextInitializedTickWithinOneWord(wide, 0, 1, false)).toEqual({ next: 255, initialized: false });
    expect(nextInitializedTickWithinOneWord(wide, 767, 1, false)).toEqual({ next: 1000, initialized: true });
    expect(nextInitializedTickWithinOneWord(wide, -1, 1, true)).toEqual({ next: -256, initialized: false });
    expect(nextInitializedTickWithinOneWord(wide, -769, 1, true)).toEqual({ next: -1000, initialized: true });
  });

  it('a swap through word boundaries only stops there; the result matches one step of V2 on virtual reserves', () => {
    // spacing 1, L = 1e21 from −1000 to 1000: price 1 → about tick −100 crosses the boundaries at 0 only
    const wide: ConcentratedPool = {
      sqrtPriceX96: Q96,
      tick: 0,
      liquidity: 10n ** 21n,
      feePpm: 500n,
      tickSpacing: 1,
      ticks: [
        [-1000, 10n ** 21n],
        [1000, -(10n ** 21n)],
      ],
    };
    const q = quoteExactInput(wide, true, 5n * 10n ** 18n);
    const v2 = getAmountOut(5n * 10n ** 18n, 10n ** 21n, 10n ** 21n, 500n);
    expect(q.amountOut <= v2 && q.amountOut >= v2 - 2n).toBe(true);
    expect(q.ticksCrossed).toBe(0);
  });

  it('midPrice is token1 per token0 = (sqrtPriceX96 / 2^96)²', () => {
    expect(midPrice(TWO_POSITIONS_3000)).toEqual({ num: 1n << 192n, den: 1n << 192n });
    // √P = 2 → P = 4
    const m = midPrice({ sqrtPriceX96: 2n * Q96 });
    expect(m.num / m.den).toBe(4n);
  });

  it('rejects malformed snapshots', () => {
    expect(() => quoteExactInput({ ...TWO_POSITIONS_3000, ticks: [[-60, 1n], [-120, -1n]] }, true, 1n)).toThrow(
      MathDomainError,
    );
    expect(() => quoteExactInput({ ...TWO_POSITIONS_3000, ticks: [[-61, 1n]] }, true, 1n)).toThrow(MathDomainError);
    expect(() => quoteExactInput({ ...TWO_POSITIONS_3000, tickSpacing: 0 }, true, 1n)).toThrow(MathDomainError);
    expect(() => quoteExactInput(TWO_POSITIONS_3000, true, -1n)).toThrow(MathDomainError);
  });
});

describe('concentrated.exactInputOutcome (the route search\'s hop quote)', () => {
  it('gives quoteExactInput\'s amountOut, ticksCrossed and exhausted', () => {
    for (const pool of [TWO_POSITIONS_3000, GAP_BELOW_RANGE_3000]) {
      for (const zeroForOne of [true, false]) {
        for (const amountIn of [0n, 1n, 10n ** 12n, 10n ** 15n, 3n * 10n ** 16n, 10n ** 17n, 10n ** 20n]) {
          const { amountOut, ticksCrossed, exhausted } = quoteExactInput(pool, zeroForOne, amountIn);
          const outcome = exactInputOutcome(pool, zeroForOne, amountIn);
          expect({ amountOut: outcome.amountOut, ticksCrossed: outcome.ticksCrossed, exhausted: outcome.exhausted }).toEqual({ amountOut, ticksCrossed, exhausted });
        }
      }
    }
    expect(() => exactInputOutcome(TWO_POSITIONS_3000, true, -1n)).toThrow(MathDomainError);
  });
});
