import { SVMPriorityFeeLevel } from '@lifi/types';
import type { components } from '../../../../../src/generated/openapi';
import {
  COMPUTE_UNITS,
  FIXED_UNIT_PRICES,
  LEVEL_FLOORS,
  MAX_UNIT_PRICE,
  SVM_PRIORITY_FEE_LEVELS,
  TOKEN_ACCOUNT_RENT_EXEMPT_LAMPORTS,
  computeUnitLimitOf,
  depositFees,
  fixedUnitPrice,
  instructionComputeUnits,
  isSvmPriorityFeeLevel,
  percentile,
  priorityFeeLamports,
  rentExemptMinimum,
  unitPriceFromRecentFees,
  type BudgetedInstruction,
  type SvmPriorityFeeLevel,
} from '../../../../../src/core/chains/solana/fees';

describe('priority fee levels', () => {
  test("are the ecosystem's SVMPriorityFeeLevel and the contract's SvmPriorityFeeLevel", () => {
    expect([...SVM_PRIORITY_FEE_LEVELS].sort()).toEqual(Object.values(SVMPriorityFeeLevel).sort());
    // the contract's type and ours are the same set (checked by tsc both ways)
    const fromContract: SvmPriorityFeeLevel = 'FAST' as components['schemas']['SvmPriorityFeeLevel'];
    const toContract: components['schemas']['SvmPriorityFeeLevel'] = fromContract;
    expect(toContract).toBe('FAST');
    expect(isSvmPriorityFeeLevel('ULTRA')).toBe(true);
    expect(isSvmPriorityFeeLevel('normal')).toBe(false);
    expect(isSvmPriorityFeeLevel('toString')).toBe(false);
  });
});

describe('compute unit limit', () => {
  test('budgets each instruction kind by its published figure', () => {
    expect(COMPUTE_UNITS).toEqual({ setComputeUnitLimit: 150, setComputeUnitPrice: 150, transferSol: 150, transferChecked: 6_500, createAssociatedTokenIdempotent: 25_000 });
  });

  test('budgets a memo by its length: SPL Memo 2,000 + 360 per byte, p-memo 300 + 1 per byte', () => {
    expect(instructionComputeUnits({ kind: 'memo', program: 'v3', bytes: 132 })).toBe(2_000 + 360 * 132); // 49,520
    expect(instructionComputeUnits({ kind: 'memo', program: 'v4', bytes: 132 })).toBe(300 + 132); // 432
    // every published SPL Memo figure (no signers) is under the rule: [bytes, compute units consumed]
    const published: Array<[number, number]> = [[8, 4_273], [32, 12_724], [34, 13_505], [39, 15_555], [60, 22_940], [288, 102_665]];
    for (const [bytes, consumed] of published) expect(instructionComputeUnits({ kind: 'memo', program: 'v3', bytes })).toBeGreaterThanOrEqual(consumed);
    // p-memo's own test: 600 bytes in 800 units, 63 bytes in 287
    expect(instructionComputeUnits({ kind: 'memo', program: 'v4', bytes: 600 })).toBeGreaterThanOrEqual(800);
    expect(instructionComputeUnits({ kind: 'memo', program: 'v4', bytes: 63 })).toBeGreaterThanOrEqual(287);
  });

  test('is the sum plus 20 %, rounded up (hand-worked)', () => {
    const spl: BudgetedInstruction[] = [
      { kind: 'setComputeUnitLimit' },
      { kind: 'setComputeUnitPrice' },
      { kind: 'createAssociatedTokenIdempotent' },
      { kind: 'transferChecked' },
      { kind: 'memo', program: 'v3', bytes: 132 },
    ];
    // 150 + 150 + 25,000 + 6,500 + 49,520 = 81,320; × 1.2 = 97,584
    expect(computeUnitLimitOf(spl)).toBe(97_584);
    const native: BudgetedInstruction[] = [{ kind: 'setComputeUnitLimit' }, { kind: 'setComputeUnitPrice' }, { kind: 'transferSol' }, { kind: 'memo', program: 'v3', bytes: 132 }];
    // 150 + 150 + 150 + 49,520 = 49,970; × 1.2 = 59,964
    expect(computeUnitLimitOf(native)).toBe(59_964);
    // 150 + 150 + 150 + (300 + 1) = 751; × 1.2 = 901.2 → 902
    expect(computeUnitLimitOf([{ kind: 'setComputeUnitLimit' }, { kind: 'setComputeUnitPrice' }, { kind: 'transferSol' }, { kind: 'memo', program: 'v4', bytes: 1 }])).toBe(902);
  });

  test('refuses more than a transaction may request (1,400,000)', () => {
    // 2,000 + 360 × 4,000 = 1,442,000 before the margin
    expect(() => computeUnitLimitOf([{ kind: 'memo', program: 'v3', bytes: 4_000 }])).toThrow(/1400000/);
  });
});

