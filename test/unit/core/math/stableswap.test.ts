import { MathDomainError } from '../../../../src/core/math/rational';
import { getD, getDx, getDy, getY, ratesForDecimals, xpFromBalances } from '../../../../src/core/math/stableswap';

const E6 = 10n ** 6n;
const E18 = 10n ** 18n;
const FEE_100_PERCENT = 10_000_000_000n;

/** 1,000,000 USDC / 1,000,000 USDT (6 decimals each), A = 100 (Ann = 200), fee 4 bps = 4_000_000 / 1e10. */
const USDC_USDT_A100 = {
  balances: [1_000_000n * E6, 1_000_000n * E6],
  rates: ratesForDecimals([6, 6]), // 1e30 each: xp = balance·1e30/1e18 = balance·1e12
  amp: 100n,
  fee: 4_000_000n,
} as const;

/** 3pool-like: 100M DAI (18) / 100M USDC (6) / 100M USDT (6), A = 2000 (Ann = 6000), fee 1 bp = 1_000_000. */
const DAI_USDC_USDT_A2000 = {
  balances: [100_000_000n * E18, 100_000_000n * E6, 100_000_000n * E6],
  rates: ratesForDecimals([18, 6, 6]),
  amp: 2000n,
  fee: 1_000_000n,
} as const;

describe('stableswap.getD', () => {
  it('works a tiny pool by hand: xp = [100, 200], A = 1 (Ann = 2)', () => {
    // D = 300:  D_P = 300·300/(100·2) = 450 → 450·300/(200·2) = 337 (337.5)
    //           D = (2·300 + 2·337)·300 / ((2−1)·300 + 3·337) = 382200/1311 = 291.5 → 291
    // D = 291:  D_P = 291·291/200 = 423 (423.4) → 423·291/400 = 307 (307.7)
    //           D = (600 + 614)·291 / (291 + 921) = 353274/1212 = 291.48 → 291, |ΔD| = 0 → stop
    // (real root of 600 = D + D³/80000 is 291.46)
    expect(getD([100n, 200n], 1n)).toBe(291n);
  });

  it('a balanced pool has D = sum of balances exactly (2 and 3 coins)', () => {
    // with x_k = S/n: D_P = S, so D = (Ann·S + n·S)·S/((Ann − 1)·S + (n + 1)·S) = S at the first step
    expect(getD(xpFromBalances(USDC_USDT_A100.balances, USDC_USDT_A100.rates), 100n)).toBe(2_000_000n * E18);
    expect(getD(xpFromBalances(DAI_USDC_USDT_A2000.balances, DAI_USDC_USDT_A2000.rates), 2000n)).toBe(
      300_000_000n * E18,
    );
  });

  it('an imbalanced pool has D below the sum, closer to it for a larger A', () => {
    const xp = [1_500_000n * E18, 500_000n * E18];
    const d10 = getD(xp, 10n);
    const d100 = getD(xp, 100n);
    expect(d10 < d100 && d100 < 2_000_000n * E18).toBe(true);
    // A = 100: 400 = 199·D + D³/3 (in millions) → D ≈ 1.99673M
    expect(d100 / E18 / 1000n).toBe(1996n);
  });

  it('is 0 for an empty pool and throws when a single coin is empty', () => {
    expect(getD([0n, 0n], 100n)).toBe(0n);
    expect(() => getD([0n, 5n], 100n)).toThrow(MathDomainError);
  });
});

describe('stableswap.getY', () => {
  it('works a tiny pool by hand: xp = [100, 200], A = 1, coin 0 set to 150', () => {
    // D = 291; c = 291·291/(150·2) = 282 → 282·291/(2·2) = 20515; b = 150 + 291/2 = 295
    // y: 291 → (84681 + 20515)/(582 + 4) = 179 → (32041 + 20515)/362 = 145 → (21025 + 20515)/294 = 141
    //    → (19881 + 20515)/286 = 141, stop (real root of 2y² + 9y = 41070.3: 141.07)
    expect(getY(0, 1, 150n, [100n, 200n], 1n)).toBe(141n);
  });

  it('leaves the balance unchanged when x is unchanged (balanced pool)', () => {
    const xp = [10n ** 24n, 10n ** 24n];
    const y = getY(0, 1, 10n ** 24n, xp, 100n);
    expect(y >= 10n ** 24n - 1n && y <= 10n ** 24n + 1n).toBe(true);
  });
});

