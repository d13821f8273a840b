/**
 * The partner portal, mounted at /portal (outside /v1 and outside openapi.yaml: no API key, not counted against the
 * API's rate limits; its sign-in has limits of its own):
 *
 *   GET  /portal                                     the page (page.ts), /portal/portal.js and /portal/portal.css
 *   GET  /portal/api/nonce                           a sign-in nonce (siwe.ts)
 *   POST /portal/api/session                         sign in: { message, signature } → session cookie
 *   GET  /portal/api/me                              the session: wallet, CSRF token, expiry ({ signedIn: false } without one)
 *   POST /portal/api/logout                          sign out
 *   GET  /portal/api/integrators                     the wallet's integrators (those whose fee wallet it is)
 *   POST /portal/api/integrators                     register one: { integratorId }, fee wallet = the signed-in wallet
 *   GET  /portal/api/integrators/:id                 the integrator with its keys (limits, blocks)
 *   POST /portal/api/integrators/:id/keys            create a key: { name?, ipAllowlist? } → the key, shown once
 *   PATCH .../keys/:keyId                            rename: { name }
 *   PUT  .../keys/:keyId/allowlist                   { ipAllowlist: [...] | null }
 *   POST .../keys/:keyId/rotate                      { graceHours? } → the new key, shown once; the old one works until its expiresAt
 *   POST .../keys/:keyId/revoke                      the key never works again
 *   GET  .../keys/:keyId/usage?range=1h|24h|7d[&operationId=]  requests and refusals over time and by operation, limits, blocks
 *   GET  /portal/api/integrators/:id/fees            fee balances per chain
 *   GET  .../fees/:chainId/withdrawal                the withdrawal transaction, for the wallet to send
 *   GET  /portal/api/integrators/:id/webhook         the webhook ({ url, createdAt, updatedAt } or null, never its
 *                                                    secret) and its latest 20 deliveries
 *   PUT  .../webhook                                 set its URL: { url }, checked (https, no credentials, every
 *                                                    address its host resolves to outside loopback, private,
 *                                                    link-local and metadata ranges: src/webhooks/target.ts), else a
 *                                                    400 naming the rule; a first webhook is made with its secret,
 *                                                    shown in this answer once (201); a new URL keeps the secret
 *   POST .../webhook/secret                          a new secret, shown once (the old one stops signing at once)
 *   DELETE .../webhook                               no webhook any more, and no pending delivery (204)
 *   GET  .../transfers?limit=                        the integrator's latest transfers of the index (at most 50,
 *                                                    20 by default), each with its explorer page /explorer/tx/<hash>
 *
 * Answers are JSON (api.ts), never cached; errors are `{ message, code }` with a 4xx status for every mistake of
 * the client, 503 while the database is unavailable. Sign-in messages and changes are accepted only from the portal's
 * configured origins (PORTAL_ORIGIN), never judged by the Host a client sends. Sign-in nonces and sessions are kept in that database too
 * (siwe.ts, sessions.ts): a restart signs nobody out, and every instance on one DATABASE_URL serves every session
 * (no sticky sessions); without the database, signing in and reading a session answer 503 as well. Every change
 * (POST, PUT, PATCH, DELETE) must come from the portal's own origin (csrf.ts), and, once signed in, carry the
 * session's CSRF token in `x-csrf-token`. Changes are made by the repositories of src/persistence with the
 * signed-in wallet as their actor.
 */
