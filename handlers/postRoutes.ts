import { searchRoutes } from '../src/usecases/quote';
import { operation } from './typedOperation';
import { routesParameters } from './wire/requests';
import { noRouteError, routeToWire, unavailableToWire } from './wire/routes';

/** Several routes ordered by `order`, each tagged, with the reasons for every candidate left out. */
export const postRoutes = operation('postRoutes', (request, dependencies) => {
  const result = searchRoutes(dependencies, routesParameters(request.body));
  if (!result.ok) throw noRouteError(result);
  const { catalog } = dependencies;
  return {
    status: 200,
    body: { routes: result.routes.map((route) => routeToWire(catalog, route)), unavailableRoutes: unavailableToWire(result.unavailable) },
    uncacheable: result.dependsOnTiming,
  };
}, { cache: 'liquidity', limit: 'routes' });
