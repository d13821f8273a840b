/**
 * The service's metrics (src/server/metrics.ts): what each recording method adds, bounded labels, the chains'
 * gauges read at scrape time, a registry per Metrics object, and the request middleware's labels.
 */
import express from 'express';
import request from 'supertest';
import type { ChainLiquidityStatus } from '../../../src/chain/liveLiquidity';
import { MAX_FREE_LABEL_VALUES, Metrics, requestMetrics, UNMATCHED } from '../../../src/server/metrics';

type Labels = Record<string, string | number>;

/** The samples of a metric (a histogram's _count, _sum and _bucket series included), as prom-client reports them. */
async function samples(metrics: Metrics, name: string): Promise<{ labels: Labels; value: number; metricName?: string }[]> {
  const metric = metrics.registry.getSingleMetric(name);
  if (!metric) throw new Error(`no metric ${name}`);
  return (await metric.get()).values as { labels: Labels; value: number; metricName?: string }[];
}

/** The value of one series (for a histogram: `suffix` _count or _sum), 0 when absent. */
async function value(metrics: Metrics, name: string, labels: Labels = {}, suffix = ''): Promise<number> {
  const found = (await samples(metrics, name)).find(
    (s) => (suffix === '' || s.metricName === `${name}${suffix}`) && Object.entries(labels).every(([k, v]) => String(s.labels[k]) === String(v)) && (suffix !== '' || !('le' in s.labels)),
  );
  return found?.value ?? 0;
}

const status = (overrides: Partial<ChainLiquidityStatus> & Pick<ChainLiquidityStatus, 'chainId' | 'state'>): ChainLiquidityStatus => ({
  poolsRead: 0, poolsMissing: 0, poolsFailed: 0, refreshes: 0, ...overrides,
});

test('requests: counted and timed by operation and status', async () => {
  const metrics = new Metrics();
  metrics.observeRequest('getChains', 200, 0.0004);
  metrics.observeRequest('getChains', 200, 0.002);
  metrics.observeRequest('getChains', 429, 0.0001);
  metrics.observeRequest(UNMATCHED, 404, 0.0003);
  expect(await value(metrics, 'http_request_duration_seconds', { operation: 'getChains', status: 200 }, '_count')).toBe(2);
  expect(await value(metrics, 'http_request_duration_seconds', { operation: 'getChains', status: 200 }, '_sum')).toBeCloseTo(0.0024);
  expect(await value(metrics, 'http_request_duration_seconds', { operation: 'getChains', status: 429 }, '_count')).toBe(1);
  expect(await value(metrics, 'http_request_duration_seconds', { operation: 'unmatched', status: 404 }, '_count')).toBe(1);
  // buckets for answers from under a millisecond to seconds
  const buckets = (await samples(metrics, 'http_request_duration_seconds')).filter((s) => s.labels.operation === 'getChains' && String(s.labels.status) === '200' && 'le' in s.labels);
  expect(buckets.find((b) => b.labels.le === 0.0005)?.value).toBe(1);
  expect(buckets.find((b) => b.labels.le === 0.0025)?.value).toBe(2);
  expect(buckets.map((b) => b.labels.le)).toEqual(expect.arrayContaining([0.001, 0.01, 0.1, 1, '+Inf']));
});

test('response cache hits and misses by operation; route searches', async () => {
  const metrics = new Metrics();
  metrics.cacheMiss('getTokens');
  metrics.cacheHit('getTokens');
  metrics.cacheHit('getTokens');
  metrics.cacheHit('getQuote');
  expect(await value(metrics, 'response_cache_hits_total', { operation: 'getTokens' })).toBe(2);
  expect(await value(metrics, 'response_cache_misses_total', { operation: 'getTokens' })).toBe(1);
  expect(await value(metrics, 'response_cache_hits_total', { operation: 'getQuote' })).toBe(1);
  const observe = metrics.routeSearch; // handed over unbound
  observe(0.003);
  observe(0.0002);
  expect(await value(metrics, 'route_search_duration_seconds', {}, '_count')).toBe(2);
  expect(await value(metrics, 'route_search_duration_seconds', { le: 0.00025 }, '_bucket')).toBe(1);
});

