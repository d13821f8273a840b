/**
 * The liquidity the routes are found on. In chain mode the graph is replaced (never mutated) when pool state
 * changes on a chain; `version` grows with every replacement, so caches keyed by it miss after a change.
 * Readers take `graph` / `finder` at request time, never keep them.
 */
import { RouteFinder } from './finder';
import type { RoutingGraph } from './graph';

export class LiquidityState {
  private current: { graph: RoutingGraph; finder: RouteFinder };
  private revision = 0;

  constructor(graph: RoutingGraph, finder?: RouteFinder) {
    this.current = { graph, finder: finder ?? new RouteFinder(graph) };
  }

  get graph(): RoutingGraph {
    return this.current.graph;
  }

  get finder(): RouteFinder {
    return this.current.finder;
  }

  get version(): number {
    return this.revision;
  }

  /** Routes from now on are found on `graph`; requests in flight finish on the graph they started with. */
  replace(graph: RoutingGraph): void {
    this.current = { graph, finder: new RouteFinder(graph) };
    this.revision++;
  }
}
