/**
 * The portal's webhook routes under /integrators/:integratorId/webhook: read it with its latest deliveries, set its
 * URL (checked: src/webhooks/target.ts; a first webhook comes with its secret, shown once), renew its secret, remove it.
 */
import type { Request, Response, Router } from 'express';
import { ErrorCode } from '../../core/errors';
import { isUniqueViolation } from '../../persistence/errors';
import { changeWebhookUrl, createWebhook, deleteWebhook, getWebhook, recentDeliveries, renewWebhookSecret } from '../../persistence/webhooks';
import { newWebhookSecret } from '../../webhooks/signature';
import { checkWebhookUrl, resolveWebhookTarget, WebhookUrlError } from '../../webhooks/target';
import type { IssuedWebhookAnswer, WebhookAnswer } from '../api';
import { DELIVERIES_SHOWN, deliveryInfo, portalWebhook, webhookUrlOf, webhookUrlRefused } from '../views';
import { logOf, type PortalContext } from './context';
import { PortalError } from './errors';

/** Adds the webhook routes to the portal's API router. */
export function webhookRoutes(api: Router, context: PortalContext): void {
  const { options, logger, clock, database, signedIn, ownIntegrator } = context;
  const webhookTarget = { allowPrivate: options.webhookAllowPrivate ?? false, ...(options.webhookLookup ? { lookup: options.webhookLookup } : {}) };

  /**
   * The URL sent, if a webhook may be sent there: its form, then every address its host resolves to now (delivery
   * checks again, on the address it connects to); otherwise a 400 naming the field and the rule.
   */
  const webhookUrl = async (raw: string): Promise<URL> => {
    try {
      const url = checkWebhookUrl(raw, webhookTarget);
      await resolveWebhookTarget(url, webhookTarget);
      return url;
    } catch (error) {
      throw error instanceof WebhookUrlError ? webhookUrlRefused(error) : error;
    }
  };

  api.get('/integrators/:integratorId/webhook', signedIn, async (req: Request, res: Response) => {
    const { db } = await database();
    const integrator = await ownIntegrator(db, req, res);
    const [webhook, deliveries] = await Promise.all([getWebhook(db, integrator.integratorId), recentDeliveries(db, integrator.integratorId, DELIVERIES_SHOWN)]);
    res.json({ webhook: webhook ? portalWebhook(webhook) : null, deliveries: deliveries.map(deliveryInfo) } satisfies WebhookAnswer);
  });

  api.put('/integrators/:integratorId/webhook', signedIn, async (req: Request, res: Response) => {
    const raw = webhookUrlOf((req.body as { url?: unknown } | undefined)?.url);
    const { db } = await database();
    const integrator = await ownIntegrator(db, req, res);
    const url = await webhookUrl(raw);
    const now = new Date(clock());
    // a new URL keeps the secret: the receiver's check goes on working
    const changed = await changeWebhookUrl(db, integrator.integratorId, url.href, now);
    if (changed) {
      logOf(req, logger).info({ integratorId: integrator.integratorId, host: url.host }, 'portal: webhook URL changed');
      res.json({ webhook: portalWebhook(changed) } satisfies IssuedWebhookAnswer);
      return;
    }
    try {
      const webhook = await createWebhook(db, integrator.integratorId, url.href, newWebhookSecret(), now);
      logOf(req, logger).info({ integratorId: integrator.integratorId, host: url.host }, 'portal: webhook set');
      res.status(201).json({ webhook: portalWebhook(webhook), secret: webhook.secret } satisfies IssuedWebhookAnswer);
    } catch (error) {
      // another request made it meanwhile: its answer showed the secret
      if (isUniqueViolation(error)) throw new PortalError(409, ErrorCode.DefaultError, `Integrator "${integrator.integratorId}" got a webhook meanwhile: reload it, and renew its secret if its answer was not seen`);
      throw error;
    }
  });

  api.post('/integrators/:integratorId/webhook/secret', signedIn, async (req: Request, res: Response) => {
    const { db } = await database();
    const integrator = await ownIntegrator(db, req, res);
    const webhook = await renewWebhookSecret(db, integrator.integratorId, newWebhookSecret(), new Date(clock()));
    if (!webhook) throw new PortalError(404, ErrorCode.NotFoundError, `Integrator "${integrator.integratorId}" has no webhook: set its URL first`);
    logOf(req, logger).info({ integratorId: integrator.integratorId }, 'portal: webhook secret renewed');
    res.json({ webhook: portalWebhook(webhook), secret: webhook.secret } satisfies IssuedWebhookAnswer);
  });

  api.delete('/integrators/:integratorId/webhook', signedIn, async (req: Request, res: Response) => {
    const { db } = await database();
    const integrator = await ownIntegrator(db, req, res);
    if (!(await deleteWebhook(db, integrator.integratorId))) throw new PortalError(404, ErrorCode.NotFoundError, `Integrator "${integrator.integratorId}" has no webhook`);
    logOf(req, logger).info({ integratorId: integrator.integratorId }, 'portal: webhook removed');
    res.status(204).end();
  });
}
