import cluster from 'node:cluster';
import pino from 'pino';
import { ConfigError, loadConfig } from './config';
import { createApp } from './server/app';
import { buildDependencies } from './server/dependencies';
import { buildAccessControl } from './server/access/build';
import { startChainMode } from './chain/mode';
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
    superviseWorkers(config.workers, logger);
    return;
  }
  const dependencies = buildDependencies(config, { access: buildAccessControl(config, { logger }) });
  // chain mode (CHAINS_FILE): pool state read from the chains before the first request, then followed per block
  const chainMode = await startChainMode(dependencies, config, logger).catch((error: Error) => {
    dependencies.chains?.close();
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  });
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

/**
 * Multi-core: the primary forks one worker per WORKERS; they share the listening socket (node:cluster) and
 * the rate-limit store (Redis, required by the configuration when limits are on). A worker that dies
 * unexpectedly is replaced; SIGTERM/SIGINT are passed on and the primary exits when all workers have stopped.
 */
function superviseWorkers(count: number, logger: pino.Logger): void {
  let stopping = false;
  for (let k = 0; k < count; k++) cluster.fork();
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    logger.error({ pid: worker.process.pid, code, signal }, 'worker died; starting another');
    cluster.fork();
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
