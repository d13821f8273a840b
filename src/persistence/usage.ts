/**
 * Usage counters: requests and refusals (401, 403, 429) of a subject (an API key or a client address) per operation
 * and minute, and which keys each client address presented per minute. Callers count in memory and record batches;
 * a batch adds to the stored counters (INSERT ... ON CONFLICT DO UPDATE), so that instances recording the same
 * minute at once lose no count. `usageWindow` reads what the automatic blocking rules count
 * (src/core/access/blocking.ts).
 */
import { sql, type Kysely } from 'kysely';
import { InvalidValueError } from './errors';
import type { Schema, Subject } from './schema';

export interface UsageIncrement {
  readonly subject: Subject;
  readonly operationId: string;
  /** When the requests were made (any instant of their minute). */
  readonly at: Date;
  readonly requests?: number;
  readonly refused401?: number;
  readonly refused403?: number;
  readonly refused429?: number;
}

export interface UsageCounts {
  readonly requests: number;
  readonly refused401: number;
  readonly refused403: number;
  readonly refused429: number;
}

export interface UsagePoint extends UsageCounts {
  /** The start of the step (ISO 8601). */
  readonly at: string;
}

const MINUTE_MS = 60_000;
/** Rows of one INSERT (8 parameters each, well under PostgreSQL's 65,535). */
const ROWS_PER_STATEMENT = 1000;
/** The most points a series answers. */
export const MAX_SERIES_POINTS = 10_000;

/** Adds a batch to the counters (increments of one subject, operation and minute are summed first). */
export async function recordUsage(db: Kysely<Schema>, batch: readonly UsageIncrement[]): Promise<void> {
  const rows = new Map<string, { subject_kind: Subject['kind']; subject: string; operation_id: string; minute: Date; requests: number; refused_401: number; refused_403: number; refused_429: number }>();
  for (const increment of batch) {
    const minute = minuteOf(increment.at);
    const counts = checkCounts([increment.requests, increment.refused401, increment.refused403, increment.refused429]);
    const key = JSON.stringify([increment.subject.kind, increment.subject.id, increment.operationId, minute.getTime()]);
    const row = rows.get(key) ?? { subject_kind: increment.subject.kind, subject: increment.subject.id, operation_id: increment.operationId, minute, requests: 0, refused_401: 0, refused_403: 0, refused_429: 0 };
    row.requests += counts[0]!;
    row.refused_401 += counts[1]!;
    row.refused_403 += counts[2]!;
    row.refused_429 += counts[3]!;
    rows.set(key, row);
  }
  for (const chunk of inLockOrder(rows)) {
    await db
      .insertInto('usage_minutes')
      .values(chunk)
      .onConflict((oc) =>
        oc.columns(['subject_kind', 'subject', 'operation_id', 'minute']).doUpdateSet((eb) => ({
          requests: eb('usage_minutes.requests', '+', eb.ref('excluded.requests')),
          refused_401: eb('usage_minutes.refused_401', '+', eb.ref('excluded.refused_401')),
          refused_403: eb('usage_minutes.refused_403', '+', eb.ref('excluded.refused_403')),
          refused_429: eb('usage_minutes.refused_429', '+', eb.ref('excluded.refused_429')),
        })),
      )
      .execute();
  }
}

export interface KeyClientIncrement {
  readonly keyId: string;
  /** The client's rate-limit id (an IPv4 address, an IPv6 /64). */
  readonly clientId: string;
  readonly at: Date;
  readonly requests?: number;
  readonly refused429?: number;
  /** Refused because the address is outside the key's IP allowlist. */
  readonly outsideAllowlist?: number;
}

/** Adds a batch of key × client address counts (increments of one key, address and minute are summed first). */
export async function recordKeyClients(db: Kysely<Schema>, batch: readonly KeyClientIncrement[]): Promise<void> {
  const rows = new Map<string, { key_id: string; client_id: string; minute: Date; requests: number; refused_429: number; outside_allowlist: number }>();
  for (const increment of batch) {
    const minute = minuteOf(increment.at);
    const counts = checkCounts([increment.requests, increment.refused429, increment.outsideAllowlist]);
    const key = JSON.stringify([increment.keyId, increment.clientId, minute.getTime()]);
    const row = rows.get(key) ?? { key_id: increment.keyId, client_id: increment.clientId, minute, requests: 0, refused_429: 0, outside_allowlist: 0 };
    row.requests += counts[0]!;
    row.refused_429 += counts[1]!;
    row.outside_allowlist += counts[2]!;
    rows.set(key, row);
  }
  for (const chunk of inLockOrder(rows)) {
    await db
      .insertInto('key_client_minutes')
      .values(chunk)
      .onConflict((oc) =>
        oc.columns(['key_id', 'client_id', 'minute']).doUpdateSet((eb) => ({
          requests: eb('key_client_minutes.requests', '+', eb.ref('excluded.requests')),
          refused_429: eb('key_client_minutes.refused_429', '+', eb.ref('excluded.refused_429')),
          outside_allowlist: eb('key_client_minutes.outside_allowlist', '+', eb.ref('excluded.outside_allowlist')),
        })),
      )
      .execute();
  }
}

