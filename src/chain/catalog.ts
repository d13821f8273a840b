/**
 * The catalog as chain mode serves it. A connected chain's EIP-3085 parameters (`metamask.rpcUrls`, what wallets add
 * and what the LI.FI SDK builds its chain clients from) name the chain's advertised RPC URL first: rpcUrl of
 * CHAINS_FILE, or its publicRpcUrl (src/chainsConfig.ts). A client that follows /v1/chains then reads balances,
 * allowances and receipts from the chain the service reads (the devnet, in the sandbox), not from a public RPC of
 * the chain of the same id. The catalog's own URLs follow it; chains not connected are served as they are. Every
 * family alike: a Solana entry's URL is what a @solana/kit client (or the SDK's Solana provider) is built from.
 */
import type { Catalog } from '../core/catalog/catalog';
import type { Chain } from '../core/entities';
import type { ChainsConfig } from '../chainsConfig';

/** The URL /v1/chains advertises first for a connected chain, or undefined when it advertises none. */
function advertisedRpcUrl(chain: ChainsConfig['chains'][number]): string | undefined {
  const url = chain.publicRpcUrl ?? chain.rpcUrl;
  return url === false || url === '' ? undefined : url;
}

/**
 * `catalog` with each connected chain's advertised RPC URL first in its metamask.rpcUrls: a new catalog (the given one
 * is left as it is), or the given one itself without chain mode (`config` undefined) or when no URL is advertised.
 */
export function chainModeCatalog(catalog: Catalog, config: ChainsConfig | undefined): Catalog {
  const advertised = new Map<number, string>();
  for (const c of config?.chains ?? []) {
    const url = advertisedRpcUrl(c);
    if (url) advertised.set(c.chainId, url);
  }
  if (advertised.size === 0) return catalog;
  return catalog.withChains((chain): Chain => {
    const url = advertised.get(chain.id);
    if (!url) return chain;
    return { ...chain, metamask: { ...chain.metamask, rpcUrls: [url, ...chain.metamask.rpcUrls.filter((u) => u !== url)] } };
  });
}
