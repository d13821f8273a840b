/**
 * A chain around a LiteSVM: blocks, slots and blockhashes that move like a cluster's, and the records an RPC node
 * keeps (transaction statuses and metadata, signatures per address, prioritization fees per slot).
 *
 * LiteSVM executes transactions (the real SVM with the SPL programs) but has no blocks: it accepts only its latest
 * blockhash and keeps no fee, balances or token balances of a transaction. Here:
 * - every transaction that lands opens a block of its own: the slot and the block height advance by one, the clock
 *   sysvar moves to that slot (and the wall-clock second), the transaction executes in it, then the blockhash is
 *   expired, so that the next `getLatestBlockhash` gives the new block's hash. `tick()` produces an empty block
 *   (the devnet's `slotTimeMs` timer calls it, as a cluster produces blocks without transactions);
 * - a blockhash stays valid for 150 blocks after its own (lastValidBlockHeight = its block height + 150), as on
 *   a cluster: LiteSVM's own blockhash check (latest hash only) is off, the ledger checks the window itself;
 * - a transaction lands (is kept, its fee charged) when LiteSVM includes it, failed or not; one LiteSVM refuses
 *   (bad blockhash, signature, unfunded fee payer, already processed...) never lands, as a leader drops it;
 * - fee = the lamports the transaction's accounts lost in total (lamports only move between its accounts, except the
 *   fee), pre/post balances and token balances are read from the accounts before and after.
 */
