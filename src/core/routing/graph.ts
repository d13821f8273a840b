/**
 * The liquidity graph: built from the catalog and a snapshot, read-only afterwards.
 * Nodes are (chainId, lower-cased token address); edges are pool hops, wrap/unwrap of the native coin,
 * and bridge routes between chains.
 *
 * A graph can be derived from the previous one when pool states (or gas prices) change (chain mode, each block):
 * `RoutingGraph.derive(previous, snapshot, touched)`. Only the chains named in `touched` are indexed again; the
 * others keep their edges, and every memo is carried over: a pool's float model is keyed by the pool's state object
 * (an untouched pool is the same object), reaches and gas costs by the chain's generation, which grows only when the
 * chain is touched. A block that changes k pools costs the edges of their chains, not the whole graph.
 */
import type { Catalog } from '../catalog/catalog';
import type { Token } from '../entities';
import { familyOf } from '../chains/families';
import { poolEstimateOf, type PoolEstimate } from '../liquidity/estimate';
import { HOP_GAS, SWAP_CALL_GAS } from '../liquidity/poolQuote';
import type { BridgeRoute, ChainGas, LiquiditySnapshot, PoolState } from '../liquidity/snapshot';
import { BoundedMemo, ObjectMemo } from '../memo';

export interface PoolEdge {
  readonly kind: 'pool';
  readonly pool: PoolState;
  /** Index of the input and output token in the pool. */
  readonly i: number;
  readonly j: number;
  readonly from: string;
  readonly to: string;
}

/** Native coin ↔ wrapped native, 1:1 (done by the router with the wrapped contract's deposit/withdraw). */
export interface WrapEdge {
  readonly kind: 'wrap' | 'unwrap';
  readonly from: string;
  readonly to: string;
}

export type SwapEdge = PoolEdge | WrapEdge;

/** A wrap or unwrap of the native coin through the router (the wrapped token's own cost plus SWAP_CALL_GAS). */
export const WRAP_GAS = 30_000n + SWAP_CALL_GAS;

const nodeKey = (chainId: number, token: string) => `${chainId}:${token}`;

/** A per-chain table: lookups by (chainId, token) without building a `chainId:token` string on every call. */
function tableOf<V>(tables: Map<number, Map<string, V>>, chainId: number): Map<string, V> {
  let table = tables.get(chainId);
  if (!table) tables.set(chainId, (table = new Map<string, V>()));
  return table;
}

const NO_EDGES: readonly SwapEdge[] = Object.freeze([]);

/** Bounds of the memo of reaches (RoutingGraph.reachOf): entries, and steps in all their lists (~100 bytes each, so ~20 MB at most). */
export const MAX_REACHES = 50_000;
export const MAX_REACH_STEPS = 200_000;

/** What a derived graph carries over from its predecessor (RoutingGraph.derive). */
interface Lineage {
  readonly previous: RoutingGraph;
  /** Chains whose pools or gas changed: indexed again, their memos left behind. */
  readonly touched: ReadonlySet<number>;
}

export class RoutingGraph {
  /** Swap edges by chain, then by token (the search reads these on every label it extends). */
  private readonly edges: Map<number, Map<string, SwapEdge[]>>;
  /** Per chain, a generation: grows when a derived graph touches the chain; keys of the per-chain memos. */
  private readonly generations: Map<number, number>;
  private readonly bridgeRoutesFrom = new Map<string, BridgeRoute[]>();
  private readonly bridgeRoutesBetween = new Map<string, BridgeRoute[]>();
  private readonly wrappedNative = new Map<number, string>();
  /** Memo of token lookups, gas costs, pools' float models and reachability (pure functions of the read-only graph). */
  private readonly tokens: Map<number, Map<string, Token>>;
  private readonly gasCosts: Map<number, Map<string, number>>;
  private readonly gasCostTables: Map<number, (address: string) => number>;
  private readonly estimates: ObjectMemo<PoolState, PoolEstimate>;
  private readonly reaches: BoundedMemo<string, Reach>;
  private readonly poolsById: ReadonlyMap<string, PoolState>;
  readonly pools: readonly PoolState[];
  readonly bridgeRoutes: readonly BridgeRoute[];
  /** No two pools share an id: a pool id then names one pool object (the search compares pools by identity). */
  readonly poolIdsUnique: boolean;

