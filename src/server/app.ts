/**
 * The HTTP application, wired: express for transport, openapi-backend for routing and validation against
 * openapi.yaml (openapiBackend.ts), the operations' handlers behind it (dispatch.ts), one error answer for every
 * failure (httpErrors.ts). Each middleware lives in its own file; this one only puts them in order.
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import pino, { type Logger } from 'pino';
import type { Config } from '../config';
import { forValidation, readContract } from './contract';
import type { Dependencies } from './dependencies';
import { deprecationNotices } from './deprecation';
import { Dispatch } from './dispatch';
import { docsRouter } from './docs';
import { hardening, listenWithLimits } from './hardening';
import { requestRefused, serverError } from './httpErrors';
import { jsonBody } from './jsonBody';
import { Metrics, requestMetrics } from './metrics';
import { compileValidators, createOpenApiBackend, patchRouter } from './openapiBackend';
import { operationAccessOf } from './access/operationAccess';
import type { HandlerTable } from './operation';
import { operationsRouter, readinessChecks, type ReadinessChecks } from './operations';
import { requestLogging } from './requestLogging';
import { send } from './send';
import { observeRouteSearches } from '../usecases/routeSearchCache';
import { detachedAccessControl } from './access/build';
import type { AccessControl } from './access/middleware';
import { warmUp, warmUpPaths, warmUpQueries } from './warmUp';

export interface AppOptions {
  /** Operation handlers by operationId; operations without one answer 501. */
  readonly handlers: HandlerTable;
  /** Base logger; defaults to a pino logger at the configured level. */
  readonly logger?: Logger;
  /**
   * GET /health, /ready and /metrics (operations.ts): the metrics to record into and serve (default: new ones,
   * without process metrics), and the readiness checks (default: readinessChecks of the dependencies and the
   * configuration: data, and Redis when REDIS_URL is set).
   */
  readonly operations?: { readonly metrics?: Metrics; readonly readiness?: ReadinessChecks };
  /** The partner portal (src/portal/router.ts), mounted at /portal: outside /v1, before the access control. */
  readonly portal?: express.Router;
  /** The explorer's pages per transfer (explorer.ts), mounted at /explorer: outside /v1, before the access control. */
  readonly explorer?: express.Router;
  /**
   * Compile every operation's request validators while the app is built, instead of on each operation's first
   * request (default false: tests build many apps and use few operations of each). The service sets it, so that its
   * first requests do not wait for them.
   */
  readonly compileValidators?: boolean;
  /**
   * Before returning, warm the request pipeline (warmUp.ts): a few quotes over HTTP on a loopback port of their own,
   * through the same middlewares, validators and handlers, with an access control, metrics and logger of their own
   * (nobody's requests). The service sets it, so that its first clients' quotes run compiled code.
   */
  readonly warmUp?: boolean;
}

/** Builds the HTTP application. Tests call this with their own dependencies. */
export async function createApp(dependencies: Dependencies, config: Config, options: AppOptions): Promise<express.Express> {
  const logger = options.logger ?? pino({ level: config.logLevel });
  const contract = readContract(config.openapiPath);
  const api = createOpenApiBackend(forValidation(contract));
  const metrics = options.operations?.metrics ?? new Metrics();
  const dispatch = new Dispatch(api, dependencies);
  dispatch.register(options.handlers);
  for (const scheme of ['ApiKeyAuth', 'LifiApiKeyAuth']) api.registerSecurityHandler(scheme, dependencies.access.apiKeyAuth);
  await api.init();
  patchRouter(api);
  if (options.compileValidators) compileValidators(api);
  dispatch.ready();
  const docs = docsRouter(contract);
  const operations = operationsRouter(metrics, options.operations?.readiness ?? readinessChecks(dependencies, config));
  const operationOf = (req: Request) => api.router.matchOperation({ method: req.method, path: req.path, headers: {}, query: {} })?.operationId;

  // the API's part of the pipeline, after the parts outside /v1: every /v1 request runs these in order
  const apiPipeline = (access: AccessControl, requestsInto: Metrics) => [
    requestMetrics(requestsInto, operationOf),
    deprecationNotices(api),
    access.identify(operationAccessOf(api, options.handlers)),
    jsonBody(config.limits.maxBodyBytes),
    access.authorize,
    dispatch.answer,
  ];
  // errors raised outside the handlers: bodies the parser refuses, and anything unexpected
  const onError = (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const refused = requestRefused(error, config.limits.maxBodyBytes);
    if (!refused) req.log.error({ err: error }, 'unhandled error');
    send(res, refused ?? serverError(String(req.id)));
  };

  const app = newExpress();
  // every request runs these in order
  app.use(
    requestLogging(logger),
    ...hardening(config.limits, api),
    // health, readiness and metrics live outside /v1, before the request metrics and access control
    (req: Request, res: Response, next: NextFunction) => (req.path.startsWith('/v1/') ? next() : operations(req, res, next)),
    // the partner portal lives outside /v1 too: its own sign-in, not the API's keys and limits
    ...(options.portal ? [express.Router().use('/portal', options.portal)] : []),
    // the explorer's pages too: a limit of their own, no key
    ...(options.explorer ? [express.Router().use('/explorer', options.explorer)] : []),
    // the docs and the contract live outside /v1
    (req: Request, res: Response, next: NextFunction) => (req.path.startsWith('/v1/') ? next() : docs(req, res, next)),
    ...apiPipeline(dependencies.access, metrics),
  );
  app.use(onError);

  if (options.warmUp && options.handlers.getQuote) {
    // the same pipeline over state of its own: the warm-up's requests count against no one's limits or metrics
    const access = detachedAccessControl(config);
    const warmMetrics = new Metrics();
    observeRouteSearches(dependencies, warmMetrics.routeSearch);
    const warming = newExpress();
    warming.use(requestLogging(pino({ level: 'silent' })), ...hardening(config.limits, api), ...apiPipeline(access, warmMetrics));
    warming.use(onError);
    const warm = await warmUp(warming, warmUpPaths(warmUpQueries(dependencies.catalog))).finally(() => access.close());
    logger.debug({ ...warm, ms: Math.round(warm.ms) }, 'warmed up');
  }
  observeRouteSearches(dependencies, metrics.routeSearch);
  listenWithLimits(app, config.limits);
  return app;
}

function newExpress(): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false); // ETags come from the response cache, for answers that are stable
  app.set('query parser', 'simple');
  return app;
}
