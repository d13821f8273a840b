/**
 * The partner portal when its database stops after the portal opened it (issue 33), on both engines: a PostgreSQL
 * server stopped, and the embedded PGlite database closed under it. Every portal route answers 503 with
 * Retry-After and the portal's JSON error, as /v1 does, never 500; so does /v1 for a request with a key.
 */
import pino from 'pino';
import request from 'supertest';
import { Wallet } from 'ethers';
import { openDatabase, type Database } from '../../src/persistence/database';
import { portalRouter } from '../../src/portal/router';
import { makeTestApp, type TestApp } from '../support/app';
import { contractValidator } from '../support/contract';
import { PORTAL_HOST, PORTAL_ORIGIN, PortalClient, UsageRecorder, databaseAccess } from '../support/portal';
import { startPostgresServer, type PostgresServer } from '../support/postgres';

jest.setTimeout(90_000);

const silent = pino({ level: 'silent' });

interface Outage {
  readonly name: string;
  open(): Promise<Database>;
  /** The database stops answering. */
  stop(database: Database): Promise<void>;
  cleanUp(): Promise<void>;
}

let postgres: PostgresServer | undefined;
const engines: Outage[] = [
  {
    name: 'PostgreSQL (the server stopped)',
    async open() {
      postgres = await startPostgresServer();
      return openDatabase({ url: await postgres.createDatabase() });
    },
    stop: async () => postgres!.stop(),
    cleanUp: async () => postgres?.stop(),
  },
  {
    name: 'PGlite (the embedded database closed)',
    open: () => openDatabase({ dir: 'memory://' }),
    stop: (database) => database.close(),
    cleanUp: async () => undefined,
  },
];

describe.each(engines)('$name', (engine) => {
  let database: Database;
  let t: TestApp;
  beforeAll(async () => {
    database = await engine.open();
    const recorder = new UsageRecorder(database);
    t = await makeTestApp({
      dependencies: { access: databaseAccess(database, recorder) },
      portal: (dependencies) => portalRouter({ origins: () => [PORTAL_ORIGIN], database: async () => database, dependencies, logger: silent, databaseWaitMs: 2000 }),
    });
  });
  afterAll(async () => {
    await t?.dependencies.access.close();
    await database?.close().catch(() => undefined);
    await engine.cleanUp();
  });

  test('every portal route, and /v1 with a key, answer 503 with Retry-After', async () => {
    const contract = await contractValidator();
    const client = new PortalClient(t.app, new Wallet(`0x${'d4'.repeat(32)}`));
    await client.signIn();
    expect((await client.change('post', '/integrators', { integratorId: 'down-dapp' })).status).toBe(201);
    const created = await client.change('post', '/integrators/down-dapp/keys', { name: 'before' });
    expect(created.status).toBe(201);
    const keyId = (created.body as { view: { id: string } }).view.id;
    const key = (created.body as { key: string }).key;
    expect((await client.get('/me')).status).toBe(200);
    // a second browser signs a message now and presents it during the outage
    const late = new PortalClient(t.app, new Wallet(`0x${'d5'.repeat(32)}`));
    const signed = await late.signedMessage();

    await engine.stop(database);

    const keyPath = `/integrators/down-dapp/keys/${keyId}`;
    const answers: [string, request.Response][] = [
      ['GET /nonce', await request(t.app).get('/portal/api/nonce').set('host', PORTAL_HOST)],
      ['POST /session', await late.present(signed)],
      ['GET /me', await client.get('/me')],
      ['GET /integrators', await client.get('/integrators')],
      ['POST /integrators', await client.change('post', '/integrators', { integratorId: 'other-dapp' })],
      ['GET /integrators/:id', await client.get('/integrators/down-dapp')],
      ['POST keys', await client.change('post', '/integrators/down-dapp/keys', { name: 'during' })],
      ['PATCH key', await client.change('patch', keyPath, { name: 'renamed' })],
      ['PUT allowlist', await client.change('put', `${keyPath}/allowlist`, { ipAllowlist: ['203.0.113.0/24'] })],
      ['POST rotate', await client.change('post', `${keyPath}/rotate`, {})],
      ['POST revoke', await client.change('post', `${keyPath}/revoke`)],
      ['GET usage', await client.get(`${keyPath}/usage?range=1h`)],
      ['GET fees', await client.get('/integrators/down-dapp/fees')],
      ['GET withdrawal', await client.get('/integrators/down-dapp/fees/42161/withdrawal')],
      ['POST /logout', await client.change('post', '/logout')],
    ];
    for (const [call, res] of answers) {
      expect({ call, status: res.status, retryAfter: res.headers['retry-after'], body: res.body })
        .toEqual({ call, status: 503, retryAfter: '5', body: { message: "The portal's database is not available right now: try again in a moment", code: 1006 } });
    }

    // the API: a key cannot be checked, so 503 too (a key looked up again: the store does not keep it)
    const api = await request(t.app).get('/v1/keys/test').set('x-svc-api-key', key);
    expect(api.status).toBe(503);
    expect(api.headers['retry-after']).toBe('5');
    contract.expectResponse('testApiKey', api);
  });
});
