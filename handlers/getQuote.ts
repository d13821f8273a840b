import { NoRouteError } from '../src/core/errors';
import { buildRouteRequest } from '../src/core/routing/request';
import type { Route } from '../src/core/routing/types';
import { buildTransaction, type ParameterNames } from '../src/core/transactions/build';
import { findRoutes } from '../src/server/quoteCache';
import { quoteParameters } from './quoteParameters';
import { transactionRequestToWire, transactionToStep, unavailableToWire } from './routeWire';
import { operation } from './types';
import type { Dependencies } from '../src/server/dependencies';
import type { RouteParameters } from '../src/core/routing/request';

/** The best single-transaction route as a Step of type lifi with its transactionRequest, or 404 code 1002 saying why there is none. */
export function bestStep(dependencies: Dependencies, parameters: RouteParameters) {
  const request = buildRouteRequest(dependencies.catalog, parameters);
  const result = findRoutes(dependencies.routes, request);
  const route = result.routes.find((r) => !r.containsSwitchChain);
  if (!route) {
    throw new NoRouteError(noRouteMessage(result.unavailable), unavailableToWire(result.unavailable), { dependsOnTiming: request.timing !== undefined });
  }
  return stepWithTransaction(dependencies, route, 0);
}

/**
 * A route's transaction `index` as a Step with its transactionRequest (a call of the service's router on the
 * sending chain; absent when that chain is not an EVM chain, whose transactions are not built yet).
 */
export function stepWithTransaction(dependencies: Dependencies, route: Route, index: number, names?: ParameterNames) {
  const step = transactionToStep(dependencies, route, route.transactions[index], index);
  const transaction = buildTransaction(dependencies, route, index, step.id, names);
  if (transaction) step.transactionRequest = transactionRequestToWire(transaction);
  return step;
}

function noRouteMessage(unavailable: { filteredOut: { reason: string }[]; failed: { subpaths: Record<string, { message: string }[]> }[] }): string {
  const first = unavailable.failed[0] ? Object.values(unavailable.failed[0].subpaths)[0]?.[0]?.message : unavailable.filteredOut[0]?.reason;
  const count = unavailable.failed.length + unavailable.filteredOut.length;
  return first ? `No available quotes for the requested transfer: ${first}${count > 1 ? ` (and ${count - 1} more reasons under errors)` : ''}` : 'No available quotes for the requested transfer';
}

export const getQuote = operation('getQuote', (request, dependencies) => {
  const parameters = quoteParameters(request.query, { value: request.query.fromAmount, mode: 'exactIn', name: 'fromAmount' });
  return { status: 200, body: bestStep(dependencies, parameters), uncacheable: isTimed(parameters) };
}, { cache: 'liquidity' });

/** A search bounded by timing strategies depends on how long it ran: its answer is not cached. */
export function isTimed(parameters: RouteParameters): boolean {
  return (parameters.timingStrategies?.length ?? 0) > 0;
}
