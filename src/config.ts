import os from 'node:os';
import path from 'node:path';
import { parseAccessConfig, type AccessConfig } from './core/access/config';
import { loadChainsFile, type ChainsConfig } from './chainsConfig';
import { PROJECT_ROOT } from './projectRoot';

/** Log levels accepted by pino. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly logLevel: LogLevel;
  /** Folder holding the embedded catalog (chains.json, tokens.json, tools.json). */
  readonly dataDir: string;
  /** Folder holding the liquidity snapshot (pools.json, bridges.json, chains.json). */
  readonly snapshotDir: string;
  /** Path of the authoritative contract that the server validates against. */
  readonly openapiPath: string;
  /** API keys, rate limits and their store, dedicated-instance restrictions (src/core/access/config.ts). */
  readonly access: AccessConfig;
  /** HTTP worker processes (node:cluster), 1 = a single process. */
  readonly workers: number;
  /** Limits on requests and the browser policy (src/server/hardening.ts, docs/integrating.md "Limits on requests"). */
  readonly limits: RequestLimits;
  /** Chain mode (CHAINS_FILE, src/chainsConfig.ts): the EVM chains read over JSON-RPC; undefined = embedded snapshot only. */
  readonly chains?: ChainsConfig;
  /** FEE_LEDGER_FILE: the seeded fee ledger (default data/integrators/ledger.json; src/core/fees/ledger.ts). */
  readonly feeLedgerFile?: string;
  /**
   * The database of partners, integrators, keys, blocks and usage (src/persistence): DATABASE_URL (a PostgreSQL
   * server, shared by several instances) or DATABASE_DIR (an embedded PGlite folder, `memory://` for none on disk);
   * undefined: no database (keys from API_KEYS_FILE / API_KEYS only, no usage, no automatic blocking, no portal).
   * `npm start` uses DATABASE_DIR=.data/db unless told otherwise (src/main.ts; DATABASE_DIR=off for none).
   */
  readonly database?: DatabaseConfig;
  /**
   * PORTAL_ORIGIN: the origins the partner portal is served at (comma-separated, e.g. https://portal.example.com),
   * the only ones its sign-in messages and changes are accepted from; undefined = the listen address's
   * (portalOrigins(), for a browser on this machine).
   */
  readonly portalOrigins?: readonly string[];
  /**
   * PUBLIC_URL: the origin clients reach the service at (e.g. https://router.example.com), which the links of its
   * answers start with (a transfer's explorer page: lifiExplorerLink); default http://localhost:PORT.
   */
  readonly publicUrl: string;
  /** The integrators' webhooks (src/webhooks). */
  readonly webhooks: WebhookConfig;
  /** The gasless relayer (src/chain/relaying.ts); undefined: none, gasless transfers are not offered. */
  readonly relayer?: RelayerConfig;
}

export interface RelayerConfig {
  /**
   * RELAYER_PRIVATE_KEY: the relayer's hot wallet (0x and 64 hex digits), the same account on every connected EVM
   * chain with the service's Permit2 proxy. A function, so that the key is in no enumerable field of the
   * configuration (nothing that logs or serializes the configuration can print it).
   */
  readonly privateKey: () => string;
  /** RELAYER_BALANCE_FLOOR_WEI: below this balance a chain's relayer takes no new task (default 10^16 wei, 0.01 of the native coin). */
  readonly balanceFloorWei: bigint;
}

export interface WebhookConfig {
  /**
   * WEBHOOK_ALLOW_PRIVATE=true: webhooks may be sent over http and to loopback and private addresses (the sandbox,
   * tests, a receiver on the same network); link-local and cloud metadata addresses stay refused. Default false.
   */
  readonly allowPrivate: boolean;
}

export interface DatabaseConfig {
  readonly url?: string;
  readonly dir?: string;
}

