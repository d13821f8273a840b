/**
 * The partner portal through the real app (src/portal/router.ts mounted at /portal by createApp), on an in-memory
 * database (PGlite) whose keys the app's access control authenticates, with a seeded fee ledger. Wallets sign in
 * with Sign-In with Ethereum (ethers wallets sign the messages), then register integrators, manage keys (each used
 * against /v1/keys/test), read usage and fees; and every refusal is a 4xx JSON answer that says why.
 */
import express from 'express';
import request from 'supertest';
import pino from 'pino';
import { Wallet } from 'ethers';
import { SiweMessage } from 'siwe';
import { openDatabase, type Database } from '../../src/persistence/database';
import { block } from '../../src/persistence/blocks';
import { blockKey } from '../../src/persistence/keys';
import { runKeysCommand } from '../../scripts/keys';
import { keyEvents } from '../../src/persistence/keyEvents';
import { recordUsage } from '../../src/persistence/usage';
import { portalRouter } from '../../src/portal/router';
import { PAGE_CSP } from '../../src/portal/page';
import { NONCE_TTL_MS } from '../../src/portal/siwe';
import type { Dependencies } from '../../src/server/dependencies';
import { useTestApp } from '../support/app';
import { useScratchDir } from '../support/files';
import { PORTAL_HOST, PORTAL_ORIGIN, PortalClient, UsageRecorder, databaseAccess, sessionCookie } from '../support/portal';

jest.setTimeout(30_000);

const silent = pino({ level: 'silent' });
/** Two partners: A receives the fees of the ledger's "portal-fees"; B is another wallet. */
const walletA = new Wallet(`0x${'a1'.repeat(32)}`);
const walletB = new Wallet(`0x${'b2'.repeat(32)}`);
const somebodyElse = new Wallet(`0x${'c3'.repeat(32)}`);
const ARB_USDC = '0xaf88d065e77c8cC2239327C5EDb3A432268e5831';

const files = useScratchDir('portal-http-');
let database: Database;
const recorder = { current: undefined as UsageRecorder | undefined };
beforeAll(async () => {
  database = await openDatabase({ dir: 'memory://' });
  recorder.current = new UsageRecorder(database);
});
afterAll(async () => {
  await database?.close();
});
const t = useTestApp(() => ({
  env: {
    FEE_LEDGER_FILE: files.writeJson('ledger.json', {
      schemaVersion: 1,
      integrators: [
        { integratorId: 'portal-fees', feeWallet: walletA.address, balances: { 42161: [{ token: ARB_USDC, symbol: 'USDC', amount: '2500000' }] } },
        { integratorId: 'somebodys-dapp', feeWallet: somebodyElse.address, balances: {} },
        { integratorId: 'operators-dapp', balances: {} },
      ],
    }),
  },
  dependencies: { access: databaseAccess(database, recorder.current!) },
  portal: (dependencies: Dependencies) => portalRouter({ origins: () => [PORTAL_ORIGIN], database: async () => database, dependencies, logger: silent }),
}));

const client = (wallet: Wallet) => new PortalClient(t.app, wallet);
const apiKeyTest = (key: string) => request(t.app).get('/v1/keys/test').set('x-svc-api-key', key);

describe('the page', () => {
  test('GET /portal serves the page under its own Content-Security-Policy, with its script and stylesheet', async () => {
    const page = await request(t.app).get('/portal').set('host', PORTAL_HOST);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toBe(PAGE_CSP);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['referrer-policy']).toBe('same-origin');
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.text).toContain('<script src="/portal/portal.js" defer></script>');
    expect(page.text).not.toMatch(/<script>|style=/); // nothing inline: the policy would refuse it

    const script = await request(t.app).get('/portal/portal.js');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toMatch(/^application\/javascript/);
    expect(script.text).toContain('/portal/api');
    const css = await request(t.app).get('/portal/portal.css');
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toMatch(/^text\/css/);
  });

  test('the portal is not part of the API: no API key, no rate-limit headers, JSON 404 for unknown paths', async () => {
    const nonce = await request(t.app).get('/portal/api/nonce').set('x-svc-api-key', 'svc_not-a-key-at-all-00000000000000000000000');
    expect(nonce.status).toBe(200); // an unknown key would be 401 on /v1
    expect(nonce.headers['ratelimit-limit']).toBeUndefined();
    expect(nonce.headers['cache-control']).toBe('no-store');
    const unknown = await request(t.app).get('/portal/api/nothing-here');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: 'No such portal endpoint: GET /portal/api/nothing-here', code: 1003 });
    const contract = await request(t.app).get('/openapi.json');
    expect(Object.keys(contract.body.paths).filter((path) => path.includes('portal'))).toEqual([]);
  });
});

