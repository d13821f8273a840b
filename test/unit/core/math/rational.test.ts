import * as math from '../../../../src/core/math';
import {
  compareRationals,
  divCeil,
  divFloor,
  isqrt,
  MathDomainError,
  rationalToPpmCeil,
  rationalToPpmFloor,
} from '../../../../src/core/math/rational';

describe('rational helpers', () => {
  it.each([
    [7n, 2n, 3n, 4n], // 3.5
    [6n, 2n, 3n, 3n], // exact
    [0n, 5n, 0n, 0n],
    [1n, 10n ** 30n, 0n, 1n],
  ])('%p / %p: floor %p, ceil %p', (a, b, floor, ceil) => {
    expect(divFloor(a, b)).toBe(floor);
    expect(divCeil(a, b)).toBe(ceil);
  });

  it('refuses a zero divisor or a negative numerator', () => {
    expect(() => divFloor(1n, 0n)).toThrow(MathDomainError);
    expect(() => divCeil(-1n, 2n)).toThrow(MathDomainError);
  });

  it('isqrt is the floor of the square root', () => {
    expect([0n, 1n, 2n, 3n, 4n, 15n, 16n, 17n].map(isqrt)).toEqual([0n, 1n, 1n, 1n, 2n, 3n, 4n, 4n]);
    // 2^192 = (2^96)²; one less has root 2^96 − 1
    expect(isqrt(1n << 192n)).toBe(1n << 96n);
    expect(isqrt((1n << 192n) - 1n)).toBe((1n << 96n) - 1n);
    // √2·2^96 = 112045541949572279837463876454.9… (floor)
    expect(isqrt(2n << 192n)).toBe(112045541949572279837463876454n);
    expect(() => isqrt(-1n)).toThrow(MathDomainError);
  });

  it('ppm rounding and exact comparison', () => {
    // 1/3 = 333333.33 ppm
    expect(rationalToPpmFloor({ num: 1n, den: 3n })).toBe(333_333n);
    expect(rationalToPpmCeil({ num: 1n, den: 3n })).toBe(333_334n);
    expect(compareRationals({ num: 1n, den: 3n }, { num: 333_333n, den: 1_000_000n })).toBe(1);
    expect(compareRationals({ num: 2n, den: 6n }, { num: 1n, den: 3n })).toBe(0);
    expect(compareRationals({ num: 1n, den: 4n }, { num: 1n, den: 3n })).toBe(-1);
  });

  it('the barrel exposes each model as a namespace', () => {
    expect(math.constantProduct.getAmountOut(10n, 1000n, 1000n, 3000n)).toBe(9n);
    expect(typeof math.concentrated.quoteExactInput).toBe('function');
    expect(typeof math.stableswap.getDy).toBe('function');
    expect(math.tickMath.MIN_SQRT_RATIO).toBe(4295128739n);
  });
});
