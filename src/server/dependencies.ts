import type { Config } from '../config';
import { chainModeCatalog } from '../chain/catalog';
import { ChainFeeLedger } from '../chain/feeLedger';
import os from 'node:os';
import pino, { type Logger } from 'pino';
import { ChainConnections, checkChainEntries, evmEntries, makeChainProvider } from '../chain/rpc';
import { ChainRelaying } from '../chain/relaying';
import type { RelayTaskStore } from '../core/relay/tasks';
import { SolanaNodes, solanaNodeEntries } from '../chain/solanaNode';
import { solanaTransferReadsOf } from '../chain/solanaTransferReads';
import { ChainTransferReads } from '../chain/transferReads';
import { loadCatalog } from '../files/catalog';
import type { Catalog, CatalogOptions } from '../core/catalog/catalog';
import { catalogAddressReader } from '../core/chains/eip55';
import { loadRouters } from '../files/routers';
import { loadFeeLedger } from '../files/feeLedger';
import { DEFAULT_LEDGER_FILE } from '../config';
import { loadSnapshot } from '../files/snapshot';
import { LiquidityState } from '../core/routing/liquidityState';
import { ObjectMemo } from '../core/memo';
import { RoutingGraph } from '../core/routing/graph';
import { TransferTracker } from '../core/status/tracker';
import { defaultStatusStreams } from '../core/status/events';
import { buildAccessControl } from './access/build';
import type { AccessControl } from './access/middleware';
import type { Ports } from '../usecases/ports';

/** Everything the handlers need, built once by the composition root; each part can be overridden by tests. */
export interface Dependencies extends Ports {
  /** API keys and rate limits (src/server/access); close() it on shutdown (it may hold a Redis connection). */
  readonly access: AccessControl;
  /** Chain mode (CHAINS_FILE): JSON-RPC access to the configured EVM chains; undefined on the embedded snapshot (or without EVM entries). */
  readonly chains?: ChainConnections;
  /** Chain mode: the Solana nodes of CHAINS_FILE (started by startChainMode); undefined without one. */
  readonly solana?: SolanaNodes;
  /** The gasless relayer (RELAYER_PRIVATE_KEY, in chain mode with a database): start() it to send its tasks. */
  readonly relaying?: ChainRelaying;
}

/** What buildDependencies takes besides the parts it can replace: the relayer's task store (the database's). */
export interface DependencyInputs extends Partial<Dependencies> {
  readonly relayTasks?: RelayTaskStore;
  /** The relayer's logger (default: one at LOG_LEVEL). */
  readonly logger?: Logger;
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

export function buildDependencies(config: Config, overrides: DependencyInputs = {}): Dependencies {
  // in chain mode the connected chains advertise their RPC URL first (src/chain/catalog.ts)
  const catalog = overrides.catalog ?? catalogOf(config);
  const liquidity = overrides.liquidity ?? new LiquidityState(overrides.graph ?? graphOf(config, catalog), overrides.finder);
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
  // the relayer sends on the connected chains, from the tasks the relay operations record in the database
  if (config.relayer && !overrides.relayTasks) throw new Error('RELAYER_PRIVATE_KEY: the relayer needs the database for its tasks');
  const relaying = overrides.relaying ?? (config.relayer && overrides.relayTasks && chains ? new ChainRelaying({
    chains: chains.chains.map((c) => ({ chainId: c.chainId, provider: makeChainProvider(c.rpcUrl, c.chainId, config.chains?.rpcTimeoutMs) })),
    routers, tasks: overrides.relayTasks, privateKey: config.relayer.privateKey(), balanceFloorWei: config.relayer.balanceFloorWei,
    instance: `${os.hostname()}:${process.pid}:relayer`, logger: overrides.logger ?? pino({ level: config.logLevel }),
  }) : undefined);
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
    ...(relaying ? { relaying } : {}),
    svmCluster: overrides.svmCluster ?? ((chainId) => solana?.cluster(chainId)),
    ...(overrides.history ? { history: overrides.history } : {}),
    ...(overrides.events ? { events: overrides.events } : {}),
    streams: overrides.streams ?? defaultStatusStreams(),
    publicUrl: overrides.publicUrl ?? config.publicUrl,
  };
}

/**
 * {@link buildDependencies}, with the event loop turning (`between`) after each of its long steps, reading the catalog
 * and reading the liquidity snapshot: a server listening while the service starts (src/server/startingGate.ts)
 * answers its health checks meanwhile. The catalog checks its addresses with a faster reader that answers the same.
 */
export async function loadDependencies(config: Config, overrides: DependencyInputs, between: () => Promise<void>): Promise<Dependencies> {
  // the catalog's addresses checked with a WebAssembly Keccak (src/core/chains/eip55.ts), made asynchronously
  const catalog = overrides.catalog ?? catalogOf(config, { parseAddress: await catalogAddressReader() });
  await between();
  const graph = overrides.graph ?? (overrides.liquidity ? undefined : graphOf(config, catalog));
  await between();
  return buildDependencies(config, { ...overrides, catalog, ...(graph ? { graph } : {}) });
}

/** The configuration's catalog: its data folder's, with the connected chains' RPC URLs first in chain mode (src/chain/catalog.ts). */
function catalogOf(config: Config, options?: CatalogOptions): Catalog {
  return chainModeCatalog(loadCatalog(config.dataDir, options), config.chains);
}

/** The routing graph of the configuration's liquidity snapshot over `catalog`. */
function graphOf(config: Config, catalog: Catalog): RoutingGraph {
  return new RoutingGraph(catalog, loadSnapshot(config.snapshotDir, catalog));
}
