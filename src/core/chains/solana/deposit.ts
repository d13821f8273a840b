/**
 * The transaction a Solana wallet signs to start a bridge transfer (a quote's `transactionRequest.data` from
 * Solana): a versioned (v0) transaction, serialized with its one signature slot empty and base64-encoded, that a
 * wallet (`@lifi/sdk-provider-solana`, Phantom...) signs and sends unchanged.
 *
 * The bridge model on Solana: the sender deposits into the bridge endpoint's escrow and says in a memo where the
 * transfer goes (memo.ts); a relayer reads the memo and releases on the destination chain. In order:
 *
 *   1. ComputeBudget SetComputeUnitLimit (fees.ts: the instructions' budgets plus a margin)
 *   2. ComputeBudget SetComputeUnitPrice (fees.ts: per priority level)
 *   SPL token:
 *   3. Associated Token Account CreateIdempotent of the escrow owner's token account, paid by the sender — unless
 *      the caller knows the account exists (when unknown it is created: a no-op if it exists)
 *   4. Token TransferChecked of `amount` (checked against the mint's `decimals`) from the sender's associated token
 *      account to the escrow owner's, signed by the sender
 *   native SOL:
 *   3. System Transfer of `amount` lamports from the sender to the escrow owner
 *   then:
 *   5. Memo `xchain:v1:<bridge>:<transferId>:<destination chain id>:<receiver>:<minimum amount out>[:<hop>]...`
 *      (memo.ts), no signer accounts
 *
 * The sender is the fee payer and the only signer; the transaction is compiled unsigned (a no-op signer marks the
 * sender's role, no private key anywhere). Pure: the recent blockhash is the caller's (a real one in chain mode, a
 * deterministic placeholder on the embedded data, which no cluster accepts), and the same input gives the same
 * bytes. Async only because the associated token account addresses are derived with WebCrypto's SHA-256
 * (`findAssociatedTokenPda`).
 *
 * Only the SPL Token program (`Tokenkeg…`): a Token-2022 mint needs its program in the account derivation and in
 * the transfer, and may need more accounts (transfer hooks), which this builder does not add.
 */
import { getSetComputeUnitLimitInstruction, getSetComputeUnitPriceInstruction, COMPUTE_BUDGET_PROGRAM_ADDRESS } from '@solana-program/compute-budget';
import { getAddMemoInstruction } from '@solana-program/memo';
import { getTransferSolInstruction, SYSTEM_PROGRAM_ADDRESS } from '@solana-program/system';
import {
  ASSOCIATED_TOKEN_PROGRAM_ADDRESS,
  TOKEN_PROGRAM_ADDRESS,
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
} from '@solana-program/token';
import {
  appendTransactionMessageInstructions,
  compileTransaction,
  createNoopSigner,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getTransactionSize,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Address,
  type Blockhash,
  type Instruction,
} from '@solana/kit';
import type { FamilyAddress } from '../family';
import { svm } from '../svm';
import {
  computeUnitLimitOf,
  depositFees,
  fixedUnitPrice,
  instructionComputeUnits,
  isSvmPriorityFeeLevel,
  unitPriceFromRecentFees,
  type BudgetedInstruction,
  type DepositFees,
  type SvmPriorityFeeLevel,
} from './fees';
import { MEMO_PROGRAMS, formatBridgeMemo, type BridgeMemo, type MemoProgramVersion } from './memo';

/** The most bytes a v0 transaction may have on the wire (1,280, the IPv6 minimum MTU, less 48 bytes of headers). */
export const MAX_TRANSACTION_SIZE = 1232;

/** The largest SPL token amount and lamport count (u64). */
export const MAX_U64 = 2n ** 64n - 1n;

/** What is deposited: native SOL (lamports), or an SPL token by its mint and decimals. */
export type DepositToken = { readonly kind: 'native' } | { readonly kind: 'spl'; readonly mint: string; readonly decimals: number };

