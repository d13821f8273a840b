import http from 'node:http';
import type { Duplex } from 'node:stream';
import cors, { type CorsOptions } from 'cors';
import type express from 'express';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';
import type { OpenAPIBackend } from 'openapi-backend';
import type { RequestLimits } from '../config';
import { connectionRefused, requestTimedOut, sendError, urlTooLong } from './httpErrors';
import { sendOnSocket } from './send';

/**
 * Limits on requests and the browser policy (docs/integrating.md, "Limits on requests"):
 *
 * - request target (path + query) over MAX_URL_BYTES → 414 code 1011, before anything else runs;
 * - no answer within REQUEST_TIMEOUT_MS → 503 code 1009 (the work in progress is not interrupted:
 *   the timer fires whenever the handler waits; the answer it produces later is dropped);
 * - security headers (helmet) for a JSON API: nothing in a response may load or frame anything;
 *   the docs page sets its own Content-Security-Policy (src/server/docs.ts);
 * - CORS: any origin (or CORS_ORIGINS) may call the public endpoints from a browser, without
 *   credentials; `x-svc-api-key` is never an allowed request header (keys are server-side secrets),
 *   so a browser cannot send a key to another origin; operations that require a key get no CORS
 *   headers at all; the rate-limit headers and the request id are exposed to scripts.
 *
 * Body size (MAX_BODY_BYTES → 413) is enforced by the JSON parser (jsonBody.ts); the node server's
 * limits (headers timeout, oversized or malformed request heads) by {@link createLimitedServer}.
 */
export function hardening(limits: RequestLimits, api: OpenAPIBackend): RequestHandler[] {
  // in this order: nothing runs for a URL too long, and every answer (including a timeout's) has the headers
  return [urlLimit(limits.maxUrlBytes), requestTimeout(limits.requestTimeoutMs), securityHeaders(), corsPolicy(limits.corsOrigins, api)];
}

/**
 * Request headers a browser may send cross-origin: the JSON content type, our request id, and the headers the
 * ecosystem's browser clients send on every call (the SDK: `x-lifi-sdk`, `x-lifi-integrator`, optionally
 * `x-lifi-userid`; the widget: `x-lifi-widget`), which the service accepts and ignores. No key header is allowed:
 * neither ours (`x-svc-api-key`) nor the ecosystem's (`x-lifi-api-key`), since keys are server-side secrets.
 */
export const CORS_ALLOWED_HEADERS = ['content-type', 'x-request-id', 'x-lifi-sdk', 'x-lifi-integrator', 'x-lifi-widget', 'x-lifi-userid'] as const;
/** Response headers that scripts of another origin may read. */
export const CORS_EXPOSED_HEADERS = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after', 'x-request-id', 'x-ignored-parameters', 'deprecation', 'sunset', 'link'] as const;
/** Paths outside /v1 that other origins may read (the contract itself). */
const PUBLIC_DOCUMENTS = new Set(['/openapi.yaml', '/openapi.json']);

function urlLimit(maxUrlBytes: number): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    // a UTF-16 code unit is at most 3 bytes of UTF-8: most URLs need no counting
    const length = req.originalUrl.length * 3 <= maxUrlBytes ? 0 : Buffer.byteLength(req.originalUrl);
    if (length <= maxUrlBytes) {
      next();
      return;
    }
    sendError(res, urlTooLong(length, maxUrlBytes));
  };
}

function requestTimeout(timeoutMs: number): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const timer = setTimeout(() => {
      if (res.headersSent) return;
      req.log.warn({ timeoutMs }, 'request timed out');
      sendError(res, requestTimedOut(timeoutMs));
    }, timeoutMs);
    // a response emits 'close' once it is done, answered ('finish' comes first) or not (connection gone)
    res.once('close', () => clearTimeout(timer));
    next();
  };
}

/**
 * helmet's headers for a JSON API. With these options every one of them is a constant, so they are worked
 * out once by running helmet against a recording response, and then set in one pass on each response.
 */
function securityHeaders(): RequestHandler {
  const set: [string, string][] = [];
  const removed: string[] = [];
  let completed = false;
  const recorder = {
    // names in lower case, as node keeps them (it lower-cases every name it is given, on every response)
    setHeader: (name: string, value: string) => void set.push([name.toLowerCase(), value]),
    removeHeader: (name: string) => void removed.push(name),
  };
  helmetMiddleware()({} as Request, recorder as unknown as Response, (error?: unknown) => {
    if (error) throw error;
    completed = true;
  });
  if (!completed) throw new Error('helmet did not complete synchronously: its headers cannot be precomputed');
  return (_req: Request, res: Response, next: NextFunction) => {
    for (const [name, value] of set) res.setHeader(name, value);
    for (const name of removed) res.removeHeader(name);
    next();
  };
}

function helmetMiddleware(): RequestHandler {
  return helmet({
    // JSON never needs to load, run or frame anything
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
  });
}

function corsPolicy(origins: '*' | readonly string[], api: OpenAPIBackend): RequestHandler {
  const base: CorsOptions = {
    origin: origins === '*' ? '*' : [...origins],
    methods: ['GET', 'HEAD', 'POST'],
    allowedHeaders: [...CORS_ALLOWED_HEADERS],
    exposedHeaders: [...CORS_EXPOSED_HEADERS],
    credentials: false,
    maxAge: 600,
  };
  const keyOnly = keyOnlyOperations(api);
  const middleware = cors((req, callback) => {
    const request = req as Request;
    // a preflight asks for the method of the request to come
    const preflightMethod = request.method === 'OPTIONS' ? request.headers['access-control-request-method'] : undefined;
    const method = typeof preflightMethod === 'string' ? preflightMethod : request.method;
    callback(null, isPublic(api, keyOnly, method, request.path) ? base : { origin: false });
  });
  if (origins !== '*' && origins.length === 0) return (_req, _res, next) => next();
  return memoizedCors(middleware, origins === '*' ? undefined : new Set(origins), (req) => isPublic(api, keyOnly, req.method, req.path));
}

