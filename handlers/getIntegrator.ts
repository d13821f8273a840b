import { integratorFeeReport } from '../src/core/fees/balances';
import { usdString } from './wire/routes';
import { operation } from './typedOperation';
import { tokenToWire } from './wire/catalog';

/**
 * The integrator's collected fees on every supported chain (the fee collectors of the connected chains in chain
 * mode, the seeded fee ledger elsewhere), or 404 code 1003. A chain whose fee collector cannot be read keeps its
 * last known figures (src/chain/feeLedger.ts); that is logged, the answer is still 200.
 */
export const getIntegrator = operation('getIntegrator', async (request, { catalog, feeLedger }) => {
  const report = await integratorFeeReport(feeLedger, catalog, request.path.integratorId);
  if (report.fallbackChains.length > 0) {
    request.log.warn({ integratorId: report.integratorId, chains: report.fallbackChains }, 'fee collector not readable: last known fee balances served');
  }
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
