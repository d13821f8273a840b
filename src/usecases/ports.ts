/**
 * What the use cases need from the rest of the service, as the core's types: the catalog, the liquidity and its route
 * finder, the router deployments, the fee ledger, transfer status and history, and the few values a transaction or an
 * answer carries. The composition root (src/server/dependencies.ts) builds them, and its Dependencies add what only
 * the HTTP edge uses (access control, chain connections).
 */
import type { Catalog } from '../core/catalog/catalog';
import type { RouterDeployments } from '../core/catalog/routers';
import type { FeeLedger } from '../core/fees/feeLedger';
import type { LiquidityState } from '../core/routing/liquidityState';
import type { RouteFinder } from '../core/routing/finder';
import type { RoutingGraph } from '../core/routing/graph';
import type { TransferTracker } from '../core/status/tracker';
import type { TransferHistory } from '../core/status/history';
import type { StatusStreams, TransferEvents } from '../core/status/events';
import type { SvmClusterState } from '../core/transactions/context';
import type { Relaying } from '../core/relay/ports';

export interface Ports {
  /**
   * The catalog answers are made from: the liquidity graph's, taken at request time like the graph (in chain mode its
   * prices follow the pools, src/core/liquidity/marketPrices.ts; a new price is a new catalog).
   */
  readonly catalog: Catalog;
  /** The liquidity graph routes are found on (catalog + snapshot, or live chain state in chain mode). */
  readonly graph: RoutingGraph;
  /** The route finder on that graph. */
  readonly finder: RouteFinder;
  /** Holder of graph and finder: replaced as a whole when chain state changes (chain mode). */
  readonly liquidity: LiquidityState;
  /** The service's router and fee-collector addresses per EVM chain, and the exchanges' swap routers (routers.json). */
  readonly routers: RouterDeployments;
  /** Integrators' collected fees (seeded from FEE_LEDGER_FILE or data/integrators/ledger.json; the fee collectors of the connected chains in chain mode). */
  readonly feeLedger: FeeLedger;
  /** TransactionContext: transactions book an integrator's fees under its fee wallet (undefined: integratorAccount(id)). */
  readonly integratorAddress: (integrator: string) => string | undefined;
  /** TransactionContext: a Solana cluster's recent blockhash and fees, as its node last said (chain mode). */
  readonly svmCluster: (chainId: number) => SvmClusterState | undefined;
  /** Transfer status from the connected chains' receipts and events (GET /v1/status, /v1/gas/status). */
  readonly transfers: TransferTracker;
  /** The index of transfers (GET /v1/analytics/transfers...); undefined without a database. */
  readonly history?: TransferHistory;
  /** The index's transfer events, for the streams (GET /v1/status/stream); undefined without a database. */
  readonly events?: TransferEvents;
  /** The bounds and timings of the event streams. */
  readonly streams: StatusStreams;
  /** The origin clients reach the service at (PUBLIC_URL): the links of its answers (a transfer's explorer page). */
  readonly publicUrl: string;
  /** The gasless relayer (GET /v1/relayer/quote, POST /v1/relayer/relay...); undefined where none is configured. */
  readonly relaying?: Relaying;
}
