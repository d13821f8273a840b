import { findPossibilities } from '../src/core/routing/possibilities';
import { ppmToFraction } from '../src/core/routing/pricing';
import { operation } from './typedOperation';
import { chainToWire, tokenToWire } from './wire/catalog';

/** Deprecated: the chains, tokens, bridge routes and exchanges usable under the body's chain and tool filters. */
export const postPossibilities = operation('postPossibilities', (request, { graph }) => {
  const body = request.body ?? {};
  const found = findPossibilities(graph, { chains: body.chains, bridges: body.bridges, exchanges: body.exchanges });
  return {
    status: 200,
    body: {
      chains: found.chains.map(chainToWire),
      tokens: found.tokens.map(tokenToWire),
      bridges: found.bridges.map((b) => ({
        tool: b.tool,
        fromChainId: b.fromChainId,
        fromToken: tokenToWire(b.fromToken),
        toChainId: b.toChainId,
        toToken: tokenToWire(b.toToken),
        maximumTransfer: b.maximumTransfer.toString(),
        minimumTransfer: b.minimumTransfer.toString(),
        swapFeeRate: ppmToFraction(b.swapFeePpm),
        swapFeeMinimum: b.swapFeeMinimum.toString(),
        swapFeeMaximum: b.swapFeeMaximum.toString(),
      })),
      exchanges: found.exchanges.map((e) => ({ tool: e.tool, chains: [...e.chains] })),
    },
  };
}, { cache: 'liquidity' });