import cookieParser from 'cookie-parser';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { getAddress } from 'ethers';
import { clientAddress, clientLimitId, type TrustProxy } from '../core/access/ipAddress';
import { keyLimits } from '../core/access/policy';
import type { Chain } from '../core/entities';
import { familyOf } from '../core/chains/families';
import { DomainError, ErrorCode } from '../core/errors';
import { feeReportOf } from '../core/fees/balances';
import { buildFeeWithdrawal } from '../core/fees/withdrawal';
import { activeBlocks } from '../persistence/blocks';
import type { Database } from '../persistence/database';
import { ConflictError, IntegratorBlockedError, InvalidValueError, isDatabaseUnavailable, isUniqueViolation, NotFoundError } from '../persistence/errors';
import { getIntegrator, listIntegrators, registerIntegrator, type Integrator } from '../persistence/integrators';
import type { KeyView } from '../persistence/keyRows';
import { createKey, getKey, listKeys, renameKey, revokeKey, rotateKey, setKeyAllowlist } from '../persistence/keys';
import { listTransfers } from '../persistence/transfers';
import { usageByOperation, usageSeries } from '../persistence/usage';
import { changeWebhookUrl, createWebhook, deleteWebhook, getWebhook, recentDeliveries, renewWebhookSecret } from '../persistence/webhooks';
import type { Dependencies } from '../server/dependencies';
import { domainErrorToHttp, requestRefused } from '../server/httpErrors';
import { newWebhookSecret } from '../webhooks/signature';
import { checkWebhookUrl, resolveWebhookTarget, WebhookUrlError, type HostLookup } from '../webhooks/target';
import type {
  FeesAnswer, IntegratorAnswer, IntegratorsAnswer, IssuedKeyAnswer, IssuedWebhookAnswer, KeyAnswer, MeAnswer, NonceAnswer, PortalErrorBody, PortalKey, PortalTransfer,
  TransfersAnswer, UsageAnswer, WebhookAnswer, WithdrawalAnswer,
} from './api';
import { AttemptLimiter } from './attempts';
import { CHANGE_METHODS, CSRF_HEADER, csrfTokenMatches, isSecureRequest, originRefusal } from './csrf';
import { PAGE_CSP, PAGE_CSS, PAGE_HTML, PAGE_REFERRER_POLICY, pageScript } from './page';
import { SESSION_COOKIE, SessionStore, sessionCookieOptions, type Session } from './sessions';
import { MAX_MESSAGE_MS, NonceStore, SignInError, verifySignIn } from './siwe';
import {
  DEFAULT_GRACE_MS, DELIVERIES_SHOWN, InputError, allowlist, deliveryInfo, feesAnswer, graceMs, integratorIdOf, keyName, noFees, orderKeys, portalKey, portalTransfer,
  portalWebhook, transfersLimit, usageWindow, webhookUrlOf, webhookUrlRefused, withdrawalAnswer,
} from './views';

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

/** A wallet registers at most this many integrator ids through the portal. */
export const MAX_INTEGRATORS_PER_WALLET = 20;
/** An integrator has at most this many keys that work (active or in a rotation's grace period). */
export const MAX_WORKING_KEYS = 20;
/** The largest JSON body the portal's API reads. */
const MAX_BODY_BYTES = 16 * 1024;

/** An answer other than 200, decided by the portal: its status, and the body `{ message, code, errors? }`. */
class PortalError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly details?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

type SessionLocals = { session: Session };

