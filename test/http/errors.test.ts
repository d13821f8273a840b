import request from 'supertest';
import { makeTestApp, useAppAndContract } from '../support/app';
import type { HandlerTable } from '../../src/server/operation';
import { handlers } from '../../handlers';

const { t, contract } = useAppAndContract();

describe('the one error path', () => {
  it('answers an unknown path with 404 code 1003 in JSON', async () => {
    const res = await request(t.app).get('/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    contract.expectErrorBody(res.body);
    expect(res.body.code).toBe(1003);
  });

  it('answers a wrong method with 405 and an Allow header', async () => {
    const res = await request(t.app).delete('/v1/tokens');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET');
    contract.expectErrorBody(res.body);
  });

  it('answers malformed JSON with 400 code 1011, never HTML', async () => {
    const res = await request(t.app).post('/v1/advanced/routes').set('content-type', 'application/json').send('{"fromChainId": 1,');
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    contract.expectErrorBody(res.body);
    expect(res.body).toMatchObject({ code: 1011 });
    expect(res.body.message).toMatch(/not valid JSON/);
  });

  it.each([
    ['utf-16 on a POST', 'post', '/v1/advanced/routes', 'application/json; charset=utf-16', '{}', 'utf-16'],
    // a one-byte body declared UTF-16 would decode to nothing: refused, not read as an empty object
    ['utf-16 on a GET with a one-byte body', 'get', '/v1/chains', 'application/json; charset=UTF-16', '!', 'utf-16'],
    ['a quoted utf-32', 'post', '/v1/advanced/routes', 'application/json; charset="utf-32"', '{}', 'utf-32'],
    ['latin1', 'post', '/v1/advanced/routes', 'application/json;charset=latin1', '{}', 'latin1'],
  ] as const)('refuses a JSON body in any charset but UTF-8 (%s) with 415 naming it', async (_name, method, path, type, body, charset) => {
    const res = await request(t.app)[method](path).set('content-type', type).send(body);
    expect(res.status).toBe(415);
    contract.expectErrorBody(res.body);
    expect(res.body).toMatchObject({ code: 1011 });
    expect(res.body.message).toContain(`a JSON body must be UTF-8 (content-type charset "${charset}"`);
  });

  it('reads a JSON body declared utf-8 (quoted or not, any case) as before', async () => {
    for (const type of ['application/json; charset=utf-8', 'application/json; charset="UTF-8"', 'application/json']) {
      const res = await request(t.app).post('/v1/advanced/routes').set('content-type', type).send('{"fromChainId": 1,');
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/not valid JSON/);
    }
  });

  it('answers a body over the limit with 413 in JSON', async () => {
    const res = await request(t.app).post('/v1/advanced/routes').set('content-type', 'application/json').send(`{"x":"${'a'.repeat(1_100_000)}"}`);
    expect(res.status).toBe(413);
    contract.expectErrorBody(res.body);
  });

  it('carries a request id, generated or taken from a safe incoming header', async () => {
    const generated = await request(t.app).get('/v1/chains');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await request(t.app).get('/v1/chains').set('x-request-id', 'trace-123');
    expect(kept.headers['x-request-id']).toBe('trace-123');
    const replaced = await request(t.app).get('/v1/chains').set('x-request-id', 'bad id with spaces');
    expect(replaced.headers['x-request-id']).not.toBe('bad id with spaces');
  });

  it('turns an unexpected failure into 500 code 1006 with the request id and no stack', async () => {
    const broken: HandlerTable = {
      ...handlers,
      getChains: () => {
        throw new Error('boom at secret/path.ts:12');
      },
    };
    const app = (await makeTestApp({ handlers: broken })).app;
    const res = await request(app).get('/v1/chains').set('x-request-id', 'req-500');
    contract.expectResponse('getChains', res);
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ code: 1006, requestId: 'req-500' });
    expect(JSON.stringify(res.body)).not.toMatch(/boom|secret|\.ts/);
  });

  it('answers an operation without a handler with 501 code 1000 through the same path', async () => {
    const { getChains: _omitted, ...rest } = handlers;
    const app = (await makeTestApp({ handlers: rest })).app;
    const res = await request(app).get('/v1/chains');
    contract.expectResponse('getChains', res);
    expect(res.status).toBe(501);
    expect(res.body).toMatchObject({ code: 1000 });
    expect(res.body.message).toMatch(/not implemented/);
  });
});
