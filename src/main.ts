import cluster from 'node:cluster';
import type http from 'node:http';
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import pino from 'pino';
import { ConfigError, DEFAULT_DATABASE_DIR, DEFAULT_LEDGER_FILE, loadConfig, portalOrigins, type Config } from './config';
import { openDatabase, type Database } from './persistence/database';
import type { IntegratorDirectory } from './persistence/integrators';
import type { Dependencies } from './server/dependencies';
import type { Catalog } from './core/catalog/catalog';
import type { LiquidityState } from './core/routing/liquidityState';
import type * as ServiceModules from './server/serviceModules';
import type { StartingGate } from './server/startingGate';

/**
 * The modules the service is made of (src/server/serviceModules.ts), loaded on first use: {@link main} opens the
 * database first, so that its opening overlaps their evaluation (~0.3-0.5 s), then takes them from here.
 */
function serviceModules(): typeof ServiceModules {
  return require('./server/serviceModules') as typeof ServiceModules;
}

/** The starting gate's module (loaded before the service's: src/server/startingGate.ts). */
function startingGate(): typeof import('./server/startingGate') {
  return require('./server/startingGate') as typeof import('./server/startingGate');
}

/** Lets the event loop turn: the starting gate answers between the steps of a start. */
function nextTurn(): Promise<void> {
  return startingGate().nextTurn();
}

