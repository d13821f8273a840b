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
 *
 * Beside it: programs.ts (program addresses), transaction.ts (decoding, signatures, accounts), transactionErrors.ts,
 * tokens.ts (token accounts and amounts), records.ts (what the ledger keeps), svm.ts (the LiteSVM it drives).
 */
import { EventEmitter } from 'node:events';
import { Clock, type FailedTransactionMetadata, type LiteSVM, type TransactionMetadata } from 'litesvm';
import { address, type Address, type EncodedAccount } from '@solana/kit';
import { NATIVE_LOADER, SYSTEM_PROGRAM } from './programs';
import type { Block, ExecutionOutcome, LandedTransaction, SendOutcome, SimulateOptions } from './records';
import { createSvm, epochOf, isFailed, metaFields } from './svm';
import { decodeMint, decodeTokenAccount, uiTokenAmount, type TokenBalance } from './tokens';
import { computeBudgetOf, memoOf, resolveAccountKeys, type CompiledMessage, type DecodedTransaction, type ResolvedKeys } from './transaction';
import { transactionErrorJson, type TransactionErrorJson } from './transactionErrors';

/** Blocks a blockhash stays valid after its own (MAX_PROCESSING_AGE). */
export const BLOCKHASH_VALIDITY = 150n;
/** Lamports per signature (the cluster's fee rate). */
export const LAMPORTS_PER_SIGNATURE = 5000n;
/** Mainnet runs about 21.5 M slots ahead of its block height (skipped slots); the ledger keeps them apart too. */
const BLOCK_HEIGHT_BEHIND_SLOT = 21_500_000n;
const MAX_COMPUTE_UNIT_LIMIT = 1_400_000n;
const DEFAULT_INSTRUCTION_COMPUTE_UNIT_LIMIT = 200_000n;
const BUILTIN_INSTRUCTION_COMPUTE_UNIT_LIMIT = 3_000n;

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
    return resolveAccountKeys(decoded, (key) => this.account(key));
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
