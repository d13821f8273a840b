import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkWebhookUrl, deliverWebhook, resolveWebhookTarget, WEBHOOK_USER_AGENT, WebhookUrlError, type HostLookup } from '../../../src/webhooks/target';

const PUBLIC_V4 = '93.184.215.14';
const PUBLIC_V6 = '2606:2800:21f:cb07:6820:80da:af6b:8b2c';

/** A resolver that answers every name with these addresses, and counts its calls. */
function lookupOf(...addresses: string[]): jest.MockedFunction<HostLookup> {
  return jest.fn<ReturnType<HostLookup>, Parameters<HostLookup>>(async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
}

/** The WebhookUrlError a call throws. */
function refusal(call: () => unknown): WebhookUrlError {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookUrlError);
    return error as WebhookUrlError;
  }
  throw new Error('not refused');
}

async function rejection(promise: Promise<unknown>): Promise<WebhookUrlError> {
  const error: unknown = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(WebhookUrlError);
  return error as WebhookUrlError;
}

describe('checkWebhookUrl', () => {
  const strict = { allowPrivate: false };
  const relaxed = { allowPrivate: true };

  test('accepts an https URL with a public host, path and query, and returns it parsed', () => {
    const url = checkWebhookUrl('https://hooks.example.com:8443/transfers?integrator=acme', strict);
    expect(url).toBeInstanceOf(URL);
    expect(url.href).toBe('https://hooks.example.com:8443/transfers?integrator=acme');
  });

  test.each([
    ['http without allowPrivate', 'http://hooks.example.com/', strict, 'webhook URL must use https'],
    ['another scheme', 'ftp://hooks.example.com/', relaxed, 'webhook URL must use https'],
    ['a file URL', 'file:///etc/passwd', relaxed, 'webhook URL must use https'],
    ['a user name', 'https://user@hooks.example.com/', strict, 'webhook URL must not carry credentials'],
    ['a user and password', 'https://user:secret@hooks.example.com/', strict, 'webhook URL must not carry credentials'],
    ['a password only', 'https://:secret@hooks.example.com/', strict, 'webhook URL must not carry credentials'],
    ['a fragment', 'https://hooks.example.com/#part', strict, 'webhook URL must not have a fragment'],
    ['an empty fragment', 'https://hooks.example.com/#', strict, 'webhook URL must not have a fragment'],
    ['a relative URL', '/webhooks', strict, 'webhook URL must be an absolute URL'],
    ['no URL', 'not a url', strict, 'webhook URL must be an absolute URL'],
    ['an empty string', '', strict, 'webhook URL must be an absolute URL'],
    ['over 2048 characters', `https://hooks.example.com/${'a'.repeat(2048)}`, strict, 'webhook URL must be at most 2048 characters'],
    ['the GCP metadata name', 'https://metadata.google.internal/computeMetadata/v1/', relaxed, 'webhook URL names a cloud metadata host (metadata.google.internal)'],
    ['the metadata name, spelt otherwise', 'https://METADATA.Google.Internal./', relaxed, 'webhook URL names a cloud metadata host (metadata.google.internal.)'],
    ['the AWS metadata name', 'https://instance-data.ec2.internal/', relaxed, 'webhook URL names a cloud metadata host (instance-data.ec2.internal)'],
  ])('refuses %s', (_name, raw, options, message) => {
    expect(refusal(() => checkWebhookUrl(raw, options)).message).toBe(message);
  });

  test('a URL of exactly 2048 characters is accepted', () => {
    const prefix = 'https://hooks.example.com/';
    expect(checkWebhookUrl(`${prefix}${'a'.repeat(2048 - prefix.length)}`, strict).href).toHaveLength(2048);
  });

  test('http is accepted with allowPrivate (sandbox, tests)', () => {
    expect(checkWebhookUrl('http://127.0.0.1:9000/hook', relaxed).port).toBe('9000');
  });

  // an IP literal in a refused range is refused at once; the WHATWG parser has already turned 2130706433, 0x7f.1
  // and [::ffff:127.0.0.1] into their canonical forms, which are judged
  test.each([
    ['127.0.0.1', 'a loopback'],
    ['127.255.255.254', 'a loopback'],
    ['2130706433', 'a loopback'],
    ['0x7f.1', 'a loopback'],
    ['[::1]', 'a loopback'],
    ['0.0.0.0', 'an unspecified'],
    ['0', 'an unspecified'],
    ['[::]', 'an unspecified'],
    ['10.0.0.1', 'a private'],
    ['172.16.0.1', 'a private'],
    ['172.31.255.255', 'a private'],
    ['192.168.1.1', 'a private'],
    ['[fd00::1]', 'a private'],
    ['[fc00::1]', 'a private'],
    ['169.254.169.254', 'a cloud metadata'],
    ['[fd00:ec2::254]', 'a cloud metadata'],
    ['100.100.100.200', 'a cloud metadata'],
    ['169.254.1.1', 'a link-local'],
    ['[fe80::1]', 'a link-local'],
    ['100.64.0.1', 'a carrier-grade NAT'],
    ['100.127.255.255', 'a carrier-grade NAT'],
    ['224.0.0.1', 'a multicast'],
    ['239.255.255.250', 'a multicast'],
    ['[ff02::1]', 'a multicast'],
    ['255.255.255.255', 'a broadcast'],
    ['240.0.0.1', 'a reserved'],
    ['192.0.2.1', 'a reserved'],
    ['198.18.0.1', 'a reserved'],
    ['[2001:db8::1]', 'a reserved'],
    ['[100::1]', 'a reserved'],
    ['[::ffff:127.0.0.1]', 'a loopback'],
    ['[::ffff:10.0.0.1]', 'a private'],
    ['[::ffff:169.254.169.254]', 'a cloud metadata'],
    ['[64:ff9b::7f00:1]', 'a loopback'], // NAT64 of 127.0.0.1
    ['[64:ff9b::a9fe:a9fe]', 'a cloud metadata'], // NAT64 of 169.254.169.254
    ['[2002:7f00:1::1]', 'a reserved'], // 6to4
    ['[2001::1]', 'a reserved'], // Teredo
    ['[::127.0.0.1]', 'a reserved'], // IPv4-compatible (deprecated)
    ['[::ffff:0:7f00:1]', 'a reserved'], // IPv4-translated
  ])('refuses the IP literal %s (%s)', (host, range) => {
    const error = refusal(() => checkWebhookUrl(`https://${host}/hook`, strict));
    expect(error.kind).toBe('address');
    expect(error.message).toMatch(new RegExp(`^webhook URL resolves to ${range} address \\(`));
  });

  test.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '172.15.255.255', '100.128.0.1', '11.0.0.1', '[2606:4700:4700::1111]', '[::ffff:8.8.8.8]', '[64:ff9b::808:808]'])(
    'accepts the public IP literal %s',
    (host) => {
      expect(checkWebhookUrl(`https://${host}/hook`, strict).hostname).toBe(new URL(`https://${host}/`).hostname);
    },
  );

  test('allowPrivate allows loopback and private addresses, never link-local, metadata or the other ranges', () => {
    for (const host of ['127.0.0.1', '[::1]', '10.0.0.1', '192.168.1.1', '[fd00::1]', '[::ffff:127.0.0.1]']) {
      expect(() => checkWebhookUrl(`http://${host}:8080/`, relaxed)).not.toThrow();
    }
    for (const host of ['169.254.169.254', '169.254.1.1', '[fe80::1]', '[fd00:ec2::254]', '[::ffff:169.254.169.254]', '0.0.0.0', '100.64.0.1', '224.0.0.1', '255.255.255.255']) {
      expect(refusal(() => checkWebhookUrl(`http://${host}/`, relaxed)).kind).toBe('address');
    }
  });
});

