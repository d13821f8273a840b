import express from 'express';
import request from 'supertest';
import { handlers } from '../../../handlers';
import { warmUp, warmUpPaths, warmUpQueries } from '../../../src/server/warmUp';
import type { HandlerTable } from '../../../src/server/operation';
import { makeTestApp, useTestApp } from '../../support/app';
import { captureLogger } from '../../support/logCapture';

const t = useTestApp();

test('the warm-up quotes are made from the catalog: a stablecoin to the native coin, and to another chain', () => {
  const queries = warmUpQueries(t.dependencies.catalog);
  expect(queries.length).toBe(6);
  const sameChain = queries.filter((q) => q.fromChain === q.toChain);
  const crossChain = queries.filter((q) => q.fromChain !== q.toChain);
  expect(sameChain).toHaveLength(3);
  expect(crossChain).toHaveLength(3);
  for (const q of queries) {
    const token = t.dependencies.catalog.findToken(Number(q.fromChain), q.fromToken)!;
    expect(token.tags).toContain('stablecoin');
    expect(BigInt(q.fromAmount)).toBe(1000n * 10n ** BigInt(token.decimals));
  }
  for (const q of sameChain) expect(q.toToken).toBe(t.dependencies.catalog.getChain(Number(q.toChain))!.nativeToken.address);
});

test('the warm-up asks each quote once per round with another amount, then the first again (an answer from the response cache)', () => {
  const queries = warmUpQueries(t.dependencies.catalog);
  const paths = warmUpPaths(queries, 2);
  expect(paths).toHaveLength(13);
  expect(new Set(paths.slice(0, 12)).size).toBe(12);
  expect(paths[12]).toBe(paths[0]);
  const first = new URL(paths[6], 'http://x').searchParams;
  expect(first.get('fromAmount')).toBe((BigInt(queries[0].fromAmount) + 1n).toString());
  expect(first.get('fromAddress')).toBe(queries[0].fromAddress);
  expect(warmUpPaths([])).toEqual([]);
});

test('warmUp sends each path over HTTP on a new connection, counts the 200s, and closes its port', async () => {
  const seen: { path: string; port: number | undefined }[] = [];
  const app = express().get('/v1/quote', (req, res) => {
    seen.push({ path: req.originalUrl, port: req.socket.remotePort });
    res.status(req.query.fail ? 404 : 200).json({});
  });
  const result = await warmUp(app, ['/v1/quote?a=1', '/v1/quote?fail=1', '/v1/quote?a=2']);
  expect(result).toMatchObject({ quotes: 3, answered: 2 });
  expect(seen.map((s) => s.path)).toEqual(['/v1/quote?a=1', '/v1/quote?fail=1', '/v1/quote?a=2']);
  expect(new Set(seen.map((s) => s.port)).size).toBe(3);
  expect(await warmUp(app, [])).toMatchObject({ quotes: 0, answered: 0 });
});

test('the service warms its own pipeline before it is built, and none of it counts for a client: limits, metrics, route searches', async () => {
  const calls: string[] = [];
  // the handler with its cache policy (a wrapper without it would be answered afresh every time)
  const getQuote = Object.assign((req: Parameters<typeof handlers.getQuote>[0], deps: Parameters<typeof handlers.getQuote>[1]) => (calls.push(String(req.query.fromAmount)), handlers.getQuote(req, deps)), { cache: handlers.getQuote.cache });
  const counting: HandlerTable = { ...handlers, getQuote };
  const { logger, records } = captureLogger('debug');
  const warmed = await makeTestApp({ handlers: counting, logger, limits: 'spec', warmUp: true });
  try {
    // through the pipeline: 18 quotes reached the handler, the 19th was answered from the response cache
    expect(records().find((r) => r.msg === 'warmed up')).toMatchObject({ quotes: 19, answered: 19 });
    expect(calls).toHaveLength(18);
    const metrics = (await request(warmed.app).get('/metrics').expect(200)).text;
    expect(metrics).not.toMatch(/operation="getQuote"/);
    expect(metrics).toMatch(/^route_search_duration_seconds_count 0$/m);
    // the first client's quote is its first against its limit
    const queries = warmUpQueries(warmed.dependencies.catalog);
    const res = await request(warmed.app).get('/v1/quote').query({ ...queries[0], fromAmount: '999000000' }).expect(200);
    expect(Number(res.headers['ratelimit-remaining'])).toBe(Number(res.headers['ratelimit-limit']) - 1);
    const after = (await request(warmed.app).get('/metrics').expect(200)).text;
    expect(after).toMatch(/^route_search_duration_seconds_count 1$/m);
    expect(after).toMatch(/^response_cache_misses_total\{operation="getQuote"\} 1$/m);
  } finally {
    await warmed.dependencies.access.close();
  }
});

test('the service warms up in the background once it listens, answering meanwhile: none of it counts for a client, then every operation\'s validators compile', async () => {
  const calls: string[] = [];
  const getQuote = Object.assign((req: Parameters<typeof handlers.getQuote>[0], deps: Parameters<typeof handlers.getQuote>[1]) => (calls.push(String(req.query.fromAmount)), handlers.getQuote(req, deps)), { cache: handlers.getQuote.cache });
  const counting: HandlerTable = { ...handlers, getQuote };
  const { logger, records } = captureLogger('debug');
  let listening!: () => void;
  const listened = new Promise<void>((resolve) => (listening = resolve));
  const app = await makeTestApp({ handlers: counting, logger, limits: 'spec', warmUp: { after: listened } });
  const logged = async (msg: string) => {
    for (let waited = 0; !records().some((r) => r.msg === msg); waited += 20) {
      if (waited > 20_000) throw new Error(`never logged: ${msg}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return records().find((r) => r.msg === msg)!;
  };
  try {
    // the app answers before it has warmed up, and nothing warms up until it is told the service listens
    await request(app.app).get('/v1/chains').expect(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(calls).toHaveLength(0);
    listening();
    // clients' quotes while it warms up: each its own route search, counted for the client; the warm-up's for no one
    const queries = warmUpQueries(app.dependencies.catalog);
    const clients = [997, 998, 999].map((thousands) => ({ ...queries[0], fromAmount: `${thousands}000000` }));
    for (const query of clients) await request(app.app).get('/v1/quote').query(query).expect(200);
    expect(await logged('warmed up')).toMatchObject({ quotes: 19, answered: 19 });
    expect(calls).toHaveLength(18 + clients.length);
    const metrics = (await request(app.app).get('/metrics').expect(200)).text;
    expect(metrics).toMatch(new RegExp(`^route_search_duration_seconds_count ${clients.length}$`, 'm'));
    expect(metrics).toMatch(new RegExp(`^response_cache_misses_total\\{operation="getQuote"\\} ${clients.length}$`, 'm'));
    // then the validators of every operation of the contract, one operation at a time
    expect(await logged('request validators compiled')).toMatchObject({ operations: expect.any(Number) });
    expect((records().find((r) => r.msg === 'request validators compiled')!.operations as number)).toBeGreaterThan(20);
  } finally {
    await app.dependencies.access.close();
  }
});
