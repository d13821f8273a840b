import { randomUUID } from 'node:crypto';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { OpenAPIBackend, type Context, type Operation } from 'openapi-backend';
import type { ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import pino, { type Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import type { Config } from '../config';
import { DomainError, ErrorCode, NoRouteError, NotImplementedError } from '../core/errors';
import { loadContract } from './contract';
import type { Dependencies } from './dependencies';
import { docsRouter } from './docs';
import { LRUCache } from 'lru-cache';
import { ResponseCache } from './responseCache';
import { domainErrorToHttp, serverError, type HttpError } from './errorMapping';
import { hardening, keyOnlyOperations, listenWithLimits } from './hardening';
import { pipeline } from './pipeline';
import { objectId } from './objectId';
import type { CachePolicy, HandlerTable, OperationResponse } from './operation';
import { describeValidationErrors, type ValidationIssue } from './validationMessage';
import { bodySchema, declaredQuery, didYouMean, IGNORED_PARAMETERS_HEADER, queryParameterNames, removeUndeclaredFields, type QueryParameterNames } from './unknownParameters';

export interface AppOptions {
  /** Operation handlers by operationId; operations without one answer 501. */
  readonly handlers: HandlerTable;
  /** Base logger; defaults to a pino logger at the configured level. */
  readonly logger?: Logger;
}

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * Builds the HTTP application: express for transport, openapi-backend for routing and validation
 * against openapi.yaml, one error path for every failure. Tests call this with their own dependencies.
 */
export async function createApp(dependencies: Dependencies, config: Config, options: AppOptions): Promise<express.Express> {
  const logger = options.logger ?? pino({ level: config.logLevel });
  const api = new OpenAPIBackend({
    definition: loadContract(config.openapiPath),
    strict: true,
    validate: true,
    coerceTypes: true,
    // The contract is checked by `npm run lint:spec` and the examples test; validators compile on first use,
    // so the app starts in well under a second instead of compiling every operation up front.
    quick: true,
    ajvOpts: { allErrors: true, strict: false, useDefaults: true },
    customizeAjv: (ajv) => {
      addFormats(ajv);
      return ajv;
    },
  });
  const cache = new ResponseCache();
  const answered = new AnsweredUrls();
  const versions = new DataVersions(dependencies);
  /** The names a request sent that its operation does not know (ignored; see unknownParameters.ts). */
  const ignoredNames = new WeakMap<Request, readonly string[]>();
  registerHandlers(api, dependencies, options.handlers, cache, answered, versions, ignoredNames);
  api.registerSecurityHandler('ApiKeyAuth', dependencies.access.apiKeyAuth);
  await api.init();
  // openapi-backend rebuilds the flat operation list (a lodash chain over every path) on every lookup, i.e.
  // several times per request; the definition never changes after init, so the list is built once.
  const operations = api.router.getOperations();
  api.router.getOperations = () => operations;
  matchExactPathsFirst(api);
  cloneQueryCheaply(api);
  answered.publicOperations = publicOperationIds(api);
  const shapes = collectRequestShapes(api);
  const docs = docsRouter(config.openapiPath);

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false); // ETags come from the response cache, for answers that are stable
  app.set('query parser', 'simple');
  const answer: RequestHandler = async (req: Request, res: Response, next: NextFunction) => {
    try {
      // a request answered before from the response cache: same URL (and body), same validated request, same key
      const known = answered.lookup(req);
      const hit = known ? cache.get(known.versionedKey(versions.of(known.policy))) : undefined;
      if (hit) {
        if (known!.ignoredHeader) res.setHeader(IGNORED_PARAMETERS_HEADER, known!.ignoredHeader);
        send(res, { status: hit.status, body: undefined, cached: hit }, req);
        return;
      }
      const { query, ignored } = declaredRequest(api, req, shapes);
      if (ignored.length > 0) {
        ignoredNames.set(req, ignored);
        res.setHeader(IGNORED_PARAMETERS_HEADER, ignoredHeader(ignored));
      }
      const result = (await api.handleRequest(
        { method: req.method, path: req.path, query: query as Record<string, string | string[]>, headers: req.headers as Record<string, string | string[]>, body: req.body },
        req,
        res,
      )) as OperationResponse;
      send(res, result, req);
    } catch (error) {
      next(error);
    }
  };
  // every request runs these in order, in one layer of express's router
  app.use(
    pipeline(
      requestLogging(logger),
      hardening(config.limits, api),
      // the docs and the contract live outside /v1
      (req: Request, res: Response, next: NextFunction) => (req.path.startsWith('/v1/') ? next() : docs(req, res, next)),
      dependencies.access.identify,
      jsonBody(config.limits.maxBodyBytes),
      dependencies.access.authorize,
      answer,
    ),
  );
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    send(res, transportErrorToHttp(error, req, config.limits.maxBodyBytes));
  });
  listenWithLimits(app, config.limits);
  return app;
}

