import path from 'node:path';
import { parseAccessConfig, type AccessConfig } from './core/access/config';

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
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

const PROJECT_ROOT = path.resolve(__dirname, '..');
export const DEFAULT_DATA_DIR = path.join(PROJECT_ROOT, 'data', 'catalog');
export const DEFAULT_SNAPSHOT_DIR = path.join(PROJECT_ROOT, 'data', 'snapshot');
export const DEFAULT_OPENAPI_PATH = path.join(PROJECT_ROOT, 'openapi.yaml');

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

  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze({ port, host, logLevel, dataDir, snapshotDir, openapiPath, access });
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