/** The transfer the deposit's memo carries (memo.ts: bridge, transfer id, destination, receiver, minimum, hops), and: */
export interface BridgeDepositInput extends BridgeMemo {
  /**
   * The sender's wallet: fee payer, signer, owner of the source token account. A Solana address by type (parsed by
   * the SVM family), so that no other family's address reaches the builder; checked again here.
   */
  readonly sender: FamilyAddress<'SVM'>;
  /** The owner of the bridge endpoint's escrow (a wallet or a program-derived address). */
  readonly escrowOwner: FamilyAddress<'SVM'>;
  readonly token: DepositToken;
  /** Smallest units (lamports for SOL), 1 to 2⁶⁴ − 1. */
  readonly amount: bigint;
  /** The recent blockhash (base58 of 32 bytes) and the last block height at which it is valid. */
  readonly lifetime: { readonly blockhash: string; readonly lastValidBlockHeight: bigint };
  readonly priorityFeeLevel: SvmPriorityFeeLevel;
  /**
   * Chain mode: the cluster's recent prioritization fees (micro-lamports per compute unit); the price is then the
   * level's percentile of them (fees.ts, unitPriceFromRecentFees). Absent on the embedded data: the level's fixed
   * price (fixedUnitPrice).
   */
  readonly recentPrioritizationFees?: readonly bigint[];
  /**
   * SPL tokens: whether the escrow owner's associated token account exists. `true` leaves its creation out;
   * `false` or absent (unknown) creates it idempotently and counts its rent.
   */
  readonly escrowTokenAccountExists?: boolean;
  /** The Memo program (memo.ts); `v3` (SPL Memo) unless said. */
  readonly memoProgram?: MemoProgramVersion;
}

/** One instruction of the transaction, readable (tests, explanations), with the compute units budgeted for it. */
export type DepositInstruction = { readonly programAddress: Address; readonly computeUnits: number; readonly description: string } & (
  | { readonly kind: 'setComputeUnitLimit'; readonly units: number }
  | { readonly kind: 'setComputeUnitPrice'; readonly microLamports: bigint }
  | { readonly kind: 'createAssociatedTokenIdempotent'; readonly payer: Address; readonly account: Address; readonly owner: Address; readonly mint: Address }
  | {
      readonly kind: 'transferChecked';
      readonly source: Address;
      readonly mint: Address;
      readonly destination: Address;
      readonly authority: Address;
      readonly amount: bigint;
      readonly decimals: number;
    }
  | { readonly kind: 'transferSol'; readonly source: Address; readonly destination: Address; readonly lamports: bigint }
  | { readonly kind: 'memo'; readonly text: string }
);

export interface BridgeDeposit {
  /** The v0 transaction, one empty (zero) signature slot, base64. */
  readonly transactionBase64: string;
  /** Its size in bytes (at most 1,232). */
  readonly transactionSize: number;
  readonly computeUnitLimit: number;
  readonly computeUnitPriceMicroLamports: bigint;
  readonly instructions: readonly DepositInstruction[];
  readonly fees: DepositFees;
  readonly memo: string;
  /** SPL tokens: the sender's and the escrow owner's associated token accounts. */
  readonly tokenAccounts?: { readonly sender: Address; readonly escrow: Address };
  /** The fee payer and only signer. */
  readonly feePayer: Address;
  readonly blockhash: Blockhash;
  /** Echoed for the sender's confirmation strategy (the wire transaction does not carry it). */
  readonly lastValidBlockHeight: bigint;
}

function solanaAddress(text: string, what: string): Address {
  const parsed = svm.parseAddress(text);
  if (parsed === undefined) throw new Error(`${what} is not a Solana address (${svm.addressRule}): ${text}`);
  return parsed as string as Address;
}

