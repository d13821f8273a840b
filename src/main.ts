import cluster from 'node:cluster';
import pino from 'pino';
import { ConfigError, loadConfig, type Config } from './config';
import { createApp } from './server/app';
import { buildDependencies, buildFollowerParts } from './server/dependencies';
import { buildAccessControl } from './server/access/build';
import { startChainMode } from './chain/mode';
import { applyUpdate, decodeUpdate, encodeUpdate, LiquidityFeed } from './chain/liquidityFeed';
import type { LiquidityState } from './core/liquidity/state';
import { handlers } from '../handlers';

/** Starts the service on the embedded default data (or DATA_DIR), and stops it cleanly on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
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
  const dependencies = buildDependencies(config, { access: buildAccessControl(config, { logger }) });
  const fed = cluster.isWorker && process.env[LIQUIDITY_FEED_ENV] === 'primary';
  // chain mode (CHAINS_FILE): pool state read from the chains before the first request, then followed per block
  // (by this process, or by the primary that feeds it)
  const chainMode = await startChainMode(dependencies, config, logger, { pools: fed ? 'fed' : 'self' }).catch((error: Error) => {
    dependencies.chains?.close();
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  });
  if (fed) await followFeed(dependencies.liquidity, logger);
  const app = await createApp(dependencies, config, { handlers, logger });
  const server = app.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    logger.info({ host: config.host, port, chains: dependencies.catalog.chains.length }, `listening on http://${config.host}:${port}`);
  });
  server.on('error', (error) => {
    logger.fatal({ err: error }, 'cannot listen');
    process.exit(1);
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: no new connections, finishing requests in flight');
    server.close(() => {
      Promise.all([dependencies.access.close(), chainMode.stop().then(() => dependencies.chains?.close())]).finally(() => {
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

/** A fed worker: applies every update of the primary; resolves once the first one is in (or after 30 s, on the snapshot). */
function followFeed(liquidity: LiquidityState, logger: pino.Logger): Promise<void> {
  const base = liquidity.graph.snapshot;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      logger.warn('no pool state from the primary within 30 s: quoting the snapshot until it comes');
      resolve();
    }, 30_000);
    process.on('message', (message: unknown) => {
      if (typeof message !== 'string' || !message.startsWith('{"type":"liquidity"')) return;
      applyUpdate(liquidity, base, decodeUpdate(message));
      clearTimeout(timer);
      resolve();
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
