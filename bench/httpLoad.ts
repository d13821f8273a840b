/**
 * One run of load on an endpoint (autocannon), over a request list or a walk of generated paths, and its figures:
 * requests per second over the run's own wall time, latencies of every answer to the microsecond; rounds combined.
 */
import autocannon from 'autocannon';
import { CONNECTIONS, SECONDS } from './httpOptions';

export interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  requests: number;
  bytes: number;
}

export type Request = { method?: string; path: string; body?: string };

/**
 * GET requests for `pathOf(0)`, `pathOf(1)`, … in the order they are sent, over all connections (one counter
 * shared by them). With a plain request list, every connection walks the same list from its start, so the 50
 * connections ask for the same URLs at nearly the same time and all but the first are answered from the cache.
 */
export interface Walk {
  readonly pathOf: (n: number) => string;
}

export type Load = Request[] | Walk;

/** Load on 127.0.0.1:`port`: `amount` requests, or `seconds` of them (default --seconds), over `connections` (default --connections). */
export async function load(port: number, paths: Load, options: { amount?: number; seconds?: number; connections?: number } = {}): Promise<Figures> {
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

/** Rounds of one scenario combined: requests over the total time, the median of the p50s, the worst p99. */
export function combine(rounds: Figures[]): Figures {
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
