/**
 * A throw-away PostgreSQL server for tests, as redis.ts does for redis-server: installs Debian's postgresql
 * package when its binaries are missing (CI starts from a clean machine), initialises a cluster in a temporary
 * folder, starts it on a free loopback port, and stops it afterwards, folder removed. No process is left behind,
 * even if a test fails: a server not stopped does not keep the test process alive, and a watchdog shuts it down
 * (and removes its folder) when that process is gone, however it ended; an interrupt from the terminal reaches the
 * server too (it shares the process group).
 *
 * PostgreSQL refuses to run as root: as root, initdb and postgres run as the `postgres` system user that the
 * package creates (spawn's uid/gid), in a folder owned by it.
 *
 * Also here: the two engines every persistence test runs on (`databaseEngines`), PGlite in memory and this server.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { sql } from 'kysely';
import { openDatabase, type Database, type DatabaseOptions } from '../../src/persistence/database';
import { freePort, untilReady } from './processes';
import { ensureDebianPackage, which } from './debian';

export interface PostgresServer {
  readonly port: number;
  /** Connection URL of the `postgres` database (superuser `postgres`, trust authentication on loopback). */
  readonly url: string;
  /** Creates an empty database and returns its URL. */
  createDatabase(name?: string): Promise<string>;
  /** Stops the server (fast shutdown, then SIGKILL after 5 s) and deletes its folder; its data is gone. */
  stop(): Promise<void>;
}

interface SystemUser {
  readonly uid: number;
  readonly gid: number;
}


/** Starts a fresh PostgreSQL server on 127.0.0.1 and a free port. */
export async function startPostgresServer(): Promise<PostgresServer> {
  const bin = ensurePostgresBinaries();
  const user = process.getuid?.() === 0 ? postgresUser() : undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'postgres-test-'));
  const data = path.join(dir, 'data');
  try {
    if (user) fs.chownSync(dir, user.uid, user.gid);
    let databases = 0;
    run(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '--encoding=UTF8', '--locale=C'], dir, user);
    let lastError: Error | undefined;
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const port = await freePort();
      try {
        const child = await launch(path.join(bin, 'postgres'), data, dir, port, user);
        const guard = watchdog(child, dir);
        const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
        return {
          port,
          url,
          async createDatabase(name = `test_${++databases}`) {
            const client = new Client({ connectionString: url });
            await client.connect();
            try {
              await client.query(`CREATE DATABASE "${name}"`);
            } finally {
              await client.end();
            }
            return `postgres://postgres@127.0.0.1:${port}/${name}`;
          },
          async stop() {
            guard.kill('SIGKILL');
            await terminate(child);
            fs.rmSync(dir, { recursive: true, force: true });
          },
        };
      } catch (error) {
        lastError = error as Error; // most likely the port was taken meanwhile: try another
      }
    }
    throw lastError ?? new Error('postgres did not start');
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** The folder of initdb and postgres, installing Debian's postgresql package first when they are missing. */
export function ensurePostgresBinaries(): string {
  return ensureDebianPackage('postgresql', findBinaries);
}

/** Debian keeps the server binaries out of PATH, in /usr/lib/postgresql/<major>/bin: the newest major wins. */
function findBinaries(): string | undefined {
  const root = '/usr/lib/postgresql';
  const majors = fs.existsSync(root) ? fs.readdirSync(root).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a)) : [];
  for (const major of majors) {
    const bin = path.join(root, major, 'bin');
    if (fs.existsSync(path.join(bin, 'initdb')) && fs.existsSync(path.join(bin, 'postgres'))) return bin;
  }
  const initdb = which('initdb');
  return initdb && which('postgres') ? path.dirname(fs.realpathSync(initdb)) : undefined;
}

function postgresUser(): SystemUser {
  const result = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const group = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (result.status !== 0 || group.status !== 0) {
    throw new Error('PostgreSQL refuses to run as root and there is no `postgres` user (the postgresql package creates it)');
  }
  return { uid: Number(result.stdout.trim()), gid: Number(group.stdout.trim()) };
}


function run(command: string, args: string[], cwd: string, user: SystemUser | undefined): void {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 60_000, ...(user ?? {}) });
  if (result.status !== 0) {
    throw new Error(`${path.basename(command)} failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`.slice(-4000));
  }
}


