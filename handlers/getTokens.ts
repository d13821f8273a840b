import { requireChains } from '../src/core/catalog/resolve';
import { operation } from './typedOperation';
import { tokenToWire } from './wire/catalog';

export const getTokens = operation('getTokens', (request, { catalog }) => {
  const { chains, tags, chainTypes, minPriceUSD, search, orderBy, limit, extended } = request.query;
  const chainIds = chains ? requireChains(catalog, chains, 'chains').map((c) => c.id) : undefined;
  const grouped = catalog.listTokens({ chainIds, tags, chainTypes, minPriceUSD, search, orderBy, limit });
  const tokens: Record<string, ReturnType<typeof tokenToWire>[]> = {};
  for (const [chainId, list] of grouped) {
    tokens[String(chainId)] = list.map((token) => {
      if (!extended) return tokenToWire(token);
      const market = catalog.marketOf(token);
      return { ...tokenToWire(token), marketCapUSD: market?.marketCapUSD ?? null, volumeUSD24H: market?.volumeUSD24H ?? null, fdvUSD: market?.fdvUSD ?? null };
    });
  }
  return { status: 200, body: { tokens } };
}, { cache: 'catalog' });
