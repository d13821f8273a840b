/**
 * The portal's integrator routes: the signed-in wallet's integrators (GET /integrators), registering one
 * (POST /integrators, the wallet as its fee wallet) and one integrator with its keys (GET /integrators/:id).
 */
import type { Request, Response, Router } from 'express';
import { getAddress } from 'ethers';
import { ErrorCode } from '../../core/errors';
import { listIntegrators, registerIntegrator } from '../../persistence/integrators';
import { listKeys } from '../../persistence/keys';
import type { IntegratorAnswer, IntegratorsAnswer } from '../api';
import { integratorIdOf, orderKeys } from '../views';
import { logOf, type PortalContext } from './context';
import { PortalError } from './errors';

/** A wallet registers at most this many integrator ids through the portal. */
export const MAX_INTEGRATORS_PER_WALLET = 20;

/** Adds the integrator routes to the portal's API router. */
export function integratorRoutes(api: Router, context: PortalContext): void {
  const { options, dependencies, logger, clock, database, signedIn, sessionOf, ownIntegrator, shown } = context;

  api.get('/integrators', signedIn, async (_req: Request, res: Response) => {
    const db = (await database()).db;
    const integrators = await listIntegrators(db, { feeWallet: sessionOf(res).address });
    res.json({ integrators } satisfies IntegratorsAnswer);
  });

  api.post('/integrators', signedIn, async (req: Request, res: Response) => {
    const { address } = sessionOf(res);
    const id = integratorIdOf((req.body as { integratorId?: unknown } | undefined)?.integratorId);
    // an id the fee ledger knows (in any case: ids are unique without regard to case) is the ledger's: its own id, to
    // the wallet the ledger books its fees to; a case variant of it, to nobody
    const inLedger = dependencies.feeLedger.integratorIds.find((known) => known.toLowerCase() === id.toLowerCase());
    if (inLedger !== undefined) {
      const booked = dependencies.feeLedger.feeWallet(inLedger);
      if (inLedger !== id) throw new PortalError(409, ErrorCode.DefaultError, `Integrator id "${id}" is taken: the fee ledger books "${inLedger}", and ids are compared without regard to case`);
      if (booked !== undefined && sameAddress(booked, address) !== true) {
        throw new PortalError(403, ErrorCode.UnauthorizedError, `Integrator id "${id}" is taken: its fees go to another wallet`);
      }
      // the ledger books its fees without a wallet yet: the operator's to give one, not the first signer's to claim
      if (booked === undefined) {
        throw new PortalError(403, ErrorCode.UnauthorizedError, `Integrator id "${id}" is reserved: the service's fee ledger books its fees and names no wallet for them yet; its operator assigns it`);
      }
    }
    const { db } = await database();
    // the partner is registered with it; counted and inserted under a lock on the partner's row: parallel registrations never pass the cap
    const integrator = await registerIntegrator(db, { integratorId: id, feeWallet: address }, { maxPerWallet: MAX_INTEGRATORS_PER_WALLET });
    logOf(req, logger).info({ integratorId: id, address }, 'portal: integrator registered');
    options.onIntegratorRegistered?.(id);
    res.status(201).json(integrator);
  });

  api.get('/integrators/:integratorId', signedIn, async (req: Request, res: Response) => {
    const { db } = await database();
    const integrator = await ownIntegrator(db, req, res);
    const views = await listKeys(db, { integratorId: integrator.integratorId, all: true, now: new Date(clock()) });
    const keys = orderKeys(await Promise.all(views.map((view) => shown(db, view))));
    res.json({ ...integrator, keys } satisfies IntegratorAnswer);
  });
}

/** Whether two EVM addresses are one (undefined when either is not an address). */
function sameAddress(a: string, b: string): boolean | undefined {
  try {
    return getAddress(a) === getAddress(b);
  } catch {
    return undefined;
  }
}
