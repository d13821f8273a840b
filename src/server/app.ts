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
import { compileValidatorsInTurns, createOpenApiBackend, patchRouter } from './openapiBackend';
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
   * Warm the request pipeline (warmUp.ts): a few quotes over HTTP on a loopback port of their own, through the same
   * middlewares, validators and handlers, with an access control, metrics and logger of their own (nobody's
   * requests), so that the first clients' quotes run compiled code.
   *
   * - `true`: before createApp returns;
   * - `{ after }` (the service, main.ts): in the background once `after` resolves (the service listens, and answers
   *   meanwhile), then every other operation's request validators are compiled, one operation per turn of the event
   *   loop (without it, each operation's first request compiles them: tests build many apps and use few operations
   *   of each). Readiness (GET /ready) waits for neither: both only make first requests faster.
   */
  readonly warmUp?: true | { readonly after: Promise<unknown> };
}

/** Builds the HTTP application. Tests call this with their own dependencies. */
export async function createApp(dependencies: Dependencies, config: Config, options: AppOptions): Promise<express.Express> {
  const logger = options.logger ?? pino({ level: config.logLevel });
  const contract = readContract(config.openapiPath);
  const api = createOpenApiBackend(forValidation(contract));
  const metrics = options.operations?.metrics ?? new Metrics();
  const dispatch = new Dispatch(api, dependencies);
  await api.init();
  patchRouter(api);
  // after the router's changes: registering looks each operation up, which the router's own lookup made ~2 ms each
  dispatch.register(options.handlers);
  for (const scheme of ['ApiKeyAuth', 'LifiApiKeyAuth']) api.registerSecurityHandler(scheme, dependencies.access.apiKeyAuth);
  dispatch.ready();
  const docs = docsRouter(contract);
  const operationOf = (req: Request) => api.router.matchOperation({ method: req.method, path: req.path, headers: {}, query: {} })?.operationId;

  // the API's part of the pipeline, after the parts outside /v1: every /v1 request runs these in order
  const apiPipeline = (access: AccessControl, requestsInto: Metrics, answer = dispatch.answer) => [
    requestMetrics(requestsInto, operationOf),
    deprecationNotices(api),
    access.identify(operationAccessOf(api, options.handlers)),
    jsonBody(config.limits.maxBodyBytes),
    access.authorize,
    answer,
  ];
  // errors raised outside the handlers: bodies the parser refuses, and anything unexpected
  const onError = (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const refused = requestRefused(error, config.limits.maxBodyBytes);
    if (!refused) req.log.error({ err: error }, 'unhandled error');
    send(res, refused ?? serverError(String(req.id)));
  };

  // the warm-up: the same pipeline over state of its own, so that its requests count against no one's limits or
  // metrics; its handlers run with the service's dependencies seen through an object of their own, under which
  // its route searches are observed (routeSearchCache.ts observes by the dependencies' identity)
  const warmUpRequests = async () => {
    const access = detachedAccessControl(config);
    const warmMetrics = new Metrics();
    const warmDependencies = Object.create(dependencies) as Dependencies;
    observeRouteSearches(warmDependencies, warmMetrics.routeSearch);
    const warming = newExpress();
    warming.use(requestLogging(pino({ level: 'silent' })), ...hardening(config.limits, api), ...apiPipeline(access, warmMetrics, dispatch.answerWith(warmDependencies)));
    warming.use(onError);
    const warm = await warmUp(warming, warmUpPaths(warmUpQueries(dependencies.catalog))).finally(() => access.close());
    logger.debug({ ...warm, ms: Math.round(warm.ms) }, 'warmed up');
  };
  observeRouteSearches(dependencies, metrics.routeSearch);
  const warmUpOption = options.handlers.getQuote ? options.warmUp : undefined;
  if (warmUpOption === true) await warmUpRequests();
  else if (warmUpOption) {
    // the validators once the access control's records are read too: the API's first requests wait for them (the
    // database's blocks), and each operation compiled holds the thread that the database's answers come back to
    warmInBackground(warmUpOption.after, warmUpRequests, dependencies.access.records?.ready, () => compileValidatorsInTurns(api), logger);
  }
  const operations = operationsRouter(metrics, options.operations?.readiness ?? readinessChecks(dependencies, config));

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
  listenWithLimits(app, config.limits);
  return app;
}

/**
 * How long after the service listens its warm-up begins: the warm-up's first quote holds the thread for ~0.1 s (its
 * validators compile, its code runs for the first time), so clients that were waiting for the port (a start script,
 * a health check polling it) are let in first.
 */
const WARM_UP_DELAY_MS = 50;

/**
 * The service's start-up work that its answers do not wait for: shortly after `after` resolves, the warm-up's
 * quotes; then, once `compileAfter` has settled too, `compile` (the other operations' validators). A failure of
 * either is logged: both only make first requests faster.
 */
function warmInBackground(after: Promise<unknown>, warm: () => Promise<void>, compileAfter: Promise<unknown> | undefined, compile: () => Promise<number>, logger: Logger): void {
  const failed = (what: string) => (error: Error) => logger.warn({ err: { message: error.message } }, `${what} failed: ${error.message}`);
  const warmed = after.then(() => new Promise((resolve) => setTimeout(resolve, WARM_UP_DELAY_MS))).then(warm).catch(failed('the warm-up'));
  void Promise.all([warmed, Promise.resolve(compileAfter).catch(() => undefined)]).then(async () => {
    const started = performance.now();
    const operations = await compile();
    logger.debug({ operations, ms: Math.round(performance.now() - started) }, 'request validators compiled');
  }).catch(failed('compiling the request validators'));
}

function newExpress(): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false); // ETags come from the response cache, for answers that are stable
  app.set('query parser', 'simple');
  return app;
}
