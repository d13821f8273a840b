/**
 * The partner portal's webhook and recent transfers (issue 34) through the real app (src/portal/router.ts mounted at
 * /portal by createApp), on an in-memory database (PGlite) that also holds the transfer index: a wallet signed in
 * with Sign-In with Ethereum sets its integrator's webhook (the secret shown once), changes its URL (the secret
 * kept), renews the secret and removes it; sees the deliveries of its transfers' states; lists its transfers, each
 * with its explorer page. From the attacker's side: another wallet, no CSRF token, another origin, no session, and
 * webhook URLs that point into the service's own network (refused with a 400 naming the field and the rule, also
 * when only the name's resolution says so). Host names are resolved by a lookup of this test (no DNS needed), except
 * `localhost`, which the system resolves.
 */
import dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import pino from 'pino';
import { Wallet } from 'ethers';
import type { TransferStatus } from '../../src/core/status/transferStatus';
import { openDatabase, type Database } from '../../src/persistence/database';
import { saveTransfer } from '../../src/persistence/transfers';
import { portalRouter, type PortalOptions } from '../../src/portal/router';
import type { Dependencies } from '../../src/server/dependencies';
import type { HostLookup } from '../../src/webhooks/target';
import { useTestApp } from '../support/app';
import { PORTAL_ORIGIN, PortalClient } from '../support/portal';

jest.setTimeout(30_000);

const silent = pino({ level: 'silent' });
const walletA = new Wallet(`0x${'a4'.repeat(32)}`);
const walletB = new Wallet(`0x${'b5'.repeat(32)}`);
const PUBLIC_ADDRESS = '93.184.215.14';
const SECRET = /^whsec_[A-Za-z0-9_-]{43}$/;
const T0 = Date.parse('2026-11-01T00:00:00Z') / 1000;
const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

/** The names of this test: public ones, one that resolves to a private address, one with a private address among public ones. */
const NAMES: Readonly<Record<string, readonly dns.LookupAddress[]>> = {
  'hooks.example.com': [{ address: PUBLIC_ADDRESS, family: 4 }],
  'receiver.example.org': [{ address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 }],
  'internal.example.com': [{ address: '10.1.2.3', family: 4 }],
  'mixed.example.com': [{ address: PUBLIC_ADDRESS, family: 4 }, { address: '192.168.1.5', family: 4 }],
  'metadata-alias.example.com': [{ address: '169.254.169.254', family: 4 }],
};
const lookups: string[] = [];
const lookup: HostLookup = async (hostname, options) => {
  lookups.push(hostname);
  const known = NAMES[hostname];
  if (known) return [...known];
  if (hostname === 'localhost') return dns.promises.lookup(hostname, options);
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};

let database: Database;
beforeAll(async () => {
  database = await openDatabase({ dir: 'memory://' });
}, 120_000); // an in-memory PGlite opens in seconds, in tens of them on a loaded machine
afterAll(async () => {
  await database?.close();
});

const portalOptions = (dependencies: Dependencies, overrides: Partial<PortalOptions> = {}): PortalOptions => ({
  origins: () => [PORTAL_ORIGIN], database: async () => database, dependencies, logger: silent, webhookLookup: lookup, ...overrides,
});
const t = useTestApp(() => ({ portal: (dependencies: Dependencies) => portalRouter(portalOptions(dependencies)) }));

const a = { client: undefined as unknown as PortalClient };
const b = { client: undefined as unknown as PortalClient };
beforeAll(async () => {
  a.client = new PortalClient(t.app, walletA);
  b.client = new PortalClient(t.app, walletB);
  await a.client.signIn();
  await b.client.signIn({ chainId: 1 });
  for (const id of ['hook-dapp', 'guarded-dapp', 'refused-dapp', 'local-dapp', 'transfers-dapp']) {
    expect((await a.client.change('post', '/integrators', { integratorId: id })).status).toBe(201);
  }
  expect((await b.client.change('post', '/integrators', { integratorId: 'other-dapp' })).status).toBe(201);
});

/** The secret the database holds for the integrator's webhook (the one deliveries are signed with). */
async function storedSecret(integratorId: string): Promise<string | undefined> {
  return (await database.db.selectFrom('webhooks').select('secret').where('integrator_id', '=', integratorId).executeTakeFirst())?.secret;
}

