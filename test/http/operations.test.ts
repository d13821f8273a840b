/**
 * GET /health, /ready and /metrics on the real app (src/server/operations.ts, src/server/metrics.ts): outside /v1,
 * never rate limited nor key-checked, JSON (health, readiness) or the Prometheus text format (metrics); readiness
 * failing on a Redis that went away (a real redis-server, started and stopped by the test); the metrics moving with
 * the requests: counts by operation and status (429s included), response-cache hits and misses, route searches.
 */
import request from 'supertest';
import type { Response } from 'supertest';
import type { RedisLimiterStore } from '../../src/server/access/redisStore';
import { makeTestApp, useAppAndContract, useTestApp, type TestApp } from '../support/app';
import { WALLET } from '../support/fixtures';
import { startRedisServer, type RedisServer } from '../support/redis';

const OPERATIONS = ['/health', '/ready', '/metrics'];

/** The value of a series of the text exposition (labels in any order), 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = new Map([...(match[2] ?? '').matchAll(/([a-zA-Z_]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => found.get(k) === v)) return Number(match[3]);
  }
  return 0;
}

async function scrape(t: TestApp): Promise<string> {
  const res = await request(t.app).get('/metrics').expect(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; (.*; )?version=0\.0\.4/);
  return res.text;
}

const requests = (text: string, operation: string, status: string) => sample(text, 'http_request_duration_seconds_count', { operation, status });

function expectNoRateLimitHeaders(res: Response): void {
  expect(Object.keys(res.headers).filter((name) => name.startsWith('ratelimit') || name === 'retry-after')).toEqual([]);
}

describe('on the embedded data', () => {
  const { t, contract } = useAppAndContract();

  it('GET /health: 200 JSON while the process serves', async () => {
    const res = await request(t.app).get('/health').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ status: 'ok', uptimeSeconds: expect.any(Number) });
  });

  it('GET /ready: 200 JSON, the data loaded', async () => {
    const res = await request(t.app).get('/ready').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ status: 'ready', checks: [{ name: 'data', ok: true, detail: expect.stringMatching(/^\d+ chains, \d+ pools$/) }] });
  });

  it('other methods: a 405 error body, never HTML', async () => {
    for (const path of OPERATIONS) {
      const res = await request(t.app).delete(path).expect(405);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      contract.expectErrorBody(res.body);
    }
  });

  it('GET /metrics: requests by operation and status move with the requests; unknown paths as "unmatched"', async () => {
    const before = await scrape(t);
    contract.expectResponse('getChains', await request(t.app).get('/v1/chains?chainTypes=SVM').expect(200));
    contract.expectResponse('getToken', await request(t.app).get('/v1/token?chain=nochain&token=usdc').expect(400));
    await request(t.app).get('/v1/no/such/thing?apiKey=secret-value').expect(404);
    const after = await scrape(t);
    expect(requests(after, 'getChains', '200') - requests(before, 'getChains', '200')).toBe(1);
    expect(requests(after, 'getToken', '400') - requests(before, 'getToken', '400')).toBe(1);
    expect(requests(after, 'unmatched', '404') - requests(before, 'unmatched', '404')).toBe(1);
    expect(sample(after, 'http_request_duration_seconds_bucket', { operation: 'getChains', status: '200', le: '+Inf' })).toBeGreaterThanOrEqual(1);
    // the operators' own endpoints are not counted, and nothing of a URL or a query shows
    expect(after).not.toMatch(/operation="(health|ready|metrics)"/);
    expect(after).not.toContain('/v1/no/such');
    expect(after).not.toContain('secret-value');
  });

  it('the response cache: a miss, then a hit, for the same catalog request twice', async () => {
    const before = await scrape(t);
    const first = await request(t.app).get('/v1/tokens?chains=bas&tags=stablecoin').expect(200);
    const second = await request(t.app).get('/v1/tokens?chains=bas&tags=stablecoin').expect(200);
    contract.expectResponse('getTokens', second);
    expect(second.body).toEqual(first.body);
    const after = await scrape(t);
    const delta = (name: string) => sample(after, name, { operation: 'getTokens' }) - sample(before, name, { operation: 'getTokens' });
    expect(delta('response_cache_misses_total')).toBe(1);
    expect(delta('response_cache_hits_total')).toBe(1);
  });

  it('route searches: timed when a quote searches, not when its answer comes from a cache', async () => {
    const quote = `/v1/quote?fromChain=arb&toChain=opt&fromToken=USDC&toToken=USDC&fromAmount=1234567890&fromAddress=${WALLET}`;
    const before = sample(await scrape(t), 'route_search_duration_seconds_count');
    contract.expectResponse('getQuote', await request(t.app).get(quote).expect(200));
    const once = sample(await scrape(t), 'route_search_duration_seconds_count');
    expect(once - before).toBe(1);
    await request(t.app).get(quote).expect(200);
    expect(sample(await scrape(t), 'route_search_duration_seconds_count')).toBe(once);
  });
});

describe('with tight rate limits (RATE_LIMIT_OVERRIDE=3)', () => {
  const t = useTestApp({ env: { RATE_LIMIT_OVERRIDE: '3' } });

  it('health, readiness and metrics are never limited and carry no rate-limit headers; a 429 shows in the metrics', async () => {
    for (let k = 0; k < 3; k++) expectNoRateLimitHeaders(await request(t.app).get('/health').expect(200));
    const statuses: number[] = [];
    for (let k = 0; k < 5; k++) statuses.push((await request(t.app).get('/v1/tools')).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    for (const path of OPERATIONS) {
      for (let k = 0; k < 6; k++) {
        const res = await request(t.app).get(path).expect(200);
        expectNoRateLimitHeaders(res);
        expect(res.headers['content-type']).toMatch(path === '/metrics' ? /^text\/plain/ : /^application\/json/);
      }
    }
    const text = await scrape(t);
    expect(requests(text, 'getTools', '200')).toBe(3);
    expect(requests(text, 'getTools', '429')).toBe(2);
  });
});

describe('with Redis (REDIS_URL)', () => {
  let redis: RedisServer;
  let t: TestApp;

  beforeAll(async () => {
    redis = await startRedisServer();
    t = await makeTestApp({ env: { REDIS_URL: redis.url }, access: { redisPrefix: `ops-http-${Date.now()}:`, redisOptions: { retryStrategy: () => 50 } } });
    await until(() => store(t).state === 'up', 'the store connected to Redis');
  }, 15 * 60_000);

  afterAll(async () => {
    await t?.dependencies.access.close();
    await redis?.stop();
  });

  function store(app: TestApp): RedisLimiterStore {
    return app.dependencies.access.store as RedisLimiterStore;
  }

  it('GET /ready: 200 while Redis answers, 503 naming the redis check while it is gone (/health stays 200), 200 once it is back', async () => {
    const ready = await request(t.app).get('/ready').expect(200);
    expect(ready.body.checks).toEqual([
      { name: 'data', ok: true, detail: expect.any(String) },
      { name: 'redis', ok: true, detail: expect.stringMatching(/^answers \(\d+ ms\)$/) },
    ]);
    await redis.stop();
    await until(() => store(t).state === 'down', 'the store saw Redis go');
    const started = performance.now();
    const res = await request(t.app).get('/ready').expect(503);
    expect(performance.now() - started).toBeLessThan(1500);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body.status).toBe('not ready');
    expect(res.body.checks).toEqual([
      { name: 'data', ok: true, detail: expect.any(String) },
      { name: 'redis', ok: false, detail: expect.stringMatching(/^Redis is unreachable/) },
    ]);
    expect(JSON.stringify(res.body)).not.toContain(String(redis.port));
    await request(t.app).get('/health').expect(200);
    // and ready again once Redis is back
    await redis.restart();
    await until(() => store(t).state === 'up', 'the store reconnected to Redis');
    expect((await request(t.app).get('/ready').expect(200)).body.status).toBe('ready');
  });
});

async function until(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
