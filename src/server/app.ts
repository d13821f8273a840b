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
  /**
   * Compile every operation's request validators while the app is built, instead of on each operation's first
   * request (default false: tests build many apps and use few operations of each). The service sets it, so that its
   * first requests do not wait for them.
   */
  readonly compileValidators?: boolean;
}

/** Builds the HTTP application. Tests call this with their own dependencies. */
export async function createApp(dependencies: Dependencies, config: Config, options: AppOptions): Promise<express.Express> {
  const logger = options.logger ?? pino({ level: config.logLevel });
  const contract = readContract(config.openapiPath);
  const api = createOpenApiBackend(forValidation(contract));
  const metrics = options.operations?.metrics ?? new Metrics();
  observeRouteSearches(dependencies, metrics.routeSearch);
  const dispatch = new Dispatch(api, dependencies, metrics);
  dispatch.register(options.handlers);
  for (const scheme of ['ApiKeyAuth', 'LifiApiKeyAuth']) api.registerSecurityHandler(scheme, dependencies.access.apiKeyAuth);
  await api.init();
  patchRouter(api);
  if (options.compileValidators) compileValidators(api);
  dispatch.ready();
  const docs = docsRouter(contract);
  const operations = operationsRouter(metrics, options.operations?.readiness ?? readinessChecks(dependencies, config));
  const operationOf = (req: Request) => api.router.matchOperation({ method: req.method, path: req.path, headers: {}, query: {} })?.operationId;

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false); // ETags come from the response cache, for answers that are stable
  app.set('query parser', 'simple');
  // every request runs these in order
  app.use(
    requestLogging(logger),
    ...hardening(config.limits, api),
    // health, readiness and metrics live outside /v1, before the request metrics and access control
    (req: Request, res: Response, next: NextFunction) => (req.path.startsWith('/v1/') ? next() : operations(req, res, next)),
    // the partner portal lives outside /v1 too: its own sign-in, not the API's keys and limits
    ...(options.portal ? [express.Router().use('/portal', options.portal)] : []),
    // the docs and the contract live outside /v1
    (req: Request, res: Response, next: NextFunction) => (req.path.startsWith('/v1/') ? next() : docs(req, res, next)),
    requestMetrics(metrics, operationOf),
    deprecationNotices(api),
    dependencies.access.identify(operationAccessOf(api, options.handlers)),
    jsonBody(config.limits.maxBodyBytes),
    dependencies.access.authorize,
    dispatch.answer,
  );
  // errors raised outside the handlers: bodies the parser refuses, and anything unexpected
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const refused = requestRefused(error, config.limits.maxBodyBytes);
    if (!refused) req.log.error({ err: error }, 'unhandled error');
    send(res, refused ?? serverError(String(req.id)));
  });
  listenWithLimits(app, config.limits);
  return app;
}
