/**
 * The JSON the real Solana RPC answers with: accounts in each encoding (base58, base64, jsonParsed for token
 * accounts and mints), transactions in json / jsonParsed / base64 / base58 with their meta, parsed instructions
 * of the programs the RPC parses (system, spl-token, spl-associated-token-account, spl-memo), JSON-RPC errors,
 * and a serializer that writes u64 values (bigint) as plain JSON numbers, as the node does.
 */
import { getBase58Decoder, getBase58Encoder, getBase64Decoder, getBase64Encoder, type EncodedAccount } from '@solana/kit';
import { AssociatedTokenInstruction, identifyAssociatedTokenInstruction, identifyTokenInstruction, parseTokenInstruction, TokenInstruction } from '@solana-program/token';
import type { Ledger } from './ledger';
import { ASSOCIATED_TOKEN_PROGRAM, MEMO_PROGRAMS, SYSTEM_PROGRAM, TOKEN_2022_PROGRAM } from './programs';
import type { CompiledInnerInstruction, ExecutionOutcome, LandedTransaction } from './records';
import { decodeMint, decodeTokenAccount, uiTokenAmount, type TokenBalance } from './tokens';
import type { ResolvedKeys } from './transaction';

const base58Of = getBase58Decoder();
const base58Bytes = getBase58Encoder();
const base64Of = getBase64Decoder();
const base64Bytes = getBase64Encoder();

export const toBase58 = (bytes: Uint8Array): string => base58Of.decode(bytes);
export const toBase64 = (bytes: Uint8Array): string => base64Of.decode(bytes);
export const fromBase58 = (text: string): Uint8Array => new Uint8Array(base58Bytes.encode(text));
export const fromBase64 = (text: string): Uint8Array => new Uint8Array(base64Bytes.encode(text));

/** A JSON-RPC error as the node answers it ({ code, message, data? }). */
export class RpcError extends Error {
  constructor(readonly code: number, message: string, readonly data?: unknown) {
    super(message);
  }
}

export const invalidParams = (message: string): RpcError => new RpcError(-32602, message);

/** JSON with bigints written as JSON numbers (u64 lamports, slots, rentEpoch 18446744073709551615...). */
export function stringifyJson(value: unknown): string {
  const parts: string[] = [];
  const write = (v: unknown): void => {
    if (v === null || v === undefined) parts.push('null');
    else if (typeof v === 'bigint') parts.push(v.toString());
    else if (typeof v === 'number') parts.push(Number.isFinite(v) ? JSON.stringify(v) : 'null');
    else if (typeof v === 'string' || typeof v === 'boolean') parts.push(JSON.stringify(v));
    else if (Array.isArray(v)) {
      parts.push('[');
      v.forEach((item, i) => {
        if (i) parts.push(',');
        write(item === undefined ? null : item);
      });
      parts.push(']');
    } else if (v instanceof Uint8Array) write([...v]);
    else if (typeof v === 'object') {
      parts.push('{');
      let first = true;
      for (const [k, item] of Object.entries(v as Record<string, unknown>)) {
        if (item === undefined) continue;
        if (!first) parts.push(',');
        first = false;
        parts.push(JSON.stringify(k), ':');
        write(item);
      }
      parts.push('}');
    } else parts.push('null');
  };
  write(value);
  return parts.join('');
}

// ---------------------------------------------------------------------------------------------------------------
// Accounts

export type AccountEncoding = 'binary' | 'base58' | 'base64' | 'base64+zstd' | 'jsonParsed';
export interface DataSlice {
  readonly offset: number;
  readonly length: number;
}

const MAX_BASE58_BYTES = 128;

export function accountEncoding(value: unknown, fallback: AccountEncoding = 'binary'): AccountEncoding {
  if (value === undefined || value === null) return fallback;
  if (value === 'binary' || value === 'base58' || value === 'base64' || value === 'jsonParsed') return value;
  if (value === 'base64+zstd') throw invalidParams('Invalid params: base64+zstd is not supported by this node; use base64.');
  throw invalidParams(`Invalid params: unknown variant \`${String(value)}\`, expected one of \`binary\`, \`base58\`, \`base64\`, \`jsonParsed\`, \`base64+zstd\`.`);
}

