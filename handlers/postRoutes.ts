import { NoRouteError } from '../src/core/errors';
import { buildRouteRequest } from '../src/core/routing/request';
import { findRoutes } from '../src/server/quoteCache';
import { routeToWire, unavailableToWire } from './routeWire';
import { operation } from './types';

const MAX_ROUTES = 5;

/** Several routes ordered by `order`, each tagged, with the reasons for every candidate left out. */
export const postRoutes = operation('postRoutes', (request, { catalog, routes, routers }) => {
  const body = request.body;
  const options: Partial<NonNullable<typeof body.options>> = body.options ?? {};
  const timing = options.timing;
  const routeRequest = buildRouteRequest(catalog, {
    fromChain: body.fromChainId,
    toChain: body.toChainId,
    fromToken: body.fromTokenAddress,
    toToken: body.toTokenAddress,
    amount: body.fromAmount,
    mode: 'exactIn',
    names: { fromChain: 'fromChainId', toChain: 'toChainId', fromToken: 'fromTokenAddress', toToken: 'toTokenAddress', amount: 'fromAmount' },
    fromAddress: body.fromAddress,
    toAddress: body.toAddress,
    fromAmountForGas: body.fromAmountForGas,
    order: options.order,
    slippage: options.slippage,
    fee: options.fee,
    integrator: options.integrator,
    referrer: options.referrer,
    bridges: options.bridges,
    exchanges: options.exchanges,
    allowSwitchChain: options.allowSwitchChain,
    allowDestinationCall: options.allowDestinationCall,
    maxPriceImpact: options.maxPriceImpact,
    timingStrategies: [...(timing?.swapStepTimingStrategies ?? []), ...(timing?.routeTimingStrategies ?? [])],
    maxRoutes: MAX_ROUTES,
    preset: options.preset,
    denyPools: options.pools?.deny,
    executionType: options.executionType,
    gasless: options.gasless,
    destinationActionParameter: options.destinationAction !== undefined ? 'options.destinationAction' : undefined,
  });
  const result = findRoutes(routes, routeRequest);
  if (result.routes.length === 0) {
    throw new NoRouteError('No routes found for the requested transfer; errors.filteredOut and errors.failed say why', unavailableToWire(result.unavailable), {
      dependsOnTiming: routeRequest.timing !== undefined,
    });
  }
  return {
    status: 200,
    body: { routes: result.routes.map((r) => routeToWire({ catalog, routers }, r)), unavailableRoutes: unavailableToWire(result.unavailable) },
    // a search bounded by timing strategies depends on how long it ran
    uncacheable: routeRequest.timing !== undefined,
  };
}, { cache: 'liquidity' });
