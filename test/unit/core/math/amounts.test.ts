import {
  applySlippageFloor,
  fractionToPpm,
  fromDecimalString,
  takeFee,
  toDecimalString,
  usdValue,
} from '../../../../src/core/math/amounts';
import { MathDomainError } from '../../../../src/core/math/rational';

describe('applySlippageFloor', () => {
  it.each([
    // 1_000_000·(1e6 − 5000)/1e6 = 995_000
    [1_000_000n, 5000n, 995_000n],
    // 999·995_000/1e6 = 994.005 → 994
    [999n, 5000n, 994n],
    // 1 wei at 0.5 %: 0.995 → 0
    [1n, 5000n, 0n],
    [123n, 0n, 123n],
    [123n, 1_000_000n, 0n],
    // 2^200 at 0.1 %: (1e6 − 1000)/1e6 = 999/1000, so floor(2^200·999/1000), no exception
    [2n ** 200n, 1000n, (2n ** 200n * 999n) / 1000n],
  ])('floor(%p·(1e6 − %p)/1e6) = %p', (amount, ppm, expected) => {
    expect(applySlippageFloor(amount, ppm)).toBe(expected);
  });

  it('rejects out-of-range inputs', () => {
    expect(() => applySlippageFloor(1n, -1n)).toThrow(MathDomainError);
    expect(() => applySlippageFloor(1n, 1_000_001n)).toThrow(MathDomainError);
    expect(() => applySlippageFloor(-1n, 0n)).toThrow(MathDomainError);
  });
});

describe('takeFee', () => {
  it.each([
    // 1_000_000·3000/1e6 = 3000
    [1_000_000n, 3000n, 3000n, 997_000n],
    // 333·3000/1e6 = 0.999 → fee 0 (down), rest 333
    [333n, 3000n, 0n, 333n],
    // 12_345·2500/1e6 = 30.86 → 30
    [12_345n, 2500n, 30n, 12_315n],
    [0n, 3000n, 0n, 0n],
  ])('amount %p at %p ppm → fee %p, rest %p', (amount, ppm, fee, rest) => {
    expect(takeFee(amount, ppm)).toEqual({ fee, rest });
  });
});

describe('fractionToPpm', () => {
  it.each([
    [0.005, 5000n],
    [0.001, 1000n],
    [0.1, 100_000n],
    [0, 0n],
    [1, 1_000_000n],
    [0.000001, 1n],
    // floats: 0.0157·1e6 = 15699.999999999998, but the text "0.0157" gives exactly 15700
    [0.0157, 15700n],
    [0.0628, 62800n],
    // 0.1 + 0.2 = "0.30000000000000004" → 300000.00000000004 → 300000
    [0.1 + 0.2, 300_000n],
  ])('%p → %p', (x, expected) => {
    expect(fractionToPpm(x)).toBe(expected);
  });

  it('more than 6 decimals: half-down by default, or as asked', () => {
    // "5e-7" = 0.5 ppm: a tie goes down
    expect(fractionToPpm(5e-7)).toBe(0n);
    // "6e-7" = 0.6 ppm → 1
    expect(fractionToPpm(6e-7)).toBe(1n);
    // "0.0000015" = 1.5 ppm → 1 (tie down); "0.0000025" → 2
    expect(fractionToPpm(0.0000015)).toBe(1n);
    expect(fractionToPpm(0.0000025)).toBe(2n);
    expect(fractionToPpm(0.0000015, 'up')).toBe(2n);
    expect(fractionToPpm(0.0000019, 'down')).toBe(1n);
    expect(() => fractionToPpm(0.0000015, 'reject')).toThrow(MathDomainError);
    expect(fractionToPpm(0.000002, 'reject')).toBe(2n);
  });

  it.each([NaN, Infinity, -0.001, 1.5])('rejects %p', (x) => {
    expect(() => fractionToPpm(x)).toThrow(MathDomainError);
  });
});

describe('toDecimalString / fromDecimalString', () => {
  it.each([
    [1_500_000n, 6, '1.5'],
    [1_000_000n, 6, '1'],
    [5n, 6, '0.000005'],
    [0n, 6, '0'],
    [123n, 0, '123'],
    [10n ** 18n + 1n, 18, '1.000000000000000001'],
    [-1_500_000n, 6, '-1.5'],
    [2n ** 200n, 18, '1606938044258990275541962092341162602522202.993782792835301376'],
  ])('%p with %p decimals ↔ %p', (amount, decimals, text) => {
    expect(toDecimalString(amount, decimals)).toBe(text);
    if (amount >= 0n) expect(fromDecimalString(text, decimals)).toBe(amount);
  });

  it('parses exactly', () => {
    expect(fromDecimalString('1.5', 6)).toBe(1_500_000n);
    expect(fromDecimalString('0.000001', 6)).toBe(1n);
    expect(fromDecimalString('1.50', 1)).toBe(15n); // extra zero digits lose nothing
    expect(fromDecimalString('007', 2)).toBe(700n);
  });

  it.each(['1.0000001', '', '.5', '1.', '-1', '1e6', ' 1', '1,5', 'abc', '0x10'])('rejects "%s" (6 decimals)', (text) => {
    expect(() => fromDecimalString(text, 6)).toThrow(MathDomainError);
  });
});

describe('usdValue', () => {
  it.each([
    // 1.5 USDC at $1 = 1.5
    [1_500_000n, 6, '1', 1.5],
    // 2 WETH at $2500.12 = 5000.24
    [2n * 10n ** 18n, 18, '2500.12', 5000.24],
    // 1e9 units of a 9-decimal token at 1.2e-7 = 1.2e-7
    [10n ** 9n, 9, '1.2e-7', 1.2e-7],
    // 1 wei at $3000 = 3e-15
    [1n, 18, '3000', 3e-15],
    [0n, 6, '1', 0],
    // 123.456789 USDC at $0.9998 = 123.4320976422 (exact in the 18-digit fixed point)
    [123_456_789n, 6, '0.9998', 123.4320976422],
  ])('%p (%p decimals) at $%s = %p', (amount, decimals, price, expected) => {
    expect(usdValue(amount, decimals, price)).toBe(expected);
  });

  it('rejects malformed prices', () => {
    expect(() => usdValue(1n, 6, '-1')).toThrow(MathDomainError);
    expect(() => usdValue(1n, 6, 'abc')).toThrow(MathDomainError);
    expect(() => usdValue(1n, 6, '')).toThrow(MathDomainError);
  });
});
