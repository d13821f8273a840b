/**
 * The sandbox bridge's side on Solana, what the relayer (sandbox/relayer.ts) uses there: it reads the deposits made to
 * the bridge escrow (BRIDGE_ESCROW_ADDRESS) and pays out of it (releases of transfers from EVM chains, refunds of
 * deposits that cannot be released), signing with the escrow's keypair.
 *
 * Reading deposits: an SPL transfer names the escrow's token account, not the escrow owner, so the watched accounts
 * are the escrow owner (SOL) and its associated token account of every catalog mint. When the chain's transaction
 * count moves, getSignaturesForAddress of each (from the last signature seen) gives the new transactions;
 * getTransaction (jsonParsed) gives their instructions. A deposit is what the transaction's top-level instructions
 * move into the escrow from another account (SPL Transfer / TransferChecked into an escrow token account, System
 * Transfer into the escrow owner), with its sender (the source token account's owner, or the SOL source), and the
 * transaction's bridge memo (src/core/chains/solana/memo.ts). Failed transactions and transfers made through a program
 * (inner instructions) are not deposits.
 *
 * Paying out: a v0 transaction paid and signed by the escrow: compute budget (fees.ts' budgets and fixed price), then
 * for an SPL token the receiver's associated token account created idempotently (paid by the escrow) and a
 * TransferChecked from the escrow's token account, or a System transfer of lamports for SOL, then the memo (SPL Memo
 * v3): `xchain:release:v1:...` or `xchain:refund:v1:...`.
 *
 * Two rules tie Solana to the EVM bridge endpoint (contracts/router/BridgeEndpoint.sol), whose release takes the
 * source token as an EVM address and a uint256 deposit id:
 * - foreign token id of a Solana token: the last 20 bytes of keccak256(the mint's 32 bytes), checksummed; native SOL
 *   uses the all-zero key `11111111111111111111111111111111` (the catalog's SOL address) as its mint;
 * - deposit id of a Solana deposit: uint256(keccak256(the deposit transaction's 64-byte signature)).
 */
import { dataSlice, getAddress, keccak256 } from 'ethers';
import {
  address,
  appendTransactionMessageInstructions,
  createSolanaRpc,
  createTransactionMessage,
  getBase58Encoder,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type Instruction,
  type KeyPairSigner,
  type Signature,
} from '@solana/kit';
import { getSetComputeUnitLimitInstruction, getSetComputeUnitPriceInstruction } from '@solana-program/compute-budget';
import { getAddMemoInstruction } from '@solana-program/memo';
import { getTransferSolInstruction } from '@solana-program/system';
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import { computeUnitLimitOf, fixedUnitPrice, type BudgetedInstruction } from '../../src/core/chains/solana/fees';
import { BRIDGE_MEMO_PREFIX, MEMO_PROGRAMS, parseBridgeMemo, type BridgeMemo } from '../../src/core/chains/solana/memo';

/** The catalog's chain id of Solana. */
export const SOLANA_CHAIN_ID = 1151111081099710;

/** The all-zero public key: the System program, and the catalog's address of native SOL. */
export const SOL_ADDRESS = '11111111111111111111111111111111';
/** The transfer id of a refund whose deposit names none (no bridge memo, or one without a readable transfer id). */
export const NO_TRANSFER_ID = `0x${'00'.repeat(32)}`;
const MAX_U64 = 2n ** 64n - 1n;

const base58 = getBase58Encoder();

/** The EVM address standing for a Solana token in the EVM bridge endpoint's routes (see the module's comment). */
export function foreignTokenId(mint: string): string {
  const bytes = new Uint8Array(base58.encode(mint));
  if (bytes.length !== 32) throw new Error(`${mint} is not a 32-byte Solana public key`);
  return getAddress(dataSlice(keccak256(bytes), 12));
}

/** The EVM endpoint's deposit id of a Solana deposit (see the module's comment). */
export function solanaDepositId(signature: string): bigint {
  const bytes = new Uint8Array(base58.encode(signature));
  if (bytes.length !== 64) throw new Error(`${signature} is not a 64-byte signature`);
  return BigInt(keccak256(bytes));
}