describe('compute unit price', () => {
  test('embedded data: a fixed price per level', () => {
    expect(FIXED_UNIT_PRICES).toEqual({ NORMAL: 10_000n, FAST: 100_000n, ULTRA: 1_000_000n });
    expect(SVM_PRIORITY_FEE_LEVELS.map(fixedUnitPrice)).toEqual([10_000n, 100_000n, 1_000_000n]);
  });

  test('percentile: nearest rank, ceil(p × n / 100), on the sorted values', () => {
    const values = [40n, 10n, 30n, 20n];
    expect(percentile(values, 50)).toBe(20n); // rank ceil(2) = 2
    expect(percentile(values, 75)).toBe(30n); // rank ceil(3) = 3
    expect(percentile(values, 95)).toBe(40n); // rank ceil(3.8) = 4
    expect(percentile(values, 1)).toBe(10n); // rank ceil(0.04) = 1
    expect(percentile([], 50)).toBeUndefined();
    // 95 × 20 / 100 = 19 exactly: rank 19, not 20
    expect(percentile(Array.from({ length: 20 }, (_, i) => BigInt(i + 1)), 95)).toBe(19n);
    expect(() => percentile(values, 0)).toThrow(RangeError);
    expect(() => percentile(values, 50.5)).toThrow(RangeError);
  });

  test("chain mode: NORMAL the median, FAST the 75th, ULTRA the 95th percentile of the recent fees", () => {
    // 10 slots of getRecentPrioritizationFees, in micro-lamports per unit, in the order the node gives them
    const recent = [0n, 20_000n, 0n, 5_000n, 2_500_000n, 0n, 100_000n, 12_000n, 0n, 50_000n];
    // sorted: 0, 0, 0, 0, 5,000, 12,000, 20,000, 50,000, 100,000, 2,500,000
    // NORMAL: rank ceil(50 × 10 / 100) = 5 → 5,000 (over its floor 1,000)
    expect(unitPriceFromRecentFees('NORMAL', recent)).toBe(5_000n);
    // FAST: rank ceil(75 × 10 / 100) = ceil(7.5) = 8 → 50,000 (over its floor 10,000)
    expect(unitPriceFromRecentFees('FAST', recent)).toBe(50_000n);
    // ULTRA: rank ceil(95 × 10 / 100) = ceil(9.5) = 10 → 2,500,000 (over its floor 100,000, under the cap)
    expect(unitPriceFromRecentFees('ULTRA', recent)).toBe(2_500_000n);
  });

  test('chain mode: never below the level floor (quiet slots, no data), never above the cap', () => {
    expect(LEVEL_FLOORS).toEqual({ NORMAL: 1_000n, FAST: 10_000n, ULTRA: 100_000n });
    for (const level of SVM_PRIORITY_FEE_LEVELS) {
      expect(unitPriceFromRecentFees(level, [0n, 0n, 0n])).toBe(LEVEL_FLOORS[level]);
      expect(unitPriceFromRecentFees(level, [])).toBe(LEVEL_FLOORS[level]);
      expect(unitPriceFromRecentFees(level, [10n ** 12n])).toBe(MAX_UNIT_PRICE);
    }
    // the median is 4,000 micro-lamports: over NORMAL's floor, under FAST's
    expect(unitPriceFromRecentFees('NORMAL', [3_000n, 4_000n, 5_000n])).toBe(4_000n);
    expect(unitPriceFromRecentFees('FAST', [3_000n, 4_000n, 5_000n])).toBe(10_000n);
    expect(() => unitPriceFromRecentFees('NORMAL', [-1n])).toThrow(RangeError);
  });

  test('chain mode: the levels stay ordered whatever the fees', () => {
    const lists: bigint[][] = [[], [0n], [7n, 7n, 7n], [1n, 2_000_000n], [30_000n, 1n, 99_999n, 5n, 400_000n, 0n, 0n], [10n ** 9n, 0n]];
    for (const list of lists) {
      const [normal, fast, ultra] = SVM_PRIORITY_FEE_LEVELS.map((level) => unitPriceFromRecentFees(level, list));
      expect(normal <= fast && fast <= ultra).toBe(true);
    }
  });
});

