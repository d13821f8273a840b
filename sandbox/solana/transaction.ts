/**
 * A transaction as the node reads it: its wire bytes (signatures + message) decoded, legacy and v0; its signatures
 * verified (Ed25519); its accounts resolved, those its address lookup tables load included; and what its message asks
 * for: the compute budget, the memo.
 */
import { createPublicKey, verify } from 'node:crypto';
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
import { BPF_LOADER_UPGRADEABLE, COMPUTE_BUDGET_PROGRAM, MEMO_PROGRAMS } from './programs';

/** Size of an address lookup table's metadata before its addresses. */
const LOOKUP_TABLE_META_SIZE = 56;

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

/**
 * The transaction's accounts: static keys, then those its address lookup tables load (read with `account`); undefined
 * when a table is missing or too short for an index.
 */
export function resolveAccountKeys(decoded: DecodedTransaction, account: (key: string) => EncodedAccount | null): ResolvedKeys | undefined {
  const { message } = decoded;
  const statics = message.staticAccounts;
  const writable: Address[] = [];
  const readonly: Address[] = [];
  const lookups = message.version === 0 ? message.addressTableLookups ?? [] : [];
  for (const lookup of lookups) {
    const table = account(lookup.lookupTableAddress);
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

/** "[len] text" of each memo instruction of a message joined with "; " (getSignaturesForAddress's memo), or null. */
export function memoOf(message: CompiledMessage): string | null {
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
