/**
 * API keys in the database: only their SHA-256 is stored (the key is shown once, at creation or rotation), with
 * their settings (name, IP allowlist, per-minute limit, the integrator ids they may name, the integrator they belong
 * to), their life (created, rotated with a grace period, expired, revoked) and an event log of every change.
 * A key is blocked while it has a block in force (blocks.ts): an operator's (`manual`) or a detector's.
 *
 * Keys are shown as KeyView (keyRows.ts); `DatabaseKeyStore` (databaseKeyStore.ts) is the access control's view of
 * them (the KeyStore port of src/core/access/keyStore.ts).
 */
import { sql, type Kysely, type Updateable } from 'kysely';
import { parseKeyDocument, KeyDocumentError } from '../core/access/keyFile';
import { generateApiKey, generateKeyId, hashApiKey } from '../core/access/keys';
import { inForce, insertBlock, liftBlocks, type Block } from './blocks';
import { ConflictError, IntegratorBlockedError, InvalidValueError, NotFoundError, isForeignKeyViolation, isUniqueViolation } from './errors';
import { unsafeNameProblem } from '../core/text';
import { recordKeyEvent } from './keyEvents';
import { keysWithBlockState, toView, type KeyRow, type KeyView } from './keyRows';
import type { ApiKeysTable, KeyEventType, Schema } from './schema';

export interface KeySettings {
  readonly name?: string;
  readonly ipAllowlist?: readonly string[];
  readonly integrators?: readonly string[];
  readonly perMinute?: number;
}

export interface NewKey extends KeySettings {
  /** Default: `key_` + 12 random hex digits. */
  readonly id?: string;
  /** The integrator the key belongs to (registered: integrators.ts). */
  readonly integratorId?: string;
}

/** Who makes a change, and when (default: now). */
export interface ChangeBy {
  readonly actor: string;
  readonly now?: Date;
}

export interface IssuedKey {
  /** The key itself: shown once, never stored. */
  readonly key: string;
  readonly view: KeyView;
}

/** Longest grace period of a rotation. */
export const MAX_GRACE_MS = 30 * 24 * 3_600_000;

export interface KeyCaps {
  /**
   * The most keys that work (neither revoked nor past a rotation's grace period) an integrator may have; a key
   * beyond it is refused with a ConflictError. Absent: no cap (operators' keys).
   */
  readonly maxWorkingKeys?: number;
}

/**
 * Creates a key; the key itself is in the answer only.
 *
 * A key for an integrator (the one it belongs to, or one of the ids it may name) is refused with an
 * IntegratorBlockedError while a key of that integrator has a block in force: a block is not escaped by making a
 * new key. A key that belongs to an integrator is counted against `caps.maxWorkingKeys` and inserted in one
 * transaction that holds the integrator's row locked (SELECT ... FOR UPDATE), so that creations at the same moment,
 * on any instance, are counted one after the other and never exceed the cap (PGlite runs one statement at a time
 * anyway; PostgreSQL runs transactions side by side, where the lock is what orders them).
 */
export async function createKey(db: Kysely<Schema>, input: NewKey, by: ChangeBy, caps: KeyCaps = {}): Promise<IssuedKey> {
  const now = by.now ?? new Date();
  const id = input.id ?? generateKeyId();
  const key = generateApiKey();
  validateKey(id, input);
  try {
    await db.transaction().execute(async (trx) => {
      const { integratorId } = input;
      if (integratorId !== undefined) {
        const locked = await trx.selectFrom('integrators').select('id').where('id', '=', integratorId).forUpdate().executeTakeFirst();
        if (!locked) throw new NotFoundError(`no integrator "${integratorId}" (register it first)`);
      }
      await refuseBlockedIntegrators(trx, [...new Set([...(integratorId === undefined ? [] : [integratorId]), ...(input.integrators ?? [])])], now);
      if (integratorId !== undefined && caps.maxWorkingKeys !== undefined) {
        const working = await workingKeyCount(trx, integratorId, now);
        if (working >= caps.maxWorkingKeys) {
          throw new ConflictError(`integrator "${integratorId}" has ${working} working keys, the most it may have (${caps.maxWorkingKeys}): revoke one first`);
        }
      }
      await trx
        .insertInto('api_keys')
        .values({ id, sha256: hashApiKey(key), created_at: now, integrator_id: integratorId ?? null, ...settingColumns(input) })
        .execute();
      await recordKeyEvent(trx, { keyId: id, type: 'created', at: now, actor: by.actor, detail: settingsDetail(input, integratorId) });
    });
  } catch (error) {
    throw keyWriteError(error, id, input.integratorId);
  }
  return { key, view: (await getKey(db, id, now))! };
}

