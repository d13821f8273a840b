/**
 * The log of what happened to each key (created, rotated, blocked...), with its time and who did it: an operator
 * through the CLI (`cli:<user>`), an import, a detector's rule, later a partner through the portal.
 */
import type { Kysely } from 'kysely';
import type { KeyEventType, Schema } from './schema';

export interface KeyEvent {
  readonly id: number;
  readonly keyId: string;
  readonly type: KeyEventType;
  /** ISO 8601. */
  readonly at: string;
  readonly actor: string;
  readonly detail?: Readonly<Record<string, unknown>>;
}

export interface NewKeyEvent {
  readonly keyId: string;
  readonly type: KeyEventType;
  readonly at: Date;
  readonly actor: string;
  readonly detail?: Readonly<Record<string, unknown>>;
}

/** Records an event; meant to run in the transaction of the change it describes. */
export async function recordKeyEvent(db: Kysely<Schema>, event: NewKeyEvent): Promise<void> {
  await db
    .insertInto('key_events')
    .values({
      key_id: event.keyId,
      type: event.type,
      at: event.at,
      actor: event.actor,
      detail: event.detail === undefined ? null : JSON.stringify(event.detail),
    })
    .execute();
}

/** A key's events, oldest first (at most `limit`, the newest ones). */
export async function keyEvents(db: Kysely<Schema>, keyId: string, options: { readonly limit?: number } = {}): Promise<KeyEvent[]> {
  const rows = await db
    .selectFrom('key_events')
    .selectAll()
    .where('key_id', '=', keyId)
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(options.limit ?? 1000)
    .execute();
  return rows.reverse().map((row) => ({
    id: row.id,
    keyId: row.key_id,
    type: row.type,
    at: new Date(row.at).toISOString(),
    actor: row.actor,
    ...(row.detail === null ? {} : { detail: row.detail }),
  }));
}