import { createPublicKey, verify } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { Clock, LiteSVM, type FailedTransactionMetadata, type TransactionMetadata } from 'litesvm';
import {
  address,
  getAddressDecoder,
  getAddressEncoder,
  getBase58Decoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  type Address,
  type CompiledTransactionMessage,
  type CompiledTransactionMessageWithLifetime,
  type EncodedAccount,
  type Transaction,
} from '@solana/kit';
import { getMintDecoder, getTokenDecoder, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';

export const SYSTEM_PROGRAM = '11111111111111111111111111111111';
export const TOKEN_PROGRAM = TOKEN_PROGRAM_ADDRESS as string;
export const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';
export const ASSOCIATED_TOKEN_PROGRAM = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';
export const COMPUTE_BUDGET_PROGRAM = 'ComputeBudget111111111111111111111111111111';
export const NATIVE_LOADER = 'NativeLoader1111111111111111111111111111111';
export const BPF_LOADER_UPGRADEABLE = 'BPFLoaderUpgradeab1e11111111111111111111111';
export const NATIVE_MINT = 'So11111111111111111111111111111111111111112';
/** Memo v1, v3 (the address LiteSVM loads the memo program at) and v4 (the address @solana-program/memo 0.15 builds for). */
export const MEMO_PROGRAM_V1 = 'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo';
export const MEMO_PROGRAM_V3 = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr';
export const MEMO_PROGRAM_V4 = 'Memo4c2pN8afCj432Lb7RMVKi9PbQnnW7ewFFaV3oAH';
export const MEMO_PROGRAMS: ReadonlySet<string> = new Set([MEMO_PROGRAM_V1, MEMO_PROGRAM_V3, MEMO_PROGRAM_V4]);

/** Blocks a blockhash stays valid after its own (MAX_PROCESSING_AGE). */
export const BLOCKHASH_VALIDITY = 150n;
/** Lamports per signature (the cluster's fee rate). */
export const LAMPORTS_PER_SIGNATURE = 5000n;
/** Mainnet runs about 21.5 M slots ahead of its block height (skipped slots); the ledger keeps them apart too. */
const BLOCK_HEIGHT_BEHIND_SLOT = 21_500_000n;
const MAX_COMPUTE_UNIT_LIMIT = 1_400_000n;
const DEFAULT_INSTRUCTION_COMPUTE_UNIT_LIMIT = 200_000n;
const BUILTIN_INSTRUCTION_COMPUTE_UNIT_LIMIT = 3_000n;
/** Size of an address lookup table's metadata before its addresses. */
const LOOKUP_TABLE_META_SIZE = 56;

// ---------------------------------------------------------------------------------------------------------------
// JSON shapes of the real RPC

export type InstructionErrorJson = string | { Custom: number } | { BorshIoError: string };
export type TransactionErrorJson =
  | string
  | { InstructionError: [number, InstructionErrorJson] }
  | { DuplicateInstruction: number }
  | { InsufficientFundsForRent: { account_index: number } }
  | { ProgramExecutionTemporarilyRestricted: { account_index: number } };

export interface UiTokenAmount {
  readonly amount: string;
  readonly decimals: number;
  readonly uiAmount: number;
  readonly uiAmountString: string;
}

export interface TokenBalance {
  readonly accountIndex: number;
  readonly mint: string;
  readonly owner: string;
  readonly programId: string;
  readonly uiTokenAmount: UiTokenAmount;
}

export interface CompiledInnerInstruction {
  readonly programIdIndex: number;
  readonly accounts: readonly number[];
  readonly data: Uint8Array;
  readonly stackHeight: number;
}

export interface InnerInstructions {
  readonly index: number;
  readonly instructions: readonly CompiledInnerInstruction[];
}

// ---------------------------------------------------------------------------------------------------------------
// Decoding

export type CompiledMessage = (CompiledTransactionMessage & CompiledTransactionMessageWithLifetime) & { version: 'legacy' | 0 };

export interface DecodedTransaction {
  readonly wire: Uint8Array;
  readonly transaction: Transaction;
  /** The first signature (the transaction id), base58. */
  readonly signature: string;
  readonly signatures: readonly string[];
  readonly message: CompiledMessage;
  readonly version: 'legacy' | 0;
  readonly recentBlockhash: string;
}

/** A request the RPC refuses before anything runs (the real RPC's -32602 "invalid transaction: ..."). */
export class InvalidTransactionError extends Error {}

const base58 = getBase58Decoder();
const addressDecoder = getAddressDecoder();
const transactionDecoder = getTransactionDecoder();
const messageDecoder = getCompiledTransactionMessageDecoder();
const tokenDecoder = getTokenDecoder();
const mintDecoder = getMintDecoder();

/** Decodes wire bytes (signatures + message) the way a validator deserializes them; legacy and v0 only. */
export function decodeTransaction(wire: Uint8Array): DecodedTransaction {
  let transaction: Transaction;
  let message: CompiledTransactionMessage & CompiledTransactionMessageWithLifetime;
  try {
    transaction = transactionDecoder.decode(wire);
    message = messageDecoder.decode(transaction.messageBytes);
  } catch (error) {
    throw new InvalidTransactionError(`failed to deserialize solana_transaction::versioned::VersionedTransaction: ${(error as Error).message}`);
  }
  if (message.version !== 'legacy' && message.version !== 0) throw new InvalidTransactionError(`unsupported transaction version ${String(message.version)}`);
  const entries = Object.entries(transaction.signatures);
  if (entries.length === 0 || entries.length !== message.header.numSignerAccounts) {
    throw new InvalidTransactionError('Transaction failed to sanitize accounts offsets correctly');
  }
  const signatures = message.staticAccounts.slice(0, message.header.numSignerAccounts).map((key) => {
    const bytes = transaction.signatures[key];
    return bytes ? base58.decode(bytes) : '1111111111111111111111111111111111111111111111111111111111111111';
  });
  return {
    wire,
    transaction,
    signature: signatures[0],
    signatures,
    message: message as CompiledMessage,
    version: message.version,
    recentBlockhash: message.lifetimeToken,
  };
}

const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const addressBytes = getAddressEncoder();

/** Every required signature present and valid over the message (Ed25519, node:crypto): what the node checks first. */
export function verifySignatures(decoded: DecodedTransaction): boolean {
  const { message, transaction } = decoded;
  return message.staticAccounts.slice(0, message.header.numSignerAccounts).every((key) => {
    const signature = transaction.signatures[key];
    if (!signature) return false;
    const publicKey = createPublicKey({ key: Buffer.concat([SPKI_ED25519_PREFIX, Buffer.from(addressBytes.encode(key))]), format: 'der', type: 'spki' });
    return verify(null, Buffer.from(transaction.messageBytes), publicKey, Buffer.from(signature));
  });
}

export interface ResolvedKeys {
  /** Static keys, then the lookup tables' writable, then their readonly addresses (the transaction's account indexes). */
  readonly keys: readonly Address[];
  readonly loaded: { readonly writable: readonly Address[]; readonly readonly: readonly Address[] };
  readonly writable: readonly boolean[];
  readonly signer: readonly boolean[];
  readonly source: readonly ('transaction' | 'lookupTable')[];
}

// ---------------------------------------------------------------------------------------------------------------
// Errors of LiteSVM → the RPC's JSON

const TRANSACTION_ERRORS = [
  'AccountInUse', 'AccountLoadedTwice', 'AccountNotFound', 'ProgramAccountNotFound', 'InsufficientFundsForFee',
  'InvalidAccountForFee', 'AlreadyProcessed', 'BlockhashNotFound', 'CallChainTooDeep', 'MissingSignatureForFee',
  'InvalidAccountIndex', 'SignatureFailure', 'InvalidProgramForExecution', 'SanitizeFailure', 'ClusterMaintenance',
  'AccountBorrowOutstanding', 'WouldExceedMaxBlockCostLimit', 'UnsupportedVersion', 'InvalidWritableAccount',
  'WouldExceedMaxAccountCostLimit', 'WouldExceedAccountDataBlockLimit', 'TooManyAccountLocks',
  'AddressLookupTableNotFound', 'InvalidAddressLookupTableOwner', 'InvalidAddressLookupTableData',
  'InvalidAddressLookupTableIndex', 'InvalidRentPayingAccount', 'WouldExceedMaxVoteCostLimit',
  'WouldExceedAccountDataTotalLimit', 'MaxLoadedAccountsDataSizeExceeded', 'ResanitizationNeeded',
  'InvalidLoadedAccountsDataSizeLimit', 'UnbalancedTransaction', 'ProgramCacheHitMaxLimit', 'CommitCancelled',
] as const; // litesvm's TransactionErrorFieldless, in its order

const INSTRUCTION_ERRORS = [
  'GenericError', 'InvalidArgument', 'InvalidInstructionData', 'InvalidAccountData', 'AccountDataTooSmall',
  'InsufficientFunds', 'IncorrectProgramId', 'MissingRequiredSignature', 'AccountAlreadyInitialized',
  'UninitializedAccount', 'UnbalancedInstruction', 'ModifiedProgramId', 'ExternalAccountLamportSpend',
  'ExternalAccountDataModified', 'ReadonlyLamportChange', 'ReadonlyDataModified', 'DuplicateAccountIndex',
  'ExecutableModified', 'RentEpochModified', 'NotEnoughAccountKeys', 'AccountDataSizeChanged', 'AccountNotExecutable',
  'AccountBorrowFailed', 'AccountBorrowOutstanding', 'DuplicateAccountOutOfSync', 'InvalidError',
  'ExecutableDataModified', 'ExecutableLamportChange', 'ExecutableAccountNotRentExempt', 'UnsupportedProgramId',
  'CallDepth', 'MissingAccount', 'ReentrancyNotAllowed', 'MaxSeedLengthExceeded', 'InvalidSeeds', 'InvalidRealloc',
  'ComputationalBudgetExceeded', 'PrivilegeEscalation', 'ProgramEnvironmentSetupFailure', 'ProgramFailedToComplete',
  'ProgramFailedToCompile', 'Immutable', 'IncorrectAuthority', 'AccountNotRentExempt', 'InvalidAccountOwner',
  'ArithmeticOverflow', 'UnsupportedSysvar', 'IllegalOwner', 'MaxAccountsDataAllocationsExceeded', 'MaxAccountsExceeded',
  'MaxInstructionTraceLengthExceeded', 'BuiltinProgramsMustConsumeComputeUnits', 'BorshIoError',
] as const; // litesvm's InstructionErrorFieldless, in its order

function instructionErrorJson(error: unknown): InstructionErrorJson {
  if (typeof error === 'number') return INSTRUCTION_ERRORS[error] ?? `InstructionError${error}`;
  const e = error as { code?: number; msg?: string; constructor?: { name?: string } };
  if (typeof e.code === 'number') return { Custom: e.code };
  if (typeof e.msg === 'string') return { BorshIoError: e.msg };
  return String(error);
}

/** A LiteSVM transaction error as the RPC serializes a TransactionError. */
export function transactionErrorJson(error: unknown): TransactionErrorJson {
  if (typeof error === 'number') return TRANSACTION_ERRORS[error] ?? `TransactionError${error}`;
  const e = error as { index?: number; accountIndex?: number; err?: () => unknown; constructor?: { name?: string } };
  const kind = e.constructor?.name ?? '';
  if (typeof e.err === 'function' && typeof e.index === 'number') return { InstructionError: [e.index, instructionErrorJson(e.err())] };
  if (typeof e.index === 'number') return { DuplicateInstruction: e.index };
  if (typeof e.accountIndex === 'number') {
    return kind.includes('Restricted')
      ? { ProgramExecutionTemporarilyRestricted: { account_index: e.accountIndex } }
      : { InsufficientFundsForRent: { account_index: e.accountIndex } };
  }
  return String(error);
}

const TRANSACTION_ERROR_TEXT: Readonly<Record<string, string>> = {
  AccountInUse: 'Account in use',
  AccountLoadedTwice: 'Account loaded twice',
  AccountNotFound: 'Attempt to debit an account but found no record of a prior credit.',
  ProgramAccountNotFound: 'Attempt to load a program that does not exist',
  InsufficientFundsForFee: 'Insufficient funds for fee',
  InvalidAccountForFee: 'This account may not be used to pay transaction fees',
  AlreadyProcessed: 'This transaction has already been processed',
  BlockhashNotFound: 'Blockhash not found',
  CallChainTooDeep: 'Loader call chain is too deep',
  MissingSignatureForFee: 'Transaction requires a fee but has no signature present',
  InvalidAccountIndex: 'Transaction contains an invalid account reference',
  SignatureFailure: 'Transaction did not pass signature verification',
  InvalidProgramForExecution: 'This program may not be used for executing instructions',
  SanitizeFailure: 'Transaction failed to sanitize accounts offsets correctly',
  AddressLookupTableNotFound: 'Transaction loads an address table account that doesn\'t exist',
  InvalidRentPayingAccount: 'Transaction leaves an account with a lower balance than rent-exempt minimum',
  UnsupportedVersion: 'Transaction version is unsupported',
};

const INSTRUCTION_ERROR_TEXT: Readonly<Record<string, string>> = {
  GenericError: 'generic instruction error',
  InvalidArgument: 'invalid program argument',
  InvalidInstructionData: 'invalid instruction data',
  InvalidAccountData: 'invalid account data for instruction',
  AccountDataTooSmall: 'account data too small for instruction',
  InsufficientFunds: 'insufficient funds for instruction',
  IncorrectProgramId: 'incorrect program id for instruction',
  MissingRequiredSignature: 'missing required signature for instruction',
  AccountAlreadyInitialized: 'instruction requires an uninitialized account',
  UninitializedAccount: 'instruction requires an initialized account',
  ComputationalBudgetExceeded: 'Computational budget exceeded',
  ProgramFailedToComplete: 'Program failed to complete',
  InvalidSeeds: 'Provided seeds do not result in a valid address',
  IllegalOwner: 'Provided owner is not allowed',
  InvalidAccountOwner: 'Invalid account owner',
  ArithmeticOverflow: 'Program arithmetic overflowed',
  IncorrectAuthority: 'Incorrect authority provided',
  Immutable: 'Account is immutable',
};

/** The Display text of a TransactionError (what "Transaction simulation failed: ..." carries). */
export function transactionErrorText(error: TransactionErrorJson): string {
  if (typeof error === 'string') return TRANSACTION_ERROR_TEXT[error] ?? error;
  if ('InstructionError' in error) {
    const [index, inner] = error.InstructionError;
    const text = typeof inner === 'string'
      ? INSTRUCTION_ERROR_TEXT[inner] ?? inner
      : 'Custom' in inner ? `custom program error: 0x${inner.Custom.toString(16)}` : `Failed to serialize or deserialize account data: ${inner.BorshIoError}`;
    return `Error processing Instruction ${index}: ${text}`;
  }
  if ('DuplicateInstruction' in error) return `Transaction contains a duplicate instruction (${error.DuplicateInstruction}) that is not allowed`;
  if ('InsufficientFundsForRent' in error) return `Transaction results in an account (${error.InsufficientFundsForRent.account_index}) with insufficient funds for rent`;
  return `Execution of the program referenced by account at index ${error.ProgramExecutionTemporarilyRestricted.account_index} is temporarily restricted.`;
}

// ---------------------------------------------------------------------------------------------------------------
// Amounts

/** The RPC's decimal string of a token amount, trailing zeros trimmed (real_number_string_trimmed). */
export function uiAmountString(amount: bigint, decimals: number): string {
  if (decimals === 0) return amount.toString();
  const digits = amount.toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

export function uiTokenAmount(amount: bigint, decimals: number): UiTokenAmount {
  return { amount: amount.toString(), decimals, uiAmount: Number(amount) / 10 ** decimals, uiAmountString: uiAmountString(amount, decimals) };
}

// ---------------------------------------------------------------------------------------------------------------
// Records

export interface ExecutionOutcome {
  readonly err: TransactionErrorJson | null;
  readonly logs: readonly string[];
  readonly unitsConsumed: bigint;
  readonly innerInstructions: readonly InnerInstructions[];
  readonly returnData: { readonly programId: string; readonly data: Uint8Array } | null;
  readonly fee: bigint;
  readonly preBalances: readonly bigint[];
  readonly postBalances: readonly bigint[];
  readonly preTokenBalances: readonly TokenBalance[];
  readonly postTokenBalances: readonly TokenBalance[];
  /** Accounts after execution (simulation: what LiteSVM reports; landed: read back), by address. */
  readonly postAccounts: ReadonlyMap<string, EncodedAccount | null>;
}

export interface LandedTransaction extends ExecutionOutcome {
  readonly decoded: DecodedTransaction;
  readonly keys: ResolvedKeys;
  readonly slot: bigint;
  readonly blockTime: number;
  /** Micro-lamports per compute unit the transaction asked for (0 without SetComputeUnitPrice). */
  readonly computeUnitPrice: bigint;
  /** "[len] text" of each memo instruction joined with "; " (getSignaturesForAddress's memo), or null. */
  readonly memo: string | null;
}

export interface Block {
  readonly slot: bigint;
  readonly parentSlot: bigint;
  readonly blockHeight: bigint;
  readonly blockhash: string;
  readonly previousBlockhash: string;
  readonly blockTime: number;
  readonly transactions: readonly LandedTransaction[];
}

export type SendOutcome =
  | { readonly landed: true; readonly transaction: LandedTransaction }
  | { readonly landed: false; readonly err: TransactionErrorJson; readonly logs: readonly string[] };

export interface SimulateOptions {
  readonly sigVerify?: boolean;
  /** Skip the blockhash check (simulateTransaction's replaceRecentBlockhash: the latest blockhash stands in). */
  readonly replaceRecentBlockhash?: boolean;
}

export interface LedgerEvents {
  block: [Block];
}

export interface LedgerOptions {
  /** The LiteSVM to drive (default: `new LiteSVM()` with the native mints, see createSvm). */
  readonly svm?: LiteSVM;
  /** Unix time of the first block (default: now). Later blocks take the wall clock, never going back. */
  readonly startTime?: number;
  /** Blocks whose records (statuses, prioritization fees) are kept (default 1,000,000: all of a session). */
  readonly historyBlocks?: number;
}

/**
 * A LiteSVM as this ledger needs it: the standard runtime (builtins, sysvars, SPL Token, Token-2022, ATA, memo,
 * address lookup tables, stake), the native mints, its blockhash check off (the ledger checks a 150-block window),
 * a transaction history for duplicate detection, and the memo program also at the address @solana-program/memo
 * 0.15 builds for (v4, Memo4c2p...): LiteSVM 1.5 loads the memo program (pinocchio memo 4.0.0) only at the v3 address.
 */
export function createSvm(): LiteSVM {
  const svm = new LiteSVM().withNativeMints().withBlockhashCheck(false).withSigverify(true).withTransactionHistory(1_000_000n);
  if (!svm.getAccount(address(MEMO_PROGRAM_V4)).exists) {
    const memo = svm.getAccount(address(MEMO_PROGRAM_V3));
    if (memo.exists) svm.addProgramWithLoader(address(MEMO_PROGRAM_V4), new Uint8Array(memo.data), address(BPF_LOADER_UPGRADEABLE));
  }
  return svm;
}

type Snapshot = Map<string, EncodedAccount | null>;

export class Ledger extends EventEmitter<LedgerEvents> {
  readonly svm: LiteSVM;
  private slotValue: bigint;
  private heightValue: bigint;
  private timeValue: number;
  private readonly firstSlot: bigint;
  /** blockhash → the block height of its block. */
  private readonly blockhashHeights = new Map<string, bigint>();
  private readonly blocks = new Map<bigint, Block>();
  private readonly bySignature = new Map<string, LandedTransaction>();
  /** address → signatures of the landed transactions that have it among their keys, oldest first. */
  private readonly byAddress = new Map<string, string[]>();
  private readonly decimalsByMint = new Map<string, number>();
  private readonly historyBlocks: number;
  private transactionCount = 0n;

  constructor(options: LedgerOptions = {}) {
    super();
    this.svm = options.svm ?? createSvm();
    const clock = this.svm.getClock();
    this.firstSlot = clock.slot;
    this.slotValue = clock.slot;
    this.heightValue = clock.slot - BLOCK_HEIGHT_BEHIND_SLOT;
    this.timeValue = options.startTime ?? Math.floor(Date.now() / 1000);
    this.historyBlocks = options.historyBlocks ?? 1_000_000;
    this.setClock(this.slotValue, this.timeValue);
    const hash = this.svm.latestBlockhash();
    this.blockhashHeights.set(hash, this.heightValue);
    this.blocks.set(this.slotValue, {
      slot: this.slotValue, parentSlot: this.slotValue, blockHeight: this.heightValue, blockhash: hash,
      previousBlockhash: hash, blockTime: this.timeValue, transactions: [],
    });
  }

  // --- chain state ------------------------------------------------------------------------------------------------

  get slot(): bigint {
    return this.slotValue;
  }

  get blockHeight(): bigint {
    return this.heightValue;
  }

  get genesisSlot(): bigint {
    return this.firstSlot;
  }

  get transactionTotal(): bigint {
    return this.transactionCount;
  }

  latestBlockhash(): { blockhash: string; lastValidBlockHeight: bigint } {
    return { blockhash: this.svm.latestBlockhash(), lastValidBlockHeight: this.heightValue + BLOCKHASH_VALIDITY };
  }

  isBlockhashValid(blockhash: string): boolean {
    const height = this.blockhashHeights.get(blockhash);
    return height !== undefined && this.heightValue <= height + BLOCKHASH_VALIDITY;
  }

  block(slot: bigint): Block | undefined {
    return this.blocks.get(slot);
  }

  blockTime(): number {
    return this.timeValue;
  }

  epochInfo(): { epoch: bigint; slotIndex: bigint; slotsInEpoch: bigint } {
    return epochOf(this.svm, this.slotValue);
  }

  /** An empty block: the slot, height and blockhash move on. */
  tick(): Block {
    return this.openBlock(() => undefined);
  }

  // --- accounts ---------------------------------------------------------------------------------------------------

  account(key: string): EncodedAccount | null {
    const account = this.svm.getAccount(address(key));
    return account.exists ? account : null;
  }

  /** Decimals of a mint of the Token or Token-2022 program (cached: a mint's decimals never change). */
  mintDecimals(mint: string): number | undefined {
    const known = this.decimalsByMint.get(mint);
    if (known !== undefined) return known;
    const decoded = decodeMint(this.account(mint));
    if (!decoded) return undefined;
    this.decimalsByMint.set(mint, decoded.decimals);
    return decoded.decimals;
  }

  /** The token balance of a token account (Token or Token-2022), or undefined for any other account. */
  tokenBalance(account: EncodedAccount | null, accountIndex: number): TokenBalance | undefined {
    const token = decodeTokenAccount(account);
    if (!token || !account) return undefined;
    const decimals = this.mintDecimals(token.mint);
    if (decimals === undefined) return undefined;
    return { accountIndex, mint: token.mint, owner: token.owner, programId: account.programAddress, uiTokenAmount: uiTokenAmount(token.amount, decimals) };
  }

  // --- transactions -----------------------------------------------------------------------------------------------

  transaction(signature: string): LandedTransaction | undefined {
    return this.bySignature.get(signature);
  }

  /** Signatures of the landed transactions with `key` among their accounts, newest first. */
  signaturesFor(key: string): readonly string[] {
    return [...(this.byAddress.get(key) ?? [])].reverse();
  }

  /** Whether a slot is still in the node's recent status cache (the last 300 slots). */
  isRecent(slot: bigint): boolean {
    return slot + 300n >= this.slotValue;
  }

  /** The transaction's accounts: static keys, then those its address lookup tables load. */
  resolveKeys(decoded: DecodedTransaction): ResolvedKeys | undefined {
    const { message } = decoded;
    const statics = message.staticAccounts;
    const writable: Address[] = [];
    const readonly: Address[] = [];
    const lookups = message.version === 0 ? message.addressTableLookups ?? [] : [];
    for (const lookup of lookups) {
      const table = this.account(lookup.lookupTableAddress);
      if (!table || table.data.length < LOOKUP_TABLE_META_SIZE) return undefined;
      const at = (i: number): Address | undefined => {
        const start = LOOKUP_TABLE_META_SIZE + i * 32;
        return start + 32 <= table.data.length ? addressDecoder.decode(table.data.subarray(start, start + 32)) : undefined;
      };
      for (const i of lookup.writableIndexes) {
        const a = at(i);
        if (!a) return undefined;
        writable.push(a);
      }
      for (const i of lookup.readonlyIndexes) {
        const a = at(i);
        if (!a) return undefined;
        readonly.push(a);
      }
    }
    const keys = [...statics, ...writable, ...readonly];
    const { numSignerAccounts: s, numReadonlySignerAccounts: rs, numReadonlyNonSignerAccounts: rn } = message.header;
    const invoked = new Set(message.instructions.map((ix) => ix.programAddressIndex));
    const hasUpgradeableLoader = keys.includes(address(BPF_LOADER_UPGRADEABLE));
    const isWritable = keys.map((_, i) => {
      const byHeader = i < statics.length ? (i < s ? i < s - rs : i < statics.length - rn) : i < statics.length + writable.length;
      return byHeader && (!invoked.has(i) || hasUpgradeableLoader);
    });
    return {
      keys,
      loaded: { writable, readonly },
      writable: isWritable,
      signer: keys.map((_, i) => i < s),
      source: keys.map((_, i) => (i < statics.length ? 'transaction' : 'lookupTable')),
    };
  }

  /**
   * Executes a transaction as a leader would: if LiteSVM includes it (success or failure charged), it lands in a
   * new block; if not (blockhash outside the window, already processed, bad signature, unfunded payer...), nothing
   * changes and the error says why.
   */
  send(decoded: DecodedTransaction): SendOutcome {
    if (this.bySignature.has(decoded.signature)) return { landed: false, err: 'AlreadyProcessed', logs: [] };
    if (!this.isBlockhashValid(decoded.recentBlockhash)) return { landed: false, err: 'BlockhashNotFound', logs: [] };
    const keys = this.resolveKeys(decoded);
    if (!keys) return { landed: false, err: 'AddressLookupTableNotFound', logs: [] };
    const pre = this.snapshot(keys.keys);
    const previousClock = this.svm.getClock();
    const nextSlot = this.slotValue + 1n;
    const nextTime = Math.max(this.timeValue, Math.floor(Date.now() / 1000));
    this.setClock(nextSlot, nextTime);
    let result: TransactionMetadata | FailedTransactionMetadata;
    try {
      result = this.svm.sendTransaction(decoded.transaction);
    } catch (error) {
      this.svm.setClock(previousClock);
      throw error;
    }
    const failed = isFailed(result);
    const included = !failed || this.svm.getTransaction(decoded.signature as never) !== null;
    if (!included) {
      this.svm.setClock(previousClock);
      const meta = (result as FailedTransactionMetadata).meta();
      return { landed: false, err: transactionErrorJson((result as FailedTransactionMetadata).err()), logs: meta.logs() };
    }
    const post = this.snapshot(keys.keys);
    const outcome = this.outcome(keys, result, pre, post);
    let landed: LandedTransaction | undefined;
    this.openBlock((block) => {
      landed = {
        ...outcome,
        decoded,
        keys,
        slot: block.slot,
        blockTime: block.blockTime,
        computeUnitPrice: computeBudgetOf(decoded.message).unitPrice ?? 0n,
        memo: memoOf(decoded.message),
      };
      (block.transactions as LandedTransaction[]).push(landed);
      this.bySignature.set(decoded.signature, landed);
      for (const key of new Set(keys.keys)) {
        let list = this.byAddress.get(key);
        if (!list) this.byAddress.set(key, (list = []));
        list.push(decoded.signature);
      }
      this.transactionCount += 1n;
    }, { slot: nextSlot, time: nextTime });
    return { landed: true, transaction: landed! };
  }

  /** Runs a transaction against the current state without keeping anything (simulateTransaction, preflight). */
  simulate(decoded: DecodedTransaction, options: SimulateOptions = {}): ExecutionOutcome {
    const empty = (err: TransactionErrorJson): ExecutionOutcome => ({
      err, logs: [], unitsConsumed: 0n, innerInstructions: [], returnData: null, fee: 0n,
      preBalances: [], postBalances: [], preTokenBalances: [], postTokenBalances: [], postAccounts: new Map(),
    });
    if (!options.replaceRecentBlockhash && !this.isBlockhashValid(decoded.recentBlockhash)) return empty('BlockhashNotFound');
    if (this.bySignature.has(decoded.signature)) return empty('AlreadyProcessed');
    const keys = this.resolveKeys(decoded);
    if (!keys) return empty('AddressLookupTableNotFound');
    const pre = this.snapshot(keys.keys);
    const sigVerify = options.sigVerify ?? false;
    this.svm.withSigverify(sigVerify);
    let result;
    try {
      result = this.svm.simulateTransaction(decoded.transaction);
    } finally {
      this.svm.withSigverify(true);
    }
    if (isFailed(result)) {
      const meta = result.meta();
      return { ...empty(transactionErrorJson(result.err())), ...metaFields(meta), fee: 0n };
    }
    const post: Snapshot = new Map(pre);
    for (const account of result.postAccounts()) post.set(account.address, account);
    return this.outcome(keys, result.meta(), pre, post);
  }

  /** The fee a message would pay: 5000 lamports per signature plus its compute-unit price times its limit. */
  feeForMessage(message: CompiledMessage): bigint {
    const { unitLimit, unitPrice } = computeBudgetOf(message);
    let limit = unitLimit;
    if (limit === undefined) {
      limit = 0n;
      for (const ix of message.instructions) {
        const program = this.account(message.staticAccounts[ix.programAddressIndex] ?? SYSTEM_PROGRAM);
        limit += program?.programAddress === NATIVE_LOADER ? BUILTIN_INSTRUCTION_COMPUTE_UNIT_LIMIT : DEFAULT_INSTRUCTION_COMPUTE_UNIT_LIMIT;
      }
      if (limit > MAX_COMPUTE_UNIT_LIMIT) limit = MAX_COMPUTE_UNIT_LIMIT;
    }
    const priority = ((unitPrice ?? 0n) * limit + 999_999n) / 1_000_000n;
    return LAMPORTS_PER_SIGNATURE * BigInt(message.header.numSignerAccounts) + priority;
  }

  /**
   * getRecentPrioritizationFees: per slot of the last 150 blocks, the lowest compute-unit price of the block's
   * transactions (0 for a block without any), raised to the lowest price among the transactions that write-lock
   * one of `accounts` when that is higher (Agave's prioritization fee cache).
   */
  recentPrioritizationFees(accounts: readonly string[] = []): { slot: bigint; prioritizationFee: bigint }[] {
    const out: { slot: bigint; prioritizationFee: bigint }[] = [];
    const from = this.slotValue - 149n > this.firstSlot ? this.slotValue - 149n : this.firstSlot;
    for (let slot = from; slot <= this.slotValue; slot++) {
      const block = this.blocks.get(slot);
      if (!block) continue;
      const prices = block.transactions.map((t) => t.computeUnitPrice);
      let fee = prices.length ? prices.reduce((a, b) => (b < a ? b : a)) : 0n;
      for (const account of accounts) {
        const writers = block.transactions.filter((t) => t.keys.keys.some((k, i) => k === account && t.keys.writable[i]));
        if (!writers.length) continue;
        const min = writers.map((t) => t.computeUnitPrice).reduce((a, b) => (b < a ? b : a));
        if (min > fee) fee = min;
      }
      out.push({ slot, prioritizationFee: fee });
    }
    return out;
  }

  // --- internals --------------------------------------------------------------------------------------------------

  private setClock(slot: bigint, unixTime: number): void {
    const { epoch } = epochOf(this.svm, slot);
    const current = this.svm.getClock();
    const epochStart = epoch === current.epoch ? current.epochStartTimestamp : BigInt(unixTime);
    this.svm.setClock(new Clock(slot, epochStart, epoch, epoch + 1n, BigInt(unixTime)));
  }

  /** Closes the current block and opens the next (at `slot`/`time` when the clock has already been moved there). */
  private openBlock(fill: (block: Block) => void, at?: { slot: bigint; time: number }): Block {
    const previous = this.blocks.get(this.slotValue)!;
    const slot = at?.slot ?? this.slotValue + 1n;
    const time = at?.time ?? Math.max(this.timeValue, Math.floor(Date.now() / 1000));
    if (!at) this.setClock(slot, time);
    this.svm.expireBlockhash();
    const blockhash = this.svm.latestBlockhash();
    this.slotValue = slot;
    this.heightValue += 1n;
    this.timeValue = time;
    this.blockhashHeights.set(blockhash, this.heightValue);
    const block: Block = {
      slot, parentSlot: previous.slot, blockHeight: this.heightValue, blockhash, previousBlockhash: previous.blockhash,
      blockTime: time, transactions: [],
    };
    this.blocks.set(slot, block);
    fill(block);
    this.prune();
    this.emit('block', block);
    return block;
  }

  private prune(): void {
    for (const [hash, height] of this.blockhashHeights) {
      if (height + BLOCKHASH_VALIDITY * 2n >= this.heightValue) break;
      this.blockhashHeights.delete(hash);
    }
    if (this.blocks.size <= this.historyBlocks) return;
    for (const [slot, block] of this.blocks) {
      if (this.blocks.size <= this.historyBlocks) break;
      this.blocks.delete(slot);
      for (const t of block.transactions) this.bySignature.delete(t.decoded.signature);
    }
  }

  private snapshot(keys: readonly Address[]): Snapshot {
    const out: Snapshot = new Map();
    for (const key of keys) out.set(key, this.account(key));
    return out;
  }

  private outcome(keys: ResolvedKeys, result: TransactionMetadata | FailedTransactionMetadata, pre: Snapshot, post: Snapshot): ExecutionOutcome {
    const failed = isFailed(result);
    const meta = failed ? result.meta() : result;
    const preBalances = keys.keys.map((k) => BigInt(pre.get(k)?.lamports ?? 0n));
    const postBalances = keys.keys.map((k) => BigInt(post.get(k)?.lamports ?? 0n));
    const fee = preBalances.reduce((a, b) => a + b, 0n) - postBalances.reduce((a, b) => a + b, 0n);
    const tokenBalances = (snapshot: Snapshot) => keys.keys.flatMap((k, i) => {
      const balance = this.tokenBalance(snapshot.get(k) ?? null, i);
      return balance ? [balance] : [];
    });
    return {
      err: failed ? transactionErrorJson(result.err()) : null,
      ...metaFields(meta),
      fee,
      preBalances,
      postBalances,
      preTokenBalances: tokenBalances(pre),
      postTokenBalances: tokenBalances(post),
      postAccounts: post,
    };
  }
}

function isFailed(result: unknown): result is FailedTransactionMetadata {
  return typeof (result as FailedTransactionMetadata).err === 'function';
}

function metaFields(meta: TransactionMetadata): Pick<ExecutionOutcome, 'logs' | 'unitsConsumed' | 'innerInstructions' | 'returnData'> {
  const inner: InnerInstructions[] = [];
  meta.innerInstructions().forEach((list, index) => {
    if (!list.length) return;
    inner.push({
      index,
      instructions: list.map((ii) => {
        const ix = ii.instruction();
        return { programIdIndex: ix.programIdIndex(), accounts: [...ix.accounts()], data: new Uint8Array(ix.data()), stackHeight: ii.stackHeight() };
      }),
    });
  });
  const returned = meta.returnData();
  const returnData = returned.data().length ? { programId: addressDecoder.decode(returned.programId()), data: new Uint8Array(returned.data()) } : null;
  return { logs: meta.logs(), unitsConsumed: meta.computeUnitsConsumed(), innerInstructions: inner, returnData };
}

export function isTokenProgram(program: string): boolean {
  return program === TOKEN_PROGRAM || program === TOKEN_2022_PROGRAM;
}

/** The base state of an initialized token account (Token, or Token-2022 with its extensions after byte 165). */
export function decodeTokenAccount(account: EncodedAccount | null): ReturnType<typeof tokenDecoder.decode> | undefined {
  if (!account || !isTokenProgram(account.programAddress)) return undefined;
  const data = account.data;
  const isAccount = data.length === 165 || (account.programAddress === TOKEN_2022_PROGRAM && data.length > 165 && data[165] === 2);
  if (!isAccount || data[108] === 0) return undefined;
  return tokenDecoder.decode(data.subarray(0, 165));
}

/** The decoded mint of a Token / Token-2022 mint account. */
export function decodeMint(account: EncodedAccount | null): ReturnType<typeof mintDecoder.decode> | undefined {
  if (!account || !isTokenProgram(account.programAddress)) return undefined;
  const data = account.data;
  const isMint = data.length === 82 || (account.programAddress === TOKEN_2022_PROGRAM && data.length > 165 && data[165] === 1);
  if (!isMint) return undefined;
  const mint = mintDecoder.decode(data.subarray(0, 82));
  return mint.isInitialized ? mint : undefined;
}

/** SetComputeUnitLimit (2, u32) and SetComputeUnitPrice (3, u64 micro-lamports) of a message. */
export function computeBudgetOf(message: CompiledMessage): { unitLimit?: bigint; unitPrice?: bigint } {
  const out: { unitLimit?: bigint; unitPrice?: bigint } = {};
  for (const ix of message.instructions) {
    if (message.staticAccounts[ix.programAddressIndex] !== COMPUTE_BUDGET_PROGRAM || !ix.data?.length) continue;
    const data = ix.data;
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    if (data[0] === 2 && data.length >= 5) out.unitLimit = BigInt(view.getUint32(1, true));
    if (data[0] === 3 && data.length >= 9) out.unitPrice = view.getBigUint64(1, true);
  }
  return out;
}

function memoOf(message: CompiledMessage): string | null {
  const memos: string[] = [];
  for (const ix of message.instructions) {
    if (!MEMO_PROGRAMS.has(message.staticAccounts[ix.programAddressIndex] ?? '')) continue;
    const data = new Uint8Array(ix.data ?? []);
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array(data));
    } catch {
      text = '(unparseable)';
    }
    memos.push(`[${data.length}] ${text}`);
  }
  return memos.length ? memos.join('; ') : null;
}

/** Epoch, slot index and epoch length of a slot under the SVM's epoch schedule (warmup included). */
export function epochOf(svm: LiteSVM, slot: bigint): { epoch: bigint; slotIndex: bigint; slotsInEpoch: bigint } {
  const schedule = svm.getEpochSchedule();
  const MINIMUM_SLOTS_PER_EPOCH = 32n;
  if (schedule.warmup && slot < schedule.firstNormalSlot) {
    let epoch = 0n;
    let length = MINIMUM_SLOTS_PER_EPOCH;
    let start = 0n;
    while (slot >= start + length) {
      start += length;
      length *= 2n;
      epoch += 1n;
    }
    return { epoch, slotIndex: slot - start, slotsInEpoch: length };
  }
  const normal = slot - schedule.firstNormalSlot;
  return {
    epoch: schedule.firstNormalEpoch + normal / schedule.slotsPerEpoch,
    slotIndex: normal % schedule.slotsPerEpoch,
    slotsInEpoch: schedule.slotsPerEpoch,
  };
}

