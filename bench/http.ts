/**
 * npm run bench:http — the service under load on loopback (autocannon), endpoint by endpoint, each next to a
 * baseline express endpoint that returns a precomputed body of the same size. The service runs first with one
 * worker, then with two (WORKERS=2, node:cluster), and the figures are printed side by side. Each endpoint's
 * time is split in rounds that alternate service and baseline, so that a burst of other work on the machine
 * weighs on both. /v1/quote is measured twice: its first pass over the request mix (every request a new route
 * search: the mix with a wallet not seen before, 500 requests per round) and its steady state (the same
 * requests again, answered from the caches). Bounded in count and time; stops by itself. Rate limits are lifted
 * by configuration, not by a special code path: by default every limit is raised out of reach
 * (RATE_LIMIT_OVERRIDE) and still counted on every request as in production, in memory with one worker and in
 * a throw-away Redis (REDIS_URL, as WORKERS > 1 requires) with several; `--limits=off` runs with RATE_LIMITS=off
 * (nothing counted, as behind a gateway that limits) for comparison.
 *
 * The service is the production build (`npm run build`: dist/main.js, run with plain node), as `npm start` runs it.
 * Its database is a throw-away PostgreSQL server by default (DATABASE_URL, as several instances share one: keys,
 * usage per minute, blocks), `--database=embedded` the embedded PGlite of `npm start` (one worker only), `off` none.
 * Before the load, the start-up: `--starts` launches of the build, each timed to its first answer, its first quote
 * (a new connection) and its memory after start, with the database and without.
 *
 *   npm run bench:http -- [--service=build|source] [--connections=50] [--seconds=8] [--rounds=2] [--workers=1,2] [--soak=100000] [--limits=counted|off] [--database=postgres|embedded|off] [--starts=3] [--only=quote] [--node-args="--trace-gc"]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import autocannon from 'autocannon';
import { loadCatalog } from '../src/files/catalog';
import { loadSnapshot } from '../src/files/snapshot';
import { RoutingGraph } from '../src/core/routing/graph';
import { DEFAULT_DATA_DIR, DEFAULT_SNAPSHOT_DIR } from '../src/config';
import { buildRequestMix } from './requests';
import { startRedisServer, type RedisServer } from '../test/support/redis';
import { startPostgresServer, type PostgresServer } from '../test/support/postgres';
import { freePort } from '../test/support/processes';

const ROOT = path.resolve(__dirname, '..');
/** --name=value (split at the first `=`, so a value may hold more) */
const args = Object.fromEntries(process.argv.slice(2).map((a) => /^--([^=]+)(?:=(.*))?$/s.exec(a)?.slice(1) ?? [a, undefined])) as Record<string, string | undefined>;
const CONNECTIONS = Number(args.connections ?? 50);
const SECONDS = Number(args.seconds ?? 8);
const ROUNDS = Math.max(1, Number(args.rounds ?? 2));
const WORKER_COUNTS = String(args.workers ?? '1,2').split(',').map(Number).filter((n) => Number.isInteger(n) && n >= 1);
const SOAK = Number(args.soak ?? 100_000);
/** Only the endpoints whose name contains this text (e.g. --only=quote), all by default. */
const ONLY = args.only ? String(args.only) : undefined;
/** Node flags for the service (e.g. --node-args=--trace-gc or "--cpu-prof --max-semi-space-size=32"), space-separated. */
const NODE_ARGS = args['node-args'] ? String(args['node-args']).split(' ').filter(Boolean) : [];
const LIMITS = String(args.limits ?? 'counted');
if (LIMITS !== 'counted' && LIMITS !== 'off') throw new Error(`--limits must be counted or off (got ${LIMITS})`);
/** RATE_LIMIT_OVERRIDE's largest value: every limit that high, per window, is out of the benchmark's reach. */
const LIFTED_LIMIT = '120000000';
const WALLET = '0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea9';
const DATABASE = String(args.database ?? 'postgres');
if (!['postgres', 'embedded', 'off'].includes(DATABASE)) throw new Error(`--database must be postgres, embedded or off (got ${DATABASE})`);
const STARTS = Number(args.starts ?? 3);
/** `build` (default): the production build as npm start runs it; `source`: src/main.ts through tsx (npm run start:dev, and how earlier commits ran). */
const SERVICE = String(args.service ?? 'build');
if (SERVICE !== 'build' && SERVICE !== 'source') throw new Error(`--service must be build or source (got ${SERVICE})`);
const SERVICE_ARGS = SERVICE === 'build' ? [path.join(ROOT, 'dist', 'main.js')] : ['-r', 'tsx/cjs', 'src/main.ts'];

