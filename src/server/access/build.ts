import pino, { type Logger } from 'pino';
import type { RedisOptions } from 'ioredis';
import type { Config } from '../../config';
import { parseKeyDocument } from '../../core/access/keyFile';
import { FileKeyStore, StaticKeyStore, type KeyStore } from '../../core/access/keyStore';
import type { LimiterStore } from './limiterStore';
import { MemoryLimiterStore } from './memoryStore';
import { createAccessControl, type AccessControl } from './middleware';
import { RedisLimiterStore } from './redisStore';

export interface BuildAccessOptions {
  /** For key-file reloads and the Redis store's state changes (default: pino at the configured level). */
  readonly logger?: Logger;
  /** A fake clock for tests (limiter windows, key-file re-checks, reset times). */
  readonly clock?: () => number;
  /** Extra ioredis options (tests shorten reconnection delays). */
  readonly redisOptions?: RedisOptions;
  /** Redis key prefix (tests isolate themselves with one). */
  readonly redisPrefix?: string;
}

/** Builds the access control from the configuration: keys from API_KEYS_FILE or API_KEYS, limits in Redis or memory. */
export function buildAccessControl(config: Config, options: BuildAccessOptions = {}): AccessControl {
  const logger = options.logger ?? pino({ level: config.logLevel });
  const { access } = config;
  return createAccessControl({
    keys: loadKeyStore(config, logger, options.clock),
    store: buildStore(config, logger, options),
    restrictions: {
      allowedKeyIds: access.allowedKeyIds ? new Set(access.allowedKeyIds) : undefined,
      allowedIntegrators: access.allowedIntegrators ? new Set(access.allowedIntegrators) : undefined,
    },
    trustProxy: access.trustProxy,
    rateLimits: access.rateLimits,
    override: access.rateLimitOverride,
    clock: options.clock,
  });
}

function loadKeyStore(config: Config, logger: Logger, clock?: () => number): KeyStore {
  const { apiKeysFile, apiKeysJson } = config.access;
  if (apiKeysFile) {
    const store = new FileKeyStore(apiKeysFile, {
      clock,
      onReload: (count) => logger.info({ file: apiKeysFile, keys: count }, `API keys reloaded from ${apiKeysFile}: ${count} key(s)`),
      onReloadError: (error) => logger.error({ file: apiKeysFile, err: { message: error.message } }, `API key file ${apiKeysFile} not reloaded, the previous keys stay in force: ${error.message}`),
    });
    logger.debug({ file: apiKeysFile, keys: store.list().length }, 'API keys loaded');
    return store;
  }
  if (apiKeysJson) return new StaticKeyStore(parseKeyDocument(apiKeysJson, 'API_KEYS').keys);
  return new StaticKeyStore([]);
}

function buildStore(config: Config, logger: Logger, options: BuildAccessOptions): LimiterStore {
  const { redisUrl } = config.access;
  if (!redisUrl) return new MemoryLimiterStore({ clock: options.clock });
  return new RedisLimiterStore({ url: redisUrl, logger, clock: options.clock, redisOptions: options.redisOptions, prefix: options.redisPrefix });
}