describe('signing in', () => {
  test('a signed SIWE message opens a session: HttpOnly, SameSite=Strict, Path=/portal cookie; /me gives the CSRF token', async () => {
    const a = client(walletA);
    const before = await a.get('/me');
    expect(before.body).toEqual({ signedIn: false });
    const nonce = await a.get('/nonce');
    expect(nonce.body.nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(nonce.body.chainIds).toEqual(expect.arrayContaining([1, 10, 8453, 42161]));

    const res = await a.signIn();
    const cookie = ([] as string[]).concat(res.headers['set-cookie'])[0]!;
    expect(cookie).toMatch(/^portal_session=[A-Za-z0-9_-]{43};/); // 256 random bits
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).toContain('Path=/portal');
    expect(cookie).toMatch(/Max-Age=28800/);
    expect(cookie).not.toContain('Secure'); // plain HTTP here; over TLS (req.secure) the cookie is Secure
    expect(res.body).toMatchObject({ signedIn: true, address: walletA.address, chainId: 42161, graceHours: 24 });

    const me = await a.get('/me');
    expect(me.body).toMatchObject({ signedIn: true, address: walletA.address, csrfToken: a.csrfToken });
    expect(me.body.csrfToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  test('a message for another domain is refused', async () => {
    const a = client(walletA);
    const res = await a.present(await a.signedMessage({ origin: 'https://evil.example' }));
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: `Sign-in refused: the message is for domain "evil.example", not this portal (${PORTAL_HOST})`, code: 1010 });
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  test('a sign-in signed on another site is not relayed into a session, whatever Host and Origin the relay claims', async () => {
    // the attacker takes the portal's nonce and has the victim sign an ordinary sign-in on the attacker's own site
    const attacker = client(walletB);
    const victim = walletA;
    const nftGame = async (fields: { domain?: string; uri?: string; statement?: string } = {}) => {
      const nonce = (await attacker.get('/nonce').expect(200)).body.nonce as string;
      const message = new SiweMessage({
        domain: fields.domain ?? 'nft-game.example', address: victim.address, statement: fields.statement ?? 'Sign in to NFT Game',
        uri: fields.uri ?? 'https://nft-game.example/login', version: '1', chainId: 137, nonce,
        issuedAt: new Date().toISOString(), expirationTime: new Date(Date.now() + 10 * 60_000).toISOString(),
      }).prepareMessage();
      return { message, signature: await victim.signMessage(message) };
    };
    // posted as the attacker's site: its Host and Origin are not the portal's
    const relayed = await attacker.change('post', '/session', await nftGame(), { host: 'nft-game.example', origin: 'https://nft-game.example' });
    expect(relayed.status).toBe(403);
    expect(relayed.body).toEqual({ message: `Refused: the request comes from https://nft-game.example, not from this portal (${PORTAL_ORIGIN})`, code: 1010 });
    // posted by a script that claims the portal's Origin: the message is still the other site's
    const claimed = await attacker.change('post', '/session', await nftGame(), { host: 'nft-game.example' });
    expect(claimed.status).toBe(401);
    expect(claimed.body.message).toBe(`Sign-in refused: the message is for domain "nft-game.example", not this portal (${PORTAL_HOST})`);
    // the portal's domain and URI, but the other site's words: a message the victim did not sign on the portal's page
    const words = await attacker.change('post', '/session', await nftGame({ domain: PORTAL_HOST, uri: `${PORTAL_ORIGIN}/portal` }));
    expect(words.status).toBe(401);
    expect(words.body.message).toMatch(/^Sign-in refused: the message's statement is not the portal's/);
    for (const res of [relayed, claimed, words]) expect(res.headers['set-cookie']).toBeUndefined();
    expect((await attacker.get('/me')).body).toEqual({ signedIn: false });
  });

  test('a nonce is used once: the same signed message is refused the second time', async () => {
    const a = client(walletA);
    const signed = await a.signedMessage();
    expect((await a.present(signed)).status).toBe(200);
    const again = await client(walletA).present(signed);
    expect(again.status).toBe(401);
    expect(again.body.message).toMatch(/nonce was not issued here, has expired or was used already/);
  });

  test('an expired message, a nonce never issued, another signer, an unknown chain and a malformed message are refused', async () => {
    const a = client(walletA);
    const expired = await a.present(await a.signedMessage({ now: Date.now() - 6 * 60_000, lifetimeMs: 5 * 60_000 }));
    expect(expired.status).toBe(401);
    expect(expired.body.message).toMatch(/^Sign-in refused: the message expired at .*: sign in again$/);

    const invented = await a.present(await a.signedMessage({ nonce: 'f'.repeat(32) }));
    expect(invented.status).toBe(401);
    expect(invented.body.message).toMatch(/nonce was not issued here/);

    const forged = await a.present(await a.signedMessage({ signer: walletB }));
    expect(forged.status).toBe(401);
    expect(forged.body.message).toBe(`Sign-in refused: the signature is not the signature of ${walletA.address} over this message`);

    const chain = await a.present(await a.signedMessage({ chainId: 999_999 }));
    expect(chain.status).toBe(401);
    expect(chain.body.message).toMatch(/chain id 999999 is not accepted/);

    const malformed = await a.change('post', '/session', { message: 'hello', signature: `0x${'00'.repeat(65)}` });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ message: 'Sign-in refused: message is not an EIP-4361 (Sign-In with Ethereum) message', code: 1011 });
    const notJson = await a.change('post', '/session').set('content-type', 'application/json').send('{"message":');
    expect(notJson.status).toBe(400);
    expect(notJson.body.code).toBe(1011);
  });

  test('a sign-in from another origin, or without one, is refused (login CSRF)', async () => {
    const a = client(walletA);
    const other = await a.change('post', '/session', await a.signedMessage(), { origin: 'https://evil.example' });
    expect(other.status).toBe(403);
    expect(other.body).toEqual({ message: `Refused: the request comes from https://evil.example, not from this portal (http://${PORTAL_HOST})`, code: 1010 });
    const none = await a.change('post', '/session', await a.signedMessage(), { origin: null });
    expect(none.status).toBe(403);
    expect(none.body.message).toMatch(/no Origin header/);
  });

  test('sign-out ends the session', async () => {
    const a = client(walletA);
    await a.signIn();
    const out = await a.change('post', '/logout');
    expect(out.status).toBe(200);
    expect(([] as string[]).concat(out.headers['set-cookie'])[0]).toMatch(/^portal_session=; Path=\/portal; Expires=Thu, 01 Jan 1970/);
    expect((await a.get('/me')).body).toEqual({ signedIn: false });
    const after = await a.get('/integrators');
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ message: 'Not signed in, or the session has ended: sign in with your wallet', code: 1010 });
  });
});