interface Started {
  child: ChildProcess;
  port: number;
}

function start(command: string, argv: string[], env: Record<string, string>, ready: RegExp): Promise<Started> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${command} did not start: ${out.slice(-500)}`)), 60_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = ready.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ child, port: Number(match[1]) });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`${command} exited with ${code}: ${out.slice(-500)}`)));
  });
}

/**
 * Resident memory of a process tree (the service and its cluster workers), in MB: now (VmRSS), or the peak of
 * each process since it started (VmHWM, the kernel's high-water mark), summed over the processes.
 */
function rssMb(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  const pids = [pid, ...childrenOf(pid)];
  let kb = 0;
  for (const p of pids) {
    try {
      const status = fs.readFileSync(`/proc/${p}/status`, 'utf8');
      kb += Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
    } catch {
      // gone
    }
  }
  return kb / 1024;
}

function childrenOf(pid: number): number[] {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number).flatMap((c) => [c, ...childrenOf(c)]);
  } catch {
    return [];
  }
}

/**
 * The live heap of the service: per process (primary and workers), the heap in use after its last major
 * collection (V8's Mark-Compact, read from --trace-gc), in MB. Unlike RSS, which moves with the garbage that V8
 * lets accumulate between major collections, it grows only with what the service keeps: the leak check.
 */
class LiveHeap {
  private readonly afterMajor = new Map<number, number>();
  majors = 0;

  /** Reads one line of the service's stdout; false when it is not a GC trace line. */
  read(line: string): boolean {
    if (!/^\[\d+:0x[0-9a-f]+\]\s+[\d.]+ ms: /.test(line)) return false;
    const major = /^\[(\d+):[^\]]*\]\s+[\d.]+ ms: Mark-Compact(?: \(reduce\))? [\d.]+ \([\d.]+\) -> ([\d.]+) \(/.exec(line);
    if (major) {
      this.afterMajor.set(Number(major[1]), Number(major[2]));
      this.majors += 1;
    }
    return true;
  }

  /** Sum over the processes of the heap after their last major collection (MB). */
  get mb(): number {
    let sum = 0;
    for (const mb of this.afterMajor.values()) sum += mb;
    return sum;
  }
}

/** --trace-gc as the user asked for it: then its lines are shown too. */
const TRACE_GC_ASKED = NODE_ARGS.includes('--trace-gc');

/** DATABASE_URL / DATABASE_DIR of the service for a --database choice (embedded: `npm start`'s default folder, with one worker). */
function databaseEnv(database: string, postgres: string | undefined): Record<string, string> {
  if (database === 'postgres' && postgres) return { DATABASE_URL: postgres, DATABASE_DIR: '' };
  if (database === 'embedded') return { DATABASE_URL: '', DATABASE_DIR: '' };
  return { DATABASE_URL: '', DATABASE_DIR: 'off' };
}

/** The real service (the production build) on a free loopback port; ready when /v1/chains answers. */
async function startService(workers: number, redis: RedisServer | undefined, postgres: string | undefined): Promise<Started & { heap: LiveHeap }> {
  const port = await freePort();
  // --trace-gc (one line per collection, a few per second under load) gives the live heap after major collections
  const child = spawn(process.execPath, [...NODE_ARGS, ...(TRACE_GC_ASKED ? [] : ['--trace-gc']), ...SERVICE_ARGS], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      WORKERS: String(workers),
      ...databaseEnv(workers > 1 && DATABASE === 'embedded' ? 'off' : DATABASE, postgres),
      ...(LIMITS === 'off' ? { RATE_LIMITS: 'off' } : { RATE_LIMITS: 'on', RATE_LIMIT_OVERRIDE: LIFTED_LIMIT, ...(redis ? { REDIS_URL: redis.url } : {}) }),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const heap = new LiveHeap();
  let partial = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop()!;
    for (const line of lines) if (!heap.read(line) || TRACE_GC_ASKED) process.stdout.write(`${line}\n`);
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/v1/chains`);
      if (res.ok) return { child, port, heap };
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGTERM');
  throw new Error('the service did not start within 60 s');
}

