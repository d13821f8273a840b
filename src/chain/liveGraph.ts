/**
 * The state chain mode quotes on (liveLiquidity.ts), and the graphs built from it: the snapshot's pools with the
 * states read from the followed chains, the pools found on them since, and the chains' gas prices. Any change builds
 * a new LiquiditySnapshot (untouched pools, bridges and gas kept as they are) and a new RoutingGraph, handed to the
 * target. A pool without a contract at its address, or whose exchange router has none, leaves the graph until one
 * appears there.
 */
import type { Logger } from 'pino';
import type { Catalog } from '../core/catalog/catalog';
import type { Token } from '../core/entities';
import type { ChainGas, LiquiditySnapshot, PoolState } from '../core/liquidity/snapshot';
import { PPM } from '../core/math/rational';
import { RoutingGraph } from '../core/routing/graph';
import { catalogAtPrices, marketPrices, type PriceRule } from '../core/liquidity/marketPrices';
import type { Tracker } from './chainTracker';
import { sameState, type PoolReadOutcome } from './poolReader';

/** eth_gasPrice replaces the price in use only when it moved by this fraction (in ppm) or more. */
const GAS_PRICE_STEP_PPM = 100_000n;

/** Receives every new graph (LiquidityState of the dependencies). */
export interface GraphTarget {
  readonly graph: RoutingGraph;
  replace(graph: RoutingGraph): void;
}

/** What the graphs are built from and handed to (LiveLiquidityOptions, liveLiquidity.ts). */
export interface LiveGraphOptions {
  readonly catalog: Catalog;
  readonly prices?: PriceRule;
  readonly base: LiquiditySnapshot;
  readonly target: GraphTarget;
  readonly logger: Logger;
}

/** The tokens outside the catalog found on the chains (liveDiscovery.ts), and the reference catalog with them. */
export interface FoundTokens {
  readonly tokens: readonly Token[];
  readonly reference: Catalog;
}

export class LiveGraph {
  private readonly current = new Map<string, PoolState>();
  private readonly basePools: ReadonlyMap<string, PoolState>;
  private readonly gas: Map<number, ChainGas>;
  /** Chains whose pools or gas changed since the last graph was published. */
  private touched = new Set<number>();
  /** The graph published last. */
  private published: RoutingGraph | undefined;
  /** Pools created by the factories after the snapshot, in the order found. */
  private readonly discovered: PoolState[] = [];
  /** Coins no qualifying pool prices, as last logged. */
  private unpriced = '';

  constructor(
    private readonly options: LiveGraphOptions,
    private readonly trackers: readonly Tracker[],
  ) {
    this.basePools = new Map(options.base.pools.map((p) => [p.id, p]));
    this.gas = new Map(options.base.gas);
  }

  /** A pool of the embedded snapshot. */
  isBase(id: string): boolean {
    return this.basePools.has(id);
  }

  /** A pool whose state was read from its chain. */
  isRead(id: string): boolean {
    return this.current.has(id);
  }

  /** The pool's state as last read, else as given. */
  stateOf(pool: PoolState): PoolState {
    return this.current.get(pool.id) ?? pool;
  }

  /** The chain's pools or gas changed: the next graph indexes it again. */
  touch(chainId: number): void {
    this.touched.add(chainId);
  }

  /** Pools found on the chain join its pools (read and followed from now on) and the graph. */
  adopt(t: Tracker, pools: readonly PoolState[]): void {
    for (const pool of pools) {
      if (t.byAddress.has(pool.address.toLowerCase())) continue;
      t.pools.push(pool);
      t.byAddress.set(pool.address.toLowerCase(), [pool]);
      this.discovered.push(pool);
      this.options.logger.info({ chainId: t.chain.chainId, pool: pool.id, address: pool.address }, `chain ${t.chain.chainId}: pool ${pool.id} found at ${pool.address}`);
    }
  }

  /** The chain's gas price as read (eth_gasPrice) taken when it moved enough; true when the price in use changed. */
  applyGasPrice(t: Tracker, wei: bigint | undefined): boolean {
    if (wei === undefined || wei <= 0n) return false;
    t.gasPriceWei = wei;
    const gas = this.gas.get(t.chain.chainId);
    if (!gas) return false;
    const moved = wei > gas.gasPriceWei ? wei - gas.gasPriceWei : gas.gasPriceWei - wei;
    if (moved * PPM < gas.gasPriceWei * GAS_PRICE_STEP_PPM) return false;
    this.gas.set(t.chain.chainId, { ...gas, gasPriceWei: wei, updatedAt: Date.now() });
    this.touched.add(t.chain.chainId);
    return true;
  }