export function portalRouter(options: PortalOptions): express.Router {
  const clock = options.clock ?? Date.now;
  const defaultGraceMs = options.graceMs ?? DEFAULT_GRACE_MS;
  const trustProxy: TrustProxy = options.trustProxy ?? { kind: 'none' };
  const nonceAttempts = new AttemptLimiter({ perMinute: options.signInAttemptsPerMinute, clock });
  const signInAttempts = new AttemptLimiter({ perMinute: options.signInAttemptsPerMinute, clock });
  const { dependencies, logger } = options;

  /** The EVM chain ids of the catalog: the chains a sign-in message may name. */
  const chainIds = (): Set<number> => new Set(dependencies.catalog.listChains().filter((chain: Chain) => familyOf(chain).evmContracts).map((chain) => chain.id));

  /** The database, or 503 when it does not come within databaseWaitMs. */
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

  /**
   * The session cookie is Secure when the request came over TLS (to this process, or to a trusted proxy in front of
   * it), or from an https origin of the portal (changes come only from the portal's origins).
   */
  const secure = (req: Request): boolean =>
    isSecureRequest({ encrypted: req.secure, peer: req.socket.remoteAddress, forwardedProto: header(req, 'x-forwarded-proto') }, trustProxy)
    || header(req, 'origin')?.startsWith('https:') === true;

  const router = express.Router();

  // --- the page -------------------------------------------------------------------------------------------------
  router.get('/', (req: Request, res: Response) => {
    // /portal/ and /portal are one page; relative links are not used, so either works
    res.set({ 'content-security-policy': PAGE_CSP, 'referrer-policy': PAGE_REFERRER_POLICY, 'cache-control': 'no-cache' }).type('html').send(PAGE_HTML);
    void pageScript().catch(() => undefined); // bundle while the browser parses the page
  });
  router.get('/portal.js', async (_req: Request, res: Response) => {
    res.type('application/javascript; charset=utf-8').set('cache-control', 'no-cache').send(await pageScript());
  });
  router.get('/portal.css', (_req: Request, res: Response) => {
    res.type('text/css; charset=utf-8').set('cache-control', 'no-cache').send(PAGE_CSS);
  });

  // --- the API --------------------------------------------------------------------------------------------------
  const api = express.Router();
  router.use('/api', api);

  api.use(
    (_req: Request, res: Response, next: NextFunction) => {
      res.set('cache-control', 'no-store'); // answers carry keys, tokens and balances: never stored
      next();
    },
    cookieParser(),
    express.json({ limit: MAX_BODY_BYTES, type: 'application/json' }),
    // every change comes from the portal's own page
    (req: Request, _res: Response, next: NextFunction) => {
      if (!CHANGE_METHODS.has(req.method)) return next();
      const refusal = originRefusal({ origin: req.headers.origin, fetchSite: header(req, 'sec-fetch-site') }, options.origins());
      if (refusal) return next(new PortalError(403, ErrorCode.UnauthorizedError, `Refused: ${refusal}`));
      next();
    },
  );

  /** Counts a sign-in attempt of the client; 429 past the portal's limit. */
  const limited = (limiter: AttemptLimiter) => (req: Request, res: Response, next: NextFunction) => {
    const client = clientLimitId(clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], trustProxy));
    const attempt = limiter.attempt(client);
    if (attempt.allowed) return next();
    next(new PortalError(429, ErrorCode.RateLimitError, `Too many sign-in attempts from this address: at most ${limiter.perMinute} a minute; try again in ${attempt.retryAfterSeconds} s`, undefined, { 'retry-after': String(attempt.retryAfterSeconds) }));
  };

  /** The request's session (401 without one); on a change, the session's CSRF token is required (403). */
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

  const meOf = (session: Session): MeAnswer => ({
    signedIn: true,
    address: session.address,
    chainId: session.chainId,
    csrfToken: session.csrfToken,
    expiresAt: new Date(session.expiresAt).toISOString(),
    graceHours: defaultGraceMs / 3_600_000,
  });

  api.get('/nonce', limited(nonceAttempts), async (_req: Request, res: Response) => {
    const { nonce, expiresAt } = await nonces.issue();
    const answer: NonceAnswer = { nonce, expiresAt: new Date(expiresAt).toISOString(), chainIds: [...chainIds()].sort((a, b) => a - b), maxMessageSeconds: MAX_MESSAGE_MS / 1000 };
    res.json(answer);
  });

  api.post('/session', limited(signInAttempts), async (req: Request, res: Response) => {
    const body = (req.body ?? {}) as { message?: unknown; signature?: unknown };
    const signer = await verifySignIn(body, { origins: options.origins(), chainIds: chainIds(), now: clock() }, nonces);
    // a session already open in this browser ends: one cookie, one session
    await sessions.delete(cookieOf(req));
    const { id, session } = await sessions.create(signer);
    res.cookie(SESSION_COOKIE, id, sessionCookieOptions(secure(req), session.expiresAt - session.createdAt));
    logOf(req, logger).info({ address: session.address, chainId: session.chainId }, 'portal: signed in');
    res.json(meOf(session));
  });

  api.get('/me', async (req: Request, res: Response) => {
    const session = await sessions.get(cookieOf(req));
    const answer: MeAnswer = session ? meOf(session) : { signedIn: false };
    res.json(answer);
  });

  api.post('/logout', signedIn, async (req: Request, res: Response) => {
    await sessions.delete(cookieOf(req));
    const { maxAge: _maxAge, ...cleared } = sessionCookieOptions(secure(req), 0);
    res.clearCookie(SESSION_COOKIE, cleared);
    res.json({ signedIn: false } satisfies MeAnswer);
  });

  // --- integrators ----------------------------------------------------------------------------------------------
  api.get('/integrators', signedIn, async (_req: Request, res: Response) => {
    const db = (await database()).db;
    const integrators = await listIntegrators(db, { feeWallet: sessionOf(res).address });
    res.json({ integrators } satisfies IntegratorsAnswer);
  });

  api.post('/integrators', signedIn, async (req: Request, res: Response) => {
    const { address } = sessionOf(res);
    const id = integratorIdOf((req.body as { integratorId?: unknown } | undefined)?.integratorId);
    // an id the fee ledger knows (in any case: ids are unique without regard to case) is the ledger's: its own id, to
    // the wallet the ledger books its fees to; a case variant of it, to nobody
    const inLedger = dependencies.feeLedger.integratorIds.find((known) => known.toLowerCase() === id.toLowerCase());
    if (inLedger !== undefined) {
      const booked = dependencies.feeLedger.feeWallet(inLedger);
      if (inLedger !== id) throw new PortalError(409, ErrorCode.DefaultError, `Integrator id "${id}" is taken: the fee ledger books "${inLedger}", and ids are compared without regard to case`);
      if (booked !== undefined && sameAddress(booked, address) !== true) {
        throw new PortalError(403, ErrorCode.UnauthorizedError, `Integrator id "${id}" is taken: its fees go to another wallet`);
      }
      // the ledger books its fees without a wallet yet: the operator's to give one, not the first signer's to claim
      if (booked === undefined) {
        throw new PortalError(403, ErrorCode.UnauthorizedError, `Integrator id "${id}" is reserved: the service's fee ledger books its fees and names no wallet for them yet; its operator assigns it`);
      }
    }
    const { db } = await database();
    // the partner is registered with it; counted and inserted under a lock on the partner's row: parallel registrations never pass the cap
    const integrator = await registerIntegrator(db, { integratorId: id, feeWallet: address }, { maxPerWallet: MAX_INTEGRATORS_PER_WALLET });
    logOf(req, logger).info({ integratorId: id, address }, 'portal: integrator registered');
    options.onIntegratorRegistered?.(id);
    res.status(201).json(integrator);
  });

  /** The integrator of the path, if it belongs to the signed-in wallet: 404 if unknown, 403 if another wallet's. */
  const ownIntegrator = async (db: Database['db'], req: Request, res: Response): Promise<Integrator> => {
    const integratorId = String(req.params.integratorId);
    const integrator = await getIntegrator(db, integratorId);
    if (!integrator) throw new PortalError(404, ErrorCode.NotFoundError, `No integrator "${integratorId}": register it first`);
    if (integrator.feeWallet !== sessionOf(res).address) {
      throw new PortalError(403, ErrorCode.UnauthorizedError, `Integrator "${integratorId}" belongs to another wallet: only the wallet that receives its fees manages it`);
    }
    return integrator;
  };

  /** The key of the path, if it belongs to the integrator (any state); 404 otherwise. */
  const ownKey = async (db: Database['db'], integrator: Integrator, req: Request): Promise<KeyView> => {
    const keyId = String(req.params.keyId);
    const key = await getKey(db, keyId, new Date(clock()));
    if (!key || key.integratorId !== integrator.integratorId) throw new PortalError(404, ErrorCode.NotFoundError, `Integrator "${integrator.integratorId}" has no key "${keyId}"`);
    return key;
  };

  /** A key as shown, with its blocks in force (none looked up for keys that no longer work). */
  const shown = async (db: Database['db'], view: KeyView): Promise<PortalKey> => {
    const now = clock();
    const key = portalKey(view, [], now);
    if (key.status === 'revoked' || key.status === 'expired') return key;
    return portalKey(view, await activeBlocks(db, { kind: 'key', id: view.id }, new Date(now)), now);
  };

  api.get('/integrators/:integratorId', signedIn, async (req: Request, res: Response) => {
    const { db } = await database();
    const integrator = await ownIntegrator(db, req, res);
    const views = await listKeys(db, { integratorId: integrator.integratorId, all: true, now: new Date(clock()) });
    const keys = orderKeys(await Promise.all(views.map((view) => shown(db, view))));
    res.json({ ...integrator, keys } satisfies IntegratorAnswer);
  });

  // --- keys -----------------------------------------------------------------------------------------------------
  const actor = (res: Response) => ({ actor: sessionOf(res).address, now: new Date(clock()) });

  api.post('/integrators/:integratorId/keys', signedIn, async (req: Request, res: Response) => {
    const body = (req.body ?? {}) as { name?: unknown; ipAllowlist?: unknown };
    const name = body.name === undefined || body.name === '' ? undefined : keyName(body.name);
    const ipAllowlist = allowlist(body.ipAllowlist);
    const { db } = await database();
    const integrator = await ownIntegrator(db, req, res);
    // refused while a key of the integrator is blocked (403, IntegratorBlockedError); counted and inserted under a
    // lock on the integrator's row, so that parallel creations never pass the cap (409)
    const issued = await createKey(db, { integratorId: integrator.integratorId, ...(name ? { name } : {}), ...(ipAllowlist ? { ipAllowlist } : {}) }, actor(res), { maxWorkingKeys: MAX_WORKING_KEYS });
    logOf(req, logger).info({ integratorId: integrator.integratorId, keyId: issued.view.id }, 'portal: key created');
    res.status(201).json({ key: issued.key, view: await shown(db, issued.view) } satisfies IssuedKeyAnswer);
  });

  api.patch('/integrators/:integratorId/keys/:keyId', signedIn, async (req: Request, res: Response) => {
    const name = keyName((req.body as { name?: unknown } | undefined)?.name);
    const { db } = await database();
    const key = await ownKey(db, await ownIntegrator(db, req, res), req);
    const view = await renameKey(db, key.id, name, actor(res));
    res.json({ view: await shown(db, view) } satisfies KeyAnswer);
  });

  api.put('/integrators/:integratorId/keys/:keyId/allowlist', signedIn, async (req: Request, res: Response) => {
    const body = req.body as { ipAllowlist?: unknown } | undefined;
    if (!body || !('ipAllowlist' in body)) throw new InputError('send { "ipAllowlist": [addresses and CIDR ranges] } (or null: from anywhere)');
    const entries = allowlist(body.ipAllowlist);
    const { db } = await database();
    const key = await ownKey(db, await ownIntegrator(db, req, res), req);
    const view = await setKeyAllowlist(db, key.id, entries, actor(res));
    logOf(req, logger).info({ keyId: key.id, entries: entries?.length ?? 0 }, 'portal: key allowlist set');
    res.json({ view: await shown(db, view) } satisfies KeyAnswer);
  });

  api.post('/integrators/:integratorId/keys/:keyId/rotate', signedIn, async (req: Request, res: Response) => {
    const grace = graceMs((req.body as { graceHours?: unknown } | undefined)?.graceHours, defaultGraceMs);
    const { db } = await database();
    const key = await ownKey(db, await ownIntegrator(db, req, res), req);
    const rotation = await rotateKey(db, key.id, grace, actor(res));
    logOf(req, logger).info({ keyId: key.id, newKeyId: rotation.view.id, graceHours: grace / 3_600_000 }, 'portal: key rotated');
    res.status(201).json({ key: rotation.key, view: await shown(db, rotation.view), previous: await shown(db, rotation.previous) } satisfies IssuedKeyAnswer);
  });

  api.post('/integrators/:integratorId/keys/:keyId/revoke', signedIn, async (req: Request, res: Response) => {
    const { db } = await database();
    const key = await ownKey(db, await ownIntegrator(db, req, res), req);
    const view = await revokeKey(db, key.id, { ...actor(res), reason: 'revoked in the partner portal' });
    logOf(req, logger).info({ keyId: key.id }, 'portal: key revoked');
    res.json({ view: await shown(db, view) } satisfies KeyAnswer);
  });

  api.get('/integrators/:integratorId/keys/:keyId/usage', signedIn, async (req: Request, res: Response) => {
    const window = usageWindow(req.query.range, clock());
    const operationId = req.query.operationId;
    if (operationId !== undefined && (typeof operationId !== 'string' || !/^[A-Za-z0-9_]{1,100}$/.test(operationId))) throw new InputError('operationId must be an operation id (letters, digits, _)');
    const { db } = await database();
    const key = await ownKey(db, await ownIntegrator(db, req, res), req);
    const subject = { kind: 'key' as const, id: key.id };
    const [series, byOperation, blocks] = await Promise.all([
      usageSeries(db, { subject, from: window.from, to: window.to, stepMinutes: window.stepMinutes, ...(operationId ? { operationId } : {}) }),
      usageByOperation(db, { subject, from: window.from, to: window.to }),
      activeBlocks(db, subject, new Date(clock())),
    ]);
    const answer: UsageAnswer = {
      keyId: key.id,
      range: window.range,
      from: window.from.toISOString(),
      to: window.to.toISOString(),
      stepMinutes: window.stepMinutes,
      ...(operationId ? { operationId } : {}),
      series,
      byOperation,
      limits: keyLimits(key.perMinute),
      blocks: portalKey(key, blocks, clock()).blocks,
    };
    res.json(answer);
  });

  // --- fees -----------------------------------------------------------------------------------------------------
  api.get('/integrators/:integratorId/fees', signedIn, async (req: Request, res: Response) => {
    const { db } = await database();
    const integrator = await ownIntegrator(db, req, res);
    const fees = await dependencies.feeLedger.integrator(integrator.integratorId);
    const catalog = dependencies.catalog;
    const answer: FeesAnswer = fees
      ? feesAnswer(feeReportOf(fees, catalog), catalog, (chainId) => dependencies.routers.feeCollectorOf(chainId), fees.feeWallet ?? dependencies.feeLedger.feeWallet(integrator.integratorId))
      : noFees(integrator.integratorId);
    res.json(answer);
  });

  api.get('/integrators/:integratorId/fees/:chainId/withdrawal', signedIn, async (req: Request, res: Response) => {
    const chainId = String(req.params.chainId);
    if (!/^\d{1,20}$/.test(chainId)) throw new InputError(`chainId must be a chain id (digits): "${chainId.slice(0, 40)}"`);
    const { db } = await database();
    const integrator = await ownIntegrator(db, req, res);
    const withdrawal = await buildFeeWithdrawal(
      { ledger: dependencies.feeLedger, catalog: dependencies.catalog, routers: dependencies.routers, gas: (id) => dependencies.graph.gas(id) },
      { integratorId: integrator.integratorId, chain: Number(chainId) },
    );
    res.json(withdrawalAnswer(withdrawal) satisfies WithdrawalAnswer);
  });

  // --- webhook --------------------------------------------------------------------------------------------------
  const webhookTarget = { allowPrivate: options.webhookAllowPrivate ?? false, ...(options.webhookLookup ? { lookup: options.webhookLookup } : {}) };

  /**
   * The URL sent, if a webhook may be sent there: its form, then every address its host resolves to now (delivery
   * checks again, on the address it connects to); otherwise a 400 naming the field and the rule.
   */
  const webhookUrl = async (raw: string): Promise<URL> => {
    try {
      const url = checkWebhookUrl(raw, webhookTarget);
      await resolveWebhookTarget(url, webhookTarget);
      return url;
    } catch (error) {
      throw error instanceof WebhookUrlError ? webhookUrlRefused(error) : error;
    }
  };

  api.get('/integrators/:integratorId/webhook', signedIn, async (req: Request, res: Response) => {
    const { db } = await database();
    const integrator = await ownIntegrator(db, req, res);
    const [webhook, deliveries] = await Promise.all([getWebhook(db, integrator.integratorId), recentDeliveries(db, integrator.integratorId, DELIVERIES_SHOWN)]);
    res.json({ webhook: webhook ? portalWebhook(webhook) : null, deliveries: deliveries.map(deliveryInfo) } satisfies WebhookAnswer);
  });

  api.put('/integrators/:integratorId/webhook', signedIn, async (req: Request, res: Response) => {
    const raw = webhookUrlOf((req.body as { url?: unknown } | undefined)?.url);
    const { db } = await database();
    const integrator = await ownIntegrator(db, req, res);
    const url = await webhookUrl(raw);
    const now = new Date(clock());
    // a new URL keeps the secret: the receiver's check goes on working
    const changed = await changeWebhookUrl(db, integrator.integratorId, url.href, now);
    if (changed) {
      logOf(req, logger).info({ integratorId: integrator.integratorId, host: url.host }, 'portal: webhook URL changed');
      res.json({ webhook: portalWebhook(changed) } satisfies IssuedWebhookAnswer);
      return;
    }
    try {
      const webhook = await createWebhook(db, integrator.integratorId, url.href, newWebhookSecret(), now);
      logOf(req, logger).info({ integratorId: integrator.integratorId, host: url.host }, 'portal: webhook set');
      res.status(201).json({ webhook: portalWebhook(webhook), secret: webhook.secret } satisfies IssuedWebhookAnswer);
    } catch (error) {
      // another request made it meanwhile: its answer showed the secret
      if (isUniqueViolation(error)) throw new PortalError(409, ErrorCode.DefaultError, `Integrator "${integrator.integratorId}" got a webhook meanwhile: reload it, and renew its secret if its answer was not seen`);
      throw error;
    }
  });

  api.post('/integrators/:integratorId/webhook/secret', signedIn, async (req: Request, res: Response) => {
    const { db } = await database();
    const integrator = await ownIntegrator(db, req, res);
    const webhook = await renewWebhookSecret(db, integrator.integratorId, newWebhookSecret(), new Date(clock()));
    if (!webhook) throw new PortalError(404, ErrorCode.NotFoundError, `Integrator "${integrator.integratorId}" has no webhook: set its URL first`);
    logOf(req, logger).info({ integratorId: integrator.integratorId }, 'portal: webhook secret renewed');
    res.json({ webhook: portalWebhook(webhook), secret: webhook.secret } satisfies IssuedWebhookAnswer);
  });

  api.delete('/integrators/:integratorId/webhook', signedIn, async (req: Request, res: Response) => {
    const { db } = await database();
    const integrator = await ownIntegrator(db, req, res);
    if (!(await deleteWebhook(db, integrator.integratorId))) throw new PortalError(404, ErrorCode.NotFoundError, `Integrator "${integrator.integratorId}" has no webhook`);
    logOf(req, logger).info({ integratorId: integrator.integratorId }, 'portal: webhook removed');
    res.status(204).end();
  });

  // --- transfers ------------------------------------------------------------------------------------------------
  api.get('/integrators/:integratorId/transfers', signedIn, async (req: Request, res: Response) => {
    const limit = transfersLimit(req.query.limit);
    const { db } = await database();
    const integrator = await ownIntegrator(db, req, res);
    const page = await listTransfers(db, { integrator: integrator.integratorId }, { limit });
    const transfers = page.transfers.map(portalTransfer).filter((transfer): transfer is PortalTransfer => transfer !== undefined);
    res.json({ transfers } satisfies TransfersAnswer);
  });

  // --- anything else under /portal, and every error: JSON -------------------------------------------------------
  router.use((req: Request, _res: Response, next: NextFunction) => {
    next(new PortalError(404, ErrorCode.NotFoundError, `No such portal endpoint: ${req.method} ${req.baseUrl}${req.path}`));
  });
  router.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const { status, body, headers } = answerOf(error, req, clock());
    if (status >= 500 && status !== 503) logOf(req, logger).error({ err: error }, 'portal: unexpected error');
    else if (status === 503 && !(error instanceof PortalError)) logOf(req, logger).warn({ err: { message: error instanceof Error ? error.message : String(error) } }, 'portal: the database stopped answering');
    if (headers) res.set(headers);
    res.status(status).json(body);
  });

  return router;
}

