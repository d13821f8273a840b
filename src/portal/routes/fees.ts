/**
 * The portal's fee routes: an integrator's fee balances per chain (GET /integrators/:id/fees) and the withdrawal
 * transaction of one chain's balance, for the wallet to send (GET .../fees/:chainId/withdrawal).
 */
import type { Request, Response, Router } from 'express';
import { feeReportOf } from '../../core/fees/balances';
import { buildFeeWithdrawal } from '../../core/fees/withdrawal';
import type { FeesAnswer, WithdrawalAnswer } from '../api';
import { InputError, feesAnswer, noFees, withdrawalAnswer } from '../views';
import type { PortalContext } from './context';

/** Adds the fee routes to the portal's API router. */
export function feeRoutes(api: Router, context: PortalContext): void {
  const { dependencies, database, signedIn, ownIntegrator } = context;

  api.get('/integrators/:integratorId/fees', signedIn, async (req: Request, res: Response) => {
    const { db } = await database();
    const integrator = await ownIntegrator(db, req, res);
    const fees = await dependencies.feeLedger.integrator(integrator.integratorId);
    const catalog = dependencies.catalog;
    const answer: FeesAnswer = fees
      ? feesAnswer(feeReportOf(fees, catalog), catalog, (chainId) => dependencies.routers.feeCollectorOf(chainId), fees.feeWallet ?? dependencies.feeLedger.feeWallet(integrator.integratorId))
      : noFees(integrator.integratorId);
    res.json(answer);
  });

  api.get('/integrators/:integratorId/fees/:chainId/withdrawal', signedIn, async (req: Request, res: Response) => {
    const chainId = String(req.params.chainId);
    if (!/^\d{1,20}$/.test(chainId)) throw new InputError(`chainId must be a chain id (digits): "${chainId.slice(0, 40)}"`);
    const { db } = await database();
    const integrator = await ownIntegrator(db, req, res);
    const withdrawal = await buildFeeWithdrawal(
      { ledger: dependencies.feeLedger, catalog: dependencies.catalog, routers: dependencies.routers, gas: (id) => dependencies.graph.gas(id) },
      { integratorId: integrator.integratorId, chain: Number(chainId) },
    );
    res.json(withdrawalAnswer(withdrawal) satisfies WithdrawalAnswer);
  });
}
