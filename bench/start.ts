/**
 * npm run bench:start — how soon a start answers (issue 35: "a start in under a second"). Launches the service again
 * and again, each launch timed from the command to its first 200 of `GET /health` (it is up and answers), of
 * `GET /v1/chains` (an operation, behind the access checks, which wait for the database's blocks) and of `GET /ready`
 * (polled every 5 ms, each poll on a new connection), then stopped (SIGTERM) before the next.
 *
 * Configurations, launched in turn (round-robin, so that other work on the machine weighs on each alike):
 *
 * - `npm start`, with the embedded database (PGlite, as npm start has it by default) and without (`DATABASE_DIR=off`):
 *   a second `npm start` with nothing changed (the build is made up to date first, the database's folder is made by
 *   a first launch that is not counted); the command's own cost (npm, the staleness check) included;
 * - `node dist/main.js`, the same two: the service's own start.
 *
 * The database's folder is a throw-away one (the launches need it to themselves: PGlite serves one process), so a
 * service already running on `.data/db` is not disturbed. `LOG_LEVEL=warn`; a free loopback port per launch.
 * Targets are printed next to the figures (medians), never asserted (exit code 0). Not part of `npm test`.
 *
 *   npm run bench:start -- [--starts=7] [--only=npm]   (--only: the configurations whose name contains the text)
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');
/** --name=value */
const args = Object.fromEntries(process.argv.slice(2).map((a) => /^--([^=]+)(?:=(.*))?$/s.exec(a)?.slice(1) ?? [a, undefined])) as Record<string, string | undefined>;
const STARTS = Math.max(1, Number(args.starts ?? 7));
const ONLY = args.only;
/** Issue 35: the first answer within 1 s of the command, /ready within another second. */
const FIRST_ANSWER_TARGET_MS = 1000;
const READY_AFTER_FIRST_TARGET_MS = 1000;
const POLL_MS = 5;
const LAUNCH_TIMEOUT_MS = 60_000;
/** What a first `npm start` leaves for the next (scripts/build.mjs). */
const CODE_CACHE = path.join(ROOT, 'dist', 'main.js.cache');

interface Configuration {
  readonly name: string;
  readonly command: readonly string[];
  readonly database: boolean;
}

interface Launch {
  /** From the command to the first 200 of GET /health, ms. */
  readonly alive: number;
  /** From the command to the first 200 of GET /v1/chains, ms. */
  readonly firstAnswer: number;
  /** From the command to the first 200 of GET /ready, ms. */
  readonly ready: number;
}

const CONFIGURATIONS: readonly Configuration[] = [
  { name: 'npm start, embedded database', command: ['npm', 'start'], database: true },
  { name: 'npm start, no database', command: ['npm', 'start'], database: false },
  { name: 'node dist/main.js, embedded database', command: [process.execPath, 'dist/main.js'], database: true },
  { name: 'node dist/main.js, no database', command: [process.execPath, 'dist/main.js'], database: false },
].filter((c) => !ONLY || c.name.includes(ONLY));

