/**
 * The transaction of a route's step, built the way its sending chain's family sends (ChainFamily.sending): a call
 * of the service's router on EVM chains (build.ts), a bridge deposit on Solana (svmDeposit.ts). A family that cannot
 * send is refused before a route is searched (request.ts, reprice.ts): reaching here with one is an internal error.
 */
import { familyOf } from '../chains/families';
import type { Route } from '../routing/route';
import { buildTransaction } from './build';
import type { ContractCallData } from './calldata';
import type { EvmTransactionRequest, TransactionContext } from './context';
import { PARAMETER_NAMES, type ParameterNames } from './requestAddresses';
import { buildSvmDeposit, type SvmTransactionRequest } from './svmDeposit';

export type StepTransactionRequest = EvmTransactionRequest | SvmTransactionRequest;

export async function buildStepTransaction(
  ctx: TransactionContext, route: Route, index: number, stepId: string, names: ParameterNames = PARAMETER_NAMES,
  calls?: readonly ContractCallData[],
): Promise<StepTransactionRequest> {
  const tx = route.transactions[index];
  if (!tx) throw new Error(`route ${route.id} has no transaction ${index}`);
  const chain = ctx.graph.catalog.getChain(tx.chainId);
  if (!chain) throw new Error(`chain ${tx.chainId} is not in the catalog`);
  const sending = familyOf(chain).sending;
  if (!sending.supported) throw new Error(`a step from ${chain.name} reached the transaction builder: ${sending.reason}`);
  switch (sending.transaction) {
    case 'evmRouterCall': {
      const built = buildTransaction(ctx, route, index, stepId, names, calls);
      if (!built) throw new Error(`no router transaction on ${chain.name}`);
      return built;
    }
    case 'svmBridgeDeposit':
      if (calls && calls.length > 0) throw new Error(`contract calls from ${chain.name} reached the transaction builder`);
      return buildSvmDeposit(ctx, route, index, stepId, names);
  }
}