function registerHandlers(
  api: OpenAPIBackend,
  dependencies: Dependencies,
  handlers: HandlerTable,
  cache: ResponseCache,
  answered: AnsweredUrls,
  versions: DataVersions,
  ignoredNames: WeakMap<Request, readonly string[]>,
): void {
  api.register({
    validationFail: (c: Context, req: Request) => {
      const issues = withMisspellings(describeValidationErrors((c.validation.errors ?? []) as ErrorObject[]), ignoredNames.get(req) ?? []);
      const summary = issues.map((i) => i.message).join('; ');
      return error(400, `Invalid request: ${summary}`, ErrorCode.ValidationError, { issues });
    },
    notFound: (c: Context) => error(404, `No such endpoint: ${c.request.method.toUpperCase()} ${c.request.path}`, ErrorCode.NotFoundError),
    methodNotAllowed: (c: Context) => {
      const allowed = allowedMethods(api, c.request.path);
      return {
        ...error(405, `Method ${c.request.method.toUpperCase()} is not allowed on ${c.request.path}; allowed: ${allowed.join(', ')}`, ErrorCode.DefaultError),
        headers: { allow: allowed.join(', ') },
      };
    },
    notImplemented: (c: Context) => domainErrorToHttp(new NotImplementedError(c.operation.operationId ?? 'operation')),
  });
  for (const [operationId, handler] of Object.entries(handlers)) {
    api.registerHandler(operationId, async (c: Context, req: Request) => {
      const policy = handler.cache ?? 'none';
      const requestKey = policy !== 'none' ? ResponseCache.key(operationId, c.request.params, c.request.query, c.request.requestBody) : undefined;
      // the data the answer was computed from is part of the key: a replaced liquidity graph misses
      const key = requestKey ? ResponseCache.versioned(versions.of(policy), requestKey) : undefined;
      if (requestKey) answered.remember(req, operationId, policy, requestKey, ignoredNames.get(req));
      const hit = key ? cache.get(key) : undefined;
      if (hit) return { status: hit.status, body: undefined, cached: hit };
      try {
        const result = await handler(
          {
            operationId,
            query: (c.request.query ?? {}) as Record<string, unknown>,
            path: (c.request.params ?? {}) as Record<string, unknown>,
            body: c.request.requestBody,
            headers: c.request.headers,
            requestId: String(req.id),
            get log() {
              return req.log; // made on first use (requestLogging)
            },
          },
          dependencies,
        );
        if (key && result.status === 200 && !result.uncacheable) return { ...result, cached: cache.store(key, result.body) };
        return result;
      } catch (caught) {
        if (!(caught instanceof DomainError)) throw caught;
        const answer = domainErrorToHttp(caught);
        // "no route" is as much a function of the request and the data as a route is (unless the search was timed)
        if (key && policy === 'liquidity' && caught instanceof NoRouteError && !caught.dependsOnTiming) return { ...answer, cached: cache.store(key, answer.body, answer.status) };
        return answer;
      }
    });
  }
}

/**
 * Which data an operation's answer was computed from, read at request time: the identity of the catalog and
 * router deployments, and for answers that depend on liquidity, of the graph and route finder currently in
 * the dependencies (a new graph is a new object, so its answers are new entries). The text is made again only
 * when one of them changed, so that the same data gives the same string object (compared by identity below).
 */
