/**
 * A key's row as the key repository (keys.ts) and the key store (databaseKeyStore.ts) read it: its `api_keys`
 * columns with the newest block in force (keysWithBlockState), and the two ways it is shown: KeyView to operators
 * and partners (never its hash), KnownKey to the access control.
 */
import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import { AddressSet } from '../core/access/ipAddress';
import type { ApiKeyRecord } from '../core/access/keys';
import type { KnownKey } from '../core/access/keyStore';
import { inForce } from './blocks';
import type { ApiKeysTable, Schema } from './schema';

/** A key as operators and partners see it: never its hash. */
export interface KeyView {
  readonly id: string;
  readonly name?: string;
  /** The integrator the key belongs to. */
  readonly integratorId?: string;
  /** ISO 8601. */
  readonly createdAt: string;
  readonly perMinute?: number;
  readonly ipAllowlist?: readonly string[];
  /** The integrator ids the key may name (its own integrator's when it belongs to one and names none); absent = any. */
  readonly integrators?: readonly string[];
  /** A block is in force. */
  readonly blocked?: true;
  readonly blockedReason?: string;
  /** The end of a rotation's grace period: the key is refused from then on. */
  readonly expiresAt?: string;
  readonly revokedAt?: string;
  /** The id of the key that replaced this one. */
  readonly rotatedTo?: string;
}

export type KeyRow = Selectable<ApiKeysTable> & { blocked_since: Date | null; block_reason: string | null };

/** Keys with the newest block in force at `now`, if any (its start and reason). */
export function keysWithBlockState(db: Kysely<Schema>, now: Date) {
  return db
    .selectFrom('api_keys')
    .selectAll('api_keys')
    .select((eb) => [newestBlock(eb, now).select('blocks.since').as('blocked_since'), newestBlock(eb, now).select('blocks.reason').as('block_reason')]);
}

function newestBlock(eb: ExpressionBuilder<Schema, 'api_keys'>, now: Date) {
  return eb
    .selectFrom('blocks')
    .where('blocks.subject_kind', '=', 'key')
    .whereRef('blocks.subject', '=', 'api_keys.id')
    .where((inner) => inForce(inner, now))
    .orderBy('blocks.since', 'desc')
    .orderBy('blocks.id', 'desc')
    .limit(1);
}

/** The integrator ids a key may name: its own list, else its integrator's id, else any (undefined). */
function effectiveIntegrators(row: KeyRow): readonly string[] | undefined {
  if (row.integrators !== null) return row.integrators;
  return row.integrator_id === null ? undefined : [row.integrator_id];
}

/** The key as operators and partners see it. */
export function toView(row: KeyRow): KeyView {
  const integrators = effectiveIntegrators(row);
  return {
    id: row.id,
    ...(row.name === null ? {} : { name: row.name }),
    ...(row.integrator_id === null ? {} : { integratorId: row.integrator_id }),
    createdAt: new Date(row.created_at).toISOString(),
    ...(row.per_minute === null ? {} : { perMinute: row.per_minute }),
    ...(row.ip_allowlist === null ? {} : { ipAllowlist: row.ip_allowlist }),
    ...(integrators === undefined ? {} : { integrators }),
    ...(row.blocked_since === null ? {} : { blocked: true as const }),
    ...(row.blocked_since === null || !row.block_reason ? {} : { blockedReason: row.block_reason }),
    ...(row.expires_at === null ? {} : { expiresAt: new Date(row.expires_at).toISOString() }),
    ...(row.revoked_at === null ? {} : { revokedAt: new Date(row.revoked_at).toISOString() }),
    ...(row.rotated_to === null ? {} : { rotatedTo: row.rotated_to }),
  };
}

/** The key as the access control sees it: its record, and its allowlist prepared for matching. */
export function toKnownKey(row: KeyRow): KnownKey {
  const view = toView(row);
  const record: ApiKeyRecord = {
    id: view.id,
    sha256: row.sha256,
    createdAt: view.createdAt,
    ...(view.name === undefined ? {} : { name: view.name }),
    ...(view.ipAllowlist === undefined ? {} : { ipAllowlist: view.ipAllowlist }),
    ...(view.integrators === undefined ? {} : { integrators: view.integrators }),
    ...(view.perMinute === undefined ? {} : { perMinute: view.perMinute }),
    ...(view.blocked ? { blocked: true } : {}),
    ...(view.blockedReason === undefined ? {} : { blockedReason: view.blockedReason }),
  };
  return { record, ...(record.ipAllowlist ? { allowlist: new AddressSet(record.ipAllowlist) } : {}) };
}
