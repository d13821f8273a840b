/**
 * The partner portal on a PostgreSQL server that stops after the portal opened it (issue 33): every call that needs
 * the database answers 503 with Retry-After and the portal's JSON error, as /v1 does, never 500.
 */
import pino from 'pino';
import request from 'supertest';
import { Wallet } from 'ethers';
import { openDatabase, type Database } from '../../src/persistence/database';
import { portalRouter } from '../../src/portal/router';
import type { Dependencies } from '../../src/server/dependencies';
import { useTestApp } from '../support/app';
import { PORTAL_HOST, PORTAL_ORIGIN, PortalClient, UsageRecorder, databaseAccess } from '../support/portal';
import { startPostgresServer, type PostgresServer } from '../support/postgres';

jest.setTimeout(60_000);

const silent = pino({ level: 'silent' });
let postgres: PostgresServer;
let database: Database;
const recorder = { current: undefined as UsageRecorder | undefined };

beforeAll(async () => {
  postgres = await startPostgresServer();
  database = await openDatabase({ url: await postgres.createDatabase() });
  recorder.current = new UsageRecorder(database);
});
afterAll(async () => {
  await database?.close().catch(() => undefined);
  await postgres?.stop();
});

const t = useTestApp(() => ({
  dependencies: { access: databaseAccess(database, recorder.current!) },
  portal: (dependencies: Dependencies) => portalRouter({ origins: () => [PORTAL_ORIGIN], database: async () => database, dependencies, logger: silent, databaseWaitMs: 2000 }),
}));

test('PostgreSQL stopped after the portal opened it: nonce, me, keys, registration and revocation answer 503 with Retry-After', async () => {
  const client = new PortalClient(t.app, new Wallet(`0x${'d4'.repeat(32)}`));
  await client.signIn();
  expect((await client.change('post', '/integrators', { integratorId: 'down-dapp' })).status).toBe(201);
  const created = await client.change('post', '/integrators/down-dapp/keys', { name: 'before' });
  expect(created.status).toBe(201);
  const keyId = (created.body as { view: { id: string } }).view.id;
  expect((await client.get('/me')).status).toBe(200);

  await postgres.stop();

  const answers: [string, request.Response][] = [
    ['GET /nonce', await request(t.app).get('/portal/api/nonce').set('host', PORTAL_HOST)],
    ['GET /me', await client.get('/me')],
    ['GET the integrator and its keys', await client.get('/integrators/down-dapp')],
    ['POST /integrators', await client.change('post', '/integrators', { integratorId: 'other-dapp' })],
    ['POST revoke', await client.change('post', `/integrators/down-dapp/keys/${keyId}/revoke`)],
  ];
  for (const [call, res] of answers) {
    expect({ call, status: res.status, retryAfter: res.headers['retry-after'], body: res.body })
      .toEqual({ call, status: 503, retryAfter: '5', body: { message: "The portal's database is not available right now: try again in a moment", code: 1006 } });
  }
});
