/**
 * What the partner portal's tests share (test/http/portal.test.ts, test/browser/portal.ts): the access control on
 * the database's keys with a usage recorder (the service's own recorder is wired elsewhere: until then the tests
 * record the access control's outcomes themselves), and a client of the portal's API over supertest that signs in
 * with an ethers wallet (Sign-In with Ethereum) and keeps the session cookie and CSRF token.
 */
import type express from 'express';
import request from 'supertest';
import type { Test } from 'supertest';
import type { Wallet } from 'ethers';
import type { AccessOutcome } from '../../src/core/access/access';
import type { Database } from '../../src/persistence/database';
import { DatabaseKeyStore } from '../../src/persistence/databaseKeyStore';
import { recordUsage, type UsageIncrement } from '../../src/persistence/usage';
import { MemoryLimiterStore } from '../../src/server/access/memoryStore';
import { createAccessControl, type AccessControl } from '../../src/server/access/middleware';
import { signInMessage } from '../../src/portal/siwe';

/**
 * Records each access outcome as usage of its subject (the key when known, else the client address): one request,
 * and the refusal's status when refused. `flush()` waits for the writes made so far.
 */
export class UsageRecorder {
  private readonly pending = new Set<Promise<void>>();
  readonly failures: unknown[] = [];

  constructor(private readonly database: Database) {}

  record(outcome: AccessOutcome): void {
    if (!outcome.operationId) return;
    const increment: UsageIncrement = {
      subject: outcome.keyId ? { kind: 'key', id: outcome.keyId } : { kind: 'client', id: outcome.clientId },
      operationId: outcome.operationId,
      at: new Date(outcome.at),
      requests: 1,
      ...refusalCounts(outcome.outcome),
    };
    const write = recordUsage(this.database.db, [increment]).catch((error: unknown) => void this.failures.push(error));
    this.pending.add(write);
    void write.finally(() => this.pending.delete(write));
  }

  async flush(): Promise<void> {
    await Promise.all([...this.pending]);
    if (this.failures.length > 0) throw new Error(`usage not recorded: ${String(this.failures[0])}`);
  }
}

function refusalCounts(outcome: AccessOutcome['outcome']): Partial<UsageIncrement> {
  if (outcome === 'admitted' || outcome === 'invalid') return {};
  if (outcome === 'rate-limited') return { refused429: 1 };
  if (outcome === 'key-required' || outcome === 'unknown-key') return { refused401: 1 };
  return { refused403: 1 };
}

/** The access control of the portal's tests: keys from the database (no reuse of answers), limits in memory, usage recorded. */
export function databaseAccess(database: Database, recorder: UsageRecorder): AccessControl {
  return createAccessControl({
    keys: new DatabaseKeyStore(database.db, { ttlMs: 0 }),
    store: new MemoryLimiterStore(),
    override: 1_000_000,
    onOutcome: (outcome) => recorder.record(outcome),
  });
}

/** The host the tests reach the portal at (sent as Host), and the page's origin there. */
export const PORTAL_HOST = 'portal.test:8080';
export const PORTAL_ORIGIN = `http://${PORTAL_HOST}`;

export interface SignInOptions {
  /** The message's domain and URI origin (default PORTAL_ORIGIN). */
  readonly origin?: string;
  readonly chainId?: number;
  /** issuedAt (default now) and the message's lifetime. */
  readonly now?: number;
  readonly lifetimeMs?: number;
  /** A nonce to use instead of asking for one. */
  readonly nonce?: string;
  /** Who signs (default: the wallet the message names). */
  readonly signer?: Wallet;
}

/** A client of /portal/api: Host and Origin of the portal, and once signed in its cookie and CSRF token. */
export class PortalClient {
  cookie?: string;
  csrfToken?: string;

  constructor(
    private readonly app: express.Express,
    readonly wallet: Wallet,
  ) {}

  /** A read (GET) with the session cookie. */
  get(path: string): Test {
    return this.withCookie(request(this.app).get(`/portal/api${path}`).set('host', PORTAL_HOST));
  }

  /** A change with the session cookie, the portal's Origin and the CSRF token (each left out or replaced on demand). */
  change(method: 'post' | 'put' | 'patch' | 'delete', path: string, body?: unknown, options: { origin?: string | null; csrf?: string | null; host?: string } = {}): Test {
    let test = request(this.app)[method](`/portal/api${path}`).set('host', options.host ?? PORTAL_HOST);
    const origin = options.origin === undefined ? PORTAL_ORIGIN : options.origin;
    if (origin !== null) test = test.set('origin', origin);
    const csrf = options.csrf === undefined ? this.csrfToken : options.csrf;
    if (csrf) test = test.set('x-csrf-token', csrf);
    test = this.withCookie(test);
    return body === undefined ? test : test.send(body as object);
  }

  /** The signed sign-in message for a fresh nonce (or the one given). */
  async signedMessage(options: SignInOptions = {}): Promise<{ message: string; signature: string }> {
    const nonce = options.nonce ?? (await this.get('/nonce').expect(200)).body.nonce;
    const message = signInMessage({
      origin: options.origin ?? PORTAL_ORIGIN,
      address: this.wallet.address,
      chainId: options.chainId ?? 42161,
      nonce,
      now: options.now ?? Date.now(),
      ...(options.lifetimeMs === undefined ? {} : { lifetimeMs: options.lifetimeMs }),
    });
    return { message, signature: await (options.signer ?? this.wallet).signMessage(message) };
  }

  /** Presents a signed message; keeps the cookie and the CSRF token when it signs in. */
  async present(signed: { message: string; signature: string }): Promise<request.Response> {
    const res = await this.change('post', '/session', signed, { csrf: null });
    if (res.status === 200) {
      this.cookie = sessionCookie(res);
      this.csrfToken = res.body.csrfToken;
    }
    return res;
  }

  /** Signs in (expects success). */
  async signIn(options: SignInOptions = {}): Promise<request.Response> {
    const res = await this.present(await this.signedMessage(options));
    if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res;
  }

  private withCookie(test: Test): Test {
    return this.cookie ? test.set('cookie', this.cookie) : test;
  }
}

/** `portal_session=...` from a sign-in answer's Set-Cookie. */
export function sessionCookie(res: request.Response): string {
  const header = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((line) => line.startsWith('portal_session='));
  if (!header) throw new Error(`no session cookie in ${JSON.stringify(res.headers['set-cookie'])}`);
  return header.split(';')[0]!;
}
