import pino, { type Logger } from 'pino';
import type { RedisOptions } from 'ioredis';
import type { Config } from '../../config';
import { parseKeyDocument } from '../../core/access/keyFile';
import { KeyStoreUnavailableError, StaticKeyStore, type KeyStore } from '../../core/access/keyStore';
import { FileKeyStore } from '../../files/keyStore';
import type { LimiterStore } from './limiterStore';
import { MemoryLimiterStore } from './memoryStore';
import { createAccessControl, type AccessControl, type AccessRecords } from './middleware';
import type { BlockList, AccessOutcome } from '../../core/access/access';
import type { KnownKey } from '../../core/access/keyStore';
import type { Database } from '../../persistence/database';
import { DatabaseKeyStore } from '../../persistence/databaseKeyStore';
import { importKeyDocument, importKeyFile } from '../../persistence/keyImport';
import { BlockingMonitor, DatabaseBlockList, UsageRecorder } from '../../persistence/accessRecords';

export interface BuildAccessOptions {
  /** For key-file reloads and the Redis store's state changes (default: pino at the configured level). */
  readonly logger?: Logger;
  /** A fake clock for tests (limiter windows, key-file re-checks, reset times). */
  readonly clock?: () => number;
  /** Extra ioredis options (tests shorten reconnection delays). */
  readonly redisOptions?: RedisOptions;
  /** Redis key prefix (tests isolate themselves with one). */
  readonly redisPrefix?: string;
  /**
   * The database (being opened: the service answers meanwhile): keys, blocks and usage live there, and the automatic
   * blocking rules run on it. Without one, keys come from API_KEYS_FILE or API_KEYS and nothing is recorded.
   */
  readonly database?: Promise<Database>;
  /** With a database: the operations whose requests are route searches (expensiveOperationsOf(handlers)). */
  readonly expensiveOperations?: readonly string[];
  /** Told of every automatic block made (metrics). */
  readonly onBlock?: (rule: string) => void;
  /** Told of every request refused (metrics: the refusal's reason, or `rate-limited`). */
  readonly onRefusal?: (reason: string) => void;
  /**
   * With a database: other records requests wait for, with the blocks in force, before the first one is answered
   * after a start (the directory of registered integrators, whose fee wallets quotes book fees to).
   */
  readonly readBeforeAnswering?: Promise<unknown>;
}

/** Builds the access control from the configuration: keys from API_KEYS_FILE or API_KEYS, limits in Redis or memory. */
export function buildAccessControl(config: Config, options: BuildAccessOptions = {}): AccessControl {
  const logger = options.logger ?? pino({ level: config.logLevel });
  const { access } = config;
  const records = options.database ? databaseRecords(config, options.database, logger, options) : undefined;
  return createAccessControl({
    keys: records?.keys ?? loadKeyStore(config, logger, options.clock),
    ...(records ? { blocks: records.blocks, onClose: records.close, records: records.records } : {}),
    ...(records || options.onRefusal ? {
      onOutcome: (outcome: AccessOutcome) => {
        records?.onOutcome(outcome);
        if (outcome.outcome !== 'admitted') options.onRefusal?.(outcome.outcome);
      },
    } : {}),
    store: buildStore(config, logger, options),
    restrictions: {
      allowedKeyIds: access.allowedKeyIds ? new Set(access.allowedKeyIds) : undefined,
      allowedIntegrators: access.allowedIntegrators ? new Set(access.allowedIntegrators) : undefined,
    },
    trustProxy: access.trustProxy,
    rateLimits: access.rateLimits,
    override: access.rateLimitOverride,
    clock: options.clock,
    onProxyTraffic: (kind, message) => logger.warn({ trustProxy: kind }, message),
  });
}

/**
 * An access control of the configuration's limits that shares nothing with the service's: no keys, no instance
 * restrictions, limits counted in its own memory, nothing recorded. For the warm-up's requests (src/server/warmUp.ts),
 * which are nobody's: they run the access control's code without counting against any client.
 */