  constructor(
    readonly catalog: Catalog,
    readonly snapshot: LiquiditySnapshot,
    lineage?: Lineage,
  ) {
    this.pools = snapshot.pools;
    this.bridgeRoutes = snapshot.bridges;
    this.poolsById = new Map(snapshot.pools.map((p) => [p.id, p]));
    this.poolIdsUnique = this.poolsById.size === snapshot.pools.length;
    const previous = lineage?.previous;
    const kept = (chainId: number) => previous !== undefined && !lineage!.touched.has(chainId);
    // memos whose keys say what they depend on (pool objects, chain generations, catalog tokens) are shared
    this.tokens = previous?.catalog === catalog ? previous.tokens : new Map();
    this.estimates = previous?.estimates ?? new ObjectMemo();
    this.reaches = previous?.reaches ?? new BoundedMemo({ max: MAX_REACHES, maxSize: MAX_REACH_STEPS, sizeOf: (reach) => reach.size });
    this.generations = new Map(previous?.generations ?? []);
    for (const chainId of lineage?.touched ?? []) this.generations.set(chainId, (this.generations.get(chainId) ?? 0) + 1);
    this.gasCosts = new Map([...(previous?.gasCosts ?? [])].filter(([chainId]) => kept(chainId)));
    this.gasCostTables = new Map([...(previous?.gasCostTables ?? [])].filter(([chainId]) => kept(chainId)));
    this.edges = new Map([...(previous?.edges ?? [])].filter(([chainId]) => kept(chainId)));
    // Edges name a token by one string object per address (pools read from a file or a chain each hold their own
    // copy): the search's map lookups by token then match on identity instead of comparing 42 characters.
    const canonical = new Map<string, string>();
    const intern = (address: string): string => {
      const known = canonical.get(address);
      if (known !== undefined) return known;
      canonical.set(address, address);
      return address;
    };
    for (const pool of snapshot.pools) {
      if (kept(pool.chainId)) continue;
      for (let i = 0; i < pool.tokens.length; i++) {
        for (let j = 0; j < pool.tokens.length; j++) {
          if (i !== j) this.addEdge(pool.chainId, { kind: 'pool', pool, i, j, from: intern(pool.tokens[i]), to: intern(pool.tokens[j]) });
        }
      }
    }
    for (const chain of catalog.chains) {
      if (!familyOf(chain).evmContracts || kept(chain.id)) continue; // wrapping through the router's WETH calls
      const wrapped = catalog.wrappedNativeOf(chain.id);
      if (!wrapped) continue;
      const native = intern(catalog.addressKey(chain.id, chain.nativeToken.address));
      const w = intern(catalog.addressKey(chain.id, wrapped.address));
      this.wrappedNative.set(chain.id, w);
      this.addEdge(chain.id, { kind: 'wrap', from: native, to: w });
      this.addEdge(chain.id, { kind: 'unwrap', from: w, to: native });
    }
    for (const route of snapshot.bridges) {
      const key = nodeKey(route.fromChainId, route.fromToken);
      const list = this.bridgeRoutesFrom.get(key) ?? [];
      list.push(route);
      this.bridgeRoutesFrom.set(key, list);
      const pair = `${route.fromChainId}>${route.toChainId}`;
      const between = this.bridgeRoutesBetween.get(pair) ?? [];
      between.push(route);
      this.bridgeRoutesBetween.set(pair, between);
    }
    for (const [chainId, wrapped] of previous?.wrappedNative ?? []) if (kept(chainId)) this.wrappedNative.set(chainId, wrapped);
    for (const table of this.edges.values()) for (const list of table.values()) Object.freeze(list);
  }

