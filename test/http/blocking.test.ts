/**
 * Automatic blocking across two instances of the service on one Redis (the limits) and one PostgreSQL (keys, usage,
 * blocks), both started by the test (Debian's redis-server and postgresql). The instances share a fake clock; the
 * recorders and the rules run when the test says (records.flush / evaluate / refresh) instead of on their timers.
 * Each rule triggers and expires as documented; an operator lifts a block with `npm run keys -- unblock`; a client
 * at 90 % of its limits is never blocked. Every answer validated against the contract.
 */
import request from 'supertest';
import { hashApiKey } from '../../src/core/access/keys';
import { block } from '../../src/persistence/blocks';
import { openDatabase, type Database } from '../../src/persistence/database';
import { expensiveOperationsOf } from '../../src/server/access/operationAccess';
import type { AccessRecords } from '../../src/server/access/middleware';
import { handlers } from '../../handlers';
import { runKeysCommand } from '../../scripts/keys';
import { makeTestApp, type TestApp } from '../support/app';
import { contractValidator, type ContractValidator } from '../support/contract';
import { startPostgresServer, type PostgresServer } from '../support/postgres';
import { startRedisServer, type RedisServer } from '../support/redis';

jest.setTimeout(120_000);

const KEYS = {
  slow: 'svc_slowslowslowslowslowslowslowslowslowslow',
  a: 'svc_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
  b: 'svc_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb',
  c: 'svc_ccccccccccccccccccccccccccccccccccccccccccc',
  fenced: 'svc_fencedfencedfencedfencedfencedfencedfenc',
};
const API_KEYS = JSON.stringify({
  keys: [
    { id: 'key_slow', sha256: hashApiKey(KEYS.slow), perMinute: 1 },
    { id: 'key_a', sha256: hashApiKey(KEYS.a), perMinute: 1 },
    { id: 'key_b', sha256: hashApiKey(KEYS.b), perMinute: 1 },
    { id: 'key_c', sha256: hashApiKey(KEYS.c), perMinute: 1 },
    { id: 'key_fenced', sha256: hashApiKey(KEYS.fenced), ipAllowlist: ['203.0.113.0/24'] },
  ],
});

let postgres: PostgresServer;
let redis: RedisServer;
let databaseUrl: string;
let contract: ContractValidator;
let now = Date.UTC(2026, 10, 26, 12, 0, 0);
const clock = () => now;
const minutes = (n: number) => void (now += n * 60_000);
const instances: { app: TestApp; database: Database; records: AccessRecords }[] = [];

async function instance(env: Record<string, string> = {}) {
  const opening = openDatabase({ url: databaseUrl });
  const app = await makeTestApp({
    limits: 'spec',
    env: { DATABASE_URL: databaseUrl, REDIS_URL: redis.url, API_KEYS, TRUST_PROXY: 'loopback', ...env },
    access: { clock, database: opening, expensiveOperations: expensiveOperationsOf(handlers), redisPrefix: 'blocking-test:' },
  });
  const records = app.dependencies.access.records!;
  await records.ready;
  const made = { app, database: await opening, records };
  instances.push(made);
  return made;
}

beforeAll(async () => {
  [postgres, redis, contract] = await Promise.all([startPostgresServer(), startRedisServer(), contractValidator()]);
  databaseUrl = await postgres.createDatabase();
});

afterAll(async () => {
  for (const i of instances) {
    await i.app.dependencies.access.close();
    await i.database.close();
  }
  await redis?.stop();
  await postgres?.stop();
});

const get = (i: { app: TestApp }, path: string, options: { key?: string; from: string }) => {
  const test = request(i.app.app).get(path).set('x-forwarded-for', options.from);
  return options.key ? test.set('x-svc-api-key', options.key) : test;
};

/** Usage of both instances into the database, the rules run on the first, both read the blocks. */
async function settle(a: { records: AccessRecords }, b: { records: AccessRecords }) {
  await Promise.all([a.records.flush(), b.records.flush()]);
  const made = await a.records.evaluate();
  await Promise.all([a.records.refresh(), b.records.refresh()]);
  return made;
}

