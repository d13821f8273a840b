/**
 * The transaction of a contract-calls quote (src/core/routing/contractCallsRoute.ts): the route's router call with
 * the calls appended after its swaps, as CallData (abi.ts): across chains in the destination call
 * swapAndCompleteBridgeTokensWithCalls, on one chain in swapAndCall. The bridged or swapped token is each
 * call's sendingAssetId; the fallback receiver, the approval target and the gas limit travel with each call.
 */
import type { ContractCall, ContractCallsQuote } from '../routing/contractCallsRoute';
import type { ContractCallData } from './calldata';
import { buildTransaction } from './build';
import type { EvmTransactionRequest, TransactionContext } from './context';
import type { ParameterNames } from './requestAddresses';

/** A checked call as the router's CallData. */
export function toCallData(call: ContractCall): ContractCallData {
  return {
    target: call.target,
    approveTo: call.approveTo,
    sendingAssetId: call.token.address,
    amount: call.amount,
    callData: call.callData,
    gasLimit: call.gasLimit,
    fallbackReceiver: call.fallbackReceiver,
  };
}

/** The quote's transaction, for its step `stepId` (the quote's route id); names: how the body calls fromAddress. */
export function buildContractCallsTransaction(
  ctx: TransactionContext, quote: ContractCallsQuote, stepId: string, names: ParameterNames,
): EvmTransactionRequest | undefined {
  return buildTransaction(ctx, quote.route, 0, stepId, names, quote.calls.map(toCallData));
}
