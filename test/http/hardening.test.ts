/**
 * Limits on requests (URL length, body size, request time, the node server's header timeout and
 * malformed requests), security headers and the CORS policy (docs/integrating.md, "Limits on requests").
 * Every refusal is JSON with the contract's Error body.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type http from 'node:http';
import request from 'supertest';
import { ConfigError, loadConfig } from '../../src/config';
import { handlers } from '../../handlers';
import type { HandlerTable } from '../../src/server/operation';
import { makeTestApp, useAppAndContract } from '../support/app';
import { captureLogger } from '../support/logCapture';
import { generateApiKey, hashApiKey } from '../../src/core/access/keys';

const { t, contract } = useAppAndContract();

function expectJsonError(res: request.Response, status: number, code: number): void {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  contract.expectErrorBody(res.body);
  expect(res.body.code).toBe(code);
}

describe('limits on requests', () => {
  it('answers a URL over 8 KB with 414 code 1011 in JSON, and lets one just under through', async () => {
    const long = await request(t.app).get(`/v1/chains?chainTypes=${'EVM,'.repeat(2100)}EVM`);
    expectJsonError(long, 414, 1011);
    expect(long.body.message).toMatch(/URL is \d+ bytes long, over the limit of 8192 bytes/);
    // just under the limit, the request is judged on its merits (the list is too long for the contract)
    const under = await request(t.app).get(`/v1/chains?chainTypes=${'EVM,'.repeat(2000)}EVM`);
    contract.expectResponse('getChains', under);
    expect(under.status).toBe(400);
    expect(under.body.message).toMatch(/chainTypes/);
  });

  it('takes the URL limit from MAX_URL_BYTES', async () => {
    const { app } = await makeTestApp({ env: { MAX_URL_BYTES: '300' } });
    expectJsonError(await request(app).get(`/v1/tokens?chains=${'eth,'.repeat(80)}eth`), 414, 1011);
    expect((await request(app).get('/v1/tokens?chains=eth')).status).toBe(200);
  });

  it('answers a 10 MB body with 413 code 1011 in JSON and keeps serving', async () => {
    const res = await request(t.app).post('/v1/advanced/routes').set('content-type', 'application/json').send(`{"x":"${'a'.repeat(10 * 1024 * 1024)}"}`);
    expectJsonError(res, 413, 1011);
    expect(res.body.message).toMatch(/larger than 1048576 bytes/);
    expect((await request(t.app).get('/v1/chains')).status).toBe(200);
  });

  it('takes the body limit from MAX_BODY_BYTES', async () => {
    const { app } = await makeTestApp({ env: { MAX_BODY_BYTES: '2048' } });
    const res = await request(app).post('/v1/advanced/routes').set('content-type', 'application/json').send(`{"x":"${'a'.repeat(3000)}"}`);
    expectJsonError(res, 413, 1011);
    expect(res.body.message).toMatch(/larger than 2048 bytes/);
  });

  it('answers a request without an answer within REQUEST_TIMEOUT_MS with 503 code 1009, and drops the late answer', async () => {
    let finished = false;
    const slow: HandlerTable = {
      ...handlers,
      getChains: async () => {
        await new Promise((resolve) => setTimeout(resolve, 400));
        finished = true;
        return { status: 200, body: { chains: [] } };
      },
    };
    const { app } = await makeTestApp({ handlers: slow, env: { REQUEST_TIMEOUT_MS: '100', HEADERS_TIMEOUT_MS: '100' } });
    const started = Date.now();
    const res = await request(app).get('/v1/chains');
    expectJsonError(res, 503, 1009);
    expect(Date.now() - started).toBeLessThan(350);
    expect(res.body.message).toMatch(/no answer within 100 ms/);
    expect(res.headers['ratelimit-limit']).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(finished).toBe(true);
    // the late answer was dropped without harm: the app still answers
    expect((await request(app).get('/v1/tools')).status).toBe(200);
  });
});

describe('request logs below info (the request logger is made on first use)', () => {
  it('binds each line to its own request, with what later middlewares added', async () => {
    const logs = captureLogger('warn');
    const slow: HandlerTable = { ...handlers, getChains: () => new Promise((resolve) => setTimeout(() => resolve({ status: 200, body: { chains: [] } }), 300)) };
    const key = generateApiKey();
    const keys = JSON.stringify({ keys: [{ id: 'key_logged', sha256: hashApiKey(key), perMinute: 100 }] });
    const { app } = await makeTestApp({ handlers: slow, logger: logs.logger, env: { API_KEYS: keys, REQUEST_TIMEOUT_MS: '100', HEADERS_TIMEOUT_MS: '100' } });
    const [a, b, quiet] = await Promise.all([
      request(app).get('/v1/chains?chainTypes=EVM').set('x-request-id', 'first').set('x-svc-api-key', key),
      request(app).get('/v1/chains').set('x-request-id', 'second'),
      request(app).get('/v1/tools'),
    ]);
    expect([a.status, b.status, quiet.status]).toEqual([503, 503, 200]);
    const timedOut = logs.records().filter((r) => r.msg === 'request timed out');
    const byId = new Map(timedOut.map((r) => [(r.req as { id: string }).id, r]));
    expect([...byId.keys()].sort()).toEqual(['first', 'second']);
    expect((byId.get('first')!.req as { url: string }).url).toBe('/v1/chains?chainTypes=EVM');
    expect(byId.get('first')!.keyId).toBe('key_logged');
    expect(byId.get('second')!.keyId).toBeUndefined();
    expect(JSON.stringify(timedOut)).not.toContain(key);
    expect(logs.lines).toHaveLength(2); // nothing at info: the quiet request logged nothing
  });
});

describe('the node server (app.listen)', () => {
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    const { app } = await makeTestApp({ env: { HEADERS_TIMEOUT_MS: '300', REQUEST_TIMEOUT_MS: '1000' } });
    server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('carries the configured timeouts', () => {
    expect(server.headersTimeout).toBe(300);
    expect(server.requestTimeout).toBe(1000);
  });

  it('answers a client that does not finish its headers in time with 408 code 1009 in JSON and closes', async () => {
    const started = Date.now();
    const answer = await raw(port, 'GET /v1/chains HTTP/1.1\r\nHost: localhost\r\nX-Slow: ');
    expect(Date.now() - started).toBeLessThan(3000);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toMatch(/content-type: application\/json/i);
    contract.expectErrorBody(JSON.parse(answer.split('\r\n\r\n')[1]!));
    expect(JSON.parse(answer.split('\r\n\r\n')[1]!).code).toBe(1009);
  });

  it('answers a request head over 16 KB with 431 in JSON', async () => {
    const answer = await raw(port, `GET /v1/chains?x=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    const body = JSON.parse(answer.split('\r\n\r\n')[1]!);
    contract.expectErrorBody(body);
    expect(body.code).toBe(1011);
  });

  it('answers a malformed request with 400 in JSON', async () => {
    const answer = await raw(port, 'GARBAGE\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    contract.expectErrorBody(JSON.parse(answer.split('\r\n\r\n')[1]!));
  });

  it('still serves normal requests', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/v1/chains`);
    expect(res.status).toBe(200);
  });
});

/** Sends raw bytes and collects everything until the server closes the connection. */
function raw(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(text));
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      data += chunk;
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(data));
    socket.setTimeout(5000, () => socket.destroy(new Error(`no answer; got so far: ${data}`)));
  });
}