export interface RequestLimits {
  /** MAX_BODY_BYTES: larger bodies get 413. */
  readonly maxBodyBytes: number;
  /** MAX_URL_BYTES: longer request targets (path and query) get 414. */
  readonly maxUrlBytes: number;
  /** REQUEST_TIMEOUT_MS: a request without an answer by then gets 503 code 1009; also the node server's time to receive a request. */
  readonly requestTimeoutMs: number;
  /** HEADERS_TIMEOUT_MS: a client that has not sent its complete headers by then gets 408 and is disconnected. */
  readonly headersTimeoutMs: number;
  /** CORS_ORIGINS: browser origins allowed on the public endpoints ('*' any, [] none). */
  readonly corsOrigins: '*' | readonly string[];
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

export const DEFAULT_DATA_DIR = path.join(PROJECT_ROOT, 'data', 'catalog');
export const DEFAULT_SNAPSHOT_DIR = path.join(PROJECT_ROOT, 'data', 'snapshot');
export const DEFAULT_OPENAPI_PATH = path.join(PROJECT_ROOT, 'openapi.yaml');
/** The embedded seed ledger of integrator fees (FEE_LEDGER_FILE replaces it). */
export const DEFAULT_LEDGER_FILE = path.join(PROJECT_ROOT, 'data', 'integrators', 'ledger.json');

/**
 * Builds the configuration from an explicit environment object (never reads process.env itself),
 * collecting every problem so that a bad start-up names all of them at once.
 */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const problems: string[] = [];

  const port = parsePort(env.PORT, problems);
  const host = env.HOST?.trim() || '0.0.0.0';
  const logLevel = (env.LOG_LEVEL?.trim() || 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${env.LOG_LEVEL}")`);
  }
  const dataDir = env.DATA_DIR?.trim() ? path.resolve(env.DATA_DIR.trim()) : DEFAULT_DATA_DIR;
  const snapshotDir = env.SNAPSHOT_DIR?.trim() ? path.resolve(env.SNAPSHOT_DIR.trim()) : DEFAULT_SNAPSHOT_DIR;
  const openapiPath = env.OPENAPI_PATH?.trim() ? path.resolve(env.OPENAPI_PATH.trim()) : DEFAULT_OPENAPI_PATH;
  const access = parseAccessConfig(env, problems, (p) => path.resolve(p));
  const limits = parseLimits(env, problems);
  const workers = parseWorkers(env.WORKERS, problems);
  if (workers > 1 && access.rateLimits === 'on' && !access.redisUrl) {
    problems.push(`WORKERS=${workers} needs REDIS_URL (or RATE_LIMITS=off): each worker would otherwise count its own limits`);
  }

  const chains = env.CHAINS_FILE?.trim() ? loadChainsFile(path.resolve(env.CHAINS_FILE.trim()), problems) : undefined;
  const feeLedgerFile = env.FEE_LEDGER_FILE?.trim() ? path.resolve(env.FEE_LEDGER_FILE.trim()) : undefined;
  const database = parseDatabase(env, problems);
  const portalOrigins = parsePortalOrigins(env.PORTAL_ORIGIN, problems);
  const publicUrl = parsePublicUrl(env.PUBLIC_URL, port, problems);
  const allowPrivate = parseFlag('WEBHOOK_ALLOW_PRIVATE', env.WEBHOOK_ALLOW_PRIVATE, problems);
  const relayer = parseRelayer(env, { chains: chains !== undefined, database: database !== undefined }, problems);
  if (workers > 1 && database?.dir) {
    problems.push(`WORKERS=${workers} needs DATABASE_URL (a PostgreSQL server) or DATABASE_DIR=off: an embedded database folder opens in one process only`);
  }

  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze({
    port, host, logLevel, dataDir, snapshotDir, openapiPath, access, limits, workers,
    ...(chains ? { chains } : {}), ...(feeLedgerFile ? { feeLedgerFile } : {}), ...(database ? { database } : {}),
    ...(portalOrigins ? { portalOrigins } : {}),
    publicUrl, webhooks: Object.freeze({ allowPrivate }),
    ...(relayer ? { relayer } : {}),
  });
}