describe('integrators, keys, usage and fees', () => {
  const a = { client: undefined as unknown as PortalClient };
  const b = { client: undefined as unknown as PortalClient };
  beforeAll(async () => {
    a.client = client(walletA);
    b.client = client(walletB);
    await a.client.signIn();
    await b.client.signIn({ chainId: 1 });
  });

  test('a wallet registers integrator ids whose fees it receives; others are refused', async () => {
    const register = await a.client.change('post', '/integrators', { integratorId: 'acme-dapp' });
    expect(register.status).toBe(201);
    expect(register.body).toMatchObject({ integratorId: 'acme-dapp', feeWallet: walletA.address });
    expect((await a.client.change('post', '/integrators', { integratorId: 'portal-fees' })).status).toBe(201);
    const listed = await a.client.get('/integrators');
    expect(listed.body.integrators.map((i: { integratorId: string }) => i.integratorId)).toEqual(['acme-dapp', 'portal-fees']);
    expect((await b.client.get('/integrators')).body).toEqual({ integrators: [] });

    const taken = await b.client.change('post', '/integrators', { integratorId: 'acme-dapp' });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ message: 'integrator id "acme-dapp" is already registered', code: 1000 });
    const ledgerOwned = await b.client.change('post', '/integrators', { integratorId: 'somebodys-dapp' });
    expect(ledgerOwned.status).toBe(403);
    expect(ledgerOwned.body.message).toBe('Integrator id "somebodys-dapp" is taken: its fees go to another wallet');
    const invalid = await b.client.change('post', '/integrators', { integratorId: 'no spaces please' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe(1011);
  });

  test('a change without the CSRF token, or with a wrong one, or from another origin, is refused with 403', async () => {
    const noToken = await a.client.change('post', '/integrators', { integratorId: 'csrf-dapp' }, { csrf: null });
    expect(noToken.status).toBe(403);
    expect(noToken.body).toEqual({ message: "Refused: the x-csrf-token header must carry this session's CSRF token (from GET /portal/api/me)", code: 1010 });
    const wrong = await a.client.change('post', '/integrators', { integratorId: 'csrf-dapp' }, { csrf: b.client.csrfToken });
    expect(wrong.status).toBe(403);
    const otherOrigin = await a.client.change('post', '/integrators', { integratorId: 'csrf-dapp' }, { origin: 'http://portal.test:9999' });
    expect(otherOrigin.status).toBe(403);
    expect(otherOrigin.body.message).toMatch(/comes from http:\/\/portal.test:9999, not from this portal/);
    const crossSite = await a.client.change('post', '/integrators', { integratorId: 'csrf-dapp' }).set('sec-fetch-site', 'cross-site');
    expect(crossSite.status).toBe(403);
    expect((await a.client.get('/integrators')).body.integrators).toHaveLength(2); // nothing was registered
  });

  test('keys: created and shown once, working against /v1; renamed; allowlisted (bad entries named); rotated with a grace period; revoked', async () => {
    const created = await a.client.change('post', '/integrators/acme-dapp/keys', { name: 'production' });
    expect(created.status).toBe(201);
    const { key, view } = created.body as { key: string; view: { id: string } };
    expect(key).toMatch(/^svc_/);
    expect(created.body.view).toMatchObject({ name: 'production', status: 'active', limits: { perMinute: 100, twoHourWindow: 12_000 }, blocks: [] });
    expect(created.headers['cache-control']).toBe('no-store');
    // the key works, and is never shown again
    const tested = await apiKeyTest(key);
    expect(tested.status).toBe(200);
    expect(tested.body).toMatchObject({ keyId: view.id });
    const detail = await a.client.get('/integrators/acme-dapp');
    expect(detail.status).toBe(200);
    expect(JSON.stringify(detail.body)).not.toContain(key);
    expect(detail.body.keys).toEqual([expect.objectContaining({ id: view.id, name: 'production', status: 'active' })]);

    const renamed = await a.client.change('patch', `/integrators/acme-dapp/keys/${view.id}`, { name: 'production backend' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.view.name).toBe('production backend');

    const bad = await a.client.change('put', `/integrators/acme-dapp/keys/${view.id}/allowlist`, { ipAllowlist: ['203.0.113.0/24', 'not-an-ip', '10.0.0.300', '2001:db8::/48'] });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      message: 'ipAllowlist: "not-an-ip", "10.0.0.300" are not IP addresses or CIDR ranges (e.g. 203.0.113.7, 203.0.113.0/24, 2001:db8::/48)',
      code: 1011,
      errors: { invalid: ['not-an-ip', '10.0.0.300'] },
    });
    const elsewhere = await a.client.change('put', `/integrators/acme-dapp/keys/${view.id}/allowlist`, { ipAllowlist: ['203.0.113.0/24'] });
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body.view.ipAllowlist).toEqual(['203.0.113.0/24']);
    expect((await apiKeyTest(key)).status).toBe(403); // the test's requests come from 127.0.0.1
    const loopback = await a.client.change('put', `/integrators/acme-dapp/keys/${view.id}/allowlist`, { ipAllowlist: ['loopback'] });
    expect(loopback.status).toBe(200);
    expect((await apiKeyTest(key)).status).toBe(200);
    expect((await a.client.change('put', `/integrators/acme-dapp/keys/${view.id}/allowlist`, { ipAllowlist: null })).body.view.ipAllowlist).toBeUndefined();

    // rotation: a new key at once, the old one works through the grace period (24 h by default)
    const rotated = await a.client.change('post', `/integrators/acme-dapp/keys/${view.id}/rotate`, {});
    expect(rotated.status).toBe(201);
    const newKey = rotated.body.key as string;
    expect(rotated.body.previous).toMatchObject({ id: view.id, status: 'grace', rotatedTo: rotated.body.view.id });
    const graceEnds = Date.parse(rotated.body.previous.expiresAt) - Date.now();
    expect(graceEnds).toBeGreaterThan(24 * 3_600_000 - 60_000);
    expect(graceEnds).toBeLessThanOrEqual(24 * 3_600_000);
    expect((await apiKeyTest(newKey)).body).toMatchObject({ keyId: rotated.body.view.id });
    expect((await apiKeyTest(key)).status).toBe(200);
    const again = await a.client.change('post', `/integrators/acme-dapp/keys/${view.id}/rotate`, {});
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/was already rotated/);
    const badGrace = await a.client.change('post', `/integrators/acme-dapp/keys/${rotated.body.view.id}/rotate`, { graceHours: 10_000 });
    expect(badGrace.status).toBe(400);

    // revocation: refused from now on
    const revoked = await a.client.change('post', `/integrators/acme-dapp/keys/${rotated.body.view.id}/revoke`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.view).toMatchObject({ status: 'revoked' });
    const refused = await apiKeyTest(newKey);
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe(1010);
    expect((await a.client.change('post', `/integrators/acme-dapp/keys/${rotated.body.view.id}/revoke`)).status).toBe(409);

    // every change is in the key's events, made by the wallet
    const events = await keyEvents(database.db, view.id);
    expect(events.map((e) => e.type)).toEqual(['created', 'renamed', 'allowlist-changed', 'allowlist-changed', 'allowlist-changed', 'rotated']);
    expect(new Set(events.map((e) => e.actor))).toEqual(new Set([walletA.address]));
  });

  test('another wallet\'s integrator is refused (403) for every read and change; an unknown one is 404', async () => {
    const created = await a.client.change('post', '/integrators/acme-dapp/keys', { name: 'theirs' });
    const keyId = created.body.view.id as string;
    const attempts = [
      b.client.get('/integrators/acme-dapp'),
      b.client.get('/integrators/acme-dapp/fees'),
      b.client.get('/integrators/acme-dapp/fees/42161/withdrawal'),
      b.client.get(`/integrators/acme-dapp/keys/${keyId}/usage`),
      b.client.change('post', '/integrators/acme-dapp/keys', { name: 'mine now' }),
      b.client.change('patch', `/integrators/acme-dapp/keys/${keyId}`, { name: 'mine' }),
      b.client.change('put', `/integrators/acme-dapp/keys/${keyId}/allowlist`, { ipAllowlist: ['203.0.113.9'] }),
      b.client.change('post', `/integrators/acme-dapp/keys/${keyId}/rotate`, {}),
      b.client.change('post', `/integrators/acme-dapp/keys/${keyId}/revoke`),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: 'Integrator "acme-dapp" belongs to another wallet: only the wallet that receives its fees manages it', code: 1010 });
    }
    expect((await apiKeyTest(created.body.key)).status).toBe(200); // untouched
    const unknown = await b.client.get('/integrators/nobody-registered-this');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe(1003);
    // a key of one integrator is not reachable through another of the same wallet
    const wrongPath = await a.client.get(`/integrators/portal-fees/keys/${keyId}/usage`);
    expect(wrongPath.status).toBe(404);
    expect(wrongPath.body.message).toBe(`Integrator "portal-fees" has no key "${keyId}"`);
  });

  test('usage per key: requests and refusals over time and by operation, the key\'s limits and its blocks', async () => {
    const created = await a.client.change('post', '/integrators/portal-fees/keys', { name: 'usage' });
    const { key } = created.body as { key: string };
    const keyId = created.body.view.id as string;
    for (let i = 0; i < 3; i += 1) expect((await apiKeyTest(key)).status).toBe(200);
    expect((await request(t.app).get('/v1/chains').set('x-svc-api-key', key)).status).toBe(200);
    await recorder.current!.flush();
    // refusals counted yesterday (recorded directly: the service's blocking rules are not part of this test)
    await recordUsage(database.db, [{ subject: { kind: 'key', id: keyId }, operationId: 'getQuote', at: new Date(Date.now() - 20 * 3_600_000), requests: 5, refused429: 2 }]);

    const hour = await a.client.get(`/integrators/portal-fees/keys/${keyId}/usage?range=1h`);
    expect(hour.status).toBe(200);
    expect(hour.body).toMatchObject({ keyId, range: '1h', stepMinutes: 1, limits: { perMinute: 100, twoHourWindow: 12_000 }, blocks: [] });
    expect(hour.body.series).toHaveLength(60);
    const total = (series: { requests: number }[]) => series.reduce((sum, p) => sum + p.requests, 0);
    expect(total(hour.body.series)).toBe(4);
    expect(hour.body.byOperation).toEqual([
      { operationId: 'testApiKey', requests: 3, refused401: 0, refused403: 0, refused429: 0 },
      { operationId: 'getChains', requests: 1, refused401: 0, refused403: 0, refused429: 0 },
    ]);
    const day = await a.client.get(`/integrators/portal-fees/keys/${keyId}/usage?range=24h`);
    expect(day.body.series).toHaveLength(96);
    expect(total(day.body.series)).toBe(9);
    expect(day.body.series.reduce((sum: number, p: { refused429: number }) => sum + p.refused429, 0)).toBe(2);
    const quotes = await a.client.get(`/integrators/portal-fees/keys/${keyId}/usage?range=24h&operationId=getQuote`);
    expect(total(quotes.body.series)).toBe(5);
    expect((await a.client.get(`/integrators/portal-fees/keys/${keyId}/usage?range=1y`)).body).toEqual({ message: 'range must be one of 1h, 24h, 7d', code: 1011 });

    await blockKey(database.db, keyId, { actor: 'cli:ops', reason: 'abuse from 198.51.100.7', until: new Date(Date.now() + 3_600_000) });
    const blocked = await a.client.get(`/integrators/portal-fees/keys/${keyId}/usage?range=1h`);
    expect(blocked.body.blocks).toEqual([expect.objectContaining({ rule: 'manual', reason: 'abuse from 198.51.100.7', until: expect.any(String) })]);
    const listed = (await a.client.get('/integrators/portal-fees')).body.keys.find((k: { id: string }) => k.id === keyId);
    expect(listed.blocks).toHaveLength(1);
  });

  test('fees per chain and the withdrawal transaction, sent from the fee wallet', async () => {
    const fees = await a.client.get('/integrators/portal-fees/fees');
    expect(fees.status).toBe(200);
    expect(fees.body).toEqual({
      integratorId: 'portal-fees',
      bookedTo: walletA.address,
      chains: [{ chainId: 42161, chainName: 'Arbitrum', withdrawable: true, tokenBalances: [{ address: ARB_USDC, symbol: 'USDC', decimals: 6, amount: '2500000', amountUsd: expect.stringMatching(/^2\.5\d$/) }] }],
      staleChains: [],
    });
    const withdrawal = await a.client.get('/integrators/portal-fees/fees/42161/withdrawal');
    expect(withdrawal.status).toBe(200);
    expect(withdrawal.body).toMatchObject({ chainId: 42161, chainName: 'Arbitrum', tokens: ['USDC'], transaction: { from: walletA.address, chainId: '0xa4b1', value: '0x0' }, addChain: { chainId: '0xa4b1' } });
    expect(withdrawal.body.transaction.data).toMatch(/^0x/);
    const nothing = await a.client.get('/integrators/portal-fees/fees/10/withdrawal');
    expect(nothing.status).toBe(400);
    expect(nothing.body.message).toMatch(/no collected fees on OP Mainnet|no collected fees on Optimism/);
    expect((await a.client.get('/integrators/portal-fees/fees/not-a-chain/withdrawal')).status).toBe(400);
    // an integrator the ledger does not know has no fees yet
    expect((await a.client.get('/integrators/acme-dapp/fees')).body).toEqual({ integratorId: 'acme-dapp', chains: [], staleChains: [] });
  });
});

