/**
 * The transfer index (0005_transfers): every transfer the indexer (src/chain/transferIndexer.ts) found on a
 * connected chain, keyed by its sending transaction (two executions of one quote are two transfers), with its status
 * as the tracker last read it; and each chain's indexer cursor, with the lease that makes one instance its only
 * writer. Reads: a wallet's or an integrator's transfers newest first, by pages whose cursor is the last row's
 * (started_at, seq), so that rows arriving meanwhile neither repeat nor hide a row of the pages that follow; and the
 * counts and volumes of a time range.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import { transactionKey, type PagePosition, type TransferFilter, type TransferHistory, type TransferPage, type TransferSummary } from '../core/status/history';
import { decodeStatus, encodeStatus, sentUsd } from '../core/status/record';
import { isFinal, type TransferStatus } from '../core/status/transferStatus';
import type { Schema } from './schema';
import { appendTransferEvent } from './transferEvents';

/** A transfer as the indexer saves it. */
export interface IndexedTransfer {
  readonly chainId: number;
  readonly txHash: string;
  readonly blockNumber: number;
  readonly blockHash: string;
  readonly status: TransferStatus;
}


/**
 * Adds the transfer, or updates its status (same sending transaction). A NOT_FOUND status is not saved. When the
 * state (status, substatus) is new for the transfer, it is also appended to the transfer's events, with a delivery
 * to the webhook of the transfer's integrator (transferEvents.ts): in the caller's transaction (the indexer's), so
 * that a state is in the index exactly when its event is.
 */
export async function saveTransfer(db: Kysely<Schema>, transfer: IndexedTransfer, now: Date): Promise<void> {
  const { status } = transfer;
  if (status.status === 'NOT_FOUND') return;
  const txHash = transactionKey(transfer.txHash);
  const before = await db
    .selectFrom('transfers')
    .select(['status', 'substatus'])
    .where('chain_id', '=', transfer.chainId)
    .where('tx_hash', '=', txHash)
    .executeTakeFirst();
  const timestamp = status.sending?.timestamp;
  const columns = {
    block_number: transfer.blockNumber,
    block_hash: transfer.blockHash,
    started_at: timestamp === undefined ? now : new Date(timestamp * 1000),
    transfer_id: status.transactionId?.toLowerCase() ?? null,
    integrator: status.integrator || null,
    from_address: status.fromAddress?.toLowerCase() ?? null,
    to_address: status.toAddress?.toLowerCase() ?? null,
    to_chain_id: status.receiving?.chainId ?? null,
    status: status.status,
    substatus: status.substatus ?? null,
    tool: status.tool ?? null,
    amount_usd: sentUsd(status) ?? null,
    final: isFinal(status.status),
    record: encodeStatus(status),
    updated_at: now,
  };
  await db
    .insertInto('transfers')
    .values({ chain_id: transfer.chainId, tx_hash: txHash, ...columns })
    .onConflict((oc) => oc.columns(['chain_id', 'tx_hash']).doUpdateSet(columns))
    .execute();
  if (!before || before.status !== status.status || before.substatus !== (status.substatus ?? null)) {
    await appendTransferEvent(db, { chainId: transfer.chainId, txHash, ...columns, record: columns.record }, now);
  }
}

/** Removes the chain's transfers from `block` on (their blocks were replaced by a reorganisation); how many. */
export async function forgetFromBlock(db: Kysely<Schema>, chainId: number, block: number): Promise<number> {
  const result = await db.deleteFrom('transfers').where('chain_id', '=', chainId).where('block_number', '>=', block).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The chain's transfers not final yet (their status is read again), oldest first, at most `limit`. */
export async function unsettledTransfers(db: Kysely<Schema>, chainId: number, limit: number): Promise<{ txHash: string; blockNumber: number; blockHash: string }[]> {
  const rows = await db
    .selectFrom('transfers')
    .select(['tx_hash', 'block_number', 'block_hash'])
    .where('chain_id', '=', chainId)
    .where('final', '=', false)
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ txHash: row.tx_hash, blockNumber: Number(row.block_number), blockHash: row.block_hash }));
}

/** The transfer of a sending transaction hash (any chain) or of a router transfer id, newest first; undefined if none. */
export async function findTransfer(db: Kysely<Schema>, ref: string): Promise<TransferStatus | undefined> {
  const row = await db
    .selectFrom('transfers')
    .select('record')
    .where((eb) => eb.or([eb('tx_hash', '=', transactionKey(ref)), eb('transfer_id', '=', ref.toLowerCase())]))
    .orderBy('started_at', 'desc')
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? decodeStatus(row.record) : undefined;
}

/** Transfers matching `filter`, newest first, `limit` at most, after `after` (a previous page's `next`). */
export async function listTransfers(db: Kysely<Schema>, filter: TransferFilter, page: { readonly limit: number; readonly after?: PagePosition }): Promise<TransferPage> {
  let query = filtered(db, filter).select(['record', 'started_at', 'seq']);
  const { after } = page;
  if (after) {
    const at = new Date(after.startedAt);
    query = query.where((eb) => eb.or([eb('started_at', '<', at), eb.and([eb('started_at', '=', at), eb('seq', '<', after.seq)])]));
  }
  const rows = await query.orderBy('started_at', 'desc').orderBy('seq', 'desc').limit(page.limit + 1).execute();
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  return {
    transfers: shown.map((row) => decodeStatus(row.record)),
    ...(rows.length > page.limit && last ? { next: { startedAt: new Date(last.started_at).getTime(), seq: String(last.seq) } } : {}),
  };
}

