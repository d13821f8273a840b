/**
 * What a Solana bridge deposit costs its sender, in lamports (1 SOL = 10⁹ lamports), by stated rules:
 *
 *   total = base fee + priority fee + rent
 *
 * - base fee: 5,000 lamports per signature (`lamportsPerSignature` of the cluster's fee rate governor); a deposit
 *   has one signature, the sender's (fee payer and signer of every instruction).
 * - priority fee: ceil(compute unit limit × compute unit price / 1,000,000); the price is in micro-lamports per
 *   compute unit and the runtime charges it on the limit the transaction requests, not on what it uses.
 * - compute unit limit: the sum of a budget per instruction (COMPUTE_UNITS, from published figures: no chain runs
 *   here) plus a safety margin of COMPUTE_UNIT_MARGIN_PERCENT; chain mode may replace it with a simulation.
 * - compute unit price: per `svmPriorityFeeLevel` (NORMAL, FAST, ULTRA: `SVMPriorityFeeLevel` of @lifi/types,
 *   `SvmPriorityFeeLevel` of openapi.yaml): fixed prices on the embedded data (FIXED_UNIT_PRICES), a percentile of
 *   the cluster's recent prioritization fees in chain mode (unitPriceFromRecentFees).
 * - rent: the rent-exempt minimum of an SPL token account (165 bytes) when the deposit creates the escrow's token
 *   account, paid by the sender and held by the account (2,039,280 lamports, see rentExemptMinimum).
 */
import type { MemoProgramVersion } from './memo';

/** The priority fee levels of the ecosystem's API (`svmPriorityFeeLevel`). */
export const SVM_PRIORITY_FEE_LEVELS = ['NORMAL', 'FAST', 'ULTRA'] as const;
export type SvmPriorityFeeLevel = (typeof SVM_PRIORITY_FEE_LEVELS)[number];

export function isSvmPriorityFeeLevel(value: unknown): value is SvmPriorityFeeLevel {
  return typeof value === 'string' && (SVM_PRIORITY_FEE_LEVELS as readonly string[]).includes(value);
}

// ---------------------------------------------------------------------------------------------------------------
// Base fee

/** Lamports per signature: the cluster's `lamportsPerSignature` (5,000 on mainnet-beta, devnet and testnet). */
export const LAMPORTS_PER_SIGNATURE = 5_000n;

// ---------------------------------------------------------------------------------------------------------------
// Compute units

/** The most compute units a transaction may request (`MAX_COMPUTE_UNIT_LIMIT` of the runtime). */
export const MAX_COMPUTE_UNIT_LIMIT = 1_400_000;

/** The margin added to the sum of the instructions' budgets, in percent. */
export const COMPUTE_UNIT_MARGIN_PERCENT = 20;

/**
 * The compute units budgeted per instruction, each at or above the highest published figure for it (not measured
 * here: no chain may run in this project's unit tests):
 *
 * - `setComputeUnitLimit`, `setComputeUnitPrice`: 150, the fixed cost of the Compute Budget builtin
 *   (`DEFAULT_COMPUTE_UNITS = 150`, agave programs/compute-budget).
 * - `transferSol`: 150, the fixed cost of the System program builtin (`DEFAULT_COMPUTE_UNITS = 150`,
 *   agave programs/system).
 * - `transferChecked`: 6,500. SPL Token (`Tokenkeg…`) TransferChecked logs "consumed 6200" and "consumed 6462" in
 *   published mainnet transactions (Transfer: 4,645, febo/p-token README). Where p-token (SIMD-0266) runs in its
 *   place it costs about a hundred: the figure stays an upper bound.
 * - `createAssociatedTokenIdempotent` (creating the account): 25,000. The Associated Token Account program logs
 *   19,315 to 24,944 for a creation in published transactions (GetAccountDataSize, CreateAccount,
 *   InitializeImmutableOwner and InitializeAccount3 CPIs included); older versions of the program logged up to 29,580,
 *   still under the figure with the margin (30,000). When the account exists it costs about 4,000 (3,669 in the p-ata
 *   README benchmark, 4,338 in a published log): budgeting the creation covers both.
 * - `memo`: by length, see MEMO_COMPUTE_UNITS.
 */
export const COMPUTE_UNITS = {
  setComputeUnitLimit: 150,
  setComputeUnitPrice: 150,
  transferSol: 150,
  transferChecked: 6_500,
  createAssociatedTokenIdempotent: 25_000,
} as const;

