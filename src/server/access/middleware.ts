import type { NextFunction, Request, RequestHandler, Response } from 'express';
import {
  checkIntegrators, identifyAnonymous, identifyKey, isUnauthenticated, type AccessOutcome, type BlockList, type Identification, type InstanceRestrictions, type Refusal,
} from '../../core/access/access';
import { clientAddress, clientLimitId, type TrustProxy } from '../../core/access/ipAddress';
import { keyFingerprint, type ApiKeyRecord } from '../../core/access/keys';
import { KeyStoreUnavailableError, type KeyStore, type KnownKey } from '../../core/access/keyStore';
import { limitRule, type EndpointClass, type LimitRule, type OperationAccess } from '../../core/access/policy';
import { accessRefused, keysUnavailable, rateLimited, sendError, validationFailed, type HttpError } from '../httpErrors';
import type { LimitDecision, LimiterStore } from './limiterStore';
import { proxyTrafficWatch, type ProxyTrafficWarning } from './proxyTraffic';

/**
 * The headers a key is accepted in: the service's own, and the ecosystem's (the LI.FI SDK's `createClient({ apiKey })`
 * sends `x-lifi-api-key`). Both are server-side secrets: CORS allows neither (hardening.ts).
 */
export const API_KEY_HEADER = 'x-svc-api-key';
export const ECOSYSTEM_API_KEY_HEADER = 'x-lifi-api-key';
const KEY_HEADERS_TEXT = `the ${API_KEY_HEADER} (or ${ECOSYSTEM_API_KEY_HEADER}) header`;

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
  /** The blocks in force (default: none). */
  readonly blocks?: BlockList;
  /** Told what became of every request (usage per key, the automatic blocking rules). */
  readonly onOutcome?: (outcome: AccessOutcome) => void;
  /** Run on close() after the limiter store closed (the database's recorders). */
  readonly onClose?: () => Promise<void>;
  /** The database's records, passed through (AccessControl.records). */
  readonly records?: AccessRecords;
  /** Told, once per kind, of traffic that contradicts TRUST_PROXY (proxyTraffic.ts): the start log's warnings. */
  readonly onProxyTraffic?: (kind: ProxyTrafficWarning, message: string) => void;
}

/** The access control's records in the database (build.ts), run on timers; tests and operators may run them now. */
export interface AccessRecords {
  /** Resolves when the database is open and the records run. */
  readonly ready: Promise<unknown>;
  /** Adds the usage counted so far to the database. */
  flush(): Promise<void>;
  /** Reads the blocks in force again. */
  refresh(): Promise<void>;
  /** Runs the automatic blocking rules now (none when BLOCKING=off); returns the blocks made. */
  evaluate(): Promise<readonly { readonly subject: { kind: string; id: string }; readonly rule: string; readonly until: string }[]>;
}

/** Who the request comes from, as the access control established it: what a handler receives as its caller. */
export interface RequestCaller {
  /** The authenticated key (its record: id, limits; never the key). */
  readonly apiKey?: ApiKeyRecord;
  /** The address the request is attributed to. */
  readonly clientAddress: string;
}

/** What the access middleware leaves in res.locals for the rest of the request. */
export interface AccessLocals extends RequestCaller {
  endpointClass: EndpointClass;
  rateLimit?: LimitDecision;
}

/** The operation a request calls, as far as access is concerned (app.ts: from the contract and the handlers). */
export type OperationAccessOf = (req: Request) => OperationAccess;

export interface AccessControl {
  /**
   * The middleware to mount after the request logger and before body parsing: identifies the caller, counts the
   * request against the limit class of the operation it calls (`accessOf`), sets the rate-limit headers on every
   * response, answers 429, 401 and key-related 403s, and 400 for two different keys in the two key headers.
   */
  identify(accessOf: OperationAccessOf): RequestHandler;
  /** Mount after body parsing: refuses integrator ids that the key or the instance does not accept (403). */
  readonly authorize: RequestHandler;
  readonly keys: KeyStore;
  readonly store: LimiterStore;
  /** With a database: its records (usage, blocks). */
  readonly records?: AccessRecords;
  /** openapi-backend security handler for the contract's key schemes: satisfied when this middleware
   *  authenticated a key (register with api.registerSecurityHandler(scheme, ...)). */
  apiKeyAuth(context: unknown, req: Request, res: Response): boolean;
  close(): Promise<void>;
}

const KNOWN_KEY = Symbol('knownKey');
type AccessResponse = Response & { [KNOWN_KEY]?: KnownKey };

/** The caller the access middleware established for this request (handlers receive it; dispatch.ts). */
export function callerOf(res: Response): RequestCaller {
  const locals = res.locals as Partial<AccessLocals>;
  return { clientAddress: locals.clientAddress ?? 'unknown', ...(locals.apiKey ? { apiKey: locals.apiKey } : {}) };
}