class DataVersions {
  private data: { catalog: unknown; routers: unknown; text: string } | undefined;
  private liquidity: { data: string; graph: unknown; routes: unknown; text: string } | undefined;

  constructor(private readonly dependencies: Dependencies) {}

  of(policy: CachePolicy): string {
    const { catalog, routers, graph, routes } = this.dependencies;
    if (this.data?.catalog !== catalog || this.data.routers !== routers) this.data = { catalog, routers, text: `${objectId(catalog)}.${objectId(routers)}` };
    if (policy !== 'liquidity') return this.data.text;
    const liquidity = this.liquidity;
    if (liquidity?.data !== this.data.text || liquidity.graph !== graph || liquidity.routes !== routes) {
      this.liquidity = { data: this.data.text, graph, routes, text: `${this.data.text}.${objectId(graph)}.${objectId(routes)}` };
    }
    return this.liquidity!.text;
  }
}

/** A request seen before: its operation, its response-cache key, and that key qualified by the last data version asked for. */
class KnownRequest {
  private version: string | undefined;
  private versioned = '';

  constructor(
    readonly policy: CachePolicy,
    readonly key: string,
    /** The x-ignored-parameters header the request gets (same request, same ignored names). */
    readonly ignoredHeader: string | undefined,
  ) {}

  /** The cache key under this data version: the same string as last time while the data is the same (its hash is kept). */
  versionedKey(version: string): string {
    if (version !== this.version) {
      this.version = version;
      this.versioned = ResponseCache.versioned(version, this.key);
    }
    return this.versioned;
  }
}

/**
 * The requests that reached a cacheable operation, with the response-cache key of their validated request:
 * GET requests by URL, POST requests by URL and JSON body (as parsed, before validation fills defaults).
 * Routing, validation and type coercion are functions of the method, path, query and body alone (no operation
 * declares header or cookie parameters, and these operations need no key), so the same request again has the
 * same key: its answer, if still in the cache, is sent without going through openapi-backend again. Access
 * control (identify, authorize) has already run by then, as for every request.
 */
class AnsweredUrls {
  // bounded in count and in bytes: a URL may be up to MAX_URL_BYTES long, and unknown query parameters are ignored
  private readonly requests = new LRUCache<string, KnownRequest>({
    max: 10_000,
    maxSize: 16 * 1024 * 1024,
    sizeCalculation: (known, url) => 2 * (url.length + known.key.length) + 100,
  });
  /** Each request's own key, worked out once (before validation, which may add defaults to the body). */
  private readonly requestKeys = new WeakMap<Request, string | undefined>();
  publicOperations: ReadonlySet<string> = new Set();

  lookup(req: Request): KnownRequest | undefined {
    const key = this.keyOf(req);
    return key === undefined ? undefined : this.requests.get(key);
  }

  remember(req: Request, operationId: string, policy: CachePolicy, key: string, ignored: readonly string[] | undefined): void {
    const requestKey = this.keyOf(req);
    if (requestKey !== undefined && this.publicOperations.has(operationId)) {
      this.requests.set(requestKey, new KnownRequest(policy, key, ignored?.length ? ignoredHeader(ignored) : undefined));
    }
  }

  private keyOf(req: Request): string | undefined {
    if (this.requestKeys.has(req)) return this.requestKeys.get(req);
    let key: string | undefined;
    // a GET by its URL as the parser made it (one flat string, hashed once); other keys start with the method
    if (req.method === 'GET' && req.body === undefined) key = req.originalUrl;
    else if (req.method === 'POST' && isSmallJsonObject(req)) {
      const text = JSON.stringify(req.body);
      if (text.length <= MAX_REMEMBERED_BODY_BYTES) key = `POST ${req.originalUrl}\n${text}`;
    }
    this.requestKeys.set(req, key);
    return key;
  }
}

/**
 * Bodies of up to 4 kB (a routes request is a few hundred bytes) are worth a key; larger ones are not kept, as
 * sent (a compressed body is not looked at: it may inflate far beyond its length) and as serialized again.
 */
const MAX_REMEMBERED_BODY_BYTES = 4096;

