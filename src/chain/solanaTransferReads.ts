/**
 * The chain reads of transfer tracking on a Solana chain (SolanaTransferReads, src/core/status/ports.ts) over the
 * Solana JSON-RPC with @solana/kit's createSolanaRpc:
 *
 * - transaction(signature): getTransaction (jsonParsed, maxSupportedTransactionVersion 0, commitment `confirmed`) and
 *   getSignatureStatuses (searchTransactionHistory) for how far it is settled: slot, block time, fee, compute units
 *   consumed, the compute unit price its SetComputeUnitPrice asks, the error and logs, the texts of its own Memo
 *   instructions (SPL Memo v1 / v3, p-memo v4), and the tokens it moved (SPL Token Transfer / TransferChecked and
 *   System Transfer, top-level and inner, the inner ones marked), with the owners of the token accounts read from the transaction's token
 *   balances (or, for the escrow's, from the associated token account derivation);
 * - pending(signature): getSignatureStatuses, for a signature seen at `processed` only;
 * - escrowTransactions(transferId): getSignaturesForAddress, newest first, `limit` signatures (default 1,000, one page)
 *   of the escrow owner (it signs releases and refunds, and receives SOL deposits) and, for deposits, of each of its
 *   token accounts (an SPL deposit touches only the escrow's token account; they are listed with
 *   getTokenAccountsByOwner under the Token program and kept for a minute, unless given); the node gives each
 *   signature's memos ("[len] text; ..."), which select the transactions naming the transfer id. A memo program the
 *   node does not list there (a p-memo deposit on a node that only knows SPL Memo) is not found by transfer id; its
 *   signature still is.
 *
 * Every call is bounded by `timeoutMs`; a call that fails throws (the tracker reports the chain as not answering).
 */
import { address, createSolanaRpc, getBase58Encoder, signature as asSignature, type Address, type Signature } from '@solana/kit';
import { COMPUTE_BUDGET_PROGRAM_ADDRESS } from '@solana-program/compute-budget';
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import type { ChainsConfig } from '../chainsConfig';
import type { Catalog } from '../core/catalog/catalog';
import { familyOf } from '../core/chains/families';
import { BRIDGE_MEMO_PREFIX, MEMO_PROGRAMS, REFUND_MEMO_PREFIX, RELEASE_MEMO_PREFIX } from '../core/chains/solana/memo';
import type {
  SolanaCommitment, SolanaEscrowEntry, SolanaPendingTransaction, SolanaTokenMove, SolanaTransaction, SolanaTransferReads, StatusChain,
} from '../core/status/ports';

/** SPL Memo v1, which older wallets still write (the node's memo parser knows it with v3). */
const MEMO_V1 = 'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo';
const MEMO_PROGRAM_IDS = new Set<string>([MEMO_V1, MEMO_PROGRAMS.v3, MEMO_PROGRAMS.v4]);
const TOKEN_2022 = 'TokenzQdBNbLqP5VEhdkAS6EHFLwGo2ZUaqTHFZmjeVx';
/** ComputeBudget SetComputeUnitPrice: discriminator 3, then the price (u64 little-endian, micro-lamports). */
const SET_COMPUTE_UNIT_PRICE = 3;

export interface SolanaTransferReadsOptions {
  readonly chainId: number;
  readonly rpcUrl: string;
  /** The bridge escrow's owner (base58): routers.json's bridgeEscrows entry of the chain; the sandbox's BRIDGE_ESCROW_ADDRESS. */
  readonly escrowOwner: string;
  /** The commitment a deposit needs to count as confirmed (default `confirmed`). */
  readonly commitment?: Exclude<SolanaCommitment, 'processed'>;
  /** Bound of every RPC call (default 3,000 ms). */
  readonly timeoutMs?: number;
  /** Signatures read per escrow account, newest first (1 to 1,000; default 1,000). */
  readonly scanLimit?: number;
  /** The escrow's token accounts (default: listed with getTokenAccountsByOwner, kept `tokenAccountsTtlMs`). */
  readonly tokenAccounts?: readonly string[];
  readonly tokenAccountsTtlMs?: number;
}

/** The Solana reads of transfer tracking for one chain (see the module comment). */
export function createSolanaTransferReads(options: SolanaTransferReadsOptions): SolanaTransferReads {
  return new RpcSolanaTransferReads(options);
}

