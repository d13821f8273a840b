import type { RouteParameters } from '../src/core/routing/request';
import type { QueryOf } from './types';

/** The query of /v1/quote and /v1/quote/toAmount as route parameters (the contract already checked types and bounds). */
export function quoteParameters(
  query: QueryOf<'getQuote'> | QueryOf<'getQuoteToAmount'>,
  amount: { value: string; mode: 'exactIn' | 'exactOut'; name: string },
): RouteParameters {
  const q = query as QueryOf<'getQuote'> & Partial<QueryOf<'getQuoteToAmount'>>;
  return {
    fromChain: q.fromChain,
    toChain: q.toChain,
    fromToken: q.fromToken,
    toToken: q.toToken,
    amount: amount.value,
    mode: amount.mode,
    names: { amount: amount.name },
    fromAddress: q.fromAddress,
    toAddress: q.toAddress,
    order: q.order,
    slippage: q.slippage,
    fee: q.fee,
    integrator: q.integrator,
    referrer: q.referrer,
    bridges: { allow: q.allowBridges, deny: q.denyBridges, prefer: q.preferBridges },
    exchanges: { allow: q.allowExchanges, deny: q.denyExchanges, prefer: q.preferExchanges },
    allowDestinationCall: q.allowDestinationCall,
    maxPriceImpact: q.maxPriceImpact,
    fromAmountForGas: 'fromAmountForGas' in q ? q.fromAmountForGas : undefined,
    preset: 'preset' in q ? q.preset : undefined,
    timingStrategies: [...(q.swapStepTimingStrategies ?? []), ...(q.routeTimingStrategies ?? [])],
    maxRoutes: 1,
    denyPools: q.denyPools,
    executionType: q.executionType,
    gasless: q.gasless,
    destinationActionParameter: q.destinationActionKind !== undefined ? 'destinationActionKind' : q.destinationActionVault !== undefined ? 'destinationActionVault' : undefined,
  };
}
