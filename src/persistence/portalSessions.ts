/**
 * The partner portal's sign-in records (migration 0003): its sessions, each stored under the SHA-256 of its id (the
 * id itself is only in the browser's cookie), and its SIWE nonces, each usable once. The portal's SessionStore and
 * NonceStore (src/portal/sessions.ts, siwe.ts) make the ids, nonces and CSRF tokens and decide expiry; these are
 * their queries. Expired rows are removed a bounded batch at a time; instances purging at once skip each other's
 * rows (FOR UPDATE SKIP LOCKED).
 */
import type { Kysely } from 'kysely';
import type { Schema } from './schema';

/**
 * The database the portal's stores use: a Kysely instance, or a function that resolves it (the portal's, which
 * waits for the database to open and answers 503 when it does not come).
 */
export type PortalDatabase = Kysely<Schema> | (() => Promise<Kysely<Schema>>);

/** The Kysely instance of a PortalDatabase. */
export function portalDb(source: PortalDatabase): Promise<Kysely<Schema>> {
  return typeof source === 'function' ? source() : Promise.resolve(source);
}

export interface PortalSessionRow {
  readonly idHash: string;
  readonly address: string;
  readonly chainId: number;
  readonly csrfToken: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

export async function insertSession(db: Kysely<Schema>, session: PortalSessionRow): Promise<void> {
  await db
    .insertInto('portal_sessions')
    .values({ id_hash: session.idHash, address: session.address, chain_id: session.chainId, csrf_token: session.csrfToken, created_at: session.createdAt, expires_at: session.expiresAt })
    .execute();
}

/** The session stored under an id's hash, if it expires after `now`. */
export async function findSession(db: Kysely<Schema>, idHash: string, now: Date): Promise<PortalSessionRow | undefined> {
  const row = await db
    .selectFrom('portal_sessions')
    .select(['address', 'chain_id', 'csrf_token', 'created_at', 'expires_at'])
    .where('id_hash', '=', idHash)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  if (!row) return undefined;
  // chain_id is a bigint column: a number on PGlite, a string on node-postgres
  return { idHash, address: row.address, chainId: Number(row.chain_id), csrfToken: row.csrf_token, createdAt: new Date(row.created_at), expiresAt: new Date(row.expires_at) };
}

export async function deleteSession(db: Kysely<Schema>, idHash: string): Promise<void> {
  await db.deleteFrom('portal_sessions').where('id_hash', '=', idHash).execute();
}

/** Removes up to `batch` sessions expired at `now`. */
export async function purgeSessions(db: Kysely<Schema>, now: Date, batch: number): Promise<void> {
  await db
    .deleteFrom('portal_sessions')
    .where('id_hash', 'in', (eb) => eb.selectFrom('portal_sessions').select('id_hash').where('expires_at', '<=', now).limit(batch).forUpdate().skipLocked())
    .execute();
}

export async function insertNonce(db: Kysely<Schema>, nonce: string, expiresAt: Date): Promise<void> {
  await db.insertInto('portal_nonces').values({ nonce, expires_at: expiresAt }).execute();
}

/**
 * Takes a nonce out if it is there and expires after `now`: true when this call took it. One statement (DELETE ...
 * RETURNING): of two sign-ins presenting one nonce at once, on any instances, one gets it.
 */
export async function consumeNonce(db: Kysely<Schema>, nonce: string, now: Date): Promise<boolean> {
  const taken = await db.deleteFrom('portal_nonces').where('nonce', '=', nonce).where('expires_at', '>', now).returning('nonce').executeTakeFirst();
  return taken !== undefined;
}

/** Removes up to `batch` nonces expired at `now`. */
export async function purgeNonces(db: Kysely<Schema>, now: Date, batch: number): Promise<void> {
  await db
    .deleteFrom('portal_nonces')
    .where('nonce', 'in', (eb) => eb.selectFrom('portal_nonces').select('nonce').where('expires_at', '<=', now).limit(batch).forUpdate().skipLocked())
    .execute();
}