interface StartUp {
  /** From launch to the first answer of /v1/chains (ms). */
  readonly readyMs: number;
  /** The first quote, on a new connection, right after (ms, from connecting to the answer's last byte). */
  readonly firstQuoteMs: number;
  /** Resident memory of the service a second after its first quote (MB). */
  readonly rssMb: number;
}

/** Launches the build once (one worker), times its first answer and first quote, reads its memory, stops it. */
async function measureStartUp(database: string, postgres: string | undefined): Promise<StartUp> {
  const port = await freePort();
  const launched = performance.now();
  const child = spawn(process.execPath, SERVICE_ARGS, {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', WORKERS: '1', ...databaseEnv(database, postgres) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    let readyMs = 0;
    while (!readyMs) {
      if (performance.now() - launched > 60_000) throw new Error('the service did not start within 60 s');
      if (await fetch(`http://127.0.0.1:${port}/v1/chains`).then((r) => r.ok, () => false)) readyMs = performance.now() - launched;
      else await new Promise((r) => setTimeout(r, 5));
    }
    const quote = await rawGet(port, `/v1/quote?fromChain=42161&toChain=10&fromToken=USDC&toToken=USDC&fromAmount=1234567890&fromAddress=${WALLET}`);
    const firstQuoteMs = quote.ms;
    if (quote.status !== 200) throw new Error(`the first quote answered ${quote.status}`);
    await new Promise((r) => setTimeout(r, 1000));
    return { readyMs, firstQuoteMs, rssMb: rssMb(child.pid!) };
  } finally {
    await stop({ child, port });
  }
}

/**
 * A GET on a new connection, written and read on a plain socket (HTTP/1.1, `connection: close`: the answer ends with
 * the connection), timed from connecting to the last byte. The start-up's first quote is timed so because an HTTP
 * client's own first request on a new connection (undici's, fetch's) adds several milliseconds of its own cold code.
 */
function rawGet(port: number, requestPath: string): Promise<{ status: number; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const chunks: Buffer[] = [];
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(`GET ${requestPath} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nconnection: close\r\n\r\n`);
    });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => {
      const ms = performance.now() - started;
      const head = Buffer.concat(chunks).toString('latin1', 0, 64);
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), ms });
    });
    socket.on('error', reject);
  });
}

/** Stops a started process (and, for the service, its workers) and waits for it to exit. */
function stop(started: Started): Promise<void> {
  return new Promise((resolve) => {
    if (started.child.exitCode !== null || started.child.signalCode !== null) {
      resolve();
      return;
    }
    const timer = setTimeout(() => started.child.kill('SIGKILL'), 15_000);
    started.child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    started.child.kill('SIGTERM');
  });
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  requests: number;
  bytes: number;
}

type Request = { method?: string; path: string; body?: string };

/**
 * GET requests for `pathOf(0)`, `pathOf(1)`, … in the order they are sent, over all connections (one counter
 * shared by them). With a plain request list, every connection walks the same list from its start, so the 50
 * connections ask for the same URLs at nearly the same time and all but the first are answered from the cache.
 */
interface Walk {
  readonly pathOf: (n: number) => string;
}

type Load = Request[] | Walk;

async function load(port: number, paths: Load, options: { amount?: number; seconds?: number; connections?: number } = {}): Promise<Figures> {
  let sent = 0;
  const requests: autocannon.Request[] = Array.isArray(paths)
    ? paths.map((p) => ({ method: (p.method ?? 'GET') as 'GET', path: p.path, body: p.body, headers: p.body ? { 'content-type': 'application/json' } : {} }))
    : [{ method: 'GET', setupRequest: (request) => ({ ...request, path: paths.pathOf(sent++) }) }];
  const started = performance.now();
  const run = autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: options.connections ?? CONNECTIONS,
    ...(options.amount ? { amount: options.amount } : { duration: options.seconds ?? SECONDS }),
    requests,
  });
  // Latency of every answer, whatever its status, to the microsecond: autocannon's own percentiles count only
  // 2xx answers (not the mix's 404s) and in whole milliseconds (an uncached quote alone reads "0 ms").
  const latencies: number[] = [];
  (run as unknown as autocannon.Instance).on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => void latencies.push(ms));
  const result = await run;
  // autocannon's own `duration` counts whole ticks of its 1 s sampling: a run of 500 requests that took 1.1 s
  // or 1.9 s both read 2.02 s. Requests per second are counted over the run's own wall time instead.
  const seconds = (performance.now() - started) / 1000;
  return {
    rps: result.requests.total / Math.max(0.001, seconds),
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    requests: result.requests.total,
    bytes: result.throughput.total / Math.max(1, result.requests.total),
  };
}