test('access refusals and blocks: by the names given, bounded, other values counted as "other"', async () => {
  const metrics = new Metrics();
  const { accessRefused, blocked } = metrics; // callable unbound, as the access control may keep them
  accessRefused('rate-limited');
  accessRefused('rate-limited');
  accessRefused('unknown-key');
  accessRefused('not a name: https://x.example/?key=secret');
  blocked('ip-deny-list');
  expect(await value(metrics, 'access_refused_total', { reason: 'rate-limited' })).toBe(2);
  expect(await value(metrics, 'access_refused_total', { reason: 'unknown-key' })).toBe(1);
  expect(await value(metrics, 'access_refused_total', { reason: 'other' })).toBe(1);
  expect(await value(metrics, 'access_blocked_total', { rule: 'ip-deny-list' })).toBe(1);
  for (let k = 0; k < MAX_FREE_LABEL_VALUES + 20; k++) blocked(`rule-${k}`);
  const rules = (await samples(metrics, 'access_blocked_total')).map((s) => s.labels.rule);
  expect(rules.length).toBeLessThanOrEqual(MAX_FREE_LABEL_VALUES + 1);
  expect(await value(metrics, 'access_blocked_total', { rule: 'other' })).toBeGreaterThanOrEqual(20);
  expect((await metrics.exposition()).text).not.toContain('secret');
});

test('chains: following, last block and head age per chain, read at each scrape', async () => {
  const metrics = new Metrics();
  let statuses: ChainLiquidityStatus[] = [
    status({ chainId: 1, state: 'following', lastBlock: 19_000_000, lastBlockAt: Date.now() - 4000 }),
    status({ chainId: 42161, state: 'connecting' }),
  ];
  metrics.observeChains(() => statuses);
  expect(await value(metrics, 'chain_following', { chain_id: 1 })).toBe(1);
  expect(await value(metrics, 'chain_following', { chain_id: 42161 })).toBe(0);
  expect(await value(metrics, 'chain_last_block', { chain_id: 1 })).toBe(19_000_000);
  expect(await value(metrics, 'chain_head_age_seconds', { chain_id: 1 })).toBeGreaterThanOrEqual(4);
  expect(await value(metrics, 'chain_head_age_seconds', { chain_id: 1 })).toBeLessThan(10);
  // a chain without a read has no block and no age; a chain no longer reported leaves nothing behind
  expect((await samples(metrics, 'chain_last_block')).map((s) => s.labels.chain_id)).toEqual(['1']);
  statuses = [status({ chainId: 42161, state: 'following', lastBlock: 5, lastBlockAt: Date.now() })];
  expect((await samples(metrics, 'chain_following')).map((s) => [s.labels.chain_id, s.value])).toEqual([['42161', 1]]);
  expect(await value(metrics, 'chain_head_age_seconds', { chain_id: 42161 })).toBeLessThan(1);
});

test('a registry per Metrics object: two side by side count apart; process metrics only when asked', async () => {
  const a = new Metrics();
  const b = new Metrics({ processMetrics: true });
  a.cacheHit('getChains');
  expect(await value(a, 'response_cache_hits_total', { operation: 'getChains' })).toBe(1);
  expect(await value(b, 'response_cache_hits_total', { operation: 'getChains' })).toBe(0);
  const plain = await a.exposition();
  const full = await b.exposition();
  expect(plain.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
  expect(plain.text).toContain('# TYPE http_request_duration_seconds histogram');
  expect(plain.text).not.toContain('process_cpu_user_seconds_total');
  expect(full.text).toContain('process_cpu_user_seconds_total');
  expect(full.text).toContain('nodejs_eventloop_lag_seconds');
});

describe('requestMetrics middleware', () => {
  function app(metrics: Metrics, operationOf: (req: express.Request) => string | undefined): express.Express {
    const server = express();
    server.use(requestMetrics(metrics, operationOf));
    server.get('/dispatched', (_req, res) => {
      res.locals.operationId = 'getChains';
      res.json({ ok: true });
    });
    server.get('/refused', (_req, res) => void res.status(429).json({ message: 'too many' }));
    return server;
  }

  it('labels by res.locals.operationId, else by operationOf, else "unmatched"', async () => {
    const metrics = new Metrics();
    const server = app(metrics, (req) => (req.path === '/refused' ? 'getQuote' : undefined));
    await request(server).get('/dispatched').expect(200);
    await request(server).get('/refused').expect(429);
    await request(server).get('/nothing?key=secret').expect(404);
    expect(await value(metrics, 'http_request_duration_seconds', { operation: 'getChains', status: 200 }, '_count')).toBe(1);
    expect(await value(metrics, 'http_request_duration_seconds', { operation: 'getQuote', status: 429 }, '_count')).toBe(1);
    expect(await value(metrics, 'http_request_duration_seconds', { operation: 'unmatched', status: 404 }, '_count')).toBe(1);
    const text = (await metrics.exposition()).text;
    expect(text).not.toContain('/nothing');
    expect(text).not.toContain('secret');
  });

  it('an operationOf that throws counts the request as unmatched (never throws in the finish listener)', async () => {
    const metrics = new Metrics();
    const server = app(metrics, () => {
      throw new Error('malformed path');
    });
    await request(server).get('/refused').expect(429);
    expect(await value(metrics, 'http_request_duration_seconds', { operation: 'unmatched', status: 429 }, '_count')).toBe(1);
  });
});