function transfer(n: number, integrator: string, fields: Partial<TransferStatus> = {}): TransferStatus {
  return {
    status: 'DONE', substatus: 'COMPLETED', transactionId: hash(1000 + n), tool: 'across', integrator,
    fromAddress: walletA.address, toAddress: walletA.address,
    sending: { chainId: 42161, txHash: hash(n), block: 100 + n, amount: 1_000_000n, timestamp: T0 + n * 60 },
    receiving: { chainId: 8453, txHash: hash(500 + n), amount: 990_000n, timestamp: T0 + n * 60 + 30 },
    ...fields,
  };
}
const save = (n: number, status: TransferStatus) =>
  saveTransfer(database.db, { chainId: status.sending!.chainId, txHash: hash(n), blockNumber: 100 + n, blockHash: hash(9000 + n), status }, new Date());

describe('the webhook of an integrator', () => {
  test('set with its secret shown once, never in a read; a new URL keeps the secret; renewed; its deliveries shown; removed', async () => {
    const path = '/integrators/hook-dapp/webhook';
    expect((await a.client.get(path)).body).toEqual({ webhook: null, deliveries: [] });

    const set = await a.client.change('put', path, { url: 'https://hooks.example.com/lifi?team=7' });
    expect(set.status).toBe(201);
    expect(set.headers['cache-control']).toBe('no-store');
    expect(set.body).toEqual({
      webhook: { url: 'https://hooks.example.com/lifi?team=7', createdAt: expect.any(String), updatedAt: expect.any(String) },
      secret: expect.stringMatching(SECRET),
    });
    const first = set.body.secret as string;
    expect(await storedSecret('hook-dapp')).toBe(first); // the secret shown is the one deliveries are signed with
    expect(lookups).toContain('hooks.example.com'); // the name was resolved before it was saved

    const read = await a.client.get(path);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ webhook: set.body.webhook, deliveries: [] });
    expect(read.text).not.toContain(first);
    expect(read.text).not.toMatch(/secret|whsec_/);

    // a new URL (normalised as the URL standard writes it) keeps the secret, and does not show it
    const moved = await a.client.change('put', path, { url: ' https://RECEIVER.example.org/hooks ' });
    expect(moved.status).toBe(200);
    expect(moved.body).toEqual({ webhook: { url: 'https://receiver.example.org/hooks', createdAt: set.body.webhook.createdAt, updatedAt: expect.any(String) } });
    expect(await storedSecret('hook-dapp')).toBe(first);

    const renewed = await a.client.change('post', `${path}/secret`);
    expect(renewed.status).toBe(200);
    expect(renewed.body).toEqual({ webhook: { url: 'https://receiver.example.org/hooks', createdAt: set.body.webhook.createdAt, updatedAt: expect.any(String) }, secret: expect.stringMatching(SECRET) });
    expect(renewed.body.secret).not.toBe(first);
    expect(await storedSecret('hook-dapp')).toBe(renewed.body.secret);
    expect((await a.client.get(path)).text).not.toContain(renewed.body.secret);

    // each state of the integrator's transfers is a delivery to the webhook, shown newest first
    await save(31, transfer(31, 'hook-dapp', { status: 'PENDING', substatus: 'WAIT_DESTINATION_TRANSACTION' }));
    await save(31, transfer(31, 'hook-dapp'));
    await save(32, transfer(32, 'other-dapp'));
    const deliveries = (await a.client.get(path)).body.deliveries as Array<Record<string, unknown>>;
    expect(deliveries).toEqual([
      { id: expect.any(String), txHash: hash(31), status: 'DONE', state: 'pending', attempts: 0, createdAt: expect.any(String), nextAttemptAt: expect.any(String) },
      { id: expect.any(String), txHash: hash(31), status: 'PENDING', state: 'pending', attempts: 0, createdAt: expect.any(String), nextAttemptAt: expect.any(String) },
    ]);

    const removed = await a.client.change('delete', path);
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    expect((await a.client.get(path)).body).toEqual({ webhook: null, deliveries: [] });
    expect(await storedSecret('hook-dapp')).toBeUndefined();
    const again = await a.client.change('delete', path);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: 'Integrator "hook-dapp" has no webhook', code: 1003 });
    const noRenewal = await a.client.change('post', `${path}/secret`);
    expect(noRenewal.status).toBe(404);
    expect(noRenewal.body).toEqual({ message: 'Integrator "hook-dapp" has no webhook: set its URL first', code: 1003 });

    // set again: a new webhook, with a new secret
    const reset = await a.client.change('put', path, { url: 'https://hooks.example.com/lifi' });
    expect(reset.status).toBe(201);
    expect(reset.body.secret).toMatch(SECRET);
    expect([first, renewed.body.secret]).not.toContain(reset.body.secret);
  });

  test('from the attacker\'s side: another wallet\'s integrator, no CSRF token, another origin, no session: refused, nothing changed', async () => {
    const path = '/integrators/guarded-dapp/webhook';
    const set = await a.client.change('put', path, { url: 'https://hooks.example.com/guarded' });
    expect(set.status).toBe(201);
    const secret = set.body.secret as string;

    const foreign = [
      b.client.get(path),
      b.client.get('/integrators/guarded-dapp/transfers'),
      b.client.change('put', path, { url: 'https://hooks.example.com/attacker' }),
      b.client.change('post', `${path}/secret`),
      b.client.change('delete', path),
    ];
    for (const res of await Promise.all(foreign)) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: 'Integrator "guarded-dapp" belongs to another wallet: only the wallet that receives its fees manages it', code: 1010 });
      expect(res.text).not.toContain(secret);
    }
    const unknown = await b.client.change('put', '/integrators/nobody-registered-this/webhook', { url: 'https://hooks.example.com/x' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe(1003);

    const csrfRefusal = { message: "Refused: the x-csrf-token header must carry this session's CSRF token (from GET /portal/api/me)", code: 1010 };
    const changes = [
      (options: { origin?: string | null; csrf?: string | null }) => a.client.change('put', path, { url: 'https://hooks.example.com/attacker' }, options),
      (options: { origin?: string | null; csrf?: string | null }) => a.client.change('post', `${path}/secret`, undefined, options),
      (options: { origin?: string | null; csrf?: string | null }) => a.client.change('delete', path, undefined, options),
    ];
    for (const change of changes) {
      const noToken = await change({ csrf: null });
      expect(noToken.status).toBe(403);
      expect(noToken.body).toEqual(csrfRefusal);
      expect((await change({ csrf: b.client.csrfToken! })).status).toBe(403);
      const otherOrigin = await change({ origin: 'https://evil.example' });
      expect(otherOrigin.status).toBe(403);
      expect(otherOrigin.body.message).toMatch(/comes from https:\/\/evil\.example, not from this portal/);
      expect((await change({ origin: null })).status).toBe(403);
    }
    expect((await a.client.change('put', path, { url: 'https://hooks.example.com/attacker' }).set('sec-fetch-site', 'cross-site')).status).toBe(403);

    const signedOut = new PortalClient(t.app, walletA);
    for (const res of [await signedOut.get(path), await signedOut.get('/integrators/guarded-dapp/transfers'), await signedOut.change('put', path, { url: 'https://hooks.example.com/x' }), await signedOut.change('delete', path)]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: 'Not signed in, or the session has ended: sign in with your wallet', code: 1010 });
    }

    // untouched
    expect((await a.client.get(path)).body.webhook.url).toBe('https://hooks.example.com/guarded');
    expect(await storedSecret('guarded-dapp')).toBe(secret);
  });

  test('a URL that reaches the service\'s own network, or is not a plain https URL, is refused with a 400 naming the field and the rule', async () => {
    const path = '/integrators/refused-dapp/webhook';
    const refused: Array<[url: string, rule: 'url' | 'address' | 'resolution', message: string]> = [
      ['http://127.0.0.1/', 'url', 'webhook URL must use https'],
      ['https://127.0.0.1/', 'address', 'webhook URL resolves to a loopback address (127.0.0.1)'],
      ['https://localhost/x', 'address', 'webhook URL resolves to a loopback address'],
      ['https://10.0.0.1/', 'address', 'webhook URL resolves to a private address (10.0.0.1)'],
      ['https://169.254.169.254/latest/meta-data', 'address', 'webhook URL resolves to a cloud metadata address (169.254.169.254)'],
      ['https://[::1]/', 'address', 'webhook URL resolves to a loopback address (::1)'],
      ['https://[::ffff:127.0.0.1]/', 'address', 'webhook URL resolves to a loopback address'],
      ['https://[fe80::1]/', 'address', 'webhook URL resolves to a link-local address (fe80::1)'],
      ['https://user:pw@example.com/', 'url', 'webhook URL must not carry credentials'],
      ['https://hooks.example.com/x#part', 'url', 'webhook URL must not have a fragment'],
      ['https://metadata.google.internal/computeMetadata/v1/', 'address', 'webhook URL names a cloud metadata host (metadata.google.internal)'],
      ['https://internal.example.com/hook', 'address', 'webhook URL resolves to a private address (10.1.2.3)'],
      ['https://mixed.example.com/hook', 'address', 'webhook URL resolves to a private address (192.168.1.5)'],
      ['https://metadata-alias.example.com/', 'address', 'webhook URL resolves to a cloud metadata address (169.254.169.254)'],
      ['https://nowhere.invalid/', 'resolution', 'webhook URL host nowhere.invalid does not resolve (ENOTFOUND)'],
      ['hooks.example.com/no-scheme', 'url', 'webhook URL must be an absolute URL'],
      [`https://hooks.example.com/${'a'.repeat(2100)}`, 'url', 'webhook URL must be at most 2048 characters'],
    ];
    for (const [url, rule, message] of refused) {
      const res = await a.client.change('put', path, { url });
      expect({ url, status: res.status }).toEqual({ url, status: 400 });
      expect(res.body).toEqual({ message: expect.stringContaining(`url refused: ${message}`), code: 1011, errors: { field: 'url', rule } });
    }
    for (const body of [{}, { url: '' }, { url: 42 }, { url: ['https://hooks.example.com/'] }]) {
      const res = await a.client.change('put', path, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: 'url must be the webhook\'s URL (https://...)', code: 1011, errors: { field: 'url' } });
    }
    expect((await a.client.get(path)).body.webhook).toBeNull(); // nothing was saved

    // a webhook that exists keeps its URL when a new one is refused
    expect((await a.client.change('put', path, { url: 'https://hooks.example.com/ok' })).status).toBe(201);
    expect((await a.client.change('put', path, { url: 'https://internal.example.com/hook' })).status).toBe(400);
    expect((await a.client.get(path)).body.webhook.url).toBe('https://hooks.example.com/ok');
  });

  test('webhookAllowPrivate (the sandbox, tests): an http receiver on loopback is accepted; link-local and metadata addresses stay refused', async () => {
    const receiver = http.createServer((_req, res) => res.writeHead(204).end());
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const port = (receiver.address() as AddressInfo).port;
      const sandbox = express().use('/portal', portalRouter(portalOptions(t.dependencies, { webhookAllowPrivate: true }))) as unknown as express.Express;
      // the session is the database's: the same cookie works on this portal
      const local = Object.assign(new PortalClient(sandbox, walletA), { cookie: a.client.cookie, csrfToken: a.client.csrfToken });
      const path = '/integrators/local-dapp/webhook';
      const set = await local.change('put', path, { url: `http://127.0.0.1:${port}/hook` });
      expect(set.status).toBe(201);
      expect(set.body).toMatchObject({ webhook: { url: `http://127.0.0.1:${port}/hook` }, secret: expect.stringMatching(SECRET) });
      expect((await local.change('put', path, { url: `http://localhost:${port}/hook` })).status).toBe(200);
      expect((await local.change('put', path, { url: 'https://internal.example.com/hook' })).status).toBe(200);
      for (const [url, message] of [
        ['http://169.254.169.254/latest/meta-data', 'url refused: webhook URL resolves to a cloud metadata address (169.254.169.254)'],
        ['https://metadata-alias.example.com/', 'url refused: webhook URL resolves to a cloud metadata address (169.254.169.254)'],
        ['http://[fe80::1]/', 'url refused: webhook URL resolves to a link-local address (fe80::1)'],
        ['http://100.64.0.1/', 'url refused: webhook URL resolves to a carrier-grade NAT address (100.64.0.1)'],
      ] as const) {
        const res = await local.change('put', path, { url });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ message, code: 1011, errors: { field: 'url', rule: 'address' } });
      }
      expect((await local.get(path)).body.webhook.url).toBe('https://internal.example.com/hook');
      // without the setting (the default), the same receiver is refused
      const refused = await a.client.change('put', path, { url: `http://127.0.0.1:${port}/hook` });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe('url refused: webhook URL must use https');
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});

