/** The only module that touches @lifi/data-types (Apache-2.0): copies what the catalog needs into plain
 *  records, so that the builders never see the package's types. */
import { defaultCoins, supportedChains, wrappedTokens } from '@lifi/data-types';
import type { CatalogChain, CatalogToken } from './types';

/** A token as the package describes it: a catalog token before its price and tags. */
export type UpstreamToken = Omit<CatalogToken, 'priceUSD' | 'tags'>;

/** A chain as the package describes it: a catalog chain before its native token (chainType still unchecked). */
export type UpstreamChain = Omit<CatalogChain, 'chainType' | 'nativeToken'> & { chainType: string };

export interface Upstream {
  chains: UpstreamChain[];
  /** Tokens of the package's coin list, in the package's coin order, per chain id. */
  coinTokens: Map<number, UpstreamToken[]>;
  /** The wrapped native token per chain id. */
  wrappedNative: Map<number, UpstreamToken>;
}

function toToken(raw: {
  chainId: number; address: string; symbol?: string; decimals: number; name?: string; coinKey?: string;
  logoURI?: string;
}, fallback: { coinKey: string; name: string; logoURI: string }): UpstreamToken {
  return {
    chainId: Number(raw.chainId),
    address: raw.address,
    symbol: raw.symbol ?? fallback.coinKey,
    decimals: raw.decimals,
    name: raw.name ?? fallback.name,
    coinKey: raw.coinKey ?? fallback.coinKey,
    logoURI: raw.logoURI ?? fallback.logoURI,
  };
}

export function readUpstream(): Upstream {
  const chains: UpstreamChain[] = supportedChains.map((chain) => {
    const c = chain as typeof chain & { multicallAddress?: string };
    return {
      id: Number(c.id),
      key: String(c.key),
      name: c.name,
      chainType: String(c.chainType),
      coin: String(c.coin),
      mainnet: c.mainnet,
      logoURI: c.logoURI ?? '',
      multicallAddress: c.multicallAddress,
      metamask: {
        chainId: c.metamask.chainId,
        chainName: c.metamask.chainName,
        nativeCurrency: { ...c.metamask.nativeCurrency },
        rpcUrls: [...c.metamask.rpcUrls],
        blockExplorerUrls: [...c.metamask.blockExplorerUrls],
      },
    };
  });

  const coinTokens = new Map<number, UpstreamToken[]>();
  for (const coin of defaultCoins) {
    for (const raw of Object.values(coin.chains)) {
      const token = toToken(raw, { coinKey: String(coin.key), name: coin.name, logoURI: coin.logoURI });
      const list = coinTokens.get(token.chainId) ?? [];
      list.push(token);
      coinTokens.set(token.chainId, list);
    }
  }

  const wrappedNative = new Map<number, UpstreamToken>();
  for (const [chainId, raw] of Object.entries(wrappedTokens)) {
    const token = toToken(raw, { coinKey: raw.symbol, name: raw.name, logoURI: '' });
    wrappedNative.set(Number(chainId), token);
  }
  return { chains, coinTokens, wrappedNative };
}
