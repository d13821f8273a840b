/**
 * What the Solana RPC's methods share: their parameters read and checked as the node reads them (configuration
 * objects, pubkeys, signatures, integers, encoded transactions), and the context their answers carry (apiVersion, the
 * slot; minContextSlot and the commitments the node refuses).
 */
import { fromBase58, fromBase64, invalidParams, RpcError } from './encoding';
import type { Ledger } from './ledger';
import { decodeTransaction, InvalidTransactionError, type DecodedTransaction } from './transaction';

/** The Agave runtime LiteSVM 1.5 embeds (solana-program-runtime 4.3.0), reported by getVersion and as apiVersion. */
export const SOLANA_CORE_VERSION = '4.3.0';

export type Params = readonly unknown[];
export type Handler = (params: Params) => unknown;

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;

export function cfg(params: Params, index: number): Record<string, unknown> {
  const v = params[index];
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw invalidParams('Invalid params: expected a configuration object.');
  return v as Record<string, unknown>;
}

export function pubkey(value: unknown, what = 'pubkey'): string {
  if (typeof value !== 'string' || !BASE58.test(value)) throw invalidParams(`Invalid param: Invalid ${what}`);
  let bytes: Uint8Array;
  try {
    bytes = fromBase58(value);
  } catch {
    throw invalidParams(`Invalid param: Invalid ${what}`);
  }
  if (bytes.length !== 32) throw invalidParams(`Invalid param: Invalid ${what}`);
  return value;
}

export function signatureParam(value: unknown): string {
  if (typeof value !== 'string' || !BASE58.test(value)) throw invalidParams('Invalid param: Invalid signature');
  let bytes: Uint8Array;
  try {
    bytes = fromBase58(value);
  } catch {
    throw invalidParams('Invalid param: Invalid signature');
  }
  if (bytes.length !== 64) throw invalidParams('Invalid param: Invalid signature');
  return value;
}

export function integer(value: unknown, what: string): bigint {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === 'bigint' && value >= 0n) return value;
  throw invalidParams(`Invalid params: ${what} must be a non-negative integer.`);
}

function wireBytes(value: unknown, encoding: unknown): Uint8Array {
  if (typeof value !== 'string') throw invalidParams('Invalid params: expected an encoded transaction string.');
  const enc = encoding ?? 'base58';
  try {
    if (enc === 'base64') return fromBase64(value);
    if (enc === 'base58') {
      if (!BASE58.test(value)) throw new Error('invalid base58');
      return fromBase58(value);
    }
  } catch {
    throw invalidParams(`invalid transaction: failed to decode ${String(enc)} string`);
  }
  throw invalidParams(`unsupported encoding: ${String(enc)}. Supported encodings: base58, base64`);
}

/** An encoded transaction parameter (base58 by default, or base64) decoded; refused as the node refuses it. */
export function transactionParam(value: unknown, encoding: unknown): DecodedTransaction {
  const wire = wireBytes(value, encoding);
  try {
    return decodeTransaction(wire);
  } catch (error) {
    if (error instanceof InvalidTransactionError) throw invalidParams(`invalid transaction: ${error.message}`);
    throw error;
  }
}

/** The context of a method's answer (apiVersion, the slot it was read at) and the minContextSlot check, on a ledger. */
export function answerContext(ledger: Ledger) {
  const context = () => ({ apiVersion: SOLANA_CORE_VERSION, slot: ledger.slot });
  const withContext = (value: unknown) => ({ context: context(), value });
  const checkMinContextSlot = (c: Record<string, unknown>) => {
    if (c.minContextSlot !== undefined && integer(c.minContextSlot, 'minContextSlot') > ledger.slot) {
      throw new RpcError(-32016, 'Minimum context slot has not been reached', { contextSlot: ledger.slot });
    }
  };
  return { withContext, checkMinContextSlot };
}

/** getTransaction, getSignaturesForAddress, getBlock: the node refuses the `processed` commitment. */
export function atLeastConfirmed(c: Record<string, unknown>): void {
  if (c.commitment === 'processed') throw invalidParams('Method does not support commitment below `confirmed`');
}
