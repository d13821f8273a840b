/**
 * Blocks of a subject (an API key or a client address): refused until a time, or until lifted. A block is made by a
 * rule (an automatic detector, or `manual` for an operator) and keeps its history: `level` counts the subject's
 * blocks so far, so that a caller can block a repeat offender for longer, and a lifted block stays, with who lifted
 * it and when. A block of a key also goes into the key's event log.
 */
import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import { recordKeyEvent } from './keyEvents';
import { InvalidValueError } from './errors';
import type { BlockRow, BlockRule, Schema, Subject } from './schema';

export interface Block {
  readonly id: number;
  readonly subject: Subject;
  readonly rule: BlockRule;
  readonly reason: string;
  /** ISO 8601. */
  readonly since: string;
  /** Absent: until lifted. */
  readonly until?: string;
  /** 1 for the subject's first block, n for its n-th. */
  readonly level: number;
  readonly createdBy: string;
  readonly liftedAt?: string;
  readonly liftedBy?: string;
}

export interface BlockInput {
  readonly subject: Subject;
  readonly rule: BlockRule;
  readonly reason: string;
  /** Who decides it: `cli:<user>`, a detector's name... */
  readonly actor: string;
  readonly now?: Date;
  /**
   * The end of the block; null or absent: until lifted. A function gets the block's level (1 for the subject's
   * first block) to grow the duration for repeat offenders.
   */
  readonly until?: Date | null | ((level: number) => Date | null);
}

/** Blocks a subject (in a transaction of its own); returns the block with its level. */
export async function block(db: Kysely<Schema>, input: BlockInput): Promise<Block> {
  return db.transaction().execute((trx) => insertBlock(trx, input));
}

/** `block` within the caller's transaction. */
export async function insertBlock(trx: Kysely<Schema>, input: BlockInput): Promise<Block> {
  const now = input.now ?? new Date();
  const { subject } = input;
  // one block of a subject at a time, so that two instances blocking it together get levels n and n + 1
  await sql`select pg_advisory_xact_lock(hashtext(${`block:${subject.kind}:${subject.id}`}))`.execute(trx);
  const { count } = await trx
    .selectFrom('blocks')
    .select((eb) => eb.fn.countAll().as('count'))
    .where('subject_kind', '=', subject.kind)
    .where('subject', '=', subject.id)
    .executeTakeFirstOrThrow();
  const level = Number(count) + 1;
  const until = typeof input.until === 'function' ? input.until(level) : (input.until ?? null);
  if (until !== null && until.getTime() <= now.getTime()) throw new InvalidValueError(`a block must end after it starts (until ${until.toISOString()})`);
  const row = await trx
    .insertInto('blocks')
    .values({ subject_kind: subject.kind, subject: subject.id, rule: input.rule, reason: input.reason, since: now, until, level, created_by: input.actor })
    .returningAll()
    .executeTakeFirstOrThrow();
  if (subject.kind === 'key' && (await keyExists(trx, subject.id))) {
    await recordKeyEvent(trx, {
      keyId: subject.id,
      type: 'blocked',
      at: now,
      actor: input.actor,
      detail: { rule: input.rule, reason: input.reason, until: until?.toISOString() ?? null, level },
    });
  }
  return toBlock(row);
}

/** The subject's blocks in force at `now` (not lifted, started, not ended), newest first. */
export async function activeBlocks(db: Kysely<Schema>, subject: Subject, now: Date = new Date()): Promise<Block[]> {
  const rows = await db
    .selectFrom('blocks')
    .selectAll()
    .where('subject_kind', '=', subject.kind)
    .where('subject', '=', subject.id)
    .where((eb) => inForce(eb, now))
    .orderBy('since', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(toBlock);
}

/** How many blocks the subject has had (lifted and ended ones included). */
export async function blockCount(db: Kysely<Schema>, subject: Subject): Promise<number> {
  const { count } = await db
    .selectFrom('blocks')
    .select((eb) => eb.fn.countAll().as('count'))
    .where('subject_kind', '=', subject.kind)
    .where('subject', '=', subject.id)
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** Lifts every block of the subject in force at `now` (manual and automatic); returns the blocks lifted. */
export async function liftBlocks(db: Kysely<Schema>, subject: Subject, options: { readonly actor: string; readonly now?: Date }): Promise<Block[]> {
  const now = options.now ?? new Date();
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .updateTable('blocks')
      .set({ lifted_at: now, lifted_by: options.actor })
      .where('subject_kind', '=', subject.kind)
      .where('subject', '=', subject.id)
      .where((eb) => inForce(eb, now))
      .returningAll()
      .execute();
    if (rows.length > 0 && subject.kind === 'key' && (await keyExists(trx, subject.id))) {
      await recordKeyEvent(trx, {
        keyId: subject.id,
        type: 'unblocked',
        at: now,
        actor: options.actor,
        detail: { lifted: rows.map((row) => ({ rule: row.rule, since: new Date(row.since).toISOString() })) },
      });
    }
    return rows.map(toBlock).sort((a, b) => b.since.localeCompare(a.since) || b.id - a.id);
  });
}

export interface BlockListOptions {
  /** true: only blocks in force at `now`; false: only the others (ended or lifted); absent: all. */
  readonly active?: boolean;
  readonly now?: Date;
  readonly subject?: Subject;
  /** The most blocks returned, newest first (default 1000). */
  readonly limit?: number;
}

/** Blocks, newest first. */
export async function listBlocks(db: Kysely<Schema>, options: BlockListOptions = {}): Promise<Block[]> {
  const now = options.now ?? new Date();
  let query = db.selectFrom('blocks').selectAll();
  if (options.subject) query = query.where('subject_kind', '=', options.subject.kind).where('subject', '=', options.subject.id);
  if (options.active === true) query = query.where((eb) => inForce(eb, now));
  if (options.active === false) query = query.where((eb) => eb.not(inForce(eb, now)));
  const rows = await query.orderBy('since', 'desc').orderBy('id', 'desc').limit(options.limit ?? 1000).execute();
  return rows.map(toBlock);
}

/** A block in force at `now`: not lifted, started, and not ended. */
export function inForce(eb: ExpressionBuilder<Schema, 'blocks'>, now: Date) {
  return eb.and([eb('blocks.lifted_at', 'is', null), eb('blocks.since', '<=', now), eb.or([eb('blocks.until', 'is', null), eb('blocks.until', '>', now)])]);
}

async function keyExists(db: Kysely<Schema>, keyId: string): Promise<boolean> {
  return (await db.selectFrom('api_keys').select('id').where('id', '=', keyId).executeTakeFirst()) !== undefined;
}

function toBlock(row: BlockRow): Block {
  return {
    id: row.id,
    subject: { kind: row.subject_kind, id: row.subject },
    rule: row.rule,
    reason: row.reason,
    since: new Date(row.since).toISOString(),
    ...(row.until === null ? {} : { until: new Date(row.until).toISOString() }),
    level: row.level,
    createdBy: row.created_by,
    ...(row.lifted_at === null ? {} : { liftedAt: new Date(row.lifted_at).toISOString() }),
    ...(row.lifted_by === null ? {} : { liftedBy: row.lifted_by }),
  };
}
