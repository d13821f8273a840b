import type { Config } from '../config';
import { chainModeCatalog } from '../chain/catalog';
import { ChainFeeLedger } from '../chain/feeLedger';
import { ChainConnections, checkChainEntries, evmEntries } from '../chain/rpc';
import { SolanaNodes, solanaNodeEntries } from '../chain/solanaNode';
import { solanaTransferReadsOf } from '../chain/solanaTransferReads';
import { ChainTransferReads } from '../chain/transferReads';
import { loadCatalog } from '../core/catalog/load';
import type { Catalog } from '../core/catalog/catalog';
import { loadRouters, type RouterDeployments } from '../core/catalog/routers';
import { loadFeeLedger } from '../core/fees/ledger';
import { DEFAULT_LEDGER_FILE } from '../config';
import type { FeeLedger } from '../core/fees/feeLedger';
import { loadSnapshot } from '../core/liquidity/load';
import { LiquidityState } from '../core/liquidity/state';
import { ObjectMemo } from '../core/memo';
import type { RouteFinder } from '../core/routing/finder';
import { RoutingGraph } from '../core/routing/graph';
import { TransferTracker } from '../core/status/tracker';
import type { TransferHistory } from '../core/status/history';
import { defaultStatusStreams, type StatusStreams, type TransferEvents } from '../core/status/events';
import type { SvmClusterState } from '../core/transactions/build';
import { buildAccessControl } from './access/build';
import type { AccessControl } from './access/middleware';

/** Everything the handlers need, built once by the composition root; each part can be overridden by tests. */
export interface Dependencies {
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
  /** API keys and rate limits (src/server/access); close() it on shutdown (it may hold a Redis connection). */
  readonly access: AccessControl;
  /** Chain mode (CHAINS_FILE): JSON-RPC access to the configured EVM chains; undefined on the embedded snapshot (or without EVM entries). */
  readonly chains?: ChainConnections;
  /** Chain mode: the Solana nodes of CHAINS_FILE (started by startChainMode); undefined without one. */
  readonly solana?: SolanaNodes;
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
}

/** `chainId:pool address` → exchange key of a graph's pools, made once per graph. */
const poolExchanges = new ObjectMemo<RoutingGraph, ReadonlyMap<string, string>>();
const poolExchangesOf = (graph: RoutingGraph) => new Map(graph.pools.map((p) => [`${p.chainId}:${p.address.toLowerCase()}`, p.exchange]));

/**
 * What the chain follower needs and nothing else (no HTTP, keys or status): the primary process of several workers
 * follows the chains with these and feeds its workers (src/chain/liquidityFeed.ts).
 */
export function buildFollowerParts(config: Config): Required<Pick<Dependencies, 'catalog' | 'liquidity' | 'routers'>> & Pick<Dependencies, 'chains'> {
  const catalog = chainModeCatalog(loadCatalog(config.dataDir), config.chains);
  if (config.chains) checkChainEntries(config.chains, catalog);
  const routers = loadRouters(config.dataDir, catalog).withChains(config.chains?.chains ?? []);
  const liquidity = new LiquidityState(new RoutingGraph(catalog, loadSnapshot(config.snapshotDir, catalog)));
  const chains = config.chains && evmEntries(config.chains, catalog).length > 0 ? new ChainConnections(config.chains, routers, catalog) : undefined;
  return { catalog, liquidity, routers, ...(chains ? { chains } : {}) };
}

export function buildDependencies(config: Config, overrides: Partial<Dependencies> = {}): Dependencies {
  // in chain mode the connected chains advertise their RPC URL first (src/chain/catalog.ts)
  const catalog = overrides.catalog ?? chainModeCatalog(loadCatalog(config.dataDir), config.chains);
  const liquidity = overrides.liquidity
    ?? new LiquidityState(overrides.graph ?? new RoutingGraph(catalog, loadSnapshot(config.snapshotDir, catalog)), overrides.finder);
  // CHAINS_FILE against the catalog (unknown chains, EVM-only fields on other chains); EVM entries get connections
  if (config.chains) checkChainEntries(config.chains, catalog);
  // the service's own deployment: routers.json's, or a chains file's router and fee collector on the chains it names
  const routers = overrides.routers ?? loadRouters(config.dataDir, catalog).withChains(config.chains?.chains ?? []);
  const chains = overrides.chains ?? (config.chains && evmEntries(config.chains, catalog).length > 0 ? new ChainConnections(config.chains, routers, catalog) : undefined);
  const solanaEntries = solanaNodeEntries(config.chains, catalog);
  const solana = overrides.solana ?? (config.chains && solanaEntries.length > 0
    ? new SolanaNodes(solanaEntries, { timeoutMs: config.chains.rpcTimeoutMs, retryMs: config.chains.pollIntervalMs })
    : undefined);
  const seededFees = () => loadFeeLedger(config.feeLedgerFile ?? DEFAULT_LEDGER_FILE, catalog);
  const feeLedger = overrides.feeLedger ?? (chains ? new ChainFeeLedger(seededFees(), chains.chains, catalog) : seededFees());
  const exchangeByAddress = new Map(routers.allExchangeRouterAddresses.map((r) => [r.address.toLowerCase(), r.exchange]));
  const transfers = overrides.transfers ?? new TransferTracker(chains ? new ChainTransferReads(chains, catalog.listTools().bridges.map((b) => b.key)) : undefined, () => liquidity.graph.catalog, {
    solana: solanaTransferReadsOf(config.chains, catalog, (chainId) => routers.bridgeEscrowOf(chainId)?.owner),
    exchangeOf: (chainId, address) => exchangeByAddress.get(address.toLowerCase()) ?? poolExchanges.get(liquidity.graph, poolExchangesOf).get(`${chainId}:${address.toLowerCase()}`),
    bridgeRoutes: (chainId, token) => liquidity.graph.bridgesFrom(chainId, token),
  });
  return {
    get catalog() {
      return liquidity.graph.catalog;
    },
    transfers,
    get graph() {
      return liquidity.graph;
    },
    get finder() {
      return liquidity.finder;
    },
    liquidity,
    routers,
    feeLedger,
    integratorAddress: overrides.integratorAddress ?? ((integrator) => feeLedger.feeWallet(integrator)),
    access: overrides.access ?? buildAccessControl(config),
    ...(chains ? { chains } : {}),
    ...(solana ? { solana } : {}),
    svmCluster: overrides.svmCluster ?? ((chainId) => solana?.cluster(chainId)),
    ...(overrides.history ? { history: overrides.history } : {}),
    ...(overrides.events ? { events: overrides.events } : {}),
    streams: overrides.streams ?? defaultStatusStreams(),
    publicUrl: overrides.publicUrl ?? config.publicUrl,
  };
}
