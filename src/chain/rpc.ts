/**
 * The JSON-RPC connections of chain mode: one provider per configured EVM chain, with the service's contract
 * addresses there (CHAINS_FILE's entries for other chains open none here: see checkChainEntries and solanaNode.ts). Providers batch the calls made in the same tick into JSON-RPC batches (up to 100 calls), never
 * cache, never re-detect the network, and give up after rpcTimeoutMs so that an unreachable chain is reported
 * as such instead of hanging a request.
 */
import { FetchRequest, JsonRpcProvider } from 'ethers';
import type { Catalog } from '../core/catalog/catalog';
import type { RouterDeployments } from '../core/catalog/routers';
import { familyOf } from '../core/chains/families';
import type { ChainEndpointConfig, ChainsConfig } from '../chainsConfig';

/** CHAINS_FILE fields that apply to EVM chains only (the service's contracts, eth_gasPrice, block confirmations, pool discovery). */
const EVM_ONLY_FIELDS = ['router', 'feeCollector', 'bridgeEndpoint', 'permit2Proxy', 'permit2', 'gasPrice', 'confirmations', 'discoverFromBlock', 'exchangeRouters'] as const satisfies readonly (keyof ChainEndpointConfig)[];

/**
 * The checks of CHAINS_FILE that need the catalog (parseChainsConfig has none): every chain id is a chain of the
 * catalog, and an entry for a chain outside the EVM family (Solana...) gives none of the EVM-only fields. Throws one
 * error naming every offending entry and field.
 */
export function checkChainEntries(config: ChainsConfig, catalog: Catalog): void {
  const problems: string[] = [];
  config.chains.forEach((c, k) => {
    const chain = catalog.getChain(c.chainId);
    if (!chain) {
      problems.push(`chains[${k}].chainId ${c.chainId} is not a chain of the catalog (GET /v1/chains lists them)`);
      return;
    }
    const family = familyOf(chain);
    if (family.evmContracts) return;
    const given = EVM_ONLY_FIELDS.filter((field) => c[field] !== undefined);
    if (given.length > 0) {
      problems.push(`chains[${k}] (${chain.name}, ${c.chainId}): ${given.join(', ')} ${given.length === 1 ? 'applies' : 'apply'} to EVM chains only; an entry for a ${family.label} chain takes rpcUrl, publicRpcUrl and indexFromBlock only`);
    }
  });
  if (problems.length > 0) throw new Error(`CHAINS_FILE: ${problems.join('; ')}`);
}

/** The entries of CHAINS_FILE the service opens an EVM JSON-RPC connection for (its chains of the EVM family). */
export function evmEntries(config: ChainsConfig, catalog: Catalog): ChainEndpointConfig[] {
  return config.chains.filter((c) => {
    const chain = catalog.getChain(c.chainId);
    return chain !== undefined && familyOf(chain).evmContracts;
  });
}

export interface ChainConnection {
  readonly chainId: number;
  readonly rpcUrl: string;
  readonly provider: JsonRpcProvider;
  /** The service's router (diamond) on this chain. */
  readonly router: string;
  readonly feeCollector: string;
  /** The bridge escrow contract (Deposited / Released / Refunded events), when configured. */
  readonly bridgeEndpoint?: string;
  /** The router's Permit2 proxy, when the chain has one: a transaction to it is a router call made with a permit. */
  readonly permit2Proxy?: string;
  readonly confirmations: number;
}

export class ChainConnections {
  private readonly connections = new Map<number, ChainConnection>();

  /** Connections for the EVM entries of `config` (checkChainEntries first: entries outside the catalog are left out here). */
  constructor(readonly config: ChainsConfig, routers: RouterDeployments, catalog: Catalog) {
    for (const c of evmEntries(config, catalog)) {
      const deployment = routers.on(c.chainId);
      const router = c.router ?? deployment?.router;
      const feeCollector = c.feeCollector ?? deployment?.feeCollector;
      if (!router || !feeCollector) throw new Error(`chain ${c.chainId}: no router/feeCollector address in CHAINS_FILE or routers.json`);
      const permit2Proxy = routers.permit2ProxyOf(c.chainId);
      this.connections.set(c.chainId, Object.freeze({
        chainId: c.chainId,
        rpcUrl: c.rpcUrl,
        provider: makeChainProvider(c.rpcUrl, c.chainId, config.rpcTimeoutMs),
        router, feeCollector, confirmations: c.confirmations ?? 1,
        ...(c.bridgeEndpoint ? { bridgeEndpoint: c.bridgeEndpoint } : {}),
        ...(permit2Proxy ? { permit2Proxy } : {}),
      }));
    }
  }

  /** The connection of a chain, or undefined when the chain is not connected. */
  chain(chainId: number): ChainConnection | undefined {
    return this.connections.get(chainId);
  }

  get chains(): readonly ChainConnection[] {
    return [...this.connections.values()];
  }

  /** Destroys every provider (no timer or socket left behind). */
  close(): void {
    for (const c of this.connections.values()) c.provider.destroy();
  }
}

/** A provider for chain mode (see the module comment); `timeoutMs` bounds every request. */
export function makeChainProvider(url: string, chainId: number, timeoutMs = 3000): JsonRpcProvider {
  const request = new FetchRequest(url);
  request.timeout = timeoutMs;
  return new JsonRpcProvider(request, chainId, { staticNetwork: true, cacheTimeout: -1, batchMaxCount: 100, batchStallTime: 0 });
}