export function dataSliceOf(value: unknown): DataSlice | undefined {
  if (value === undefined || value === null) return undefined;
  const v = value as { offset?: unknown; length?: unknown };
  if (typeof v.offset !== 'number' || typeof v.length !== 'number') throw invalidParams('Invalid params: dataSlice needs offset and length.');
  return { offset: v.offset, length: v.length };
}

/** The jsonParsed data of a token account or mint, or undefined when the RPC has no parser for the account. */
export function parsedAccountData(ledger: Ledger, account: EncodedAccount): unknown {
  const program = account.programAddress === TOKEN_2022_PROGRAM ? 'spl-token-2022' : 'spl-token';
  const token = decodeTokenAccount(account);
  if (token) {
    const decimals = ledger.mintDecimals(token.mint);
    if (decimals === undefined) return undefined;
    const info: Record<string, unknown> = {
      isNative: token.isNative.__option === 'Some',
      mint: token.mint,
      owner: token.owner,
      state: token.state === 2 ? 'frozen' : 'initialized',
      tokenAmount: uiTokenAmount(token.amount, decimals),
    };
    if (token.delegate.__option === 'Some') {
      info.delegate = token.delegate.value;
      info.delegatedAmount = uiTokenAmount(token.delegatedAmount, decimals);
    }
    if (token.isNative.__option === 'Some') info.rentExemptReserve = uiTokenAmount(token.isNative.value, decimals);
    if (token.closeAuthority.__option === 'Some') info.closeAuthority = token.closeAuthority.value;
    return { program, parsed: { info, type: 'account' }, space: account.data.length };
  }
  const mint = decodeMint(account);
  if (mint) {
    return {
      program,
      parsed: {
        info: {
          decimals: mint.decimals,
          freezeAuthority: mint.freezeAuthority.__option === 'Some' ? mint.freezeAuthority.value : null,
          isInitialized: mint.isInitialized,
          mintAuthority: mint.mintAuthority.__option === 'Some' ? mint.mintAuthority.value : null,
          supply: mint.supply.toString(),
        },
        type: 'mint',
      },
      space: account.data.length,
    };
  }
  return undefined;
}

/** An account as the RPC encodes it (UiAccount), or null for an account that does not exist. */
export function encodeAccount(ledger: Ledger, account: EncodedAccount | null, encoding: AccountEncoding, slice?: DataSlice): unknown {
  if (!account) return null;
  const base = { executable: account.executable, lamports: account.lamports, owner: account.programAddress, rentEpoch: 18446744073709551615n, space: account.data.length };
  let data = account.data as Uint8Array;
  if (encoding === 'jsonParsed') {
    const parsed = slice ? undefined : parsedAccountData(ledger, account);
    if (parsed !== undefined) return { data: parsed, ...base };
    encoding = 'base64'; // the node falls back to base64 for accounts it cannot parse
  }
  if (slice) data = data.subarray(Math.min(slice.offset, data.length), Math.min(slice.offset + slice.length, data.length));
  if ((encoding === 'binary' || encoding === 'base58') && data.length > MAX_BASE58_BYTES) {
    throw invalidParams(`Encoded binary (base 58) data should be less than ${MAX_BASE58_BYTES} bytes, please use Base64 encoding.`);
  }
  if (encoding === 'binary') return { data: toBase58(data), ...base };
  if (encoding === 'base58') return { data: [toBase58(data), 'base58'], ...base };
  return { data: [toBase64(data), 'base64'], ...base };
}

// ---------------------------------------------------------------------------------------------------------------
// Instructions

interface InstructionView {
  readonly programId: string;
  readonly accounts: readonly string[];
  readonly data: Uint8Array;
  readonly stackHeight: number | null;
}

const amountString = (v: bigint | number) => BigInt(v).toString();

