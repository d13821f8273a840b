/**
 * No secret in any log line (issue 33): a whole partner-portal session (sign-in, integrator, key created, rotated,
 * used, revoked, sign-out) and API requests with those keys, in every place a client may put a key (both key
 * headers, Authorization, the query string under several names), through the real app with its real access control
 * on a database, every logger at trace level. Then every line written is searched for every secret the run issued
 * or sent: the session id, the CSRF token, the sign-in signature, and each API key.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import request from 'supertest';
import { Wallet } from 'ethers';
import { openDatabase, type Database } from '../../src/persistence/database';
import { portalRouter } from '../../src/portal/router';
import { makeTestApp, type TestApp } from '../support/app';
import { PORTAL_ORIGIN, PortalClient } from '../support/portal';

jest.setTimeout(60_000);

const lines: string[] = [];
const logger = pino({ level: 'trace' }, new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(...chunk.toString('utf8').split('\n').filter((line) => line !== ''));
    done();
  },
}));

let database: Database;
let t: TestApp;
beforeAll(async () => {
  const opening = openDatabase({ dir: 'memory://' });
  t = await makeTestApp({
    logger,
    env: { LOG_LEVEL: 'trace' },
    access: { database: opening, logger },
    portal: (dependencies) => portalRouter({ origins: () => [PORTAL_ORIGIN], database: () => opening, dependencies, logger }),
  });
  database = await opening;
  await t.dependencies.access.records!.ready;
});
afterAll(async () => {
  await t?.dependencies.access.close();
  await database?.close();
});

test('a portal session and API requests with its keys leave no secret in any log line', async () => {
  const wallet = new Wallet(Wallet.createRandom().privateKey);
  const portal = new PortalClient(t.app, wallet);
  const signed = await portal.signedMessage();
  expect((await portal.present(signed)).status).toBe(200);
  const sessionId = decodeURIComponent(portal.cookie!.replace(/^portal_session=/, ''));
  const csrfToken = portal.csrfToken!;
  expect((await portal.change('post', '/integrators', { integratorId: `logs-${wallet.address.slice(2, 10).toLowerCase()}` })).status).toBe(201);
  const integratorId = `logs-${wallet.address.slice(2, 10).toLowerCase()}`;
  const created = await portal.change('post', `/integrators/${integratorId}/keys`, { name: 'backend' });
  expect(created.status).toBe(201);
  const first: string = created.body.key;
  const rotated = await portal.change('post', `/integrators/${integratorId}/keys/${created.body.view.id}/rotate`, { graceHours: 1 });
  expect(rotated.status).toBe(201);
  const second: string = rotated.body.key;
  const guessed = `svc_${'g'.repeat(43)}`;

  // the keys wherever a client puts them
  for (const key of [first, second, guessed]) {
    await request(t.app).get('/v1/keys/test').set('x-svc-api-key', key);
    await request(t.app).get('/v1/chains').set('x-lifi-api-key', key);
    await request(t.app).get('/v1/tools').set('authorization', `Bearer ${key}`);
    for (const name of ['apiKey', 'api_key', 'key', 'x-lifi-api-key', 'x-svc-api-key', 'token']) {
      await request(t.app).get(`/v1/chains?${name}=${encodeURIComponent(key)}&chainTypes=EVM`);
    }
    // and where they do not belong: an unknown path, a malformed request
    await request(t.app).get(`/v1/nothing-here?apiKey=${key}`).set('x-svc-api-key', key);
    await request(t.app).post('/v1/advanced/routes').set('x-svc-api-key', key).set('content-type', 'application/json').send('{"fromChainId": 1,');
  }
  expect((await request(t.app).get('/v1/keys/test').set('x-svc-api-key', second)).status).toBe(200);
  expect((await portal.change('post', `/integrators/${integratorId}/keys/${created.body.view.id}/revoke`)).status).toBe(200);
  // a change refused for its CSRF token, and sign-out
  expect((await portal.change('post', '/integrators', { integratorId: 'x' }, { csrf: `${csrfToken}x` })).status).toBe(403);
  expect((await portal.change('post', '/logout')).status).toBe(200);

  const secrets = { sessionId, csrfToken, signature: signed.signature, first, second, guessed };
  // the run logged its requests (the scan reads real lines), and none holds a secret
  expect(lines.filter((line) => line.includes('"request completed"')).length).toBeGreaterThanOrEqual(40);
  expect(lines.some((line) => line.includes('[redacted]'))).toBe(true);
  for (const [name, secret] of Object.entries(secrets)) {
    expect(secret.length).toBeGreaterThanOrEqual(32);
    const leaking = lines.filter((line) => line.includes(secret) || line.includes(encodeURIComponent(secret)));
    expect({ name, leaking }).toEqual({ name, leaking: [] });
  }
});
