/**
 * The real server that the contract tests (run.ts, Dredd) and the conformance run (conformance.ts, Prism) check:
 * hermetic (its configuration comes from here, not from the caller's environment, but for the log level), on an
 * ephemeral loopback port, with three API keys generated for the run so that 401 (an unknown key), 403 (a blocked
 * key) and 429 (a key allowed one request a minute) can be driven. Its limits are the specified ones.
 */
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { handlers } from '../handlers';
import { loadConfig } from '../src/config';
import { generateApiKey, hashApiKey } from '../src/core/access/keys';
import { createApp } from '../src/server/app';
import { buildDependencies } from '../src/server/dependencies';
import { openDatabase, type Database } from '../src/persistence/database';
import { databaseHistory } from '../src/persistence/transfers';

export type KeyKind = 'valid' | 'blocked' | 'limited';

export interface TestServer {
  /** http://127.0.0.1:<port> */
  readonly url: string;
  readonly keys: Readonly<Record<KeyKind, string>>;
  /** Formats of the contract that the server's validator has no check for, with how often ajv warned about each. */
  readonly ignoredFormats: ReadonlyMap<string, number>;
  close(): Promise<void>;
}

/** Starts the server; `label` names its keys (`<label>-valid`…, "<label> tests"). */
export async function startTestServer(label: string, logLevel: string): Promise<TestServer> {
  const keys = { valid: generateApiKey(), blocked: generateApiKey(), limited: generateApiKey() };
  const keyDocument = {
    keys: [
      // name and integrators so that a 200 of GET /v1/keys/test has every field of the contract's example
      { id: `${label}-valid`, name: `${label} tests`, sha256: hashApiKey(keys.valid), perMinute: 1_000_000, integrators: ['example-dapp'] },
      { id: `${label}-blocked`, sha256: hashApiKey(keys.blocked), blocked: true, blockedReason: `${label} tests` },
      { id: `${label}-limited`, sha256: hashApiKey(keys.limited), perMinute: 1 },
    ],
  };
  const config = loadConfig({ LOG_LEVEL: logLevel, API_KEYS: JSON.stringify(keyDocument) });
  // the transfer index on a database of its own, in memory, opened on first use (empty: nothing is indexed)
  let database: Promise<Database> | undefined;
  const dependencies = buildDependencies(config, { history: databaseHistory(async () => (await (database ??= openDatabase({ dir: 'memory://' }))).db) });
  const ignoredFormats = new Map<string, number>();
  const app = await countingUnknownFormats(ignoredFormats, () => createApp(dependencies, config, { handlers, logger: pino({ level: config.logLevel }) }));
  const server: http.Server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', () => resolve());
    server.once('error', reject);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    keys,
    ignoredFormats,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await dependencies.access.close();
      if (database) await (await database).close();
    },
  };
}

/**
 * ajv warns once per schema location about every format it has no validator for (hundreds of lines while the
 * server compiles the contract): they are counted into `formats` instead of printed.
 */
async function countingUnknownFormats<T>(formats: Map<string, number>, build: () => Promise<T>): Promise<T> {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    const match = typeof args[0] === 'string' ? /^unknown format "([^"]+)" ignored in schema/.exec(args[0]) : null;
    if (match) formats.set(match[1]!, (formats.get(match[1]!) ?? 0) + 1);
    else warn(...args);
  };
  try {
    return await build();
  } finally {
    console.warn = warn;
  }
}