describe('stableswap.getDy — balanced USDC/USDT, A = 100, 4 bps', () => {
  const { balances, rates, amp, fee } = USDC_USDT_A100;
  it('1000 USDC → 999.590103 USDT', () => {
    // Near balance, with x = y = D/2, Ann = 200, curvature y'' = 8/(D·(Ann + 2)):
    //   dy ≈ u − 4u²/(D·(Ann + 2)) = 1000 − 4·1000²/(2e6·202) = 1000 − 0.0099 = 999.9901 (−1 wei of xp)
    //   fee 0.04 %: 999.9901·0.0004 = 0.39996 → 999.59014 → 6 decimals, rounded down: 999.590103
    expect(getDy(0, 1, 1000n * E6, balances, rates, amp, fee)).toBe(999_590_103n);
    // without fee: 999.9901 − 1e-18 → 999.990099
    expect(getDy(0, 1, 1000n * E6, balances, rates, amp, 0n)).toBe(999_990_099n);
  });

  it('dy < dx in a balanced pool, with or without fee; symmetric both ways', () => {
    for (const dx of [1n, 10n, 12345n, 1000n * E6, 100_000n * E6]) {
      expect(getDy(0, 1, dx, balances, rates, amp, fee)).toBeLessThan(dx);
      expect(getDy(0, 1, dx, balances, rates, amp, 0n)).toBeLessThan(dx);
      expect(getDy(1, 0, dx, balances, rates, amp, fee)).toBe(getDy(0, 1, dx, balances, rates, amp, fee));
    }
  });

  it('dust: 1 unit gives 0, 2 units give 1', () => {
    // 1 unit = 1e12 in xp; 1e12 − 1 − fee(4e8) = 999599999999 → /1e12 → 0
    expect(getDy(0, 1, 1n, balances, rates, amp, fee)).toBe(0n);
    // 2e12 − 1 − 8e8 → 1.9992e12 → 1
    expect(getDy(0, 1, 2n, balances, rates, amp, fee)).toBe(1n);
  });

  it('a huge input (2^200) nearly empties coin j, no exception', () => {
    // y → ~0, so dy ≈ 1e24 xp − 0.04 % fee = 9.996e23 → 999,600 USDT
    expect(getDy(0, 1, 2n ** 200n, balances, rates, amp, fee)).toBe(999_600_000_000n);
  });

  it('zero input or an empty coin gives 0; bad arguments throw', () => {
    expect(getDy(0, 1, 0n, balances, rates, amp, fee)).toBe(0n);
    expect(getDy(0, 1, 1000n, [0n, 1000n], rates, amp, fee)).toBe(0n);
    expect(() => getDy(0, 0, 1n, balances, rates, amp, fee)).toThrow(MathDomainError);
    expect(() => getDy(0, 2, 1n, balances, rates, amp, fee)).toThrow(MathDomainError);
    expect(() => getDy(0, 1, 1n, balances, rates, amp, FEE_100_PERCENT)).toThrow(MathDomainError);
    expect(() => getDy(0, 1, -1n, balances, rates, amp, fee)).toThrow(MathDomainError);
  });

  it('A_PRECISION pools: amp = A·100 with aPrecision 100 is bit-identical to the classic A', () => {
    expect(getDy(0, 1, 1000n * E6, balances, rates, 10_000n, fee, 100n)).toBe(999_590_103n);
    // A = 100.5 is only expressible with A_PRECISION; more amplification → slightly more out
    expect(getDy(0, 1, 1000n * E6, balances, rates, 10_050n, fee, 100n)).toBe(999_590_151n);
  });
});