async function main(): Promise<void> {
  console.log(`bench:start: ${STARTS} launches per configuration; ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}; Node ${process.version}`);
  // a second start: the build up to date, as `npm start` left it
  execFileSync(process.execPath, ['scripts/build.mjs', '--quiet', '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-start-'));
  const databaseDir = path.join(folder, 'db');
  try {
    // the first launch on a new folder makes it (initdb, several seconds), and a first npm start writes the code
    // cache once warm (scripts/build.mjs): not counted
    fs.rmSync(CODE_CACHE, { force: true });
    await launch({ name: 'first launch (makes the database folder and the code cache)', command: ['npm', 'start'], database: true }, databaseDir, () => fs.existsSync(CODE_CACHE));
    const launches = new Map<Configuration, Launch[]>(CONFIGURATIONS.map((c) => [c, []]));
    for (let round = 0; round < STARTS; round++) {
      for (const configuration of CONFIGURATIONS) {
        const timed = await launch(configuration, databaseDir);
        launches.get(configuration)!.push(timed);
        process.stdout.write(`  ${configuration.name}: /health ${Math.round(timed.alive)} ms, first answer ${Math.round(timed.firstAnswer)} ms, ready ${Math.round(timed.ready)} ms\n`);
      }
    }
    console.log(`\nmedians of ${STARTS} launches (min–max), load average now ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}:`);
    for (const [configuration, timed] of launches) {
      const alive = timed.map((t) => t.alive);
      const first = timed.map((t) => t.firstAnswer);
      const ready = timed.map((t) => t.ready);
      console.log(`  ${configuration.name.padEnd(38)} /health ${figure(alive)}   first answer ${figure(first)}   /ready ${figure(ready)}`);
    }
    console.log('\ntargets (issue 35): a second `npm start` answers within 1 s of the command, /ready within another second');
    for (const [configuration, timed] of launches) {
      if (configuration.command[0] !== 'npm') continue;
      const alive = median(timed.map((t) => t.alive));
      const first = median(timed.map((t) => t.firstAnswer));
      const afterAlive = median(timed.map((t) => t.ready - t.alive));
      console.log(
        `  ${configuration.name}: /health ${Math.round(alive)} ms ${met(alive <= FIRST_ANSWER_TARGET_MS)}, GET /v1/chains ${Math.round(first)} ms ${met(first <= FIRST_ANSWER_TARGET_MS)}; /ready ${Math.round(afterAlive)} ms after /health ${met(afterAlive <= READY_AFTER_FIRST_TARGET_MS)}`,
      );
    }
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

/** Launches the configuration, times its first answers, stops it (once `hold` is true, when given) and waits for it to exit. */
async function launch(configuration: Configuration, databaseDir: string, hold?: () => boolean): Promise<Launch> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', WORKERS: '1', DATABASE_DIR: configuration.database ? databaseDir : 'off' };
  delete env.DATABASE_URL;
  // `npm start` as typed in a terminal: the variables of the `npm run bench:start` this runs under (npm_config_*...)
  // made the nested npm take ~1 s more
  for (const name of Object.keys(env)) if (name.startsWith('npm_')) delete env[name];
  const started = performance.now();
  // a process group of its own: npm's shell and node are stopped with it
  const child = spawn(configuration.command[0], configuration.command.slice(1), { cwd: ROOT, env, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const gone = () => child.exitCode !== null || child.signalCode !== null;
    const alive = (await until(port, '/health', started, gone)) - started;
    const firstAnswer = (await until(port, '/v1/chains', started, gone)) - started;
    const ready = (await until(port, '/ready', started, gone)) - started;
    while (hold && !hold()) {
      if (gone() || performance.now() - started > LAUNCH_TIMEOUT_MS) throw new Error('the condition to stop was not met');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return { alive, firstAnswer, ready };
  } catch (error) {
    throw new Error(`${configuration.name}: ${(error as Error).message}\n${errors}`);
  } finally {
    if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
    await exited;
    // npm exits before the service it started has closed its database: the next launch waits for the whole group
    if (child.pid !== undefined) await groupGone(child.pid);
  }
}

/** Resolves once no process of the group `pgid` is left. */
async function groupGone(pgid: number): Promise<void> {
  for (;;) {
    try {
      process.kill(-pgid, 0);
    } catch {
      return; // ESRCH: none left
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Polls `path` until it answers 200; resolves with the time it did (performance.now()). */
async function until(port: number, pathname: string, since: number, gone: () => boolean): Promise<number> {
  for (;;) {
    if ((await status(port, pathname)) === 200) return performance.now();
    if (gone()) throw new Error(`the service exited before ${pathname} answered 200`);
    if (performance.now() - since > LAUNCH_TIMEOUT_MS) throw new Error(`${pathname} did not answer 200 within ${LAUNCH_TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** The status of a GET on a new connection, 0 when it failed (nothing listening yet). */
function status(port: number, pathname: string): Promise<number> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: pathname, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(0));
    });
    req.on('error', () => resolve(0));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function figure(values: readonly number[]): string {
  return `${String(Math.round(median(values))).padStart(5)} ms (${Math.round(Math.min(...values))}–${Math.round(Math.max(...values))})`;
}

function met(ok: boolean): string {
  return ok ? 'met' : 'NOT met';
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