/**
 * The Solana reads of chain mode: one per CHAINS_FILE entry of a chain whose family is checked by its genesis hash
 * (Solana; the entries mode.ts checks) and whose bridge escrow `escrowOwnerOf` knows; entries without one are left out.
 */
export function solanaTransferReadsOf(
  config: ChainsConfig | undefined, catalog: Catalog, escrowOwnerOf: (chainId: number) => string | undefined,
): SolanaTransferReads[] {
  return (config?.chains ?? []).flatMap((c) => {
    const chain = catalog.getChain(c.chainId);
    const escrowOwner = escrowOwnerOf(c.chainId);
    if (!chain || familyOf(chain).rpcCheck !== 'solanaGenesisHash' || !escrowOwner) return [];
    return [createSolanaTransferReads({ chainId: c.chainId, rpcUrl: c.rpcUrl, escrowOwner, timeoutMs: config!.rpcTimeoutMs })];
  });
}

// ------------------------------------------------------------------------------------------ the node's JSON

type Integer = bigint | number | string;

interface ParsedInstruction {
  readonly programId: string;
  readonly program?: string;
  readonly parsed?: unknown;
  readonly accounts?: readonly string[];
  readonly data?: string;
}

interface TokenBalance {
  readonly accountIndex: Integer;
  readonly mint: string;
  readonly owner?: string;
}

interface ParsedTransactionJson {
  readonly slot: Integer;
  readonly blockTime: Integer | null;
  readonly meta: {
    readonly err: unknown;
    readonly fee: Integer;
    readonly computeUnitsConsumed?: Integer;
    readonly logMessages?: readonly string[] | null;
    readonly innerInstructions?: readonly { readonly index: Integer; readonly instructions: readonly ParsedInstruction[] }[] | null;
    readonly preTokenBalances?: readonly TokenBalance[] | null;
    readonly postTokenBalances?: readonly TokenBalance[] | null;
  } | null;
  readonly transaction: {
    readonly signatures: readonly string[];
    readonly message: {
      readonly accountKeys: readonly { readonly pubkey: string; readonly signer: boolean }[];
      readonly instructions: readonly ParsedInstruction[];
    };
  };
}

interface SignatureStatusJson {
  readonly slot: Integer;
  readonly confirmationStatus: SolanaCommitment | null;
  readonly err: unknown;
}

interface SignatureInfoJson {
  readonly signature: string;
  readonly slot: Integer;
  readonly err: unknown;
  readonly memo: string | null;
}

const base58Bytes = getBase58Encoder();

export class RpcSolanaTransferReads implements SolanaTransferReads {
  readonly chain: StatusChain;
  readonly escrowOwner: string;
  private readonly rpc: ReturnType<typeof createSolanaRpc>;
  private readonly timeoutMs: number;
  private readonly scanLimit: number;
  private tokenAccountList?: { readonly at: number; readonly accounts: Promise<readonly string[]> };
  /** The escrow's associated token account by mint (derived once). */
  private readonly escrowAccounts = new Map<string, Promise<string>>();

  constructor(private readonly options: SolanaTransferReadsOptions) {
    this.escrowOwner = address(options.escrowOwner);
    this.chain = { chainId: options.chainId, confirmations: 1, hasBridgeEndpoint: true, commitment: options.commitment ?? 'confirmed' };
    this.rpc = createSolanaRpc(options.rpcUrl);
    this.timeoutMs = options.timeoutMs ?? 3000;
    this.scanLimit = options.scanLimit ?? 1000;
    if (!Number.isInteger(this.scanLimit) || this.scanLimit < 1 || this.scanLimit > 1000) throw new RangeError(`scanLimit must be from 1 to 1000: ${this.scanLimit}`);
  }

  private get send() {
    return { abortSignal: AbortSignal.timeout(this.timeoutMs) };
  }

  async transaction(signature: string): Promise<SolanaTransaction | null> {
    const sig = asSignature(signature);
    const [json, status] = await Promise.all([
      this.rpc.getTransaction(sig, { encoding: 'jsonParsed', maxSupportedTransactionVersion: 0, commitment: 'confirmed' }).send(this.send),
      this.status(sig),
    ]);
    if (!json) return null;
    return this.parse(signature, json as unknown as ParsedTransactionJson, status);
  }

