/**
 * Health, readiness and metrics (src/server/operations.ts): checks run side by side, each bounded in time; details
 * short and free of URLs; the service's checks as the configuration asks for them; the router's answers.
 */
import express from 'express';
import request from 'supertest';
import type { ChainLiquidityStatus } from '../../../src/chain/liveLiquidity';
import { loadConfig } from '../../../src/config';
import type { Dependencies } from '../../../src/server/dependencies';
import { Metrics } from '../../../src/server/metrics';
import { chainsDetail, operationsRouter, readinessChecks, runReadiness, safeDetail, type ReadinessCheck } from '../../../src/server/operations';

const ok = (name: string, detail = 'fine'): ReadinessCheck => ({ name, check: async () => detail });
const failing = (name: string, message: string): ReadinessCheck => ({ name, check: async () => { throw new Error(message); } });
const hanging = (name: string): ReadinessCheck => ({ name, check: () => new Promise<string>(() => undefined) });

const status = (chainId: number, state: ChainLiquidityStatus['state']): ChainLiquidityStatus => ({
  chainId, state, poolsRead: 0, poolsMissing: 0, poolsFailed: 0, refreshes: 0,
});

describe('runReadiness', () => {
  it('ready when every check passes, each with its detail, in the order given', async () => {
    expect(await runReadiness([ok('data', '20 chains'), ok('redis', 'answers (1 ms)')])).toEqual({
      ready: true,
      checks: [{ name: 'data', ok: true, detail: '20 chains' }, { name: 'redis', ok: true, detail: 'answers (1 ms)' }],
    });
  });

  it('not ready when one fails, rejects, throws at once or does not answer in time; the others still reported', async () => {
    const throwsAtOnce: ReadinessCheck = { name: 'sync', check: () => { throw new Error('broken'); } };
    const started = performance.now();
    const readiness = await runReadiness([ok('data'), failing('redis', 'Redis is unreachable (reconnecting)'), throwsAtOnce, hanging('database')], 100);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(readiness).toEqual({
      ready: false,
      checks: [
        { name: 'data', ok: true, detail: 'fine' },
        { name: 'redis', ok: false, detail: 'Redis is unreachable (reconnecting)' },
        { name: 'sync', ok: false, detail: 'broken' },
        { name: 'database', ok: false, detail: 'no answer within 100 ms' },
      ],
    });
  });
});

test('details: first line only, no URL (it may carry credentials), bounded in length', () => {
  expect(safeDetail('connect to postgres://user:pw@db:5432/app?sslmode=require failed\nstack...')).toBe('connect to <url> failed');
  expect(safeDetail('x'.repeat(500))).toHaveLength(200);
});

test('chains: ready when every chain is followed; otherwise the chains connecting or rejected are named', () => {
  expect(chainsDetail([status(1, 'following'), status(10, 'following')])).toBe('2 of 2 chains followed');
  expect(() => chainsDetail([status(1, 'following'), status(10, 'connecting'), status(56, 'rejected')])).toThrow(
    '1 of 3 chains followed; connecting: 10; rejected (wrong chain id): 56',
  );
  expect(() => chainsDetail([], () => false)).toThrow('0 of 0 chains followed; no pool state from the primary yet');
  expect(chainsDetail([], () => true)).toBe('0 of 0 chains followed');
});

describe('readinessChecks', () => {
  const pinged: string[] = [];
  const dependencies = {
    catalog: { chains: [{}, {}] },
    graph: { pools: [{}, {}, {}] },
    access: { store: { ping: async () => void pinged.push('redis') } },
  } as unknown as Dependencies;

  it('on the embedded data: the data check alone', async () => {
    const checks = readinessChecks(dependencies, loadConfig({}), { chains: () => [status(1, 'connecting')] });
    expect(checks.map((c) => c.name)).toEqual(['data']);
    expect(await runReadiness(checks)).toEqual({ ready: true, checks: [{ name: 'data', ok: true, detail: '2 chains, 3 pools' }] });
  });

  it('Redis when REDIS_URL is set (its store answers PING), the database when given', async () => {
    const checks = readinessChecks(dependencies, loadConfig({ REDIS_URL: 'redis://127.0.0.1:1' }), { database: async () => { throw new Error('connection refused'); } });
    expect(checks.map((c) => c.name)).toEqual(['data', 'redis', 'database']);
    const readiness = await runReadiness(checks);
    expect(pinged).toEqual(['redis']);
    expect(readiness.ready).toBe(false);
    expect(readiness.checks[1]).toEqual({ name: 'redis', ok: true, detail: expect.stringMatching(/^answers \(\d+ ms\)$/) });
    expect(readiness.checks[2]).toEqual({ name: 'database', ok: false, detail: 'connection refused' });
  });

  it('the chains in chain mode (CHAINS_FILE set)', async () => {
    const config = { ...loadConfig({}), chains: { chains: [] } } as unknown as ReturnType<typeof loadConfig>;
    let statuses = [status(1, 'following'), status(42161, 'connecting')];
    const checks = readinessChecks(dependencies, config, { chains: () => statuses });
    expect(checks.map((c) => c.name)).toEqual(['data', 'chains']);
    expect((await runReadiness(checks)).checks[1]).toEqual({ name: 'chains', ok: false, detail: '1 of 2 chains followed; connecting: 42161' });
    statuses = [status(1, 'following'), status(42161, 'following')];
    expect(await runReadiness(checks)).toMatchObject({ ready: true });
  });
});

describe('operationsRouter', () => {
  function app(checks: ReadinessCheck[], metrics = new Metrics()): express.Express {
    const server = express();
    server.use(operationsRouter(metrics, checks));
    return server;
  }

  it('GET /health: 200 JSON', async () => {
    const res = await request(app([])).get('/health').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({ status: 'ok', uptimeSeconds: expect.any(Number) });
    // the process's uptime (as the starting gate's /health before it: src/server/startingGate.ts), not the router's
    expect(Math.abs((res.body as { uptimeSeconds: number }).uptimeSeconds - process.uptime())).toBeLessThanOrEqual(1);
  });

  it('GET /ready: 200 when ready, 503 naming the failing check', async () => {
    expect((await request(app([ok('data')])).get('/ready').expect(200)).body).toEqual({ status: 'ready', checks: [{ name: 'data', ok: true, detail: 'fine' }] });
    const res = await request(app([ok('data'), failing('redis', 'Redis is unreachable (reconnecting)')])).get('/ready').expect(503);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({
      status: 'not ready',
      checks: [{ name: 'data', ok: true, detail: 'fine' }, { name: 'redis', ok: false, detail: 'Redis is unreachable (reconnecting)' }],
    });
  });

  it('GET /metrics: the text exposition of the metrics given', async () => {
    const metrics = new Metrics();
    metrics.cacheHit('getChains');
    const res = await request(app([], metrics)).get('/metrics').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.headers['content-type']).toContain('version=0.0.4');
    expect(res.text).toContain('response_cache_hits_total{operation="getChains"} 1');
  });

  it('HEAD answers without a body; other methods: 405 JSON with Allow', async () => {
    const head = await request(app([ok('data')])).head('/ready').expect(200);
    expect(head.text ?? '').toBe('');
    for (const path of ['/health', '/ready', '/metrics']) {
      const res = await request(app([])).post(path).expect(405);
      expect(res.headers.allow).toBe('GET, HEAD');
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body.message).toContain(path);
    }
  });
});
