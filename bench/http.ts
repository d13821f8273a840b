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
 *
 * Beside it: httpOptions.ts (the command line), httpService.ts (the processes), httpLoad.ts (a run of load).
 */
import { spawn } from 'node:child_process';
import { loadCatalog } from '../src/files/catalog';
import { loadSnapshot } from '../src/files/snapshot';
import { RoutingGraph } from '../src/core/routing/graph';
import { DEFAULT_DATA_DIR, DEFAULT_SNAPSHOT_DIR } from '../src/config';
import { buildRequestMix } from './requests';
import { startRedisServer } from '../test/support/redis';
import { startPostgresServer, type PostgresServer } from '../test/support/postgres';
import { combine, load, type Figures, type Request } from './httpLoad';
import { CONNECTIONS, DATABASE, LIFTED_LIMIT, LIMITS, ONLY, ROOT, ROUNDS, SECONDS, SERVICE, SOAK, STARTS, WALLET, WORKER_COUNTS } from './httpOptions';
import { measureStartUp, rssMb, start, startService, stop, type StartUp, type Started } from './httpService';

/** A latency for the table: tenths of a millisecond below 10 ms, whole milliseconds above. */
const ms = (value: number) => (value < 10 ? value.toFixed(1) : value.toFixed(0));

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
