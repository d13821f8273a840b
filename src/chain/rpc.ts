/**
 * The JSON-RPC connections of chain mode: one provider per configured EVM chain, with the service's contract
 * addresses there. Providers batch the calls made in the same tick into JSON-RPC batches (up to 100 calls), never
 * cache, never re-detect the network, and give up after rpcTimeoutMs so that an unreachable chain is reported
 * as such instead of hanging a request.
 */
import { FetchRequest, JsonRpcProvider } from 'ethers';
import type { RouterDeployments } from '../core/catalog/routers';
import type { ChainsConfig } from '../chainsConfig';

export interface ChainConnection {
  readonly chainId: number;
  readonly rpcUrl: string;
  readonly provider: JsonRpcProvider;
  /** The service's router (diamond) on this chain. */
  readonly router: string;
  readonly feeCollector: string;
  /** The bridge escrow contract (Deposited / Released / Refunded events), when configured. */
  readonly bridgeEndpoint?: string;
  readonly confirmations: number;
}

export class ChainConnections {
  private readonly connections = new Map<number, ChainConnection>();

  constructor(readonly config: ChainsConfig, routers: RouterDeployments) {
    for (const c of config.chains) {
      const deployment = routers.on(c.chainId);
      const router = c.router ?? deployment?.router;
      const feeCollector = c.feeCollector ?? deployment?.feeCollector;
      if (!router || !feeCollector) throw new Error(`chain ${c.chainId}: no router/feeCollector address in CHAINS_FILE or routers.json`);
      this.connections.set(c.chainId, Object.freeze({
        chainId: c.chainId,
        rpcUrl: c.rpcUrl,
        provider: makeChainProvider(c.rpcUrl, c.chainId, config.rpcTimeoutMs),
        router, feeCollector, confirmations: c.confirmations,
        ...(c.bridgeEndpoint ? { bridgeEndpoint: c.bridgeEndpoint } : {}),
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
