import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { API_KEY_HEADER, checkIntegrators, identify, type InstanceRestrictions, type Refusal } from '../../core/access/access';
import { clientAddress, clientLimitId, type TrustProxy } from '../../core/access/ipAddress';
import { keyFingerprint, type ApiKeyRecord } from '../../core/access/keys';
import type { KeyStore, KnownKey } from '../../core/access/keyStore';
import { endpointClass, limitRule, type EndpointClass, type LimitRule } from '../../core/access/policy';
import { accessRefused, rateLimited, sendError } from '../httpErrors';
import type { LimitDecision, LimiterStore } from './limiterStore';

export interface AccessControlOptions {
  readonly keys: KeyStore;
  readonly store: LimiterStore;
  readonly restrictions?: InstanceRestrictions;
  readonly trustProxy?: TrustProxy;
  /** 'off' counts nothing and sends no rate-limit headers (behind a gateway that already limits). */
  readonly rateLimits?: 'on' | 'off';
  /** Replaces every limit (RATE_LIMIT_OVERRIDE). */
  readonly override?: number;
  /** For the reset time in 429 messages (default Date.now). */
  readonly clock?: () => number;
}

/** What the access middleware leaves in res.locals for the rest of the request. */
export interface AccessLocals {
  /** The authenticated key (its record: id, limits; never the key). */
  apiKey?: ApiKeyRecord;
  /** The address the request is attributed to. */
  clientAddress: string;
  endpointClass: EndpointClass;
  rateLimit?: LimitDecision;
}

export interface AccessControl {
  /** Mount after the request logger and before body parsing: identifies the caller, counts the
   *  request, sets the rate-limit headers on every response, answers 429, 401 and key-related 403s. */
  readonly identify: RequestHandler;
  /** Mount after body parsing: refuses integrator ids that the key or the instance does not accept (403). */
  readonly authorize: RequestHandler;
  readonly keys: KeyStore;
  readonly store: LimiterStore;
  /** openapi-backend security handler for the contract's ApiKeyAuth scheme: satisfied when this
   *  middleware authenticated a key (register with api.registerSecurityHandler('ApiKeyAuth', ...)). */
  apiKeyAuth(context: unknown, req: Request, res: Response): boolean;
  /** The key record of a presented, known key (for the key-test handler, which sees only headers). */
  keyRecord(presented: string | string[] | undefined): ApiKeyRecord | undefined;
  close(): Promise<void>;
}

const KNOWN_KEY = Symbol('knownKey');
type AccessResponse = Response & { [KNOWN_KEY]?: KnownKey };