function launch(binary: string, data: string, dir: string, port: number, user: SystemUser | undefined): Promise<ChildProcess> {
  // the socket goes to the test's folder (the package's /var/run/postgresql may not exist); durability is off
  const args = ['-D', data, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${dir}`, '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'];
  const child = spawn(binary, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], ...(user ?? {}) });
  // a server a test forgot to stop must not keep the test process alive (its watchdog stops it): unref
  return untilReady(child, { what: `postgres on port ${port}`, readyLine: 'database system is ready to accept connections', readyOn: 'stderr', timeoutMs: 20_000, unref: true });
}

/**
 * SIGINT is PostgreSQL's fast shutdown (clients disconnected, then every server process ends); SIGKILL after 5 s
 * (its other processes end by themselves when they see the main one gone).
 */
function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGINT');
  });
}

/**
 * Shuts the server down (SIGQUIT, PostgreSQL's immediate shutdown) and removes its folder once this process is gone,
 * whether it stopped the server or not: a shell loop that checks every second that this process lives. An exit hook
 * cannot do it under jest (the `process` a test sees is a copy whose 'exit' listeners never run), nor after a crash.
 * stop() kills the watchdog first.
 */
function watchdog(server: ChildProcess, dir: string): ChildProcess {
  const script = `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; kill -QUIT ${server.pid} 2>/dev/null; sleep 2; rm -rf '${dir}'`;
  const child = spawn('sh', ['-c', script], { stdio: 'ignore', detached: true });
  child.unref();
  return child;
}

/** One engine of the persistence tests. */
export interface TestEngine {
  readonly name: 'PGlite' | 'Postgres';
  /** Starts the engine (the server, the shared database); in beforeAll. */
  start(): Promise<void>;
  /** Closes every database opened through the engine, stops the server, removes folders; in afterAll. */
  stop(): Promise<void>;
  /** The migrated database the file's tests share (PGlite in memory, or a database of the server); see emptyTables. */
  shared(): Database;
  /**
   * Another connection to the shared database, to run statements at the same time as `shared()`: a second pool on
   * PostgreSQL; PGlite has a single connection, so it is the same object there.
   */
  secondConnection(): Promise<Database>;
  /**
   * Where a new, empty database lives: a new database of the PostgreSQL server; for PGlite, memory (it opens faster),
   * or with `reopen` (a database that outlives a close) a new temporary folder.
   */
  newDatabase(options?: { readonly reopen?: boolean }): Promise<DatabaseOptions>;
  /** openDatabase, closed at stop() unless the test closes it. */
  open(options: DatabaseOptions): Promise<Database>;
}

/**
 * The two engines, for `describe.each(databaseEngines())`: PGlite, and a real PostgreSQL server started for the
 * describe block (beforeAll: engine.start(), afterAll: engine.stop()).
 */
export function databaseEngines(): TestEngine[] {
  return [testEngine('PGlite'), testEngine('Postgres')];
}

function testEngine(name: TestEngine['name']): TestEngine {
  let server: PostgresServer | undefined;
  let shared: Database | undefined;
  let sharedUrl: string | undefined;
  const opened: Database[] = [];
  const folders: string[] = [];
  const open = async (options: DatabaseOptions): Promise<Database> => {
    const database = await openDatabase(options);
    opened.push(database);
    return database;
  };
  return {
    name,
    async start() {
      if (name === 'Postgres') {
        server = await startPostgresServer();
        sharedUrl = await server.createDatabase();
      }
      shared = await open(sharedUrl ? { url: sharedUrl } : {});
    },
    async stop() {
      await Promise.all(opened.map((database) => database.close()));
      await server?.stop();
      for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
    },
    shared() {
      if (!shared) throw new Error(`the ${name} engine is not started (beforeAll: engine.start())`);
      return shared;
    },
    async secondConnection() {
      return sharedUrl ? open({ url: sharedUrl }) : this.shared();
    },
    async newDatabase(options = {}) {
      if (server) return { url: await server.createDatabase() };
      if (!options.reopen) return { dir: 'memory://' };
      const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'pglite-test-'));
      folders.push(folder);
      return { dir: path.join(folder, 'db') };
    },
    open,
  };
}

/** Empties every table (between tests that share one database). */
export async function emptyTables(database: Database): Promise<void> {
  const tables = await database.db.introspection.getTables();
  if (tables.length === 0) return;
  await sql`TRUNCATE ${sql.join(tables.map((table) => sql.table(table.name)))} RESTART IDENTITY CASCADE`.execute(database.db);
}
