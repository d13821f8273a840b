/**
 * The HTTP application, wired: express for transport, openapi-backend for routing and validation against
 * openapi.yaml (openapiBackend.ts), the operations' handlers behind it (dispatch.ts), one error answer for every
 * failure (httpErrors.ts). Each middleware lives in its own file; this one only puts them in order.
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import pino, { type Logger } from 'pino';
import type { Config } from '../config';
import { loadContract } from './contract';
import type { Dependencies } from './dependencies';
import { deprecationNotices } from './deprecation';
import { Dispatch } from './dispatch';
import { docsRouter } from './docs';
import { hardening, listenWithLimits } from './hardening';
import { requestRefused, serverError } from './httpErrors';
import { jsonBody } from './jsonBody';
import { createOpenApiBackend, patchRouter } from './openapiBackend';
import type { HandlerTable } from './operation';
import { requestLogging } from './requestLogging';
import { send } from './send';

export interface AppOptions {
  /** Operation handlers by operationId; operations without one answer 501. */
  readonly handlers: HandlerTable;
  /** Base logger; defaults to a pino logger at the configured level. */
  readonly logger?: Logger;
}

/** Builds the HTTP application. Tests call this with their own dependencies. */
export async function createApp(dependencies: Dependencies, config: Config, options: AppOptions): Promise<express.Express> {
  const logger = options.logger ?? pino({ level: config.logLevel });
  const api = createOpenApiBackend(loadContract(config.openapiPath));
  const dispatch = new Dispatch(api, dependencies);
  dispatch.register(options.handlers);
  api.registerSecurityHandler('ApiKeyAuth', dependencies.access.apiKeyAuth);
  await api.init();
  patchRouter(api);
  dispatch.ready();
  const docs = docsRouter(config.openapiPath);

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false); // ETags come from the response cache, for answers that are stable
  app.set('query parser', 'simple');
  // every request runs these in order
  app.use(
    requestLogging(logger),
    ...hardening(config.limits, api),
    // the docs and the contract live outside /v1
    (req: Request, res: Response, next: NextFunction) => (req.path.startsWith('/v1/') ? next() : docs(req, res, next)),
    deprecationNotices(api),
    dependencies.access.identify,
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
