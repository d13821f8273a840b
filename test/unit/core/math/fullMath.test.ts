import {
  addDelta,
  divRoundingUp,
  MAX_UINT128,
  MAX_UINT256,
  mulDiv,
  mulDivRoundingUp,
  Q128,
} from '../../../../src/core/math/fullMath';
import { MathDomainError } from '../../../../src/core/math/rational';

// Vectors of Uniswap v3-core test/FullMath.spec.ts
describe('FullMath.mulDiv', () => {
  it('reverts (throws) on a zero denominator, even when the product overflows', () => {
    expect(() => mulDiv(Q128, 5n, 0n)).toThrow(MathDomainError);
    expect(() => mulDiv(Q128, Q128, 0n)).toThrow(MathDomainError);
  });

  it('reverts when the result overflows uint256', () => {
    expect(() => mulDiv(Q128, Q128, 1n)).toThrow(MathDomainError); // 2^256
    expect(() => mulDiv(MAX_UINT256, MAX_UINT256, MAX_UINT256 - 1n)).toThrow(MathDomainError);
  });

  it.each([
    // (2^256−1)² / (2^256−1) = 2^256−1
    ['all max inputs', MAX_UINT256, MAX_UINT256, MAX_UINT256, MAX_UINT256],
    // Q128 · (Q128/2) / (3·Q128/2) = Q128/3 (floor)
    ['no phantom overflow', Q128, (50n * Q128) / 100n, (150n * Q128) / 100n, Q128 / 3n],
    // Q128 · 35·Q128 / 8·Q128 = 35/8 · Q128 = 4.375·Q128, exact
    ['phantom overflow', Q128, 35n * Q128, 8n * Q128, (4375n * Q128) / 1000n],
    // Q128 · 1000·Q128 / 3000·Q128 = Q128/3 (floor)
    ['phantom overflow, repeating decimal', Q128, 1000n * Q128, 3000n * Q128, Q128 / 3n],
    // 7·5/3 = 11.67 → 11
    ['small numbers round down', 7n, 5n, 3n, 11n],
  ])('%s', (_n, a, b, d, expected) => {
    expect(mulDiv(a, b, d)).toBe(expected);
  });

  it('rejects negative or > uint256 operands', () => {
    expect(() => mulDiv(-1n, 1n, 1n)).toThrow(MathDomainError);
    expect(() => mulDiv(MAX_UINT256 + 1n, 1n, 1n)).toThrow(MathDomainError);
  });
});

describe('FullMath.mulDivRoundingUp', () => {
  it.each([
    ['all max inputs', MAX_UINT256, MAX_UINT256, MAX_UINT256, MAX_UINT256],
    // Q128/3 has a remainder → +1
    ['no phantom overflow', Q128, (50n * Q128) / 100n, (150n * Q128) / 100n, Q128 / 3n + 1n],
    // exact → no +1
    ['phantom overflow', Q128, 35n * Q128, 8n * Q128, (4375n * Q128) / 1000n],
    ['phantom overflow, repeating decimal', Q128, 1000n * Q128, 3000n * Q128, Q128 / 3n + 1n],
    // 7·5/3 = 11.67 → 12
    ['small numbers round up', 7n, 5n, 3n, 12n],
  ])('%s', (_n, a, b, d, expected) => {
    expect(mulDivRoundingUp(a, b, d)).toBe(expected);
  });

  it('reverts when rounding up overflows uint256', () => {
    // 535006138814359 · 4328…4969 / 2 = 2^256 − 1 remainder 1 → rounding up would give 2^256
    expect(() =>
      mulDivRoundingUp(535006138814359n, 432862656469423142931042426214547535783388063929571229938474969n, 2n),
    ).toThrow(MathDomainError);
    expect(() =>
      mulDivRoundingUp(
        115792089237316195423570985008687907853269984659341747863450311749907997002549n,
        115792089237316195423570985008687907853269984659341747863450311749907997002550n,
        115792089237316195423570985008687907853269984653042931687443039491902864365164n,
      ),
    ).toThrow(MathDomainError);
  });
});

describe('UnsafeMath / LiquidityMath', () => {
  it('divRoundingUp', () => {
    expect(divRoundingUp(10n, 5n)).toBe(2n);
    expect(divRoundingUp(11n, 5n)).toBe(3n);
    expect(divRoundingUp(0n, 5n)).toBe(0n);
    expect(() => divRoundingUp(1n, 0n)).toThrow(MathDomainError);
  });

  it('addDelta adds a signed delta and refuses under/overflow', () => {
    expect(addDelta(1n, 0n)).toBe(1n);
    expect(addDelta(1n, -1n)).toBe(0n);
    expect(addDelta(1n, 1n)).toBe(2n);
    expect(() => addDelta(0n, -1n)).toThrow(MathDomainError);
    expect(() => addDelta(MAX_UINT128, 1n)).toThrow(MathDomainError);
  });
});
