import { findConnections } from '../src/core/routing/connections';
import { operation } from './typedOperation';
import { tokenToWire } from './wire/catalog';
import { toolSelection } from './wire/requests';

/** Per pair of chains, the tokens that can be sent and received through the liquidity graph (no amounts). */
export const getConnections = operation('getConnections', (request, { graph }) => {
  const q = request.query;
  const connections = findConnections(graph, {
    fromChain: q.fromChain,
    toChain: q.toChain,
    fromToken: q.fromToken,
    toToken: q.toToken,
    chainTypes: q.chainTypes,
    bridges: toolSelection(q.allowBridges, q.denyBridges, q.preferBridges),
    exchanges: toolSelection(q.allowExchanges, q.denyExchanges, q.preferExchanges),
    allowSwitchChain: q.allowSwitchChain,
    allowDestinationCall: q.allowDestinationCall,
  });
  return {
    status: 200,
    body: {
      connections: connections.map((c) => ({
        fromChainId: c.fromChainId,
        toChainId: c.toChainId,
        fromTokens: c.fromTokens.map(tokenToWire),
        toTokens: c.toTokens.map(tokenToWire),
      })),
    },
  };
}, { cache: 'liquidity' });
