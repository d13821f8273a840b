import {
  getAmountIn,
  getAmountOut,
  midPrice,
  priceImpact,
  priceImpactPpm,
  reservesAfterSwap,
  V2_FEE_PPM,
} from '../../../../src/core/math/constantProduct';

const E18 = 10n ** 18n;

describe('constantProduct.getAmountOut — hand-worked', () => {
  // out = floor(aIn·g·rOut / (rIn·1e6 + aIn·g)), g = 1e6 − feePpm
  it.each([
    // 10·997000·1000 / (1000·1e6 + 10·997000) = 9_970_000_000 / 1_009_970_000 = 9.871… → 9
    ['README example, 0.3 %', 10n, 1000n, 1000n, 3000n, 9n],
    // rIn 1e6, rOut 2e6, aIn 1e4: numerator 1e4·g·2e6, denominator 1e12 + 1e4·g
    // fee 0:      2e16 / 1.01e12             = 19801.98… → 19801
    ['fee 0', 10_000n, 1_000_000n, 2_000_000n, 0n, 19801n],
    // 0.01 %:     1.9998e16 / 1.009999e12    = 19800.0196… → 19800
    ['0.01 %', 10_000n, 1_000_000n, 2_000_000n, 100n, 19800n],
    // 0.05 %:     1.999e16 / 1.009995e12     = 19792.177… → 19792
    ['0.05 %', 10_000n, 1_000_000n, 2_000_000n, 500n, 19792n],
    // 0.25 %:     1.995e16 / 1.009975e12     = 19752.96… → 19752 (Pancake 9975/10000)
    ['0.25 % Pancake', 10_000n, 1_000_000n, 2_000_000n, 2500n, 19752n],
    // 0.3 %:      1.994e16 / 1.00997e12      = 19743.16… → 19743 (Uniswap 997/1000)
    ['0.3 % Uniswap', 10_000n, 1_000_000n, 2_000_000n, 3000n, 19743n],
    // 1 %:        1.98e16 / 1.0099e12        = 19605.90… → 19605
    ['1 %', 10_000n, 1_000_000n, 2_000_000n, 10000n, 19605n],
    // 1000 USDC into 50M USDC / 20k WETH: 1e9·997000·2e22 / (5e13·1e6 + 1e9·997000)
    //   = 1.994e37 / 5.0000997e19 = 398792048086561153.9… wei ≈ 0.39879 WETH (price 2500, fee 0.3 %, impact 2e-5)
    ['USDC→WETH realistic', 1_000n * 10n ** 6n, 50_000_000n * 10n ** 6n, 20_000n * E18, 3000n, 398792048086561153n],
    // 1 wei in against 1 wei reserve: 997000·1e18 / (1e6 + 997000) = 997e18/1997 = 499248873309964947.4 → …947
    ['1 wei in, tiny reserveIn', 1n, 1n, E18, 3000n, 499248873309964947n],
    // 1 wei in against deep pool: 997000·1e18 / (1e24 + 997000) ≈ 0.997 → 0
    ['1 wei in, deep pool', 1n, E18, E18, 3000n, 0n],
  ])('%s', (_name, aIn, rIn, rOut, fee, expected) => {
    expect(getAmountOut(aIn, rIn, rOut, fee)).toBe(expected);
  });

  // Reference vectors of Uniswap v2-core UniswapV2Pair.spec.ts (swapTestCases, 0.3 %), all amounts ×1e18.
  // e.g. [1, 5, 10]: 997·10 / (5·1000 + 997) = 9970/5997 = 1.662497915624478906… → 1662497915624478906
  it.each([
    [1n, 5n, 10n, 1662497915624478906n],
    [1n, 10n, 5n, 453305446940074565n],
    [2n, 5n, 10n, 2851015155847869602n],
    [2n, 10n, 5n, 831248957812239453n],
    [1n, 10n, 10n, 906610893880149131n],
    [1n, 100n, 100n, 987158034397061298n],
    [1n, 1000n, 1000n, 996006981039903216n],
  ])('Uniswap v2-core vector: in %p, reserves %p/%p', (a, r0, r1, expected) => {
    expect(getAmountOut(a * E18, r0 * E18, r1 * E18, V2_FEE_PPM.UNISWAP_V2)).toBe(expected);
  });

  it('returns 0 (no throw) for zero input or empty reserves', () => {
    expect(getAmountOut(0n, 1000n, 1000n, 3000n)).toBe(0n);
    expect(getAmountOut(10n, 0n, 1000n, 3000n)).toBe(0n);
    expect(getAmountOut(10n, 1000n, 0n, 3000n)).toBe(0n);
  });

  it('an input far above the reserves still leaves at least 1 unit in the pool', () => {
    // 1e6 in against 1000/1000 at fee 0: 1e6·1000/(1000+1e6) = 999.000999 → 999
    expect(getAmountOut(1_000_000n, 1000n, 1000n, 0n)).toBe(999n);
    // 2^200 in: out = rOut − rOut·rIn·1e6/(rIn·1e6 + aIn·g) → 1e18 − (tiny) → floor → 1e18 − 1
    expect(getAmountOut(2n ** 200n, E18, E18, 3000n)).toBe(E18 - 1n);
  });

  it('rejects fees outside [0, 100 %) and negative amounts', () => {
    expect(() => getAmountOut(1n, 1n, 1n, 1_000_000n)).toThrow(RangeError);
    expect(() => getAmountOut(1n, 1n, 1n, -1n)).toThrow(RangeError);
    expect(() => getAmountOut(-1n, 1n, 1n, 3000n)).toThrow(RangeError);
  });
});

