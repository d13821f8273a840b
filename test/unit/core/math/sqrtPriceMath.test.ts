import { MAX_UINT256 } from '../../../../src/core/math/fullMath';
import { isqrt, MathDomainError } from '../../../../src/core/math/rational';
import {
  getAmount0Delta,
  getAmount1Delta,
  getNextSqrtPriceFromInput,
  getNextSqrtPriceFromOutput,
} from '../../../../src/core/math/sqrtPriceMath';

const E18 = 10n ** 18n;
const Q96 = 1n << 96n; // 79228162514264337593543950336
/** encodePriceSqrt of the Uniswap tests: floor(√(reserve1/reserve0)·2^96) */
const encodePriceSqrt = (reserve1: bigint, reserve0: bigint): bigint => isqrt((reserve1 << 192n) / reserve0);

// Vectors of Uniswap v3-core test/SqrtPriceMath.spec.ts, each re-derived by hand in the comment.
describe('SqrtPriceMath.getNextSqrtPriceFromInput / getNextSqrtPriceFromOutput at price 1 (√P = 2^96), L = 1e18', () => {
  it.each([
    // 2^96 + floor(2^96/10) = 79228162514264337593543950336 + 7922816251426433759354395033 (.6 dropped)
    ['0.1 token1 in: √P + floor(0.1e18·2^96/1e18)', getNextSqrtPriceFromInput, false, 87150978765690771352898345369n],
    // 2^96/1.1 = 72025602285694852357767227578.18… → rounds up to …579
    ['0.1 token0 in: ceil(L·√P/(L + 0.1e18·√P)) = ceil(2^96/1.1)', getNextSqrtPriceFromInput, true, 72025602285694852357767227579n],
    // 2^96 − ceil(7922816251426433759354395033.6) = 79228162514264337593543950336 − 7922816251426433759354395034
    ['0.1 token1 out: √P − ceil(0.1·2^96)', getNextSqrtPriceFromOutput, true, 71305346262837903834189555302n],
    // 2^96/0.9 = 88031291682515930659493278151.1… → …152
    ['0.1 token0 out: ceil(L·√P/(L − 0.1e18·√P)) = ceil(2^96/0.9)', getNextSqrtPriceFromOutput, false, 88031291682515930659493278152n],
  ])('%s', (_name, nextSqrtPrice, zeroForOne, expected) => {
    expect(nextSqrtPrice(Q96, E18, E18 / 10n, zeroForOne)).toBe(expected);
  });
});

describe('SqrtPriceMath.getNextSqrtPriceFromInput', () => {
  it('amountIn > uint96 max, zeroForOne: 2^96·1e19/(1e19 + 2^100) ≈ 6.25e17', () => {
    // 2^100 = 1.2676506e30 ≫ 1e19, so ≈ 2^96·1e19/2^100 = 1e19/16 = 6.25e17, a little less
    expect(getNextSqrtPriceFromInput(Q96, 10n * E18, 2n ** 100n, true)).toBe(624999999995069620n);
  });

  it('can return 1 with enough input (overflow fallback path of the Solidity code)', () => {
    // L·2^96·2^96 overflows; fallback ceil(L·2^96/(L·2^96/√P + amount)) = ceil(2^96/(1 + 2^255 − 1)) = 1
    expect(getNextSqrtPriceFromInput(Q96, 1n, MAX_UINT256 / 2n, true)).toBe(1n);
  });

  it('returns the input price for a zero amount', () => {
    expect(getNextSqrtPriceFromInput(Q96, E18 / 10n, 0n, true)).toBe(Q96);
    expect(getNextSqrtPriceFromInput(Q96, E18 / 10n, 0n, false)).toBe(Q96);
  });

  it('rejects zero price or zero liquidity', () => {
    expect(() => getNextSqrtPriceFromInput(0n, 1n, E18 / 10n, false)).toThrow(MathDomainError);
    expect(() => getNextSqrtPriceFromInput(1n, 0n, E18 / 10n, true)).toThrow(MathDomainError);
  });
});

