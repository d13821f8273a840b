/**
 * Request logging with pino-http: a request id (x-request-id, echoed when well-formed, made otherwise),
 * `req.log` bound to the request, and a "request completed" line at info. When info is off, nothing would log
 * that line, so the request's child logger (which serializes and redacts the request up front) is only made if
 * something logs through it.
 */
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Secrets never reach the log: the API key headers, credentials and cookies a client sends, the session cookie and
 * CSRF token the portal sets or receives, and any query parameter whose name says it holds a secret (a client that
 * puts its API key in the URL: `?apiKey=…`, `?x-lifi-api-key=…`, `?token=…`).
 */
const REDACTED = '[redacted]';
const REDACT_PATHS = [
  'req.headers["x-svc-api-key"]', 'req.headers["x-lifi-api-key"]', 'req.headers.authorization', 'req.headers.cookie',
  'req.headers["x-csrf-token"]', 'res.headers["set-cookie"]', 'res.headers["x-csrf-token"]',
];
/** Parameter names (lower case, letters and digits only) that carry a secret; fromToken, toToken and the like do not. */
const SECRET_NAMES = new Set([
  'key', 'apikey', 'token', 'accesstoken', 'authtoken', 'refreshtoken', 'idtoken', 'secret', 'password', 'passwd',
  'signature', 'sig', 'session', 'sessionid', 'csrf', 'csrftoken', 'auth', 'authorization', 'cookie',
]);

function isSecretName(name: string): boolean {
  const n = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  return SECRET_NAMES.has(n) || /(apikey|secret|password|sessiontoken)$/.test(n);
}

/** `url` with the values of secret-looking query parameters replaced (the rest as sent). */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const parts = url.slice(q + 1).split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const name = eq < 0 ? pair : pair.slice(0, eq);
    let decoded = name;
    try {
      decoded = decodeURIComponent(name.replace(/\+/g, ' '));
    } catch {
      /* a malformed name is matched as sent */
    }
    return eq >= 0 && isSecretName(decoded) ? `${name}=${REDACTED}` : pair;
  });
  return `${url.slice(0, q)}?${parts.join('&')}`;
}

/** The request as pino-http serialises it, its URL and parsed query redacted (redactUrl). */
function redactRequest(req: { url?: string; query?: Record<string, unknown> }): typeof req {
  if (typeof req.url === 'string') req.url = redactUrl(req.url);
  if (req.query && typeof req.query === 'object') {
    req.query = Object.fromEntries(Object.entries(req.query).map(([name, value]) => [name, isSecretName(name) ? REDACTED : value]));
  }
  return req;
}

export function requestLogging(logger: Logger): RequestHandler {
  const genReqId = (req: Request, res: Response): string => {
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
    res.setHeader('x-request-id', id);
    return id;
  };
  const full = pinoHttp({
    logger,
    genReqId: genReqId as (req: unknown, res: unknown) => string,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers: { req: redactRequest },
  });
  const wrapped = full.logger; // pino-http's logger: its serializers and redaction, as in its per-request children
  const lazyLog = lazyRequestLog(wrapped);
  return (req: Request, res: Response, next: NextFunction) => {
    if (wrapped.isLevelEnabled('info')) {
      full(req, res, next);
      return;
    }
    req.id = genReqId(req, res);
    lazyLog(req);
    next();
  };
}

const REQUEST_LOG = Symbol('requestLog');
type LoggedRequest = Request & { [REQUEST_LOG]?: Logger };

/**
 * `req.log` made on first read: an accessor defined once on the app's request prototype (express gives each
 * request that prototype), so that a request pays nothing for it until something logs; an assignment
 * (pino-http's, or a child logger with more bindings) replaces it for that request only.
 */
function lazyRequestLog(wrapped: Logger): (req: Request) => void {
  const prepared = new WeakSet<object>();
  return (req: Request) => {
    const prototype = Object.getPrototypeOf(req) as object;
    if (prepared.has(prototype)) return;
    prepared.add(prototype);
    Object.defineProperty(prototype, 'log', {
      configurable: true,
      enumerable: true,
      get(this: LoggedRequest): Logger {
        return (this[REQUEST_LOG] ??= wrapped.child({ req: this }));
      },
      set(this: LoggedRequest, value: Logger) {
        this[REQUEST_LOG] = value;
      },
    });
  };
}
