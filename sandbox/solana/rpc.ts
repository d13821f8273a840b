/**
 * A JSON-RPC 2.0 endpoint in front of a Ledger (LiteSVM), answering with the real Solana RPC's shapes: what
 * @solana/kit's `createSolanaRpc` clients, wallets and a status tracker call. One node:http server on loopback:
 *
 * - HTTP POST: single and batch requests; GET /health answers "ok" as a node does; CORS open, as public RPCs are;
 * - WebSocket on the same port (ws://127.0.0.1:<port>): signatureSubscribe, slotSubscribe, rootSubscribe,
 *   accountSubscribe, logsSubscribe (and their unsubscribes), which `sendAndConfirmTransactionFactory` and
 *   `airdropFactory` of @solana/kit need.
 *
 * Every commitment is the same here: a transaction is `finalized` once it has landed (the ledger has no forks),
 * and `commitment` / `preflightCommitment` parameters are accepted and ignored (except `processed` where the node
 * refuses it: getTransaction, getSignaturesForAddress). Integers above 2^53 in requests lose precision (JSON.parse).
 */
import http from 'node:http';
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { getBase58Decoder, getCompiledTransactionMessageDecoder } from '@solana/kit';
import {
  accountEncoding,
  dataSliceOf,
  encodeAccount,
  fromBase58,
  fromBase64,
  invalidParams,
  landedTransactionJson,
  metaJson,
  RpcError,
  stringifyJson,
  toBase64,
  transactionEncoding,
  transactionJson,
  unsupportedVersion,
  type AccountEncoding,
  type TransactionEncoding,
} from './encoding';
import {
  decodeMint,
  decodeTokenAccount,
  decodeTransaction,
  InvalidTransactionError,
  isTokenProgram,
  transactionErrorText,
  uiTokenAmount,
  verifySignatures,
  type Block,
  type CompiledMessage,
  type DecodedTransaction,
  type ExecutionOutcome,
  type LandedTransaction,
  type Ledger,
} from './ledger';
import { webSocketEndpoint, type WebSocketConnection } from './websocket';
import { SOLANA_MAINNET_GENESIS_HASH } from '../../src/core/chains/solana/cluster';

/**
 * Mainnet-beta's genesis hash: the sandbox stands in for Solana mainnet, as the anvil chains keep their real ids (and
 * chain mode checks a Solana RPC of CHAINS_FILE answers it: src/core/chains/solana/cluster.ts).
 */
export const MAINNET_GENESIS_HASH = SOLANA_MAINNET_GENESIS_HASH;
/** The Agave runtime LiteSVM 1.5 embeds (solana-program-runtime 4.3.0), reported by getVersion and as apiVersion. */
export const SOLANA_CORE_VERSION = '4.3.0';
const FEATURE_SET = 3_640_012_085;

export interface SolanaRpcOptions {
  readonly ledger: Ledger;
  /** Loopback only (default 127.0.0.1). */
  readonly host?: string;
  /** 0 (default): a free port. */
  readonly port?: number;
  readonly genesisHash?: string;
  /** requestAirdrop: sends `lamports` to `to` in a real transfer and returns its signature (none: the method fails). */
  readonly requestAirdrop?: (to: string, lamports: bigint) => Promise<string>;
  readonly log?: (line: string) => void;
}

export interface SolanaRpcServer {
  readonly url: string;
  readonly wsUrl: string;
  readonly port: number;
  /** Requests answered, by method (for tests and the CLI). */
  readonly calls: ReadonlyMap<string, number>;
  close(): Promise<void>;
}

type Params = readonly unknown[];
type Handler = (params: Params) => unknown;

const base58 = getBase58Decoder();
const messageDecoder = getCompiledTransactionMessageDecoder();
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;
const IDENTITY = base58.decode(createHash('sha256').update('xchain-router sandbox solana validator identity').digest());

function cfg(params: Params, index: number): Record<string, unknown> {
  const v = params[index];
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw invalidParams('Invalid params: expected a configuration object.');
  return v as Record<string, unknown>;
}

