import { requireChains } from '../src/core/catalog/resolve';
import { operation } from './typedOperation';
import { bridgeToWire, exchangeToWire } from './wire/catalog';

export const getTools = operation('getTools', (request, { catalog }) => {
  const chainIds = request.query.chains ? requireChains(catalog, request.query.chains, 'chains').map((c) => c.id) : undefined;
  const { bridges, exchanges } = catalog.listTools(chainIds);
  return { status: 200, body: { bridges: bridges.map(bridgeToWire), exchanges: exchanges.map(exchangeToWire) } };
}, { cache: 'catalog' });
