/**
 * Every error answer of the service, built here and nowhere else: the contract's Error body
 * (`{message, code, errors?, requestId?}`) with its HTTP status, for
 *
 * - domain errors raised by the core and the handlers (matched by class in one table, never by message);
 * - requests the contract refuses (openapi-backend: validation, no such endpoint, method not allowed);
 * - what happens around the operations: bodies the JSON parser refuses, a URL too long, a request timed out,
 *   access refused or rate-limited, a request node refuses before express sees it, and unexpected failures.
 *
 * The core names a request's fields logically (`fromAmount`, `denyBridges`, `/contractCalls/0/fromAmount`) and
 * never says where they are: {@link locateField} decides, from the operation's declared request, whether a
 * name is a query parameter, a path parameter or a field of the JSON body.
 */
import type { Response } from 'express';
import type { RequestLimits } from '../config';
import {
  ConflictError, DomainError, ErrorCode, ForbiddenError, InvalidRequestError, NoRouteError, NotConfiguredError, NotFoundError, NotImplementedError, OverloadedError, SlippageMovedError, TooManyConnectionsError, UnauthorizedError, type RequestIssue,
} from '../core/errors';
import type { SchemaLike } from './unknownParameters';
import type { ValidationIssue } from './validationMessage';

/** The wire error body of the contract: `{message, code, errors?, requestId?}`. */
export interface ErrorBody {
  message: string;
  code: number;
  errors?: unknown;
  requestId?: string;
}

export interface HttpError {
  status: number;
  body: ErrorBody;
  headers?: Record<string, string>;
}

function httpError(status: number, message: string, code: number, errors?: unknown): HttpError {
  return { status, body: errors === undefined ? { message, code } : { message, code, errors } };
}

/** Writes an error answer built here (for middlewares that answer before any operation runs). */
export function sendError(res: Response, error: HttpError): void {
  if (error.headers) res.set(error.headers);
  res.status(error.status).json(error.body);
}

// ---------------------------------------------------------------------------------------------------------------
// Domain errors

/** One table maps each domain error class to its HTTP status (matched by class, never by message). */
const STATUS_BY_CLASS: ReadonlyArray<[new (...args: never[]) => DomainError, number]> = [
  [InvalidRequestError, 400],
  [UnauthorizedError, 401],
  [ForbiddenError, 403],
  [NotConfiguredError, 501],
  [NotFoundError, 404],
  [NoRouteError, 404],
  [SlippageMovedError, 409],
  [ConflictError, 409],
  [NotImplementedError, 501],
  [TooManyConnectionsError, 429],
  [OverloadedError, 503],
];

/**
 * A domain error's answer. The `issues` of an invalid request are located in `request`, the declared request of
 * the operation that raised them (see {@link locateField}).
 */
export function domainErrorToHttp(error: DomainError, request?: DeclaredFields): HttpError {
  const status = STATUS_BY_CLASS.find(([cls]) => error instanceof cls)?.[1] ?? 500;
  const body: ErrorBody = { message: error.message, code: error.code };
  if (error.details !== undefined) body.errors = locateIssues(error.details, request);
  if (error instanceof TooManyConnectionsError || error instanceof OverloadedError) return { status, body, headers: { 'retry-after': String(error.retryAfterSeconds) } };
  return { status, body };
}

// ---------------------------------------------------------------------------------------------------------------
// Where a field is

/** What an operation declares of its request: the names of its query and path parameters, its body's schema. */
export interface DeclaredFields {
  readonly query: ReadonlySet<string>;
  readonly path: ReadonlySet<string>;
  readonly body: SchemaLike | undefined;
}

/** An issue as the answer gives it: where the field is, and its name there. */
export interface LocatedIssue {
  readonly in: 'query' | 'path' | 'body';
  readonly name: string;
  readonly rule: string;
  readonly message: string;
}

function locateIssues(details: unknown, request: DeclaredFields | undefined): unknown {
  const issues = (details as { issues?: unknown } | null)?.issues;
  if (!Array.isArray(issues)) return details;
  // a location that a caller gave anyway is decided again here, as for every issue
  const located = (issues as (RequestIssue & { in?: unknown })[]).map(({ in: _given, name, ...rest }): LocatedIssue => ({ ...locateField(request, name), ...rest }));
  return { ...(details as object), issues: located };
}