describe('the integrator\'s recent transfers', () => {
  beforeAll(async () => {
    await save(1, transfer(1, 'transfers-dapp'));
    await save(2, transfer(2, 'transfers-dapp', { status: 'FAILED', substatus: 'SLIPPAGE_EXCEEDED', tool: 'uniswap', receiving: { chainId: 42161 } }));
    await save(3, transfer(3, 'transfers-dapp', { status: 'PENDING', substatus: 'WAIT_DESTINATION_TRANSACTION', tool: undefined, receiving: undefined }));
    await save(4, transfer(4, 'other-dapp'));
    await save(5, transfer(5, 'TRANSFERS-DAPP')); // another id (ids as registered)
  });

  test('newest first, each with its explorer page; another integrator\'s are not listed', async () => {
    const res = await a.client.get('/integrators/transfers-dapp/transfers');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({
      transfers: [
        { txHash: hash(3), status: 'PENDING', substatus: 'WAIT_DESTINATION_TRANSACTION', fromChainId: 42161, startedAt: new Date((T0 + 180) * 1000).toISOString(), explorerUrl: `/explorer/tx/${hash(3)}` },
        { txHash: hash(2), status: 'FAILED', substatus: 'SLIPPAGE_EXCEEDED', tool: 'uniswap', fromChainId: 42161, toChainId: 42161, startedAt: new Date((T0 + 120) * 1000).toISOString(), explorerUrl: `/explorer/tx/${hash(2)}` },
        { txHash: hash(1), status: 'DONE', substatus: 'COMPLETED', tool: 'across', fromChainId: 42161, toChainId: 8453, startedAt: new Date((T0 + 60) * 1000).toISOString(), explorerUrl: `/explorer/tx/${hash(1)}` },
      ],
    });
    const others = await b.client.get('/integrators/other-dapp/transfers');
    expect(others.body.transfers.map((item: { txHash: string }) => item.txHash)).toEqual([hash(32), hash(4)]);
    expect((await a.client.get('/integrators/hook-dapp/transfers')).body.transfers.map((item: { txHash: string }) => item.txHash)).toEqual([hash(31)]);
  });

  test('?limit= from 1 to 50 (20 by default); anything else is a 400', async () => {
    for (let n = 100; n < 125; n += 1) await save(n, transfer(n, 'transfers-dapp'));
    expect((await a.client.get('/integrators/transfers-dapp/transfers')).body.transfers).toHaveLength(20);
    const two = await a.client.get('/integrators/transfers-dapp/transfers?limit=2');
    expect(two.body.transfers.map((item: { txHash: string }) => item.txHash)).toEqual([hash(124), hash(123)]);
    expect((await a.client.get('/integrators/transfers-dapp/transfers?limit=50')).body.transfers).toHaveLength(28);
    for (const limit of ['0', '51', '1000', '-1', '2.5', 'all', '']) {
      const res = await a.client.get(`/integrators/transfers-dapp/transfers?limit=${encodeURIComponent(limit)}`);
      expect({ limit, status: res.status }).toEqual({ limit, status: 400 });
      expect(res.body).toEqual({ message: 'limit must be a whole number from 1 to 50', code: 1011 });
    }
    expect((await a.client.get('/integrators/transfers-dapp/transfers?limit=1&limit=2')).status).toBe(400);
  });
});

test('while the database is unavailable, the webhook and transfers answer 503 JSON', async () => {
  const unavailable = { message: "The portal's database is not available right now: try again in a moment", code: 1006 };
  const down = express().use('/portal', portalRouter(portalOptions(t.dependencies, { database: () => Promise.reject(new Error('connection refused')), databaseWaitMs: 200 }))) as unknown as express.Express;
  const portal = Object.assign(new PortalClient(down, walletA), { cookie: a.client.cookie, csrfToken: a.client.csrfToken });
  for (const res of [
    await portal.get('/integrators/hook-dapp/webhook'),
    await portal.change('put', '/integrators/hook-dapp/webhook', { url: 'https://hooks.example.com/lifi' }),
    await portal.change('post', '/integrators/hook-dapp/webhook/secret'),
    await portal.change('delete', '/integrators/hook-dapp/webhook'),
    await portal.get('/integrators/hook-dapp/transfers'),
  ]) {
    expect(res.status).toBe(503);
    expect(res.body).toEqual(unavailable);
    expect(res.headers['retry-after']).toBe('5');
  }
});