/** How many keys of the integrator work at `now`: neither revoked nor past a rotation's grace period. */
async function workingKeyCount(trx: Kysely<Schema>, integratorId: string, now: Date): Promise<number> {
  const { count } = await trx
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll().as('count'))
    .where('integrator_id', '=', integratorId)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .executeTakeFirstOrThrow();
  return Number(count);
}

/**
 * Refuses (IntegratorBlockedError) when one of `integratorIds` has a key with a block in force at `now`: a key that
 * belongs to it, or that may name it. Of several blocks, the one that lasts longest is named (a block until lifted
 * before any other), so that its end is the earliest moment a new key can be made.
 */
async function refuseBlockedIntegrators(trx: Kysely<Schema>, integratorIds: readonly string[], now: Date): Promise<void> {
  if (integratorIds.length === 0) return;
  const ids = [...integratorIds];
  const found = await trx
    .selectFrom('blocks')
    .innerJoin('api_keys', 'api_keys.id', 'blocks.subject')
    .select(['api_keys.id as key_id', 'api_keys.integrator_id', 'api_keys.integrators', 'blocks.rule', 'blocks.reason', 'blocks.until'])
    .where('blocks.subject_kind', '=', 'key')
    .where((eb) => inForce(eb, now))
    .where((eb) => eb.or([eb('api_keys.integrator_id', 'in', ids), sql<boolean>`${sql.ref('api_keys.integrators')} && ${ids}::text[]`]))
    .orderBy(sql`${sql.ref('blocks.until')} is null`, 'desc')
    .orderBy('blocks.until', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!found) return;
  const integratorId = ids.find((id) => id === found.integrator_id || found.integrators?.includes(id)) ?? ids[0]!;
  throw new IntegratorBlockedError(integratorId, {
    keyId: found.key_id,
    rule: found.rule,
    reason: found.reason,
    ...(found.until === null ? {} : { until: new Date(found.until).toISOString() }),
  });
}

/** The key with this id (revoked and expired ones included), or undefined. */
export async function getKey(db: Kysely<Schema>, id: string, now: Date = new Date()): Promise<KeyView | undefined> {
  const row = await keysWithBlockState(db, now).where('api_keys.id', '=', id).executeTakeFirst();
  return row && toView(row);
}

export interface KeyListOptions {
  /** Include revoked and expired keys (default: only keys that still authenticate). */
  readonly all?: boolean;
  /** Only the keys of this integrator. */
  readonly integratorId?: string;
  readonly now?: Date;
}

/** Keys in order of creation. */
export async function listKeys(db: Kysely<Schema>, options: KeyListOptions = {}): Promise<KeyView[]> {
  const now = options.now ?? new Date();
  let query = keysWithBlockState(db, now);
  if (!options.all) query = query.where('api_keys.revoked_at', 'is', null).where((eb) => eb.or([eb('api_keys.expires_at', 'is', null), eb('api_keys.expires_at', '>', now)]));
  if (options.integratorId !== undefined) query = query.where('api_keys.integrator_id', '=', options.integratorId);
  const rows = await query.orderBy('api_keys.created_at').orderBy('api_keys.id').execute();
  return rows.map(toView);
}

export async function renameKey(db: Kysely<Schema>, id: string, name: string, by: ChangeBy): Promise<KeyView> {
  validateKey(id, { name });
  return changeKey(db, id, by, (row) => ({ set: { name }, type: 'renamed', detail: { from: row.name, to: name } }));
}

/** Replaces the key's IP allowlist; null: usable from anywhere. */
export async function setKeyAllowlist(db: Kysely<Schema>, id: string, ipAllowlist: readonly string[] | null, by: ChangeBy): Promise<KeyView> {
  if (ipAllowlist !== null) validateKey(id, { ipAllowlist });
  return changeKey(db, id, by, (row) => ({
    set: { ip_allowlist: ipAllowlist === null ? null : [...ipAllowlist] },
    type: 'allowlist-changed',
    detail: { from: row.ip_allowlist, to: ipAllowlist },
  }));
}

