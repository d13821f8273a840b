/** Builds the token list of the catalog from the package's coin list, the wrapped native tokens and the
 *  price table. A token is included when its coinKey has a reference price. */
import {
  COLLISION_PREFERENCE, EXCLUDED_TOKENS, STABLECOIN_COIN_KEYS, SYMBOL_OVERRIDES,
} from './config';
import { compareNumbers, compareStrings, normaliseAddress } from './format';
import type { CatalogToken, PriceTable } from './types';
import type { Upstream, UpstreamToken } from './upstream';

export function compareTokens(a: CatalogToken, b: CatalogToken): number {
  return compareNumbers(a.chainId, b.chainId) || compareStrings(a.symbol, b.symbol)
    || compareStrings(a.address, b.address);
}

/** Picks one token among candidates that share (chainId, address). */
function resolveCollision(chainId: number, address: string, candidates: UpstreamToken[]): UpstreamToken {
  const keys = [...new Set(candidates.map((t) => t.coinKey))];
  if (keys.length === 1) return candidates[0]; // the coin list and the wrapped-native list agree
  const preferred = COLLISION_PREFERENCE.find((key) => keys.includes(key));
  if (!preferred) {
    throw new Error(`chain ${chainId}: coinKeys ${keys.join(', ')} share address ${address}; `
      + 'add a preference to COLLISION_PREFERENCE in scripts/catalog/config.ts');
  }
  return candidates.find((t) => t.coinKey === preferred)!;
}

function toCatalogToken(token: UpstreamToken, isEvm: boolean, prices: PriceTable): CatalogToken {
  const override = SYMBOL_OVERRIDES.find((o) => o.chainId === token.chainId && o.coinKey === token.coinKey);
  return {
    chainId: token.chainId,
    address: normaliseAddress(token.address, isEvm),
    symbol: override ? override.symbol : token.symbol,
    decimals: token.decimals,
    name: token.name,
    coinKey: token.coinKey,
    logoURI: token.logoURI,
    priceUSD: prices.prices[token.coinKey],
    tags: STABLECOIN_COIN_KEYS.includes(token.coinKey) ? ['stablecoin'] : [],
  };
}

/** Tokens of one chain, sorted by symbol then address. */
export function buildChainTokens(
  chainId: number, isEvm: boolean, upstream: Upstream, prices: PriceTable,
): CatalogToken[] {
  const priced = (t: UpstreamToken) => Object.prototype.hasOwnProperty.call(prices.prices, t.coinKey);
  const excluded = (t: UpstreamToken) => EXCLUDED_TOKENS.some((e) => e.chainId === chainId && e.coinKey === t.coinKey);
  const candidates = [...(upstream.coinTokens.get(chainId) ?? [])];
  const wrapped = upstream.wrappedNative.get(chainId);
  if (wrapped) candidates.push(wrapped);

  const byAddress = new Map<string, UpstreamToken[]>();
  for (const token of candidates.filter((t) => priced(t) && !excluded(t))) {
    const address = normaliseAddress(token.address, isEvm);
    byAddress.set(address, [...(byAddress.get(address) ?? []), token]);
  }

  const tokens: CatalogToken[] = [];
  for (const [address, group] of byAddress) {
    tokens.push(toCatalogToken(resolveCollision(chainId, address, group), isEvm, prices));
  }
  const symbols = new Map<string, CatalogToken>();
  for (const token of tokens) {
    const other = symbols.get(token.symbol);
    if (other) {
      throw new Error(`chain ${chainId}: symbol ${token.symbol} used by ${other.address} (${other.coinKey}) and `
        + `${token.address} (${token.coinKey}); add a SYMBOL_OVERRIDES or EXCLUDED_TOKENS entry`);
    }
    symbols.set(token.symbol, token);
    if (!Number.isInteger(token.decimals) || token.decimals < 0 || token.decimals > 36) {
      throw new Error(`chain ${chainId}: ${token.symbol} has invalid decimals ${token.decimals}`);
    }
  }
  return tokens.sort(compareTokens);
}
