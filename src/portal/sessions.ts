/**
 * The portal's sessions: a signed-in wallet, held in memory by the portal object (bounded, least recently used
 * first out), so that a restart signs everybody out. A session is found by its id, 256 random bits that only the
 * browser's cookie holds: the store keeps the SHA-256 of each id, not the id, so that what is in memory cannot be
 * presented as a cookie. Each session has its own CSRF token (csrf.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { CookieOptions } from 'express';
import { LRUCache } from 'lru-cache';
import { newCsrfToken } from './csrf';

/** The cookie that carries the session id (path /portal: no other part of the service receives it). */
export const SESSION_COOKIE = 'portal_session';
export const SESSION_PATH = '/portal';
/** A session ends this long after sign-in, used or not. */
export const SESSION_TTL_MS = 8 * 3_600_000;
/** The most sessions held at once (the least recently used are dropped first: those wallets sign in again). */
export const MAX_SESSIONS = 10_000;

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
  readonly max?: number;
  readonly clock?: () => number;
}

export class SessionStore {
  private readonly sessions: LRUCache<string, Session>;
  private readonly ttlMs: number;
  private readonly clock: () => number;

  constructor(options: SessionStoreOptions = {}) {
    this.ttlMs = options.ttlMs ?? SESSION_TTL_MS;
    this.clock = options.clock ?? Date.now;
    this.sessions = new LRUCache({ max: options.max ?? MAX_SESSIONS, ttl: this.ttlMs, ttlResolution: 0, perf: { now: this.clock } });
  }

  /** Opens a session for a signed-in wallet: its id (for the cookie only) and the session. */
  create(signedIn: { readonly address: string; readonly chainId: number }): { id: string; session: Session } {
    const id = randomBytes(32).toString('base64url');
    const now = this.clock();
    const session: Session = { address: signedIn.address, chainId: signedIn.chainId, csrfToken: newCsrfToken(), createdAt: now, expiresAt: now + this.ttlMs };
    this.sessions.set(digest(id), session);
    return { id, session };
  }

  /** The session of a cookie's id, if it is open and has not expired. */
  get(id: string | undefined): Session | undefined {
    if (typeof id !== 'string' || id.length === 0 || id.length > 128) return undefined;
    const session = this.sessions.get(digest(id));
    if (session && session.expiresAt <= this.clock()) return undefined;
    return session;
  }

  /** Ends a session (sign-out); ending one that is not open is harmless. */
  delete(id: string | undefined): void {
    if (typeof id === 'string' && id.length > 0) this.sessions.delete(digest(id));
  }

  get size(): number {
    return this.sessions.size;
  }
}

/**
 * The session cookie's attributes: HttpOnly (no script reads it), SameSite=Strict (no other site's page sends it),
 * Path=/portal, Secure when the request came over TLS, and a lifetime no longer than the session's.
 */
export function sessionCookieOptions(secure: boolean, maxAgeMs: number): CookieOptions {
  return { httpOnly: true, sameSite: 'strict', secure, path: SESSION_PATH, maxAge: Math.max(0, maxAgeMs) };
}

function digest(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}