export function createAccessControl(options: AccessControlOptions): AccessControl {
  const restrictions = options.restrictions ?? {};
  const trustProxy = options.trustProxy ?? { kind: 'none' };
  const counting = (options.rateLimits ?? 'on') === 'on';
  const clock = options.clock ?? Date.now;

  const identifyHandler: RequestHandler = (req: Request, res: Response, next: NextFunction) => {
    try {
      const address = clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], trustProxy);
      const endpoint = endpointClass(req.path);
      const presentedKey = headerValue(req.headers[API_KEY_HEADER]);
      const identity = identify(options.keys, restrictions, { path: req.path, presentedKey, clientAddress: address, clientLimitId: clientLimitId(address) });
      const locals: AccessLocals = { clientAddress: address, endpointClass: endpoint, apiKey: identity.key?.record };
      Object.assign(res.locals, locals);
      if (identity.key) (res as AccessResponse)[KNOWN_KEY] = identity.key;
      // every later log line of the request names the key by its id (never the key itself);
      // a key the service does not know is named by a short fingerprint of its hash
      if (identity.keyId) req.log = req.log.child({ keyId: identity.keyId });
      else if (presentedKey !== undefined) req.log = req.log.child({ keyFingerprint: keyFingerprint(presentedKey) });

      if (!counting) {
        admit(req, res, next, identity.refusal);
        return;
      }
      const rule = limitRule(identity.subject, endpoint, options.override);
      // a store that decides at once (in memory) is asked synchronously: no promise and no extra turn per request
      if (options.store.consumeNow) {
        limited(req, res, next, rule, options.store.consumeNow(rule.bucket, rule.limit, rule.windowMs), identity.refusal);
        return;
      }
      options.store.consume(rule.bucket, rule.limit, rule.windowMs).then(
        (decision) => {
          try {
            limited(req, res, next, rule, decision, identity.refusal);
          } catch (error) {
            next(error);
          }
        },
        (error: unknown) => next(error),
      );
    } catch (error) {
      next(error);
    }
  };

  /** The rate-limit headers on every response; 429 when the limit is reached, else on to the refusal check. */
  const limited = (req: Request, res: Response, next: NextFunction, rule: LimitRule, decision: LimitDecision, refusal: Refusal | undefined): void => {
    res.locals.rateLimit = decision;
    res.setHeader('ratelimit-limit', String(decision.limit));
    res.setHeader('ratelimit-remaining', String(decision.remaining));
    res.setHeader('ratelimit-reset', String(decision.resetSeconds));
    if (!decision.allowed) {
      const retryAfter = decision.retryAfterSeconds ?? decision.resetSeconds;
      const at = new Date(clock() + retryAfter * 1000).toISOString();
      res.setHeader('retry-after', String(retryAfter));
      req.log.debug({ limit: rule.limit, windowSeconds: rule.windowMs / 1000, retryAfter }, 'rate limit exceeded');
      sendError(res, rateLimited(rule.description, retryAfter, at));
      return;
    }
    admit(req, res, next, refusal);
  };

  const authorizeHandler: RequestHandler = (req: Request, res: Response, next: NextFunction) => {
    const key = (res as AccessResponse)[KNOWN_KEY];
    const refusal = checkIntegrators(key, restrictions, endpointClass(req.path), namedIntegrators(req));
    if (refusal) {
      refuse(req, res, refusal);
      return;
    }
    next();
  };

  return {
    identify: identifyHandler,
    authorize: authorizeHandler,
    keys: options.keys,
    store: options.store,
    apiKeyAuth: (_context, _req, res) => (res as AccessResponse)[KNOWN_KEY] !== undefined,
    keyRecord: (presented) => {
      const value = headerValue(presented);
      return value === undefined ? undefined : options.keys.authenticate(value)?.record;
    },
    close: () => options.store.close(),
  };
}

/** Refused (401/403) when identification said so, else on to the next middleware. */
function admit(req: Request, res: Response, next: NextFunction, refusal: Refusal | undefined): void {
  if (refusal) {
    refuse(req, res, refusal);
    return;
  }
  next();
}

function refuse(req: Request, res: Response, refusal: Refusal): void {
  req.log.info({ reason: refusal.reason, status: refusal.status, clientAddress: res.locals.clientAddress }, `access refused: ${refusal.reason}`);
  sendError(res, accessRefused(refusal.status, refusal.message));
}

/** The header's value; repeated headers are joined by node and so make an invalid key. */
function headerValue(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.join(', ') : value;
}

const INTEGRATOR_PATH = /^\/v1\/integrators\/([^/]+)/;

/** Integrator ids named by the request: `integrator` in the query or body, `options.integrator` in a
 *  routes body, or the id of an /v1/integrators/{integratorId} path. */
export function namedIntegrators(req: Request): string[] {
  const found = new Set<string>();
  if (mayNameIntegrator(req.originalUrl)) addIntegrators(found, (req.query as Record<string, unknown> | undefined)?.integrator);
  const body = req.body as { integrator?: unknown; options?: { integrator?: unknown } } | undefined;
  if (body && typeof body === 'object') {
    addIntegrators(found, body.integrator);
    if (body.options && typeof body.options === 'object') addIntegrators(found, body.options.integrator);
  }
  const match = INTEGRATOR_PATH.exec(req.path);
  if (match) {
    try {
      addIntegrators(found, decodeURIComponent(match[1]!));
    } catch {
      addIntegrators(found, match[1]);
    }
  }
  return [...found];
}

/**
 * Whether the query string can have an `integrator` key: express parses the whole query on every read of
 * req.query, and most requests name none. A key decodes to "integrator" only if it is written so or with
 * percent-escapes, so a query with neither is not parsed.
 */
function mayNameIntegrator(url: string): boolean {
  const start = url.indexOf('?');
  return start >= 0 && (url.includes('integrator', start) || url.includes('%', start));
}

/** Non-empty strings, also inside (nested) arrays. A module-level function: it runs on every request. */
function addIntegrators(found: Set<string>, value: unknown): void {
  if (typeof value === 'string' && value !== '') found.add(value);
  else if (Array.isArray(value)) for (const item of value) addIntegrators(found, item);
}