describe('constantProduct.getAmountIn — hand-worked', () => {
  // in = floor(rIn·aOut·1e6 / ((rOut − aOut)·g)) + 1, here on the 1000/1000 pool of the README example
  it.each([
    // 1000·9·1e6 / (991·997000) = 9e9 / 988_027_000 = 9.109 → 9 + 1 = 10 (and getAmountOut(10) = 9 above)
    ['out 9', 9n, 3000n, 10n],
    // 1000·500·1e6 / (500·997000) = 1003.009… → 1003 + 1 = 1004
    ['half the pool', 500n, 3000n, 1004n],
    // 1000·999·1e6 / (1·997000) = 1_002_006.018… → 1_002_007
    ['all but one unit', 999n, 3000n, 1_002_007n],
    // fee 0: 1000·500/500 = 1000 exactly; Uniswap still adds 1 → 1001
    ['exact division still gets +1', 500n, 0n, 1001n],
    // Pancake: 1000·500·1e6 / (500·997500) = 1002.506… → 1003
    ['0.25 %', 500n, 2500n, 1003n],
  ])('%s of 1000/1000', (_name, aOut, fee, expected) => {
    expect(getAmountIn(aOut, 1000n, 1000n, fee)).toEqual({ ok: true, amountIn: expected });
  });

  it('fails with a typed reason at or above the reserve', () => {
    expect(getAmountIn(1000n, 1000n, 1000n, 3000n)).toEqual({
      ok: false,
      reason: 'INSUFFICIENT_LIQUIDITY',
      maxAmountOut: 999n,
    });
    expect(getAmountIn(5000n, 1000n, 1000n, 3000n)).toMatchObject({ ok: false, reason: 'INSUFFICIENT_LIQUIDITY' });
    expect(getAmountIn(1n, 0n, 1000n, 3000n)).toEqual({ ok: false, reason: 'ZERO_RESERVES', maxAmountOut: 0n });
  });

  it('asks nothing for a zero output', () => {
    expect(getAmountIn(0n, 1000n, 1000n, 3000n)).toEqual({ ok: true, amountIn: 0n });
  });

  it('is the inverse of getAmountOut: out(in(x)) ≥ x and out(in(x) − 2) < x (deterministic sweep)', () => {
    const pools: Array<[bigint, bigint]> = [
      [1000n, 1000n],
      [1_000_000n, 2_000_000n],
      [7n, 1_000_003n],
      [50_000_000n * 10n ** 6n, 20_000n * E18],
      [3n * E18, 11n],
    ];
    const fees = [0n, 100n, 500n, 2500n, 3000n, 10000n];
    let checked = 0;
    for (const [rIn, rOut] of pools) {
      for (const fee of fees) {
        // x walks geometrically (×3 + 1) from 1 up to rOut − 1
        for (let x = 1n; x < rOut; x = x * 3n + 1n) {
          const r = getAmountIn(x, rIn, rOut, fee);
          if (!r.ok) throw new Error('unexpected failure');
          expect(getAmountOut(r.amountIn, rIn, rOut, fee)).toBeGreaterThanOrEqual(x);
          // getAmountIn = floor(q) + 1 ≤ ceil(q) + 1 where q is the exact threshold, so in − 2 < q
          if (r.amountIn >= 2n) expect(getAmountOut(r.amountIn - 2n, rIn, rOut, fee)).toBeLessThan(x);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(300);
  });
});

describe('constantProduct price helpers', () => {
  it('mid price is rOut/rIn, exact', () => {
    expect(midPrice(50_000_000n * 10n ** 6n, 20_000n * E18)).toEqual({ num: 20_000n * E18, den: 50_000_000n * 10n ** 6n });
  });

  it('price impact of the README example', () => {
    // 1 − (9/10)/((1000/1000)·0.997) = 1 − 9e9/9.97e9 = 0.97e9/9.97e9 = 0.09729188… → 97291.88 ppm → 97292 (ceil)
    expect(priceImpact(10n, 9n, 1000n, 1000n, 3000n)).toEqual({ num: 970_000_000n, den: 9_970_000_000n });
    expect(priceImpactPpm(10n, 9n, 1000n, 1000n, 3000n)).toBe(97292n);
  });

  it('price impact without fee, 1 % of the pool', () => {
    // out = 9900 (above); 1 − (9900/1e4)/(1e6/1e6) = 100/1e4 = 1 % = 10000 ppm exactly
    const out = getAmountOut(10_000n, 1_000_000n, 1_000_000n, 0n);
    expect(out).toBe(9900n);
    expect(priceImpactPpm(10_000n, out, 1_000_000n, 1_000_000n, 0n)).toBe(10000n);
  });

  it('zero trade has zero impact', () => {
    expect(priceImpact(0n, 0n, 1000n, 1000n, 3000n)).toEqual({ num: 0n, den: 1n });
    expect(priceImpactPpm(0n, 0n, 0n, 0n, 3000n)).toBe(0n);
  });

  it('reservesAfterSwap returns new values', () => {
    expect(reservesAfterSwap(10n, 1000n, 1000n, 3000n)).toEqual({ amountOut: 9n, reserveIn: 1010n, reserveOut: 991n });
  });
});