function pubkey(value: unknown, what = 'pubkey'): string {
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

function signatureParam(value: unknown): string {
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

function integer(value: unknown, what: string): bigint {
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

function decode(value: unknown, encoding: unknown): DecodedTransaction {
  const wire = wireBytes(value, encoding);
  try {
    return decodeTransaction(wire);
  } catch (error) {
    if (error instanceof InvalidTransactionError) throw invalidParams(`invalid transaction: ${error.message}`);
    throw error;
  }
}

export async function startSolanaRpc(options: SolanaRpcOptions): Promise<SolanaRpcServer> {
  const { ledger } = options;
  const genesisHash = options.genesisHash ?? MAINNET_GENESIS_HASH;
  const calls = new Map<string, number>();
  const context = () => ({ apiVersion: SOLANA_CORE_VERSION, slot: ledger.slot });
  const withContext = (value: unknown) => ({ context: context(), value });
  const checkMinContextSlot = (c: Record<string, unknown>) => {
    if (c.minContextSlot !== undefined && integer(c.minContextSlot, 'minContextSlot') > ledger.slot) {
      throw new RpcError(-32016, 'Minimum context slot has not been reached', { contextSlot: ledger.slot });
    }
  };
  const atLeastConfirmed = (c: Record<string, unknown>) => {
    if (c.commitment === 'processed') throw invalidParams('Method does not support commitment below `confirmed`');
  };

  const simulationValue = (decoded: DecodedTransaction, sim: ExecutionOutcome, extra: { accounts: unknown; innerInstructions: boolean; replacement: boolean }) => {
    const keys = ledger.resolveKeys(decoded);
    const loaded = keys !== undefined && sim.preBalances.length > 0;
    const meta = loaded ? metaJson(sim, keys, { parsed: false, withLoadedAddresses: true }) : undefined;
    return {
      accounts: extra.accounts,
      err: sim.err,
      fee: loaded ? sim.fee : null,
      innerInstructions: extra.innerInstructions && meta ? meta.innerInstructions : null,
      loadedAccountsDataSize: loaded ? keys!.keys.reduce((n, k) => n + (sim.postAccounts.get(k)?.data.length ?? 0), 0) : 0,
      loadedAddresses: loaded ? meta!.loadedAddresses : null,
      logs: sim.logs,
      postBalances: meta ? meta.postBalances : null,
      postTokenBalances: meta ? meta.postTokenBalances : null,
      preBalances: meta ? meta.preBalances : null,
      preTokenBalances: meta ? meta.preTokenBalances : null,
      replacementBlockhash: extra.replacement ? ledger.latestBlockhash() : null,
      returnData: sim.returnData ? { data: [toBase64(sim.returnData.data), 'base64'], programId: sim.returnData.programId } : null,
      unitsConsumed: sim.unitsConsumed,
    };
  };

  const tokenAccountsBy = (field: 'owner' | 'delegate') => (params: Params) => {
    const who = pubkey(params[0]);
    const filter = cfg(params, 1);
    const c = cfg(params, 2);
    checkMinContextSlot(c);
    const encoding = accountEncoding(c.encoding);
    const slice = dataSliceOf(c.dataSlice);
    let programs: string[];
    let mint: string | undefined;
    if (typeof filter.mint === 'string') {
      mint = pubkey(filter.mint);
      const account = ledger.account(mint);
      if (!decodeMint(account)) throw invalidParams('Invalid param: could not find mint');
      programs = [account!.programAddress];
    } else if (typeof filter.programId === 'string') {
      const program = pubkey(filter.programId);
      if (!isTokenProgram(program)) throw invalidParams('Invalid param: unrecognized Token program id');
      programs = [program];
    } else {
      throw invalidParams('Invalid params: expected a mint or programId filter.');
    }
    const value: unknown[] = [];
    for (const program of programs) {
      for (const account of ledger.svm.getProgramAccounts(program as never)) {
        const token = decodeTokenAccount(account);
        if (!token || (mint && token.mint !== mint)) continue;
        const holder = field === 'owner' ? token.owner : token.delegate.__option === 'Some' ? token.delegate.value : undefined;
        if (holder !== who) continue;
        value.push({ account: encodeAccount(ledger, account, encoding, slice), pubkey: account.address });
      }
    }
    return withContext(value);
  };

  const handlers: Record<string, Handler> = {
    getHealth: () => 'ok',
    getVersion: () => ({ 'feature-set': FEATURE_SET, 'solana-core': SOLANA_CORE_VERSION }),
    getGenesisHash: () => genesisHash,
    getIdentity: () => ({ identity: IDENTITY }),
    getSlotLeader: () => IDENTITY,
    getSlot: (p) => {
      checkMinContextSlot(cfg(p, 0));
      return ledger.slot;
    },
    getBlockHeight: (p) => {
      checkMinContextSlot(cfg(p, 0));
      return ledger.blockHeight;
    },
    getTransactionCount: () => ledger.transactionTotal,
    getFirstAvailableBlock: () => ledger.genesisSlot,
    minimumLedgerSlot: () => ledger.genesisSlot,
    getMaxRetransmitSlot: () => ledger.slot,
    getMaxShredInsertSlot: () => ledger.slot,
    getEpochInfo: (p) => {
      checkMinContextSlot(cfg(p, 0));
      const e = ledger.epochInfo();
      return { absoluteSlot: ledger.slot, blockHeight: ledger.blockHeight, epoch: e.epoch, slotIndex: e.slotIndex, slotsInEpoch: e.slotsInEpoch, transactionCount: ledger.transactionTotal };
    },
    getEpochSchedule: () => {
      const s = ledger.svm.getEpochSchedule();
      return { firstNormalEpoch: s.firstNormalEpoch, firstNormalSlot: s.firstNormalSlot, leaderScheduleSlotOffset: s.leaderScheduleSlotOffset, slotsPerEpoch: s.slotsPerEpoch, warmup: s.warmup };
    },
    getLatestBlockhash: (p) => {
      checkMinContextSlot(cfg(p, 0));
      return withContext(ledger.latestBlockhash());
    },
    isBlockhashValid: (p) => {
      if (typeof p[0] !== 'string') throw invalidParams('Invalid param: Invalid blockhash');
      checkMinContextSlot(cfg(p, 1));
      return withContext(ledger.isBlockhashValid(p[0]));
    },
    getMinimumBalanceForRentExemption: (p) => ledger.svm.minimumBalanceForRentExemption(integer(p[0] ?? 0, 'data length')),
    getBalance: (p) => {
      const key = pubkey(p[0]);
      checkMinContextSlot(cfg(p, 1));
      return withContext(ledger.account(key)?.lamports ?? 0n);
    },
    getAccountInfo: (p) => {
      const key = pubkey(p[0]);
      const c = cfg(p, 1);
      checkMinContextSlot(c);
      return withContext(encodeAccount(ledger, ledger.account(key), accountEncoding(c.encoding), dataSliceOf(c.dataSlice)));
    },
    getMultipleAccounts: (p) => {
      if (!Array.isArray(p[0])) throw invalidParams('Invalid params: expected an array of pubkeys.');
      if (p[0].length > 100) throw invalidParams('Too many inputs provided; max 100');
      const keys = p[0].map((k) => pubkey(k));
      const c = cfg(p, 1);
      checkMinContextSlot(c);
      const encoding = accountEncoding(c.encoding);
      const slice = dataSliceOf(c.dataSlice);
      return withContext(keys.map((k) => encodeAccount(ledger, ledger.account(k), encoding, slice)));
    },
    getProgramAccounts: (p) => {
      const program = pubkey(p[0]);
      const c = cfg(p, 1);
      checkMinContextSlot(c);
      const encoding = accountEncoding(c.encoding);
      const slice = dataSliceOf(c.dataSlice);
      const filters = Array.isArray(c.filters) ? c.filters as Record<string, unknown>[] : [];
      const matches = (data: Uint8Array) => filters.every((f) => {
        if (typeof f.dataSize === 'number') return data.length === f.dataSize;
        const memcmp = f.memcmp as { offset?: number; bytes?: string; encoding?: string } | undefined;
        if (memcmp && typeof memcmp.bytes === 'string') {
          const bytes = memcmp.encoding === 'base64' ? fromBase64(memcmp.bytes) : fromBase58(memcmp.bytes);
          const offset = memcmp.offset ?? 0;
          return offset + bytes.length <= data.length && bytes.every((b, i) => data[offset + i] === b);
        }
        throw invalidParams('Invalid params: unsupported filter');
      });
      const value = ledger.svm.getProgramAccounts(program as never)
        .filter((a) => matches(a.data as Uint8Array))
        .map((a) => ({ account: encodeAccount(ledger, a, encoding, slice), pubkey: a.address }));
      return c.withContext ? withContext(value) : value;
    },
    getTokenAccountsByOwner: tokenAccountsBy('owner'),
    getTokenAccountsByDelegate: tokenAccountsBy('delegate'),
    getTokenAccountBalance: (p) => {
      const key = pubkey(p[0]);
      checkMinContextSlot(cfg(p, 1));
      const account = ledger.account(key);
      if (!account) throw invalidParams('Invalid param: could not find account');
      const token = decodeTokenAccount(account);
      const decimals = token ? ledger.mintDecimals(token.mint) : undefined;
      if (!token || decimals === undefined) throw invalidParams('Invalid param: not a Token account');
      return withContext(uiTokenAmount(token.amount, decimals));
    },
    getTokenSupply: (p) => {
      const key = pubkey(p[0]);
      checkMinContextSlot(cfg(p, 1));
      const mint = decodeMint(ledger.account(key));
      if (!mint) throw invalidParams('Invalid param: not a Token mint');
      return withContext(uiTokenAmount(mint.supply, mint.decimals));
    },
    getRecentPrioritizationFees: (p) => {
      const accounts = p[0] === undefined || p[0] === null ? [] : p[0];
      if (!Array.isArray(accounts)) throw invalidParams('Invalid params: expected an array of pubkeys.');
      if (accounts.length > 128) throw invalidParams('Too many inputs provided; max 128');
      return ledger.recentPrioritizationFees(accounts.map((a) => pubkey(a)));
    },
    getFeeForMessage: (p) => {
      if (typeof p[0] !== 'string') throw invalidParams('Invalid params: expected a base64 message.');
      const c = cfg(p, 1);
      checkMinContextSlot(c);
      let message: CompiledMessage;
      try {
        message = messageDecoder.decode(fromBase64(p[0])) as CompiledMessage;
      } catch {
        throw invalidParams('invalid message: failed to deserialize');
      }
      if (message.version !== 'legacy' && message.version !== 0) throw invalidParams('invalid message: unsupported version');
      return withContext(ledger.isBlockhashValid(message.lifetimeToken) ? ledger.feeForMessage(message) : null);
    },
    sendTransaction: (p) => {
      const c = cfg(p, 1);
      const decoded = decode(p[0], c.encoding);
      checkMinContextSlot(c);
      if (!c.skipPreflight) {
        if (!verifySignatures(decoded)) throw new RpcError(-32003, 'Transaction signature verification failure');
        const sim = ledger.simulate(decoded, { sigVerify: true });
        if (sim.err !== null) {
          throw new RpcError(-32002, `Transaction simulation failed: ${transactionErrorText(sim.err)}`,
            simulationValue(decoded, sim, { accounts: null, innerInstructions: false, replacement: false }));
        }
      }
      const outcome = ledger.send(decoded);
      if (outcome.landed) {
        options.log?.(`solana: ${decoded.signature} landed in slot ${outcome.transaction.slot}${outcome.transaction.err ? ` failed ${JSON.stringify(outcome.transaction.err)}` : ''}`);
      } else {
        options.log?.(`solana: ${decoded.signature} dropped (${JSON.stringify(outcome.err)})`);
      }
      return decoded.signature;
    },
    simulateTransaction: (p) => {
      const c = cfg(p, 1);
      const decoded = decode(p[0], c.encoding);
      checkMinContextSlot(c);
      if (c.sigVerify && c.replaceRecentBlockhash) throw invalidParams('sigVerify may not be used with replaceRecentBlockhash');
      if (c.sigVerify && !verifySignatures(decoded)) throw new RpcError(-32003, 'Transaction signature verification failure');
      const sim = ledger.simulate(decoded, { sigVerify: Boolean(c.sigVerify), replaceRecentBlockhash: Boolean(c.replaceRecentBlockhash) });
      let accounts: unknown = null;
      const requested = c.accounts as { addresses?: unknown; encoding?: unknown } | undefined;
      if (requested && Array.isArray(requested.addresses)) {
        const encoding: AccountEncoding = accountEncoding(requested.encoding, 'base64');
        if (encoding === 'binary' || encoding === 'base58') throw invalidParams('Invalid params: base58 encoding is not supported for simulated accounts');
        accounts = requested.addresses.map((a) => {
          const key = pubkey(a);
          const post = sim.postAccounts.has(key) ? sim.postAccounts.get(key)! : ledger.account(key);
          return encodeAccount(ledger, post, encoding);
        });
      }
      return withContext(simulationValue(decoded, sim, { accounts, innerInstructions: Boolean(c.innerInstructions), replacement: Boolean(c.replaceRecentBlockhash) }));
    },
    getSignatureStatuses: (p) => {
      if (!Array.isArray(p[0])) throw invalidParams('Invalid params: expected an array of signatures.');
      if (p[0].length > 256) throw invalidParams('Too many inputs provided; max 256');
      const c = cfg(p, 1);
      return withContext(p[0].map((s) => {
        const t = ledger.transaction(signatureParam(s));
        if (!t || (!c.searchTransactionHistory && !ledger.isRecent(t.slot))) return null;
        return { confirmationStatus: 'finalized', confirmations: null, err: t.err, slot: t.slot, status: t.err === null ? { Ok: null } : { Err: t.err } };
      }));
    },
    getTransaction: (p) => {
      const signature = signatureParam(p[0]);
      const c = typeof p[1] === 'string' ? { encoding: p[1] } : cfg(p, 1);
      atLeastConfirmed(c);
      const encoding: TransactionEncoding = transactionEncoding(c.encoding);
      const t = ledger.transaction(signature);
      if (!t) return null;
      return landedTransactionJson(t, encoding, c.maxSupportedTransactionVersion === undefined ? undefined : Number(c.maxSupportedTransactionVersion));
    },
    getSignaturesForAddress: (p) => {
      const key = pubkey(p[0]);
      const c = cfg(p, 1);
      atLeastConfirmed(c);
      checkMinContextSlot(c);
      const limit = c.limit === undefined ? 1000 : Number(integer(c.limit, 'limit'));
      if (limit < 1 || limit > 1000) throw invalidParams('Invalid limit; max 1000');
      let list = ledger.signaturesFor(key);
      if (typeof c.before === 'string') {
        const at = list.indexOf(signatureParam(c.before));
        list = at >= 0 ? list.slice(at + 1) : [];
      }
      if (typeof c.until === 'string') {
        const at = list.indexOf(signatureParam(c.until));
        if (at >= 0) list = list.slice(0, at);
      }
      return list.flatMap((s) => {
        const t = ledger.transaction(s); // gone once its block left the kept history
        return t ? [{ blockTime: t.blockTime, confirmationStatus: 'finalized', err: t.err, memo: t.memo, signature: s, slot: t.slot }] : [];
      }).slice(0, limit);
    },
    getBlock: (p) => {
      const slot = integer(p[0], 'slot');
      const c = typeof p[1] === 'string' ? { encoding: p[1] } : cfg(p, 1);
      atLeastConfirmed(c);
      const block = ledger.block(slot);
      if (!block) throw new RpcError(-32009, `Slot ${slot} was skipped, or missing in long-term storage`);
      const encoding = transactionEncoding(c.encoding);
      const details = (c.transactionDetails as string | undefined) ?? 'full';
      const max = c.maxSupportedTransactionVersion === undefined ? undefined : Number(c.maxSupportedTransactionVersion);
      const out: Record<string, unknown> = {
        blockHeight: block.blockHeight, blockTime: block.blockTime, blockhash: block.blockhash, parentSlot: block.parentSlot,
        previousBlockhash: block.previousBlockhash,
      };
      if (c.rewards !== false) out.rewards = [];
      if (details === 'signatures') out.signatures = block.transactions.map((t) => t.decoded.signature);
      else if (details === 'full' || details === 'accounts') {
        out.transactions = block.transactions.map((t) => {
          if (t.decoded.version === 0 && max === undefined) throw unsupportedVersion();
          const full = landedTransactionJson(t, encoding, max) as Record<string, unknown>;
          if (details === 'accounts') {
            const keys = t.keys;
            return {
              meta: { ...(full.meta as object), innerInstructions: undefined, logMessages: undefined },
              transaction: {
                accountKeys: keys.keys.map((pk, i) => ({ pubkey: pk, signer: keys.signer[i], source: keys.source[i], writable: keys.writable[i] })),
                signatures: t.decoded.signatures,
              },
              ...(max !== undefined ? { version: t.decoded.version } : {}),
            };
          }
          return { meta: full.meta, transaction: transactionJson(t, encoding, max !== undefined), ...(max !== undefined ? { version: t.decoded.version } : {}) };
        });
      } else if (details !== 'none') throw invalidParams(`Invalid params: unknown variant \`${details}\``);
      return out;
    },
    getBlockTime: (p) => {
      const slot = integer(p[0], 'slot');
      const block = ledger.block(slot);
      if (!block) throw new RpcError(-32004, `Block not available for slot ${slot}`);
      return block.blockTime;
    },
    getBlocks: (p) => {
      const start = integer(p[0], 'start slot');
      const end = p[1] === undefined || typeof p[1] === 'object' ? ledger.slot : integer(p[1], 'end slot');
      if (end - start > 500_000n) throw invalidParams('Slot range too large; max 500000');
      const out: bigint[] = [];
      for (let s = start < ledger.genesisSlot ? ledger.genesisSlot : start; s <= end && s <= ledger.slot; s++) if (ledger.block(s)) out.push(s);
      return out;
    },
    getBlocksWithLimit: (p) => {
      const start = integer(p[0], 'start slot');
      const limit = integer(p[1], 'limit');
      if (limit > 500_000n) throw invalidParams('Limit too large; max 500000');
      const out: bigint[] = [];
      for (let s = start < ledger.genesisSlot ? ledger.genesisSlot : start; s <= ledger.slot && BigInt(out.length) < limit; s++) if (ledger.block(s)) out.push(s);
      return out;
    },
    requestAirdrop: async (p) => {
      const to = pubkey(p[0]);
      const lamports = integer(p[1], 'lamports');
      if (!options.requestAirdrop) throw new RpcError(-32600, 'Invalid request: airdrops are not available on this node');
      return options.requestAirdrop(to, lamports);
    },
  };

  const handle = async (request: unknown): Promise<unknown> => {
    if (typeof request !== 'object' || request === null || Array.isArray(request)) {
      return { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid request' }, id: null };
    }
    const { id, method, params } = request as { id?: unknown; method?: unknown; params?: unknown };
    const reply = (body: Record<string, unknown>) => (id === undefined ? undefined : { jsonrpc: '2.0', ...body, id });
    if (typeof method !== 'string') return reply({ error: { code: -32600, message: 'Invalid request' } });
    const handler = Object.prototype.hasOwnProperty.call(handlers, method) ? handlers[method] : undefined;
    if (!handler) return reply({ error: { code: -32601, message: 'Method not found' } });
    calls.set(method, (calls.get(method) ?? 0) + 1);
    try {
      if (params !== undefined && !Array.isArray(params)) throw invalidParams('Invalid params: expected an array.');
      const result = await handler((params as Params | undefined) ?? []);
      return reply({ result });
    } catch (error) {
      if (error instanceof RpcError) return reply({ error: { code: error.code, message: error.message, ...(error.data !== undefined ? { data: error.data } : {}) } });
      options.log?.(`solana rpc: ${method} failed: ${(error as Error).stack ?? String(error)}`);
      return reply({ error: { code: -32603, message: `Internal error: ${(error as Error).message}` } });
    }
  };

  const server = http.createServer((req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Methods', 'POST, GET, OPTIONS');
    res.setHeader('Access-Control-Allow-Headers', 'Content-Type, solana-client');
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    if (req.method === 'GET' && (req.url ?? '').startsWith('/health')) return void res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
    if (req.method !== 'POST') return void res.writeHead(405, { Allow: 'POST' }).end('Used HTTP Method is not allowed. POST or OPTIONS is required');
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > 10 * 1024 * 1024) {
        res.writeHead(413).end();
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (res.writableEnded) return;
      const send = (body: unknown) => {
        const text = body === undefined ? '' : stringifyJson(body);
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(text);
      };
      let payload: unknown;
      try {
        payload = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return send({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null });
      }
      if (Array.isArray(payload)) {
        if (payload.length === 0) return send({ jsonrpc: '2.0', error: { code: -32600, message: 'Invalid request' }, id: null });
        void Promise.all(payload.map(handle)).then((answers) => send(answers.filter((a) => a !== undefined)));
      } else {
        void handle(payload).then(send);
      }
    });
  });

  // --- subscriptions ----------------------------------------------------------------------------------------------

  type Subscription =
    | { kind: 'slot' | 'root' }
    | { kind: 'signature'; signature: string }
    | { kind: 'account'; account: string; encoding: AccountEncoding }
    | { kind: 'logs'; mentions?: string };
  const connections = new Map<WebSocketConnection, Map<number, Subscription>>();
  let nextSubscription = 0;
  const notify = (connection: WebSocketConnection, method: string, subscription: number, result: unknown) => {
    connection.send(stringifyJson({ jsonrpc: '2.0', method, params: { result, subscription } }));
  };
  const notificationContext = (slot: bigint) => ({ slot });

  const onBlock = (block: Block) => {
    for (const [connection, subs] of connections) {
      for (const [id, sub] of subs) {
        switch (sub.kind) {
          case 'slot':
            notify(connection, 'slotNotification', id, { parent: block.parentSlot, root: block.slot, slot: block.slot });
            break;
          case 'root':
            notify(connection, 'rootNotification', id, block.slot);
            break;
          case 'signature': {
            const t = block.transactions.find((x) => x.decoded.signature === sub.signature);
            if (t) {
              notify(connection, 'signatureNotification', id, { context: notificationContext(block.slot), value: { err: t.err } });
              subs.delete(id);
            }
            break;
          }
          case 'account': {
            const touched = block.transactions.some((t: LandedTransaction) => t.keys.keys.some((k, i) => k === sub.account && t.keys.writable[i]));
            if (touched) {
              try {
                notify(connection, 'accountNotification', id, { context: notificationContext(block.slot), value: encodeAccount(ledger, ledger.account(sub.account), sub.encoding) });
              } catch {
                /* an encoding the account cannot take (base58 of a large account): nothing to send */
              }
            }
            break;
          }
          case 'logs':
            for (const t of block.transactions) {
              if (sub.mentions && !t.keys.keys.includes(sub.mentions as never)) continue;
              notify(connection, 'logsNotification', id, { context: notificationContext(block.slot), value: { err: t.err, logs: t.logs, signature: t.decoded.signature } });
            }
            break;
        }
      }
    }
  };
  ledger.on('block', onBlock);

  const subscribe = (connection: WebSocketConnection, method: string, params: Params): unknown => {
    const subs = connections.get(connection);
    if (!subs) throw new RpcError(-32603, 'Internal error: connection closed');
    const add = (sub: Subscription) => {
      const id = nextSubscription++;
      subs.set(id, sub);
      return id;
    };
    const unsubscribe = () => {
      const id = Number(params[0]);
      if (!Number.isInteger(id)) throw invalidParams('Invalid params: expected a subscription id.');
      if (!subs.has(id)) throw invalidParams('Invalid subscription id.');
      subs.delete(id);
      return true;
    };
    switch (method) {
      case 'slotSubscribe':
        return add({ kind: 'slot' });
      case 'rootSubscribe':
        return add({ kind: 'root' });
      case 'signatureSubscribe': {
        const signature = signatureParam(params[0]);
        const id = add({ kind: 'signature', signature });
        const t = ledger.transaction(signature);
        if (t) {
          // already landed: notify at once (after the subscription id has been answered)
          setImmediate(() => {
            if (!subs.has(id)) return;
            subs.delete(id);
            notify(connection, 'signatureNotification', id, { context: notificationContext(t.slot), value: { err: t.err } });
          });
        }
        return id;
      }
      case 'accountSubscribe': {
        const account = pubkey(params[0]);
        const encoding = accountEncoding(cfg(params, 1).encoding);
        return add({ kind: 'account', account, encoding });
      }
      case 'logsSubscribe': {
        const filter = params[0];
        if (filter === 'all' || filter === 'allWithVotes') return add({ kind: 'logs' });
        const mentions = (filter as { mentions?: unknown } | undefined)?.mentions;
        if (Array.isArray(mentions) && mentions.length === 1) return add({ kind: 'logs', mentions: pubkey(mentions[0]) });
        throw invalidParams('Invalid Request: Only 1 address supported');
      }
      case 'slotUnsubscribe':
      case 'rootUnsubscribe':
      case 'signatureUnsubscribe':
      case 'accountUnsubscribe':
      case 'logsUnsubscribe':
        return unsubscribe();
      default:
        throw new RpcError(-32601, 'Method not found');
    }
  };

  const onMessage = (connection: WebSocketConnection, text: string) => {
    let request: { id?: unknown; method?: unknown; params?: unknown };
    try {
      request = JSON.parse(text);
    } catch {
      connection.send(stringifyJson({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null }));
      return;
    }
    if (typeof request !== 'object' || request === null || request.id === undefined) return; // notifications (kit's "ping") get no answer
    const { id, method, params } = request;
    try {
      if (typeof method !== 'string') throw new RpcError(-32600, 'Invalid request');
      const result = subscribe(connection, method, Array.isArray(params) ? params : []);
      connection.send(stringifyJson({ jsonrpc: '2.0', result, id }));
    } catch (error) {
      const e = error instanceof RpcError ? error : new RpcError(-32603, `Internal error: ${(error as Error).message}`);
      connection.send(stringifyJson({ jsonrpc: '2.0', error: { code: e.code, message: e.message }, id }));
    }
  };

  const sockets = new Set<Duplex>();
  const webSockets = webSocketEndpoint({ onMessage, onClose: (c) => connections.delete(c) });
  server.on('upgrade', (req, socket: Duplex, head: Buffer) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    webSockets.accept(req, socket, head, (connection) => connections.set(connection, new Map()));
  });

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}`,
    wsUrl: `ws://${host}:${port}`,
    port,
    calls,
    async close() {
      ledger.off('block', onBlock);
      webSockets.close();
      for (const socket of sockets) socket.destroy();
      connections.clear();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