export function createAccessControl(options: AccessControlOptions): AccessControl {
  const restrictions = options.restrictions ?? {};
  const trustProxy = options.trustProxy ?? { kind: 'none' };
  const counting = (options.rateLimits ?? 'on') === 'on';
  const clock = options.clock ?? Date.now;
  const blocks = options.blocks;
  const watchProxyTraffic = options.onProxyTraffic ? proxyTrafficWatch(trustProxy, options.onProxyTraffic) : undefined;

  const identifyFor = (accessOf: OperationAccessOf): RequestHandler => function identify(req: Request, res: Response, next: NextFunction) {
    // the blocks in force not read yet (the database opening after a start): the request waits for them
    const pending = blocks?.pending?.();
    if (pending) {
      pending.then(() => identify(req, res, next), next);
      return;
    }
    try {
      watchProxyTraffic?.(req.socket.remoteAddress, req.headers['x-forwarded-for']);
      const presented = presentedKey(req);
      const address = clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], trustProxy);
      const operation = accessOf(req);
      const caller = { presentedKey: presented === CONFLICT ? undefined : presented, clientAddress: address, clientLimitId: clientLimitId(address) };
      if (presented === CONFLICT) {
        // two keys: which one is meant is unknown, so the request is a client's, counted as such, and refused
        const client: Identification = { subject: { kind: 'client', clientId: caller.clientLimitId } };
        proceed(req, res, next, operation, client, address, caller.clientLimitId, undefined, conflictingKeys());
        return;
      }
      if (presented === undefined) {
        proceed(req, res, next, operation, identifyAnonymous(restrictions, operation, caller, blocks), address, caller.clientLimitId, presented);
        return;
      }
      identifyKey(options.keys, restrictions, { ...caller, presentedKey: presented }, blocks).then(
        (identity) => {
          try {
            proceed(req, res, next, operation, identity, address, caller.clientLimitId, presented);
          } catch (error) {
            next(error);
          }
        },
        (error: unknown) => {
          if (!(error instanceof KeyStoreUnavailableError)) {
            next(error);
            return;
          }
          // the key can be neither accepted nor refused: counted as the client's request, answered 503
          const client: Identification = { subject: { kind: 'client', clientId: caller.clientLimitId } };
          try {
            proceed(req, res, next, operation, client, address, caller.clientLimitId, undefined, keysUnavailable());
          } catch (failure) {
            next(failure);
          }
        },
      );
    } catch (error) {
      next(error);
    }
  };

  /** Records who the caller is, then counts the request (unless limits are off) and admits or refuses it. */
  const proceed = (
    req: Request, res: Response, next: NextFunction, operation: OperationAccess, identity: Identification, address: string, clientId: string,
    presented: string | undefined, invalid?: HttpError,
  ): void => {
    const { onOutcome } = options;
    // no one follows outcomes (no database, no metrics): nothing is made per request for them
    const report: Report = onOutcome ? (outcome) => onOutcome({
      at: clock(), ...(operation.operationId ? { operationId: operation.operationId } : {}), limit: operation.limit,
      subject: identity.subject, ...(identity.keyId ? { keyId: identity.keyId } : {}), clientId, outcome,
    }) : NO_REPORT;
    const locals: AccessLocals = { clientAddress: address, endpointClass: operation.limit, apiKey: identity.key?.record };
    Object.assign(res.locals, locals);
    if (identity.key) (res as AccessResponse)[KNOWN_KEY] = identity.key;
    // every later log line of the request names the key by its id (never the key itself);
    // a key the service does not know is named by a short fingerprint of its hash
    if (identity.keyId) req.log = req.log.child({ keyId: identity.keyId });
    else if (presented !== undefined) req.log = req.log.child({ keyFingerprint: keyFingerprint(presented) });

    // a blocked caller is told so before anything is counted: a 403 with the block's end, not a 429 of its limit
    // (whose refusals would count towards its next block)
    if (identity.refusal?.reason === 'blocked') {
      const { until } = identity.refusal;
      const rule = limitRule(identity.subject, operation.limit, options.override);
      const secondsLeft = until ? Math.max(1, Math.ceil((Date.parse(until) - clock()) / 1000)) : undefined;
      // its limit's headers say what holds while it is blocked: nothing left until the block ends
      if (counting) {
        res.setHeader('ratelimit-limit', String(rule.limit));
        res.setHeader('ratelimit-remaining', '0');
        res.setHeader('ratelimit-reset', String(secondsLeft ?? Math.ceil(rule.windowMs / 1000)));
      }
      if (secondsLeft !== undefined) res.setHeader('retry-after', String(secondsLeft));
      admit(req, res, next, report, identity.refusal);
      return;
    }
    if (!counting) {
      admit(req, res, next, report, identity.refusal, invalid);
      return;
    }
    const rule = limitRule(identity.subject, operation.limit, options.override);
    // a store that decides at once (in memory) is asked synchronously: no promise and no extra turn per request
    if (options.store.consumeNow) {
      limited(req, res, next, report, rule, options.store.consumeNow(rule.bucket, rule.limit, rule.windowMs), identity.refusal, invalid);
      return;
    }
    options.store.consume(rule.bucket, rule.limit, rule.windowMs).then(
      (decision) => {
        try {
          limited(req, res, next, report, rule, decision, identity.refusal, invalid);
        } catch (error) {
          next(error);
        }
      },
      (error: unknown) => next(error),
    );
  };

  /** The rate-limit headers on every response; 429 when the limit is reached, else on to the refusal check. */
  const limited = (req: Request, res: Response, next: NextFunction, report: Report, rule: LimitRule, decision: LimitDecision, refusal: Refusal | undefined, invalid?: HttpError): void => {
    res.locals.rateLimit = decision;
    res.setHeader('ratelimit-limit', String(decision.limit));
    res.setHeader('ratelimit-remaining', String(decision.remaining));
    res.setHeader('ratelimit-reset', String(decision.resetSeconds));
    if (!decision.allowed) {
      const retryAfter = decision.retryAfterSeconds ?? decision.resetSeconds;
      const at = new Date(clock() + retryAfter * 1000).toISOString();
      res.setHeader('retry-after', String(retryAfter));
      req.log.debug({ limit: rule.limit, windowSeconds: rule.windowMs / 1000, retryAfter }, 'rate limit exceeded');
      report('rate-limited');
      sendError(res, rateLimited(rule.description, retryAfter, at));
      return;
    }
    admit(req, res, next, report, refusal, invalid);
  };

  const authorizeHandler: RequestHandler = (req: Request, res: Response, next: NextFunction) => {
    const key = (res as AccessResponse)[KNOWN_KEY];
    const refusal = checkIntegrators(key, restrictions, (res.locals as AccessLocals).endpointClass, namedIntegrators(req));
    if (refusal) {
      refuse(req, res, refusal);
      return;
    }
    next();
  };

  return {
    identify: identifyFor,
    authorize: authorizeHandler,
    keys: options.keys,
    store: options.store,
    ...(options.records ? { records: options.records } : {}),
    apiKeyAuth: (_context, _req, res) => (res as AccessResponse)[KNOWN_KEY] !== undefined,
    close: async () => {
      await options.store.close();
      await options.onClose?.();
    },
  };
}

