import { BridgeFeeModel, bpsToPpm, bridgeIn, bridgeOut } from '../../../../src/core/math/bridge';
import { MathDomainError } from '../../../../src/core/math/rational';

const USDC = 10n ** 6n;

/** Across-like USDC route: 4 bps, 0.05 USDC destination gas, min 1 USDC, max 5M USDC. */
const ACROSS_USDC_ARB_BASE: BridgeFeeModel = {
  fixedFee: 0n,
  feePpm: bpsToPpm(4n),
  destinationGasFee: 50_000n,
  minAmount: 1n * USDC,
  maxAmount: 5_000_000n * USDC,
};

/** Relay-like: $0.02 fixed + 10 bps + 0.03 USDC destination gas, no limits. */
const RELAY_USDC: BridgeFeeModel = { fixedFee: 20_000n, feePpm: 1_000n, destinationGasFee: 30_000n, minAmount: 0n };

/** CCTP standard: burn and mint, no fee at all. */
const CCTP_STANDARD: BridgeFeeModel = { fixedFee: 0n, feePpm: 0n, destinationGasFee: 0n, minAmount: 1n };

/** deBridge-like ETH route: 0.001 ETH flat + 8 bps. */
const DEBRIDGE_ETH: BridgeFeeModel = { fixedFee: 10n ** 15n, feePpm: bpsToPpm(8n), destinationGasFee: 0n, minAmount: 0n };

describe('bridgeOut — hand-worked', () => {
  it.each([
    // 1000e6·(1e6 − 400)/1e6 = 999_600_000; − 50_000 gas = 999_550_000; proportional 400_000
    ['across 1000 USDC', ACROSS_USDC_ARB_BASE, 1000n * USDC, 999_550_000n, { fixed: 0n, proportional: 400_000n, destinationGas: 50_000n }],
    // (100e6 − 20_000)·0.999 = 99_980_000·0.999 = 99_880_020; − 30_000 = 99_850_020; proportional 99_980
    ['relay 100 USDC', RELAY_USDC, 100n * USDC, 99_850_020n, { fixed: 20_000n, proportional: 99_980n, destinationGas: 30_000n }],
    // 7 bps on 12_345: 12_345·999_300/1e6 = 12_336.36 → 12_336 (down); proportional = 9 (8.64 rounded up)
    ['rounding down', { fixedFee: 0n, feePpm: 700n, destinationGasFee: 0n, minAmount: 0n }, 12_345n, 12_336n, { fixed: 0n, proportional: 9n, destinationGas: 0n }],
    // no fee: out = in
    ['cctp standard', CCTP_STANDARD, 123_456_789n, 123_456_789n, { fixed: 0n, proportional: 0n, destinationGas: 0n }],
    // 1 ETH: (1e18 − 1e15)·0.9992 = 9.99e17·0.9992 = 998_200_800_000_000_000 (exact)
    ['debridge 1 ETH', DEBRIDGE_ETH, 10n ** 18n, 998_200_800_000_000_000n, { fixed: 10n ** 15n, proportional: 799_200_000_000_000n, destinationGas: 0n }],
  ])('%s', (_name, route, amountIn, amountOut, fees) => {
    const q = bridgeOut(amountIn, route);
    expect(q).toEqual({ ok: true, amountIn, amountOut, fees });
    if (q.ok) expect(q.amountOut + q.fees.fixed + q.fees.proportional + q.fees.destinationGas).toBe(amountIn);
  });

  it('below the minimum / above the maximum', () => {
    expect(bridgeOut(999_999n, ACROSS_USDC_ARB_BASE)).toEqual({ ok: false, reason: 'AMOUNT_TOO_LOW', limit: 1n * USDC });
    expect(bridgeOut(5_000_000n * USDC + 1n, ACROSS_USDC_ARB_BASE)).toEqual({
      ok: false,
      reason: 'AMOUNT_TOO_HIGH',
      limit: 5_000_000n * USDC,
    });
    // the limits themselves are allowed
    expect(bridgeOut(1n * USDC, ACROSS_USDC_ARB_BASE)).toMatchObject({ ok: true, amountOut: 949_600n });
    expect(bridgeOut(5_000_000n * USDC, ACROSS_USDC_ARB_BASE)).toMatchObject({ ok: true });
  });

  it('fees higher than the amount, with the smallest input that gets 1 unit through', () => {
    // relay, 40_000 in: (40_000 − 20_000)·0.999 = 19_980 < 30_000 gas
    // limit: ceil((1 + 30_000)·1e6/999_000) + 20_000 = ceil(30_031.03) + 20_000 = 50_032
    expect(bridgeOut(40_000n, RELAY_USDC)).toEqual({ ok: false, reason: 'FEES_HIGHER_THAN_AMOUNT', limit: 50_032n });
    expect(bridgeOut(50_031n, RELAY_USDC)).toMatchObject({ ok: false, reason: 'FEES_HIGHER_THAN_AMOUNT' });
    expect(bridgeOut(50_032n, RELAY_USDC)).toMatchObject({ ok: true, amountOut: 1n });
    // below the fixed fee, and zero
    expect(bridgeOut(10_000n, RELAY_USDC)).toMatchObject({ ok: false, reason: 'FEES_HIGHER_THAN_AMOUNT' });
    expect(bridgeOut(0n, RELAY_USDC)).toMatchObject({ ok: false, reason: 'FEES_HIGHER_THAN_AMOUNT' });
  });

  it('huge amounts without a maximum', () => {
    // no fee and no maximum: out = in, even for 2^200
    expect(bridgeOut(2n ** 200n, CCTP_STANDARD)).toMatchObject({ ok: true, amountOut: 2n ** 200n });
  });

  it('rejects malformed routes and negative amounts', () => {
    expect(() => bridgeOut(1n, { ...RELAY_USDC, feePpm: 1_000_000n })).toThrow(MathDomainError);
    expect(() => bridgeOut(1n, { ...RELAY_USDC, fixedFee: -1n })).toThrow(MathDomainError);
    expect(() => bridgeOut(1n, { ...ACROSS_USDC_ARB_BASE, maxAmount: 0n })).toThrow(MathDomainError);
    expect(() => bridgeOut(-1n, RELAY_USDC)).toThrow(MathDomainError);
  });
});

