/**
 * The portal's transfers route: an integrator's latest transfers of the index (GET /integrators/:id/transfers?limit=),
 * each with its explorer page.
 */
import type { Request, Response, Router } from 'express';
import { listTransfers } from '../../persistence/transfers';
import type { PortalTransfer, TransfersAnswer } from '../api';
import { portalTransfer, transfersLimit } from '../views';
import type { PortalContext } from './context';

/** Adds the transfers route to the portal's API router. */
export function transferRoutes(api: Router, context: PortalContext): void {
  const { database, signedIn, ownIntegrator } = context;

  api.get('/integrators/:integratorId/transfers', signedIn, async (req: Request, res: Response) => {
    const limit = transfersLimit(req.query.limit);
    const { db } = await database();
    const integrator = await ownIntegrator(db, req, res);
    const page = await listTransfers(db, { integrator: integrator.integratorId }, { limit });
    const transfers = page.transfers.map(portalTransfer).filter((transfer): transfer is PortalTransfer => transfer !== undefined);
    res.json({ transfers } satisfies TransfersAnswer);
  });
}
