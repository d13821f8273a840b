/**
 * Opening the service's database: PGlite (PostgreSQL compiled to WebAssembly, in this process, in a thread of its
 * own: pgliteThread.ts) in a folder or in memory by default, so that `npm start` needs no server; a shared PostgreSQL server through a URL when several
 * instances run. Both are driven by Kysely with one schema, brought to the latest migration at open.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Kysely, PGliteDialect, PostgresDialect, sql } from 'kysely';
import { DEFAULT_DATABASE_DIR } from '../config';
import { MIGRATIONS, migrateToLatest } from './migrations';
import { PgliteThread } from './pgliteThread';
import type { Schema } from './schema';

export type DatabaseEngine = 'pglite' | 'postgres';

export interface DatabaseOptions {
  /** A PostgreSQL connection URL (DATABASE_URL): a server shared by every instance. */
  readonly url?: string;
  /** PGlite's folder (DATABASE_DIR), created if missing; undefined or `memory://`: in memory, gone at close. */
  readonly dir?: string;
  /** Run the migrations at open (default true); tests open without them to migrate step by step. */
  readonly migrate?: boolean;
  /** PostgreSQL: the most connections of the pool (default 10). */
  readonly poolSize?: number;
  /** PostgreSQL: told when an idle connection fails (the server restarted...); the next query reconnects. */
  readonly onConnectionError?: (error: Error) => void;
}

export interface Database {
  readonly db: Kysely<Schema>;
  readonly engine: DatabaseEngine;
  /** Where the data lives, for messages: PGlite's folder, `memory`, or the URL without its password. */
  readonly location: string;
  /** Resolves when the database answers a query (readiness), rejects otherwise. */
  ping(): Promise<void>;
  /** Closes the connections (and releases PGlite's folder); closing twice is harmless. */
  close(): Promise<void>;
}

const MEMORY = 'memory://';
/** The file in PGlite's folder that says which process has it open. */
const LOCK_FILE = 'xchain-router.pid';

/**
 * The database options of an environment: DATABASE_URL (a PostgreSQL server), else DATABASE_DIR (a PGlite folder,
 * relative to the working directory; `memory://` for none), else DEFAULT_DATABASE_DIR. Both set is an error.
 */
export function databaseOptionsFromEnv(env: Record<string, string | undefined>): DatabaseOptions {
  const url = env.DATABASE_URL?.trim();
  const dir = env.DATABASE_DIR?.trim();
  if (url && dir) throw new Error('set DATABASE_URL (a PostgreSQL server) or DATABASE_DIR (a PGlite folder), not both');
  if (url) return { url };
  if (dir) return { dir: dir === MEMORY ? MEMORY : path.resolve(dir) };
  return { dir: DEFAULT_DATABASE_DIR };
}

/**
 * Opens the database and runs the migrations not yet run: PGlite's in its own thread as it opens (pgliteWorker.ts),
 * PostgreSQL's from here.
 */
export async function openDatabase(options: DatabaseOptions = {}): Promise<Database> {
  if (options.url && options.dir) throw new Error('openDatabase takes a PostgreSQL url or a PGlite dir, not both');
  const migrate = options.migrate !== false;
  if (!options.url) return openPglite(options.dir, migrate);
  const database = openPostgres(options.url, options);
  try {
    if (migrate) await migrateToLatest(database.db);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

function openPostgres(url: string, options: DatabaseOptions): Database {
  // loaded when a server is named: node-postgres takes ~40 ms of a start that uses PGlite
  const { Pool } = require('pg') as typeof import('pg');
  const pool = new Pool({ connectionString: url, max: options.poolSize ?? 10 });
  // without a listener, an idle connection's error would be an uncaught 'error' event
  pool.on('error', (error) => options.onConnectionError?.(error));
  const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
  return database(db, 'postgres', withoutPassword(url), () => db.destroy());
}

async function openPglite(dir: string | undefined, migrate: boolean): Promise<Database> {
  if (dir === undefined || dir === MEMORY) {
    const pglite = await startPglite(undefined, migrate);
    const db = new Kysely<Schema>({ dialect: new PGliteDialect({ pglite: pglite.asPglite() }) });
    return database(db, 'pglite', 'memory', () => closePglite(db, pglite));
  }
  const folder = path.resolve(dir);
  fs.mkdirSync(folder, { recursive: true });
  const release = lockFolder(folder);
  try {
    const pglite = await startPglite(folder, migrate);
    const db = new Kysely<Schema>({ dialect: new PGliteDialect({ pglite: pglite.asPglite() }) });
    return database(db, 'pglite', folder, async () => {
      try {
        await closePglite(db, pglite);
      } finally {
        release();
      }
    });
  } catch (error) {
    release();
    throw error;
  }
}

/** PGlite in a thread of its own (pgliteThread.ts), once it has opened (and migrated); its thread ended if it could not. */
async function startPglite(folder: string | undefined, migrate: boolean): Promise<PgliteThread> {
  const pglite = new PgliteThread(folder, migrate ? { migrations: Object.keys(MIGRATIONS) } : {});
  try {
    await pglite.waitReady;
    return pglite;
  } catch (error) {
    await pglite.close();
    throw error;
  }
}

/** Kysely closes PGlite once it has used it; an instance it never used is closed here (and its thread ended). */
async function closePglite(db: Kysely<Schema>, pglite: PgliteThread): Promise<void> {
  await db.destroy();
  await pglite.close();
}

function database(db: Kysely<Schema>, engine: DatabaseEngine, location: string, shutdown: () => Promise<void>): Database {
  let closing: Promise<void> | undefined;
  return {
    db,
    engine,
    location,
    async ping() {
      await sql`select 1`.execute(db);
    },
    close() {
      closing ??= shutdown();
      return closing;
    },
  };
}

/** Folders this process holds open: a lock file naming this process's id is stale unless its folder is here. */
const openFolders = new Set<string>();

/**
 * PGlite is PostgreSQL in one process, with no lock of its own: two processes using one folder would corrupt it.
 * A lock file holds the owner's process id; a file left by a process that is gone is taken over.
 */
function lockFolder(folder: string): () => void {
  const file = path.join(folder, LOCK_FILE);
  if (openFolders.has(folder)) throw inUse(folder, process.pid, file);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      fs.writeFileSync(file, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      openFolders.add(folder);
      return () => {
        openFolders.delete(folder);
        fs.rmSync(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number.parseInt(fs.readFileSync(file, 'utf8'), 10);
      // our own id in the file is a leftover of an earlier run (a container restarts with the same id)
      if (Number.isInteger(owner) && owner !== process.pid && processExists(owner)) throw inUse(folder, owner, file);
      fs.rmSync(file, { force: true });
    }
  }
  throw new Error(`cannot lock the database folder ${folder} (${file} keeps coming back)`);
}

function inUse(folder: string, pid: number, file: string): Error {
  return new Error(
    `the database folder ${folder} is in use by process ${pid}: PGlite serves one process at a time ` +
      `(stop that process, or share a PostgreSQL server through DATABASE_URL; if no such process uses it, delete ${file})`,
  );
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // it exists, under another user
  }
}

function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres (DATABASE_URL)';
  }
}