/** Starts the service on the embedded default data (or DATA_DIR), and stops it cleanly on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  let config;
  try {
    // npm start keeps its partners, keys, blocks and usage in an embedded database unless told otherwise; an embedded
    // folder opens in one process, so several workers get none unless DATABASE_URL names a server
    const single = !process.env.WORKERS?.trim() || process.env.WORKERS.trim() === '1';
    const env = process.env.DATABASE_URL?.trim() || process.env.DATABASE_DIR?.trim() || !single ? process.env : { ...process.env, DATABASE_DIR: DEFAULT_DATABASE_DIR };
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const logger = pino({ level: config.logLevel });
  if (config.workers > 1 && cluster.isPrimary) {
    // chain mode with several workers: one chain reader here, feeding them all (src/chain/liquidityFeed.ts)
    const feed = await startFeed(config, logger);
    superviseWorkers(config.workers, logger, feed);
    return;
  }
  // the database opens while the service starts and answers, from the start: the embedded one (PGlite) takes the
  // longest part of a start (~1 s to open a folder, in a thread of its own: src/persistence/pgliteThread.ts) and
  // the first API requests wait for the blocks it holds (src/server/access/build.ts), so its thread starts before
  // the service's modules are loaded
  const database = config.database ? openServiceDatabase(config, logger) : undefined;
  // then the socket: while the service loads, /health answers and requests wait for it (src/server/startingGate.ts)
  const { server, gate, listened } = listenWhileStarting(config, logger);
  await listened;
  // the service's modules in two steps, the HTTP stack's first (express, openapi-backend, ajv: about half of them),
  // so that the gate answers between them
  require('./server/app');
  await nextTurn();
  const {
    Metrics, IntegratorDirectory, buildAccessControl, expensiveOperationsOf, handlers, TransferEventFeed, DatabaseRelayTaskStore, databaseHistory, seedIntegrators,
    startChainMode, TransferIndexer, makeChainProvider, solanaFollowersOf, WebhookWorker, statusToWire, readinessChecks, portalRouter, explorerRouter, createApp, loadDependencies,
  } = serviceModules();
  await nextTurn();
  const metrics = new Metrics({ processMetrics: true });
  let serving!: () => void;
  const served = new Promise<void>((resolve) => (serving = resolve));
  // fees are booked under the fee wallet an integrator registered (portal), else the fee ledger's
  let registered: IntegratorDirectory | undefined;
  const directory = database ? database.then(async (db) => {
    const integrators = new IntegratorDirectory(db.db, { onError: (error) => logger.warn({ err: { message: error.message } }, `reading the integrators failed: ${error.message}`) });
    await integrators.refresh();
    integrators.start();
    registered = integrators;
  }) : undefined;
  const access = buildAccessControl(config, {
    logger, onBlock: metrics.blocked, onRefusal: metrics.accessRefused,
    // the first requests after a start wait for the blocks in force and the registered integrators
    ...(database ? { database, expensiveOperations: expensiveOperationsOf(handlers), ...(directory ? { readBeforeAnswering: directory } : {}) } : {}),
  });
  const transferEvents = database ? new TransferEventFeed(async () => (await database).db, { logger }) : undefined;
  const dependencies: Dependencies = await loadDependencies(config, {
    access,
    integratorAddress: (integratorId) => registered?.feeWallet(integratorId) ?? dependencies.feeLedger.feeWallet(integratorId),
    // the transfer history: the index the indexer below fills (GET /v1/analytics/transfers...), and its events
    // (GET /v1/status/stream, read while anyone follows a stream)
    ...(database && transferEvents ? { history: databaseHistory(async () => (await database).db), events: transferEvents } : {}),
    // the gasless relayer's tasks (RELAYER_PRIVATE_KEY needs a database: src/config.ts)
    ...(database && config.relayer ? { relayTasks: new DatabaseRelayTaskStore(async () => (await database).db), logger } : {}),
  }, nextTurn);
  // the fee ledger's integrators (id and fee wallet) are registered in the database once, for the portal
  if (database) void database.then((db) => seedIntegrators(db.db, ledgerIntegrators(config, dependencies)), () => undefined).catch((error: Error) => logger.warn({ err: { message: error.message } }, 'the fee ledger\'s integrators were not registered in the database'));
  const fed = cluster.isWorker && process.env[LIQUIDITY_FEED_ENV] === 'primary';
  // chain mode (CHAINS_FILE): pool state read from the chains before the first request, then followed per block
  // (by this process, or by the primary that feeds it)
  const chainMode = await startChainMode(dependencies, config, logger, { pools: fed ? 'fed' : 'self' }).catch((error: Error) => {
    dependencies.chains?.close();
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  });
  const feed = fed ? await followFeed(dependencies.liquidity, logger) : undefined;
  // chain mode with a database: the transfers of the connected EVM chains, and of the Solana chains' bridge escrows,
  // indexed into it (one instance per chain at a time, by a lease in the database)
  const indexer = database && (dependencies.chains || dependencies.solana) ? database.then((db) => {
    const started = new TransferIndexer({
      db: db.db,
      chains: (dependencies.chains?.chains ?? []).map((c) => {
        const from = config.chains?.chains.find((entry) => entry.chainId === c.chainId)?.indexFromBlock;
        // a connection of its own: sharing the chain follower's delayed its discovery of new pools (e2e uniswap-following)
        return { chainId: c.chainId, provider: makeChainProvider(c.rpcUrl, c.chainId, config.chains?.rpcTimeoutMs), router: c.router, ...(from !== undefined ? { startBlock: from } : {}) };
      }),
      followers: solanaFollowersOf(config.chains, () => dependencies.catalog, (chainId) => dependencies.routers.bridgeEscrowOf(chainId)?.owner),
      tracker: dependencies.transfers,
      holder: `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
      logger,
      pollIntervalMs: Math.max(config.chains?.pollIntervalMs ?? 1000, 1000),
    });
    started.start();
    return started;
  }, () => undefined) : undefined;
  // the integrators' webhooks: the deliveries of their transfers' events, sent by every instance with the database
  const webhooks = database ? new WebhookWorker({
    db: async () => (await database).db,
    toWire: (status) => statusToWire(dependencies.catalog, status, dependencies.publicUrl),
    holder: `${os.hostname()}:${process.pid}:webhooks`,
    allowPrivate: config.webhooks.allowPrivate,
    logger,
  }) : undefined;
  webhooks?.start();
  // the gasless relayer: every instance sends the relay tasks of the database (each claimed by one at a time)
  dependencies.relaying?.start();
  // GET /ready and /metrics (src/server/operations.ts): the chains' state as chain mode reports it
  metrics.observeChains(chainMode.status);
  const readiness = readinessChecks(dependencies, config, {
    chains: chainMode.status, ...(feed ? { fed: () => feed.received } : {}), ...(database ? { database: () => database.then((db) => db.ping()) } : {}),
  });
  // the portal's origins: PORTAL_ORIGIN, else the listen address's (its port known once listening, for PORT=0)
  const origins = () => portalOrigins(config, boundPort(server, config));
  const portal = database ? portalRouter({
    database: () => database, dependencies, logger, origins, trustProxy: config.access.trustProxy,
    // a new integrator's fee wallet is known to this instance's quotes at once (to the others' within their refresh)
    onIntegratorRegistered: () => void registered?.refresh().catch(() => undefined),
    webhookAllowPrivate: config.webhooks.allowPrivate,
  }) : undefined;
  // the explorer's page per transfer (/explorer/tx/<hash or transfer id>)
  const explorer = explorerRouter({ dependencies, trustProxy: config.access.trustProxy });
  // once serving (answering meanwhile): a few quotes through the request pipeline, so that the first clients'
  // quotes run compiled code (src/server/warmUp.ts), then the other operations' validators (app.ts)
  const app = await createApp(dependencies, config, { handlers, logger, operations: { metrics, readiness }, warmUp: { after: served }, explorer, ...(portal ? { portal } : {}) });
  gate.open(app);
  const port = boundPort(server, config);
  logger.info({ host: config.host, port, chains: dependencies.catalog.chains.length, ...(portal ? { portal: origins() } : {}) }, `serving on http://${config.host}:${port}`);
  serving();

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: no new connections, finishing requests in flight');
    // event streams last until their client leaves: ended now, so that the server can close
    dependencies.streams.slots.closeAll();
    server.close(() => {
      Promise.all([
        Promise.resolve(transferEvents?.close()),
        Promise.resolve(webhooks?.stop()),
        // the relayer stops before the database it records its tasks in closes
        Promise.all([dependencies.access.close(), dependencies.relaying?.stop()]).then(() => {
          registered?.stop();
          return database?.then((db) => db.close(), () => undefined);
        }),
        Promise.resolve(indexer?.then((i) => i?.stop())).then(() => chainMode.stop()).then(() => dependencies.chains?.close()),
      ]).finally(() => {
        logger.info('stopped');
        process.exit(0);
      });
    });
    server.closeIdleConnections();
    setTimeout(() => {
      logger.warn('requests still in flight after 10 s; exiting');
      process.exit(1);
    }, 10_000).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/**
 * Listens on the configured address at once, with the node server's limits (src/server/hardening.ts), the starting
 * gate answering until the service {@link StartingGate.open opens} it; a listen error stops the process.
 */
