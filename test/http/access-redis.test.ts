/**
 * Two instances of the real app sharing one Redis (a real redis-server, installed and started by
 * the test, stopped afterwards) enforce one combined limit; when Redis goes away they keep
 * answering on in-memory limits, say so once in the log, and share again when it returns.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import request from 'supertest';
import type { RedisLimiterStore } from '../../src/server/access/redisStore';
import { makeTestApp, type TestApp } from '../support/app';
import { contractValidator, type ContractValidator } from '../support/contract';
import { captureLogger } from '../support/logCapture';
import { startRedisServer, type RedisServer } from '../support/redis';

const QUOTE = '/v1/quote?fromChain=arb&toChain=opt&fromToken=USDC&toToken=USDC&fromAddress=0x552008c0f6870c2f77e5cc1d2eb9bdff03e30ea0&fromAmount=1000000';

let redis: RedisServer;
let a: TestApp;
let b: TestApp;
let contract: ContractValidator;
const logsA = captureLogger('info');

beforeAll(async () => {
  redis = await startRedisServer();
  const prefix = `rl-http-${Date.now()}:`;
  const options = (logger = captureLogger('silent').logger) => ({
    env: { REDIS_URL: redis.url, TRUST_PROXY: 'loopback' },
    limits: 'spec' as const,
    logger,
    access: { redisPrefix: prefix, redisOptions: { retryStrategy: () => 50 } },
  });
  a = await makeTestApp(options(logsA.logger));
  b = await makeTestApp(options());
  contract = await contractValidator();
  await until(() => store(a).state === 'up' && store(b).state === 'up', 'both instances connected to Redis');
}, 15 * 60_000);

afterAll(async () => {
  await Promise.all([a?.dependencies.access.close(), b?.dependencies.access.close()]);
  await redis?.stop();
});

function store(t: TestApp): RedisLimiterStore {
  return t.dependencies.access.store as RedisLimiterStore;
}

async function until(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let nextClient = 1;
function newClient(): string {
  nextClient += 1;
  return `198.51.100.${nextClient}`;
}

async function listen(t: TestApp): Promise<{ server: Server; url: string }> {
  const server = t.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

describe('two instances sharing one Redis', () => {
  it('enforce one combined limit: 75 quotes in two hours, whichever instance answers', async () => {
    const from = newClient();
    // The window opened with the first request: the reset can be no earlier than 7200 s minus the time since.
    const started = Date.now();
    const earliestReset = () => 7200 - Math.ceil((Date.now() - started) / 1000) - 1;
    for (let i = 0; i < 75; i += 1) {
      const res = await request((i % 2 === 0 ? a : b).app).get(QUOTE).set('x-forwarded-for', from);
      expect(res.status).not.toBe(429);
      expect(res.headers['ratelimit-limit']).toBe('75');
      expect(res.headers['ratelimit-remaining']).toBe(String(74 - i));
      expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThanOrEqual(earliestReset());
      expect(Number(res.headers['ratelimit-reset'])).toBeLessThanOrEqual(7200);
    }
    for (const t of [a, b]) {
      const refused = await request(t.app).get(QUOTE).set('x-forwarded-for', from);
      expect(refused.status).toBe(429);
      contract.expectResponse('getQuote', refused);
      expect(refused.body.code).toBe(1005);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(earliestReset());
    }
  });

  it('200 concurrent requests at the edge of the limit, spread over both, admit exactly the limit', async () => {
    const [sa, sb] = await Promise.all([listen(a), listen(b)]);
    try {
      const from = newClient();
      const call = (url: string) => fetch(`${url}/v1/chains?chainTypes=EVM`, { headers: { 'x-forwarded-for': from } }).then(async (r) => (await r.arrayBuffer(), r.status));
      for (let i = 0; i < 40; i += 1) expect(await call(i % 2 === 0 ? sa.url : sb.url)).toBe(200);
      const statuses = await Promise.all(Array.from({ length: 200 }, (_, i) => call(i % 2 === 0 ? sa.url : sb.url)));
      expect(statuses.filter((s) => s === 200)).toHaveLength(60);
      expect(statuses.filter((s) => s === 429)).toHaveLength(140);
    } finally {
      await Promise.all([close(sa.server), close(sb.server)]);
    }
  });

  it('Redis unreachable: answers go on (in-memory limits, headers included), one log line, shared again when it returns', async () => {
    const from = newClient();
    expect((await request(a.app).get('/v1/chains').set('x-forwarded-for', from)).headers['ratelimit-remaining']).toBe('99');

    await redis.stop();
    for (let i = 0; i < 5; i += 1) {
      const res = await request(a.app).get('/v1/chains').set('x-forwarded-for', from);
      expect(res.status).toBe(200);
      contract.expectResponse('getChains', res);
      expect(res.headers['ratelimit-limit']).toBe('100');
    }
    await until(() => store(a).state === 'down', 'instance a to notice');
    const down = logsA.records().filter((r) => String(r.msg).includes('is unreachable'));
    expect(down).toHaveLength(1);
    expect(down[0]!.level).toBe(50);
    expect(String(down[0]!.msg)).toBe(`rate limits: Redis at ${redis.url} is unreachable (${String(down[0]!.reason)}); failing open to in-memory limits per instance until it returns`);

    await redis.restart();
    await until(() => store(a).state === 'up' && store(b).state === 'up', 'both instances to reconnect');
    expect(logsA.records().filter((r) => String(r.msg).includes('is reachable again'))).toHaveLength(1);
    const next = newClient();
    expect((await request(a.app).get('/v1/chains').set('x-forwarded-for', next)).headers['ratelimit-remaining']).toBe('99');
    expect((await request(b.app).get('/v1/chains').set('x-forwarded-for', next)).headers['ratelimit-remaining']).toBe('98');
  });
});
