/**
 * A request with an API key while the key store (the database) does not answer: 503 with Retry-After, code 1006, in
 * the contract's shape (the key can be neither accepted nor refused as unknown), counted as the client's request;
 * requests without a key are answered as usual; an unknown key, with the database answering, is still a 401.
 */
import request from 'supertest';
import pino from 'pino';
import { openDatabase, type Database } from '../../src/persistence/database';
import { createKey } from '../../src/persistence/keys';
import { makeTestApp, type TestApp } from '../support/app';
import { contractValidator, type ContractValidator } from '../support/contract';

let contract: ContractValidator;
const opened: { app: TestApp; database?: Database }[] = [];

beforeAll(async () => {
  contract = await contractValidator();
});

afterAll(async () => {
  for (const { app, database } of opened) {
    await app.dependencies.access.close();
    await database?.close();
  }
});

test('a key presented while the database is down: 503 with Retry-After, in the contract\'s shape; without a key: answered', async () => {
  const opening = openDatabase({ dir: 'memory://' });
  const app = await makeTestApp({ access: { database: opening } });
  const database = await opening;
  opened.push({ app });
  await app.dependencies.access.records!.ready;
  const { key } = await createKey(database.db, { name: 'outage test' }, { actor: 'test' });
  const { key: other } = await createKey(database.db, { name: 'looked up during the outage' }, { actor: 'test' });

  const before = await request(app.app).get('/v1/chains').set('x-svc-api-key', key);
  expect(before.status).toBe(200);

  await database.close(); // the database stops answering
  const refused = await request(app.app).get('/v1/chains').set('x-svc-api-key', other);
  expect(refused.status).toBe(503);
  expect(refused.headers['retry-after']).toBe('5');
  expect(refused.body).toMatchObject({ code: 1006, message: expect.stringMatching(/API key could not be checked.*key store/) });
  contract.expectResponse('getChains', refused);
  // counted as the client's request: its limits' headers are there
  expect(refused.headers['ratelimit-limit']).toBeDefined();
  // the same through the ecosystem's header, and on a key-only operation
  const lifi = await request(app.app).get('/v1/keys/test').set('x-lifi-api-key', other);
  expect(lifi.status).toBe(503);
  contract.expectResponse('testApiKey', lifi);

  const anonymous = await request(app.app).get('/v1/chains');
  expect(anonymous.status).toBe(200);
});

test('a database that did not open: a presented key gets 503, not 500', async () => {
  const failing = Promise.reject(new Error('connection refused'));
  const app = await makeTestApp({ access: { database: failing }, logger: pino({ level: 'silent' }) });
  opened.push({ app });
  const res = await request(app.app).get('/v1/tokens?chains=arb').set('x-svc-api-key', 'svc_live_0000000000000000000000000000000000000000');
  expect(res.status).toBe(503);
  expect(res.headers['retry-after']).toBe('5');
  contract.expectResponse('getTokens', res);
  expect((await request(app.app).get('/v1/tokens?chains=arb')).status).toBe(200);
});

test('a key store that answers: an unknown key is still a 401, not a 503', async () => {
  const opening = openDatabase({ dir: 'memory://' });
  const app = await makeTestApp({ access: { database: opening } });
  opened.push({ app, database: await opening });
  await app.dependencies.access.records!.ready;
  const res = await request(app.app).get('/v1/chains').set('x-svc-api-key', 'svc_live_1111111111111111111111111111111111111111');
  expect(res.status).toBe(401);
  contract.expectResponse('getChains', res);
});

test('after a start, requests wait for the records read before answering (blocks, and what the service adds: its integrators)', async () => {
  const opening = openDatabase({ dir: 'memory://' });
  let read!: () => void;
  const directory = new Promise<void>((resolve) => (read = resolve));
  const app = await makeTestApp({ access: { database: opening, readBeforeAnswering: directory } });
  opened.push({ app, database: await opening });
  await app.dependencies.access.records!.ready;
  let answered: number | undefined;
  const pending = request(app.app).get('/v1/chains').then((res) => (answered = res.status));
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(answered).toBeUndefined();
  read();
  await pending;
  expect(answered).toBe(200);
});