/** Sets the key's per-minute limit; null: the default. */
export async function setKeyPerMinute(db: Kysely<Schema>, id: string, perMinute: number | null, by: ChangeBy): Promise<KeyView> {
  if (perMinute !== null) validateKey(id, { perMinute });
  return changeKey(db, id, by, (row) => ({ set: { per_minute: perMinute }, type: 'limit-changed', detail: { from: row.per_minute, to: perMinute } }));
}

/** Sets the integrator ids the key may name; null: any (or its own integrator's). */
export async function setKeyIntegrators(db: Kysely<Schema>, id: string, integrators: readonly string[] | null, by: ChangeBy): Promise<KeyView> {
  if (integrators !== null) validateKey(id, { integrators });
  return changeKey(db, id, by, (row) => ({
    set: { integrators: integrators === null ? null : [...integrators] },
    type: 'integrators-changed',
    detail: { from: row.integrators, to: integrators },
  }));
}

export interface Rotation extends IssuedKey {
  /** The old key, valid until its `expiresAt`. */
  readonly previous: KeyView;
}

/**
 * Replaces a key with a new one (new id and key, same settings and integrator); the old key keeps working until
 * `graceMs` from now, so that its holder can deploy the new one. A revoked, expired, already rotated or blocked key
 * cannot be rotated (a block is not escaped by rotating).
 */
export async function rotateKey(db: Kysely<Schema>, id: string, graceMs: number, by: ChangeBy): Promise<Rotation> {
  if (!Number.isFinite(graceMs) || graceMs < 0 || graceMs > MAX_GRACE_MS) {
    throw new InvalidValueError(`the grace period must be from 0 to ${MAX_GRACE_MS / 3_600_000} hours`);
  }
  const now = by.now ?? new Date();
  const newId = generateKeyId();
  const key = generateApiKey();
  const expiresAt = new Date(now.getTime() + graceMs);
  await db.transaction().execute(async (trx) => {
    const row = await lockKey(trx, id, now);
    if (row.rotated_to !== null) throw new ConflictError(`key ${id} was already rotated (to ${row.rotated_to})`);
    if (row.blocked_since !== null) throw new ConflictError(`key ${id} is blocked: unblock it before rotating it`);
    await trx
      .insertInto('api_keys')
      .values({
        id: newId,
        sha256: hashApiKey(key),
        name: row.name,
        integrator_id: row.integrator_id,
        integrators: row.integrators,
        ip_allowlist: row.ip_allowlist,
        per_minute: row.per_minute,
        created_at: now,
      })
      .execute();
    await trx.updateTable('api_keys').set({ expires_at: expiresAt, rotated_to: newId }).where('id', '=', id).execute();
    await recordKeyEvent(trx, { keyId: id, type: 'rotated', at: now, actor: by.actor, detail: { to: newId, expiresAt: expiresAt.toISOString() } });
    await recordKeyEvent(trx, { keyId: newId, type: 'created', at: now, actor: by.actor, detail: { rotatedFrom: id } });
  });
  const [view, previous] = await Promise.all([getKey(db, newId, now), getKey(db, id, now)]);
  return { key, view: view!, previous: previous! };
}

/** Revokes a key: it never authenticates again (it stays listed with `all`, with its events). */
export async function revokeKey(db: Kysely<Schema>, id: string, by: ChangeBy & { readonly reason?: string }): Promise<KeyView> {
  return changeKey(db, id, by, () => ({
    set: { revoked_at: by.now ?? new Date() },
    type: 'revoked',
    detail: by.reason === undefined ? undefined : { reason: by.reason },
  }));
}

/** An operator's block of a key (rule `manual`), until lifted unless `until` is given. */
export async function blockKey(db: Kysely<Schema>, id: string, by: ChangeBy & { readonly reason?: string; readonly until?: Date | null }): Promise<Block> {
  const now = by.now ?? new Date();
  return db.transaction().execute(async (trx) => {
    await lockKey(trx, id, now, { allowUnusable: true });
    return insertBlock(trx, { subject: { kind: 'key', id }, rule: 'manual', reason: by.reason ?? '', actor: by.actor, now, until: by.until ?? null });
  });
}