function listenWhileStarting(config: Config, logger: pino.Logger): { server: http.Server; gate: StartingGate; listened: Promise<void> } {
  const { StartingGate } = startingGate();
  const { createLimitedServer } = require('./server/hardening') as typeof import('./server/hardening');
  const gate = new StartingGate();
  const server = createLimitedServer(gate.listener, config.limits);
  const listened = new Promise<void>((resolve) => {
    server.listen(config.port, config.host, () => {
      logger.info({ host: config.host, port: boundPort(server, config) }, `listening on http://${config.host}:${boundPort(server, config)} (starting)`);
      resolve();
    });
  });
  server.on('error', (error) => {
    logger.fatal({ err: error }, 'cannot listen');
    process.exit(1);
  });
  return { server, gate, listened };
}

/** The port the server listens on (PORT=0: the one the system gave), or the configured one before it listens. */
function boundPort(server: http.Server, config: Config): number {
  const address = server.address();
  return typeof address === 'object' && address ? address.port : config.port;
}

/** Set by the primary on the workers it feeds with the chains' pool state. */
const LIQUIDITY_FEED_ENV = 'LIQUIDITY_FEED';
/** A worker asks for the state when it listens for it; the primary answers with the latest update. */
const READY_MESSAGE = 'liquidity:ready';

interface Feed {
  /** The full state, encoded, for a worker that starts. */
  latest(): string;
  stop(): Promise<void>;
}

/**
 * The primary's chain reader (chain mode with EVM chains): follows the chains as one process does and sends every
 * change to every worker. Undefined without EVM chains to follow.
 */
