/**
 * The Solana RPC's methods on transactions and blocks: send (with its preflight) and simulate, signature statuses, a
 * transaction, the signatures of an address, blocks, their times and lists, and airdrops.
 */
import {
  accountEncoding,
  encodeAccount,
  invalidParams,
  landedTransactionJson,
  metaJson,
  RpcError,
  toBase64,
  transactionEncoding,
  transactionJson,
  unsupportedVersion,
  type AccountEncoding,
  type TransactionEncoding,
} from './encoding';
import type { Ledger } from './ledger';
import { answerContext, atLeastConfirmed, cfg, integer, pubkey, signatureParam, transactionParam, type Handler } from './params';
import type { ExecutionOutcome } from './records';
import { verifySignatures, type DecodedTransaction } from './transaction';
import { transactionErrorText } from './transactionErrors';

/** What these methods take of the server's options (SolanaRpcOptions). */
export interface TransactionMethodOptions {
  /** requestAirdrop: sends `lamports` to `to` in a real transfer and returns its signature (none: the method fails). */
  readonly requestAirdrop?: (to: string, lamports: bigint) => Promise<string>;
  readonly log?: (line: string) => void;
}

/** The methods of this group, answering from `ledger`. */
export function transactionMethods(ledger: Ledger, options: TransactionMethodOptions): Record<string, Handler> {
  const { withContext, checkMinContextSlot } = answerContext(ledger);

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

  return {
    sendTransaction: (p) => {
      const c = cfg(p, 1);
      const decoded = transactionParam(p[0], c.encoding);
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
      const decoded = transactionParam(p[0], c.encoding);
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
}