/** What moves on Solana: SOL (lamports) or an SPL token of the Token program. */
export type SolanaAsset = { readonly kind: 'native' } | { readonly kind: 'spl'; readonly mint: Address; readonly decimals: number };

/** The address a bridge route names for an asset (SOL: the all-zero key). */
export const assetAddress = (asset: SolanaAsset): string => (asset.kind === 'native' ? SOL_ADDRESS : asset.mint);

export interface SolanaDeposit {
  readonly signature: string;
  readonly slot: bigint;
  /** Who gets a refund: the SOL source, or the owner of the source token account. */
  readonly sender: Address;
  readonly asset: SolanaAsset;
  readonly amount: bigint;
  /** The transaction's bridge memo, when it has exactly one and it parses. */
  readonly memo?: BridgeMemo;
  /** Why it cannot be released whatever the destination says (no or malformed memo, several assets...). */
  readonly problem?: string;
  /** The memo's transfer id, or the transfer id read from a malformed memo, or NO_TRANSFER_ID. */
  readonly transferId: string;
}

export interface EscrowMint {
  readonly address: string;
  readonly decimals: number;
}

/** jsonParsed instruction as the RPC answers it (only what is read here). */
interface ParsedInstruction {
  readonly program?: string;
  readonly programId: string;
  readonly parsed?: string | { readonly type: string; readonly info: Record<string, unknown> };
}

interface ParsedTransaction {
  readonly slot: bigint;
  readonly meta: { readonly err: unknown; readonly preTokenBalances?: readonly { accountIndex: number | bigint; owner?: string }[] } | null;
  readonly transaction: { readonly message: { readonly accountKeys: readonly { pubkey: string }[]; readonly instructions: readonly ParsedInstruction[] } };
}

export class SolanaEscrow {
  readonly rpc: ReturnType<typeof createSolanaRpc>;
  readonly owner: Address;
  /** Escrow token account → its mint. */
  private readonly tokenAccounts = new Map<string, EscrowMint>();
  private readonly markers = new Map<string, Signature | undefined>();
  private readonly seen = new Set<string>();
  private lastCount: bigint | undefined;

  private constructor(readonly url: string, readonly escrow: KeyPairSigner, readonly mints: readonly EscrowMint[]) {
    this.rpc = createSolanaRpc(url);
    this.owner = escrow.address;
  }

  /** The escrow on the chain at `url`, watching from its current transactions on. */
  static async open(url: string, escrow: KeyPairSigner, mints: readonly EscrowMint[]): Promise<SolanaEscrow> {
    const e = new SolanaEscrow(url, escrow, mints);
    for (const m of mints) {
      const [ata] = await findAssociatedTokenPda({ owner: escrow.address, mint: address(m.address), tokenProgram: TOKEN_PROGRAM_ADDRESS });
      e.tokenAccounts.set(ata, m);
    }
    await e.resync();
    return e;
  }

  /** The accounts whose transactions are read: the owner and its token accounts. */
  get watched(): string[] {
    return [this.owner, ...this.tokenAccounts.keys()];
  }

  /** Forgets what was seen and watches from the current transactions on. */
  async resync(): Promise<void> {
    this.seen.clear();
    this.lastCount = await this.rpc.getTransactionCount().send();
    await Promise.all(this.watched.map(async (a) => {
      const [newest] = await this.rpc.getSignaturesForAddress(address(a), { limit: 1 }).send();
      this.markers.set(a, newest?.signature);
    }));
  }