/**
 * Where a logically named field of a request is, and its name there, consistently with the validation issues of
 * openapi-backend (validationMessage.ts): a JSON pointer (`/fromAmount`) is a body field as it is; a name that the
 * operation declares as query parameters (several may be named together, comma-separated) is in the query; a path
 * parameter is in the path; any other name of an operation that takes a body is a field of the body, named by
 * {@link bodyPointer}; an operation without a body has nothing but parameters, so the name is its query's.
 */
export function locateField(request: DeclaredFields | undefined, name: string): { in: LocatedIssue['in']; name: string } {
  if (name.startsWith('/')) return { in: 'body', name };
  if (!request) return { in: 'query', name };
  if (name.split(',').every((part) => request.query.has(part))) return { in: 'query', name };
  if (request.path.has(name)) return { in: 'path', name };
  if (request.body) return { in: 'body', name: bodyPointer(request.body, name) };
  return { in: 'query', name };
}

/**
 * The JSON pointer of a body field named logically:
 * - a dotted name is a path (`options.destinationAction` → `/options/destinationAction`);
 * - a name the schema has is found where it is, the shallowest first (`fromAmount` → `/fromAmount`,
 *   `fee` → `/options/fee` in a body that keeps the fee among its options);
 * - a name in the query style, which flattens a nested list into one word (`denyBridges` for `bridges.deny`), is
 *   found as that nested field (`/options/bridges/deny`);
 * - any other name is taken as a field at the top of the body.
 */
export function bodyPointer(schema: SchemaLike, name: string): string {
  if (name.includes('.')) return `/${name.split('.').join('/')}`;
  const fields = fieldPaths(schema);
  const found = fields.find((path) => path[path.length - 1] === name);
  if (found) return pointer(found);
  const flattened = /^([a-z]+)([A-Z]\w*)$/.exec(name);
  if (flattened) {
    const [, list, group] = flattened;
    const inner = [group[0].toLowerCase() + group.slice(1), list];
    const nested = fields.find((path) => path.length >= 2 && path[path.length - 2] === inner[0] && path[path.length - 1] === inner[1]);
    if (nested) return pointer(nested);
  }
  return `/${name}`;
}

/** The paths of the named fields of a body's schema, breadth first (shallow fields first), items of lists left out. */
function fieldPaths(schema: SchemaLike): string[][] {
  const paths: string[][] = [];
  let level: { schema: SchemaLike; path: string[] }[] = [{ schema, path: [] }];
  for (let depth = 0; depth < MAX_FIELD_DEPTH && level.length > 0; depth += 1) {
    const next: typeof level = [];
    for (const { schema: object, path } of level) {
      for (const part of [object, ...(object.allOf ?? [])]) {
        for (const [key, child] of Object.entries(part.properties ?? {})) {
          paths.push([...path, key]);
          next.push({ schema: child, path: [...path, key] });
        }
      }
    }
    level = next;
  }
  return paths;
}

/** Bodies are at most this deep where the service names their fields (`/options/bridges/deny`). */
const MAX_FIELD_DEPTH = 4;