/** Checks the input and builds the deposit transaction (see the module's comment for its instructions). */
export async function buildBridgeDeposit(input: BridgeDepositInput): Promise<BridgeDeposit> {
  const sender = solanaAddress(input.sender, 'sender');
  const escrowOwner = solanaAddress(input.escrowOwner, 'escrow owner');
  if (sender === escrowOwner) throw new Error('the sender cannot be the escrow owner');
  if (input.amount < 1n || input.amount > MAX_U64) throw new RangeError(`amount must be from 1 to 2^64 - 1: ${input.amount}`);
  if (!isSvmPriorityFeeLevel(input.priorityFeeLevel)) throw new Error(`unknown priority fee level: ${String(input.priorityFeeLevel)}`);
  if (svm.parseAddress(input.lifetime.blockhash) === undefined) throw new Error(`blockhash must be base58 of 32 bytes: ${input.lifetime.blockhash}`);
  const blockhash = input.lifetime.blockhash as Blockhash;
  const { lastValidBlockHeight } = input.lifetime;
  if (lastValidBlockHeight < 0n || lastValidBlockHeight > MAX_U64) throw new RangeError(`bad lastValidBlockHeight: ${lastValidBlockHeight}`);
  const memoProgram = input.memoProgram ?? 'v3';
  if (memoProgram !== 'v3' && memoProgram !== 'v4') throw new Error(`unknown memo program: ${String(memoProgram)}`);
  const memo = formatBridgeMemo(input);

  const signer = createNoopSigner(sender);
  const memoBytes = new TextEncoder().encode(memo).length;

  // the transfer: its instructions, budgets and readable form
  type Part = { readonly instruction: Instruction; readonly budget: BudgetedInstruction; readonly readable: DistributiveOmit<DepositInstruction, 'computeUnits'> };
  const transfer: Part[] = [];
  let tokenAccounts: BridgeDeposit['tokenAccounts'];
  let createsTokenAccount = false;
  const { token } = input;
  if (token.kind === 'spl') {
    const mint = solanaAddress(token.mint, 'mint');
    if (!Number.isInteger(token.decimals) || token.decimals < 0 || token.decimals > 255) throw new RangeError(`decimals must be from 0 to 255: ${token.decimals}`);
    const [[senderAta], [escrowAta]] = await Promise.all([
      findAssociatedTokenPda({ owner: sender, tokenProgram: TOKEN_PROGRAM_ADDRESS, mint }),
      findAssociatedTokenPda({ owner: escrowOwner, tokenProgram: TOKEN_PROGRAM_ADDRESS, mint }),
    ]);
    tokenAccounts = { sender: senderAta, escrow: escrowAta };
    createsTokenAccount = input.escrowTokenAccountExists !== true;
    if (createsTokenAccount) {
      transfer.push({
        instruction: getCreateAssociatedTokenIdempotentInstruction({ payer: signer, ata: escrowAta, owner: escrowOwner, mint }),
        budget: { kind: 'createAssociatedTokenIdempotent' },
        readable: {
          kind: 'createAssociatedTokenIdempotent',
          programAddress: ASSOCIATED_TOKEN_PROGRAM_ADDRESS,
          payer: sender,
          account: escrowAta,
          owner: escrowOwner,
          mint,
          description: `create the escrow's token account ${escrowAta} (owner ${escrowOwner}, mint ${mint}) if missing, paid by ${sender}`,
        },
      });
    }
    transfer.push({
      instruction: getTransferCheckedInstruction({ source: senderAta, mint, destination: escrowAta, authority: signer, amount: input.amount, decimals: token.decimals }),
      budget: { kind: 'transferChecked' },
      readable: {
        kind: 'transferChecked',
        programAddress: TOKEN_PROGRAM_ADDRESS,
        source: senderAta,
        mint,
        destination: escrowAta,
        authority: sender,
        amount: input.amount,
        decimals: token.decimals,
        description: `transfer ${input.amount} units (${token.decimals} decimals) of ${mint} from ${senderAta} to the escrow's ${escrowAta}, signed by ${sender}`,
      },
    });
  } else {
    transfer.push({
      instruction: getTransferSolInstruction({ source: signer, destination: escrowOwner, amount: input.amount }),
      budget: { kind: 'transferSol' },
      readable: {
        kind: 'transferSol',
        programAddress: SYSTEM_PROGRAM_ADDRESS,
        source: sender,
        destination: escrowOwner,
        lamports: input.amount,
        description: `transfer ${input.amount} lamports from ${sender} to the escrow ${escrowOwner}`,
      },
    });
  }
  transfer.push({
    instruction: getAddMemoInstruction({ memo }, { programAddress: MEMO_PROGRAMS[memoProgram] }),
    budget: { kind: 'memo', program: memoProgram, bytes: memoBytes },
    readable: { kind: 'memo', programAddress: MEMO_PROGRAMS[memoProgram], text: memo, description: `memo (${memoBytes} bytes): ${memo}` },
  });

  const { computeUnitLimit, computeUnitPriceMicroLamports, fees } = depositCost({
    token: token.kind,
    createsTokenAccount,
    memoBytes,
    memoProgram,
    priorityFeeLevel: input.priorityFeeLevel,
    recentPrioritizationFees: input.recentPrioritizationFees,
  });
  const parts: Part[] = [
    {
      instruction: getSetComputeUnitLimitInstruction({ units: computeUnitLimit }),
      budget: { kind: 'setComputeUnitLimit' },
      readable: { kind: 'setComputeUnitLimit', programAddress: COMPUTE_BUDGET_PROGRAM_ADDRESS, units: computeUnitLimit, description: `request ${computeUnitLimit} compute units` },
    },
    {
      instruction: getSetComputeUnitPriceInstruction({ microLamports: computeUnitPriceMicroLamports }),
      budget: { kind: 'setComputeUnitPrice' },
      readable: {
        kind: 'setComputeUnitPrice',
        programAddress: COMPUTE_BUDGET_PROGRAM_ADDRESS,
        microLamports: computeUnitPriceMicroLamports,
        description: `pay ${computeUnitPriceMicroLamports} micro-lamports per compute unit (${input.priorityFeeLevel})`,
      },
    },
    ...transfer,
  ];

  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(sender, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash, lastValidBlockHeight }, m),
    (m) => appendTransactionMessageInstructions(parts.map((p) => p.instruction), m),
  );
  const transaction = compileTransaction(message);
  const transactionSize = getTransactionSize(transaction);
  if (transactionSize > MAX_TRANSACTION_SIZE) throw new Error(`the deposit transaction has ${transactionSize} bytes, over the ${MAX_TRANSACTION_SIZE} a v0 transaction may have`);

  return {
    transactionBase64: getBase64EncodedWireTransaction(transaction),
    transactionSize,
    computeUnitLimit,
    computeUnitPriceMicroLamports,
    instructions: parts.map((p) => ({ ...p.readable, computeUnits: instructionComputeUnits(p.budget) }) as DepositInstruction),
    fees,
    memo,
    ...(tokenAccounts ? { tokenAccounts } : {}),
    feePayer: sender,
    blockhash,
    lastValidBlockHeight,
  };
}