function parseTokenProgramInstruction(ix: InstructionView): { type: string; info: Record<string, unknown> } | undefined {
  const parsed = parseTokenInstruction({
    programAddress: ix.programId as never,
    accounts: ix.accounts.map((a) => ({ address: a as never, role: 0 })),
    data: ix.data,
  });
  const a = (parsed as unknown as { accounts: Record<string, { address: string } | undefined> }).accounts;
  const at = (name: string) => a[name]?.address;
  const d = (parsed as unknown as { data: Record<string, unknown> }).data;
  const tokenAmount = () => uiTokenAmount(BigInt(d.amount as bigint), Number(d.decimals));
  switch (parsed.instructionType) {
    case TokenInstruction.Transfer:
      return { type: 'transfer', info: { source: at('source'), destination: at('destination'), authority: at('authority'), amount: amountString(d.amount as bigint) } };
    case TokenInstruction.TransferChecked:
      return { type: 'transferChecked', info: { source: at('source'), mint: at('mint'), destination: at('destination'), authority: at('authority'), tokenAmount: tokenAmount() } };
    case TokenInstruction.MintTo:
      return { type: 'mintTo', info: { mint: at('mint'), account: at('token'), mintAuthority: at('mintAuthority'), amount: amountString(d.amount as bigint) } };
    case TokenInstruction.MintToChecked:
      return { type: 'mintToChecked', info: { mint: at('mint'), account: at('token'), mintAuthority: at('mintAuthority'), tokenAmount: tokenAmount() } };
    case TokenInstruction.Burn:
      return { type: 'burn', info: { account: at('account'), mint: at('mint'), authority: at('authority'), amount: amountString(d.amount as bigint) } };
    case TokenInstruction.BurnChecked:
      return { type: 'burnChecked', info: { account: at('account'), mint: at('mint'), authority: at('authority'), tokenAmount: tokenAmount() } };
    case TokenInstruction.Approve:
      return { type: 'approve', info: { source: at('source'), delegate: at('delegate'), owner: at('owner'), amount: amountString(d.amount as bigint) } };
    case TokenInstruction.Revoke:
      return { type: 'revoke', info: { source: at('source'), owner: at('owner') } };
    case TokenInstruction.CloseAccount:
      return { type: 'closeAccount', info: { account: at('account'), destination: at('destination'), owner: at('owner') } };
    case TokenInstruction.SyncNative:
      return { type: 'syncNative', info: { account: at('account') } };
    case TokenInstruction.InitializeAccount:
      return { type: 'initializeAccount', info: { account: at('account'), mint: at('mint'), owner: at('owner'), rentSysvar: at('rent') } };
    case TokenInstruction.InitializeAccount2:
      return { type: 'initializeAccount2', info: { account: at('account'), mint: at('mint'), owner: d.owner, rentSysvar: at('rent') } };
    case TokenInstruction.InitializeAccount3:
      return { type: 'initializeAccount3', info: { account: at('account'), mint: at('mint'), owner: d.owner } };
    case TokenInstruction.InitializeImmutableOwner:
      return { type: 'initializeImmutableOwner', info: { account: at('account') } };
    case TokenInstruction.GetAccountDataSize:
      return { type: 'getAccountDataSize', info: { mint: at('mint') } };
    default:
      return undefined;
  }
}

function parseSystemInstruction(ix: InstructionView): { type: string; info: Record<string, unknown> } | undefined {
  if (ix.data.length < 4) return undefined;
  const view = new DataView(ix.data.buffer, ix.data.byteOffset, ix.data.byteLength);
  const kind = view.getUint32(0, true);
  if (kind === 2 && ix.data.length >= 12) {
    return { type: 'transfer', info: { source: ix.accounts[0], destination: ix.accounts[1], lamports: view.getBigUint64(4, true) } };
  }
  if (kind === 0 && ix.data.length >= 52) {
    return {
      type: 'createAccount',
      info: { source: ix.accounts[0], newAccount: ix.accounts[1], lamports: view.getBigUint64(4, true), space: view.getBigUint64(12, true), owner: toBase58(ix.data.subarray(20, 52)) },
    };
  }
  if (kind === 1 && ix.data.length >= 36) return { type: 'assign', info: { account: ix.accounts[0], owner: toBase58(ix.data.subarray(4, 36)) } };
  if (kind === 8 && ix.data.length >= 12) return { type: 'allocate', info: { account: ix.accounts[0], space: view.getBigUint64(4, true) } };
  return undefined;
}