function pointer(path: readonly string[]): string {
  return path.map((key) => `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

// ---------------------------------------------------------------------------------------------------------------
// Requests the contract refuses (openapi-backend)

export function validationFailed(issues: readonly ValidationIssue[]): HttpError {
  const summary = issues.map((i) => i.message).join('; ');
  return httpError(400, `Invalid request: ${summary}`, ErrorCode.ValidationError, { issues });
}

export function noSuchEndpoint(method: string, path: string): HttpError {
  return httpError(404, `No such endpoint: ${method.toUpperCase()} ${path}`, ErrorCode.NotFoundError);
}

export function methodNotAllowed(method: string, path: string, allowed: readonly string[]): HttpError {
  return {
    ...httpError(405, `Method ${method.toUpperCase()} is not allowed on ${path}; allowed: ${allowed.join(', ')}`, ErrorCode.DefaultError),
    headers: { allow: allowed.join(', ') },
  };
}

export function notImplemented(operationId: string | undefined): HttpError {
  return domainErrorToHttp(new NotImplementedError(operationId ?? 'operation'));
}

// ---------------------------------------------------------------------------------------------------------------
// Around the operations

/**
 * The answer to an error raised outside the handlers by the JSON body parser (a malformed or oversized body, an
 * unsupported charset or encoding, a body that does not decompress); undefined for anything else (unexpected).
 */
export function requestRefused(caught: unknown, maxBodyBytes: number): HttpError | undefined {
  const type = (caught as { type?: string }).type;
  if (type === 'entity.parse.failed') {
    return httpError(400, `Invalid request: body is not valid JSON (${(caught as Error).message})`, ErrorCode.ValidationError);
  }
  if (type === 'entity.too.large') {
    return httpError(413, `Invalid request: body is larger than ${maxBodyBytes} bytes`, ErrorCode.ValidationError);
  }
  const status = (caught as { status?: number }).status;
  if ((type || (caught as { expose?: boolean }).expose === true) && status && status >= 400 && status < 500) {
    return httpError(status, `Invalid request: ${(caught as Error).message}`, ErrorCode.ValidationError);
  }
  return undefined;
}

/** How long a client is asked to wait before sending a request again when the key store is unavailable (s). */
export const KEYS_UNAVAILABLE_RETRY_AFTER_S = 5;

/** A key was presented while the key store (the database) cannot answer: neither accepted nor refused; try again. */
export function keysUnavailable(): HttpError {
  return {
    ...httpError(503, `Service unavailable: the API key could not be checked because the key store does not answer right now; send the request again in ${KEYS_UNAVAILABLE_RETRY_AFTER_S} seconds`, ErrorCode.ServerError),
    headers: { 'retry-after': String(KEYS_UNAVAILABLE_RETRY_AFTER_S) },
  };
}

/** How long a client is asked to wait before sending again a request the starting service could not take (s). */
export const STARTING_RETRY_AFTER_S = 1;

/** A request sent while the service starts, which it could not hold until it serves (startingGate.ts): `why` not. */
export function serviceStarting(why: string): HttpError {
  return {
    ...httpError(503, `Service unavailable: the service is starting and could not take this request (${why}); send it again in ${STARTING_RETRY_AFTER_S} second`, ErrorCode.ServerError),
    headers: { 'retry-after': String(STARTING_RETRY_AFTER_S) },
  };
}

/** An unexpected failure: the client gets the request id to report, the log gets the rest. */
export function serverError(requestId: string): HttpError {
  return {
    status: 500,
    body: {
      message: `Internal server error; quote request id ${requestId} when reporting it`,
      code: ErrorCode.ServerError,
      requestId,
    },
  };
}

export function urlTooLong(length: number, maxUrlBytes: number): HttpError {
  return httpError(
    414,
    `Invalid request: the URL is ${length} bytes long, over the limit of ${maxUrlBytes} bytes; send large inputs in a POST body where the contract allows it`,
    ErrorCode.ValidationError,
  );
}

export function requestTimedOut(timeoutMs: number): HttpError {
  return {
    ...httpError(503, `Request timed out: no answer within ${timeoutMs} ms; try again, or narrow the request`, ErrorCode.TimeoutError),
    headers: { 'retry-after': '1' },
  };
}

export function rateLimited(limit: string, retryAfterSeconds: number, at: string): HttpError {
  return httpError(
    429,
    `Rate limit exceeded: ${limit}. The limit resets in ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'} (at ${at})`,
    ErrorCode.RateLimitError,
  );
}

/** Access refused (401 for a key that is missing or unknown, 403 for one that may not do this), in the access policy's words. */
export function accessRefused(status: number, message: string): HttpError {
  return httpError(status, message, ErrorCode.UnauthorizedError);
}

/**
 * What node refuses before express sees it (a node `clientError` code): 408 on the headers or request timeout,
 * 431 for a request head over node's 16 KB, 400 for a malformed request. Written to the socket by hardening.ts.
 */
export function connectionRefused(errorCode: string | undefined, limits: Pick<RequestLimits, 'headersTimeoutMs' | 'requestTimeoutMs'>): HttpError {
  if (errorCode === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return httpError(
      408,
      `Request timeout: the request was not received in time (headers within ${limits.headersTimeoutMs} ms, all of it within ${limits.requestTimeoutMs} ms)`,
      ErrorCode.TimeoutError,
    );
  }
  if (errorCode === 'HPE_HEADER_OVERFLOW') return httpError(431, 'Invalid request: the request line and headers are larger than 16 KB', ErrorCode.ValidationError);
  return httpError(400, 'Invalid request: malformed HTTP request', ErrorCode.ValidationError);
}
