/**
 * Quotes and route searches: what GET /v1/quote, GET /v1/quote/toAmount, POST /v1/advanced/routes and
 * POST /v1/advanced/stepTransaction ask of the routing core, and the rules around it (a quote is the best route
 * that needs a single transaction; a step comes with its transaction; a search bounded by timing strategies
 * depends on how long it ran).
 */
import { requireFeeOwner } from '../core/fees/booking';
import { buildRouteRequest, type RouteParameters } from '../core/routing/request';
import type { Route, UnavailableRoutes } from '../core/routing/route';
import type { ParameterNames } from '../core/transactions/requestAddresses';
import { buildStepTransaction, type StepTransactionRequest } from '../core/transactions/step';
import type { Ports } from './ports';
import { findRoutes, routeSearchObserver } from './routeSearchCache';
import { stepView, type StepView } from './stepViews';

/** No route: why, for every candidate left out. */
export interface NoRoute {
  readonly ok: false;
  readonly message: string;
  readonly unavailable: UnavailableRoutes;
  /** The search was bounded by timing strategies: another run may find a route. */
  readonly dependsOnTiming: boolean;
}

/** A route's transaction as a step, with the transaction to send. */
export interface QuotedStep {
  readonly ok: true;
  readonly view: StepView;
  readonly transaction: StepTransactionRequest;
  readonly dependsOnTiming: boolean;
  /**
   * The answer must not be served again from a cache: the search was bounded by timing strategies, or the
   * transaction holds a Solana cluster's recent blockhash, which expires within about a minute.
   */
  readonly uncacheable: boolean;
}

/** A route with each of its transactions as a step. */
export interface RouteView {
  readonly route: Route;
  readonly steps: readonly StepView[];
}

export interface FoundRoutes {
  readonly ok: true;
  readonly routes: readonly RouteView[];
  readonly unavailable: UnavailableRoutes;
  readonly dependsOnTiming: boolean;
}

/**
 * The best route that needs a single transaction, as a step with its transaction; `names` are the fields its
 * transaction's problems name (another operation's request, e.g. a contract-calls body, has other names).
 */
export async function quote(dependencies: Ports, parameters: RouteParameters, names?: ParameterNames): Promise<QuotedStep | NoRoute> {
  const request = buildRouteRequest(dependencies.catalog, { ...parameters, maxRoutes: 1 });
  requireFeeOwner(dependencies, request);
  const result = findRoutes(dependencies.finder, request, routeSearchObserver(dependencies));
  const dependsOnTiming = request.timing !== undefined;
  const route = result.routes.find((r) => !r.containsSwitchChain);
  if (!route) return { ok: false, message: noRouteMessage(result.unavailable), unavailable: result.unavailable, dependsOnTiming };
  const step = await quotedStep(dependencies, route, 0, names);
  return { ...step, dependsOnTiming, uncacheable: step.uncacheable || dependsOnTiming };
}

/** Routes a search returns at most (POST /v1/advanced/routes). */
export const MAX_ROUTES = 5;

/** Up to MAX_ROUTES routes ordered by `order`, each tagged, with the reasons for every candidate left out. */
export function searchRoutes(dependencies: Ports, parameters: RouteParameters): FoundRoutes | NoRoute {
  const request = buildRouteRequest(dependencies.catalog, { ...parameters, maxRoutes: MAX_ROUTES });
  requireFeeOwner(dependencies, request);
  const result = findRoutes(dependencies.finder, request, routeSearchObserver(dependencies));
  const dependsOnTiming = request.timing !== undefined;
  if (result.routes.length === 0) {
    return { ok: false, message: 'No routes found for the requested transfer; errors.filteredOut and errors.failed say why', unavailable: result.unavailable, dependsOnTiming };
  }
  const routes = result.routes.map((route) => ({ route, steps: route.transactions.map((_, k) => stepView(dependencies, route, k)) }));
  return { ok: true, routes, unavailable: result.unavailable, dependsOnTiming };
}

/** A route's transaction `index` as a step, with its transaction (build.ts on EVM chains, svmDeposit.ts on Solana). */
export async function quotedStep(dependencies: Ports, route: Route, index: number, names?: ParameterNames): Promise<QuotedStep> {
  const view = stepView(dependencies, route, index);
  const transaction = await buildStepTransaction(dependencies, route, index, view.id, names);
  return { ok: true, view, transaction, dependsOnTiming: false, uncacheable: transaction.kind === 'svm' && transaction.recentBlockhash };
}

/**
 * The message of a no-route answer: the first reason among the candidates left out, and how many more there are.
 * `transfer` says what had no route (the contract-calls quote: "the transfer before the contract calls").
 */
export function noRouteMessage(unavailable: UnavailableRoutes, transfer = 'the requested transfer'): string {
  const first = unavailable.failed[0] ? Object.values(unavailable.failed[0].subpaths)[0]?.[0]?.message : unavailable.filteredOut[0]?.reason;
  const count = unavailable.failed.length + unavailable.filteredOut.length;
  return first ? `No available quotes for ${transfer}: ${first}${count > 1 ? ` (and ${count - 1} more reasons under errors)` : ''}` : `No available quotes for ${transfer}`;
}