function parseAssociatedTokenInstruction(ix: InstructionView): { type: string; info: Record<string, unknown> } | undefined {
  const kind = ix.data.length === 0 ? AssociatedTokenInstruction.CreateAssociatedToken : identifyAssociatedTokenInstruction(ix.data);
  if (kind !== AssociatedTokenInstruction.CreateAssociatedToken && kind !== AssociatedTokenInstruction.CreateAssociatedTokenIdempotent) return undefined;
  const [source, account, wallet, mint, systemProgram, tokenProgram] = ix.accounts;
  return {
    type: kind === AssociatedTokenInstruction.CreateAssociatedToken ? 'create' : 'createIdempotent',
    info: { source, account, wallet, mint, systemProgram, tokenProgram },
  };
}

/** An instruction in jsonParsed: parsed for the programs the RPC parses, partially decoded for the others. */
export function parsedInstruction(ix: InstructionView): unknown {
  try {
    if (MEMO_PROGRAMS.has(ix.programId)) {
      const text = new TextDecoder('utf-8', { fatal: true }).decode(ix.data);
      return { parsed: text, program: 'spl-memo', programId: ix.programId, stackHeight: ix.stackHeight };
    }
    let parsed: { type: string; info: Record<string, unknown> } | undefined;
    let program = '';
    if (ix.programId === SYSTEM_PROGRAM) {
      parsed = parseSystemInstruction(ix);
      program = 'system';
    } else if (ix.programId === ASSOCIATED_TOKEN_PROGRAM) {
      parsed = parseAssociatedTokenInstruction(ix);
      program = 'spl-associated-token-account';
    } else if (ix.programId === 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA' || ix.programId === TOKEN_2022_PROGRAM) {
      identifyTokenInstruction(ix.data);
      parsed = parseTokenProgramInstruction(ix);
      program = ix.programId === TOKEN_2022_PROGRAM ? 'spl-token-2022' : 'spl-token';
    }
    if (parsed) return { parsed, program, programId: ix.programId, stackHeight: ix.stackHeight };
  } catch {
    // not a well-formed instruction of the program: shown partially decoded, as the node does
  }
  return { accounts: ix.accounts, data: toBase58(ix.data), programId: ix.programId, stackHeight: ix.stackHeight };
}

// ---------------------------------------------------------------------------------------------------------------
// Transactions

export type TransactionEncoding = 'json' | 'jsonParsed' | 'base64' | 'base58';

export function transactionEncoding(value: unknown): TransactionEncoding {
  if (value === undefined || value === null) return 'json';
  if (value === 'json' || value === 'jsonParsed' || value === 'base64' || value === 'base58') return value;
  if (value === 'binary') return 'base58';
  throw invalidParams(`Invalid params: unknown variant \`${String(value)}\`, expected one of \`binary\`, \`base64\`, \`base58\`, \`json\`, \`jsonParsed\`.`);
}

export function unsupportedVersion(): RpcError {
  return new RpcError(
    -32015,
    'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
  );
}

function innerInstructionsJson(outcome: ExecutionOutcome, keys: ResolvedKeys, parsed: boolean): unknown[] {
  return outcome.innerInstructions.map(({ index, instructions }) => ({
    index,
    instructions: instructions.map((ix: CompiledInnerInstruction) => parsed
      ? parsedInstruction({ programId: keys.keys[ix.programIdIndex], accounts: ix.accounts.map((i) => keys.keys[i]), data: ix.data, stackHeight: ix.stackHeight })
      : { accounts: ix.accounts, data: toBase58(ix.data), programIdIndex: ix.programIdIndex, stackHeight: ix.stackHeight }),
  }));
}

