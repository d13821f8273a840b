/**
 * The portal's sessions: a signed-in wallet, kept in the service's database (table portal_sessions), so that a
 * restart signs nobody out and every instance on one DATABASE_URL knows every session (no sticky sessions needed).
 * A session is found by its id, 256 random bits that only the browser's cookie holds: the table keeps the SHA-256
 * of each id, not the id, so that what is stored cannot be presented as a cookie. Each session has its own CSRF
 * token (csrf.ts).
 *
 * What bounds the table: a session is opened only by a sign-in (a signed message with a fresh nonce, under the
 * portal's sign-in limits), it ends SESSION_TTL_MS after it (expiry is checked on every read), and each new session
 * first removes up to `purgeBatch` expired ones; sign-out, and a new sign-in in the same browser, delete the old one.
 * So the table holds about the sessions opened in the last SESSION_TTL_MS.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { CookieOptions } from 'express';
import { deleteSession, findSession, insertSession, portalDb, purgeSessions, type PortalDatabase } from '../persistence/portalSessions';
import { newCsrfToken } from './csrf';

/** The cookie that carries the session id (path /portal: no other part of the service receives it). */
export const SESSION_COOKIE = 'portal_session';
export const SESSION_PATH = '/portal';
/** A session ends this long after sign-in, used or not. */
export const SESSION_TTL_MS = 8 * 3_600_000;
/** The most expired sessions one sign-in removes (bounded work per request; several sign-ins catch up). */
export const SESSION_PURGE_BATCH = 100;

export interface Session {
  /** The signed-in wallet, EIP-55 checksummed. */
  readonly address: string;
  /** The chain id of the sign-in message. */
  readonly chainId: number;
  /** Required in `x-csrf-token` on every change (csrf.ts). */
  readonly csrfToken: string;
  /** Unix ms. */
  readonly createdAt: number;
  readonly expiresAt: number;
}

export interface SessionStoreOptions {
  readonly ttlMs?: number;
  /** Unix ms (default Date.now): creation, expiry, and the expiry check on read. */
  readonly clock?: () => number;
  /** The most expired sessions removed per create (default SESSION_PURGE_BATCH). */
  readonly purgeBatch?: number;
}

export class SessionStore {
  private readonly ttlMs: number;
  private readonly clock: () => number;
  private readonly purgeBatch: number;

  constructor(
    private readonly database: PortalDatabase,
    options: SessionStoreOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? SESSION_TTL_MS;
    this.clock = options.clock ?? Date.now;
    this.purgeBatch = options.purgeBatch ?? SESSION_PURGE_BATCH;
  }

  /** Opens a session for a signed-in wallet: its id (for the cookie only) and the session. */
  async create(signedIn: { readonly address: string; readonly chainId: number }): Promise<{ id: string; session: Session }> {
    const db = await portalDb(this.database);
    const id = randomBytes(32).toString('base64url');
    const now = this.clock();
    const session: Session = { address: signedIn.address, chainId: signedIn.chainId, csrfToken: newCsrfToken(), createdAt: now, expiresAt: now + this.ttlMs };
    await purgeSessions(db, new Date(now), this.purgeBatch);
    await insertSession(db, { idHash: digest(id), address: session.address, chainId: session.chainId, csrfToken: session.csrfToken, createdAt: new Date(session.createdAt), expiresAt: new Date(session.expiresAt) });
    return { id, session };
  }

  /** The session of a cookie's id, if it is open and has not expired (no query for a missing or malformed id). */
  async get(id: string | undefined): Promise<Session | undefined> {
    if (!plausibleId(id)) return undefined;
    const db = await portalDb(this.database);
    const row = await findSession(db, digest(id), new Date(this.clock()));
    if (!row) return undefined;
    return { address: row.address, chainId: row.chainId, csrfToken: row.csrfToken, createdAt: row.createdAt.getTime(), expiresAt: row.expiresAt.getTime() };
  }

  /** Ends a session (sign-out); ending one that is not open is harmless. */
  async delete(id: string | undefined): Promise<void> {
    if (!plausibleId(id)) return;
    const db = await portalDb(this.database);
    await deleteSession(db, digest(id));
  }

}

/**
 * The session cookie's attributes: HttpOnly (no script reads it), SameSite=Strict (no other site's page sends it),
 * Path=/portal, Secure when the request came over TLS, and a lifetime no longer than the session's.
 */
export function sessionCookieOptions(secure: boolean, maxAgeMs: number): CookieOptions {
  return { httpOnly: true, sameSite: 'strict', secure, path: SESSION_PATH, maxAge: Math.max(0, maxAgeMs) };
}

/** A cookie value worth looking up: present and not absurdly long (ids are 43 characters). */
function plausibleId(id: string | undefined): id is string {
  return typeof id === 'string' && id.length > 0 && id.length <= 128;
}

function digest(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}
