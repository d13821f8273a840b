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
    redact: { paths: ['req.headers["x-svc-api-key"]', 'req.headers["x-lifi-api-key"]', 'req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
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
