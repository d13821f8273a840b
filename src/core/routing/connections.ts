/**
 * What the liquidity graph can connect, without amounts: `GET /v1/connections` (per pair of chains, the tokens
 * from which and to which a transfer is possible within the route bounds); the deprecated
 * `POST /v1/advanced/possibilities` (possibilities.ts) reads the same reachability.
 *
 * Both read the same RoutingGraph with the same bounds as the route search: [source swap ≤ 3 pool hops, wraps free]
 * → [at most one allowed bridge] → [destination swap ≤ 3 pool hops]. Pools count only when their exchange is
 * allowed. With allowDestinationCall=false and allowSwitchChain=false a bridge delivers only its own token (no
 * destination swap), as in the route search.
 *
 * Per-chain reachability (for every token, the tokens within 3 pool hops) depends only on the graph and on the
 * set of allowed exchanges: it is computed once per chain and kept, with the graph, for the sets asked most recently.
 */
import type { Catalog } from '../catalog/catalog';
import { requireChain } from '../catalog/resolve';
import type { Chain, ChainTypeFilter, Token } from '../entities';
import { DomainError, InvalidRequestError } from '../errors';
import type { BridgeRoute } from '../liquidity/snapshot';
import { PPM } from '../math/rational';
import { BoundedMemo, ObjectMemo } from '../memo';
import type { RoutingGraph } from './graph';
import { toolPolicy, type ToolPolicy, type ToolSelection } from './tools';
import { sendsFrom } from './usableTools';

/** Pool hops allowed on each side of a bridge (the route search's bound). */
export const CONNECTION_MAX_HOPS = 3;
/** Reachability tables kept per graph (one per distinct set of allowed exchanges). */
const REACH_TABLES = 16;

export interface ConnectionsQuery {
  readonly fromChain?: string | number;
  readonly toChain?: string | number;
  /** Address or symbol, resolved on fromChain (which is then required). */
  readonly fromToken?: string;
  /** Address or symbol, resolved on toChain (which is then required). */
  readonly toToken?: string;
  readonly chainTypes?: ChainTypeFilter;
  readonly bridges?: ToolSelection;
  readonly exchanges?: ToolSelection;
  /** Default false. */
  readonly allowSwitchChain?: boolean;
  /** Default true. */
  readonly allowDestinationCall?: boolean;
}

export interface Connection {
  readonly fromChainId: number;
  readonly toChainId: number;
  /** Ordered by symbol (then address). */
  readonly fromTokens: readonly Token[];
  readonly toTokens: readonly Token[];
}

/** Per chain: for every token (lower-cased key), the tokens within CONNECTION_MAX_HOPS pool hops, itself included. */
type ChainReach = ReadonlyMap<string, ReadonlySet<string>>;

interface GraphCache {
  /** Exchange keys a policy is evaluated on: the catalog's and any found in pools. */
  readonly exchangeKeys: readonly string[];
  readonly bridgeKeys: readonly string[];
  /** Allowed-exchange set (sorted, comma-joined) → chain id → reachability (filled lazily, chain by chain). */
  readonly reach: BoundedMemo<string, Map<number, ChainReach>>;
  /** "from:to" → bridge routes between the two chains. */
  readonly routesBetween: ReadonlyMap<string, readonly BridgeRoute[]>;
}

/** What the connections read of a graph, derived once per graph (graphs are read-only). */
const caches = new ObjectMemo<RoutingGraph, GraphCache>();

export function graphCache(graph: RoutingGraph): GraphCache {
  return caches.get(graph, graphCacheOf);
}

function graphCacheOf(graph: RoutingGraph): GraphCache {
  const routesBetween = new Map<string, BridgeRoute[]>();
  for (const route of graph.bridgeRoutes) {
    const key = `${route.fromChainId}:${route.toChainId}`;
    const list = routesBetween.get(key) ?? [];
    list.push(route);
    routesBetween.set(key, list);
  }
  return {
    exchangeKeys: [...new Set([...graph.catalog.exchanges.map((e) => e.key), ...graph.pools.map((p) => p.exchange)])].sort(),
    bridgeKeys: graph.catalog.bridges.map((b) => b.key),
    reach: new BoundedMemo({ max: REACH_TABLES }),
    routesBetween,
  };
}

