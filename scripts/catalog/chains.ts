/** Builds the chain list of the catalog: the package's chain facts, our key overrides, and the native token
 *  taken from the already built token list (so that both files agree on it). */
import { CATALOG_CHAIN_IDS, CHAIN_KEY_OVERRIDES, EVM_NATIVE_ADDRESS } from './config';
import { compareNumbers, normaliseAddress } from './format';
import type { CatalogChain, CatalogToken, ChainType } from './types';
import type { UpstreamChain } from './upstream';

const CHAIN_TYPES: readonly string[] = ['EVM', 'SVM', 'UTXO', 'MVM', 'TVM'];

/** The package's facts for the catalog chains, sorted by id. Throws when a chain is missing. */
export function selectChains(all: UpstreamChain[]): UpstreamChain[] {
  return [...CATALOG_CHAIN_IDS].sort(compareNumbers).map((id) => {
    const chain = all.find((c) => c.id === id);
    if (!chain) throw new Error(`chain ${id} is not in @lifi/data-types`);
    if (!CHAIN_TYPES.includes(chain.chainType)) throw new Error(`chain ${id} has chain type ${chain.chainType}`);
    return chain;
  });
}

export function buildChain(chain: UpstreamChain, chainTokens: CatalogToken[]): CatalogChain {
  const isEvm = chain.chainType === 'EVM';
  const native = chainTokens.find((t) => t.coinKey === chain.coin);
  if (!native) throw new Error(`chain ${chain.id}: no priced token of its native coin ${chain.coin}`);
  if (isEvm && native.address !== EVM_NATIVE_ADDRESS) {
    throw new Error(`chain ${chain.id}: native ${chain.coin} is at ${native.address}, not ${EVM_NATIVE_ADDRESS}`);
  }
  const mm = chain.metamask;
  const result: CatalogChain = {
    id: chain.id,
    key: CHAIN_KEY_OVERRIDES[chain.id] ?? chain.key,
    name: chain.name,
    chainType: chain.chainType as ChainType,
    coin: chain.coin,
    mainnet: chain.mainnet,
    logoURI: chain.logoURI,
    multicallAddress: chain.multicallAddress ? normaliseAddress(chain.multicallAddress, isEvm) : undefined,
    nativeToken: native,
    metamask: {
      chainId: mm.chainId,
      chainName: mm.chainName,
      nativeCurrency: {
        name: mm.nativeCurrency.name,
        symbol: mm.nativeCurrency.symbol,
        decimals: mm.nativeCurrency.decimals,
      },
      rpcUrls: [...mm.rpcUrls],
      blockExplorerUrls: [...mm.blockExplorerUrls],
    },
  };
  if (result.multicallAddress === undefined) delete result.multicallAddress;
  return result;
}