export interface SeriesQuery {
  readonly subject: Subject;
  /** Start (rounded down to its minute) and end (exclusive) of the series. */
  readonly from: Date;
  readonly to: Date;
  /** Minutes per point (default 1). */
  readonly stepMinutes?: number;
  /** Only this operation (default: all). */
  readonly operationId?: string;
}

/** The subject's counts per step from `from` to `to`, for a chart: every step present, zero when nothing was counted. */
export async function usageSeries(db: Kysely<Schema>, query: SeriesQuery): Promise<UsagePoint[]> {
  const step = query.stepMinutes ?? 1;
  if (!Number.isInteger(step) || step < 1) throw new InvalidValueError('stepMinutes must be a positive integer');
  const origin = new Date(Math.floor(query.from.getTime() / MINUTE_MS) * MINUTE_MS);
  const stepMs = step * MINUTE_MS;
  const points = Math.ceil((query.to.getTime() - origin.getTime()) / stepMs);
  if (!(points >= 0)) throw new InvalidValueError('the series must end after it starts');
  if (points > MAX_SERIES_POINTS) throw new InvalidValueError(`a series has at most ${MAX_SERIES_POINTS} points (a larger step?)`);
  // date_bin (no builder in Kysely) puts each minute into the step that starts at origin + n steps
  const bucket = sql<Date>`date_bin(make_interval(mins => ${step}), ${sql.ref('minute')}, ${origin}::timestamptz)`;
  let select = db
    .selectFrom('usage_minutes')
    .select((eb) => [
      bucket.as('bucket'),
      eb.fn.sum<string | number>('requests').as('requests'),
      eb.fn.sum<string | number>('refused_401').as('refused_401'),
      eb.fn.sum<string | number>('refused_403').as('refused_403'),
      eb.fn.sum<string | number>('refused_429').as('refused_429'),
    ])
    .where('subject_kind', '=', query.subject.kind)
    .where('subject', '=', query.subject.id)
    .where('minute', '>=', origin)
    .where('minute', '<', query.to);
  if (query.operationId !== undefined) select = select.where('operation_id', '=', query.operationId);
  const rows = await select.groupBy(sql.ref('bucket')).execute();
  const byStep = new Map(rows.map((row) => [new Date(row.bucket).getTime(), row]));
  return Array.from({ length: points }, (_, index) => {
    const at = origin.getTime() + index * stepMs;
    const row = byStep.get(at);
    return {
      at: new Date(at).toISOString(),
      requests: Number(row?.requests ?? 0),
      refused401: Number(row?.refused_401 ?? 0),
      refused403: Number(row?.refused_403 ?? 0),
      refused429: Number(row?.refused_429 ?? 0),
    };
  });
}

/** The subject's counts per operation from `from` to `to` (exclusive), most requested first. */
export async function usageByOperation(db: Kysely<Schema>, query: Omit<SeriesQuery, 'stepMinutes' | 'operationId'>): Promise<Array<UsageCounts & { operationId: string }>> {
  const rows = await db
    .selectFrom('usage_minutes')
    .select((eb) => [
      'operation_id',
      eb.fn.sum<string | number>('requests').as('requests'),
      eb.fn.sum<string | number>('refused_401').as('refused_401'),
      eb.fn.sum<string | number>('refused_403').as('refused_403'),
      eb.fn.sum<string | number>('refused_429').as('refused_429'),
    ])
    .where('subject_kind', '=', query.subject.kind)
    .where('subject', '=', query.subject.id)
    .where('minute', '>=', query.from)
    .where('minute', '<', query.to)
    .groupBy('operation_id')
    .execute();
  return rows
    .map((row) => ({
      operationId: row.operation_id,
      requests: Number(row.requests),
      refused401: Number(row.refused_401),
      refused403: Number(row.refused_403),
      refused429: Number(row.refused_429),
    }))
    .sort((a, b) => b.requests - a.requests || a.operationId.localeCompare(b.operationId));
}

export interface UsageWindowQuery {
  /** Start and end (exclusive) of the window. */
  readonly from: Date;
  readonly to: Date;
  /** The operations whose requests are route searches (quote and routes operations). */
  readonly expensiveOperations: readonly string[];
}

/**
 * What a window counted, as the automatic blocking rules read it (src/core/access/blocking.ts, UsageWindow). Every
 * rule but one looks at callers refused with 429, so only those are listed: subjects refused with 429 in the window,
 * and client addresses that presented several keys and were refused with 429 on one; keys refused from addresses
 * outside their allowlist are all listed.
 */