describe('refusals from the attacker\'s side: blocks, caps, ids and names (issue 33)', () => {
  /** A signed-in client of a fresh wallet (each test its own, so that no cap is shared with another test). */
  const signedIn = async (seed: string): Promise<PortalClient> => {
    const c = client(new Wallet(`0x${seed.repeat(32)}`));
    await c.signIn();
    return c;
  };
  /** `npm run keys -- ...` on the portal's database, as an operator runs it; its exit code and what it wrote. */
  const keysCli = async (...argv: string[]) => {
    let stdout = '';
    let stderr = '';
    const code = await runKeysCommand(argv, { env: {}, database, stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
    return { code, stdout, stderr };
  };

  test('a blocked key\'s integrator cannot mint a new key while the block lasts (403 naming the block, Retry-After at its end)', async () => {
    const partner = await signedIn('d4');
    expect((await partner.change('post', '/integrators', { integratorId: 'blocked-dapp' })).status).toBe(201);
    const first = await partner.change('post', '/integrators/blocked-dapp/keys', { name: 'first' });
    const keyId = first.body.view.id as string;

    // the operator blocks the key until lifted; a new key in the portal is refused, and so is one made with the CLI
    expect((await keysCli('block', keyId, '--reason', 'scraping')).code).toBe(0);
    const escape = await partner.change('post', '/integrators/blocked-dapp/keys', { name: 'escape' });
    expect(escape.status).toBe(403);
    expect(escape.body).toEqual({
      message: `Refused: integrator "blocked-dapp" has a blocked key (${keyId}, manual: scraping) until an operator lifts it: no new key is made for it while the block lasts`,
      code: 1010,
    });
    expect(escape.headers['retry-after']).toBeUndefined(); // no end to wait for
    const cli = await keysCli('create', '--name', 'escape', '--integrator', 'blocked-dapp');
    expect(cli.code).toBe(1);
    expect(cli.stdout).toBe(''); // no key printed
    expect(cli.stderr).toMatch(/^keys: integrator "blocked-dapp" has a blocked key/);
    expect((await keysCli('unblock', keyId)).code).toBe(0);

    // an automatic block of an hour: refused with Retry-After = the seconds to its end
    const until = new Date(Date.now() + 3_600_000);
    await block(database.db, { subject: { kind: 'key', id: keyId }, rule: 'sustained-429', reason: 'refused with 429 in 10 of the last 15 minutes', actor: 'detector', until });
    const again = await partner.change('post', '/integrators/blocked-dapp/keys', { name: 'escape' });
    expect(again.status).toBe(403);
    expect(again.body.message).toBe(`Refused: integrator "blocked-dapp" has a blocked key (${keyId}, sustained-429: refused with 429 in 10 of the last 15 minutes) until ${until.toISOString()}: no new key is made for it while the block lasts`);
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(3590);
    expect(Number(again.headers['retry-after'])).toBeLessThanOrEqual(3600);
    // nothing was made: the integrator still has its one key
    expect((await partner.get('/integrators/blocked-dapp')).body.keys.map((k: { id: string }) => k.id)).toEqual([keyId]);
    // once lifted, keys are made again
    expect((await keysCli('unblock', keyId)).code).toBe(0);
    expect((await partner.change('post', '/integrators/blocked-dapp/keys', { name: 'after' })).status).toBe(201);
  });

  test('40 key creations at once give exactly 20 keys and 20 × 409', async () => {
    const partner = await signedIn('e5');
    expect((await partner.change('post', '/integrators', { integratorId: 'busy-dapp' })).status).toBe(201);
    const answers = await Promise.all(Array.from({ length: 40 }, (_, k) => partner.change('post', '/integrators/busy-dapp/keys', { name: `k${k}` })));
    expect(answers.filter((res) => res.status === 201)).toHaveLength(20);
    const refused = answers.filter((res) => res.status === 409);
    expect(refused).toHaveLength(20);
    for (const res of refused) expect(res.body).toEqual({ message: 'integrator "busy-dapp" has 20 working keys, the most it may have (20): revoke one first', code: 1000 });
    expect((await partner.get('/integrators/busy-dapp')).body.keys).toHaveLength(20);
  });

  test('30 registrations by one wallet at once give exactly 20 integrators and 10 × 409', async () => {
    const partner = await signedIn('f6');
    const answers = await Promise.all(Array.from({ length: 30 }, (_, k) => partner.change('post', '/integrators', { integratorId: `many-${k}` })));
    expect(answers.filter((res) => res.status === 201)).toHaveLength(20);
    const refused = answers.filter((res) => res.status === 409);
    expect(refused).toHaveLength(10);
    for (const res of refused) expect(res.body).toEqual({ message: `wallet ${partner.wallet.address} has 20 integrator ids, the most a wallet may register (20)`, code: 1000 });
    expect((await partner.get('/integrators')).body.integrators).toHaveLength(20);
  });

  test('an id is claimed once without regard to case, in the database and in the fee ledger', async () => {
    const alice = await signedIn('a7');
    const mallory = await signedIn('b8');
    expect((await alice.change('post', '/integrators', { integratorId: 'alice-dapp' })).status).toBe(201);
    const shouting = await mallory.change('post', '/integrators', { integratorId: 'ALICE-DAPP' });
    expect(shouting.status).toBe(409);
    expect(shouting.body).toEqual({ message: 'integrator id "ALICE-DAPP" is taken: "alice-dapp" is registered, and ids are compared without regard to case', code: 1000 });
    expect((await alice.change('post', '/integrators', { integratorId: 'Alice-Dapp' })).status).toBe(409); // its own id too: one id, one spelling
    // the ledger's ids: another spelling of one is nobody's
    const ledgerVariant = await mallory.change('post', '/integrators', { integratorId: 'Somebodys-Dapp' });
    expect(ledgerVariant.status).toBe(409);
    expect(ledgerVariant.body).toEqual({ message: 'Integrator id "Somebodys-Dapp" is taken: the fee ledger books "somebodys-dapp", and ids are compared without regard to case', code: 1000 });
    expect((await mallory.change('post', '/integrators', { integratorId: 'PORTAL-FEES' })).status).toBe(409);
    // a ledger id without a fee wallet yet: its fees are booked, so it is nobody's to claim by signing in first
    const reserved = await mallory.change('post', '/integrators', { integratorId: 'operators-dapp' });
    expect(reserved.status).toBe(403);
    expect(reserved.body).toEqual({ message: 'Integrator id "operators-dapp" is reserved: the service\'s fee ledger books its fees and names no wallet for them yet; its operator assigns it', code: 1010 });
    expect((await mallory.get('/integrators')).body.integrators).toEqual([]);
  });

  test('names and ids with control characters, bidirectional overrides or isolates are refused with a 400 naming the field and the rule', async () => {
    const partner = await signedIn('c9');
    expect((await partner.change('post', '/integrators', { integratorId: 'names-dapp' })).status).toBe(201);
    const created = await partner.change('post', '/integrators/names-dapp/keys', { name: 'plain' });
    const keyId = created.body.view.id as string;
    const cases: [string, string][] = [
      ['noitcudorp\u202E', 'U+202E'], ['a\u202Ab', 'U+202A'], ['\u2066isolated\u2069', 'U+2066'], ['mark\u200F', 'U+200F'],
      ['arabic\u061Cmark', 'U+061C'], ['c1\u0085next line', 'U+0085'], ['csi\u009B31m', 'U+009B'], ['bell\u0007', 'U+0007'], ['trailing break\n', 'U+000A'],
    ];
    for (const [name, found] of cases) {
      for (const res of [
        await partner.change('post', '/integrators/names-dapp/keys', { name }),
        await partner.change('patch', `/integrators/names-dapp/keys/${keyId}`, { name }),
      ]) {
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          message: `name must hold no control characters (C0, C1), bidirectional overrides or isolates (U+202A–U+202E, U+2066–U+2069) or direction marks (U+200E, U+200F, U+061C); it holds ${found}`,
          code: 1011,
        });
      }
    }
    const id = await partner.change('post', '/integrators', { integratorId: 'dapp\u202Egnp' });
    expect(id.status).toBe(400);
    expect(id.body.message).toMatch(/^integratorId must hold no control characters .*; it holds U\+202E$/);
    expect((await partner.get('/integrators/names-dapp')).body.keys.map((k: { name: string }) => k.name)).toEqual(['plain']);
  });
});