describe('stableswap.getDy — imbalanced pool', () => {
  // 1.5M USDC / 0.5M USDT, A = 100: D ≈ 1.99673M, D³ ≈ 7.9605 (millions)
  // marginal price of USDT in USDC = (Ann + D³/(4xy²))/(Ann + D³/(4x²y)) = (200 + 5.307)/(200 + 1.769) = 1.01753
  const balances = [1_500_000n * E6, 500_000n * E6];
  const { rates, amp, fee } = USDC_USDT_A100;

  it('selling the scarce coin gives more than 1:1, buying it gives less', () => {
    // 1000 USDT → ≈ 1017.5 − 0.4 fee − slippage = 1017.09 USDC
    const scarceToAbundant = getDy(1, 0, 1000n * E6, balances, rates, amp, fee);
    // 1000 USDC → ≈ 1000/1.01753 = 982.77 − 0.39 fee − slippage = 982.34 USDT
    const abundantToScarce = getDy(0, 1, 1000n * E6, balances, rates, amp, fee);
    expect(scarceToAbundant).toBe(1_017_087_505n);
    expect(abundantToScarce).toBe(982_335_043n);
    expect(scarceToAbundant > 1000n * E6 && abundantToScarce < 1000n * E6).toBe(true);
  });
});

describe('stableswap.getDy — 3 coins with mixed decimals (DAI 18, USDC 6, USDT 6)', () => {
  const { balances, rates, amp, fee } = DAI_USDC_USDT_A2000;
  // n = 3 at balance: y'' = 18/(D·(Ann + 3)); dy ≈ u − 9u²/(D·(Ann + 3)) = 1000 − 9e6/(3e8·6003) = 999.999995
  // fee 1 bp: −0.0999999995 → 999.8999950
  it('1000 DAI → 999.899995 USDC (rounded down to 6 decimals)', () => {
    expect(getDy(0, 1, 1000n * E18, balances, rates, amp, fee)).toBe(999_899_995n);
  });

  it('1000 USDC → 999.899995002998525223 DAI (18 decimals)', () => {
    expect(getDy(1, 0, 1000n * E6, balances, rates, amp, fee)).toBe(999_899_995_002_998_525_223n);
  });

  it('USDC → USDT behaves like DAI → USDC', () => {
    expect(getDy(1, 2, 1000n * E6, balances, rates, amp, fee)).toBe(999_899_995n);
  });
});

