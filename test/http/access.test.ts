/**
 * API keys and rate limits through the real app (in-memory store, fake clock). Creating the app is
 * slow (the contract is compiled), so the suite shares two apps; each test isolates its counters by
 * using its own client address (X-Forwarded-For, from a trusted loopback proxy) or its own key.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type http from 'node:http';
import express from 'express';
import { createClient, getTokens } from '@lifi/sdk';
import pino from 'pino';
import { pinoHttp } from 'pino-http';
import request, { type Response, type Test } from 'supertest';
import { hashApiKey, type ApiKeyRecord } from '../../src/core/access/keys';
import { serializeKeyDocument } from '../../src/core/access/keyFile';
import { StaticKeyStore } from '../../src/core/access/keyStore';
import { MemoryLimiterStore } from '../../src/server/access/memoryStore';
import { createAccessControl } from '../../src/server/access/middleware';
import { handlers } from '../../handlers';
import { testApiKey } from '../../handlers/testApiKey';
import { makeTestApp, type TestApp } from '../support/app';
import { contractValidator, type ContractValidator } from '../support/contract';
import { captureLogger } from '../support/logCapture';

const KEYS = {
  probe: 'svc_probeprobeprobeprobeprobeprobeprobeprobep',
  enterprise: 'svc_enterpriseenterpriseenterpriseenterprise',
  blocked: 'svc_blockedblockedblockedblockedblockedblock',
  fenced: 'svc_fencedfencedfencedfencedfencedfencedfenc',
  slow: 'svc_slowslowslowslowslowslowslowslowslowslow',
  owner: 'svc_ownerownerownerownerownerownerownerowner',
  plain: 'svc_plainplainplainplainplainplainplainplain',
};
const RECORDS: ApiKeyRecord[] = [
  { id: 'key_probe', name: 'probe backend', sha256: hashApiKey(KEYS.probe) },
  { id: 'key_enterprise', sha256: hashApiKey(KEYS.enterprise), perMinute: 500, integrators: ['acme', 'acme-eu'] },
  { id: 'key_blocked', sha256: hashApiKey(KEYS.blocked), blocked: true, blockedReason: 'persistently exceeding limits' },
  { id: 'key_fenced', sha256: hashApiKey(KEYS.fenced), ipAllowlist: ['203.0.113.0/24'] },
  { id: 'key_slow', sha256: hashApiKey(KEYS.slow), perMinute: 1 },
  { id: 'key_owner', sha256: hashApiKey(KEYS.owner) },
  { id: 'key_plain', sha256: hashApiKey(KEYS.plain) },
];
const UNKNOWN_KEY = 'svc_unknownunknownunknownunknownunknownunkno';
const QUOTE = '/v1/quote?fromChain=arb&toChain=opt&fromToken=USDC&toToken=USDC&fromAddress=0x552008c0f6870c2f77e5cc1d2eb9bdff03e30ea0&fromAmount=1000000';
const ROUTES_BODY = { fromChainId: 42161, fromAmount: '1000000', fromTokenAddress: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831', toChainId: 10, toTokenAddress: '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85' };

let dir: string;
let contract: ContractValidator;
let now = Date.UTC(2025, 0, 1);
const clock = { now: () => now, advance: (ms: number) => void (now += ms) };
const logs = captureLogger('trace');
/** TRUST_PROXY=loopback, spec limits, keys from a file. */
let main: TestApp;
/** A dedicated instance: ALLOWED_KEY_IDS=key_plain,key_fenced, ALLOWED_INTEGRATORS=acme, no trusted proxy. */
let dedicated: TestApp;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'access-http-'));
  const keyFile = path.join(dir, 'keys.json');
  fs.writeFileSync(keyFile, serializeKeyDocument({ keys: RECORDS }));
  const common = { handlers: { ...handlers, testApiKey }, limits: 'spec' as const, access: { clock: clock.now } };
  [main, dedicated, contract] = await Promise.all([
    makeTestApp({ ...common, env: { API_KEYS_FILE: keyFile, TRUST_PROXY: 'loopback' }, logger: logs.logger }),
    makeTestApp({ ...common, env: { API_KEYS_FILE: keyFile, ALLOWED_KEY_IDS: 'key_plain,key_fenced', ALLOWED_INTEGRATORS: 'acme' } }),
    contractValidator(),
  ]);
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let nextClient = 1;
/** A fresh client address: a counter of its own. */
function newClient(): string {
  nextClient += 1;
  return `192.0.2.${nextClient}`;
}