/** Lifts every block of the key in force (manual and automatic); returns those lifted (none: it was not blocked). */
export async function unblockKey(db: Kysely<Schema>, id: string, by: ChangeBy): Promise<Block[]> {
  if (!(await db.selectFrom('api_keys').select('id').where('id', '=', id).executeTakeFirst())) throw new NotFoundError(`no key with id "${id}"`);
  return liftBlocks(db, { kind: 'key', id }, by);
}

/** Locks the key's row for a change; refuses a missing key, and (unless allowed) a revoked or expired one. */
async function lockKey(trx: Kysely<Schema>, id: string, now: Date, options: { allowUnusable?: boolean } = {}): Promise<KeyRow> {
  const locked = await trx.selectFrom('api_keys').select('id').where('id', '=', id).forUpdate().executeTakeFirst();
  if (!locked) throw new NotFoundError(`no key with id "${id}"`);
  const row = await keysWithBlockState(trx, now).where('api_keys.id', '=', id).executeTakeFirstOrThrow();
  if (!options.allowUnusable) {
    if (row.revoked_at !== null) throw new ConflictError(`key ${id} is revoked (since ${new Date(row.revoked_at).toISOString()})`);
    if (row.expires_at !== null && new Date(row.expires_at).getTime() <= now.getTime()) {
      throw new ConflictError(`key ${id} expired at ${new Date(row.expires_at).toISOString()}`);
    }
  }
  return row;
}

interface Change {
  readonly set: Updateable<ApiKeysTable>;
  readonly type: KeyEventType;
  readonly detail?: Record<string, unknown>;
}

/** A change of a usable key and its event, in one transaction. */
async function changeKey(db: Kysely<Schema>, id: string, by: ChangeBy, change: (row: KeyRow) => Change): Promise<KeyView> {
  const now = by.now ?? new Date();
  await db.transaction().execute(async (trx) => {
    const { set, type, detail } = change(await lockKey(trx, id, now));
    await trx.updateTable('api_keys').set(set).where('id', '=', id).execute();
    await recordKeyEvent(trx, { keyId: id, type, at: now, actor: by.actor, ...(detail === undefined ? {} : { detail }) });
  });
  return (await getKey(db, id, now))!;
}

/**
 * Checks an id and settings with the key document's own rules (src/core/access/keyFile.ts), so that a key the
 * database accepts is one a key file accepts too, and the messages are the same.
 */
export function validateKey(id: string, settings: KeySettings): void {
  const { name, ipAllowlist, integrators, perMinute } = settings;
  const record = { id, sha256: '0'.repeat(64), name, ipAllowlist, integrators, perMinute };
  try {
    parseKeyDocument(JSON.stringify({ keys: [record] }), 'key');
  } catch (error) {
    if (!(error instanceof KeyDocumentError)) throw error;
    throw new InvalidValueError(error.problems.map((problem) => problem.replace(/^keys\[0\]\./, '')).join('; '));
  }
  if (settings.name !== undefined && settings.name.trim() === '') throw new InvalidValueError('name must not be empty');
  // the name is shown back (the portal, `npm run keys -- list`): no control characters or bidirectional controls
  const problem = settings.name === undefined ? undefined : unsafeNameProblem('name', settings.name);
  if (problem) throw new InvalidValueError(problem);
}

function settingColumns(settings: KeySettings) {
  return {
    name: settings.name ?? null,
    ip_allowlist: settings.ipAllowlist ? [...settings.ipAllowlist] : null,
    integrators: settings.integrators ? [...settings.integrators] : null,
    per_minute: settings.perMinute ?? null,
  };
}

function settingsDetail(settings: KeySettings, integratorId: string | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries({ ...settings, integratorId }).filter(([, value]) => value !== undefined));
}

function keyWriteError(error: unknown, id: string, integratorId: string | undefined): unknown {
  if (isUniqueViolation(error, 'api_keys_pkey')) return new ConflictError(`a key with id "${id}" exists already`);
  if (isForeignKeyViolation(error)) return new NotFoundError(`no integrator "${integratorId}" (register it first)`);
  return error;
}
