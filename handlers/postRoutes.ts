import { searchRoutes } from '../src/usecases/quote';
import { relayerQuote } from '../src/usecases/relayQuote';
import { operation } from './typedOperation';
import { routesParameters } from './wire/requests';
import { gaslessStepToWire, noRouteError, routeToWire, unavailableToWire } from './wire/routes';

/**
 * Several routes ordered by `order`, each tagged, with the reasons for every candidate left out; with options.gasless
 * (or executionType `message`) where the service runs a relayer, the one gasless route, its step to be signed.
 */
export const postRoutes = operation('postRoutes', async (request, dependencies) => {
  const parameters = routesParameters(request.body);
  const { catalog } = dependencies;
  if (dependencies.relaying && (parameters.gasless === true || parameters.executionType === 'message')) {
    const result = await relayerQuote(dependencies, parameters);
    if (!result.ok) throw noRouteError(result);
    const { view } = result.quoted;
    const route = { ...routeToWire(catalog, { route: view.route, steps: [view] }), steps: [gaslessStepToWire(catalog, result)] };
    return { status: 200, body: { routes: [route], unavailableRoutes: unavailableToWire({ filteredOut: [], failed: [] }) }, uncacheable: true };
  }
  const result = searchRoutes(dependencies, parameters);
  if (!result.ok) throw noRouteError(result);
  return {
    status: 200,
    body: { routes: result.routes.map((route) => routeToWire(catalog, route)), unavailableRoutes: unavailableToWire(result.unavailable) },
    uncacheable: result.dependsOnTiming,
  };
}, { cache: 'liquidity', limit: 'routes' });