export function detachedAccessControl(config: Config): AccessControl {
  const { access } = config;
  return createAccessControl({
    keys: new StaticKeyStore([]),
    store: new MemoryLimiterStore(),
    trustProxy: access.trustProxy,
    rateLimits: access.rateLimits,
    override: access.rateLimitOverride,
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
    logger.debug({ file: apiKeysFile }, 'API keys loaded');
    return store;
  }
  if (apiKeysJson) return new StaticKeyStore(parseKeyDocument(apiKeysJson, 'API_KEYS').keys);
  return new StaticKeyStore([]);
}

function buildStore(config: Config, logger: Logger, options: BuildAccessOptions): LimiterStore {
  const { redisUrl } = config.access;
  if (!redisUrl) return new MemoryLimiterStore({ clock: options.clock });
  // loaded when REDIS_URL is set: ioredis takes ~35 ms of a start that counts in memory
  const { RedisLimiterStore } = require('./redisStore') as typeof import('./redisStore');
  return new RedisLimiterStore({ url: redisUrl, logger, clock: options.clock, redisOptions: options.redisOptions, prefix: options.redisPrefix });
}

/**
 * The access control's parts on the database: keys looked up there (API_KEYS_FILE / API_KEYS imported once when it
 * opens), the blocks in force, usage recorded per minute, and the automatic blocking rules (unless BLOCKING=off).
 * While the database opens, every request waits for the blocks in force to be read (a block holds from the first
 * request after a start) and its outcome is counted in memory, added to the database once it is open. When it did
 * not open, or a key's lookup fails, requests with a key are answered 503 with Retry-After (the key store is
 * unavailable) and the failure is logged; requests without a key are answered (no block can be read).
 */
function databaseRecords(config: Config, opening: Promise<Database>, logger: Logger, options: BuildAccessOptions) {
  const clock = options.clock;
  let blockList: DatabaseBlockList | undefined;
  let monitor: BlockingMonitor | undefined;
  const onError = (what: string) => (error: Error) => logger.warn({ err: { message: error.message } }, `database: ${what} failed: ${error.message}`);
  // counting starts with the first request; the counts wait in memory for the database
  const recorderDb = opening.then((database) => database.db);
  recorderDb.catch(() => undefined); // a database that did not open is logged once, below
  const recorder = new UsageRecorder(recorderDb, { onError: onError('recording usage') });
  const ready = opening.then(async (database) => {
    const { db } = database;
    const { apiKeysFile, apiKeysJson } = config.access;
    const imported = apiKeysFile ? await importKeyFile(db, apiKeysFile) : apiKeysJson ? await importKeyDocument(db, { text: apiKeysJson, source: 'API_KEYS' }) : undefined;
    if (imported?.imported) logger.info({ source: imported.source, added: imported.added.length }, `API keys of ${imported.source} imported into the database (once)`);
    blockList = new DatabaseBlockList(db, { clock, onError: onError('reading the blocks') });
    await blockList.refresh();
    blockList.start();
    recorder.start();
    if (config.access.blocking && options.expensiveOperations && options.expensiveOperations.length > 0) {
      monitor = new BlockingMonitor(db, {
        thresholds: config.access.blocking,
        expensiveOperations: options.expensiveOperations,
        clock,
        onError: onError('the blocking rules'),
        onBlock: (made) => {
          logger.warn({ subject: made.subject, rule: made.rule, until: made.until }, `blocked ${made.subject.kind} ${made.subject.id} until ${made.until}: ${made.reason}`);
          options.onBlock?.(made.rule);
        },
      });
      monitor.start();
    }
    return new DatabaseKeyStore(db, { clock });
  });
  ready.catch((error: Error) => logger.error({ err: { message: error.message } }, `the database did not open: ${error.message}`));
  // the blocks (and readBeforeAnswering) have been read once, or cannot be: requests stop waiting for them
  let blocksSettled = false;
  const blocksRead = Promise.all([ready, options.readBeforeAnswering]).then(() => undefined, () => undefined).finally(() => (blocksSettled = true));
  // a database that did not open cannot tell a key: the store is unavailable (503), not the key unknown
  const store = () => ready.catch((error: Error) => {
    throw new KeyStoreUnavailableError(`the database did not open: ${error.message}`, { cause: error });
  });
  const keys: KeyStore = {
    authenticate: async (presented: string): Promise<KnownKey | undefined> => (await store()).authenticate(presented),
    list: async () => (await store()).list(),
  };
  const blocks: BlockList = { blockOf: (subject) => blockList?.blockOf(subject), pending: () => (blocksSettled ? undefined : blocksRead) };
  return {
    keys,
    blocks,
    onOutcome: (outcome: AccessOutcome) => recorder.record(outcome),
    close: async () => {
      blockList?.stop();
      monitor?.stop();
      // what was counted is written if the database opened (a database still opening is not waited for)
      if (blockList) await recorder.stop().catch(onError('recording usage'));
    },
    records: {
      ready,
      flush: async () => {
        await ready;
        await recorder.flush();
      },
      refresh: async () => {
        await ready;
        await blockList?.refresh();
      },
      evaluate: async () => {
        await ready;
        return (await monitor?.evaluate()) ?? [];
      },
    } satisfies AccessRecords,
  };
}