  /**
   * The graph of `snapshot`, which differs from `previous`'s only on the `touched` chains (their pools' states or
   * gas): those are indexed again, the others kept with their memos. `snapshot` must hold the same pools as
   * `previous.snapshot` on every chain not touched (the same objects). With another `catalog` (the same tokens at
   * other prices: chain mode's market prices), every chain counts as touched, since gas costs in tokens follow the
   * prices; the pools' float models are still kept.
   */
  static derive(previous: RoutingGraph, snapshot: LiquiditySnapshot, touched: ReadonlySet<number>, catalog: Catalog = previous.catalog): RoutingGraph {
    const all = catalog === previous.catalog ? touched : new Set([...catalog.chains.map((c) => c.id), ...snapshot.pools.map((p) => p.chainId)]);
    return new RoutingGraph(catalog, snapshot, { previous, touched: all });
  }

  private addEdge(chainId: number, edge: SwapEdge): void {
    const table = tableOf(this.edges, chainId);
    const list = table.get(edge.from) ?? [];
    list.push(edge);
    table.set(edge.from, list);
  }

  edgesFrom(chainId: number, token: string): readonly SwapEdge[] {
    return this.edges.get(chainId)?.get(token) ?? NO_EDGES;
  }

  bridgesFrom(chainId: number, token: string): readonly BridgeRoute[] {
    return this.bridgeRoutesFrom.get(nodeKey(chainId, token)) ?? [];
  }

  bridgesBetween(fromChainId: number, toChainId: number): readonly BridgeRoute[] {
    return this.bridgeRoutesBetween.get(`${fromChainId}>${toChainId}`) ?? [];
  }

  wrappedNativeOf(chainId: number): string | undefined {
    return this.wrappedNative.get(chainId);
  }

  gas(chainId: number): ChainGas | undefined {
    return this.snapshot.gas.get(chainId);
  }

  /** The pool with this id (the last of the snapshot's pools that share it). */
  poolById(id: string): PoolState | undefined {
    return this.poolsById.get(id);
  }

  /** The float model of a pool, for the search's estimates (liquidity/estimate.ts). */
  poolEstimate(pool: PoolState): PoolEstimate {
    return this.estimates.get(pool, poolEstimateOf);
  }

  /**
   * What one unit of gas on a chain costs in raw units of a token there, at the reference prices (a float,
   * to rank paths by output net of gas; never used in returned amounts).
   */
  gasCostInToken(chainId: number, address: string): number {
    return this.gasCostTable(chainId)(address);
  }

  /**
   * gasCostInToken of one chain as a function of the token (memoised per graph, chain and token): the path
   * search asks for it on every label, so it takes the chain's table once.
   */
  gasCostTable(chainId: number): (address: string) => number {
    let table = this.gasCostTables.get(chainId);
    if (!table) {
      const costs = tableOf(this.gasCosts, chainId);
      table = (address: string) => {
        let cost = costs.get(address);
        if (cost === undefined) {
          cost = this.computeGasCostInToken(chainId, address);
          costs.set(address, cost);
        }
        return cost;
      };
      this.gasCostTables.set(chainId, table);
    }
    return table;
  }

  private computeGasCostInToken(chainId: number, address: string): number {
    const gas = this.gas(chainId);
    const chain = this.catalog.getChain(chainId);
    const token = this.token(chainId, address);
    const tokenPrice = Number(token.priceUSD);
    return gas && chain && tokenPrice > 0
      ? ((Number(gas.gasPriceWei) / 10 ** chain.nativeToken.decimals) * Number(chain.nativeToken.priceUSD) / tokenPrice) * 10 ** token.decimals
      : 0;
  }

  /** The catalog token of a graph node (by its normalised address). */
  token(chainId: number, address: string): Token {
    const table = tableOf(this.tokens, chainId);
    let token = table.get(address);
    if (!token) {
      token = this.catalog.findToken(chainId, address);
      if (!token) throw new Error(`graph: token ${address} of chain ${chainId} is not in the catalog`);
      table.set(address, token);
    }
    return token;
  }

  /**
   * Tokens of a chain from which `targets` can be reached in at most `maxHops` pool hops
   * (wraps are free), with the fewest hops needed: used to prune the search.
   */
  hopsToTargets(chainId: number, targets: readonly string[], maxHops: number): ReadonlyMap<string, number> {
    return this.reachOf(chainId, targets, maxHops).distance;
  }