/**
 * A memo without signer accounts costs `base + perByte × bytes` (UTF-8 bytes of printable ASCII):
 *
 * - `v3` (SPL Memo `MemoSq4…`, the binary deployed since 2021): 2,000 + 360 per byte. Published logs (no signers):
 *   8 bytes 4,273; 32 bytes 12,724; 34 bytes 13,505; 39 bytes 15,555; 60 bytes 22,940; 288 bytes 102,665 (about 352
 *   per byte: the program logs the memo with Rust's `{:?}`, character by character); the program's own 2021 test
 *   ran out of the 200,000-unit budget at 567 bytes (2,000 + 360 × 566 = 205,760). Every figure is under the rule.
 *   Rebuilt with today's toolchain the program costs far less (8,503 for 600 bytes in its 2026 test): the rule
 *   budgets the deployed binary.
 * - `v4` (p-memo `Memo4c2p…`): 300 + 1 per byte. The program's test: 600 bytes 800, 63 bytes 287.
 */
export const MEMO_COMPUTE_UNITS: Readonly<Record<MemoProgramVersion, { readonly base: number; readonly perByte: number }>> = {
  v3: { base: 2_000, perByte: 360 },
  v4: { base: 300, perByte: 1 },
};

/** An instruction as the compute budget sees it: its kind, and for a memo its program and length in bytes. */
export type BudgetedInstruction =
  | { readonly kind: keyof typeof COMPUTE_UNITS }
  | { readonly kind: 'memo'; readonly program: MemoProgramVersion; readonly bytes: number };

/** The compute units budgeted for one instruction (before the margin). */
export function instructionComputeUnits(instruction: BudgetedInstruction): number {
  if (instruction.kind === 'memo') {
    const { base, perByte } = MEMO_COMPUTE_UNITS[instruction.program];
    return base + perByte * instruction.bytes;
  }
  return COMPUTE_UNITS[instruction.kind];
}

/**
 * The compute unit limit of a transaction holding `instructions` (its two compute budget instructions included):
 * ceil(sum × (100 + margin) / 100). Throws when it would pass MAX_COMPUTE_UNIT_LIMIT.
 */
export function computeUnitLimitOf(instructions: readonly BudgetedInstruction[]): number {
  const sum = instructions.reduce((total, instruction) => total + instructionComputeUnits(instruction), 0);
  const limit = Math.ceil((sum * (100 + COMPUTE_UNIT_MARGIN_PERCENT)) / 100);
  if (limit > MAX_COMPUTE_UNIT_LIMIT) throw new Error(`the instructions need ${limit} compute units, over the ${MAX_COMPUTE_UNIT_LIMIT} a transaction may request`);
  return limit;
}

// ---------------------------------------------------------------------------------------------------------------
// Compute unit price (micro-lamports per compute unit)

/**
 * Embedded data (no chain to ask): a fixed price per level, each ten times the one below. Chosen, not measured:
 * NORMAL lands a transaction when blocks are not contended, FAST and ULTRA outbid the usual and the busy traffic.
 * For a 100,000-unit limit they cost 1,000, 10,000 and 100,000 lamports.
 */
export const FIXED_UNIT_PRICES: Readonly<Record<SvmPriorityFeeLevel, bigint>> = {
  NORMAL: 10_000n,
  FAST: 100_000n,
  ULTRA: 1_000_000n,
};

/**
 * Chain mode: the percentile of the recent prioritization fees (`getRecentPrioritizationFees`: per recent slot, the
 * lowest price paid by a transaction that landed, in micro-lamports per compute unit) each level takes.
 */
export const LEVEL_PERCENTILES: Readonly<Record<SvmPriorityFeeLevel, number>> = {
  NORMAL: 50,
  FAST: 75,
  ULTRA: 95,
};

/** Chain mode: the least price of each level (most recent slots report 0), a tenth of the level's fixed price. */
export const LEVEL_FLOORS: Readonly<Record<SvmPriorityFeeLevel, bigint>> = {
  NORMAL: 1_000n,
  FAST: 10_000n,
  ULTRA: 100_000n,
};

/**
 * Chain mode: the most any level pays (ten times ULTRA's fixed price), so that one outlier slot (or a dishonest
 * node) cannot price a deposit at any figure: 10,000,000 micro-lamports per unit, 1,000,000 lamports (0.001 SOL)
 * for a 100,000-unit limit.
 */
export const MAX_UNIT_PRICE = 10_000_000n;

/** The price of a level on the embedded data. */
export function fixedUnitPrice(level: SvmPriorityFeeLevel): bigint {
  return FIXED_UNIT_PRICES[level];
}

/**
 * The nearest-rank percentile of `values` (p an integer, 1 ≤ p ≤ 100): the value at rank ceil(p × n / 100) of the
 * values sorted in ascending order (ranks from 1; integer arithmetic, no rounding of p / 100). Undefined for an
 * empty list.
 */
export function percentile(values: readonly bigint[], p: number): bigint | undefined {
  if (!Number.isInteger(p) || p < 1 || p > 100) throw new RangeError(`percentile must be an integer from 1 to 100: ${p}`);
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const rank = Math.ceil((p * sorted.length) / 100);
  return sorted[rank - 1];
}