/** The q-quantile of latencies (nearest rank), in ms. */
function percentile(values: number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** A latency for the table: tenths of a millisecond below 10 ms, whole milliseconds above. */
const ms = (value: number) => (value < 10 ? value.toFixed(1) : value.toFixed(0));

/** Rounds of one scenario combined: requests over the total time, the median of the p50s, the worst p99. */
function combine(rounds: Figures[]): Figures {
  const requests = rounds.reduce((n, r) => n + r.requests, 0);
  const seconds = rounds.reduce((n, r) => n + r.requests / Math.max(1e-9, r.rps), 0);
  const p50s = rounds.map((r) => r.p50).sort((a, b) => a - b);
  return {
    rps: requests / Math.max(1e-9, seconds),
    p50: p50s[Math.floor((p50s.length - 1) / 2)]!,
    p99: Math.max(...rounds.map((r) => r.p99)),
    errors: rounds.reduce((n, r) => n + r.errors, 0),
    non2xx: rounds.reduce((n, r) => n + r.non2xx, 0),
    requests,
    bytes: rounds.reduce((n, r) => n + r.bytes * r.requests, 0) / Math.max(1, requests),
  };
}

interface Row {
  service: Figures;
  base: Figures;
  /** RSS after the endpoint's rounds, and the peak RSS since the service started (MB). */
  rss: number;
  peak: number;
}

/** The status of an endpoint's first request: one that fails on the server's side (5xx) is reported instead of measured. */
async function probe(port: number, request: Request): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}${request.path}`, {
    method: request.method ?? 'GET',
    body: request.body,
    headers: request.body ? { 'content-type': 'application/json' } : {},
  });
  await res.arrayBuffer();
  return res.status;
}

/** How an endpoint is driven: a warm-up, then one round of load (rounds alternate with the baseline's). */
interface Scenario {
  readonly name: string;
  /** Concurrent connections of its rounds and of its baseline's (default --connections). */
  readonly connections?: number;
  /** The first request, sent once to see whether the endpoint is implemented. */
  readonly probe: Request;
  warmUp(port: number, workers: number): Promise<void>;
  round(port: number, round: number): Promise<Figures>;
}

/** Rounds of a fixed duration over a request list (each connection walks the list), after 200 requests of its first 20. */
function timed(name: string, paths: Request[]): Scenario {
  return {
    name,
    probe: paths[0]!,
    warmUp: async (port) => void (await load(port, paths.slice(0, 20), { amount: 200 })),
    round: (port) => load(port, paths, { seconds: Math.max(1, SECONDS / ROUNDS) }),
  };
}

async function measure(service: Started, workers: number, scenario: Scenario): Promise<Row> {
  await scenario.warmUp(service.port, workers);
  const first = await scenario.round(service.port, 0);
  const baseline = await start(process.execPath, ['-r', 'tsx/cjs', 'bench/httpBaseline.ts'], { BODY_BYTES: String(Math.round(first.bytes)) }, /listening (\d+)/);
  const serviceRounds = [first];
  const baseRounds: Figures[] = [];
  try {
    const { connections } = scenario;
    await load(baseline.port, [{ path: '/' }], { amount: 500, connections });
    baseRounds.push(await load(baseline.port, [{ path: '/' }], { seconds: Math.max(1, SECONDS / ROUNDS), connections }));
    for (let round = 1; round < ROUNDS; round++) {
      serviceRounds.push(await scenario.round(service.port, round));
      baseRounds.push(await load(baseline.port, [{ path: '/' }], { seconds: Math.max(1, SECONDS / ROUNDS), connections }));
    }
  } finally {
    await stop(baseline);
  }
  return { service: combine(serviceRounds), base: combine(baseRounds), rss: rssMb(service.child.pid!), peak: rssMb(service.child.pid!, 'VmHWM') };
}

const pad = (value: string | number, width: number) => String(value).padStart(width);
const NAME_WIDTH = 36;
const CELL_WIDTH = 57;

function cells(row: Row | string | undefined): string {
  if (row === undefined) return `${''.padStart(CELL_WIDTH)}`;
  if (typeof row === 'string') return row.padEnd(CELL_WIDTH);
  const { service: s, base: b } = row;
  return `${pad(s.rps.toFixed(0), 6)} ${pad(ms(s.p50), 4)} ${pad(ms(s.p99), 4)} ${pad(s.errors, 4)} ${pad(s.non2xx, 6)} ${pad(b.rps.toFixed(0), 6)} ${pad(ms(b.p99), 5)} ${pad(`${((s.rps / b.rps) * 100).toFixed(0)}%`, 5)} ${pad(row.rss.toFixed(0), 4)} ${pad(row.peak.toFixed(0), 4)}`;
}

async function main(): Promise<void> {
  const catalog = loadCatalog(DEFAULT_DATA_DIR);
  const graph = new RoutingGraph(catalog, loadSnapshot(DEFAULT_SNAPSHOT_DIR, catalog));
  const mix = buildRequestMix(graph, 500, 20240611);
  const q = (r: (typeof mix)[number]['request'], amountKey: 'fromAmount' | 'toAmount', wallet = WALLET) =>
    `fromChain=${r.fromChain.id}&toChain=${r.toChain.id}&fromToken=${r.fromToken.address}&toToken=${r.toToken.address}&${amountKey}=${r.amount}&fromAddress=${wallet}`;
  const quotes = mix.map((m) => ({ path: `/v1/quote?${q(m.request, 'fromAmount')}` }));
  // A request of the mix made new: another wallet (another key for the response cache and the quote cache) and an
  // amount raised by k raw units (k unique per pass over the mix, at most a few thousand units: nothing for 18
  // decimals, a few dollars at most for BTC's 8), so that no memo of an earlier search of the same amount (pool
  // quotes by amount) answers it either: every request is a new route search, as real traffic's are.
  const otherWallet = (tag: number, n: number) => `0x${tag.toString(16).padStart(2, '0')}${n.toString(16).padStart(38, '0')}`;
  const newQuote = (tag: number) => (n: number) => {
    const { request } = mix[n % mix.length]!;
    const pass = Math.floor(n / mix.length);
    const k = BigInt((tag === 0xff ? 0 : tag) * 1000 + pass + 1);
    return `/v1/quote?${q({ ...request, amount: request.amount + k }, 'fromAmount', otherWallet(tag, pass))}`;
  };
  const firstPass: Scenario = {
    name: 'GET /v1/quote first pass (uncached)',
    probe: quotes[0]!,
    // the mix once, made new: the process is warm (JIT) as a running service is
    warmUp: async (port) => void (await load(port, { pathOf: newQuote(0xff) }, { amount: mix.length })),
    // rounds as long as the other endpoints' (and the baseline's), every request made new
    round: (port, round) => load(port, { pathOf: newQuote(round + 1) }, { seconds: Math.max(1, SECONDS / ROUNDS) }),
  };
  // The same, one request at a time: what one integrator's new quote costs over HTTP when it does not queue
  // behind 49 others (tags after the 50-connection rounds' keep its wallets and amounts apart from theirs; the
  // warm-up's tag comes after its rounds', so that it warms the process on its own, e.g. with --only=connection).
  const firstPassAlone: Scenario = {
    name: 'GET /v1/quote first pass, 1 connection',
    connections: 1,
    probe: quotes[0]!,
    warmUp: async (port) => void (await load(port, { pathOf: newQuote(2 * ROUNDS + 1) }, { amount: mix.length, connections: 1 })),
    round: (port, round) => load(port, { pathOf: newQuote(ROUNDS + 1 + round) }, { seconds: Math.max(1, SECONDS / ROUNDS), connections: 1 }),
  };
  const steady: Scenario = {
    name: 'GET /v1/quote steady (cached)',
    probe: quotes[0]!,
    // the mix until every worker has answered (nearly) every request once: 2 passes, 8 with several workers
    warmUp: async (port, workers) => void (await load(port, { pathOf: (n) => quotes[n % quotes.length]!.path }, { amount: mix.length * (workers > 1 ? 8 : 2) })),
    round: (port) => load(port, { pathOf: (n) => quotes[n % quotes.length]!.path }, { seconds: Math.max(1, SECONDS / ROUNDS) }),
  };
  const toAmounts = mix.slice(0, 200).map((m) => {
    const usdc = catalog.findToken(m.request.toChain.id, 'USDC') ?? m.request.toToken;
    return { path: `/v1/quote/toAmount?${q({ ...m.request, toToken: usdc, amount: 10n ** BigInt(usdc.decimals) * 100n }, 'toAmount')}` };
  });
  const routes = mix.slice(0, 200).map((m) => ({
    method: 'POST',
    path: '/v1/advanced/routes',
    body: JSON.stringify({ fromChainId: m.request.fromChain.id, toChainId: m.request.toChain.id, fromTokenAddress: m.request.fromToken.address, toTokenAddress: m.request.toToken.address, fromAmount: m.request.amount.toString() }),
  }));
  const scenarios: Scenario[] = [
    firstPass,
    firstPassAlone,
    steady,
    timed('GET /v1/quote/toAmount', toAmounts),
    timed('POST /v1/advanced/routes', routes),
    timed('GET /v1/tokens', [{ path: '/v1/tokens' }]),
    timed('GET /v1/chains', [{ path: '/v1/chains' }]),
    // an unknown transfer: answered from what the service knows (NOT_FOUND), nothing to look up in the catalog
    timed('GET /v1/status', [{ path: `/v1/status?txHash=0x${'ab'.repeat(32)}` }]),
  ];

  const limitsText = LIMITS === 'off' ? 'rate limits off (RATE_LIMITS=off)' : `rate limits counted, raised to ${LIFTED_LIMIT} (RATE_LIMIT_OVERRIDE), in memory with 1 worker, in Redis with more`;
  process.stdout.write(`${CONNECTIONS} connections, ${SECONDS} s per endpoint in ${ROUNDS} round(s) alternating with the baseline; workers: ${WORKER_COUNTS.join(', ')}; ${limitsText}\n`);
  // the production build, as npm start runs it
  if (SERVICE === 'build') await new Promise<void>((resolve, reject) => spawn(process.execPath, ['scripts/build.mjs', '--quiet'], { cwd: ROOT, stdio: 'inherit' }).on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the build failed (${code})`)))));
  // several workers count limits in a shared store (as WORKERS > 1 requires): a throw-away Redis, stopped at the end
  const redis = LIMITS === 'counted' && WORKER_COUNTS.some((w) => w > 1) ? await startRedisServer() : undefined;
  // the database several instances share: a throw-away PostgreSQL server (or the embedded one, or none: --database)
  let postgresServer: PostgresServer | undefined;
  let postgres: string | undefined;
  const results = new Map<number, Map<string, Row | string>>();
  let soakLine = '';
  let startUpLines: string[] = [];
  try {
    postgresServer = DATABASE === 'postgres' || STARTS > 0 ? await startPostgresServer() : undefined;
    postgres = postgresServer ? await postgresServer.createDatabase('bench') : undefined;
    if (STARTS > 0) {
      // start-up, alternating the databases: PostgreSQL (a server), the embedded PGlite of npm start, none
      const byDatabase = new Map<string, StartUp[]>([['postgres', []], ['embedded', []], ['off', []]]);
      for (let k = 0; k < STARTS; k++) for (const [database, runs] of byDatabase) runs.push(await measureStartUp(database, postgres));
      const range = (values: number[], digits = 0) => `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;
      startUpLines = [...byDatabase].map(([database, runs]) =>
        `start-up, database ${database.padEnd(8)}: first answer ${range(runs.map((r) => r.readyMs))} ms, first quote ${range(runs.map((r) => r.firstQuoteMs), 1)} ms, RSS after start ${range(runs.map((r) => r.rssMb))} MB (${runs.length} launches of ${SERVICE === 'build' ? 'node dist/main.js' : 'src/main.ts through tsx'})`);
      process.stdout.write(`${startUpLines.join('\n')}\n`);
    }
    for (const workers of WORKER_COUNTS) {
      const service = await startService(workers, workers > 1 ? redis : undefined, postgres);
      const rows = new Map<string, Row | string>();
      results.set(workers, rows);
      process.stdout.write(`\n${workers} worker${workers > 1 ? 's' : ''} (service on :${service.port})\n`);
      try {
        for (const scenario of scenarios.filter((s) => ONLY === undefined || s.name.includes(ONLY))) {
          const { name } = scenario;
          const status = await probe(service.port, scenario.probe);
          if (status >= 500) {
            rows.set(name, `answers HTTP ${status}: not measured`);
          } else {
            rows.set(name, await measure(service, workers, scenario));
          }
          process.stdout.write(`  ${name.padEnd(NAME_WIDTH)} ${cells(rows.get(name))}\n`);
        }
        if (workers === WORKER_COUNTS[0] && SOAK > 0) {
          // Soak: RSS and the live heap after warm-up, then after each quarter of many more requests on the catalog
          // and quote endpoints: a live heap that does not keep rising means nothing grows per request.
          const soakPaths = [...quotes.slice(0, 100), { path: '/v1/tokens' }, { path: '/v1/chains' }];
          // warm-up as long as a quarter: the heap grows to its working band (garbage between major collections) first
          await load(service.port, soakPaths, { amount: Math.ceil(SOAK / 4) });
          const series = [rssMb(service.child.pid!)];
          // the live heap after the last major collection, marked * when none ran during the quarter (then it is older)
          const live = [`${service.heap.mb.toFixed(0)}`];
          let soakErrors = 0;
          for (let quarter = 0; quarter < 4; quarter++) {
            const majors = service.heap.majors;
            soakErrors += (await load(service.port, soakPaths, { amount: Math.ceil(SOAK / 4) })).errors;
            series.push(rssMb(service.child.pid!));
            live.push(`${service.heap.mb.toFixed(0)}${service.heap.majors === majors ? '*' : ''}`);
          }
          const [before, after] = [series[0]!, series[series.length - 1]!];
          soakLine =
            `soak (${workers} worker${workers > 1 ? 's' : ''}): RSS ${before.toFixed(0)} MB after warm-up, then after each quarter of ${SOAK} more requests ${series.slice(1).map((mb) => mb.toFixed(0)).join(' → ')} MB (${after - before >= 0 ? '+' : ''}${(after - before).toFixed(0)} MB in all; peak since start ${rssMb(service.child.pid!, 'VmHWM').toFixed(0)} MB), ${soakErrors} errors\n` +
            `  live heap after major collections (what the service keeps; RSS also holds the garbage between them): ${live[0]} MB after warm-up, then ${live.slice(1).join(' → ')} MB`;
          process.stdout.write(`  ${soakLine}\n`);
        }
      } finally {
        await stop(service);
      }
    }
  } finally {
    await redis?.stop();
    await postgresServer?.stop();
  }

  // Side by side: per worker count, the service's figures and the baseline measured next to them.
  const columns = `${pad('req/s', 6)} ${pad('p50', 4)} ${pad('p99', 4)} ${pad('err', 4)} ${pad('non2xx', 6)} ${pad('base', 6)} ${pad('b.p99', 5)} ${pad('ratio', 5)} ${pad('RSS', 4)} ${pad('peak', 4)}`;
  process.stdout.write(`\n${''.padEnd(NAME_WIDTH)} ${WORKER_COUNTS.map((w) => `${w} worker${w > 1 ? 's' : ' '}`.padEnd(CELL_WIDTH)).join(' | ')}\n`);
  process.stdout.write(`${'endpoint'.padEnd(NAME_WIDTH)} ${WORKER_COUNTS.map(() => columns).join(' | ')}\n`);
  for (const { name } of scenarios.filter((s) => ONLY === undefined || s.name.includes(ONLY))) {
    process.stdout.write(`${name.padEnd(NAME_WIDTH)} ${WORKER_COUNTS.map((w) => cells(results.get(w)?.get(name))).join(' | ')}\n`);
  }
  process.stdout.write(`\nlatencies in ms (p50: median of the rounds, p99: worst round); base, b.p99: the baseline express endpoint (one process) answering a body of the same size, its req/s and p99 in the same rounds; RSS: the service's (and its workers') resident memory in MB after the endpoint, peak: its highest since the service started (VmHWM, summed over the processes)\n`);
  if (soakLine) process.stdout.write(`${soakLine}\n`);
  for (const line of startUpLines) process.stdout.write(`${line}\n`);
  process.stdout.write(`${limitsText}; database: ${DATABASE === 'postgres' ? 'a PostgreSQL server (DATABASE_URL)' : DATABASE === 'embedded' ? 'embedded PGlite (one worker; none with more)' : 'none'}\n`);
  process.stdout.write('targets: /v1/quote first pass (every request new) ≥ 40% of baseline req/s with p99 ≤ 25 ms and 0 errors, one and two workers; one new quote at 1 connection p50 ≤ 0.5 ms, p99 ≤ 2 ms; steady (cached) ≥ 40%; catalog ≥ 80% of baseline; RSS ≤ 250 MB per worker under load and flat after warm-up; start-up ≤ 1 s to the first answer, first quote ≤ 5 ms\n');
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`bench:http failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