  /** Takes the pools read into the current state; true when one of them changed. */
  apply(t: Tracker, outcomes: readonly PoolReadOutcome[]): boolean {
    let changed = false;
    for (const o of outcomes) {
      const id = o.pool.id;
      if (o.kind === 'read') {
        t.read.add(id);
        if (t.missing.delete(id)) {
          this.touched.add(t.chain.chainId); // back in the graph
          changed = true;
        }
        t.failed.delete(id);
        const before = this.current.get(id) ?? this.basePools.get(id);
        if (before === undefined || !sameState(before, o.pool)) {
          this.current.set(id, o.pool);
          this.touched.add(t.chain.chainId);
          changed = true;
        } else if (!this.current.has(id)) this.current.set(id, before);
      } else if (o.kind === 'missing') {
        if (!t.missing.has(id)) {
          // nothing to swap through: the pool leaves the graph (it comes back if a contract appears there)
          this.options.logger.warn({ chainId: t.chain.chainId, pool: id, address: o.pool.address }, `pool ${id}: no contract at ${o.pool.address} on chain ${t.chain.chainId}; not quoted`);
          this.touched.add(t.chain.chainId);
          changed = true;
        }
        t.missing.add(id);
        t.read.delete(id);
        t.failed.delete(id);
      } else {
        if (!t.failed.has(id)) this.options.logger.warn({ chainId: t.chain.chainId, pool: id, reason: o.reason }, `pool ${id} could not be read: ${o.reason}`);
        t.failed.add(id);
      }
    }
    return changed;
  }

  /**
   * A new snapshot from the current state, its graph handed to the target: derived from the target's graph when
   * that is the one this follower published last (or the base's), so that only the chains touched since are indexed
   * again (RoutingGraph.derive); built whole otherwise.
   */
  publish(tokensFound: FoundTokens): void {
    const { base, catalog, target } = this.options;
    const snapshot: LiquiditySnapshot = {
      asOf: new Date().toISOString(),
      // a pool found on a chain joins the graph once its state is read (never with the empty state it was found with)
      pools: [
        ...base.pools.filter((p) => !this.missing(p)).map((p) => this.current.get(p.id) ?? p),
        ...this.discovered.filter((p) => !this.missing(p)).flatMap((p) => this.current.get(p.id) ?? []),
      ],
      bridges: base.bridges,
      gas: new Map(this.gas),
    };
    const previous = target.graph;
    const derivable = previous === this.published || (this.published === undefined && previous.snapshot === base);
    const tokens = tokensFound.tokens;
    const priced = this.pricedCatalog(snapshot, (derivable ? previous.catalog : catalog).withDiscoveredTokens(tokens), tokensFound);
    const graph = derivable ? RoutingGraph.derive(previous, snapshot, this.touched, priced) : new RoutingGraph(priced, snapshot);
    this.touched = new Set();
    this.published = graph;
    target.replace(graph);
  }

  /** A pool of a followed chain without a contract at its address, or whose exchange router has none. */
  private missing(pool: PoolState): boolean {
    return this.trackers.some((t) => t.chain.chainId === pool.chainId && (t.missing.has(pool.id) || t.routerless.has(`${pool.exchange}:${pool.kind}`)));
  }

  /** `current`, or a catalog at the prices the followed chains' pools now imply (when a price rule is set). */
  private pricedCatalog(snapshot: LiquiditySnapshot, current: Catalog, tokensFound: FoundTokens): Catalog {
    const { prices: rule, logger } = this.options;
    const reference = tokensFound.reference;
    if (!rule) return current;
    const followed = new Set(this.trackers.filter((t) => t.last).map((t) => t.chain.chainId));
    const market = marketPrices(reference, snapshot.pools, followed, rule);
    // the catalog's coins by name; the tokens found on the chains (their own coinKeys) counted, not listed
    const discoveredCoins = new Set(tokensFound.tokens.map((token) => token.coinKey));
    const coins = market.unpriced.filter((coinKey) => !discoveredCoins.has(coinKey));
    const found = market.unpriced.length - coins.length;
    const unpriced = `${coins.join(', ')}${found > 0 ? ` (and ${found} tokens found on the chains, at no price)` : ''}`;
    if (unpriced !== this.unpriced && followed.size > 0) {
      if (unpriced) logger.info({ coins, discoveredUnpriced: found }, `no pool of at least $${rule.minDepthUSD} prices ${unpriced}: at the reference prices, still routable`);
      this.unpriced = unpriced;
    }
    return catalogAtPrices(reference, current, market.prices);
  }
}
