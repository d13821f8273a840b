/**
 * The portal's sign-in routes: GET /nonce, POST /session (Sign-In with Ethereum → session cookie), GET /me and
 * POST /logout, with the per-address limit on nonces and sign-in attempts.
 */
import type { NextFunction, Request, Response, Router } from 'express';
import { clientAddress, clientLimitId } from '../../core/access/ipAddress';
import type { Chain } from '../../core/entities';
import { familyOf } from '../../core/chains/families';
import { ErrorCode } from '../../core/errors';
import type { MeAnswer, NonceAnswer } from '../api';
import { AttemptLimiter } from '../attempts';
import { isSecureRequest } from '../csrf';
import { SESSION_COOKIE, sessionCookieOptions, type Session } from '../sessions';
import { MAX_MESSAGE_MS, verifySignIn } from '../siwe';
import { cookieOf, header, logOf, type PortalContext } from './context';
import { PortalError } from './errors';

/** Adds the sign-in routes to the portal's API router. */
export function signInRoutes(api: Router, context: PortalContext): void {
  const { options, dependencies, logger, clock, defaultGraceMs, trustProxy, nonces, sessions, signedIn } = context;
  const nonceAttempts = new AttemptLimiter({ perMinute: options.signInAttemptsPerMinute, clock });
  const signInAttempts = new AttemptLimiter({ perMinute: options.signInAttemptsPerMinute, clock });

  /** The EVM chain ids of the catalog: the chains a sign-in message may name. */
  const chainIds = (): Set<number> => new Set(dependencies.catalog.listChains().filter((chain: Chain) => familyOf(chain).evmContracts).map((chain) => chain.id));

  /**
   * The session cookie is Secure when the request came over TLS (to this process, or to a trusted proxy in front of
   * it), or from an https origin of the portal (changes come only from the portal's origins).
   */
  const secure = (req: Request): boolean =>
    isSecureRequest({ encrypted: req.secure, peer: req.socket.remoteAddress, forwardedProto: header(req, 'x-forwarded-proto') }, trustProxy)
    || header(req, 'origin')?.startsWith('https:') === true;

  /** Counts a sign-in attempt of the client; 429 past the portal's limit. */
  const limited = (limiter: AttemptLimiter) => (req: Request, res: Response, next: NextFunction) => {
    const client = clientLimitId(clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], trustProxy));
    const attempt = limiter.attempt(client);
    if (attempt.allowed) return next();
    next(new PortalError(429, ErrorCode.RateLimitError, `Too many sign-in attempts from this address: at most ${limiter.perMinute} a minute; try again in ${attempt.retryAfterSeconds} s`, undefined, { 'retry-after': String(attempt.retryAfterSeconds) }));
  };

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
}