type Report = (outcome: AccessOutcome['outcome']) => void;
const NO_REPORT: Report = () => {};

/** Refused (400 for an invalid request, 401/403 when identification said so), else on to the next middleware. */
function admit(req: Request, res: Response, next: NextFunction, report: Report, refusal: Refusal | undefined, invalid?: HttpError): void {
  if (invalid) {
    report('invalid');
    sendError(res, invalid);
    return;
  }
  if (refusal) {
    report(refusal.reason);
    refuse(req, res, refusal);
    return;
  }
  report('admitted');
  next();
}

/** A refusal in HTTP's terms: 401 for a caller not known (with how to present a key), 403 for one that may not. */
function refuse(req: Request, res: Response, refusal: Refusal): void {
  const unauthenticated = isUnauthenticated(refusal);
  const status = unauthenticated ? 401 : 403;
  req.log.info({ reason: refusal.reason, status, clientAddress: res.locals.clientAddress }, `access refused: ${refusal.reason}`);
  const hint = refusal.reason === 'key-required' || refusal.reason === 'instance-key-required'
    ? `; send the key in ${KEY_HEADERS_TEXT}`
    : refusal.reason === 'unknown-key'
      ? `. Check the key (GET /v1/keys/test), or send no key header to use the public limits`
      : '';
  sendError(res, accessRefused(status, `${refusal.message}${hint}`));
}

const CONFLICT = Symbol('conflicting keys');

function conflictingKeys(): HttpError {
  return validationFailed([{
    in: 'header', name: ECOSYSTEM_API_KEY_HEADER, rule: 'sameKey',
    message: `header ${ECOSYSTEM_API_KEY_HEADER} must hold the same key as header ${API_KEY_HEADER} when both are sent (they differ): send one key, in one of them`,
  }]);
}

/** The key a request presents in either key header; CONFLICT when both hold different values. */
function presentedKey(req: Request): string | undefined | typeof CONFLICT {
  const own = headerValue(req.headers[API_KEY_HEADER]);
  const ecosystem = headerValue(req.headers[ECOSYSTEM_API_KEY_HEADER]);
  if (own !== undefined && ecosystem !== undefined && own !== ecosystem) return CONFLICT;
  return own ?? ecosystem;
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
