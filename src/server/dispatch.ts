/**
 * From an express request to an operation's answer: a request answered before is sent again from the response
 * cache; any other is reduced to what its operation declares and handed to openapi-backend, which validates it
 * and calls the operation's handler (or answers 400, 404, 405 or 501). Around each handler: the response cache,
 * by the cache policy the operation declares (operation.ts), and its domain errors turned into answers. Whether
 * the response cache answered is left in `res.locals.responseCache` ('hit' or 'miss', for the request metrics).
 */
import type { NextFunction, Request, Response } from 'express';
import type { Context, OpenAPIBackend } from 'openapi-backend';
import type { ErrorObject } from 'ajv';
import { DomainError, NoRouteError } from '../core/errors';
import { callerOf } from './access/middleware';
import type { Dependencies } from './dependencies';
import { keyOnlyOperations } from './hardening';
import { domainErrorToHttp, methodNotAllowed, noSuchEndpoint, notImplemented, validationFailed } from './httpErrors';
import { AnsweredUrls, DataVersions } from './knownRequests';
import { allowedMethods } from './openapiBackend';
import type { HandlerTable, OperationResponse, RawOperationHandler } from './operation';
import { ResponseCache } from './responseCache';
import { collectRequestShapes, declaredRequest, type RequestShape } from './requestShapes';
import { send } from './send';
import { IGNORED_PARAMETERS_HEADER, ignoredHeader, withMisspellings } from './unknownParameters';
import { describeValidationErrors } from './validationMessage';

export class Dispatch {
  private readonly cache = new ResponseCache();
  private readonly answered = new AnsweredUrls();
  private readonly versions: DataVersions;
  /** The names a request sent that its operation does not know (ignored; see unknownParameters.ts). */
  private readonly ignoredNames = new WeakMap<Request, readonly string[]>();
  /** The dependencies a request's handler runs with, when not the service's ({@link answerWith}). */
  private readonly dependenciesOf = new WeakMap<Request, Dependencies>();
  private shapes: ReadonlyMap<string, RequestShape> = new Map();

  constructor(
    private readonly api: OpenAPIBackend,
    private readonly dependencies: Dependencies,
  ) {
    this.versions = new DataVersions(dependencies);
  }

  /**
   * Registers the operations' handlers and the answers to what the contract refuses; after `api.init()` and the
   * router's changes (openapiBackend.ts), so that each operation is looked up cheaply (an unknown one is refused).
   */
  register(handlers: HandlerTable): void {
    const { api } = this;
    api.register({
      validationFail: (c: Context, req: Request) =>
        validationFailed(withMisspellings(describeValidationErrors((c.validation.errors ?? []) as ErrorObject[]), this.ignoredNames.get(req) ?? [])),
      notFound: (c: Context) => noSuchEndpoint(c.request.method, c.request.path),
      methodNotAllowed: (c: Context) => methodNotAllowed(c.request.method, c.request.path, allowedMethods(api, c.request.path)),
      notImplemented: (c: Context) => notImplemented(c.operation.operationId),
    });
    for (const [operationId, handler] of Object.entries(handlers)) {
      api.registerHandler(operationId, (c: Context, req: Request, res: Response) => this.run(operationId, handler, c, req, res));
    }
  }

  /** Reads what it needs of the operations; after `api.init()` (and the router's changes, openapiBackend.ts). */
  ready(): void {
    const keyOnly = keyOnlyOperations(this.api);
    this.answered.publicOperations = new Set(this.api.router.getOperations().flatMap((op) => (op.operationId && !keyOnly.has(op.operationId) ? [op.operationId] : [])));
    this.shapes = collectRequestShapes(this.api);
  }

  /**
   * The same middleware, whose handlers run with `dependencies` instead: the warm-up's requests (app.ts) run with
   * the service's dependencies under an identity of their own, so that their route searches are observed apart.
   */
  answerWith(dependencies: Dependencies): (req: Request, res: Response, next: NextFunction) => Promise<void> {
    return (req, res, next) => {
      this.dependenciesOf.set(req, dependencies);
      return this.answer(req, res, next);
    };
  }

  /** The middleware that answers every request of the API (after access control and body parsing). */
  readonly answer = async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      // a request answered before from the response cache: same URL (and body), same validated request, same key
      const known = this.answered.lookup(req);
      const hit = known ? this.cache.get(known.versionedKey(this.versions.of(known.policy))) : undefined;
      if (hit) {
        res.locals.operationId = known!.operationId; // for the request metrics (metrics.ts)
        res.locals.responseCache = 'hit';
        if (known!.ignoredHeader) res.setHeader(IGNORED_PARAMETERS_HEADER, known!.ignoredHeader);
        send(res, { status: hit.status, body: undefined, cached: hit }, req);
        return;
      }
      const { query, ignored } = declaredRequest(this.api, req, this.shapes);
      if (ignored.length > 0) {
        this.ignoredNames.set(req, ignored);
        res.setHeader(IGNORED_PARAMETERS_HEADER, ignoredHeader(ignored));
      }
      const result = (await this.api.handleRequest(
        { method: req.method, path: req.path, query: query as Record<string, string | string[]>, headers: req.headers as Record<string, string | string[]>, body: req.body },
        req,
        res,
      )) as OperationResponse;
      send(res, result, req);
    } catch (error) {
      next(error);
    }
  };

  /** One operation's handler on a validated request, with the response cache around it. */
  private async run(operationId: string, handler: RawOperationHandler, c: Context, req: Request, res: Response): Promise<OperationResponse> {
    const { cache, versions } = this;
    res.locals.operationId = operationId; // for the request metrics (metrics.ts)
    const policy = handler.cache ?? 'none';
    const requestKey = policy !== 'none' ? ResponseCache.key(operationId, c.request.params, c.request.query, c.request.requestBody) : undefined;
    // the data the answer was computed from is part of the key: a replaced liquidity graph misses
    const key = requestKey ? ResponseCache.versioned(versions.of(policy), requestKey) : undefined;
    if (requestKey) this.answered.remember(req, operationId, policy, requestKey, this.ignoredNames.get(req));
    const hit = key ? cache.get(key) : undefined;
    if (hit) {
      res.locals.responseCache = 'hit';
      return { status: hit.status, body: undefined, cached: hit };
    }
    if (key) res.locals.responseCache = 'miss';
    try {
      const result = await handler(
        {
          operationId,
          query: (c.request.query ?? {}) as Record<string, unknown>,
          path: (c.request.params ?? {}) as Record<string, unknown>,
          body: c.request.requestBody,
          headers: c.request.headers,
          requestId: String(req.id),
          caller: callerOf(res),
          get log() {
            return req.log; // made on first use (requestLogging.ts)
          },
        },
        this.dependenciesOf.get(req) ?? this.dependencies,
      );
      if (key && result.status === 200 && !result.uncacheable) return { ...result, cached: cache.store(key, result.body) };
      return result;
    } catch (caught) {
      if (!(caught instanceof DomainError)) throw caught;
      const answer = domainErrorToHttp(caught, this.shapes.get(operationId)?.fields);
      // "no route" is as much a function of the request and the data as a route is (unless the search was timed)
      if (key && policy === 'liquidity' && caught instanceof NoRouteError && !caught.dependsOnTiming) return { ...answer, cached: cache.store(key, answer.body, answer.status) };
      return answer;
    }
  }
}