  /** hopsToTargets with, per token, the edges that lead towards the targets (memoised with it, per graph). */
  reachOf(chainId: number, targets: readonly string[], maxHops: number): Reach {
    const key = `${chainId}.${this.generations.get(chainId) ?? 0}|${maxHops}|${[...targets].sort().join(',')}`;
    return this.reaches.get(key, () => new Reach(this, chainId, this.computeHopsToTargets(chainId, targets, maxHops)));
  }

  /** Entries and steps held by the memo of reaches (bounded: MAX_REACHES, MAX_REACH_STEPS). */
  reachMemoSize(): { readonly entries: number; readonly steps: number } {
    const { entries, total } = this.reaches.size;
    return { entries, steps: total };
  }

  private computeHopsToTargets(chainId: number, targets: readonly string[], maxHops: number): Map<string, number> {
    // 0-1 breadth-first search; edges are symmetric (pools both ways, wrap/unwrap pairs), so forward edges serve.
    const distance = new Map<string, number>();
    const queue: [string, number][] = [];
    for (const t of targets) {
      distance.set(t, 0);
      queue.push([t, 0]);
    }
    while (queue.length > 0) {
      const [token, d] = queue.shift()!;
      if (d > (distance.get(token) ?? Infinity)) continue;
      for (const edge of this.edgesFrom(chainId, token)) {
        const nd = d + (edge.kind === 'pool' ? 1 : 0);
        if (nd > maxHops || nd >= (distance.get(edge.to) ?? Infinity)) continue;
        distance.set(edge.to, nd);
        if (nd === d) queue.unshift([edge.to, nd]);
        else queue.push([edge.to, nd]);
      }
    }
    return distance;
  }
}

/** An edge towards the targets of a Reach, with the fewest pool hops from its end to a target. */
export interface ReachStep {
  readonly edge: SwapEdge;
  readonly remaining: number;
  /** Pool hops the edge counts (1 for a pool, 0 for a wrap) and the gas units the search estimates for it. */
  readonly poolHops: number;
  readonly gasUnits: number;
  /** The pool's exchange, id and float model (undefined for a wrap). */
  readonly exchange: string | undefined;
  readonly poolId: string | undefined;
  readonly estimate: PoolEstimate | undefined;
  /** gasCostInToken of the edge's end on this chain. */
  readonly toGasCost: number;
}

const NO_STEPS: readonly ReachStep[] = Object.freeze([]);

/**
 * The targets' reach on one chain: the fewest hops from each token to a target and, per token, its edges whose
 * end can reach a target at all, in edgesFrom order. The path search reads these instead of looking every
 * edge's end up in `distance`. Built whole when the graph first needs it; read-only afterwards.
 */
export class Reach {
  private readonly steps = new Map<string, readonly ReachStep[]>();
  /** Steps in all lists, plus one per list: what the graph's memo of reaches is bounded by. */
  readonly size: number;

  constructor(
    graph: RoutingGraph,
    readonly chainId: number,
    readonly distance: ReadonlyMap<string, number>,
  ) {
    const gasCost = graph.gasCostTable(chainId);
    let size = 0;
    for (const token of distance.keys()) {
      const steps: ReachStep[] = [];
      for (const edge of graph.edgesFrom(chainId, token)) {
        const remaining = distance.get(edge.to);
        if (remaining === undefined) continue;
        const pool = edge.kind === 'pool' ? edge.pool : undefined;
        steps.push({
          edge, remaining,
          poolHops: pool ? 1 : 0,
          gasUnits: pool ? Number(HOP_GAS[pool.kind]) : Number(WRAP_GAS),
          exchange: pool?.exchange,
          poolId: pool?.id,
          estimate: pool && graph.poolEstimate(pool),
          toGasCost: gasCost(edge.to),
        });
      }
      this.steps.set(token, steps);
      size += steps.length + 1;
    }
    this.size = size;
  }

  stepsFrom(token: string): readonly ReachStep[] {
    return this.steps.get(token) ?? NO_STEPS;
  }
}