/** Counts and USD volumes of the transfers matching `filter`: in all, by status, by sending chain, by tool. */
export async function summarizeTransfers(db: Kysely<Schema>, filter: TransferFilter): Promise<TransferSummary> {
  const grouped = async (column: 'status' | 'chain_id' | 'tool') => {
    const rows = await filtered(db, filter)
      .select((eb) => [eb.ref(column).as('key'), eb.fn.countAll<string | number>().as('count'), eb.fn.coalesce(eb.fn.sum<number | string | null>('amount_usd'), sql<number>`0`).as('volume')])
      .groupBy(column)
      .orderBy(column)
      .execute();
    return rows.map((row) => ({ key: row.key as string | number | null, count: Number(row.count), volumeUsd: Number(row.volume) }));
  };
  const [byStatus, byChain, byTool] = await Promise.all([grouped('status'), grouped('chain_id'), grouped('tool')]);
  return {
    count: byStatus.reduce((sum, g) => sum + g.count, 0),
    volumeUsd: byStatus.reduce((sum, g) => sum + g.volumeUsd, 0),
    byStatus: byStatus.map((g) => ({ ...g, key: String(g.key) })),
    byChain: byChain.map((g) => ({ ...g, key: Number(g.key) })),
    byTool: byTool.map((g) => ({ ...g, key: g.key === null ? 'unknown' : String(g.key) })),
  };
}

function filtered(db: Kysely<Schema>, filter: TransferFilter) {
  let query = db.selectFrom('transfers');
  if (filter.wallet) {
    const wallet = filter.wallet.toLowerCase();
    query = query.where((eb) => eb.or([eb('from_address', '=', wallet), eb('to_address', '=', wallet)]));
  }
  if (filter.integrator) query = query.where('integrator', '=', filter.integrator);
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.from) query = query.where('started_at', '>=', filter.from);
  if (filter.to) query = query.where('started_at', '<=', filter.to);
  return query;
}

// ---------------------------------------------------------------------------------------------------------------
// The indexer's cursor and lease

export interface ChainCursor {
  /** The first block not read yet. */
  readonly nextBlock: number;
  /** The hash of block nextBlock - 1 when it was read. */
  readonly lastHash?: string;
}

/**
 * Takes (or renews) the lease on indexing `chainId` for `holder` until `now + leaseMs`: granted when nobody holds it,
 * `holder` does, or the holder's lease ran out (it stopped or died). The cursor starts at `startBlock` the first
 * time. Undefined when another instance holds a lease in force.
 */
export async function claimChain(db: Kysely<Schema>, chainId: number, holder: string, options: { readonly now: Date; readonly leaseMs: number; readonly startBlock: number }): Promise<ChainCursor | undefined> {
  await db.insertInto('indexer_cursors').values({ chain_id: chainId, next_block: options.startBlock }).onConflict((oc) => oc.column('chain_id').doNothing()).execute();
  const row = await db
    .updateTable('indexer_cursors')
    .set({ holder, lease_until: new Date(options.now.getTime() + options.leaseMs) })
    .where('chain_id', '=', chainId)
    .where((eb) => eb.or([eb('holder', 'is', null), eb('holder', '=', holder), eb('lease_until', '<', options.now)]))
    .returning(['next_block', 'last_hash'])
    .executeTakeFirst();
  return row ? { nextBlock: Number(row.next_block), ...(row.last_hash ? { lastHash: row.last_hash } : {}) } : undefined;
}

/** Gives the lease up (a clean stop: another instance takes the chain at once). */
export async function releaseChain(db: Kysely<Schema>, chainId: number, holder: string): Promise<void> {
  await db.updateTable('indexer_cursors').set({ holder: null, lease_until: null }).where('chain_id', '=', chainId).where('holder', '=', holder).execute();
}

export class LeaseLostError extends Error {
  override readonly name = 'LeaseLostError';
}

/**
 * Runs `write` in a transaction that holds the chain's cursor row, only while `holder`'s lease is in force (else
 * LeaseLostError, nothing written): the indexer's writes of a range and its cursor move together, and an instance
 * whose lease was taken over writes nothing.
 */
export async function asChainWriter<T>(db: Kysely<Schema>, chainId: number, holder: string, now: Date, write: (trx: Transaction<Schema>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('indexer_cursors').select(['holder', 'lease_until']).where('chain_id', '=', chainId).forUpdate().executeTakeFirst();
    if (!row || row.holder !== holder || !row.lease_until || new Date(row.lease_until).getTime() <= now.getTime()) {
      throw new LeaseLostError(`the lease on indexing chain ${chainId} is not ${holder}'s any more`);
    }
    return write(trx);
  });
}

/** Moves the chain's cursor (within asChainWriter). */
export async function moveCursor(trx: Kysely<Schema>, chainId: number, cursor: ChainCursor): Promise<void> {
  await trx.updateTable('indexer_cursors').set({ next_block: cursor.nextBlock, last_hash: cursor.lastHash ?? null }).where('chain_id', '=', chainId).execute();
}

/** The transfer history of the service's database (the TransferHistory port); `db` may still be opening. */
export function databaseHistory(db: () => Promise<Kysely<Schema>>): TransferHistory {
  return {
    list: async (filter, page) => listTransfers(await db(), filter, page),
    summary: async (filter) => summarizeTransfers(await db(), filter),
    find: async (ref) => findTransfer(await db(), ref),
    rememberFailed: async (status) => {
      const sending = status.sending;
      if (status.status !== 'FAILED' || !sending?.txHash || sending.block === undefined) return;
      // the block's hash is not in a status: a reorganisation forgets the row by its block number (forgetFromBlock)
      await saveTransfer(await db(), { chainId: sending.chainId, txHash: sending.txHash, blockNumber: sending.block, blockHash: '', status }, new Date());
    },
  };
}
