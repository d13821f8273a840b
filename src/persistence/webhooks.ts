/**
 * Integrators' webhooks and their deliveries (0006_transfer_events): the URL an integrator sets in the portal, the
 * secret its deliveries are signed with (shown once, when it is made), and the queue of deliveries the worker
 * (src/webhooks/worker.ts) sends. A delivery is claimed by one instance at a time (claimed_until: taken over after
 * it, when the instance died), sent in the order of its transfer's events (one is claimed only when no earlier
 * delivery of the same transfer to the same webhook is pending), and retried until delivered or out of attempts.
 */
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { TransferEvent } from '../core/status/events';
import { decodeStatus } from '../core/status/record';
import type { Schema } from './schema';

export interface Webhook {
  readonly id: string;
  readonly integratorId: string;
  readonly url: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** A webhook with its secret (only when it was just made or its secret renewed). */
export interface IssuedWebhook extends Webhook {
  readonly secret: string;
}

function webhookOf(row: { id: string; integrator_id: string; url: string; created_at: Date | string; updated_at: Date | string }): Webhook {
  return { id: row.id, integratorId: row.integrator_id, url: row.url, createdAt: new Date(row.created_at).toISOString(), updatedAt: new Date(row.updated_at).toISOString() };
}

export async function getWebhook(db: Kysely<Schema>, integratorId: string): Promise<Webhook | undefined> {
  const row = await db.selectFrom('webhooks').selectAll().where('integrator_id', '=', integratorId).executeTakeFirst();
  return row ? webhookOf(row) : undefined;
}

/** Makes the integrator's webhook with its first secret; a unique violation if it has one already (made meanwhile). */
export async function createWebhook(db: Kysely<Schema>, integratorId: string, url: string, secret: string, now: Date): Promise<IssuedWebhook> {
  const row = await db
    .insertInto('webhooks')
    .values({ id: `wh_${randomUUID().replace(/-/g, '')}`, integrator_id: integratorId, url, secret, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { ...webhookOf(row), secret };
}

/** Changes the URL of the integrator's webhook, keeping its secret (the receiver's check goes on working); undefined without one. */
export async function changeWebhookUrl(db: Kysely<Schema>, integratorId: string, url: string, now: Date): Promise<Webhook | undefined> {
  const row = await db.updateTable('webhooks').set({ url, updated_at: now }).where('integrator_id', '=', integratorId).returningAll().executeTakeFirst();
  return row ? webhookOf(row) : undefined;
}

/** Gives the integrator's webhook a new secret (its URL unchanged); undefined without one. */
export async function renewWebhookSecret(db: Kysely<Schema>, integratorId: string, secret: string, now: Date): Promise<IssuedWebhook | undefined> {
  const row = await db.updateTable('webhooks').set({ secret, updated_at: now }).where('integrator_id', '=', integratorId).returningAll().executeTakeFirst();
  return row ? { ...webhookOf(row), secret } : undefined;
}

/** Removes the integrator's webhook and its pending deliveries; whether there was one. */
export async function deleteWebhook(db: Kysely<Schema>, integratorId: string): Promise<boolean> {
  const result = await db.deleteFrom('webhooks').where('integrator_id', '=', integratorId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export interface DeliveryView {
  readonly id: string;
  readonly txHash: string;
  readonly status: string;
  readonly state: 'pending' | 'delivered' | 'failed';
  readonly attempts: number;
  readonly lastStatus?: number;
  readonly lastError?: string;
  readonly createdAt: string;
  readonly deliveredAt?: string;
  readonly nextAttemptAt?: string;
}

/** The webhook's latest deliveries, newest first (the portal shows them). */
export async function recentDeliveries(db: Kysely<Schema>, integratorId: string, limit: number): Promise<DeliveryView[]> {
  const rows = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .innerJoin('transfer_events as e', 'e.seq', 'd.event_seq')
    .select(['d.id', 'd.tx_hash', 'e.status', 'd.state', 'd.attempts', 'd.last_status', 'd.last_error', 'd.created_at', 'd.delivered_at', 'd.next_attempt_at'])
    .where('w.integrator_id', '=', integratorId)
    .orderBy('d.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: String(row.id),
    txHash: row.tx_hash,
    status: row.status,
    state: row.state,
    attempts: row.attempts,
    ...(row.last_status !== null ? { lastStatus: row.last_status } : {}),
    ...(row.last_error !== null ? { lastError: row.last_error } : {}),
    createdAt: new Date(row.created_at).toISOString(),
    ...(row.delivered_at !== null ? { deliveredAt: new Date(row.delivered_at).toISOString() } : {}),
    ...(row.state === 'pending' ? { nextAttemptAt: new Date(row.next_attempt_at).toISOString() } : {}),
  }));
}

// ---------------------------------------------------------------------------------------------------------------
// The worker's queue

/** A delivery to send: where, with which secret, and the event. */
export interface DueDelivery {
  readonly id: string;
  readonly url: string;
  readonly secret: string;
  readonly integratorId: string;
  readonly attempts: number;
  readonly event: TransferEvent;
}

/**
 * Claims up to `limit` deliveries that are due for `holder` until `now + claimMs`: pending, their next attempt
 * reached, not claimed by an instance whose claim holds, and first of their transfer (no earlier event of the same
 * transfer pending for the same webhook). Rows another transaction holds are skipped (FOR UPDATE SKIP LOCKED).
 */
export async function claimDueDeliveries(db: Kysely<Schema>, holder: string, options: { readonly now: Date; readonly claimMs: number; readonly limit: number }): Promise<DueDelivery[]> {
  const { now } = options;
  const until = new Date(now.getTime() + options.claimMs);
  const claimed = await sql<{ id: string | number }>`
    update webhook_deliveries set claimed_by = ${holder}, claimed_until = ${until}
    where id in (
      select d.id from webhook_deliveries d
      where d.state = 'pending' and d.next_attempt_at <= ${now}
        and (d.claimed_until is null or d.claimed_until < ${now})
        and not exists (
          select 1 from webhook_deliveries e
          where e.webhook_id = d.webhook_id and e.chain_id = d.chain_id and e.tx_hash = d.tx_hash
            and e.state = 'pending' and e.event_seq < d.event_seq)
      order by d.event_seq
      limit ${options.limit}
      for update skip locked)
    returning id`.execute(db);
  if (claimed.rows.length === 0) return [];
  const rows = await db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .innerJoin('transfer_events as e', 'e.seq', 'd.event_seq')
    .select(['d.id', 'd.attempts', 'w.url', 'w.secret', 'w.integrator_id', 'e.seq', 'e.chain_id', 'e.tx_hash', 'e.transfer_id', 'e.record'])
    .where('d.id', 'in', claimed.rows.map((row) => String(row.id)))
    .orderBy('e.seq')
    .execute();
  return rows.map((row) => ({
    id: String(row.id),
    url: row.url,
    secret: row.secret,
    integratorId: row.integrator_id,
    attempts: row.attempts,
    event: { id: String(row.seq), chainId: Number(row.chain_id), txHash: row.tx_hash, ...(row.transfer_id ? { transferId: row.transfer_id } : {}), status: decodeStatus(row.record) },
  }));
}

/** Records an attempt of a delivery `holder` claimed: delivered, retried at `retryAt`, or failed for good (no retryAt). */
export async function recordAttempt(
  db: Kysely<Schema>,
  id: string,
  holder: string,
  outcome: { readonly delivered: boolean; readonly status?: number; readonly error?: string; readonly retryAt?: Date; readonly now: Date },
): Promise<void> {
  const state = outcome.delivered ? 'delivered' : outcome.retryAt ? 'pending' : 'failed';
  await db
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      state,
      attempts: eb('attempts', '+', 1),
      last_status: outcome.status ?? null,
      last_error: outcome.error?.slice(0, 500) ?? null,
      claimed_by: null,
      claimed_until: null,
      ...(outcome.delivered ? { delivered_at: outcome.now } : {}),
      ...(outcome.retryAt ? { next_attempt_at: outcome.retryAt } : {}),
    }))
    .where('id', '=', id)
    .where('claimed_by', '=', holder)
    .execute();
}
