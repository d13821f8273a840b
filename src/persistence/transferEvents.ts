/**
 * The transfer events (0006_transfer_events): each state a transfer of the index took, appended by saveTransfer in
 * the indexer's transaction, with one delivery per webhook of the transfer's integrator (webhooks.ts sends them); and
 * the feed that hands them to this instance's subscribers (GET /v1/status/stream).
 *
 * The feed reads the table every pollIntervalMs while anyone subscribes (one query per instance, whatever the number
 * of subscribers), every event of every instance's indexer. Sequence numbers are handed out when a row is inserted
 * but become visible when its transaction commits, so two chains' writers can commit out of order: a number skipped
 * in a read (a gap) is looked for again for GAP_MS, after which it is taken for a rolled-back insert.
 */
import type { Kysely, Selectable } from 'kysely';
import type { Logger } from 'pino';
import { followedBy, type TransferEvent, type TransferEvents, type TransferSubscription } from '../core/status/events';
import { transactionKey } from '../core/status/history';
import { decodeStatus } from '../core/status/record';
import type { Schema, TransferEventsTable } from './schema';

/** How long a skipped sequence number is looked for (a transaction that took longer is not expected). */
const GAP_MS = 30_000;
/** Skipped sequence numbers looked for after one read, at most. */
const MAX_GAPS = 1000n;
/** Events read per query, at most. */
const BATCH = 500;

export interface NewTransferEvent {
  readonly chainId: number;
  readonly txHash: string;
  readonly transfer_id: string | null;
  readonly integrator: string | null;
  readonly from_address: string | null;
  readonly to_address: string | null;
  readonly status: string;
  readonly substatus: string | null;
  readonly record: string;
}

/** Appends a transfer's new state, and a pending delivery of it to its integrator's webhook (if it has one). */
export async function appendTransferEvent(db: Kysely<Schema>, event: NewTransferEvent, now: Date): Promise<void> {
  const { seq } = await db
    .insertInto('transfer_events')
    .values({
      chain_id: event.chainId,
      tx_hash: event.txHash,
      transfer_id: event.transfer_id,
      integrator: event.integrator,
      from_address: event.from_address,
      to_address: event.to_address,
      status: event.status,
      substatus: event.substatus,
      record: event.record,
      created_at: now,
    })
    .returning('seq')
    .executeTakeFirstOrThrow();
  if (event.integrator === null) return;
  const webhooks = await db.selectFrom('webhooks').select('id').where((eb) => eb(eb.fn('lower', ['integrator_id']), '=', event.integrator!.toLowerCase())).execute();
  for (const webhook of webhooks) {
    await db
      .insertInto('webhook_deliveries')
      .values({ webhook_id: webhook.id, event_seq: seq, chain_id: event.chainId, tx_hash: event.txHash, state: 'pending', next_attempt_at: now, created_at: now })
      .execute();
  }
}

function eventOf(row: Selectable<TransferEventsTable>): TransferEvent {
  return {
    id: String(row.seq),
    chainId: Number(row.chain_id),
    txHash: row.tx_hash,
    ...(row.transfer_id ? { transferId: row.transfer_id } : {}),
    status: decodeStatus(row.record),
  };
}

/** The newest event's sequence number ('0' when there is none). */
export async function latestEventSeq(db: Kysely<Schema>): Promise<bigint> {
  const row = await db.selectFrom('transfer_events').select((eb) => eb.fn.max('seq').as('seq')).executeTakeFirst();
  return row?.seq === null || row?.seq === undefined ? 0n : BigInt(row.seq);
}

/** Events after `after` (and those numbered in `also`), in sequence order, `limit` at most. */
export async function eventsAfter(db: Kysely<Schema>, after: bigint, also: readonly bigint[], limit: number): Promise<TransferEvent[]> {
  const rows = await db
    .selectFrom('transfer_events')
    .selectAll()
    .where((eb) => (also.length > 0 ? eb.or([eb('seq', '>', after.toString()), eb('seq', 'in', also.map(String))]) : eb('seq', '>', after.toString())))
    .orderBy('seq')
    .limit(limit)
    .execute();
  return rows.map(eventOf);
}