/** RELAYER_PRIVATE_KEY and RELAYER_BALANCE_FLOOR_WEI; the relayer sends on the connected chains and keeps its tasks in the database. */
function parseRelayer(env: Record<string, string | undefined>, has: { chains: boolean; database: boolean }, problems: string[]): RelayerConfig | undefined {
  const key = env.RELAYER_PRIVATE_KEY?.trim();
  const floor = env.RELAYER_BALANCE_FLOOR_WEI?.trim();
  if (!key) {
    if (floor) problems.push('RELAYER_BALANCE_FLOOR_WEI is set without RELAYER_PRIVATE_KEY');
    return undefined;
  }
  // the key itself is never repeated in a message
  if (!/^0x[0-9a-fA-F]{64}$/.test(key)) problems.push('RELAYER_PRIVATE_KEY must be 0x and 64 hex digits (a private key)');
  if (!has.chains) problems.push('RELAYER_PRIVATE_KEY needs CHAINS_FILE: the relayer sends on the connected chains');
  if (!has.database) problems.push('RELAYER_PRIVATE_KEY needs a database (DATABASE_URL or DATABASE_DIR): the relay tasks are kept there');
  if (floor !== undefined && floor !== '' && !/^(0|[1-9][0-9]{0,40})$/.test(floor)) problems.push(`RELAYER_BALANCE_FLOOR_WEI must be a whole number of wei (got ${floor})`);
  const balanceFloorWei = floor && /^(0|[1-9][0-9]{0,40})$/.test(floor) ? BigInt(floor) : 10n ** 16n;
  return Object.freeze({ privateKey: () => key, balanceFloorWei });
}

function parsePublicUrl(raw: string | undefined, port: number, problems: string[]): string {
  if (raw === undefined || raw.trim() === '') return `http://localhost:${port}`;
  const trimmed = raw.trim().replace(/\/+$/, '');
  if (!isOrigin(trimmed)) problems.push(`PUBLIC_URL must be the origin clients reach the service at, such as https://router.example.com, without a path (got ${raw})`);
  return trimmed;
}

function parseFlag(name: string, raw: string | undefined, problems: string[]): boolean {
  const value = raw?.trim().toLowerCase();
  if (value === undefined || value === '' || value === 'false' || value === '0') return false;
  if (value === 'true' || value === '1') return true;
  problems.push(`${name} must be true or false (got ${raw})`);
  return false;
}

/** DATABASE_DIR that `npm start` uses when neither DATABASE_URL nor DATABASE_DIR is set. */
/** PGlite's folder when neither DATABASE_URL nor DATABASE_DIR is set (git-ignored). */
export const DEFAULT_DATABASE_DIR = path.join(PROJECT_ROOT, '.data', 'db');

function parseDatabase(env: Record<string, string | undefined>, problems: string[]): DatabaseConfig | undefined {
  const url = env.DATABASE_URL?.trim();
  const dir = env.DATABASE_DIR?.trim();
  if (url && dir && dir !== 'off') problems.push('DATABASE_URL and DATABASE_DIR are both set: a PostgreSQL server or an embedded folder, not both');
  if (url) {
    let protocol = '';
    try {
      protocol = new URL(url).protocol;
    } catch {
      protocol = '';
    }
    if (protocol !== 'postgres:' && protocol !== 'postgresql:') problems.push('DATABASE_URL must be a postgres:// or postgresql:// URL');
    return Object.freeze({ url });
  }
  if (!dir || dir === 'off') return undefined;
  return Object.freeze({ dir: dir === 'memory://' ? dir : path.resolve(dir) });
}