function isSmallJsonObject(req: Request): boolean {
  const length = Number(req.headers['content-length']);
  const encoding = req.headers['content-encoding'];
  const identity = encoding === undefined || encoding.trim().toLowerCase() === 'identity';
  return identity && typeof req.body === 'object' && req.body !== null && !Array.isArray(req.body) && Number.isFinite(length) && length <= MAX_REMEMBERED_BODY_BYTES;
}

/** Operations that an anonymous caller may call (security lists an empty requirement, or none). */
function publicOperationIds(api: OpenAPIBackend): Set<string> {
  const keyOnly = keyOnlyOperations(api);
  return new Set(api.router.getOperations().flatMap((op) => (op.operationId && !keyOnly.has(op.operationId) ? [op.operationId] : [])));
}

/**
 * openapi-backend matches a request by filtering every operation on its path, then by trying every path
 * template as a regular expression. It returns an exact path's operation first whenever there is one for the
 * method, so those are looked up in a map first (same answer, no scan); anything else goes the library's way.
 */
function matchExactPathsFirst(api: OpenAPIBackend): void {
  if (api.router.apiRoot !== '/') return;
  const exact = new Map<string, Operation>();
  for (const operation of api.router.getOperations()) {
    if (operation.path.includes('{')) continue;
    // by the method as express gives it (upper case) and as openapi-backend's own calls do (lower case)
    for (const method of [operation.method.toLowerCase(), operation.method.toUpperCase()]) {
      const key = `${method} ${operation.path}`;
      if (!exact.has(key)) exact.set(key, operation);
    }
  }
  const match = api.router.matchOperation.bind(api.router) as (req: Parameters<OpenAPIBackend['router']['matchOperation']>[0], strict?: boolean) => Operation | undefined;
  api.router.matchOperation = ((req: { method: string; path: string }, strict?: boolean) =>
    exact.get(`${req.method} ${req.path}`) ??
    exact.get(`${req.method.trim().toLowerCase()} ${req.path}`) ??
    match(req as Parameters<typeof match>[0], strict)) as OpenAPIBackend['router']['matchOperation'];
}

/**
 * openapi-backend parses a request's query three times per request, each time by deep-cloning it with lodash
 * after serializing it with URLSearchParams for nothing (the string is not used when the query is an object).
 * The query here is always a record of strings and arrays of strings (or, once coerced, of numbers and
 * booleans): the same deep copy, without the detour.
 */
function cloneQueryCheaply(api: OpenAPIBackend): void {
  const router = api.router as unknown as { parseRequestQuery(req: { query?: unknown }): Record<string, unknown> };
  const original = router.parseRequestQuery.bind(router);
  router.parseRequestQuery = (req) => (typeof req.query === 'object' && req.query !== null ? (cloneData(req.query) as Record<string, unknown>) : original(req));
}

/** A deep copy of arrays and objects (same prototypes), other values as they are: lodash's cloneDeep for JSON-like data. */
function cloneData(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cloneData);
  if (value === null || typeof value !== 'object') return value;
  const copy = Object.create(Object.getPrototypeOf(value) as object | null) as Record<string, unknown>;
  for (const key of Object.keys(value)) {
    const item = cloneData((value as Record<string, unknown>)[key]);
    // an own `__proto__` key (a query may have one) stays an own property, as with lodash; `=` would set the prototype
    if (key === '__proto__') Object.defineProperty(copy, key, { value: item, writable: true, enumerable: true, configurable: true });
    else copy[key] = item;
  }
  return copy;
}

/**
 * pino-http: a request id (x-request-id, echoed or made), `req.log` bound to the request, and a
 * "request completed" line at info. When info is off, nothing would log that line, so the request's child
 * logger (which serializes and redacts the request up front) is only made if something logs through it.
 */
