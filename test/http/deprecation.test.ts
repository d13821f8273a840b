/**
 * Deprecated operations say so on the wire: Deprecation, Sunset and Link on every answer (errors and cached answers
 * included), as openapi.yaml's x-deprecation says; operations that are not deprecated carry none of them.
 */
import fs from 'node:fs';
import yaml from 'js-yaml';
import request from 'supertest';
import { useAppAndContract } from '../support/app';
import { OPENAPI_PATH } from '../support/contract';

const { t, contract } = useAppAndContract();

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const spec = yaml.load(fs.readFileSync(OPENAPI_PATH, 'utf8')) as any;
const exampleBody = (path: string) => spec.paths[path].post.requestBody.content['application/json'].example;

const CONTRACT_CALL = {
  Deprecation: '@1795564800', // 2026-11-25T00:00:00Z
  Sunset: 'Tue, 01 Jun 2027 00:00:00 GMT',
  Link: '</v1/quote/contractCalls>; rel="successor-version", </docs>; rel="deprecation"; type="text/html"',
};

const noticeOf = (res: request.Response) => ({ Deprecation: res.headers.deprecation, Sunset: res.headers.sunset, Link: res.headers.link });

describe('POST /v1/quote/contractCall (deprecated)', () => {
  it('answers with Deprecation, Sunset and a Link to POST /v1/quote/contractCalls', async () => {
    const res = await request(t.app).post('/v1/quote/contractCall').send(exampleBody('/v1/quote/contractCall'));
    expect(res.status).toBe(200);
    contract.expectResponse('postContractCallQuote', res);
    expect(noticeOf(res)).toEqual(CONTRACT_CALL);
  });

  it('lets a browser script of another origin read the headers', async () => {
    const res = await request(t.app).post('/v1/quote/contractCall').set('origin', 'https://app.example.com').send(exampleBody('/v1/quote/contractCall'));
    expect(String(res.headers['access-control-expose-headers']).split(',')).toEqual(expect.arrayContaining(['deprecation', 'sunset', 'link']));
  });

  it('says so on its errors too', async () => {
    const res = await request(t.app).post('/v1/quote/contractCall').send({ fromChain: 'nochain' });
    expect(res.status).toBe(400);
    contract.expectResponse('postContractCallQuote', res);
    expect(noticeOf(res)).toEqual(CONTRACT_CALL);
  });
});

describe('POST /v1/advanced/possibilities (deprecated)', () => {
  it('links GET /v1/connections as its successor, on a fresh and on a cached answer', async () => {
    for (let i = 0; i < 2; i += 1) {
      const res = await request(t.app).post('/v1/advanced/possibilities').send({ chains: [42161, 10] });
      expect(res.status).toBe(200);
      contract.expectResponse('postPossibilities', res);
      expect(noticeOf(res)).toEqual({ ...CONTRACT_CALL, Link: '</v1/connections>; rel="successor-version", </docs>; rel="deprecation"; type="text/html"' });
    }
  });
});

it('operations that are not deprecated carry no deprecation headers', async () => {
  for (const res of [
    await request(t.app).post('/v1/quote/contractCalls').send({ fromChain: 'nochain' }),
    await request(t.app).get('/v1/connections?fromChain=arb'),
    await request(t.app).get('/v1/chains'),
  ]) {
    expect(noticeOf(res)).toEqual({ Deprecation: undefined, Sunset: undefined, Link: undefined });
  }
});
