/**
 * Deprecation on the wire: every answer of an operation that the contract marks `deprecated: true` carries
 * `Deprecation` (RFC 9745: when, as `@` and Unix seconds), `Sunset` (RFC 8594: the HTTP date after which it may be
 * removed) and `Link` (its successor, `rel="successor-version"`, and the documentation, `rel="deprecation"`), read
 * from the operation's `x-deprecation` in openapi.yaml (`announced`, `sunset`: dates; `successor`: a path). Set
 * before access control and validation, so that errors and rate-limit answers of the operation carry them too.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { OpenAPIBackend } from 'openapi-backend';

export interface DeprecationNotice {
  /** The day the deprecation was announced (`YYYY-MM-DD`, UTC). */
  readonly announced: string;
  /** The earliest day the operation may be removed (`YYYY-MM-DD`, UTC). */
  readonly sunset: string;
  /** The path of the operation to use instead. */
  readonly successor: string;
}

/** The three headers of a deprecated operation's answers. */
export function deprecationHeaders(notice: DeprecationNotice): Record<string, string> {
  const day = (text: string, field: string) => {
    const time = Date.parse(`${text}T00:00:00Z`);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || Number.isNaN(time)) throw new Error(`x-deprecation.${field} must be a date YYYY-MM-DD, not ${JSON.stringify(text)}`);
    return time;
  };
  return {
    Deprecation: `@${day(notice.announced, 'announced') / 1000}`,
    Sunset: new Date(day(notice.sunset, 'sunset')).toUTCString(),
    Link: `<${notice.successor}>; rel="successor-version", </docs>; rel="deprecation"; type="text/html"`,
  };
}

interface DeprecatedRoute {
  readonly method: string;
  readonly path: RegExp;
  readonly headers: Record<string, string>;
}

/** The middleware, for the contract's deprecated operations (after `api.init()`). */
export function deprecationNotices(api: OpenAPIBackend): RequestHandler {
  const routes: DeprecatedRoute[] = [];
  for (const operation of api.router.getOperations()) {
    if (!operation.deprecated) continue;
    const notice = (operation as unknown as { 'x-deprecation'?: DeprecationNotice })['x-deprecation'];
    if (!notice) throw new Error(`${operation.operationId}: deprecated without x-deprecation (announced, sunset, successor) in openapi.yaml`);
    // a template segment ({chain}) matches one segment of the path
    const pattern = operation.path.split('/').map((segment) => (/^\{.+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/');
    routes.push({ method: operation.method.toUpperCase(), path: new RegExp(`^${pattern}/?$`), headers: deprecationHeaders(notice) });
  }
  return (req: Request, res: Response, next: NextFunction) => {
    for (const route of routes) {
      if ((req.method === route.method || (req.method === 'HEAD' && route.method === 'GET')) && route.path.test(req.path)) {
        res.set(route.headers);
        break;
      }
    }
    next();
  };
}