export interface UsageWindowCounts {
  readonly subjects: readonly { readonly subject: Subject; readonly minutesWith429: number; readonly expensive: number; readonly expensive429: number }[];
  /** Route searches of every subject in the window. */
  readonly totalExpensive: number;
  readonly keysByAddress: readonly { readonly clientId: string; readonly keyIds: readonly string[]; readonly refused429: boolean }[];
  readonly foreignAddressesByKey: readonly { readonly keyId: string; readonly clientIds: readonly string[] }[];
}

export async function usageWindow(db: Kysely<Schema>, query: UsageWindowQuery): Promise<UsageWindowCounts> {
  const expensive = [...query.expensiveOperations];
  if (expensive.length === 0) throw new InvalidValueError('expensiveOperations must name at least one operation');
  const usageInWindow = () => db.selectFrom('usage_minutes').where('minute', '>=', query.from).where('minute', '<', query.to);
  const pairsInWindow = () => db.selectFrom('key_client_minutes').where('minute', '>=', query.from).where('minute', '<', query.to);
  const [subjects, total, addresses, foreign] = await Promise.all([
    usageInWindow()
      .select((eb) => [
        'subject_kind',
        'subject',
        eb.fn.count<string | number>('minute').distinct().filterWhere('refused_429', '>', 0).as('minutes_with_429'),
        eb.fn.sum<string | number>('requests').filterWhere('operation_id', 'in', expensive).as('expensive'),
        eb.fn.sum<string | number>('refused_429').filterWhere('operation_id', 'in', expensive).as('expensive_429'),
      ])
      .groupBy(['subject_kind', 'subject'])
      .having((eb) => eb.fn.sum('refused_429'), '>', 0)
      .execute(),
    usageInWindow()
      .select((eb) => eb.fn.sum<string | number | null>('requests').as('requests'))
      .where('operation_id', 'in', expensive)
      .executeTakeFirstOrThrow(),
    pairsInWindow()
      .select((eb) => ['client_id', eb.fn.agg<string[]>('array_agg', ['key_id']).distinct().as('key_ids')])
      .groupBy('client_id')
      .having((eb) => eb.fn.count('key_id').distinct(), '>', 1)
      .having((eb) => eb.fn.sum('refused_429'), '>', 0)
      .execute(),
    pairsInWindow()
      .where('outside_allowlist', '>', 0)
      .select((eb) => ['key_id', eb.fn.agg<string[]>('array_agg', ['client_id']).distinct().as('client_ids')])
      .groupBy('key_id')
      .execute(),
  ]);
  return {
    subjects: subjects
      .map((row) => ({
        subject: { kind: row.subject_kind, id: row.subject },
        minutesWith429: Number(row.minutes_with_429),
        expensive: Number(row.expensive ?? 0),
        expensive429: Number(row.expensive_429 ?? 0),
      }))
      .sort((a, b) => a.subject.kind.localeCompare(b.subject.kind) || a.subject.id.localeCompare(b.subject.id)),
    totalExpensive: Number(total.requests ?? 0),
    keysByAddress: addresses
      .map((row) => ({ clientId: row.client_id, keyIds: [...row.key_ids].sort(), refused429: true }))
      .sort((a, b) => a.clientId.localeCompare(b.clientId)),
    foreignAddressesByKey: foreign.map((row) => ({ keyId: row.key_id, clientIds: [...row.client_ids].sort() })).sort((a, b) => a.keyId.localeCompare(b.keyId)),
  };
}

/** Deletes the counters of minutes before `before` (retention); returns how many rows went. */
export async function deleteUsageBefore(db: Kysely<Schema>, before: Date): Promise<number> {
  const usage = await db.deleteFrom('usage_minutes').where('minute', '<', before).executeTakeFirst();
  const pairs = await db.deleteFrom('key_client_minutes').where('minute', '<', before).executeTakeFirst();
  return Number(usage.numDeletedRows) + Number(pairs.numDeletedRows);
}

function minuteOf(at: Date): Date {
  return new Date(Math.floor(at.getTime() / MINUTE_MS) * MINUTE_MS);
}

function checkCounts(counts: ReadonlyArray<number | undefined>): number[] {
  const values = counts.map((count) => count ?? 0);
  if (values.some((count) => !Number.isSafeInteger(count) || count < 0)) throw new InvalidValueError('usage counts must be non-negative integers');
  return values;
}

/**
 * The rows in one order for every writer (so that two batches cannot deadlock on each other's row locks), in
 * statements of at most ROWS_PER_STATEMENT rows.
 */
function inLockOrder<Row>(rows: ReadonlyMap<string, Row>): Row[][] {
  const ordered = [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
  const chunks: Row[][] = [];
  for (let start = 0; start < ordered.length; start += ROWS_PER_STATEMENT) chunks.push(ordered.slice(start, start + ROWS_PER_STATEMENT));
  return chunks;
}
