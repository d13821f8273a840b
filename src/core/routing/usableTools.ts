/**
 * The tools a route can use, as the liquidity graph has them: an exchange on the chains where it has pools, a bridge
 * between the chains its routes join, and only from chains whose family builds transactions (src/core/chains): a
 * pool or bridge route that starts on a chain the service cannot send from is in no route, so it is listed nowhere
 * (GET /v1/tools, POST /v1/advanced/possibilities, GET /v1/connections).
 */
import type { BridgeTool, Chain, ExchangeTool } from '../entities';
import { familyOf } from '../chains/families';
import { ObjectMemo } from '../memo';
import type { RoutingGraph } from './graph';

export interface UsableTools {
  /** Exchange key → the chains where a route can swap with it. */
  readonly exchangeChains: ReadonlyMap<string, ReadonlySet<number>>;
  /** Bridge key → `from:to` chain pairs a route can cross with it. */
  readonly bridgePairs: ReadonlyMap<string, ReadonlySet<string>>;
}

/** A route can start on the chain: its family builds the transaction. */
export function sendsFrom(chain: Pick<Chain, 'chainType'>): boolean {
  return familyOf(chain).sending.supported;
}

const usable = new ObjectMemo<RoutingGraph, UsableTools>();

export function usableTools(graph: RoutingGraph): UsableTools {
  return usable.get(graph, usableToolsOf);
}

function usableToolsOf(graph: RoutingGraph): UsableTools {
  const sends = (chainId: number) => {
    const chain = graph.catalog.getChain(chainId);
    return chain !== undefined && sendsFrom(chain);
  };
  const exchangeChains = new Map<string, Set<number>>();
  for (const pool of graph.pools) {
    if (!sends(pool.chainId)) continue;
    const chains = exchangeChains.get(pool.exchange) ?? new Set<number>();
    chains.add(pool.chainId);
    exchangeChains.set(pool.exchange, chains);
  }
  const bridgePairs = new Map<string, Set<string>>();
  for (const route of graph.bridgeRoutes) {
    if (!sends(route.fromChainId)) continue;
    const pairs = bridgePairs.get(route.bridge) ?? new Set<string>();
    pairs.add(`${route.fromChainId}:${route.toChainId}`);
    bridgePairs.set(route.bridge, pairs);
  }
  return { exchangeChains, bridgePairs };
}

/** The catalog's tools as routes can use them, restricted to `chainIds` when given (a bridge: either end). */
export function listUsableTools(graph: RoutingGraph, chainIds?: readonly number[]): { bridges: BridgeTool[]; exchanges: ExchangeTool[] } {
  const { exchangeChains, bridgePairs } = usableTools(graph);
  const wanted = chainIds && chainIds.length > 0 ? new Set(chainIds) : undefined;
  const bridges = graph.catalog.bridges
    .map((b) => ({
      ...b,
      supportedChains: b.supportedChains.filter((p) => bridgePairs.get(b.key)?.has(`${p.fromChainId}:${p.toChainId}`) && (!wanted || wanted.has(p.fromChainId) || wanted.has(p.toChainId))),
    }))
    .filter((b) => b.supportedChains.length > 0);
  const exchanges = graph.catalog.exchanges
    .map((e) => ({ ...e, supportedChains: e.supportedChains.filter((id) => exchangeChains.get(e.key)?.has(id) && (!wanted || wanted.has(id))) }))
    .filter((e) => e.supportedChains.length > 0);
  return { bridges, exchanges };
}
