import pino from 'pino';
import { ConfigError, loadConfig } from './config';
import { createApp } from './server/app';
import { buildDependencies } from './server/dependencies';
import { buildAccessControl } from './server/access/build';
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
  const dependencies = buildDependencies(config, { access: buildAccessControl(config, { logger }) });
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
      dependencies.access.close().finally(() => {
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

main().catch((error) => {
  process.stderr.write(`fatal: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