/** What decides a deposit's cost, known before its transaction is built (a quote prices it before it builds it). */
export interface DepositShape {
  readonly token: DepositToken['kind'];
  readonly createsTokenAccount: boolean;
  /** The memo's length in bytes (formatBridgeMemo: it does not depend on the transfer id's value). */
  readonly memoBytes: number;
  readonly memoProgram?: MemoProgramVersion;
  readonly priorityFeeLevel: SvmPriorityFeeLevel;
  /** Chain mode: the cluster's recent prioritization fees (see BridgeDepositInput). */
  readonly recentPrioritizationFees?: readonly bigint[];
}

export interface DepositCost {
  readonly computeUnitLimit: number;
  readonly computeUnitPriceMicroLamports: bigint;
  readonly fees: DepositFees;
}

/**
 * The compute budget and the fees of a deposit of this shape: the limit from the instructions the transaction holds
 * (its own two included), the price from the level, the fees in lamports (fees.ts). The transaction that
 * buildBridgeDeposit builds for the same shape requests exactly this limit and price.
 */
export function depositCost(shape: DepositShape): DepositCost {
  const memoProgram = shape.memoProgram ?? 'v3';
  const transfer: BudgetedInstruction[] =
    shape.token === 'spl'
      ? [...(shape.createsTokenAccount ? [{ kind: 'createAssociatedTokenIdempotent' } as const] : []), { kind: 'transferChecked' }]
      : [{ kind: 'transferSol' }];
  const budgets: BudgetedInstruction[] = [{ kind: 'setComputeUnitLimit' }, { kind: 'setComputeUnitPrice' }, ...transfer, { kind: 'memo', program: memoProgram, bytes: shape.memoBytes }];
  const computeUnitLimit = computeUnitLimitOf(budgets);
  const computeUnitPriceMicroLamports =
    shape.recentPrioritizationFees === undefined
      ? fixedUnitPrice(shape.priorityFeeLevel)
      : unitPriceFromRecentFees(shape.priorityFeeLevel, shape.recentPrioritizationFees);
  const createsTokenAccount = shape.token === 'spl' && shape.createsTokenAccount;
  return { computeUnitLimit, computeUnitPriceMicroLamports, fees: depositFees({ signatures: 1, computeUnitLimit, computeUnitPriceMicroLamports, createsTokenAccount }) };
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
