/**
 * The shortcuts taken for speed answer exactly as the long way: a URL answered from the response cache still
 * passes access control, a replaced liquidity graph is never answered from what was cached for the previous
 * one, and logs made during a request carry the request whether or not request lines are logged.
 */
import request from 'supertest';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { loadSnapshot } from '../../src/files/snapshot';
import { RoutingGraph } from '../../src/core/routing/graph';
import { DEFAULT_SNAPSHOT_DIR } from '../../src/config';
import type { HandlerTable } from '../../src/server/operation';
import { handlers } from '../../handlers';
import { makeTestApp, useContract, useTestApp } from '../support/app';
import { captureLogger } from '../support/logCapture';
import { ARB_USDC, OP_USDC, WALLET, routesRequest } from '../support/fixtures';

const QUOTE = `/v1/quote?fromChain=eth&toChain=eth&fromToken=ETH&toToken=USDC&fromAmount=1000000000000000000&fromAddress=${WALLET}`;

const contract = useContract();

describe('answers cached for a URL', () => {
  const t = useTestApp({ env: { API_KEYS: JSON.stringify({ keys: [] }) } });

  it('still go through access control', async () => {
    expect((await request(t.app).get('/v1/chains')).status).toBe(200);
    const cached = await request(t.app).get('/v1/chains');
    expect(cached.status).toBe(200);
    expect(cached.headers['ratelimit-limit']).toBeDefined();
    const unknownKey = await request(t.app).get('/v1/chains').set('x-svc-api-key', 'not-a-key-of-this-service');
    expect(unknownKey.status).toBe(401);
    contract.expectErrorBody(unknownKey.body);
  });

  it('are the answers of the same request written another way', async () => {
    const a = await request(t.app).get('/v1/tokens?chains=arb,opt');
    const b = await request(t.app).get('/v1/tokens?chains=arb&chains=opt');
    const c = await request(t.app).get('/v1/tokens?chains=arb&chains=opt');
    expect(a.status).toBe(200);
    expect(b.headers.etag).toBe(a.headers.etag);
    expect(c.headers.etag).toBe(a.headers.etag);
    expect(c.body).toEqual(a.body);
  });

  const ROUTES = routesRequest(42161, ARB_USDC, 10, OP_USDC, '1000000000');

  it('of a POST body answered before still go through access control, and match the same body written another way', async () => {
    const first = await request(t.app).post('/v1/advanced/routes').send(ROUTES);
    expect(first.status).toBe(200);
    contract.expectResponse('postRoutes', first);
    const spaced = await request(t.app).post('/v1/advanced/routes').set('content-type', 'application/json').send(JSON.stringify(ROUTES, null, 2));
    expect(spaced.status).toBe(200);
    expect(spaced.headers.etag).toBe(first.headers.etag);
    expect(spaced.body).toEqual(first.body);
    expect(spaced.headers['ratelimit-limit']).toBeDefined();
    const unknownKey = await request(t.app).post('/v1/advanced/routes').set('x-svc-api-key', 'not-a-key-of-this-service').send(ROUTES);
    expect(unknownKey.status).toBe(401);
    contract.expectErrorBody(unknownKey.body);
  });

  it('of a compressed POST body are the answers of the same body sent plain', async () => {
    const plain = await request(t.app).post('/v1/advanced/routes').send(ROUTES);
    // over a real socket: supertest's agent does not send a compressed body as it is
    const server = t.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      for (let k = 0; k < 2; k++) {
        const compressed = await fetch(`http://127.0.0.1:${port}/v1/advanced/routes`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
          body: gzipSync(JSON.stringify(ROUTES)),
        });
        expect(compressed.status).toBe(200);
        expect(compressed.headers.get('etag')).toBe(plain.headers.etag);
        expect(await compressed.json()).toEqual(plain.body);
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('of a POST are keyed by URL and body: another body or a query string is another request', async () => {
    const a = await request(t.app).post('/v1/advanced/routes').send(ROUTES);
    const other = await request(t.app).post('/v1/advanced/routes').send({ ...ROUTES, fromAmount: '3000000000' });
    expect(other.status).toBe(200);
    expect(other.headers.etag).not.toBe(a.headers.etag);
    for (let k = 0; k < 2; k++) {
      // an unknown query parameter is ignored, and said so, on the cached path as on the first
      const unknownParameter = await request(t.app).post('/v1/advanced/routes?extra=1').send(ROUTES);
      expect(unknownParameter.status).toBe(200);
      expect(unknownParameter.headers['x-ignored-parameters']).toBe('extra');
      expect(unknownParameter.body).toEqual(a.body);
      const invalid = await request(t.app).post('/v1/advanced/routes').send({ ...ROUTES, fromAmount: '-1' });
      expect(invalid.status).toBe(400);
      expect(invalid.headers.etag).toBeUndefined();
    }
  });

  it('answer a bad request as before, never from the cache', async () => {
    const bad = '/v1/quote?fromChain=eth&toChain=eth&fromToken=ETH&toToken=USDC&fromAmount=-1';
    for (let k = 0; k < 2; k++) {
      const res = await request(t.app).get(bad);
      expect(res.status).toBe(400);
      expect(res.headers.etag).toBeUndefined();
    }
  });
});

describe('a replaced liquidity graph (chain mode)', () => {
  it('is quoted on the new graph, not from answers cached on the previous one', async () => {
    const t = await makeTestApp();
    const original = t.dependencies.graph;
    const first = await request(t.app).get(QUOTE);
    expect(first.status).toBe(200);
    contract.expectResponse('getQuote', first);
    expect((await request(t.app).get(QUOTE)).headers.etag).toBe(first.headers.etag);

    const snapshot = loadSnapshot(DEFAULT_SNAPSHOT_DIR, t.dependencies.catalog);
    t.dependencies.liquidity.replace(new RoutingGraph(t.dependencies.catalog, { ...snapshot, pools: [] }));
    const withoutPools = await request(t.app).get(QUOTE);
    expect(withoutPools.status).toBe(404);
    contract.expectErrorBody(withoutPools.body);

    t.dependencies.liquidity.replace(original);
    const again = await request(t.app).get(QUOTE);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
  });
});

describe('logs made during a request', () => {
  const warnOnChains: HandlerTable = {
    ...handlers,
    getChains: (req) => {
      req.log.warn({ detail: 1 }, 'something to say');
      return { status: 200, body: { chains: [] } };
    },
  };

  it.each(['warn', 'info'] as const)('carry the request (id, method, url, secrets redacted) at level %s', async (level) => {
    const logs = captureLogger(level);
    const t = await makeTestApp({ handlers: warnOnChains, logger: logs.logger });
    const res = await request(t.app).get('/v1/chains').set('x-request-id', 'req-42').set('authorization', 'Bearer secret-token');
    expect(res.status).toBe(200);
    const records = logs.records();
    const warning = records.find((r) => r.msg === 'something to say');
    expect(warning).toMatchObject({ detail: 1, req: { id: 'req-42', method: 'GET', url: '/v1/chains', headers: { authorization: '[redacted]' } } });
    expect(logs.lines.join('\n')).not.toContain('secret-token');
    const completed = records.filter((r) => r.msg === 'request completed');
    expect(completed).toHaveLength(level === 'info' ? 1 : 0);
  });
});
