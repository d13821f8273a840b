/**
 * The Solana RPC's methods on the chain and its accounts: health, version, identity, slots, block height, epochs,
 * blockhashes, rent, balances, accounts (one, several, a program's), token accounts, balances and supplies,
 * prioritization fees, the fee of a message.
 */
import { createHash } from 'node:crypto';
import { getBase58Decoder, getCompiledTransactionMessageDecoder } from '@solana/kit';
import { accountEncoding, dataSliceOf, encodeAccount, fromBase58, fromBase64, invalidParams } from './encoding';
import type { Ledger } from './ledger';
import { answerContext, cfg, integer, pubkey, SOLANA_CORE_VERSION, type Handler, type Params } from './params';
import { decodeMint, decodeTokenAccount, isTokenProgram, uiTokenAmount } from './tokens';
import type { CompiledMessage } from './transaction';

const FEATURE_SET = 3_640_012_085;

const base58 = getBase58Decoder();
const messageDecoder = getCompiledTransactionMessageDecoder();
const IDENTITY = base58.decode(createHash('sha256').update('xchain-router sandbox solana validator identity').digest());

/** The methods of this group, answering from `ledger`; `genesisHash` is what getGenesisHash answers. */
export function chainMethods(ledger: Ledger, genesisHash: string): Record<string, Handler> {
  const { withContext, checkMinContextSlot } = answerContext(ledger);

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

  return {
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
  };
}
