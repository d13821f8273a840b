import { NoRouteError } from '../src/core/errors';
import { quoteContractCalls, type ContractCallsInput } from '../src/core/routing/contractCalls';
import { buildContractCallsTransaction } from '../src/core/transactions/contractCalls';
import type { Dependencies } from '../src/server/dependencies';
import { contractCallToWire, transactionRequestToWire, transactionToStep, unavailableToWire } from './routeWire';
import { operation } from './types';

/**
 * A transfer followed by contract calls as a Step of type lifi: its included steps are the route's (fee,
 * swaps, bridge, destination swaps) followed by one `custom` step per call; its transactionRequest calls the
 * router with the calls after the swaps (src/core/transactions/abi.ts). 404 code 1002 when no route; 400 naming
 * the body field for every semantic problem (src/core/routing/contractCalls.ts).
 */
export function contractCallsStep(dependencies: Dependencies, input: ContractCallsInput) {
  const result = quoteContractCalls(dependencies, input);
  if (!result.ok) throw new NoRouteError(result.message, unavailableToWire(result.unavailable));
  const { quote } = result;
  const { route } = quote;
  const tx = route.transactions[0];
  const step = transactionToStep(dependencies, route, tx, 0);
  const executor = dependencies.routers.routerOf(route.request.toChain.id);
  if (!executor) throw new Error(`routers.json has no router on chain ${route.request.toChain.id} to run the contract calls`);
  step.includedSteps = [
    ...(step.includedSteps ?? []),
    ...quote.calls.map((call, k) => contractCallToWire(route, call, step.id, tx.steps.length + k, executor)),
  ];
  step.estimate.data = {
    ...step.estimate.data,
    contractCalls: {
      count: quote.calls.length,
      // what the calls take in all, and who gets what arrives above it
      fromAmount: quote.callsAmount.toString(),
      remainderReceiver: quote.receiver,
      gasLimit: quote.calls.reduce((sum, c) => sum + c.gasLimit, 0n).toString(),
    },
  };
  const field = input.field ?? ((path: string) => `/${path}`);
  const names = { in: 'body', fromAddress: field('fromAddress'), toAddress: field('fromAddress') } as const;
  const transaction = buildContractCallsTransaction(dependencies, quote, step.id, names);
  if (transaction) step.transactionRequest = transactionRequestToWire(transaction);
  return step;
}

/** POST /v1/quote/contractCalls (beta). */
export const postContractCallsQuote = operation('postContractCallsQuote', (request, dependencies) => {
  const body = request.body;
  const input: ContractCallsInput = {
    fromChain: body.fromChain,
    toChain: body.toChain,
    fromToken: body.fromToken,
    toToken: body.toToken,
    fromAddress: body.fromAddress,
    toAmount: body.toAmount,
    fromAmount: body.fromAmount,
    contractCalls: body.contractCalls,
    integrator: body.integrator,
    referrer: body.referrer,
    slippage: body.slippage,
    fee: body.fee,
    bridges: { allow: body.allowBridges, deny: body.denyBridges, prefer: body.preferBridges },
    exchanges: { allow: body.allowExchanges, deny: body.denyExchanges, prefer: body.preferExchanges },
    denyPools: body.denyPools,
  };
  return { status: 200, body: contractCallsStep(dependencies, input) };
});