describe('resolveWebhookTarget', () => {
  const url = new URL('https://hooks.example.com/transfers');

  test.each([
    ['127.0.0.1', 'a loopback'],
    ['10.0.0.1', 'a private'],
    ['169.254.169.254', 'a cloud metadata'],
    ['::1', 'a loopback'],
    ['::ffff:127.0.0.1', 'a loopback'],
    ['fd00::1', 'a private'],
    ['fe80::1%eth0', 'a link-local'],
    ['0.0.0.0', 'an unspecified'],
    ['100.64.0.1', 'a carrier-grade NAT'],
  ])('refuses a host resolving to %s', async (address, range) => {
    const error = await rejection(resolveWebhookTarget(url, { allowPrivate: false, lookup: lookupOf(address) }));
    expect(error.message).toBe(`webhook URL resolves to ${range} address (${address})`);
    expect(error.kind).toBe('address');
  });

  test('refuses a host resolving to a public and a private address, in either order', async () => {
    expect((await rejection(resolveWebhookTarget(url, { allowPrivate: false, lookup: lookupOf(PUBLIC_V4, '10.0.0.1') }))).message).toMatch(/a private address \(10\.0\.0\.1\)/);
    expect((await rejection(resolveWebhookTarget(url, { allowPrivate: false, lookup: lookupOf('127.0.0.1', PUBLIC_V4) }))).message).toMatch(/a loopback address/);
    expect((await rejection(resolveWebhookTarget(url, { allowPrivate: false, lookup: lookupOf(PUBLIC_V6, '::1') }))).message).toMatch(/a loopback address \(::1\)/);
  });

  test('accepts a host whose every address is public, and returns them all', async () => {
    const lookup = lookupOf(PUBLIC_V4, PUBLIC_V6);
    await expect(resolveWebhookTarget(url, { allowPrivate: false, lookup })).resolves.toEqual([PUBLIC_V4, PUBLIC_V6]);
    expect(lookup).toHaveBeenCalledWith('hooks.example.com', { all: true });
  });

  test('an IP literal is its own address: nothing is resolved', async () => {
    const lookup = lookupOf('127.0.0.1');
    await expect(resolveWebhookTarget(new URL('https://8.8.8.8/'), { allowPrivate: false, lookup })).resolves.toEqual(['8.8.8.8']);
    await expect(resolveWebhookTarget(new URL('https://[2606:4700:4700::1111]/'), { allowPrivate: false, lookup })).resolves.toEqual(['2606:4700:4700::1111']);
    expect(lookup).not.toHaveBeenCalled();
    expect((await rejection(resolveWebhookTarget(new URL('https://[::1]/'), { allowPrivate: false, lookup }))).message).toMatch(/a loopback address \(::1\)/);
  });

  test('the URL\'s own rules are checked again', async () => {
    const lookup = lookupOf(PUBLIC_V4);
    expect((await rejection(resolveWebhookTarget(new URL('http://hooks.example.com/'), { allowPrivate: false, lookup }))).message).toBe('webhook URL must use https');
    expect((await rejection(resolveWebhookTarget(new URL('https://metadata.google.internal/'), { allowPrivate: true, lookup }))).message).toMatch(/cloud metadata host/);
    expect(lookup).not.toHaveBeenCalled();
  });

  test('a host that does not resolve is refused as such', async () => {
    const notFound: HostLookup = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    const error = await rejection(resolveWebhookTarget(url, { allowPrivate: false, lookup: notFound }));
    expect(error.message).toBe('webhook URL host hooks.example.com does not resolve (ENOTFOUND)');
    expect(error.kind).toBe('resolution');
    expect((await rejection(resolveWebhookTarget(url, { allowPrivate: false, lookup: lookupOf() }))).kind).toBe('resolution');
  });

  test('allowPrivate allows loopback and private answers, not link-local ones', async () => {
    await expect(resolveWebhookTarget(url, { allowPrivate: true, lookup: lookupOf('127.0.0.1', '10.0.0.1', 'fd00::1') })).resolves.toHaveLength(3);
    expect((await rejection(resolveWebhookTarget(url, { allowPrivate: true, lookup: lookupOf('127.0.0.1', '169.254.169.254') }))).message).toMatch(/cloud metadata address/);
  });

  test('the system resolver: localhost is loopback', async () => {
    expect((await rejection(resolveWebhookTarget(new URL('https://localhost/'), { allowPrivate: false }))).message).toMatch(/a loopback address/);
  });
});