/**
 * Reachability under an exchange policy, computed lazily per chain. The returned function is cheap to call
 * repeatedly: every chain is computed at most once per distinct set of allowed exchanges.
 */
export function reachability(graph: RoutingGraph, exchanges: ToolPolicy): (chainId: number) => ChainReach {
  const cache = graphCache(graph);
  const allowed = cache.exchangeKeys.filter((k) => exchanges.allows(k));
  const table = cache.reach.get(allowed.join(','), () => new Map());
  const allowedSet = new Set(allowed);
  return (chainId) => {
    let chain = table.get(chainId);
    if (!chain) {
      chain = chainReach(graph, chainId, allowedSet);
      table.set(chainId, chain);
    }
    return chain;
  };
}

function chainReach(graph: RoutingGraph, chainId: number, allowedExchanges: ReadonlySet<string>): ChainReach {
  const result = new Map<string, ReadonlySet<string>>();
  for (const token of graph.catalog.tokensOf(chainId)) {
    const start = graph.catalog.addressKey(chainId, token.address);
    result.set(start, within(graph, chainId, start, allowedExchanges));
  }
  return result;
}

/** 0-1 breadth-first search: pool hops cost 1 (allowed exchanges only), wraps cost 0. Edges are symmetric. */
function within(graph: RoutingGraph, chainId: number, start: string, allowedExchanges: ReadonlySet<string>): ReadonlySet<string> {
  const distance = new Map<string, number>([[start, 0]]);
  const deque: string[] = [start];
  while (deque.length > 0) {
    const token = deque.shift()!;
    const d = distance.get(token)!;
    for (const edge of graph.edgesFrom(chainId, token)) {
      if (edge.kind === 'pool' && !allowedExchanges.has(edge.pool.exchange)) continue;
      const nd = d + (edge.kind === 'pool' ? 1 : 0);
      if (nd > CONNECTION_MAX_HOPS || nd >= (distance.get(edge.to) ?? Infinity)) continue;
      distance.set(edge.to, nd);
      if (nd === d) deque.unshift(edge.to);
      else deque.push(edge.to);
    }
  }
  return new Set(distance.keys());
}

const FILTERS = ['fromChain', 'toChain', 'fromToken', 'toToken'] as const;

/** The connections matching the filters, ordered by fromChainId then toChainId; pairs with nothing to offer are left out. */
export function findConnections(graph: RoutingGraph, query: ConnectionsQuery): Connection[] {
  const { catalog } = graph;
  if (FILTERS.every((name) => query[name] === undefined)) {
    const message = `at least one of ${FILTERS.join(', ')} is required: the connections of every chain and token are too many to list`;
    throw new InvalidRequestError(message, { issues: [{ name: FILTERS.join(','), rule: 'atLeastOneFilter', message }] });
  }
  const fromChain = query.fromChain !== undefined ? requireChain(catalog, query.fromChain, 'fromChain') : undefined;
  const toChain = query.toChain !== undefined ? requireChain(catalog, query.toChain, 'toChain') : undefined;
  const fromToken = query.fromToken !== undefined ? tokenFilter(catalog, fromChain, query.fromToken, 'fromToken', 'fromChain') : undefined;
  const toToken = query.toToken !== undefined ? tokenFilter(catalog, toChain, query.toToken, 'toToken', 'toChain') : undefined;
  const cache = graphCache(graph);
  const bridges = toolPolicy('bridge', query.bridges ?? {}, cache.bridgeKeys, graph.catalog.retired);
  const exchanges = toolPolicy('exchange', query.exchanges ?? {}, cache.exchangeKeys, graph.catalog.retired);
  const reach = reachability(graph, exchanges);
  const destinationSwaps = (query.allowDestinationCall ?? true) || (query.allowSwitchChain ?? false);

  const types = query.chainTypes && query.chainTypes.length > 0 ? new Set(query.chainTypes) : undefined;
  const chainsOf = (given: Chain | undefined) => (given ? [given] : catalog.chains).filter((c) => !types || types.has(c.chainType));
  const fromKey = fromToken && catalog.addressKey(fromToken.chainId, fromToken.address);
  const toKey = toToken && catalog.addressKey(toToken.chainId, toToken.address);

  const connections: Connection[] = [];
  // a connection starts where a route can: on a chain whose family builds transactions
  for (const source of chainsOf(fromChain).filter(sendsFrom)) {
    for (const target of chainsOf(toChain)) {
      const found = source.id === target.id
        ? sameChain(reach(source.id), fromKey, toKey)
        : crossChain(cache, bridges, reach, source.id, target.id, fromKey, toKey, destinationSwaps);
      if (found.from.size === 0 || found.to.size === 0) continue;
      connections.push({
        fromChainId: source.id,
        toChainId: target.id,
        fromTokens: tokensIn(catalog, source.id, found.from),
        toTokens: tokensIn(catalog, target.id, found.to),
      });
    }
  }
  return connections;
}

