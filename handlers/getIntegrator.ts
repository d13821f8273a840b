import { integratorFeeReport } from '../src/core/fees/balances';
import { usdString } from './routeWire';
import { operation } from './types';
import { tokenToWire } from './wire';

/** The integrator's collected fees on every supported chain (the local fee ledger), or 404 code 1003. */
export const getIntegrator = operation('getIntegrator', (request, { catalog, feeLedger }) => {
  const report = integratorFeeReport(feeLedger, catalog, request.path.integratorId);
  return {
    status: 200,
    body: {
      integratorId: report.integratorId,
      feeBalances: report.feeBalances.map((chain) => ({
        chainId: chain.chainId,
        tokenBalances: chain.tokenBalances.map((b) => ({ token: tokenToWire(b.token), amount: b.amount.toString(), amountUsd: usdString(b.amountUSD) })),
      })),
    },
  };
});