describe('bridgeIn — exact output', () => {
  it.each([
    // across: (999_550_000 + 50_000)·1e6/999_600 = 999_600_000/0.9996 = 1_000_000_000 exactly
    ['across, exact division', ACROSS_USDC_ARB_BASE, 999_550_000n, 1000n * USDC, 999_550_000n],
    // relay: (99_850_020 + 30_000)/0.999 = 99_980_000 exactly; + 20_000 = 100_000_000
    ['relay, exact division', RELAY_USDC, 99_850_020n, 100n * USDC, 99_850_020n],
    // relay 1 USDC: (1_000_000 + 30_000)/0.999 = 1_031_031.03 → 1_031_032 (up); + 20_000 = 1_051_032
    //   forward: 1_031_032·0.999 = 1_030_000.97 → 1_030_000 − 30_000 = 1_000_000
    ['relay, rounded up', RELAY_USDC, 1n * USDC, 1_051_032n, 1n * USDC],
    // 7 bps, want 12_336: 12_336/0.9993 = 12_344.64 → 12_345; forward gives 12_336
    ['7 bps', { fixedFee: 0n, feePpm: 700n, destinationGasFee: 0n, minAmount: 0n }, 12_336n, 12_345n, 12_336n],
  ])('%s', (_name, route, want, amountIn, delivered) => {
    expect(bridgeIn(want, route)).toMatchObject({ ok: true, amountIn, amountOut: delivered });
  });

  it('is minimal: one unit less no longer delivers', () => {
    // relay: 1_051_031 − 20_000 = 1_031_031·0.999 = 1_029_999.97 → 1_029_999 − 30_000 = 999_999
    expect(bridgeOut(1_051_031n, RELAY_USDC)).toMatchObject({ ok: true, amountOut: 999_999n });
  });

  it('checks min and max on the required input', () => {
    // across, want 0.5 USDC: (500_000 + 50_000)/0.9996 = 550_220.09 → 550_221 < 1 USDC minimum
    expect(bridgeIn(500_000n, ACROSS_USDC_ARB_BASE)).toEqual({ ok: false, reason: 'AMOUNT_TOO_LOW', limit: 1n * USDC });
    expect(bridgeIn(5_000_000n * USDC, ACROSS_USDC_ARB_BASE)).toEqual({
      ok: false,
      reason: 'AMOUNT_TOO_HIGH',
      limit: 5_000_000n * USDC,
    });
    expect(() => bridgeIn(0n, ACROSS_USDC_ARB_BASE)).toThrow(MathDomainError);
  });

  it('round trip: bridgeOut(bridgeIn(x)) ≥ x and bridgeOut(bridgeIn(x) − 1) < x (deterministic sweep)', () => {
    const routes: BridgeFeeModel[] = [
      ACROSS_USDC_ARB_BASE,
      RELAY_USDC,
      CCTP_STANDARD,
      DEBRIDGE_ETH,
      { fixedFee: 7n, feePpm: 333_333n, destinationGasFee: 11n, minAmount: 0n },
      { fixedFee: 0n, feePpm: 999_999n, destinationGasFee: 0n, minAmount: 0n },
    ];
    let checked = 0;
    for (const route of routes) {
      for (let x = 1n; x < 10n ** 24n; x = x * 3n + 2n) {
        const q = bridgeIn(x, route);
        if (!q.ok) {
          expect(q.reason === 'AMOUNT_TOO_LOW' || q.reason === 'AMOUNT_TOO_HIGH').toBe(true);
          continue;
        }
        expect(q.amountOut).toBeGreaterThanOrEqual(x);
        const less = bridgeOut(q.amountIn - 1n, route);
        if (less.ok) expect(less.amountOut).toBeLessThan(x);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(200);
  });
});