interface Sides {
  readonly from: ReadonlySet<string>;
  readonly to: ReadonlySet<string>;
}

/** Same chain: a token connects to every other token within the hop bound (a swap, or a wrap). */
function sameChain(reach: ChainReach, fromKey: string | undefined, toKey: string | undefined): Sides {
  const from = new Set<string>();
  const to = new Set<string>();
  const starts = fromKey !== undefined ? [fromKey] : [...reach.keys()];
  for (const start of starts) {
    for (const end of reach.get(start) ?? []) {
      if (end === start || (toKey !== undefined && end !== toKey)) continue;
      from.add(start);
      to.add(end);
    }
  }
  return { from, to };
}

function crossChain(
  cache: GraphCache,
  bridges: ToolPolicy,
  reach: (chainId: number) => ChainReach,
  fromChainId: number,
  toChainId: number,
  fromKey: string | undefined,
  toKey: string | undefined,
  destinationSwaps: boolean,
): Sides {
  const from = new Set<string>();
  const to = new Set<string>();
  const routes = cache.routesBetween.get(`${fromChainId}:${toChainId}`) ?? [];
  if (routes.length === 0) return { from, to };
  const sourceReach = reach(fromChainId);
  const targetReach = destinationSwaps ? reach(toChainId) : undefined;
  for (const route of routes) {
    if (!bridges.allows(route.bridge)) continue;
    // tokens that reach the bridge's token within the bound (the relation is symmetric)
    const sources = sourceReach.get(route.fromToken) ?? new Set([route.fromToken]);
    const targets = targetReach ? (targetReach.get(route.toToken) ?? new Set([route.toToken])) : new Set([route.toToken]);
    if (fromKey !== undefined && !sources.has(fromKey)) continue;
    if (toKey !== undefined && !targets.has(toKey)) continue;
    if (fromKey !== undefined) from.add(fromKey);
    else for (const t of sources) from.add(t);
    if (toKey !== undefined) to.add(toKey);
    else for (const t of targets) to.add(t);
  }
  return { from, to };
}

/** The catalog's tokens of a chain whose keys are in `keys`, in the catalog's order (symbol, then address). */
export function tokensIn(catalog: Catalog, chainId: number, keys: ReadonlySet<string>): Token[] {
  return catalog.tokensOf(chainId).filter((t) => keys.has(catalog.addressKey(chainId, t.address)));
}

function tokenFilter(catalog: Catalog, chain: Chain | undefined, ref: string, parameter: string, chainParameter: string): Token {
  if (!chain) {
    const message = `${parameter} needs ${chainParameter}: a token is resolved by address or symbol on its chain`;
    throw new InvalidRequestError(message, { issues: [{ name: parameter, rule: `requires ${chainParameter}`, message }] });
  }
  const token = catalog.findToken(chain.id, ref);
  if (!token) {
    const message = `${parameter} "${ref}" is not a known token on ${chain.name} (${chain.id}); GET /v1/tokens?chains=${chain.key} lists them`;
    throw new InvalidRequestError(message, { issues: [{ name: parameter, rule: 'knownToken', message }] });
  }
  return token;
}