// ---- deliveries to real local servers ----

interface Seen {
  connections: number;
  requests: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[];
}

const servers: http.Server[] = [];

/** A server on 127.0.0.1 that records every connection and request, and answers with `answer`. */
async function receiver(answer: (request: http.IncomingMessage, response: http.ServerResponse) => void): Promise<{ port: number; seen: Seen }> {
  const seen: Seen = { connections: 0, requests: [] };
  const server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      seen.requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      answer(request, response);
    });
  });
  server.on('connection', () => (seen.connections += 1));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, seen };
}

afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

describe('deliverWebhook', () => {
  const BODY = '{"transferId":"0xabc","status":"DONE"}';
  const HEADERS = { 'X-Webhook-Id': 'dlv_1', 'X-Webhook-Signature': 't=1,v1=00' };
  const ok = (res: http.ServerResponse) => res.writeHead(204).end();

  test('without allowPrivate, a loopback receiver is never reached: no connection is made', async () => {
    const { port, seen } = await receiver((_req, res) => ok(res));
    const literal = await deliverWebhook(new URL(`https://127.0.0.1:${port}/hook`), BODY, HEADERS, { allowPrivate: false, timeoutMs: 2000 });
    expect(literal).toEqual({ ok: false, error: 'webhook URL resolves to a loopback address (127.0.0.1)' });
    const plain = await deliverWebhook(new URL(`http://127.0.0.1:${port}/hook`), BODY, HEADERS, { allowPrivate: false, timeoutMs: 2000 });
    expect(plain).toEqual({ ok: false, error: 'webhook URL must use https' });
    expect(seen.connections).toBe(0);
  });

  test('without allowPrivate, the name localhost is refused when the connection is made', async () => {
    const { port, seen } = await receiver((_req, res) => ok(res));
    const result = await deliverWebhook(new URL(`https://localhost:${port}/hook`), BODY, HEADERS, { allowPrivate: false, timeoutMs: 2000 });
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/^webhook URL resolves to a loopback address \((127\.0\.0\.1|::1)\)$/);
    expect(seen.connections).toBe(0);
  });

  test('DNS rebinding: a name checked public when set and loopback at delivery reaches nothing', async () => {
    const { port, seen } = await receiver((_req, res) => ok(res));
    const url = new URL(`https://rebind.example.test:${port}/hook`);
    const lookup = jest.fn<ReturnType<HostLookup>, Parameters<HostLookup>>();
    lookup.mockResolvedValueOnce([{ address: PUBLIC_V4, family: 4 }]).mockResolvedValue([{ address: '127.0.0.1', family: 4 }]);
    await expect(resolveWebhookTarget(url, { allowPrivate: false, lookup })).resolves.toEqual([PUBLIC_V4]);
    const result = await deliverWebhook(url, BODY, HEADERS, { allowPrivate: false, lookup, timeoutMs: 2000 });
    expect(result).toEqual({ ok: false, error: 'webhook URL resolves to a loopback address (127.0.0.1)' });
    expect(lookup).toHaveBeenCalledTimes(2); // the second lookup is the connect step's
    expect(seen.connections).toBe(0);
  });

  test('with allowPrivate, delivered: a POST with the body, the caller\'s headers, JSON content type and user agent', async () => {
    const { port, seen } = await receiver((_req, res) => ok(res));
    const result = await deliverWebhook(new URL(`http://127.0.0.1:${port}/hook?integrator=acme`), BODY, HEADERS, { allowPrivate: true, timeoutMs: 2000 });
    expect(result).toEqual({ ok: true, status: 204 });
    expect(seen.requests).toHaveLength(1);
    const [request] = seen.requests;
    expect(request).toMatchObject({ method: 'POST', url: '/hook?integrator=acme', body: BODY });
    expect(request!.headers).toMatchObject({
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(BODY)),
      'user-agent': WEBHOOK_USER_AGENT,
      'x-webhook-id': 'dlv_1',
      'x-webhook-signature': 't=1,v1=00',
    });
  });

  test('with allowPrivate, the connection goes to the address the checked lookup returned', async () => {
    const { port, seen } = await receiver((_req, res) => ok(res));
    const lookup = lookupOf('127.0.0.1');
    const result = await deliverWebhook(new URL(`http://hooks.example.test:${port}/`), BODY, {}, { allowPrivate: true, lookup, timeoutMs: 2000 });
    expect(result).toEqual({ ok: true, status: 204 });
    expect(seen.requests[0]!.headers.host).toBe(`hooks.example.test:${port}`);
    expect(lookup).toHaveBeenCalledWith('hooks.example.test', { all: true });
  });

  test('with allowPrivate, link-local and metadata addresses stay refused, even one among allowed ones', async () => {
    const { port, seen } = await receiver((_req, res) => ok(res));
    const url = new URL(`http://hooks.example.test:${port}/`);
    for (const addresses of [['169.254.169.254'], ['127.0.0.1', '169.254.169.254'], ['fe80::1']]) {
      const result = await deliverWebhook(url, BODY, {}, { allowPrivate: true, lookup: lookupOf(...addresses), timeoutMs: 2000 });
      expect(result.ok).toBe(false);
      expect(result.error).toMatch(/^webhook URL resolves to a (cloud metadata|link-local) address/);
    }
    expect((await deliverWebhook(new URL('http://169.254.169.254/latest/meta-data/'), BODY, {}, { allowPrivate: true, timeoutMs: 2000 })).error).toMatch(/cloud metadata address/);
    expect(seen.connections).toBe(0);
  });

  test('a redirect is not followed: the delivery fails and its location is never requested', async () => {
    const second = await receiver((_req, res) => ok(res));
    const first = await receiver((_req, res) => res.writeHead(302, { location: `http://127.0.0.1:${second.port}/elsewhere` }).end());
    const result = await deliverWebhook(new URL(`http://127.0.0.1:${first.port}/hook`), BODY, {}, { allowPrivate: true, timeoutMs: 2000 });
    expect(result).toEqual({ ok: false, status: 302, error: 'redirect not followed (HTTP 302): its location was not requested' });
    expect(first.seen.requests).toHaveLength(1);
    expect(second.seen.connections).toBe(0);
  });

  test('an error answer is a failed delivery with its status', async () => {
    const { port } = await receiver((_req, res) => res.writeHead(500).end('boom'));
    expect(await deliverWebhook(new URL(`http://127.0.0.1:${port}/`), BODY, {}, { allowPrivate: true, timeoutMs: 2000 })).toEqual({ ok: false, status: 500, error: 'the receiver answered HTTP 500' });
  });

  test('a receiver that never answers: the delivery fails at the deadline', async () => {
    const { port, seen } = await receiver(() => undefined);
    const started = Date.now();
    const result = await deliverWebhook(new URL(`http://127.0.0.1:${port}/`), BODY, {}, { allowPrivate: true, timeoutMs: 300 });
    expect(result).toEqual({ ok: false, error: 'no answer within 300 ms' });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(seen.requests).toHaveLength(1);
  });

  test('an endless answer: at most maxResponseBytes are read, then the connection is closed', async () => {
    let closed = false;
    const { port } = await receiver((_req, res) => {
      res.on('close', () => (closed = true));
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write(Buffer.alloc(1 << 20, 'a')); // a megabyte, and the answer never ends
    });
    const result = await deliverWebhook(new URL(`http://127.0.0.1:${port}/`), BODY, {}, { allowPrivate: true, timeoutMs: 5000, maxResponseBytes: 1024 });
    expect(result).toEqual({ ok: true, status: 200 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(closed).toBe(true);
  });

  test('never throws: an unresolvable host, a refused port and a header node refuses are failed deliveries', async () => {
    const notFound: HostLookup = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    expect(await deliverWebhook(new URL('https://nowhere.example.test/'), BODY, {}, { allowPrivate: false, lookup: notFound, timeoutMs: 2000 })).toEqual({
      ok: false,
      error: 'webhook URL host nowhere.example.test does not resolve (ENOTFOUND)',
    });
    const { port } = await receiver((_req, res) => ok(res));
    await new Promise<void>((resolve) => servers.pop()!.close(() => resolve())); // nothing listens on that port now
    const refused = await deliverWebhook(new URL(`http://127.0.0.1:${port}/`), BODY, {}, { allowPrivate: true, timeoutMs: 2000 });
    expect(refused.ok).toBe(false);
    expect(refused.error).toMatch(/ECONNREFUSED/);
    const badHeader = await deliverWebhook(new URL(`http://127.0.0.1:${port}/`), BODY, { 'x-bad': 'a\r\nb' }, { allowPrivate: true, timeoutMs: 2000 });
    expect(badHeader.ok).toBe(false);
    expect(badHeader.error).toMatch(/Invalid character/);
  });
});