describe('automatic blocking, two instances on one Redis and one PostgreSQL', () => {
  let one: Awaited<ReturnType<typeof instance>>;
  let two: Awaited<ReturnType<typeof instance>>;
  beforeAll(async () => {
    [one, two] = [await instance(), await instance()];
  });

  it('a key that keeps hitting 429 for 10 minutes is blocked on both instances for 15 minutes, then again for 60', async () => {
    const from = '192.0.2.10';
    let made: Awaited<ReturnType<typeof settle>> = [];
    for (let minute = 0; minute < 10; minute++) {
      if (minute > 0) minutes(1);
      // one request a minute is its limit: the second, on the other instance, is refused with 429 (one Redis)
      expect((await get(one, '/v1/chains', { key: KEYS.slow, from })).status).toBe(200);
      expect((await get(two, '/v1/chains', { key: KEYS.slow, from })).status).toBe(429);
      made = await settle(one, two);
      // nine minutes of 429 are not yet sustained; the tenth is
      if (minute < 9) expect(made).toEqual([]);
    }
    expect(made).toMatchObject([{ subject: { kind: 'key', id: 'key_slow' }, rule: 'sustained-429' }]);
    expect(Date.parse(made[0]!.until)).toBe(now + 15 * 60_000);
    for (const i of [one, two]) {
      const res = await get(i, '/v1/keys/test', { key: KEYS.slow, from });
      expect(res.status).toBe(403);
      contract.expectResponse('testApiKey', res);
      expect(res.body).toMatchObject({ code: 1010 });
      expect(res.body.message).toBe(`API key key_slow is blocked until ${made[0]!.until}: persistently exceeding its limits: refused with 429 in 10 of the last 15 minutes (rule sustained-429)`);
    }
    // npm run keys shows it
    const out: string[] = [];
    expect(await runKeysCommand(['blocks', '--json'], { env: { DATABASE_URL: databaseUrl }, stdout: (t) => out.push(t), stderr: () => {}, now: () => new Date(now) })).toBe(0);
    expect(JSON.parse(out.join(''))).toEqual(expect.arrayContaining([expect.objectContaining({ rule: 'sustained-429', until: made[0]!.until })]));

    // it ends on its own
    minutes(16);
    expect((await get(two, '/v1/keys/test', { key: KEYS.slow, from })).status).toBe(200);

    // again: blocked longer (its second block)
    for (let minute = 0; minute < 10; minute++) {
      await get(one, '/v1/chains', { key: KEYS.slow, from });
      expect((await get(two, '/v1/chains', { key: KEYS.slow, from })).status).toBe(429);
      minutes(1);
    }
    minutes(-1);
    const again = await settle(one, two);
    expect(again).toMatchObject([{ rule: 'sustained-429' }]);
    expect(Date.parse(again[0]!.until)).toBe(now + 60 * 60_000);

    // an operator lifts it
    expect(await runKeysCommand(['unblock', 'key_slow'], { env: { DATABASE_URL: databaseUrl }, stdout: () => {}, stderr: () => {}, now: () => new Date(now) })).toBe(0);
    await Promise.all([one.records.refresh(), two.records.refresh()]);
    minutes(1);
    expect((await get(one, '/v1/keys/test', { key: KEYS.slow, from })).status).toBe(200);
  });

  it('a client at 90 % of its limits for the whole window is never blocked', async () => {
    const from = '192.0.2.90';
    minutes(30);
    for (let minute = 0; minute < 16; minute++) {
      // 90 of the 100 requests a minute without a key, spread over both instances
      const answers = await Promise.all(Array.from({ length: 90 }, (_, k) => get(k % 2 ? one : two, '/v1/chains', { from })));
      expect(answers.every((r) => r.status === 200)).toBe(true);
      expect(await settle(one, two)).toEqual([]);
      minutes(1);
    }
    expect((await get(one, '/v1/chains', { from })).status).toBe(200);
  });

  it('several keys from one address to multiply limits: the address is blocked, for every key and without one', async () => {
    const from = '198.51.100.33';
    minutes(30);
    for (const key of [KEYS.a, KEYS.b, KEYS.c]) {
      expect((await get(one, '/v1/chains', { key, from })).status).toBe(200);
      expect((await get(two, '/v1/chains', { key, from })).status).toBe(429);
    }
    expect(await settle(one, two)).toMatchObject([{ subject: { kind: 'client', id: from }, rule: 'keys-per-address' }]);
    const res = await get(two, '/v1/tokens', { from });
    expect(res.status).toBe(403);
    contract.expectResponse('getTokens', res);
    expect(res.body.message).toMatch(new RegExp(`^Address ${from.replace(/\./g, '\\.')} is blocked until .*: bypassing limits with several keys: 3 API keys`));
    // the keys themselves are not blocked: from elsewhere they work
    minutes(1);
    expect((await get(one, '/v1/chains', { key: KEYS.a, from: '198.51.100.34' })).status).toBe(200);
  });

  it('a key leaked outside its allowlist: the foreign addresses are blocked, the owner keeps its service from the allowlist', async () => {
    minutes(30);
    const foreign = ['198.51.100.1', '198.51.100.2', '198.51.100.3'];
    for (const from of foreign) {
      expect((await get(one, '/v1/chains', { key: KEYS.fenced, from })).status).toBe(403);
    }
    const made = await settle(one, two);
    expect(made.map((b) => b.subject)).toEqual(foreign.map((id) => ({ kind: 'client', id })));
    for (const b of made) expect(b.rule).toBe('key-spread');
    // the owner, from its allowlist, on both instances: served
    for (const i of [one, two]) {
      const owner = await get(i, '/v1/chains', { key: KEYS.fenced, from: '203.0.113.5' });
      expect(owner.status).toBe(200);
    }
    // the foreign addresses: blocked, with the key or without one
    for (const from of foreign) {
      const res = await get(two, '/v1/tokens', { from });
      expect(res.status).toBe(403);
      contract.expectResponse('getTokens', res);
      expect(res.body.message).toMatch(new RegExp(`^Address ${from.replace(/\./g, '\\.')} is blocked until .*: using API key key_fenced outside its allowlist`));
    }
  });

  it('a blocked client is told 403 with the block\'s end, never 429, and its refusals do not count towards a next block', async () => {
    minutes(30);
    const from = '192.0.2.66';
    const subject = { kind: 'client' as const, id: from };
    // an operator blocks the address for 20 minutes
    const end = now + 20 * 60_000;
    await block(one.database.db, { subject, rule: 'manual', reason: 'abuse report', actor: 'cli:ops', now: new Date(now), until: new Date(end) });
    await Promise.all([one.records.refresh(), two.records.refresh()]);
    // far past its limit of 100 a minute without a key: every answer is the block, on both instances
    for (let minute = 0; minute < 12; minute++) {
      const answers = await Promise.all(Array.from({ length: 120 }, (_, k) => get(k % 2 ? one : two, '/v1/chains', { from })));
      const statuses = new Set(answers.map((r) => r.status));
      expect([...statuses]).toEqual([403]);
      const res = answers[0]!;
      contract.expectResponse('getChains', res);
      expect(res.body.message).toMatch(/^Address 192\.0\.2\.66 is blocked until .*: abuse report \(rule manual\)$/);
      expect(Number(res.headers['retry-after'])).toBe(Math.ceil((end - now) / 1000));
      // nothing left until the block ends (and nothing counted against its limit: see below)
      expect(res.headers).toMatchObject({ 'ratelimit-limit': '100', 'ratelimit-remaining': '0', 'ratelimit-reset': res.headers['retry-after'] });
      expect(await settle(one, two)).toEqual([]);
      minutes(1);
    }
    // the block ends: served, and not blocked again for what it sent while blocked
    minutes(9);
    expect((await get(one, '/v1/chains', { from })).status).toBe(200);
    expect((await settle(one, two)).filter((b) => b.subject.id === subject.id)).toEqual([]);
  });

  it('after a start, a block holds and usage counts from the first request, while the database still opens', async () => {
    minutes(30);
    const blocked = '192.0.2.77';
    const counted = '192.0.2.78';
    await block(one.database.db, { subject: { kind: 'client', id: blocked }, rule: 'manual', reason: 'abuse report', actor: 'cli:ops', now: new Date(now), until: new Date(now + 15 * 60_000) });
    // an instance whose database opens only when the test says
    let open!: (database: Database) => void;
    const opening = new Promise<Database>((resolve) => (open = resolve));
    const app = await makeTestApp({
      limits: 'spec',
      env: { DATABASE_URL: databaseUrl, REDIS_URL: redis.url, API_KEYS, TRUST_PROXY: 'loopback' },
      access: { clock, database: opening, expensiveOperations: expensiveOperationsOf(handlers), redisPrefix: 'blocking-test:' },
    });
    const answers: { from: string; status: number }[] = [];
    const early = [blocked, counted].map((from) => get({ app }, '/v1/chains', { from }).then((res) => answers.push({ from, status: res.status })));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(answers).toEqual([]); // waiting for the blocks in force
    const database = await openDatabase({ url: databaseUrl });
    open(database);
    const started = { app, database, records: app.dependencies.access.records! };
    instances.push(started);
    await Promise.all(early);
    expect(answers.sort((a, b) => a.from.localeCompare(b.from))).toEqual([{ from: blocked, status: 403 }, { from: counted, status: 200 }]);
    await started.records.flush();
    const usage = await started.database.db.selectFrom('usage_minutes').select(['subject', 'requests', 'refused_403']).where('subject', 'in', [blocked, counted]).orderBy('subject').execute();
    expect(usage.map((row) => ({ ...row, requests: Number(row.requests), refused_403: Number(row.refused_403) }))).toEqual([
      { subject: blocked, requests: 1, refused_403: 1 },
      { subject: counted, requests: 1, refused_403: 0 },
    ]);
  });

  it('a sustained share of the most expensive requests past the limits (thresholds from BLOCKING_THRESHOLDS)', async () => {
    minutes(30);
    const strict = await instance({ RATE_LIMIT_OVERRIDE: '5', BLOCKING_THRESHOLDS: '{"expensiveMinimum": 8}' });
    const from = '192.0.2.200';
    const statuses = [];
    for (let k = 0; k < 8; k++) statuses.push((await get(strict, '/v1/quote?fromChain=arb&toChain=arb&fromToken=USDC&toToken=USDT&fromAmount=1000000&fromAddress=0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea9', { from })).status);
    expect(statuses.filter((s) => s === 429)).toHaveLength(3);
    await strict.records.flush();
    expect(await strict.records.evaluate()).toMatchObject([{ subject: { kind: 'client', id: from }, rule: 'expensive-share' }]);
    await strict.records.refresh();
    expect((await get(strict, '/v1/chains', { from })).status).toBe(403);
  });
});