describe('security headers', () => {
  it('sends helmet headers for a JSON API on every answer', async () => {
    for (const res of [await request(t.app).get('/v1/chains'), await request(t.app).get('/v1/nothing')]) {
      expect(res.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none';base-uri 'none';form-action 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });
});

describe('CORS: public endpoints for any browser origin, keys never from a browser', () => {
  const origin = 'https://app.example.com';
  /** A browser's CORS preflight from `origin` of a `method` request to `path` with `headers`. */
  const preflightOf = (path: string, method: string, headers: string) =>
    request(t.app).options(path).set('origin', origin).set('access-control-request-method', method).set('access-control-request-headers', headers);

  it('lets a browser read a public endpoint without credentials, exposing the rate-limit headers', async () => {
    const res = await request(t.app).get('/v1/chains').set('origin', origin);
    expect(res.status).toBe(200);
    contract.expectResponse('getChains', res);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    const exposed = String(res.headers['access-control-expose-headers']).split(',');
    expect(exposed).toEqual(expect.arrayContaining(['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after', 'x-request-id']));
  });

  it('answers the preflight of a JSON POST, without x-svc-api-key among the allowed headers', async () => {
    const res = await preflightOf('/v1/advanced/routes', 'POST', 'content-type,x-svc-api-key');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-methods']).toBe('GET,HEAD,POST');
    const allowed = String(res.headers['access-control-allow-headers']).toLowerCase().split(',');
    expect(allowed).toEqual(['content-type', 'x-request-id', 'x-lifi-sdk', 'x-lifi-integrator', 'x-lifi-widget', 'x-lifi-userid']);
    expect(allowed).not.toContain('x-svc-api-key');
    expect(allowed).not.toContain('x-lifi-api-key');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expect(res.headers['access-control-max-age']).toBe('600');
  });

  it("allows the headers the ecosystem's SDK and widget send on every call, and answers such a request", async () => {
    const preflight = await preflightOf('/v1/tokens', 'GET', 'x-lifi-integrator,x-lifi-sdk,x-lifi-widget');
    expect(preflight.status).toBe(204);
    const allowed = String(preflight.headers['access-control-allow-headers']).toLowerCase().split(',');
    expect(allowed).toEqual(expect.arrayContaining(['x-lifi-integrator', 'x-lifi-sdk', 'x-lifi-widget', 'x-lifi-userid']));
    const res = await request(t.app).get('/v1/chains').set('origin', origin).set('x-lifi-integrator', 'my-dapp').set('x-lifi-sdk', '4.3.0').set('x-lifi-widget', '4.5.0');
    expect(res.status).toBe(200);
    contract.expectResponse('getChains', res);
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });

  it('gives no CORS headers to an operation that requires a key (GET /v1/keys/test)', async () => {
    const get = await request(t.app).get('/v1/keys/test').set('origin', origin);
    expect(get.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await preflightOf('/v1/keys/test', 'GET', 'x-svc-api-key');
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers['access-control-allow-headers']).toBeUndefined();
    expect(preflight.status).toBeGreaterThanOrEqual(400);
  });

  it('lets other origins read the contract', async () => {
    const res = await request(t.app).get('/openapi.json').set('origin', origin);
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });

  it('allows only the listed origins with CORS_ORIGINS, and none with CORS_ORIGINS=none', async () => {
    const { app } = await makeTestApp({ env: { CORS_ORIGINS: 'https://app.example.com, http://localhost:3000' } });
    const listed = await request(app).get('/v1/chains').set('origin', 'http://localhost:3000');
    expect(listed.headers['access-control-allow-origin']).toBe('http://localhost:3000');
    expect(listed.headers.vary).toMatch(/origin/i);
    const other = await request(app).get('/v1/chains').set('origin', 'https://evil.example');
    expect(other.status).toBe(200);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    // each request gets its own origin's answer, whatever was answered before (the headers are recorded per case)
    for (const [sent, allowed] of [
      ['https://app.example.com', 'https://app.example.com'],
      ['https://evil.example', undefined],
      ['http://localhost:3000', 'http://localhost:3000'],
      [undefined, undefined],
      ['https://app.example.com', 'https://app.example.com'],
    ] as const) {
      const get = request(app).get('/v1/tokens');
      const res = await (sent === undefined ? get : get.set('origin', sent));
      expect(res.status).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBe(allowed);
      expect(res.headers.vary?.toLowerCase().split(/,\s*/)).toEqual(expect.arrayContaining(['origin', 'accept-encoding']));
      expect((await request(app).get('/v1/keys/test').set('origin', sent ?? origin)).headers['access-control-allow-origin']).toBeUndefined();
    }
    const none = (await makeTestApp({ env: { CORS_ORIGINS: 'none' } })).app;
    const res = await request(none).get('/v1/chains').set('origin', origin);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('configuration of the limits', () => {
  it('has the documented defaults', () => {
    expect(loadConfig({}).limits).toEqual({ maxBodyBytes: 1_048_576, maxUrlBytes: 8192, requestTimeoutMs: 30_000, headersTimeoutMs: 10_000, corsOrigins: '*' });
  });

  it.each([
    [{ MAX_BODY_BYTES: '10mb' }, /MAX_BODY_BYTES must be an integer from 1024 to 104857600/],
    [{ MAX_URL_BYTES: '100000' }, /MAX_URL_BYTES must be an integer from 256 to 16384/],
    [{ REQUEST_TIMEOUT_MS: '-5' }, /REQUEST_TIMEOUT_MS must be an integer/],
    [{ HEADERS_TIMEOUT_MS: '20000', REQUEST_TIMEOUT_MS: '5000' }, /HEADERS_TIMEOUT_MS \(20000\) must not exceed REQUEST_TIMEOUT_MS \(5000\)/],
    [{ CORS_ORIGINS: 'https://ok.example, app.example.com' }, /CORS_ORIGINS must be .*bad: app\.example\.com/],
    [{ CORS_ORIGINS: 'https://ok.example/path' }, /CORS_ORIGINS must be/],
  ])('refuses %j with a message naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