function send(test: Test, options: { key?: string; from?: string }): Test {
  if (options.key !== undefined) test.set('x-svc-api-key', options.key);
  if (options.from) test.set('x-forwarded-for', options.from);
  return test;
}
const get = (target: string, options: { key?: string; from?: string } = {}, t: TestApp = main) => send(request(t.app).get(target), options);
const post = (target: string, body: unknown, options: { key?: string; from?: string } = {}, t: TestApp = main) => send(request(t.app).post(target).send(body as object), options);

function rateHeaders(res: Response): { limit: number; remaining: number; reset: number } {
  for (const name of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) {
    expect(res.headers[name]).toMatch(/^[0-9]+$/);
  }
  return { limit: Number(res.headers['ratelimit-limit']), remaining: Number(res.headers['ratelimit-remaining']), reset: Number(res.headers['ratelimit-reset']) };
}

/** The status and code, the body (and headers) against the contract, and the rate-limit headers. */
function expectRefusal(res: Response, status: number, operationId?: string): void {
  expect(res.status).toBe(status);
  expect(res.body.code).toBe(status === 429 ? 1005 : 1010);
  if (operationId) contract.expectResponse(operationId, res);
  else contract.expectErrorBody(res.body);
  rateHeaders(res);
}

describe('GET /v1/keys/test', () => {
  it('401 code 1010 without a key', async () => {
    const res = await get('/v1/keys/test', { from: newClient() });
    expectRefusal(res, 401, 'testApiKey');
    expect(res.body.message).toBe('This endpoint requires an API key; send the key in the x-svc-api-key (or x-lifi-api-key) header');
  });

  it('401 code 1010 with an unknown key, or an empty one', async () => {
    expectRefusal(await get('/v1/keys/test', { key: UNKNOWN_KEY, from: newClient() }), 401, 'testApiKey');
    expectRefusal(await get('/v1/keys/test', { key: '', from: newClient() }), 401, 'testApiKey');
  });

  it('200 with the key id, name and limits, never the key', async () => {
    const res = await get('/v1/keys/test', { key: KEYS.probe });
    expect(res.status).toBe(200);
    contract.expectResponse('testApiKey', res);
    expect(res.body).toEqual({ valid: true, keyId: 'key_probe', name: 'probe backend', limits: { perMinute: 100, twoHourWindow: 12_000 } });
    expect(res.text).not.toContain(KEYS.probe);
    expect(rateHeaders(res)).toEqual({ limit: 100, remaining: 99, reset: 60 });
  });

  it("reports an enterprise key's own limits and integrators", async () => {
    const res = await get('/v1/keys/test', { key: KEYS.enterprise });
    contract.expectResponse('testApiKey', res);
    expect(res.body).toEqual({ valid: true, keyId: 'key_enterprise', limits: { perMinute: 500, twoHourWindow: 60_000 }, integrators: ['acme', 'acme-eu'] });
    expect(rateHeaders(res).limit).toBe(500);
  });

  it('403 code 1010 for a blocked key, saying so', async () => {
    const res = await get('/v1/keys/test', { key: KEYS.blocked, from: newClient() });
    expectRefusal(res, 403, 'testApiKey');
    expect(res.body.message).toBe('API key key_blocked is blocked (persistently exceeding limits); contact support to have it unblocked');
  });
});

