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
 *
 * This file builds the router: the page, the API's common middleware, the routes of routes/ (signIn.ts, integrators.ts,
 * keys.ts, fees.ts, webhooks.ts, transfers.ts, on the shared context of context.ts) and the JSON error answers
 * (errors.ts).
 */
import cookieParser from 'cookie-parser';
import express, { type NextFunction, type Request, type Response } from 'express';
import { ErrorCode } from '../core/errors';
import { CHANGE_METHODS, originRefusal } from './csrf';
import { PAGE_CSP, PAGE_CSS, PAGE_HTML, PAGE_REFERRER_POLICY, pageScript } from './page';
import { header, logOf, portalContext, type PortalOptions } from './routes/context';
import { answerOf, MAX_BODY_BYTES, PortalError } from './routes/errors';
import { feeRoutes } from './routes/fees';
import { integratorRoutes } from './routes/integrators';
import { keyRoutes } from './routes/keys';
import { signInRoutes } from './routes/signIn';
import { transferRoutes } from './routes/transfers';
import { webhookRoutes } from './routes/webhooks';

// declared beside the context the routes share; the service (serviceModules.ts) and the tests take them from here
export type { PortalOptions } from './routes/context';

export function portalRouter(options: PortalOptions): express.Router {
  const context = portalContext(options);
  const { clock, logger } = context;

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

  signInRoutes(api, context);
  integratorRoutes(api, context);
  keyRoutes(api, context);
  feeRoutes(api, context);
  webhookRoutes(api, context);
  transferRoutes(api, context);

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
