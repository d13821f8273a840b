import { operation } from './typedOperation';
import { chainWithRouterToWire } from './wire/catalog';

export const getChains = operation('getChains', (request, { catalog, routers }) => ({
  status: 200,
  body: { chains: catalog.listChains(request.query.chainTypes).map(chainWithRouterToWire(routers)) },
}), { cache: 'catalog' });