describe('the ecosystem\'s key header (x-lifi-api-key, what @lifi/sdk sends for createClient({ apiKey }))', () => {
  it('is the same key: its id, its limits; an unknown one is refused as in x-svc-api-key', async () => {
    const res = await request(main.app).get('/v1/keys/test').set('x-lifi-api-key', KEYS.enterprise);
    contract.expectResponse('testApiKey', res);
    expect(res.body).toMatchObject({ valid: true, keyId: 'key_enterprise' });
    expect(rateHeaders(res).limit).toBe(500);
    const quote = await request(main.app).get(QUOTE).set('x-lifi-api-key', KEYS.enterprise);
    expect(rateHeaders(quote).limit).toBe(60_000);
    expectRefusal(await request(main.app).get('/v1/chains').set('x-lifi-api-key', UNKNOWN_KEY).set('x-forwarded-for', newClient()), 401, 'getChains');
  });

  it('@lifi/sdk with apiKey, untouched, gets the key\'s limits (a key of 1 request a minute: the second call is refused)', async () => {
    const server: http.Server = main.app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    try {
      clock.advance(120_000); // fresh windows
      const apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      const keyed = createClient({ integrator: 'sdk-key-test', apiUrl, apiKey: KEYS.slow });
      const anonymous = createClient({ integrator: 'sdk-key-test', apiUrl });
      expect((await getTokens(keyed, { chains: [42161] })).tokens[42161]!.length).toBeGreaterThan(0);
      await expect(getTokens(keyed, { chains: [42161] })).rejects.toThrow(/Rate limit exceeded: 1 requests per minute for API key key_slow/);
      // the same machine without the key: the public limits (100 a minute)
      expect((await getTokens(anonymous, { chains: [42161] })).tokens[42161]!.length).toBeGreaterThan(0);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('both headers: the same key is that key; two different keys are a 400 naming both headers', async () => {
    const same = await request(main.app).get('/v1/keys/test').set('x-lifi-api-key', KEYS.probe).set('x-svc-api-key', KEYS.probe);
    expect(same.body).toMatchObject({ keyId: 'key_probe' });
    const res = await request(main.app).get('/v1/chains').set('x-lifi-api-key', KEYS.probe).set('x-svc-api-key', KEYS.plain);
    expect(res.status).toBe(400);
    contract.expectResponse('getChains', res);
    expect(res.body.code).toBe(1011);
    expect(res.body.message).toMatch(/x-lifi-api-key.*x-svc-api-key/);
    expect(res.text).not.toContain(KEYS.probe);
  });
});

describe('keys on public endpoints', () => {
  it('no key: the unauthenticated limits', async () => {
    const from = newClient();
    const res = await get('/v1/chains', { from });
    expect(res.status).toBe(200);
    contract.expectResponse('getChains', res);
    expect(rateHeaders(res)).toEqual({ limit: 100, remaining: 99, reset: 60 });
    expect(rateHeaders(await get(QUOTE, { from }))).toEqual({ limit: 75, remaining: 74, reset: 7200 });
  });

  it('an unknown key is refused with 401 code 1010, not downgraded to the public limits', async () => {
    const res = await get('/v1/tokens', { key: UNKNOWN_KEY, from: newClient() });
    expectRefusal(res, 401, 'getTokens');
    expect(res.body.message).toBe('Invalid API key: it is not a key this service issued (or it was revoked). Check the key (GET /v1/keys/test), or send no key header to use the public limits');
    expectRefusal(await get(QUOTE, { key: 'x', from: newClient() }), 401, 'getQuote');
    expectRefusal(await post('/v1/advanced/routes', ROUTES_BODY, { key: UNKNOWN_KEY, from: newClient() }), 401, 'postRoutes');
  });

  it('a blocked key is refused with 403 code 1010', async () => {
    const res = await get('/v1/tokens', { key: KEYS.blocked, from: newClient() });
    expectRefusal(res, 403, 'getTokens');
    expect(res.body.message).toMatch(/^API key key_blocked is blocked/);
  });

  it('a key bound to an allowlist: 403 from elsewhere, 200 from inside (X-Forwarded-For from a trusted proxy)', async () => {
    const outside = await get('/v1/chains', { key: KEYS.fenced, from: '198.51.100.4' });
    expectRefusal(outside, 403, 'getChains');
    expect(outside.body.message).toBe('API key key_fenced may not be used from address 198.51.100.4: it is bound to an allowlist of source addresses');
    // a client cannot spoof its way in: only the entry added by the trusted proxy counts
    expectRefusal(await get('/v1/chains', { key: KEYS.fenced, from: '203.0.113.77, 198.51.100.4' }), 403, 'getChains');
    const inside = await get('/v1/chains', { key: KEYS.fenced, from: '198.51.100.4, 203.0.113.77' });
    expect(inside.status).toBe(200);
    expect(rateHeaders(inside)).toEqual({ limit: 100, remaining: 99, reset: 60 });
  });

  it('a key bound to integrators: 403 for another integrator, in the query or the body', async () => {
    const res = await get(`${QUOTE}&integrator=someone-else`, { key: KEYS.enterprise });
    expectRefusal(res, 403, 'getQuote');
    expect(res.body.message).toBe('API key key_enterprise may not be used for integrator "someone-else"');
    expect((await get(`${QUOTE}&integrator=acme`, { key: KEYS.enterprise })).status).not.toBe(403);
    // however the key is written in the query: percent-escaped, repeated, first
    expectRefusal(await get(`${QUOTE}&%69ntegrator=someone-else`, { key: KEYS.enterprise }), 403, 'getQuote');
    expectRefusal(await get(`${QUOTE}&integr%61tor=acme&integrator=someone-else`, { key: KEYS.enterprise }), 403, 'getQuote');
    expectRefusal(await get(`/v1/quote?integrator=someone-else&${QUOTE.split('?')[1]}`, { key: KEYS.enterprise }), 403, 'getQuote');
    expectRefusal(await post('/v1/advanced/routes', { ...ROUTES_BODY, options: { integrator: 'evil' } }, { key: KEYS.enterprise }), 403, 'postRoutes');
    expectRefusal(await post('/v1/quote/contractCalls', { integrator: 'evil' }, { key: KEYS.enterprise }), 403, 'postContractCallsQuote');
  });
});

describe('a dedicated instance', () => {
  it('ALLOWED_KEY_IDS: only the listed keys get in', async () => {
    const none = await get('/v1/chains', {}, dedicated);
    expectRefusal(none, 403, 'getChains');
    expect(none.body.message).toBe('This instance accepts only requests with one of its API keys; send the key in the x-svc-api-key (or x-lifi-api-key) header');
    const other = await get('/v1/chains', { key: KEYS.enterprise }, dedicated);
    expectRefusal(other, 403, 'getChains');
    expect(other.body.message).toBe('API key key_enterprise is not accepted by this instance');
    expectRefusal(await get('/v1/chains', { key: UNKNOWN_KEY }, dedicated), 401, 'getChains');
    expect((await get('/v1/chains', { key: KEYS.plain }, dedicated)).status).toBe(200);
  });

  it('ALLOWED_INTEGRATORS: quotes, routes and steps must name an accepted integrator; the catalog stays open', async () => {
    const missing = await get(QUOTE, { key: KEYS.plain }, dedicated);
    expectRefusal(missing, 403, 'getQuote');
    expect(missing.body.message).toBe('This instance accepts these requests only for its integrators: name one in the integrator parameter');
    const foreign = await get(`${QUOTE}&integrator=evil`, { key: KEYS.plain }, dedicated);
    expectRefusal(foreign, 403, 'getQuote');
    expect(foreign.body.message).toBe('Integrator "evil" is not accepted by this instance');
    expect((await get(`${QUOTE}&integrator=acme`, { key: KEYS.plain }, dedicated)).status).not.toBe(403);
    expectRefusal(await post('/v1/advanced/stepTransaction', { integrator: 'evil' }, { key: KEYS.plain }, dedicated), 403, 'postStepTransaction');
    expectRefusal(await post('/v1/advanced/routes', ROUTES_BODY, { key: KEYS.plain }, dedicated), 403, 'postRoutes');
    expectRefusal(await get('/v1/integrators/evil', { key: KEYS.plain }, dedicated), 403, 'getIntegrator');
    expect((await get('/v1/tools', { key: KEYS.plain }, dedicated)).status).toBe(200);
  });

  it('without TRUST_PROXY, X-Forwarded-For is ignored: the allowlist sees the socket address', async () => {
    const res = await get('/v1/chains', { key: KEYS.fenced, from: '203.0.113.77' }, dedicated);
    expectRefusal(res, 403, 'getChains');
    expect(res.body.message).toMatch(/from address 127\.0\.0\.1:/);
  });
});

describe('rate limits (fake clock)', () => {
  it('every answer carries the headers: 200, 400, 401, 403, 404, 405, malformed JSON, 413', async () => {
    const from = newClient();
    const answers = [
      await get('/v1/chains', { from }),
      await get('/v1/token', { from }),
      await get('/v1/chains', { from, key: UNKNOWN_KEY }),
      await get('/v1/chains', { from, key: KEYS.blocked }),
      await get('/v1/nothing-here', { from }),
      await send(request(main.app).delete('/v1/tokens'), { from }),
      await send(request(main.app).post('/v1/advanced/routes').set('content-type', 'application/json').send('{"fromChainId": 1,'), { from }),
      await send(request(main.app).post('/v1/advanced/routes').set('content-type', 'application/json').send(`{"x":"${'a'.repeat(1_100_000)}"}`), { from }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 400, 401, 403, 404, 405, 400, 413]);
    answers.forEach((res) => rateHeaders(res));
    contract.expectResponse('getToken', answers[1]!);
    contract.expectErrorBody(answers[4]!.body);
    contract.expectErrorBody(answers[5]!.body);
    contract.expectResponse('postRoutes', answers[6]!);
    // the per-minute requests of this client were counted together, refused ones included, except the blocked
    // key's (a block is told before anything is counted): 5 of the first 6
    expect(rateHeaders(answers[5]!)).toEqual({ limit: 100, remaining: 95, reset: 60 });
    // the blocked key's answer: nothing left until it is unblocked (an operator's block, without an end)
    expect(rateHeaders(answers[3]!)).toEqual({ limit: 100, remaining: 0, reset: 60 });
    expect(answers[3]!.headers['retry-after']).toBeUndefined();
    // the two routes requests in the routes window
    expect(rateHeaders(answers[7]!)).toEqual({ limit: 75, remaining: 73, reset: 7200 });
  });

  it('unauthenticated per-minute window: 100, then 429 code 1005 with Retry-After, then free again', async () => {
    const from = newClient();
    const start = now;
    for (let i = 0; i < 100; i += 1) {
      const res = await get(i % 2 === 0 ? '/v1/chains' : '/v1/tools', { from });
      expect(res.status).toBe(200);
      expect(rateHeaders(res).remaining).toBe(99 - i);
      if (i === 0) clock.advance(15_000);
    }
    const refused = await get('/v1/chains', { from });
    expectRefusal(refused, 429, 'getChains');
    expect(rateHeaders(refused)).toEqual({ limit: 100, remaining: 0, reset: 45 });
    expect(refused.headers['retry-after']).toBe('45');
    expect(refused.body.message).toBe(`Rate limit exceeded: 100 requests per minute without an API key. The limit resets in 45 seconds (at ${new Date(start + 60_000).toISOString()})`);
    clock.advance(44_999);
    expect((await get('/v1/chains', { from })).headers['retry-after']).toBe('1');
    clock.advance(1);
    // the first request has left the window; the 99 others (made 15 s in) leave in 15 s
    const again = await get('/v1/chains', { from });
    expect(again.status).toBe(200);
    expect(rateHeaders(again)).toEqual({ limit: 100, remaining: 0, reset: 15 });
    // another client is not affected
    expect(rateHeaders(await get('/v1/chains', { from: newClient() })).remaining).toBe(99);
  });

  it('unauthenticated two-hour windows: 75 quotes (all quote paths together), 75 routes, 50 step transactions', async () => {
    const from = newClient();
    const quotes = [() => get(QUOTE, { from }), () => get('/v1/quote/toAmount?x=1', { from }), () => post('/v1/quote/contractCalls', {}, { from })];
    for (let i = 0; i < 75; i += 1) {
      const res = await quotes[i % 3]!();
      expect(res.status).not.toBe(429);
      expect(rateHeaders(res)).toEqual({ limit: 75, remaining: 74 - i, reset: 7200 });
    }
    clock.advance(600_000);
    const refused = await post('/v1/quote/contractCall', {}, { from });
    expectRefusal(refused, 429, 'postContractCallQuote');
    expect(rateHeaders(refused)).toEqual({ limit: 75, remaining: 0, reset: 6600 });
    expect(refused.headers['retry-after']).toBe('6600');
    expect(refused.body.message).toMatch(/^Rate limit exceeded: 75 quote requests per rolling 2 hours without an API key\. The limit resets in 6600 seconds \(at /);

    expect(rateHeaders(await post('/v1/advanced/routes', ROUTES_BODY, { from }))).toEqual({ limit: 75, remaining: 74, reset: 7200 });
    for (let i = 0; i < 49; i += 1) expect((await post('/v1/advanced/stepTransaction', {}, { from })).status).not.toBe(429);
    expect(rateHeaders(await post('/v1/advanced/stepTransaction', {}, { from }))).toEqual({ limit: 50, remaining: 0, reset: 7200 });
    expectRefusal(await post('/v1/advanced/stepTransaction', {}, { from }), 429, 'postStepTransaction');
    // the per-minute class is untouched
    expect(rateHeaders(await get('/v1/chains', { from }))).toEqual({ limit: 100, remaining: 99, reset: 60 });
    clock.advance(6_600_000);
    expect((await get(QUOTE, { from })).status).not.toBe(429);
  });

  it('authenticated: counted per key across endpoints and addresses; two-hour windows of per-minute x 120; the formula holds', async () => {
    // key_slow: 1 per minute, 120 per two hours
    expect(rateHeaders(await get('/v1/chains', { key: KEYS.slow }))).toEqual({ limit: 1, remaining: 0, reset: 60 });
    const second = await get('/v1/keys/test', { key: KEYS.slow });
    expectRefusal(second, 429, 'testApiKey');
    expect(second.body.message).toMatch(/^Rate limit exceeded: 1 requests per minute for API key key_slow\. The limit resets in 60 seconds/);
    expectRefusal(await get('/v1/tools', { key: KEYS.slow, from: newClient() }), 429, 'getTools');

    // 60 quotes at once, then 30 spread over 30 minutes
    for (let i = 0; i < 60; i += 1) expect((await get(QUOTE, { key: KEYS.slow })).status).not.toBe(429);
    let res: Response | undefined;
    for (let i = 0; i < 30; i += 1) {
      clock.advance(60_000);
      res = await get(QUOTE, { key: KEYS.slow, from: newClient() });
    }
    const h = rateHeaders(res!);
    expect(h).toEqual({ limit: 120, remaining: 30, reset: 5400 });
    // (limit - remaining) / ((7200 - reset) / 60): 90 requests in the 30 minutes since the oldest counted one
    expect((h.limit - h.remaining) / ((7200 - h.reset) / 60)).toBe(3);
    for (let i = 0; i < 30; i += 1) expect((await post('/v1/quote/contractCalls', {}, { key: KEYS.slow })).status).not.toBe(429);
    const over = await get(QUOTE, { key: KEYS.slow });
    expectRefusal(over, 429, 'getQuote');
    expect(over.headers['retry-after']).toBe('5400');
    // a default key: 12000 per two hours on the two-hour buckets, 100 per minute elsewhere
    expect(rateHeaders(await get(QUOTE, { key: KEYS.owner }))).toEqual({ limit: 12_000, remaining: 11_999, reset: 7200 });
    expect(rateHeaders(await post('/v1/advanced/stepTransaction', {}, { key: KEYS.owner }))).toEqual({ limit: 12_000, remaining: 11_999, reset: 7200 });
    expect(rateHeaders(await get('/v1/tokens', { key: KEYS.owner }))).toEqual({ limit: 100, remaining: 99, reset: 60 });
  });

  it('refused keys are charged to the client address, so guessing keys runs into 429', async () => {
    const from = newClient();
    for (let i = 0; i < 100; i += 1) expect((await get('/v1/chains', { key: `svc_guess${i}`, from })).status).toBe(401);
    expectRefusal(await get('/v1/chains', { key: 'svc_guess100', from }), 429, 'getChains');
    // the owner of a real key is not affected, from the same address
    expect((await get('/v1/chains', { key: KEYS.owner, from })).status).toBe(200);
  });

  it('200 concurrent requests at the edge of the limit admit exactly the limit', async () => {
    const server = main.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const from = newClient();
      const call = () => fetch(`http://127.0.0.1:${port}/v1/chains?chainTypes=EVM`, { headers: { 'x-forwarded-for': from } }).then(async (r) => (await r.arrayBuffer(), r.status));
      for (let i = 0; i < 50; i += 1) expect(await call()).toBe(200);
      const statuses = await Promise.all(Array.from({ length: 200 }, call));
      expect(statuses.filter((s) => s === 200)).toHaveLength(50);
      expect(statuses.filter((s) => s === 429)).toHaveLength(150);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('RATE_LIMITS=off and RATE_LIMIT_OVERRIDE', () => {
  /** The middleware alone on a bare express app (building the full app is slow). */
  function bare(options: { rateLimits?: 'on' | 'off'; override?: number }): express.Express {
    const access = createAccessControl({ keys: new StaticKeyStore(RECORDS), store: new MemoryLimiterStore(), ...options });
    const app = express();
    app.use(pinoHttp({ logger: pino({ level: 'silent' }) }));
    // the bare app has no contract to match operations in: quotes count as the quote class, the rest per minute
    app.use(access.identify((req) => (req.path.startsWith('/v1/quote') ? { limit: 'quote' } : { limit: 'minute' })));
    app.use((_req, res) => void res.json({ ok: true }));
    return app;
  }

  it('off: nothing counted, no rate-limit headers, keys still checked', async () => {
    const app = bare({ rateLimits: 'off' });
    for (let i = 0; i < 150; i += 1) expect((await request(app).get('/v1/chains')).status).toBe(200);
    expect((await request(app).get('/v1/chains')).headers['ratelimit-limit']).toBeUndefined();
    expect((await request(app).get('/v1/chains').set('x-svc-api-key', UNKNOWN_KEY)).status).toBe(401);
  });

  it('override: every limit replaced, windows unchanged', async () => {
    const app = bare({ override: 3 });
    expect(rateHeaders(await request(app).get(QUOTE))).toEqual({ limit: 3, remaining: 2, reset: 7200 });
    expect(rateHeaders(await request(app).get('/v1/chains').set('x-svc-api-key', KEYS.plain))).toEqual({ limit: 3, remaining: 2, reset: 60 });
  });
});

describe('logs', () => {
  it('never contain a key: ids for known keys, a hash fingerprint for unknown ones', async () => {
    const from = newClient();
    const before = logs.lines.length;
    await get('/v1/keys/test', { key: KEYS.probe, from });
    await get('/v1/chains', { key: UNKNOWN_KEY, from });
    await get('/v1/chains', { key: KEYS.blocked, from });
    await get('/v1/chains', { key: KEYS.fenced, from });
    await get(`${QUOTE}&integrator=evil`, { key: KEYS.enterprise, from });
    await request(main.app).get('/v1/chains').set('x-lifi-api-key', KEYS.plain).set('x-forwarded-for', from);
    const lines = logs.lines.slice(before);
    expect(lines.length).toBeGreaterThanOrEqual(10);
    const text = lines.join('\n');
    for (const key of [...Object.values(KEYS), UNKNOWN_KEY]) expect(text).not.toContain(key);
    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const refusals = records.filter((r) => String(r.msg).startsWith('access refused'));
    expect(refusals.map((r) => [r.reason, r.keyId ?? r.keyFingerprint])).toEqual([
      ['unknown-key', hashApiKey(UNKNOWN_KEY).slice(0, 12)],
      ['blocked', 'key_blocked'],
      ['address-not-allowed', 'key_fenced'],
      ['integrator-not-allowed', 'key_enterprise'],
    ]);
    const completed = records.filter((r) => r.msg === 'request completed');
    expect(completed).toHaveLength(6);
    for (const r of completed.slice(0, 5)) expect((r.req as { headers: Record<string, string> }).headers['x-svc-api-key']).toBe('[redacted]');
    expect((completed[5]!.req as { headers: Record<string, string> }).headers['x-lifi-api-key']).toBe('[redacted]');
  });
});