  async pending(signature: string): Promise<SolanaPendingTransaction | null> {
    const status = await this.status(asSignature(signature));
    return status ? { slot: Number(status.slot), failed: status.err !== null && status.err !== undefined } : null;
  }

  async escrowTransactions(transferId: string, options: { readonly deposits: boolean }): Promise<readonly SolanaEscrowEntry[]> {
    const id = transferId.toLowerCase();
    const accounts = [this.escrowOwner, ...(options.deposits ? await this.tokenAccounts() : [])];
    const lists = await Promise.all(accounts.map((a) => this.rpc
      .getSignaturesForAddress(address(a), { limit: this.scanLimit, commitment: 'confirmed' })
      .send(this.send) as unknown as Promise<readonly SignatureInfoJson[]>));
    const deposit = new RegExp(`${BRIDGE_MEMO_PREFIX}[a-z0-9]+:${id}:`);
    const seen = new Map<string, SolanaEscrowEntry>();
    for (const list of lists) {
      for (const info of list) {
        const memo = info.memo ?? '';
        if (seen.has(info.signature) || !memo.includes(id)) continue;
        const kind = memo.includes(`${RELEASE_MEMO_PREFIX}${id}:`) ? 'release'
          : memo.includes(`${REFUND_MEMO_PREFIX}${id}:`) ? 'refund'
            : deposit.test(memo) ? 'deposit' : undefined;
        if (kind) seen.set(info.signature, { signature: info.signature, slot: Number(info.slot), kind, failed: info.err !== null && info.err !== undefined });
      }
    }
    return [...seen.values()].sort((a, b) => b.slot - a.slot);
  }

  // ---------------------------------------------------------------------------------------------- helpers

  private async status(sig: Signature): Promise<SignatureStatusJson | null> {
    const { value } = await this.rpc.getSignatureStatuses([sig], { searchTransactionHistory: true }).send(this.send);
    return (value[0] as unknown as SignatureStatusJson | null) ?? null;
  }

  /** The escrow's token accounts (given, or listed and kept for tokenAccountsTtlMs). */
  private tokenAccounts(): Promise<readonly string[]> {
    if (this.options.tokenAccounts) return Promise.resolve(this.options.tokenAccounts);
    const ttl = this.options.tokenAccountsTtlMs ?? 60_000;
    if (this.tokenAccountList && Date.now() - this.tokenAccountList.at < ttl) return this.tokenAccountList.accounts;
    const accounts = this.rpc
      .getTokenAccountsByOwner(address(this.escrowOwner), { programId: TOKEN_PROGRAM_ADDRESS }, { encoding: 'base64', dataSlice: { offset: 0, length: 0 } })
      .send(this.send)
      .then(({ value }) => value.map((a) => a.pubkey as string));
    this.tokenAccountList = { at: Date.now(), accounts };
    accounts.catch(() => {
      if (this.tokenAccountList?.accounts === accounts) this.tokenAccountList = undefined;
    });
    return accounts;
  }

  private escrowAccount(mint: string): Promise<string> {
    let account = this.escrowAccounts.get(mint);
    if (!account) {
      account = findAssociatedTokenPda({ owner: address(this.escrowOwner), mint: address(mint), tokenProgram: TOKEN_PROGRAM_ADDRESS }).then(([ata]) => ata as string);
      this.escrowAccounts.set(mint, account);
    }
    return account;
  }