  /**
   * The deposits that landed since the last poll, oldest first. A poll that fails part-way changes nothing: the next
   * one reads the same signatures again.
   */
  async poll(): Promise<SolanaDeposit[]> {
    const count = await this.rpc.getTransactionCount().send();
    if (count === this.lastCount) return [];
    const found = new Map<string, bigint>();
    const markers = new Map<string, Signature>();
    await Promise.all(this.watched.map(async (a) => {
      const until = this.markers.get(a);
      const list = await this.rpc.getSignaturesForAddress(address(a), { limit: 1000, ...(until ? { until } : {}) }).send();
      if (list.length > 0) markers.set(a, list[0].signature);
      for (const s of list) if (s.err === null && !this.seen.has(s.signature)) found.set(s.signature, s.slot);
    }));
    const deposits: SolanaDeposit[] = [];
    for (const [signature, slot] of [...found].sort((x, y) => (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0))) {
      const tx = (await this.rpc.getTransaction(signature as Signature, { encoding: 'jsonParsed', maxSupportedTransactionVersion: 0 }).send()) as unknown as ParsedTransaction | null;
      if (!tx) throw new Error(`getTransaction ${signature}: not found`);
      if (!tx.meta?.err) deposits.push(...this.depositsOf(signature, slot, tx));
    }
    for (const signature of found.keys()) this.seen.add(signature);
    for (const [a, signature] of markers) this.markers.set(a, signature);
    this.lastCount = count;
    return deposits;
  }

  /** The deposits a landed transaction makes (one per asset it moves into the escrow; normally one). */
  depositsOf(signature: string, slot: bigint, tx: ParsedTransaction): SolanaDeposit[] {
    const keys = tx.transaction.message.accountKeys.map((k) => k.pubkey);
    const ownerOf = (account: string): string | undefined =>
      tx.meta?.preTokenBalances?.find((b) => keys[Number(b.accountIndex)] === account)?.owner;
    const incoming: { asset: SolanaAsset; amount: bigint; sender: string }[] = [];
    const memos: string[] = [];
    for (const ix of tx.transaction.message.instructions) {
      if (ix.program === 'spl-memo' && typeof ix.parsed === 'string') {
        memos.push(ix.parsed);
        continue;
      }
      if (typeof ix.parsed !== 'object' || ix.parsed === null) continue;
      const { type, info } = ix.parsed;
      if (ix.program === 'system' && type === 'transfer' && info.destination === this.owner && info.source !== this.owner) {
        incoming.push({ asset: { kind: 'native' }, amount: BigInt(info.lamports as bigint), sender: info.source as string });
      } else if (ix.programId === TOKEN_PROGRAM_ADDRESS && (type === 'transfer' || type === 'transferChecked')) {
        const mint = this.tokenAccounts.get(info.destination as string);
        if (!mint || this.tokenAccounts.has(info.source as string)) continue;
        const amount = BigInt(type === 'transferChecked' ? (info.tokenAmount as { amount: string }).amount : (info.amount as string));
        const sender = ownerOf(info.source as string) ?? (info.authority as string | undefined) ?? (info.multisigAuthority as string);
        incoming.push({ asset: { kind: 'spl', mint: address(mint.address), decimals: mint.decimals }, amount, sender });
      }
    }
    // one deposit per asset, its amounts summed
    const byAsset = new Map<string, { asset: SolanaAsset; amount: bigint; sender: string }>();
    for (const i of incoming) {
      const key = assetAddress(i.asset);
      const known = byAsset.get(key);
      if (known) known.amount += i.amount;
      else byAsset.set(key, { ...i });
    }
    const items = [...byAsset.values()].filter((i) => i.amount > 0n);
    if (items.length === 0) return [];
    const bridgeMemos = memos.filter((m) => m.startsWith(BRIDGE_MEMO_PREFIX));
    const memo = bridgeMemos.length === 1 ? parseBridgeMemo(bridgeMemos[0]) : undefined;
    let problem: string | undefined;
    if (bridgeMemos.length === 0) problem = 'the deposit has no bridge memo';
    else if (bridgeMemos.length > 1) problem = 'the deposit has several bridge memos';
    else if (!memo) problem = `malformed bridge memo: ${bridgeMemos[0]}`;
    else if (items.length > 1) problem = `a deposit moves one asset, this one ${items.length}`;
    const transferId = memo?.transferId ?? readTransferId(bridgeMemos[0]) ?? NO_TRANSFER_ID;
    return items.map((i) => ({
      signature, slot, sender: address(i.sender), asset: i.asset, amount: i.amount, transferId,
      ...(memo ? { memo } : {}), ...(problem ? { problem } : {}),
    }));
  }