describe('the portal\'s options: sign-in limits, TLS behind a proxy, clock, an unavailable database', () => {
  test('nonces are limited per client address and minute (429 with Retry-After)', async () => {
    const clock = { now: Date.now() };
    const app = express().use('/portal', portalRouter({ origins: () => [PORTAL_ORIGIN], database: async () => database, dependencies: t.dependencies, logger: silent, clock: () => clock.now, signInAttemptsPerMinute: 3 }));
    for (let i = 0; i < 3; i += 1) expect((await request(app).get('/portal/api/nonce')).status).toBe(200);
    const limited = await request(app).get('/portal/api/nonce');
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ message: expect.stringMatching(/^Too many sign-in attempts from this address: at most 3 a minute; try again in \d+ s$/), code: 1005 });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    clock.now += 60_000;
    expect((await request(app).get('/portal/api/nonce')).status).toBe(200);
  });

  test('served at an https origin (PORTAL_ORIGIN behind a TLS proxy), the cookie is Secure and the Origin must be https', async () => {
    const app = express().use('/portal', portalRouter({ origins: () => [`https://${PORTAL_HOST}`], database: async () => database, dependencies: t.dependencies, logger: silent }));
    const portal = new PortalClient(app as unknown as express.Express, walletA);
    const signed = await portal.signedMessage({ origin: `https://${PORTAL_HOST}` });
    const plain = await portal.change('post', '/session', signed, { origin: `http://${PORTAL_HOST}` }).set('x-forwarded-proto', 'https');
    expect(plain.status).toBe(403);
    expect(plain.body.message).toMatch(/not from this portal \(https:\/\/portal\.test:8080\)/);
    const res = await portal.change('post', '/session', await portal.signedMessage({ origin: `https://${PORTAL_HOST}` }), { origin: `https://${PORTAL_HOST}` });
    expect(res.status).toBe(200);
    expect(([] as string[]).concat(res.headers['set-cookie'])[0]).toMatch(/; Secure; SameSite=Strict$/);
  });

  test('a nonce expires', async () => {
    const clock = { now: Date.now() };
    const app = express().use('/portal', portalRouter({ origins: () => [PORTAL_ORIGIN], database: async () => database, dependencies: t.dependencies, logger: silent, clock: () => clock.now }));
    const portal = new PortalClient(app as unknown as express.Express, walletA);
    const signed = await portal.signedMessage({ now: clock.now });
    clock.now += NONCE_TTL_MS + 1;
    const res = await portal.present(signed);
    expect(res.status).toBe(401);
    expect(res.body.message).toMatch(/has expired or was used already/);
  });

  test('while the database is unavailable, its endpoints answer 503 JSON (sign-in too: nonces and sessions are kept there)', async () => {
    // a session opened while the database was there
    const signedIn = new PortalClient(t.app, walletA);
    await signedIn.signIn();
    const unavailable = { message: "The portal's database is not available right now: try again in a moment", code: 1006 };
    const app = express().use('/portal', portalRouter({ origins: () => [PORTAL_ORIGIN], database: () => Promise.reject(new Error('connection refused')), dependencies: t.dependencies, logger: silent, databaseWaitMs: 200 }));
    const portal = new PortalClient(app as unknown as express.Express, walletA);
    const nonce = await portal.get('/nonce');
    expect(nonce.status).toBe(503);
    expect(nonce.body).toEqual(unavailable);
    expect(nonce.headers['retry-after']).toBe('5');
    const present = await portal.present(await signedIn.signedMessage());
    expect(present.status).toBe(503);
    expect(present.body).toEqual(unavailable);
    Object.assign(portal, { cookie: signedIn.cookie, csrfToken: signedIn.csrfToken });
    for (const res of [await portal.get('/me'), await portal.get('/integrators'), await portal.change('post', '/logout')]) {
      expect(res.status).toBe(503);
      expect(res.body).toEqual(unavailable);
    }
    expect((await new PortalClient(app as unknown as express.Express, walletA).get('/integrators')).status).toBe(401); // no cookie: nothing to look up
    const slow = express().use('/portal', portalRouter({ origins: () => [PORTAL_ORIGIN], database: () => new Promise(() => undefined), dependencies: t.dependencies, logger: silent, databaseWaitMs: 100 }));
    const waiting = new PortalClient(slow as unknown as express.Express, walletA);
    expect((await waiting.get('/nonce')).status).toBe(503);
    Object.assign(waiting, { cookie: signedIn.cookie });
    expect((await waiting.get('/integrators')).status).toBe(503);
    // the session is still there once the database is back
    expect((await signedIn.get('/me')).body).toMatchObject({ signedIn: true, address: walletA.address });
  });

  test('sessions and nonces are the database\'s: another portal on it (a restart, another instance) serves them', async () => {
    const portalOn = () => express().use('/portal', portalRouter({ origins: () => [PORTAL_ORIGIN], database: async () => database, dependencies: t.dependencies, logger: silent })) as unknown as express.Express;
    const [first, second] = [portalOn(), portalOn()];
    const browser = new PortalClient(first, walletA);
    const signed = await browser.signedMessage(); // nonce issued by the first
    const res = await new PortalClient(second, walletA).present(signed); // taken by the second
    expect(res.status).toBe(200);
    expect((await browser.present(signed)).status).toBe(401); // not twice, on any of them
    const cookie = sessionCookie(res);
    const me = await request(first).get('/portal/api/me').set('host', PORTAL_HOST).set('cookie', cookie);
    expect(me.body).toMatchObject({ signedIn: true, address: walletA.address, csrfToken: res.body.csrfToken });
    const onSecond = Object.assign(new PortalClient(second, walletA), { cookie, csrfToken: res.body.csrfToken as string });
    expect((await onSecond.change('post', '/logout')).status).toBe(200);
    expect((await request(first).get('/portal/api/me').set('host', PORTAL_HOST).set('cookie', cookie)).body).toEqual({ signedIn: false });
  });
});