/** At most this many recorded header sets (methods are the client's choice; origins come from the configuration). */
const MAX_RECORDED_CORS = 64;

/**
 * The cors middleware's headers for an actual (not preflight) request depend only on the method, on whether
 * the path is public, and on the Origin header when it is one of the allowed origins (it is echoed); anything
 * else gets the same answer. So they are recorded once per such case from the library itself, run against a
 * recording response, and set from the record afterwards; preflights (OPTIONS) always go through the library.
 */
function memoizedCors(middleware: RequestHandler, allowedOrigins: ReadonlySet<string> | undefined, isPublicRequest: (req: Request) => boolean): RequestHandler {
  const recorded = new Map<string, readonly (readonly [string, string])[]>();
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method === 'OPTIONS') {
      middleware(req, res, next);
      return;
    }
    const origin = req.headers.origin;
    const echoed = allowedOrigins && typeof origin === 'string' && allowedOrigins.has(origin) ? origin : '';
    const key = `${req.method}|${isPublicRequest(req) ? 'public' : 'key'}|${echoed}`;
    let headers = recorded.get(key);
    if (headers === undefined) {
      headers = recordCors(middleware, req);
      if (headers === undefined || recorded.size >= MAX_RECORDED_CORS) {
        middleware(req, res, next);
        return;
      }
      recorded.set(key, headers);
    }
    for (const [name, value] of headers) {
      if (name === 'vary') res.vary(value);
      else res.setHeader(name, value);
    }
    next();
  };
}

/** The headers the cors middleware sets for a request like this one (undefined if it did not finish at once). */
function recordCors(middleware: RequestHandler, req: Request): (readonly [string, string])[] | undefined {
  const headers = new Map<string, readonly [string, string]>(); // by name, in lower case as node keeps them
  const recorder = {
    getHeader: (name: string) => headers.get(name.toLowerCase())?.[1],
    setHeader: (name: string, value: unknown) => void headers.set(name.toLowerCase(), [name.toLowerCase(), String(value)]),
  };
  const like = { method: req.method, path: req.path, url: req.url, headers: req.headers } as unknown as Request;
  let completed = false;
  middleware(like, recorder as unknown as Response, (error?: unknown) => {
    completed = error === undefined;
  });
  return completed ? [...headers.values()] : undefined;
}

/** operationIds whose security does not allow an anonymous caller (e.g. GET /v1/keys/test). */
export function keyOnlyOperations(api: OpenAPIBackend): Set<string> {
  const rootSecurity = (api.definition as { security?: Record<string, unknown>[] }).security;
  const result = new Set<string>();
  for (const operation of api.router.getOperations()) {
    const security = (operation.security as Record<string, unknown>[] | undefined) ?? rootSecurity;
    const anonymous = !security || security.length === 0 || security.some((requirement) => Object.keys(requirement).length === 0);
    if (!anonymous && operation.operationId) result.add(operation.operationId);
  }
  return result;
}

function isPublic(api: OpenAPIBackend, keyOnly: Set<string>, method: string, path: string): boolean {
  if (PUBLIC_DOCUMENTS.has(path)) return true;
  // the API's versions (/v1/..., /v2/...)
  if (!/^\/v\d+\//.test(path)) return false;
  const operation = api.router.matchOperation({ method: method.toLowerCase(), path, headers: {}, query: {} });
  return !(operation?.operationId && keyOnly.has(operation.operationId));
}

/**
 * The node HTTP server with the connection-level limits: HEADERS_TIMEOUT_MS to send the request head,
 * REQUEST_TIMEOUT_MS to send the whole request, and JSON answers (the contract's Error body) for what
 * node refuses before express sees it (httpErrors.ts, connectionRefused): 408 on those timeouts, 431 for a
 * request head over node's 16 KB, 400 for a malformed request.
 */
export function createLimitedServer(handler: http.RequestListener, limits: RequestLimits): http.Server {
  const server = http.createServer(
    {
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: limits.headersTimeoutMs,
      // how often node looks for connections past those timeouts (default 30 s)
      connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs),
    },
    handler,
  );
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    sendOnSocket(socket, connectionRefused(error.code, limits));
  });
  return server;
}

/**
 * Makes `app.listen(...)` (as src/main.ts and the contract tests call it) create a {@link createLimitedServer};
 * otherwise as express's own listen (the callback is also called, once, with a listen error).
 */
export function listenWithLimits(app: express.Express, limits: RequestLimits): void {
  app.listen = function listen(...args: unknown[]): http.Server {
    const server = createLimitedServer(app, limits);
    const last = args[args.length - 1];
    if (typeof last === 'function') {
      let called = false;
      const done = (...callbackArgs: unknown[]): void => {
        if (called) return;
        called = true;
        (last as (...a: unknown[]) => void)(...callbackArgs);
      };
      args[args.length - 1] = done;
      server.once('error', done);
    }
    return (server.listen as (...a: unknown[]) => http.Server)(...args);
  } as express.Express['listen'];
}