const DATABASE_UNAVAILABLE = 'The portal\'s database is not available right now: try again in a moment';

/** The status and body of an error (at `now`, unix ms): the portal's, the repositories', the core's, the body parser's, or a 500. */
function answerOf(error: unknown, req: Request, now: number): { status: number; body: PortalErrorBody; headers?: Record<string, string> } {
  if (error instanceof PortalError) return { status: error.status, body: body(error.message, error.code, error.details), ...(error.headers ? { headers: error.headers } : {}) };
  if (error instanceof SignInError) return { status: error.status, body: body(`Sign-in refused: ${error.message}`, error.status === 401 ? ErrorCode.UnauthorizedError : ErrorCode.ValidationError) };
  if (error instanceof InputError) return { status: 400, body: body(error.message, ErrorCode.ValidationError, error.details) };
  if (error instanceof InvalidValueError) return { status: 400, body: body(error.message, ErrorCode.ValidationError) };
  if (error instanceof NotFoundError) return { status: 404, body: body(error.message, ErrorCode.NotFoundError) };
  if (error instanceof ConflictError) return { status: 409, body: body(error.message, ErrorCode.DefaultError) };
  if (error instanceof IntegratorBlockedError) {
    // as /v1 answers a blocked key: 403 code 1010, with Retry-After at the block's end (none for a block until lifted)
    const retryAfter = error.retryAfterSeconds(now);
    return { status: 403, body: body(`Refused: ${error.message}`, ErrorCode.UnauthorizedError), ...(retryAfter === undefined ? {} : { headers: { 'retry-after': String(retryAfter) } }) };
  }
  if (error instanceof DomainError) {
    // the core's errors (fees, withdrawal) with their status and code; their message names what is wrong
    const answer = domainErrorToHttp(error);
    return { status: answer.status, body: body(answer.body.message, answer.body.code) };
  }
  const refused = requestRefused(error, MAX_BODY_BYTES);
  if (refused) return { status: refused.status, body: body(refused.body.message, refused.body.code) };
  // the database stopped answering after it opened: as when it does not come at all (and as /v1 answers)
  if (isDatabaseUnavailable(error)) return { status: 503, body: body(DATABASE_UNAVAILABLE, ErrorCode.ServerError), headers: { 'retry-after': '5' } };
  const requestId = String((req as { id?: unknown }).id ?? 'unknown');
  return { status: 500, body: { message: `Internal server error; quote request id ${requestId} when reporting it`, code: ErrorCode.ServerError } };
}

function body(message: string, code: number, errors?: unknown): PortalErrorBody {
  return errors === undefined ? { message, code } : { message, code, errors };
}

function cookieOf(req: Request): string | undefined {
  const value = (req.cookies as Record<string, unknown> | undefined)?.[SESSION_COOKIE];
  return typeof value === 'string' ? value : undefined;
}

/** The request's logger (requestLogging's, bound to the request), or the portal's. */
function logOf(req: Request, fallback: Logger): Logger {
  return (req as { log?: Logger }).log ?? fallback;
}

function header(req: Request, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** Whether two EVM addresses are one (undefined when either is not an address). */
function sameAddress(a: string, b: string): boolean | undefined {
  try {
    return getAddress(a) === getAddress(b);
  } catch {
    return undefined;
  }
}