  /** The mint of the catalog at this address (undefined for one the escrow does not hold). */
  mint(mintAddress: string): EscrowMint | undefined {
    return this.mints.find((m) => m.address === mintAddress);
  }

  /**
   * Pays `amount` of `asset` from the escrow to the wallet `to` with `memo`, and waits until it lands. Throws when
   * the RPC refuses it (preflight: insufficient funds, rent...) or it fails on chain.
   */
  async pay(to: string, asset: SolanaAsset, amount: bigint, memo: string): Promise<Signature> {
    if (amount < 1n || amount > MAX_U64) throw new Error(`amount ${amount} is not a Solana amount (1 to 2^64 - 1)`);
    const receiver = address(to);
    const memoBytes = new TextEncoder().encode(memo).length;
    const transfer: Instruction[] = [];
    const budgets: BudgetedInstruction[] = [{ kind: 'setComputeUnitLimit' }, { kind: 'setComputeUnitPrice' }];
    if (asset.kind === 'spl') {
      const [[source], [destination]] = await Promise.all([
        findAssociatedTokenPda({ owner: this.owner, mint: asset.mint, tokenProgram: TOKEN_PROGRAM_ADDRESS }),
        findAssociatedTokenPda({ owner: receiver, mint: asset.mint, tokenProgram: TOKEN_PROGRAM_ADDRESS }),
      ]);
      transfer.push(
        getCreateAssociatedTokenIdempotentInstruction({ payer: this.escrow, ata: destination, owner: receiver, mint: asset.mint }),
        getTransferCheckedInstruction({ source, mint: asset.mint, destination, authority: this.escrow, amount, decimals: asset.decimals }),
      );
      budgets.push({ kind: 'createAssociatedTokenIdempotent' }, { kind: 'transferChecked' });
    } else {
      transfer.push(getTransferSolInstruction({ source: this.escrow, destination: receiver, amount }));
      budgets.push({ kind: 'transferSol' });
    }
    budgets.push({ kind: 'memo', program: 'v3', bytes: memoBytes });
    const instructions: Instruction[] = [
      getSetComputeUnitLimitInstruction({ units: computeUnitLimitOf(budgets) }),
      getSetComputeUnitPriceInstruction({ microLamports: fixedUnitPrice('NORMAL') }),
      ...transfer,
      getAddMemoInstruction({ memo }, { programAddress: MEMO_PROGRAMS.v3 }),
    ];
    const { value: lifetime } = await this.rpc.getLatestBlockhash().send();
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(this.escrow, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
      (m) => appendTransactionMessageInstructions(instructions, m),
    );
    const signed = await signTransactionMessageWithSigners(message);
    const signature = getSignatureFromTransaction(signed);
    await this.rpc.sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: 'base64' }).send();
    await waitForSignature(this.rpc, signature);
    return signature;
  }
}

/** Waits until a sent transaction has landed; throws when it failed or did not land within `timeoutMs`. */
export async function waitForSignature(rpc: ReturnType<typeof createSolanaRpc>, signature: Signature, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { value: [status] } = await rpc.getSignatureStatuses([signature], { searchTransactionHistory: true }).send();
    if (status) {
      if (status.err) throw new Error(`transaction ${signature} failed: ${JSON.stringify(status.err, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}`);
      return;
    }
    if (Date.now() > deadline) throw new Error(`transaction ${signature} did not land within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The transfer id of a bridge memo that does not parse, when its first fields are readable. */
function readTransferId(text: string | undefined): string | undefined {
  return text ? /^xchain:v1:[a-z0-9]+:(0x[0-9a-f]{64})(?::|$)/.exec(text)?.[1] : undefined;
}

/** A Solana refund or release memo's text, as a transaction logs it: read back from getTransaction (jsonParsed). */
export function memosOf(tx: ParsedTransaction | null): string[] {
  return (tx?.transaction.message.instructions ?? []).flatMap((ix) => (ix.program === 'spl-memo' && typeof ix.parsed === 'string' ? [ix.parsed] : []));
}

export type { ParsedTransaction };
