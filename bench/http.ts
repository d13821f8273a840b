/**
 * npm run bench:http — the service under load on loopback (autocannon), endpoint by endpoint, each next to a
 * baseline express endpoint that returns a precomputed body of the same size. Bounded in count and time;
 * stops by itself. Rate limits are lifted by configuration (RATE_LIMITS=off), not by a special code path.
 *
 *   npm run bench:http -- [--connections=50] [--seconds=8] [--workers=1] [--soak=100000]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { loadCatalog } from '../src/core/catalog/load';
import { loadSnapshot } from '../src/core/liquidity/load';
import { RoutingGraph } from '../src/core/routing/graph';
import { DEFAULT_DATA_DIR, DEFAULT_SNAPSHOT_DIR } from '../src/config';
import { buildRequestMix } from './requests';

const ROOT = path.resolve(__dirname, '..');
const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')) as [string, string][]);
const CONNECTIONS = Number(args.connections ?? 50);
const SECONDS = Number(args.seconds ?? 8);
const WORKERS = Number(args.workers ?? 1);
const SOAK = Number(args.soak ?? 100_000);
const WALLET = '0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea9';

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

/** Resident memory of a process tree (the service and its cluster workers), in MB. */
function rssMb(pid: number): number {
  const pids = [pid, ...childrenOf(pid)];
  let kb = 0;
  for (const p of pids) {
    try {
      const status = fs.readFileSync(`/proc/${p}/status`, 'utf8');
      kb += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
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

async function freePort(): Promise<number> {
  const net = await import('node:net');
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

/** The real service (src/main.ts) on a free loopback port; ready when /v1/chains answers. */
async function startService(): Promise<Started> {
  const port = await freePort();
  const child = spawn(process.execPath, ['-r', 'tsx/cjs', 'src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMITS: 'off', WORKERS: String(WORKERS) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/v1/chains`);
      if (res.ok) return { child, port };
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGTERM');
  throw new Error('the service did not start within 60 s');
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

async function load(port: number, paths: { method?: string; path: string; body?: string }[], options: { amount?: number } = {}): Promise<Figures> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    ...(options.amount ? { amount: options.amount } : { duration: SECONDS }),
    requests: paths.map((p) => ({ method: (p.method ?? 'GET') as 'GET', path: p.path, body: p.body, headers: p.body ? { 'content-type': 'application/json' } : {} })),
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    requests: result.requests.total,
    bytes: result.throughput.total / Math.max(1, result.requests.total),
  };
}

async function main(): Promise<void> {
  const catalog = loadCatalog(DEFAULT_DATA_DIR);
  const graph = new RoutingGraph(catalog, loadSnapshot(DEFAULT_SNAPSHOT_DIR, catalog));
  const mix = buildRequestMix(graph, 500, 20240611);
  const q = (r: (typeof mix)[number]['request'], amountKey: 'fromAmount' | 'toAmount') =>
    `fromChain=${r.fromChain.id}&toChain=${r.toChain.id}&fromToken=${r.fromToken.address}&toToken=${r.toToken.address}&${amountKey}=${r.amount}&fromAddress=${WALLET}`;
  const quotes = mix.map((m) => ({ path: `/v1/quote?${q(m.request, 'fromAmount')}` }));
  const toAmounts = mix.slice(0, 200).map((m) => {
    const usdc = catalog.findToken(m.request.toChain.id, 'USDC') ?? m.request.toToken;
    return { path: `/v1/quote/toAmount?${q({ ...m.request, toToken: usdc, amount: 10n ** BigInt(usdc.decimals) * 100n }, 'toAmount')}` };
  });
  const routes = mix.slice(0, 200).map((m) => ({
    method: 'POST',
    path: '/v1/advanced/routes',
    body: JSON.stringify({ fromChainId: m.request.fromChain.id, toChainId: m.request.toChain.id, fromTokenAddress: m.request.fromToken.address, toTokenAddress: m.request.toToken.address, fromAmount: m.request.amount.toString() }),
  }));
  const scenarios: [string, { method?: string; path: string; body?: string }[]][] = [
    ['GET /v1/quote (500-request mix)', quotes],
    ['GET /v1/quote/toAmount', toAmounts],
    ['POST /v1/advanced/routes', routes],
    ['GET /v1/tokens', [{ path: '/v1/tokens' }]],
    ['GET /v1/chains', [{ path: '/v1/chains' }]],
    ['GET /v1/status', [{ path: `/v1/status?txHash=0x${'ab'.repeat(32)}` }]],
  ];

  const service = await startService();
  process.stdout.write(`service on :${service.port} (${WORKERS} worker${WORKERS > 1 ? 's' : ''}), ${CONNECTIONS} connections, ${SECONDS} s per run\n\n`);
  const rows: string[] = [];
  const header = `${'endpoint'.padEnd(34)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'errors'.padStart(7)} ${'non2xx'.padStart(7)} ${'base req/s'.padStart(10)} ${'base p99'.padStart(9)} ${'ratio'.padStart(6)} ${'RSS MB'.padStart(7)}`;
  let peakRss = 0;
  try {
    for (const [name, paths] of scenarios) {
      await load(service.port, paths.slice(0, 20), { amount: 200 }); // warm-up
      const figures = await load(service.port, paths);
      const rss = rssMb(service.child.pid!);
      peakRss = Math.max(peakRss, rss);
      const baseline = await start(process.execPath, ['-r', 'tsx/cjs', 'bench/httpBaseline.ts'], { BODY_BYTES: String(Math.round(figures.bytes)) }, /listening (\d+)/);
      let base: Figures;
      try {
        await load(baseline.port, [{ path: '/' }], { amount: 500 });
        base = await load(baseline.port, [{ path: '/' }]);
      } finally {
        baseline.child.kill('SIGTERM');
      }
      rows.push(
        `${name.padEnd(34)} ${figures.rps.toFixed(0).padStart(8)} ${String(figures.p50).padStart(7)} ${String(figures.p99).padStart(7)} ${String(figures.errors).padStart(7)} ${String(figures.non2xx).padStart(7)} ${base.rps.toFixed(0).padStart(10)} ${String(base.p99).padStart(9)} ${(figures.rps / base.rps * 100).toFixed(0).padStart(5)}% ${rss.toFixed(0).padStart(7)}`,
      );
      process.stdout.write(`${rows.length === 1 ? `${header}\n` : ''}${rows[rows.length - 1]}\n`);
    }
    // Soak: RSS after warm-up vs after many more requests on the catalog and quote endpoints.
    const soakPaths = [...quotes.slice(0, 100), { path: '/v1/tokens' }, { path: '/v1/chains' }];
    await load(service.port, soakPaths, { amount: Math.min(10_000, SOAK) });
    const before = rssMb(service.child.pid!);
    await load(service.port, soakPaths, { amount: SOAK });
    const after = rssMb(service.child.pid!);
    peakRss = Math.max(peakRss, after);
    process.stdout.write(`\nsoak: RSS ${before.toFixed(0)} MB after warm-up, ${after.toFixed(0)} MB after ${SOAK} more requests (${(after - before >= 0 ? '+' : '')}${(after - before).toFixed(0)} MB); peak ${peakRss.toFixed(0)} MB\n`);
    process.stdout.write('targets: /v1/quote ≥ 40% of baseline req/s with p99 ≤ 25 ms and 0 errors; catalog ≥ 80% of baseline; RSS flat after warm-up\n');
  } finally {
    service.child.kill('SIGTERM');
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`bench:http failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