function requestLogging(logger: Logger): RequestHandler {
  const genReqId = (req: Request, res: Response): string => {
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && REQUEST_ID_PATTERN.test(incoming) ? incoming : randomUUID();
    res.setHeader('x-request-id', id);
    return id;
  };
  const full = pinoHttp({
    logger,
    genReqId: genReqId as (req: unknown, res: unknown) => string,
    redact: { paths: ['req.headers["x-svc-api-key"]', 'req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' },
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

/**
 * express.json behind a check that the body is UTF-8; a request without a body (most are GETs) skips both, as
 * body-parser itself would (the same test as type-is's `hasBody`), leaving `req.body` undefined.
 */
function jsonBody(limit: number): RequestHandler {
  const parse = express.json({ limit });
  return (req: Request, res: Response, next: NextFunction) => {
    const length = req.headers['content-length'];
    if (req.headers['transfer-encoding'] === undefined && (length === undefined || Number.isNaN(Number.parseInt(length, 10)))) {
      next(); // req.body stays undefined
      return;
    }
    jsonIsUtf8(req, res, (error?: unknown) => (error === undefined ? parse(req, res, next) : next(error)));
  };
}

const CHARSET_PARAMETER = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i;

/**
 * A JSON body is UTF-8 (RFC 8259 section 8.1: JSON exchanged between systems is encoded in UTF-8). body-parser
 * would also decode a body declared UTF-16 or UTF-32, dropping an incomplete last character without a word, so
 * that a one-byte "UTF-16" body read as empty; any charset other than utf-8 is refused with 415 instead.
 */
function jsonIsUtf8(req: Request, _res: Response, next: NextFunction): void {
  const contentType = req.headers['content-type'];
  const charset = contentType === undefined ? undefined : CHARSET_PARAMETER.exec(contentType);
  if (charset && req.is('application/json')) {
    const name = (charset[1] ?? charset[2] ?? '').toLowerCase();
    if (name !== 'utf-8') {
      next(Object.assign(new Error(`a JSON body must be UTF-8 (content-type charset "${name}" is not supported)`), { status: 415, type: 'charset.unsupported' }));
      return;
    }
  }
  next();
}

function error(status: number, message: string, code: number, errors?: unknown): HttpError {
  return { status, body: errors === undefined ? { message, code } : { message, code, errors } };
}

/** Errors raised outside the handlers: malformed or oversized bodies, and anything unexpected. */
function transportErrorToHttp(caught: unknown, req: Request, maxBodyBytes: number): HttpError {
  const type = (caught as { type?: string }).type;
  if (type === 'entity.parse.failed') {
    return error(400, `Invalid request: body is not valid JSON (${(caught as Error).message})`, ErrorCode.ValidationError);
  }
  if (type === 'entity.too.large') {
    return error(413, `Invalid request: body is larger than ${maxBodyBytes} bytes`, ErrorCode.ValidationError);
  }
  // body-parser's other refusals (unsupported charset or encoding, a body that does not decompress)
  const status = (caught as { status?: number }).status;
  if ((type || (caught as { expose?: boolean }).expose === true) && status && status >= 400 && status < 500) {
    return error(status, `Invalid request: ${(caught as Error).message}`, ErrorCode.ValidationError);
  }
  req.log.error({ err: caught }, 'unhandled error');
  return serverError(String(req.id));
}

function send(res: Response, result: OperationResponse, req?: Request): void {
  if (res.headersSent) return; // already answered (request timeout)
  if (result.headers) res.set(result.headers);
  const cached = result.cached;
  if (!cached || !req) {
    res.status(result.status).json(result.body);
    return;
  }
  // a serialized answer is written as it is (express's res.send would look at it again: type, length, freshness)
  const etag = cached.etag;
  if (etag !== undefined) {
    res.setHeader('etag', etag);
    res.setHeader('cache-control', 'no-cache');
  }
  res.vary('Accept-Encoding'); // appended: CORS may already vary on Origin
  const ifNoneMatch = req.headers['if-none-match'];
  if (etag !== undefined && ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim() === etag)) {
    res.status(304).end();
    return;
  }
  const { body, encoding } = ResponseCache.encode(cached, req.headers['accept-encoding']);
  if (encoding) res.setHeader('content-encoding', encoding);
  res.statusCode = result.status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('content-length', body.length);
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** What the HTTP layer knows of each operation's request, worked out once from the contract. */
interface RequestShape {
  readonly query: QueryParameterNames;
  /** Query parameters declared as arrays (of scalars): repeated keys are joined for openapi-backend to split. */
  readonly arrays: ReadonlySet<string>;
  readonly body: ReturnType<typeof bodySchema>;
}

function collectRequestShapes(api: OpenAPIBackend): Map<string, RequestShape> {
  const result = new Map<string, RequestShape>();
  for (const operation of api.router.getOperations()) {
    if (!operation.operationId) continue;
    const query = queryParameterNames(operation);
    const arrays = new Set<string>();
    for (const parameter of operation.parameters ?? []) {
      const p = parameter as { in?: string; name?: string; schema?: { type?: string } };
      if (p.in === 'query' && p.schema?.type === 'array' && p.name && !query.indexedObjects.has(p.name)) arrays.add(p.name);
    }
    result.set(operation.operationId, { query, arrays, body: bodySchema(operation) });
  }
  return result;
}

/**
 * The request as its operation declares it (unknownParameters.ts): undeclared query parameters and body fields
 * left out and returned as `ignored` (body fields as JSON pointers); list parameters accepted both comma-joined
 * and as repeated keys (repeated values of a parameter declared as an array are joined, so that openapi-backend
 * splits them). A request that matches no operation is passed on as it is (openapi-backend answers 404 or 405).
 */
function declaredRequest(api: OpenAPIBackend, req: Request, shapes: Map<string, RequestShape>): { query: Record<string, unknown>; ignored: string[] } {
  const raw = req.query as Record<string, unknown>;
  const operation = api.router.matchOperation({ method: req.method, path: req.path, headers: {}, query: {} });
  const shape = operation?.operationId ? shapes.get(operation.operationId) : undefined;
  if (!shape) return { query: raw, ignored: [] };
  const { query, ignored } = declaredQuery(raw, shape.query);
  const joined = Object.values(query).some(Array.isArray) ? { ...query } : query;
  for (const [name, value] of Object.entries(joined)) {
    if (Array.isArray(value) && shape.arrays.has(name)) joined[name] = value.join(',');
  }
  if (shape.body && typeof req.body === 'object' && req.body !== null) ignored.push(...removeUndeclaredFields(req.body, shape.body));
  return { query: joined, ignored };
}

/** At most this many ignored names in the header (the rest counted): a URL may carry thousands. */
const MAX_IGNORED_NAMES = 20;

/** The x-ignored-parameters value: names percent-encoded (a header holds ASCII only), comma-separated. */
function ignoredHeader(ignored: readonly string[]): string {
  const shown = ignored.slice(0, MAX_IGNORED_NAMES).map((name) => encodeURIComponent(name.slice(0, 100)).replace(/%2F/g, '/'));
  if (ignored.length > MAX_IGNORED_NAMES) shown.push(`(${ignored.length - MAX_IGNORED_NAMES} more)`);
  return shown.join(', ');
}

/**
 * A required parameter (or body field) that is missing while an ignored one of a similar name was sent: the
 * message says which one was probably meant.
 */
function withMisspellings(issues: ValidationIssue[], ignored: readonly string[]): ValidationIssue[] {
  if (ignored.length === 0) return issues;
  return issues.map((issue) => {
    if (issue.rule !== 'required') return issue;
    const isBody = issue.in === 'body';
    const slash = issue.name.lastIndexOf('/');
    const parent = isBody ? issue.name.slice(0, slash + 1) : '';
    const candidates = ignored.filter((name) => name.startsWith('/') === isBody && (!isBody || name.slice(0, name.lastIndexOf('/') + 1) === parent));
    const guess = didYouMean(isBody ? issue.name.slice(slash + 1) : issue.name, candidates.map((name) => (isBody ? name.slice(parent.length) : name)));
    return guess === undefined ? issue : { ...issue, message: `${issue.message} (${isBody ? `${parent}${guess}` : guess} was sent instead, which this operation does not know: a misspelling?)` };
  });
}

function allowedMethods(api: OpenAPIBackend, path: string): string[] {
  const methods = api.router
    .getOperations()
    .filter((op) => api.router.matchOperation({ method: op.method, path, headers: {}, query: {} })?.operationId === op.operationId)
    .map((op) => op.method.toUpperCase());
  return [...new Set(methods)].sort();
}