function tokenBalancesJson(balances: readonly TokenBalance[]): unknown[] {
  return balances.map((b) => ({ accountIndex: b.accountIndex, mint: b.mint, owner: b.owner, programId: b.programId, uiTokenAmount: b.uiTokenAmount }));
}

/** The meta of a landed transaction (or of a simulation, with `keys`). */
export function metaJson(outcome: ExecutionOutcome, keys: ResolvedKeys, options: { parsed: boolean; withLoadedAddresses: boolean }): Record<string, unknown> {
  return {
    computeUnitsConsumed: outcome.unitsConsumed,
    err: outcome.err,
    fee: outcome.fee,
    innerInstructions: innerInstructionsJson(outcome, keys, options.parsed),
    ...(options.withLoadedAddresses ? { loadedAddresses: { readonly: keys.loaded.readonly, writable: keys.loaded.writable } } : {}),
    logMessages: outcome.logs,
    postBalances: outcome.postBalances,
    postTokenBalances: tokenBalancesJson(outcome.postTokenBalances),
    preBalances: outcome.preBalances,
    preTokenBalances: tokenBalancesJson(outcome.preTokenBalances),
    ...(outcome.returnData ? { returnData: { data: [toBase64(outcome.returnData.data), 'base64'], programId: outcome.returnData.programId } } : {}),
    rewards: [],
    status: outcome.err === null ? { Ok: null } : { Err: outcome.err },
  };
}

/** The `transaction` field of getTransaction / getBlock in an encoding. */
export function transactionJson(t: LandedTransaction, encoding: TransactionEncoding, withVersion: boolean): unknown {
  const { decoded, keys } = t;
  if (encoding === 'base64') return [toBase64(decoded.wire), 'base64'];
  if (encoding === 'base58') return [toBase58(decoded.wire), 'base58'];
  const { message } = decoded;
  const lookups = message.version === 0 && withVersion
    ? { addressTableLookups: (message.addressTableLookups ?? []).map((l) => ({ accountKey: l.lookupTableAddress, readonlyIndexes: l.readonlyIndexes, writableIndexes: l.writableIndexes })) }
    : {};
  if (encoding === 'jsonParsed') {
    return {
      message: {
        accountKeys: keys.keys.map((pubkey, i) => ({ pubkey, signer: keys.signer[i], source: keys.source[i], writable: keys.writable[i] })),
        ...lookups,
        instructions: message.instructions.map((ix) => parsedInstruction({
          programId: keys.keys[ix.programAddressIndex],
          accounts: (ix.accountIndices ?? []).map((i) => keys.keys[i]),
          data: new Uint8Array(ix.data ?? []),
          stackHeight: null,
        })),
        recentBlockhash: decoded.recentBlockhash,
      },
      signatures: decoded.signatures,
    };
  }
  return {
    message: {
      accountKeys: message.staticAccounts,
      ...lookups,
      header: {
        numReadonlySignedAccounts: message.header.numReadonlySignerAccounts,
        numReadonlyUnsignedAccounts: message.header.numReadonlyNonSignerAccounts,
        numRequiredSignatures: message.header.numSignerAccounts,
      },
      instructions: message.instructions.map((ix) => ({
        accounts: ix.accountIndices ?? [],
        data: toBase58(new Uint8Array(ix.data ?? [])),
        programIdIndex: ix.programAddressIndex,
        stackHeight: null,
      })),
      recentBlockhash: decoded.recentBlockhash,
    },
    signatures: decoded.signatures,
  };
}

/** getTransaction's answer for a landed transaction. */
export function landedTransactionJson(t: LandedTransaction, encoding: TransactionEncoding, maxSupportedTransactionVersion: number | undefined): unknown {
  const withVersion = maxSupportedTransactionVersion !== undefined;
  if (t.decoded.version === 0 && !withVersion) throw unsupportedVersion();
  return {
    blockTime: t.blockTime,
    meta: metaJson(t, t.keys, { parsed: encoding === 'jsonParsed', withLoadedAddresses: withVersion }),
    slot: t.slot,
    transaction: transactionJson(t, encoding, withVersion),
    ...(withVersion ? { version: t.decoded.version } : {}),
  };
}