/**
 * The price of a level in chain mode: the level's percentile of `recentFees` (LEVEL_PERCENTILES), never below the
 * level's floor (LEVEL_FLOORS, also the answer for an empty list) nor above MAX_UNIT_PRICE. Monotone in the level:
 * NORMAL ≤ FAST ≤ ULTRA for any list.
 */
export function unitPriceFromRecentFees(level: SvmPriorityFeeLevel, recentFees: readonly bigint[]): bigint {
  for (const fee of recentFees) if (fee < 0n) throw new RangeError(`a prioritization fee cannot be negative: ${fee}`);
  const observed = percentile(recentFees, LEVEL_PERCENTILES[level]) ?? 0n;
  const floored = observed > LEVEL_FLOORS[level] ? observed : LEVEL_FLOORS[level];
  return floored < MAX_UNIT_PRICE ? floored : MAX_UNIT_PRICE;
}

// ---------------------------------------------------------------------------------------------------------------
// Priority fee, rent, total

/** ceil(unit limit × unit price / 1,000,000) lamports: the price is in millionths of a lamport per unit. */
export function priorityFeeLamports(computeUnitLimit: number, unitPriceMicroLamports: bigint): bigint {
  if (!Number.isSafeInteger(computeUnitLimit) || computeUnitLimit < 0) throw new RangeError(`bad compute unit limit: ${computeUnitLimit}`);
  if (unitPriceMicroLamports < 0n) throw new RangeError(`bad compute unit price: ${unitPriceMicroLamports}`);
  const microLamports = BigInt(computeUnitLimit) * unitPriceMicroLamports;
  return (microLamports + 999_999n) / 1_000_000n;
}

/** The size of an SPL token account (`spl_token::state::Account::LEN`). */
export const TOKEN_ACCOUNT_SIZE = 165;
/** Bytes the runtime counts for every account beside its data (`ACCOUNT_STORAGE_OVERHEAD`). */
export const ACCOUNT_STORAGE_OVERHEAD = 128;
/** The rent rate: lamports per byte-year (`DEFAULT_LAMPORTS_PER_BYTE_YEAR`: 1,000,000,000 / 100 × 365 / (1024 × 1024)). */
export const LAMPORTS_PER_BYTE_YEAR = 3_480n;
/** An account is rent-exempt when it holds two years of rent (`DEFAULT_EXEMPTION_THRESHOLD`). */
export const EXEMPTION_THRESHOLD_YEARS = 2n;

/** The rent-exempt minimum of an account of `dataLength` bytes: (dataLength + 128) × 3,480 × 2 lamports. */
export function rentExemptMinimum(dataLength: number): bigint {
  if (!Number.isSafeInteger(dataLength) || dataLength < 0) throw new RangeError(`bad data length: ${dataLength}`);
  return (BigInt(dataLength) + BigInt(ACCOUNT_STORAGE_OVERHEAD)) * LAMPORTS_PER_BYTE_YEAR * EXEMPTION_THRESHOLD_YEARS;
}

/** (165 + 128) × 3,480 × 2 = 293 × 6,960 = 2,039,280 lamports. */
export const TOKEN_ACCOUNT_RENT_EXEMPT_LAMPORTS = rentExemptMinimum(TOKEN_ACCOUNT_SIZE);

export interface DepositFeeInput {
  /** Signatures the transaction carries (1 for a deposit). */
  readonly signatures: number;
  readonly computeUnitLimit: number;
  readonly computeUnitPriceMicroLamports: bigint;
  /** Whether the transaction creates the escrow's token account (its rent is then the sender's). */
  readonly createsTokenAccount: boolean;
}

export interface DepositFees {
  /** LAMPORTS_PER_SIGNATURE × signatures. */
  readonly baseFee: bigint;
  /** priorityFeeLamports(limit, price). */
  readonly priorityFee: bigint;
  /** TOKEN_ACCOUNT_RENT_EXEMPT_LAMPORTS when the escrow's token account is created, else 0. */
  readonly rent: bigint;
  /** baseFee + priorityFee + rent (lamports the sender spends beside the amount deposited). */
  readonly total: bigint;
}

export function depositFees(input: DepositFeeInput): DepositFees {
  if (!Number.isSafeInteger(input.signatures) || input.signatures < 1) throw new RangeError(`bad signature count: ${input.signatures}`);
  const baseFee = LAMPORTS_PER_SIGNATURE * BigInt(input.signatures);
  const priorityFee = priorityFeeLamports(input.computeUnitLimit, input.computeUnitPriceMicroLamports);
  const rent = input.createsTokenAccount ? TOKEN_ACCOUNT_RENT_EXEMPT_LAMPORTS : 0n;
  return { baseFee, priorityFee, rent, total: baseFee + priorityFee + rent };
}
