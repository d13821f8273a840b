import { Redis } from 'ioredis';
import { MINUTE_MS, TWO_HOURS_MS } from '../../../../src/core/access/policy';
import { MemoryLimiterStore } from '../../../../src/server/access/memoryStore';
import { RedisLimiterStore, redactUrl } from '../../../../src/server/access/redisStore';
import type { LimiterStore } from '../../../../src/server/access/limiterStore';
import { captureLogger } from '../../../support/logCapture';
import { startRedisServer, type RedisServer } from '../../../support/redis';

jest.setTimeout(60_000);

let redis: RedisServer;
const stores: RedisLimiterStore[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
}, 15 * 60_000);

afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
  await redis?.stop();
});

/** A short-lived client to look into Redis. */
async function inRedis<T>(fn: (client: Redis) => Promise<T>): Promise<T> {
  const client = new Redis(redis.url);
  try {
    return await fn(client);
  } finally {
    await client.quit();
  }
}

async function until(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function readyStore(options: { clock?: () => number; prefix?: string; logger?: ReturnType<typeof captureLogger>['logger'] } = {}): Promise<RedisLimiterStore> {
  const store = new RedisLimiterStore({
    url: redis.url,
    logger: options.logger ?? captureLogger('silent').logger,
    clock: options.clock,
    prefix: options.prefix ?? `t${Math.random().toString(36).slice(2)}:`,
    redisOptions: { retryStrategy: () => 50 },
  });
  stores.push(store);
  await until(() => store.state === 'up', 'Redis ready');
  return store;
}

describe.each([
  ['memory', async (clock: () => number): Promise<LimiterStore> => new MemoryLimiterStore({ clock })],
  ['redis', async (clock: () => number): Promise<LimiterStore> => readyStore({ clock })],
])('%s store with a fake clock', (_name, make) => {
  it('per-minute window: exact reset values at and across the edge', async () => {
    let now = 1_700_000_000_000;
    const t0 = now;
    const store = await make(() => now);
    const at = async (offset: number) => {
      now = t0 + offset;
      return store.consume('minute', 3, MINUTE_MS);
    };
    expect(await at(0)).toEqual({ allowed: true, limit: 3, remaining: 2, resetSeconds: 60 });
    expect(await at(10_500)).toEqual({ allowed: true, limit: 3, remaining: 1, resetSeconds: 50 });
    expect(await at(20_000)).toEqual({ allowed: true, limit: 3, remaining: 0, resetSeconds: 40 });
    expect(await at(30_000)).toEqual({ allowed: false, limit: 3, remaining: 0, resetSeconds: 30, retryAfterSeconds: 30 });
    expect(await at(59_999)).toEqual({ allowed: false, limit: 3, remaining: 0, resetSeconds: 1, retryAfterSeconds: 1 });
    expect(await at(60_000)).toEqual({ allowed: true, limit: 3, remaining: 0, resetSeconds: 11 });
    expect(await at(70_500)).toEqual({ allowed: true, limit: 3, remaining: 0, resetSeconds: 10 });
  });

  it('two-hour rolling window: all at once, then slot by slot', async () => {
    let now = 1_700_000_000_000;
    const t0 = now;
    const store = await make(() => now);
    for (let i = 0; i < 50; i += 1) {
      now = t0 + i * MINUTE_MS;
      expect(await store.consume('two-hours', 75, TWO_HOURS_MS)).toMatchObject({ allowed: true, remaining: 74 - i });
    }
    now = t0 + 50 * MINUTE_MS;
    const burst = await Promise.all(Array.from({ length: 30 }, () => store.consume('two-hours', 75, TWO_HOURS_MS)));
    expect(burst.filter((d) => d.allowed)).toHaveLength(25);
    // the first request (t0) leaves at t0 + 7200 s: 70 min = 4200 s from now
    expect(burst.find((d) => !d.allowed)).toEqual({ allowed: false, limit: 75, remaining: 0, resetSeconds: 4200, retryAfterSeconds: 4200 });
    now = t0 + TWO_HOURS_MS;
    expect(await store.consume('two-hours', 75, TWO_HOURS_MS)).toEqual({ allowed: true, limit: 75, remaining: 0, resetSeconds: 60 });
    expect(await store.consume('two-hours', 75, TWO_HOURS_MS)).toMatchObject({ allowed: false, resetSeconds: 60 });
  });

  it('200 concurrent requests at the edge of a limit admit exactly the limit', async () => {
    const now = 1_700_000_000_000;
    const store = await make(() => now);
    for (let i = 0; i < 90; i += 1) await store.consume('edge', 100, MINUTE_MS);
    const decisions = await Promise.all(Array.from({ length: 200 }, () => store.consume('edge', 100, MINUTE_MS)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
    const fresh = await Promise.all(Array.from({ length: 200 }, () => store.consume('fresh', 75, TWO_HOURS_MS)));
    expect(fresh.filter((d) => d.allowed)).toHaveLength(75);
    expect(fresh.filter((d) => !d.allowed).every((d) => d.remaining === 0 && d.retryAfterSeconds === 7200)).toBe(true);
  });
});

describe('RedisLimiterStore', () => {
  it('uses Redis time by default, and two stores (two instances) share one counter', async () => {
    const prefix = `shared${Date.now()}:`;
    const a = await readyStore({ prefix });
    const b = await readyStore({ prefix });
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? a : b).consume('both', 100, MINUTE_MS)));
    expect(results.filter((d) => d.allowed)).toHaveLength(100);
    expect(await inRedis((c) => c.zcard(`${prefix}{both}`))).toBe(100);
    const ttl = await inRedis((c) => c.pttl(`${prefix}{both}`));
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(MINUTE_MS);
    expect(results.find((d) => !d.allowed)?.resetSeconds).toBeGreaterThanOrEqual(59);
  });

  it('fails open to in-memory limits when Redis goes away, logs it once, and recovers when it returns', async () => {
    const capture = captureLogger('info');
    const prefix = `outage${Date.now()}:`;
    const store = await readyStore({ prefix, logger: capture.logger });
    expect(await store.consume('o', 5, MINUTE_MS)).toMatchObject({ allowed: true, remaining: 4 });
    expect(await inRedis((c) => c.zcard(`${prefix}{o}`))).toBe(1);

    await redis.stop();
    // requests keep being answered at once, counted in memory (a fresh count on this instance)
    const during = [];
    for (let i = 0; i < 7; i += 1) during.push(await store.consume('o', 5, MINUTE_MS));
    expect(during.map((d) => d.allowed)).toEqual([true, true, true, true, true, false, false]);
    await until(() => store.state === 'down', 'the store to notice');
    await new Promise((resolve) => setTimeout(resolve, 300)); // several failed reconnections
    const down = capture.records().filter((r) => String(r.msg).includes('unreachable'));
    expect(down).toHaveLength(1);
    expect(down[0]).toMatchObject({ level: 50, redis: redis.url });
    expect(String(down[0]!.msg)).toMatch(/failing open to in-memory limits per instance until it returns/);

    await redis.restart();
    await until(() => store.state === 'up', 'reconnection');
    expect(capture.records().filter((r) => String(r.msg).includes('reachable again'))).toHaveLength(1);
    // counted in Redis again (the restarted server is empty)
    expect(await store.consume('o', 5, MINUTE_MS)).toMatchObject({ allowed: true, remaining: 4 });
    expect(await inRedis((c) => c.zcard(`${prefix}{o}`))).toBe(1);
  });

  it('redacts the password of the URL in logs', () => {
    expect(redactUrl('redis://user:secret@host:6380/2')).toBe('redis://user:redacted@host:6380/2');
    expect(redactUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
  });
});
