import request from 'supertest';
import { gunzipSync } from 'node:zlib';
import { makeTestApp, type TestApp } from '../support/app';
import { contractValidator, type ContractValidator } from '../support/contract';

let t: TestApp;
let contract: ContractValidator;
beforeAll(async () => {
  t = await makeTestApp();
  contract = await contractValidator();
});

const QUOTE = '/v1/quote?fromChain=arb&toChain=opt&fromToken=USDC&toToken=USDC&fromAmount=1000000000&fromAddress=0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea9';

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

  it('serves quotes from the cache with identical bodies, and never caches errors', async () => {
    const a = await request(t.app).get(QUOTE);
    const b = await request(t.app).get(QUOTE);
    contract.expectResponse('getQuote', b);
    expect(b.body).toEqual(a.body);
    expect(b.headers.etag).toBe(a.headers.etag);
    const bad = await request(t.app).get('/v1/token?chain=arb&token=NOPE');
    expect(bad.status).toBe(404);
    expect(bad.headers.etag).toBeUndefined();
  });
});
