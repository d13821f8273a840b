import type { ContractCallsInput } from '../src/core/routing/contractCalls';
import { contractCallsStep } from './postContractCallsQuote';
import { operation } from './types';

/** The single call's fields of the contractCalls form, by the deprecated body's own field names. */
const FIELDS: Record<string, string> = {
  'contractCalls/0/fromAmount': '/toAmount',
  'contractCalls/0/toTokenAddress': '/contractOutputsToken',
  'contractCalls/0/toContractAddress': '/toContractAddress',
  'contractCalls/0/toContractCallData': '/toContractCallData',
  'contractCalls/0/toContractGasLimit': '/toContractGasLimit',
};

/**
 * POST /v1/quote/contractCall (deprecated): the same code path as /v1/quote/contractCalls with one call that
 * takes the whole toAmount of the delivered toToken; problems are named by this body's fields.
 */
export const postContractCallQuote = operation('postContractCallQuote', (request, dependencies) => {
  const body = request.body;
  const input: ContractCallsInput = {
    fromChain: body.fromChain,
    toChain: body.toChain,
    fromToken: body.fromToken,
    toToken: body.toToken,
    fromAddress: body.fromAddress,
    toAmount: body.toAmount,
    contractCalls: [
      {
        fromAmount: body.toAmount,
        toTokenAddress: body.contractOutputsToken,
        toContractAddress: body.toContractAddress,
        toContractCallData: body.toContractCallData,
        toContractGasLimit: body.toContractGasLimit,
        ...(body.toApprovalAddress !== undefined ? { toApprovalAddress: body.toApprovalAddress } : {}),
      },
    ],
    integrator: body.integrator,
    referrer: body.referrer,
    slippage: body.slippage,
    fee: body.fee,
    bridges: { allow: body.allowBridges, deny: body.denyBridges, prefer: body.preferBridges },
    exchanges: { allow: body.allowExchanges, deny: body.denyExchanges, prefer: body.preferExchanges },
    denyPools: body.denyPools,
    field: (path) => FIELDS[path] ?? `/${path}`,
  };
  return { status: 200, body: contractCallsStep(dependencies, input) };
});
