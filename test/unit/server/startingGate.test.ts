/**
 * The starting gate (src/server/startingGate.ts), on a real node server and socket: liveness and readiness while the
 * service loads, requests held and handed to the service in order, the bounds on what is held, and the hand-over.
 */
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { nextTurn, StartingGate, type StartingGateOptions } from '../../../src/server/startingGate';

let server: http.Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function listen(options?: StartingGateOptions): Promise<{ gate: StartingGate; url: string }> {
  const gate = new StartingGate(options);
  server = http.createServer(gate.listener);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { gate, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** A service that answers every request with its method, path and the order it came in. */
function service(): { listener: http.RequestListener; seen: string[] } {
  const seen: string[] = [];
  return {
    seen,
    listener: (req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ served: `${req.method} ${req.url}`, order: seen.length }));
    },
  };
}

const until = async (condition: () => boolean) => {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
};

test('while starting: /health is alive (200, starting), /ready is not (503, the service check failed), neither cached', async () => {
  const { url } = await listen();
  const health = await fetch(`${url}/health`);
  expect(health.status).toBe(200);
  expect(health.headers.get('cache-control')).toBe('no-store');
  expect(await health.json()).toEqual({ status: 'ok', starting: true, uptimeSeconds: expect.any(Number) });
  expect((await fetch(`${url}/health`, { method: 'HEAD' })).status).toBe(200);
  const ready = await fetch(`${url}/ready?verbose=1`);
  expect(ready.status).toBe(503);
  expect(await ready.json()).toEqual({ status: 'not ready', checks: [{ name: 'service', ok: false, detail: expect.stringContaining('starting') }] });
});

test('any other request waits for the service and is answered by it once it opens, in the order the requests came', async () => {
  const { gate, url } = await listen();
  const first = fetch(`${url}/v1/chains`);
  await until(() => gate.waiting === 1);
  const second = fetch(`${url}/v1/tokens?chains=1`, { method: 'POST', body: '{}' });
  await until(() => gate.waiting === 2);
  const target = service();
  gate.open(target.listener);
  expect(gate.isOpen).toBe(true);
  expect(await (await first).json()).toEqual({ served: 'GET /v1/chains', order: 1 });
  expect(await (await second).json()).toEqual({ served: 'POST /v1/tokens?chains=1', order: 2 });
  expect(gate.waiting).toBe(0);
});

test('once open, every request is the service\'s: /health and /ready included', async () => {
  const { gate, url } = await listen();
  const target = service();
  gate.open(target.listener);
  expect(await (await fetch(`${url}/health`)).json()).toEqual({ served: 'GET /health', order: 1 });
  expect((await fetch(`${url}/ready`)).status).toBe(200);
  expect(() => gate.open(target.listener)).toThrow(/already open/);
});

test('a flood while starting: beyond maxHeld a request is refused at once, 503 JSON with Retry-After, not held', async () => {
  const { gate, url } = await listen({ maxHeld: 2 });
  const held = [fetch(`${url}/v1/chains?a=1`), fetch(`${url}/v1/chains?a=2`)];
  await until(() => gate.waiting === 2);
  const refused = await fetch(`${url}/v1/chains?a=3`);
  expect(refused.status).toBe(503);
  expect(refused.headers.get('retry-after')).toBe('1');
  expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (await refused.json()) as { message: string; code: number };
  expect(body.message).toMatch(/starting.*2 requests already wait/);
  expect(typeof body.code).toBe('number');
  const target = service();
  gate.open(target.listener);
  expect((await Promise.all(held)).map((r) => r.status)).toEqual([200, 200]);
  expect(target.seen).toEqual(['GET /v1/chains?a=1', 'GET /v1/chains?a=2']);
});

test('a request held longer than holdMs is answered 503 and never reaches the service', async () => {
  const { gate, url } = await listen({ holdMs: 50 });
  const answer = await fetch(`${url}/v1/quote`);
  expect(answer.status).toBe(503);
  expect(((await answer.json()) as { message: string }).message).toMatch(/not within 50 ms/);
  expect(gate.waiting).toBe(0);
  const target = service();
  gate.open(target.listener);
  expect(target.seen).toEqual([]);
});

test('a client that leaves while held frees its place and is not served', async () => {
  const { gate, url } = await listen({ maxHeld: 1 });
  const leaving = new AbortController();
  const gone = fetch(`${url}/v1/chains?leaving`, { signal: leaving.signal }).catch((error: Error) => error.name);
  await until(() => gate.waiting === 1);
  leaving.abort();
  expect(await gone).toBe('AbortError');
  await until(() => gate.waiting === 0);
  const next = fetch(`${url}/v1/chains?next`);
  await until(() => gate.waiting === 1);
  const target = service();
  gate.open(target.listener);
  expect((await next).status).toBe(200);
  expect(target.seen).toEqual(['GET /v1/chains?next']);
});

test('nextTurn lets the loop take a connection, read its request and answer it between two synchronous steps', async () => {
  const { url } = await listen();
  // the request already sent (as a client's on its way while the service loads)
  const socket = net.connect(Number(new URL(url).port), '127.0.0.1').on('error', () => undefined);
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  await new Promise<void>((resolve) => socket.write('GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', () => resolve()));
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
  const busy = (ms: number) => {
    const end = Date.now() + ms;
    while (Date.now() < end) { /* a synchronous step of a start */ }
  };
  busy(20);
  await nextTurn();
  busy(20); // the answer must be out before this step, not after it
  expect(answer).toMatch(/^HTTP\/1.1 200 OK/);
  socket.destroy();
});
