/**
 * What the portal's groups of routes share: its options (PortalOptions), and the context portalRouter builds from them
 * once (PortalContext: the database, awaited with a limit; the nonce and session stores; the signed-in check; the
 * integrator and key a path names), with the small readers of a request (cookie, logger, header).
 */
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import type { TrustProxy } from '../../core/access/ipAddress';
import { ErrorCode } from '../../core/errors';
import { activeBlocks } from '../../persistence/blocks';
import type { Database } from '../../persistence/database';
import { getIntegrator, type Integrator } from '../../persistence/integrators';
import type { KeyView } from '../../persistence/keyRows';
import { getKey } from '../../persistence/keys';
import type { Dependencies } from '../../server/dependencies';
import type { HostLookup } from '../../webhooks/target';
import type { PortalKey } from '../api';
import { CHANGE_METHODS, CSRF_HEADER, csrfTokenMatches } from '../csrf';
import { SESSION_COOKIE, SessionStore, type Session } from '../sessions';
import { NonceStore } from '../siwe';
import { DEFAULT_GRACE_MS, portalKey } from '../views';
import { DATABASE_UNAVAILABLE, PortalError } from './errors';

export interface PortalOptions {
  /** The service's database, opened by the composition root; awaited on each request that needs it. */
  readonly database: () => Promise<Database>;
  /** The catalog, the fee ledger, the routers and the graph (gas prices) of the withdrawals. */
  readonly dependencies: Pick<Dependencies, 'catalog' | 'feeLedger' | 'routers' | 'graph'>;
  readonly logger: Logger;
  /**
   * The origins the portal is served at (PORTAL_ORIGIN, or the listen address's: src/config.ts portalOrigins): the
   * only origins its changes and its sign-in messages are accepted from. Read on each request (a server listening on
   * port 0 knows its port once it listens).
   */
  readonly origins: () => readonly string[];
  /** Unix ms (default Date.now): nonces, messages, sessions, key changes and usage windows. */
  readonly clock?: () => number;
  /** How long a rotated key keeps working unless the partner says otherwise (default 24 h). */
  readonly graceMs?: number;
  /** Sign-in attempts per client address and minute (default 30; attempts.ts). */
  readonly signInAttemptsPerMinute?: number;
  /** How a client's address is read for the sign-in limit (default: the connection's; TRUST_PROXY's setting). */
  readonly trustProxy?: TrustProxy;
  /** How long a request waits for the database before it is answered 503 (default 5 s). */
  readonly databaseWaitMs?: number;
  /** Told when an integrator was registered (the service reads its directory of fee wallets again at once). */
  readonly onIntegratorRegistered?: (integratorId: string) => void;
  /**
   * Webhook URLs may use http and name loopback and private addresses (WEBHOOK_ALLOW_PRIVATE: the sandbox and tests,
   * whose receivers run nearby); link-local and metadata addresses stay refused. Default false.
   */
  readonly webhookAllowPrivate?: boolean;
  /** How a webhook URL's host is resolved when it is set (default: the system's resolver, dns.promises.lookup). */
  readonly webhookLookup?: HostLookup;
}

/** The options with their defaults, and the helpers every group of routes uses. */
export interface PortalContext {
  readonly options: PortalOptions;
  readonly dependencies: PortalOptions['dependencies'];
  readonly logger: Logger;
  readonly clock: () => number;
  readonly defaultGraceMs: number;
  readonly trustProxy: TrustProxy;
  /** The database, or 503 when it does not come within databaseWaitMs. */
  readonly database: () => Promise<Database>;
  readonly nonces: NonceStore;
  readonly sessions: SessionStore;
  /** The request's session (401 without one); on a change, the session's CSRF token is required (403). */
  readonly signedIn: (req: Request, res: Response, next: NextFunction) => Promise<void>;
  /** The session signedIn found (on a route behind it). */
  readonly sessionOf: (res: Response) => Session;
  /** The integrator of the path, if it belongs to the signed-in wallet: 404 if unknown, 403 if another wallet's. */
  readonly ownIntegrator: (db: Database['db'], req: Request, res: Response) => Promise<Integrator>;
  /** The key of the path, if it belongs to the integrator (any state); 404 otherwise. */
  readonly ownKey: (db: Database['db'], integrator: Integrator, req: Request) => Promise<KeyView>;
  /** A key as shown, with its blocks in force (none looked up for keys that no longer work). */
  readonly shown: (db: Database['db'], view: KeyView) => Promise<PortalKey>;
  /** The signed-in wallet as the actor of a change, now. */
  readonly actor: (res: Response) => { actor: string; now: Date };
}

