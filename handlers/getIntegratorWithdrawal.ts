import { buildFeeWithdrawal } from '../src/core/fees/withdrawal';
import { transactionRequestToWire } from './wire/routes';
import { operation } from './typedOperation';

/** A call to the chain's fee collector withdrawing the integrator's collected fees (all, or the tokens asked). */
export const getIntegratorWithdrawal = operation('getIntegratorWithdrawal', async (request, { catalog, feeLedger, routers, graph }) => {
  const withdrawal = await buildFeeWithdrawal(
    { ledger: feeLedger, catalog, routers, gas: (chainId) => graph.gas(chainId) },
    { integratorId: request.path.integratorId, chain: request.path.chainId, tokenAddresses: request.query.tokenAddresses },
  );
  return { status: 200, body: { transactionRequest: transactionRequestToWire(withdrawal.transactionRequest) } };
});