  private async parse(signature: string, json: ParsedTransactionJson, status: SignatureStatusJson | null): Promise<SolanaTransaction> {
    const { meta, transaction } = json;
    const keys = transaction.message.accountKeys.map((k) => (typeof k === 'string' ? { pubkey: k as string, signer: false } : k));
    // token accounts: mint and owner, from the balances before and after
    const tokenAccounts = new Map<string, { mint: string; owner?: string }>();
    for (const b of [...(meta?.preTokenBalances ?? []), ...(meta?.postTokenBalances ?? [])]) {
      const key = keys[Number(b.accountIndex)]?.pubkey;
      if (key) tokenAccounts.set(key, { mint: b.mint, ...(b.owner ? { owner: b.owner } : {}) });
    }
    const instructions: { readonly ix: ParsedInstruction; readonly inner: boolean }[] = [];
    const inner = new Map((meta?.innerInstructions ?? []).map((i) => [Number(i.index), i.instructions]));
    transaction.message.instructions.forEach((ix, index) => instructions.push({ ix, inner: false }, ...(inner.get(index) ?? []).map((x) => ({ ix: x, inner: true }))));

    const memos: string[] = [];
    const transfers: SolanaTokenMove[] = [];
    let computeUnitPrice = 0n;
    for (const { ix, inner: byProgram } of instructions) {
      const flag = byProgram ? { inner: true as const } : {};
      if (MEMO_PROGRAM_IDS.has(ix.programId)) {
        if (byProgram) continue; // the transaction's own memos only (as the relayer reads them)
        const text = typeof ix.parsed === 'string' ? ix.parsed : ix.data !== undefined ? utf8(base58Bytes.encode(ix.data)) : undefined;
        if (text !== undefined) memos.push(text);
        continue;
      }
      if (ix.programId === COMPUTE_BUDGET_PROGRAM_ADDRESS && ix.data !== undefined) {
        const data = base58Bytes.encode(ix.data);
        if (data.length >= 9 && data[0] === SET_COMPUTE_UNIT_PRICE) computeUnitPrice = new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(1, true);
        continue;
      }
      const parsed = ix.parsed as { type?: string; info?: Record<string, unknown> } | undefined;
      const info = parsed?.info;
      if (!info) continue;
      if (ix.program === 'system' && (parsed.type === 'transfer' || parsed.type === 'transferWithSeed')) {
        const source = String(info.source ?? info.from);
        const destination = String(info.destination);
        transfers.push({ amount: BigInt(info.lamports as Integer), source, destination, sourceOwner: source, destinationOwner: destination, authority: source, ...flag });
        continue;
      }
      if ((ix.programId === TOKEN_PROGRAM_ADDRESS || ix.programId === TOKEN_2022) && (parsed.type === 'transfer' || parsed.type === 'transferChecked')) {
        const source = String(info.source);
        const destination = String(info.destination);
        const mint = (info.mint as string | undefined) ?? tokenAccounts.get(source)?.mint ?? tokenAccounts.get(destination)?.mint;
        if (mint === undefined) continue;
        const amount = parsed.type === 'transferChecked' ? (info.tokenAmount as { amount: string }).amount : (info.amount as Integer);
        const authority = (info.authority ?? info.multisigAuthority) as string | undefined;
        transfers.push({
          mint, amount: BigInt(amount), source, destination,
          ...owner('sourceOwner', tokenAccounts.get(source)?.owner ?? (await this.ownedByEscrow(source, mint))),
          ...owner('destinationOwner', tokenAccounts.get(destination)?.owner ?? (await this.ownedByEscrow(destination, mint))),
          ...(authority ? { authority } : {}),
          ...flag,
        });
      }
    }
    const err = meta?.err ?? null;
    return {
      chainId: this.chain.chainId,
      signature,
      slot: Number(json.slot),
      ...(json.blockTime !== null && json.blockTime !== undefined ? { blockTime: Number(json.blockTime) } : {}),
      // at least confirmed (getTransaction's commitment); a signature the status cache no longer has is final
      commitment: status?.confirmationStatus ?? 'finalized',
      feePayer: keys[0]?.pubkey ?? '',
      signers: keys.filter((k) => k.signer).map((k) => k.pubkey),
      fee: BigInt(meta?.fee ?? 0),
      ...(meta?.computeUnitsConsumed !== undefined && meta.computeUnitsConsumed !== null ? { computeUnitsConsumed: BigInt(meta.computeUnitsConsumed) } : {}),
      computeUnitPrice,
      ...(err !== null ? { error: jsonOf(err) } : {}),
      logs: meta?.logMessages ?? [],
      memos,
      transfers,
    };
  }

  /** The escrow owner when `account` is its associated token account for `mint` (a token account the balances do not name). */
  private async ownedByEscrow(account: string, mint: string): Promise<string | undefined> {
    return (await this.escrowAccount(mint)) === account ? this.escrowOwner : undefined;
  }
}

function owner<K extends 'sourceOwner' | 'destinationOwner'>(key: K, value: string | undefined): { [P in K]?: string } {
  return (value !== undefined ? { [key]: value } : {}) as { [P in K]?: string };
}

function utf8(bytes: ArrayLike<number>): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes));
  } catch {
    return undefined;
  }
}

/** The node's error as plain JSON (the client gives its integers as bigint). */
function jsonOf(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? Number(v) : v)));
}