type SessionLocals = { session: Session };

export function portalContext(options: PortalOptions): PortalContext {
  const clock = options.clock ?? Date.now;
  const defaultGraceMs = options.graceMs ?? DEFAULT_GRACE_MS;
  const trustProxy: TrustProxy = options.trustProxy ?? { kind: 'none' };
  const { dependencies, logger } = options;

  const database = async (): Promise<Database> => {
    let timer: NodeJS.Timeout | undefined;
    const waitMs = options.databaseWaitMs ?? 5000;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`no database within ${waitMs} ms`)), waitMs);
    });
    try {
      return await Promise.race([Promise.resolve().then(() => options.database()), timeout]);
    } catch (error) {
      logger.warn({ err: { message: error instanceof Error ? error.message : String(error) } }, 'portal: the database is not available');
      throw new PortalError(503, ErrorCode.ServerError, DATABASE_UNAVAILABLE, undefined, { 'retry-after': '5' });
    } finally {
      clearTimeout(timer);
    }
  };

  // nonces and sessions live in the database (shared by every instance on it, kept across restarts)
  const storeDatabase = async () => (await database()).db;
  const nonces = new NonceStore(storeDatabase, { clock });
  const sessions = new SessionStore(storeDatabase, { clock });

  const signedIn = async (req: Request, res: Response, next: NextFunction) => {
    const session = await sessions.get(cookieOf(req));
    if (!session) return next(new PortalError(401, ErrorCode.UnauthorizedError, 'Not signed in, or the session has ended: sign in with your wallet'));
    if (CHANGE_METHODS.has(req.method) && !csrfTokenMatches(session.csrfToken, req.headers[CSRF_HEADER])) {
      return next(new PortalError(403, ErrorCode.UnauthorizedError, `Refused: the ${CSRF_HEADER} header must carry this session's CSRF token (from GET /portal/api/me)`));
    }
    (res.locals as SessionLocals).session = session;
    next();
  };
  const sessionOf = (res: Response): Session => (res.locals as SessionLocals).session;

  const ownIntegrator = async (db: Database['db'], req: Request, res: Response): Promise<Integrator> => {
    const integratorId = String(req.params.integratorId);
    const integrator = await getIntegrator(db, integratorId);
    if (!integrator) throw new PortalError(404, ErrorCode.NotFoundError, `No integrator "${integratorId}": register it first`);
    if (integrator.feeWallet !== sessionOf(res).address) {
      throw new PortalError(403, ErrorCode.UnauthorizedError, `Integrator "${integratorId}" belongs to another wallet: only the wallet that receives its fees manages it`);
    }
    return integrator;
  };

  const ownKey = async (db: Database['db'], integrator: Integrator, req: Request): Promise<KeyView> => {
    const keyId = String(req.params.keyId);
    const key = await getKey(db, keyId, new Date(clock()));
    if (!key || key.integratorId !== integrator.integratorId) throw new PortalError(404, ErrorCode.NotFoundError, `Integrator "${integrator.integratorId}" has no key "${keyId}"`);
    return key;
  };

  const shown = async (db: Database['db'], view: KeyView): Promise<PortalKey> => {
    const now = clock();
    const key = portalKey(view, [], now);
    if (key.status === 'revoked' || key.status === 'expired') return key;
    return portalKey(view, await activeBlocks(db, { kind: 'key', id: view.id }, new Date(now)), now);
  };

  const actor = (res: Response) => ({ actor: sessionOf(res).address, now: new Date(clock()) });

  return { options, dependencies, logger, clock, defaultGraceMs, trustProxy, database, nonces, sessions, signedIn, sessionOf, ownIntegrator, ownKey, shown, actor };
}

export function cookieOf(req: Request): string | undefined {
  const value = (req.cookies as Record<string, unknown> | undefined)?.[SESSION_COOKIE];
  return typeof value === 'string' ? value : undefined;
}

/** The request's logger (requestLogging's, bound to the request), or the portal's. */
export function logOf(req: Request, fallback: Logger): Logger {
  return (req as { log?: Logger }).log ?? fallback;
}

export function header(req: Request, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}