function parseWorkers(raw: string | undefined, problems: string[]): number {
  if (raw === undefined || raw.trim() === '') return 1;
  const trimmed = raw.trim();
  if (trimmed === 'auto') return Math.max(1, os.availableParallelism());
  if (!/^[0-9]+$/.test(trimmed) || Number(trimmed) < 1 || Number(trimmed) > 64) {
    problems.push(`WORKERS must be an integer from 1 to 64 or auto (got "${raw}")`);
    return 1;
  }
  return Number(trimmed);
}

function parseLimits(env: Record<string, string | undefined>, problems: string[]): RequestLimits {
  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name]?.trim();
    if (!raw) return fallback;
    if (!/^[0-9]+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got "${env[name]}")`);
      return fallback;
    }
    return Number(raw);
  };
  const maxBodyBytes = integer('MAX_BODY_BYTES', 1_048_576, 1024, 104_857_600);
  // node refuses request heads over 16 KB itself (431), so a larger URL limit would never apply
  const maxUrlBytes = integer('MAX_URL_BYTES', 8192, 256, 16_384);
  const requestTimeoutMs = integer('REQUEST_TIMEOUT_MS', 30_000, 100, 600_000);
  const headersTimeoutMs = integer('HEADERS_TIMEOUT_MS', 10_000, 100, 600_000);
  if (headersTimeoutMs > requestTimeoutMs) {
    problems.push(`HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not exceed REQUEST_TIMEOUT_MS (${requestTimeoutMs})`);
  }
  const origins = (env.CORS_ORIGINS?.trim() || '*').split(',').map((o) => o.trim()).filter((o) => o !== '');
  let corsOrigins: '*' | readonly string[] = '*';
  if (origins.length === 1 && origins[0] === 'none') corsOrigins = Object.freeze([]);
  else if (!(origins.length === 1 && origins[0] === '*')) {
    const bad = origins.filter((o) => !isOrigin(o));
    if (bad.length > 0) problems.push(`CORS_ORIGINS must be *, none or a comma-separated list of origins such as https://app.example.com (bad: ${bad.join(', ')})`);
    corsOrigins = Object.freeze(origins);
  }
  return Object.freeze({ maxBodyBytes, maxUrlBytes, requestTimeoutMs, headersTimeoutMs, corsOrigins });
}

function parsePortalOrigins(raw: string | undefined, problems: string[]): readonly string[] | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const origins = raw.split(',').map((o) => o.trim()).filter((o) => o !== '');
  const bad = origins.filter((o) => !isOrigin(o));
  if (bad.length > 0 || origins.length === 0) {
    problems.push(`PORTAL_ORIGIN must be the origin (or a comma-separated list of origins) browsers open the portal at, such as https://portal.example.com, without a path (bad: ${bad.join(', ') || raw})`);
  }
  return Object.freeze(origins);
}

/**
 * The portal's origins: PORTAL_ORIGIN's, else those of a browser on this machine reaching the listen address
 * (localhost, 127.0.0.1 and [::1] on the port; the listen host too when it is one address, not 0.0.0.0 or ::).
 */
export function portalOrigins(config: Pick<Config, 'portalOrigins' | 'host'>, port: number): readonly string[] {
  if (config.portalOrigins) return config.portalOrigins;
  const hosts = ['localhost', '127.0.0.1', '[::1]'];
  const listen = config.host.includes(':') ? `[${config.host}]` : config.host;
  if (!['0.0.0.0', '[::]', ...hosts].includes(listen)) hosts.push(listen);
  return hosts.map((host) => new URL(`http://${host}:${port}`).origin);
}

function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value;
  } catch {
    return false;
  }
}

function parsePort(raw: string | undefined, problems: string[]): number {
  if (raw === undefined || raw.trim() === '') return 8080;
  const trimmed = raw.trim();
  if (!/^[0-9]+$/.test(trimmed) || Number(trimmed) > 65535) {
    problems.push(`PORT must be an integer from 0 to 65535 (got "${raw}")`);
    return 8080;
  }
  return Number(trimmed);
}
