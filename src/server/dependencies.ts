import type { Config } from '../config';
import { loadCatalog } from '../core/catalog/load';
import type { Catalog } from '../core/catalog/catalog';
import { loadRouters, type RouterDeployments } from '../core/catalog/routers';
import { DEFAULT_LEDGER_FILE, loadFeeLedger } from '../core/fees/ledger';
import type { FeeLedger } from '../core/fees/types';
import { loadSnapshot } from '../core/liquidity/load';
import { RouteFinder } from '../core/routing/finder';
import { RoutingGraph } from '../core/routing/graph';
import { buildAccessControl } from './access/build';
import type { AccessControl } from './access/middleware';

/** Everything the handlers need, built once by the composition root; each part can be overridden by tests. */
export interface Dependencies {
  readonly catalog: Catalog;
  /** The read-only liquidity graph (catalog + snapshot). */
  readonly graph: RoutingGraph;
  readonly routes: RouteFinder;
  /** The service's router and fee-collector addresses per EVM chain, and the exchanges' swap routers (routers.json). */
  readonly routers: RouterDeployments;
  /** Integrators' collected fees (seeded from data/integrators/ledger.json). */
  readonly feeLedger: FeeLedger;
  /** API keys and rate limits (src/server/access); close() it on shutdown (it may hold a Redis connection). */
  readonly access: AccessControl;
}

export function buildDependencies(config: Config, overrides: Partial<Dependencies> = {}): Dependencies {
  const catalog = overrides.catalog ?? loadCatalog(config.dataDir);
  const graph = overrides.graph ?? new RoutingGraph(catalog, loadSnapshot(config.snapshotDir, catalog));
  return {
    catalog,
    graph,
    routes: overrides.routes ?? new RouteFinder(graph),
    routers: overrides.routers ?? loadRouters(config.dataDir, catalog),
    feeLedger: overrides.feeLedger ?? loadFeeLedger(DEFAULT_LEDGER_FILE, catalog),
    access: overrides.access ?? buildAccessControl(config),
  };
}
