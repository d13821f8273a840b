import { requireChains } from '../src/core/catalog/resolve';
import { operation } from './types';
import { tokenToWire } from './wire';

export const getTokens = operation('getTokens', (request, { catalog }) => {
  const { chains, tags, chainTypes, minPriceUSD } = request.query;
  const chainIds = chains ? requireChains(catalog, chains, 'chains').map((c) => c.id) : undefined;
  const grouped = catalog.listTokens({ chainIds, tags, chainTypes, minPriceUSD });
  const tokens: Record<string, ReturnType<typeof tokenToWire>[]> = {};
  for (const [chainId, list] of grouped) tokens[String(chainId)] = list.map(tokenToWire);
  return { status: 200, body: { tokens } };
});
