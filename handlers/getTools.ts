import { requireChains } from '../src/core/catalog/resolve';
import { listUsableTools } from '../src/core/routing/usableTools';
import { operation } from './typedOperation';
import { bridgeToWire, exchangeToWire } from './wire/catalog';

/** The bridges and exchanges that routes can use (the liquidity graph in use), on the chains asked for. */
export const getTools = operation('getTools', (request, { catalog, graph }) => {
  const chainIds = request.query.chains ? requireChains(catalog, request.query.chains, 'chains').map((c) => c.id) : undefined;
  const { bridges, exchanges } = listUsableTools(graph, chainIds);
  return { status: 200, body: { bridges: bridges.map(bridgeToWire), exchanges: exchanges.map(exchangeToWire) } };
}, { cache: 'liquidity' });