describe('stableswap.getDx — exact output', () => {
  it('1000 USDT out of the balanced 2-pool needs 1000.410070 USDC', () => {
    // 1000/0.9996 = 1000.40016 + slippage 0.0099 = 1000.41006 → the minimal integer input is 1000.410070
    const { balances, rates, amp, fee } = USDC_USDT_A100;
    expect(getDx(0, 1, 1000n * E6, balances, rates, amp, fee)).toEqual({ ok: true, amountIn: 1_000_410_070n });
  });

  it('1000 DAI out of the 3-coin pool needs 1000.100015 USDC', () => {
    const { balances, rates, amp, fee } = DAI_USDC_USDT_A2000;
    expect(getDx(1, 0, 1000n * E18, balances, rates, amp, fee)).toEqual({ ok: true, amountIn: 1_000_100_015n });
  });

  it('returns the minimal input: getDy(dx) ≥ dy and getDy(dx − 1) < dy (deterministic sweep)', () => {
    const pools = [
      { ...USDC_USDT_A100, pairs: [[0, 1], [1, 0]] as const },
      { ...USDC_USDT_A100, balances: [1_500_000n * E6, 500_000n * E6], pairs: [[0, 1], [1, 0]] as const },
      { ...DAI_USDC_USDT_A2000, pairs: [[0, 1], [1, 0], [2, 1]] as const },
    ];
    let checked = 0;
    for (const { balances, rates, amp, fee, pairs } of pools) {
      for (const [i, j] of pairs) {
        for (let dy = 1n; dy < balances[j]! / 2n; dy = dy * 7n + 5n) {
          const r = getDx(i, j, dy, balances, rates, amp, fee);
          if (!r.ok) throw new Error(`no quote for ${dy}`);
          expect(getDy(i, j, r.amountIn, balances, rates, amp, fee)).toBeGreaterThanOrEqual(dy);
          expect(getDy(i, j, r.amountIn - 1n, balances, rates, amp, fee)).toBeLessThan(dy);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(70);
  });

  it('fails with a typed reason when the output is not in the pool', () => {
    const { balances, rates, amp, fee } = USDC_USDT_A100;
    expect(getDx(0, 1, balances[1]!, balances, rates, amp, fee)).toEqual({ ok: false, reason: 'INSUFFICIENT_LIQUIDITY' });
    expect(getDx(0, 1, 2n * balances[1]!, balances, rates, amp, fee)).toMatchObject({ ok: false });
    expect(getDx(0, 1, 0n, balances, rates, amp, fee)).toEqual({ ok: true, amountIn: 0n });
  });
});

describe('stableswap helpers', () => {
  it('ratesForDecimals gives Curve RATES 10^(36 − decimals)', () => {
    expect(ratesForDecimals([18, 6, 8])).toEqual([10n ** 18n, 10n ** 30n, 10n ** 28n]);
    expect(() => ratesForDecimals([37])).toThrow(MathDomainError);
  });
});

describe('stableswap memo of xp and D per pool state', () => {
  /** getDy written out with the unmemoised getY (D recomputed from xp on every call). */
  const reference = (i: number, j: number, dx: bigint, balances: readonly bigint[], rates: readonly bigint[], amp: bigint, fee: bigint): bigint => {
    const xp = xpFromBalances(balances, rates);
    const dy = xp[j]! - getY(i, j, xp[i]! + (dx * rates[i]!) / E18, xp, amp) - 1n;
    if (dy <= 0n) return 0n;
    return ((dy - (dy * fee) / FEE_100_PERCENT) * E18) / rates[j]!;
  };

  it('gives what the unmemoised computation gives, on one pool state quoted many times', () => {
    const { balances, rates, amp, fee } = DAI_USDC_USDT_A2000;
    for (const dx of [1n, 10n ** 6n, 12_345_678n, 10n ** 12n, 5n * 10n ** 13n]) {
      for (const [i, j] of [[1, 2], [2, 1], [1, 0], [2, 0]] as const) {
        expect(getDy(i, j, dx, balances, rates, amp, fee)).toBe(reference(i, j, dx, balances, rates, amp, fee));
      }
    }
  });

  it('never reads a stale memo: balances or rates changed in place, another amp', () => {
    const balances = [1_000_000n * E6, 1_000_000n * E6];
    const rates = ratesForDecimals([6, 6]);
    const dx = 250_000n * E6;
    const before = getDy(0, 1, dx, balances, rates, 100n, 4_000_000n);
    balances[1] = 400_000n * E6; // the same array, another state
    const after = getDy(0, 1, dx, balances, rates, 100n, 4_000_000n);
    expect(after).not.toBe(before);
    expect(after).toBe(reference(0, 1, dx, [...balances], [...rates], 100n, 4_000_000n));
    expect(getDy(0, 1, dx, balances, rates, 2000n, 4_000_000n)).toBe(reference(0, 1, dx, balances, rates, 2000n, 4_000_000n));
    rates[0] = 10n ** 18n; // coin 0 now read as 18 decimals
    expect(getDy(0, 1, dx, balances, rates, 100n, 4_000_000n)).toBe(reference(0, 1, dx, [...balances], [...rates], 100n, 4_000_000n));
    const dxResult = getDx(0, 1, 1_000n * E6, balances, rates, 100n, 4_000_000n);
    expect(dxResult.ok).toBe(true);
    if (dxResult.ok) {
      expect(getDy(0, 1, dxResult.amountIn, [...balances], [...rates], 100n, 4_000_000n)).toBeGreaterThanOrEqual(1_000n * E6);
      expect(getDy(0, 1, dxResult.amountIn - 1n, [...balances], [...rates], 100n, 4_000_000n)).toBeLessThan(1_000n * E6);
    }
  });
});