describe('lamports', () => {
  test('priority fee = ceil(limit × price / 1,000,000)', () => {
    expect(priorityFeeLamports(97_584, 10_000n)).toBe(976n); // 975,840,000 / 10⁶ = 975.84 → 976
    expect(priorityFeeLamports(97_584, 100_000n)).toBe(9_759n); // 9,758.4 → 9,759
    expect(priorityFeeLamports(97_584, 1_000_000n)).toBe(97_584n); // exactly 97,584
    expect(priorityFeeLamports(200_000, 5n)).toBe(1n); // 1,000,000 / 10⁶ = 1
    expect(priorityFeeLamports(200_001, 5n)).toBe(2n); // 1.000005 → 2
    expect(priorityFeeLamports(59_964, 0n)).toBe(0n);
  });

  test('rent-exempt minimum: (data + 128) × 3,480 × 2', () => {
    // (165 + 128) × 3,480 × 2 = 293 × 6,960 = 2,039,280
    expect(rentExemptMinimum(165)).toBe(2_039_280n);
    expect(TOKEN_ACCOUNT_RENT_EXEMPT_LAMPORTS).toBe(2_039_280n);
    // a system account without data: 128 × 6,960 = 890,880; a mint (82 bytes): 210 × 6,960 = 1,461,600
    expect(rentExemptMinimum(0)).toBe(890_880n);
    expect(rentExemptMinimum(82)).toBe(1_461_600n);
  });

  test('deposit fees: each part and the total (hand-worked)', () => {
    // SPL, escrow token account created, NORMAL on the embedded data
    expect(depositFees({ signatures: 1, computeUnitLimit: 97_584, computeUnitPriceMicroLamports: 10_000n, createsTokenAccount: true })).toEqual({
      baseFee: 5_000n,
      priorityFee: 976n,
      rent: 2_039_280n,
      total: 2_045_256n, // 5,000 + 976 + 2,039,280
    });
    // native SOL, ULTRA: 59,964 × 1,000,000 / 10⁶ = 59,964
    expect(depositFees({ signatures: 1, computeUnitLimit: 59_964, computeUnitPriceMicroLamports: 1_000_000n, createsTokenAccount: false })).toEqual({
      baseFee: 5_000n,
      priorityFee: 59_964n,
      rent: 0n,
      total: 64_964n,
    });
    expect(depositFees({ signatures: 2, computeUnitLimit: 0, computeUnitPriceMicroLamports: 0n, createsTokenAccount: false }).baseFee).toBe(10_000n);
    expect(() => depositFees({ signatures: 0, computeUnitLimit: 0, computeUnitPriceMicroLamports: 0n, createsTokenAccount: false })).toThrow(RangeError);
  });
});