/** The events of a subscription after `after`, in sequence order, `limit` at most (what a reconnecting stream missed). */
export async function subscriptionEventsAfter(db: Kysely<Schema>, subscription: TransferSubscription, after: bigint, limit: number): Promise<TransferEvent[]> {
  let query = db.selectFrom('transfer_events').selectAll().where('seq', '>', after.toString());
  if ('ref' in subscription) {
    const { ref } = subscription;
    query = query.where((eb) => eb.or([eb('tx_hash', '=', transactionKey(ref)), eb('transfer_id', '=', ref.toLowerCase())]));
  } else {
    const wallet = subscription.wallet.toLowerCase();
    query = query.where((eb) => eb.or([eb('from_address', '=', wallet), eb('to_address', '=', wallet)]));
  }
  const rows = await query.orderBy('seq').limit(limit).execute();
  return rows.map(eventOf);
}

interface Subscriber {
  readonly subscription: TransferSubscription;
  readonly onEvent: (event: TransferEvent) => void;
}

export interface TransferEventFeedOptions {
  /** How often the table is read while anyone subscribes (default 1000 ms). */
  readonly pollIntervalMs?: number;
  readonly logger?: Logger;
  readonly clock?: () => number;
}

/** This instance's subscribers to the transfer events (see the module comment); close() on shutdown. */
export class TransferEventFeed implements TransferEvents {
  private readonly subscribers = new Set<Subscriber>();
  /** The highest sequence number read; undefined until the first subscriber. */
  private cursor?: bigint;
  /** Skipped sequence numbers, until when they are looked for (unix ms). */
  private readonly gaps = new Map<bigint, number>();
  private timer?: NodeJS.Timeout;
  private reading?: Promise<void>;
  private closed = false;
  private lastFailureLogged = 0;

  constructor(
    private readonly db: () => Promise<Kysely<Schema>>,
    private readonly options: TransferEventFeedOptions = {},
  ) {}

  async subscribe(subscription: TransferSubscription, onEvent: (event: TransferEvent) => void, after?: string): Promise<() => void> {
    if (this.cursor === undefined) {
      const latest = await latestEventSeq(await this.db());
      this.cursor ??= latest;
    }
    const subscriber: Subscriber = { subscription, onEvent };
    if (after !== undefined && /^\d{1,19}$/.test(after)) {
      // what it missed, then the live events it has not had: those read meanwhile are held back until then
      const held: TransferEvent[] = [];
      const holding: Subscriber = { subscription, onEvent: (event) => held.push(event) };
      this.subscribers.add(holding);
      try {
        const missed = await subscriptionEventsAfter(await this.db(), subscription, BigInt(after), BATCH);
        const sent = new Set(missed.map((event) => event.id));
        for (const event of [...missed, ...held.filter((event) => !sent.has(event.id))]) onEvent(event);
      } finally {
        this.subscribers.delete(holding);
      }
    }
    this.subscribers.add(subscriber);
    this.schedule();
    return () => {
      this.subscribers.delete(subscriber);
    };
  }

  get subscriberCount(): number {
    return this.subscribers.size;
  }

  /** Stops reading; subscribers get nothing more. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.reading;
  }

  private schedule(): void {
    if (this.closed || this.timer || this.reading) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.subscribers.size === 0) return; // idle: the next subscriber starts the reads again
      this.reading = this.read().finally(() => {
        this.reading = undefined;
        this.schedule();
      });
    }, this.options.pollIntervalMs ?? 1000);
  }

  /** Reads the events after the cursor (and the gaps) and hands each to its subscribers. */
  private async read(): Promise<void> {
    try {
      const db = await this.db();
      for (;;) {
        const now = (this.options.clock ?? Date.now)();
        for (const [seq, until] of this.gaps) if (until <= now) this.gaps.delete(seq);
        const cursor = this.cursor ?? 0n;
        const events = await eventsAfter(db, cursor, [...this.gaps.keys()], BATCH);
        let highest = cursor;
        for (const event of events) {
          const seq = BigInt(event.id);
          this.gaps.delete(seq);
          if (seq > highest) {
            // (a jump of more than MAX_GAPS is a sequence's restart after a crash, not transactions in flight)
            for (let skipped = highest + 1n; skipped < seq && skipped <= highest + MAX_GAPS; skipped += 1n) this.gaps.set(skipped, now + GAP_MS);
            highest = seq;
          }
          for (const subscriber of this.subscribers) {
            if (followedBy(subscriber.subscription, event)) subscriber.onEvent(event);
          }
        }
        this.cursor = highest;
        if (events.length < BATCH) return;
      }
    } catch (error) {
      const now = Date.now();
      if (now - this.lastFailureLogged >= 30_000) {
        this.lastFailureLogged = now;
        this.options.logger?.warn({ err: { message: (error as Error).message } }, `transfer events not read: ${(error as Error).message}`);
      }
    }
  }
}