describe('SqrtPriceMath.getNextSqrtPriceFromOutput', () => {
  it('throws when the output is at or beyond the virtual reserves', () => {
    // token0 virtual reserve at price 1 with L = 1e18 is 1e18: taking all of it would need an infinite price
    expect(() => getNextSqrtPriceFromOutput(Q96, E18, E18, false)).toThrow(MathDomainError);
    // token1: √P − amount/L ≤ 0
    expect(() => getNextSqrtPriceFromOutput(Q96, E18, E18, true)).toThrow(MathDomainError);
  });

  it('a 1-wei output just below the boundary still works', () => {
    // price 20282409603651670423947251286016 = 2^104 (P = 2^16), L = 1024: token0 virtual reserve L/√P = 1024/256 = 4
    expect(() => getNextSqrtPriceFromOutput(2n ** 104n, 1024n, 4n, false)).toThrow(MathDomainError);
    // 3 out of 4: ceil(1024·2^96·2^104/(1024·2^96 − 3·2^104)) = 2^104·1024/(1024 − 768) = 2^104·4 = 2^106
    expect(getNextSqrtPriceFromOutput(2n ** 104n, 1024n, 3n, false)).toBe(2n ** 106n);
  });
});

describe('SqrtPriceMath.getAmount0Delta / getAmount1Delta', () => {
  const p1 = Q96;
  const p121 = encodePriceSqrt(121n, 100n); // floor(1.1·2^96) = 87150978765690771352898345369

  it('price 1 → 1.21 with L = 1e18: token1 = L·(√B − √A) ≈ 0.1e18', () => {
    expect(p121).toBe(87150978765690771352898345369n);
    // 1e18·7922816251426433759354395033/2^96 = 0.1e18 − 7.6e-12 → up: 1e17, down: 1e17 − 1
    expect(getAmount1Delta(p1, p121, E18, true)).toBe(100000000000000000n);
    expect(getAmount1Delta(p1, p121, E18, false)).toBe(99999999999999999n);
  });

  it('price 1 → 1.21 with L = 1e18: token0 = L·(√B − √A)/(√A·√B) ≈ 0.1e18/1.1', () => {
    // 1e18·0.1/1.1 = 90909090909090909.09… → up …910, down …909
    expect(getAmount0Delta(p1, p121, E18, true)).toBe(90909090909090910n);
    expect(getAmount0Delta(p1, p121, E18, false)).toBe(90909090909090909n);
  });

  it('argument order does not matter; equal prices or zero liquidity give 0', () => {
    expect(getAmount0Delta(p121, p1, E18, true)).toBe(90909090909090910n);
    expect(getAmount1Delta(p121, p1, E18, false)).toBe(99999999999999999n);
    expect(getAmount0Delta(p1, p1, E18, true)).toBe(0n);
    expect(getAmount1Delta(p1, p121, 0n, true)).toBe(0n);
    expect(getAmount0Delta(p1, p121, 0n, true)).toBe(0n);
  });

  it('works for prices near the extremes without overflow', () => {
    // √A = 2^90, √B = 2^96 (P = 2^-12 … 1), L = 2^64 − 1:
    // token1 = L·(2^96 − 2^90)/2^96 = L·63/64; token0 = L·2^96·(2^96 − 2^90)/(2^96·2^90) = L·63
    const L = 2n ** 64n - 1n;
    expect(getAmount1Delta(2n ** 90n, 2n ** 96n, L, false)).toBe((L * 63n) / 64n);
    expect(getAmount1Delta(2n ** 90n, 2n ** 96n, L, true)).toBe((L * 63n) / 64n + 1n); // 63·(2^64−1)/64 not integral
    expect(getAmount0Delta(2n ** 90n, 2n ** 96n, L, true)).toBe(L * 63n);
    expect(getAmount0Delta(2n ** 90n, 2n ** 96n, L, false)).toBe(L * 63n);
  });
});
