/**
 * The webhook worker: sends the pending deliveries of the integrators' webhooks (src/persistence/webhooks.ts), on
 * every instance that has the database. Each poll it claims a batch of due deliveries (one instance per delivery,
 * the first pending event of each transfer only: deliveries are ordered per transfer), posts each event signed
 * (signature.ts) to its webhook's URL through the target checks at connect time (target.ts), and records the
 * outcome: delivered on a 2xx, else retried on the schedule of backoff.ts, failed for good when it runs out.
 * Delivery is at least once: a receiver that answered after the claim ran out may get the same delivery again, with
 * the same X-Webhook-Id.
 *
 * The body: `{ "id": "<delivery id>", "type": "transfer.status", "sequence": "<event id>", "data": StatusResponse }`.
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { TransferStatus } from '../core/status/transferStatus';
import type { Schema } from '../persistence/schema';
import { claimDueDeliveries, recordAttempt, type DueDelivery } from '../persistence/webhooks';
import { nextAttemptDelayMs } from './backoff';
import { signWebhook, WEBHOOK_ID_HEADER, WEBHOOK_SIGNATURE_HEADER } from './signature';
import { deliverWebhook, WebhookUrlError, type HostLookup } from './target';

export const WEBHOOK_EVENT_HEADER = 'x-webhook-event';

export interface WebhookWorkerOptions {
  readonly db: () => Promise<Kysely<Schema>>;
  /** A status as the API answers it (the contract's StatusResponse). */
  readonly toWire: (status: TransferStatus) => unknown;
  /** This instance's name in the claims (unique per process). */
  readonly holder: string;
  readonly allowPrivate: boolean;
  readonly logger: Logger;
  /** How often due deliveries are looked for (default 1000 ms). */
  readonly pollIntervalMs?: number;
  /** How long a claim lasts (default 60 s: longer than a delivery's timeout). */
  readonly claimMs?: number;
  /** A receiver's time to answer (default 10 s). */
  readonly timeoutMs?: number;
  /** Deliveries sent at the same time, at most (default 10). */
  readonly batch?: number;
  readonly clock?: () => number;
  /** Name resolution (tests). */
  readonly lookup?: HostLookup;
}

export class WebhookWorker {
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;
  private stopped = false;
  private lastFailureLogged = 0;

  constructor(private readonly options: WebhookWorkerOptions) {}

  private now(): Date {
    return new Date((this.options.clock ?? Date.now)());
  }

  /** Sends the deliveries due now (a batch, and the next ones while a batch is full); how many were attempted. */
  async runOnce(): Promise<number> {
    const db = await this.options.db();
    const batch = this.options.batch ?? 10;
    let attempted = 0;
    for (;;) {
      const due = await claimDueDeliveries(db, this.options.holder, { now: this.now(), claimMs: this.options.claimMs ?? 60_000, limit: batch });
      await Promise.all(due.map((delivery) => this.send(db, delivery)));
      attempted += due.length;
      if (due.length < batch || this.stopped) return attempted;
    }
  }

  private async send(db: Kysely<Schema>, delivery: DueDelivery): Promise<void> {
    const body = JSON.stringify({ id: delivery.id, type: 'transfer.status', sequence: delivery.event.id, data: this.options.toWire(delivery.event.status) });
    const timestampSec = Math.floor(this.now().getTime() / 1000);
    const headers = {
      [WEBHOOK_ID_HEADER]: delivery.id,
      [WEBHOOK_EVENT_HEADER]: 'transfer.status',
      [WEBHOOK_SIGNATURE_HEADER]: signWebhook(delivery.secret, body, timestampSec),
    };
    let outcome: { ok: boolean; status?: number; error?: string };
    try {
      outcome = await deliverWebhook(new URL(delivery.url), body, headers, {
        allowPrivate: this.options.allowPrivate,
        timeoutMs: this.options.timeoutMs ?? 10_000,
        ...(this.options.lookup ? { lookup: this.options.lookup } : {}),
      });
    } catch (error) {
      outcome = { ok: false, error: error instanceof WebhookUrlError || error instanceof Error ? error.message : String(error) };
    }
    const now = this.now();
    const delay = outcome.ok ? undefined : nextAttemptDelayMs(delivery.attempts + 1);
    await recordAttempt(db, delivery.id, this.options.holder, {
      delivered: outcome.ok,
      now,
      ...(outcome.status !== undefined ? { status: outcome.status } : {}),
      ...(outcome.error !== undefined ? { error: outcome.error } : {}),
      ...(delay !== undefined ? { retryAt: new Date(now.getTime() + delay) } : {}),
    });
    if (!outcome.ok) {
      this.options.logger.info(
        { delivery: delivery.id, integrator: delivery.integratorId, status: outcome.status, attempts: delivery.attempts + 1, retry: delay !== undefined },
        `webhook delivery ${delivery.id} to integrator ${delivery.integratorId} failed: ${outcome.error ?? `HTTP ${outcome.status}`}`,
      );
    }
  }

  /** Sends due deliveries every pollIntervalMs until stop(). */
  start(): void {
    const tick = () => {
      if (this.stopped) return;
      this.running = this.runOnce()
        .catch((error: Error) => {
          if (Date.now() - this.lastFailureLogged >= 30_000) {
            this.lastFailureLogged = Date.now();
            this.options.logger.warn({ err: { message: error.message } }, `webhook deliveries not sent: ${error.message}`);
          }
        })
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(tick, this.options.pollIntervalMs ?? 1000);
        });
    };
    tick();
  }

  /** Stops polling and waits for the deliveries in flight (their claims are recorded). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