async function startFeed(config: Config, logger: pino.Logger): Promise<Feed | undefined> {
  const { buildFollowerParts, LiquidityFeed, encodeUpdate, startChainMode } = serviceModules();
  const parts = buildFollowerParts(config);
  if (!parts.chains) return undefined;
  const base = parts.liquidity.graph.snapshot;
  const feed = new LiquidityFeed(parts.liquidity, base, (update) => {
    const text = encodeUpdate(update);
    for (const worker of Object.values(cluster.workers ?? {})) worker?.send(text);
  });
  const chainMode = await startChainMode(parts, config, logger, { target: feed }).catch((error: Error) => {
    parts.chains?.close();
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  });
  logger.info({ workers: config.workers }, 'chain mode: this process follows the chains and feeds the workers');
  return { latest: () => encodeUpdate(feed.latest()), stop: () => chainMode.stop().then(() => parts.chains?.close()) };
}

/**
 * A fed worker: applies every update of the primary; resolves once the first one is in (or after 30 s, on the
 * snapshot), with whether one has come (readiness).
 */
function followFeed(liquidity: LiquidityState, logger: pino.Logger): Promise<{ readonly received: boolean }> {
  const { applyUpdate, decodeUpdate } = serviceModules();
  const base = liquidity.graph.snapshot;
  const state = { received: false };
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      logger.warn('no pool state from the primary within 30 s: quoting the snapshot until it comes');
      resolve(state);
    }, 30_000);
    process.on('message', (message: unknown) => {
      if (typeof message !== 'string' || !message.startsWith('{"type":"liquidity"')) return;
      applyUpdate(liquidity, base, decodeUpdate(message));
      state.received = true;
      clearTimeout(timer);
      resolve(state);
    });
    process.send?.(READY_MESSAGE);
  });
}

/**
 * Multi-core: the primary forks one worker per WORKERS; they share the listening socket (node:cluster) and
 * the rate-limit store (Redis, required by the configuration when limits are on). A worker that dies
 * unexpectedly is replaced; SIGTERM/SIGINT are passed on and the primary exits when all workers have stopped.
 * With a feed (chain mode), the workers are told to take the pool state from it, and each gets the latest state
 * when it asks.
 */
function superviseWorkers(count: number, logger: pino.Logger, feed?: Feed): void {
  let stopping = false;
  const fork = () => {
    const worker = cluster.fork(feed ? { [LIQUIDITY_FEED_ENV]: 'primary' } : {});
    if (feed) worker.on('message', (message: unknown) => message === READY_MESSAGE && worker.send(feed.latest()));
    return worker;
  };
  for (let k = 0; k < count; k++) fork();
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) void (feed?.stop() ?? Promise.resolve()).finally(() => process.exit(0));
      return;
    }
    logger.error({ pid: worker.process.pid, code, signal }, 'worker died; starting another');
    fork();
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, workers: count }, 'stopping workers');
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error) => {
  process.stderr.write(`fatal: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});

/** Opens the database of the configuration (migrated); a failure is logged, and stops the service. */
function openServiceDatabase(config: Config, logger: pino.Logger): Promise<Database> {
  const started = performance.now();
  const opening = openDatabase({ ...config.database, onConnectionError: (error) => logger.warn({ err: { message: error.message } }, 'database connection lost; reconnecting') });
  opening.then(
    (db) => logger.info({ engine: db.engine, location: db.location, ms: Math.round(performance.now() - started) }, `database open (${db.engine}, ${db.location})`),
    (error: Error) => {
      logger.fatal({ err: { message: error.message } }, `the database did not open: ${error.message}`);
      process.exit(2);
    },
  );
  return opening;
}

/** The seeded fee ledger's integrators that name a fee wallet. */
function ledgerIntegrators(config: Config, dependencies: { catalog: Catalog }): { integratorId: string; feeWallet: string }[] {
  const { loadFeeLedger } = serviceModules();
  const ledger = loadFeeLedger(config.feeLedgerFile ?? DEFAULT_LEDGER_FILE, dependencies.catalog);
  return ledger.integratorIds.flatMap((integratorId) => {
    const feeWallet = ledger.feeWallet(integratorId);
    return feeWallet ? [{ integratorId, feeWallet }] : [];
  });
}
