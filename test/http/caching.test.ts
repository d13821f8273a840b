import request from 'supertest';
import { gunzipSync } from 'node:zlib';
import { makeTestApp, useAppAndContract } from '../support/app';
import { handlers } from '../../handlers';
import type { Dependencies } from '../../src/server/dependencies';
import type { OperationRequest } from '../../src/server/operation';
import { ARB_USDC, OP_USDC, WALLET } from '../support/fixtures';

const { t, contract } = useAppAndContract();

const QUOTE = `/v1/quote?fromChain=arb&toChain=opt&fromToken=USDC&toToken=USDC&fromAmount=1000000000&fromAddress=${WALLET}`;

describe('response cache of request-determined answers', () => {
  it('answers the same request with the same body and ETag, and 304 to If-None-Match', async () => {
    const first = await request(t.app).get('/v1/tokens?chains=arb');
    contract.expectResponse('getTokens', first);
    const etag = first.headers.etag;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const second = await request(t.app).get('/v1/tokens?chains=arb');
    expect(second.headers.etag).toBe(etag);
    expect(second.body).toEqual(first.body);
    const notModified = await request(t.app).get('/v1/tokens?chains=arb').set('if-none-match', etag);
    expect(notModified.status).toBe(304);
    expect(notModified.text ?? '').toBe('');
    expect(notModified.headers['ratelimit-limit']).toBeDefined();
  });

  it('keys by the validated request, whatever the order of the query', async () => {
    const a = await request(t.app).get('/v1/tokens?chains=arb&tags=stablecoin');
    const b = await request(t.app).get('/v1/tokens?tags=stablecoin&chains=arb');
    expect(b.headers.etag).toBe(a.headers.etag);
  });

  it('compresses large answers by Accept-Encoding and sends small ones as they are', async () => {
    const gz = await request(t.app).get('/v1/tokens').set('accept-encoding', 'gzip').buffer(true).parse((res, cb) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => cb(null, Buffer.concat(chunks)));
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toMatch(/Accept-Encoding/);
    const plain = await request(t.app).get('/v1/tokens').set('accept-encoding', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    // supertest decompresses gzip itself; the raw bytes were gzip of the same JSON
    expect(JSON.parse(Buffer.isBuffer(gz.body) ? gz.body.toString() : gunzipSync(gz.body).toString())).toEqual(plain.body);
  });

  it('serves quotes from the cache with identical bodies, and no ETag on an error', async () => {
    const a = await request(t.app).get(QUOTE);
    const b = await request(t.app).get(QUOTE);
    contract.expectResponse('getQuote', b);
    expect(b.body).toEqual(a.body);
    expect(b.headers.etag).toBe(a.headers.etag);
    const bad = await request(t.app).get('/v1/token?chain=arb&token=NOPE');
    expect(bad.status).toBe(404);
    expect(bad.headers.etag).toBeUndefined();
  });

  it('serves "no route" answers (404 code 1002) from the cache too, without an ETag; other errors are not kept', async () => {
    const calls = new Map<string, number>();
    const counted = Object.fromEntries(
      // counting wrappers keep each operation's cache policy
      Object.entries(handlers).map(([id, handler]) => [id, Object.assign((req: OperationRequest, deps: Dependencies) => (calls.set(id, (calls.get(id) ?? 0) + 1), handler(req, deps)), { cache: handler.cache })]),
    );
    const { app } = await makeTestApp({ handlers: counted });
    const noRoute = `${QUOTE}&allowBridges=none`;
    const answers = [await request(app).get(noRoute), await request(app).get(noRoute), await request(app).get(noRoute).set('accept-encoding', 'gzip')];
    for (const answer of answers) {
      contract.expectResponse('getQuote', answer);
      expect(answer.status).toBe(404);
      expect(answer.body.code).toBe(1002);
      expect(answer.body).toEqual(answers[0]!.body);
      expect(answer.headers.etag).toBeUndefined();
    }
    expect(answers[2]!.headers['content-encoding']).toBe('gzip');
    expect(calls.get('getQuote')).toBe(1);
    // the same search bounded by timing strategies is run again each time
    const timed = `${noRoute}&swapStepTimingStrategies=minWaitTime-600-4-300`;
    expect((await request(app).get(timed)).status).toBe(404);
    expect((await request(app).get(timed)).status).toBe(404);
    expect(calls.get('getQuote')).toBe(3);
    // POST /v1/advanced/routes alike
    const body = { fromChainId: 42161, toChainId: 10, fromTokenAddress: ARB_USDC, toTokenAddress: OP_USDC, fromAmount: '1000000000', options: { bridges: { allow: ['none'] } } };
    const routes = [await request(app).post('/v1/advanced/routes').send(body), await request(app).post('/v1/advanced/routes').send(body)];
    for (const answer of routes) {
      contract.expectResponse('postRoutes', answer);
      expect([answer.status, answer.body.code]).toEqual([404, 1002]);
    }
    expect(calls.get('postRoutes')).toBe(1);
    // a token that is not in the catalog (404 code 1003) is looked up again
    expect((await request(app).get('/v1/token?chain=arb&token=NOPE')).status).toBe(404);
    expect((await request(app).get('/v1/token?chain=arb&token=NOPE')).status).toBe(404);
    expect(calls.get('getToken')).toBe(2);
  });

  it('serves the deprecated POST /v1/advanced/possibilities (3 MB without filters) from the cache, compressed on request', async () => {
    const calls: string[] = [];
    const counted = Object.assign((req: OperationRequest, deps: Dependencies) => (calls.push('x'), handlers.postPossibilities!(req, deps)), { cache: handlers.postPossibilities!.cache });
    const { app } = await makeTestApp({ handlers: { ...handlers, postPossibilities: counted } });
    const first = await request(app).post('/v1/advanced/possibilities').set('accept-encoding', 'identity').send({});
    contract.expectResponse('postPossibilities', first);
    expect(first.headers['content-encoding']).toBeUndefined();
    expect(first.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(Number(first.headers['content-length'])).toBeGreaterThan(1_000_000);
    const gzipped = await request(app).post('/v1/advanced/possibilities').set('accept-encoding', 'gzip').send({}).buffer(true).parse((res, cb) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => cb(null, Buffer.concat(chunks)));
    });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers.etag).toBe(first.headers.etag);
    // content-length is what went over the wire; supertest hands over the body decompressed
    expect(Number(gzipped.headers['content-length'])).toBeLessThan(Number(first.headers['content-length']) / 5);
    expect(JSON.parse((gzipped.body as Buffer).toString())).toEqual(first.body);
    const filtered = await request(app).post('/v1/advanced/possibilities').send({ chains: [42161, 10] });
    contract.expectResponse('postPossibilities', filtered);
    expect(filtered.headers.etag).not.toBe(first.headers.etag);
    expect(calls).toHaveLength(2); // the unfiltered request was searched once
  });

  it('serves POST /v1/advanced/routes from the cache by the validated body, whatever the order of its keys', async () => {
    const body = { fromChainId: 42161, toChainId: 10, fromTokenAddress: ARB_USDC, toTokenAddress: OP_USDC, fromAmount: '1000000000', options: { order: 'CHEAPEST', slippage: 0.003 } };
    const a = await request(t.app).post('/v1/advanced/routes').send(body);
    contract.expectResponse('postRoutes', a);
    expect(a.status).toBe(200);
    expect(a.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const reordered = { options: { slippage: 0.003, order: 'CHEAPEST' }, fromAmount: '1000000000', toTokenAddress: OP_USDC, fromTokenAddress: ARB_USDC, toChainId: 10, fromChainId: 42161 };
    const b = await request(t.app).post('/v1/advanced/routes').send(reordered);
    contract.expectResponse('postRoutes', b);
    expect(b.headers.etag).toBe(a.headers.etag);
    expect(b.body).toEqual(a.body);
    const other = await request(t.app).post('/v1/advanced/routes').send({ ...body, fromAmount: '2000000000' });
    expect(other.status).toBe(200);
    expect(other.headers.etag).not.toBe(a.headers.etag);
  });

  it('never caches an answer whose search was bounded by timing strategies (it depends on how long the search ran)', async () => {
    const timed = `${QUOTE}&swapStepTimingStrategies=minWaitTime-600-4-300`;
    const quote = await request(t.app).get(timed);
    contract.expectResponse('getQuote', quote);
    expect(quote.status).toBe(200);
    expect(quote.headers.etag).toBeUndefined();
    expect((await request(t.app).get(timed)).headers.etag).toBeUndefined();
    const body = { fromChainId: 42161, toChainId: 10, fromTokenAddress: ARB_USDC, toTokenAddress: OP_USDC, fromAmount: '1000000000', options: { timing: { routeTimingStrategies: [{ strategy: 'minWaitTime', minWaitTimeMs: 600, startingExpectedResults: 4, reduceEveryMs: 300 }] } } };
    const routes = await request(t.app).post('/v1/advanced/routes').send(body);
    contract.expectResponse('postRoutes', routes);
    expect(routes.status).toBe(200);
    expect(routes.headers.etag).toBeUndefined();
    // the same requests without timing strategies are cached
    expect((await request(t.app).get(QUOTE)).headers.etag).toMatch(/^"/);
  });
});
