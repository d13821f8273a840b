/**
 * The webhook worker on a real database (PGlite) and real receivers (node HTTP servers on loopback): a receiver gets
 * every state change of its integrator's transfers in order, signed so that the documented check passes, and a
 * forged or replayed copy fails it; a failing receiver gets retries on the schedule (the clock moved by the test),
 * and a later state waits for the earlier one; a URL on loopback is refused at delivery when private addresses are
 * not allowed (the receiver sees nothing); two instances send each delivery once.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import pino from 'pino';
import type { TransferStatus } from '../../../src/core/status/transferStatus';
import { openDatabase, type Database } from '../../../src/persistence/database';
import { registerIntegrator } from '../../../src/persistence/integrators';
import { saveTransfer } from '../../../src/persistence/transfers';
import { createWebhook } from '../../../src/persistence/webhooks';
import { verifyWebhook, WEBHOOK_ID_HEADER, WEBHOOK_SIGNATURE_HEADER } from '../../../src/webhooks/signature';
import { WebhookWorker } from '../../../src/webhooks/worker';

const ALICE = '0x552008c0F6870C2f77e5cC1d2Eb9bdff03E30Ea9';
const SECRET = 'whsec_test-secret-of-dapp';
const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

interface Delivery {
  readonly body: string;
  readonly headers: http.IncomingHttpHeaders;
}

/** A receiver on loopback: records each request, answers what `answer` says (default 200). */
async function receiver(answer: (n: number) => number = () => 200): Promise<{ url: string; got: Delivery[]; close: () => Promise<void> }> {
  const got: Delivery[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      got.push({ body, headers: req.headers });
      res.statusCode = answer(got.length);
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, got, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

let database: Database;
let now = Date.parse('2026-11-29T10:00:00Z');
const clock = () => now;
beforeAll(async () => {
  database = await openDatabase({ dir: 'memory://' });
  await registerIntegrator(database.db, { integratorId: 'dapp', feeWallet: '0x1111111111111111111111111111111111111111' });
}, 120_000); // an in-memory PGlite opens in seconds, in tens of them on a loaded machine
afterAll(async () => {
  await database.close();
});
beforeEach(async () => {
  await sql`truncate webhook_deliveries, webhooks, transfer_events, transfers restart identity cascade`.execute(database.db);
});

const save = (n: number, fields: Partial<TransferStatus> = {}) =>
  saveTransfer(
    database.db,
    { chainId: 42161, txHash: hash(n), blockNumber: n, blockHash: hash(5000 + n), status: { status: 'PENDING', substatus: 'WAIT_DESTINATION_TRANSACTION', transactionId: hash(1000 + n), fromAddress: ALICE, toAddress: ALICE, integrator: 'dapp', sending: { chainId: 42161, txHash: hash(n) }, ...fields } },
    new Date(now),
  );

const worker = (options: { allowPrivate?: boolean; holder?: string } = {}) =>
  new WebhookWorker({
    db: async () => database.db,
    toWire: (status) => ({ status: status.status, substatus: status.substatus, sending: { txHash: status.sending?.txHash } }),
    holder: options.holder ?? 'test',
    allowPrivate: options.allowPrivate ?? true,
    logger: pino({ level: 'silent' }),
    clock,
    timeoutMs: 2000,
  });

test('a receiver gets each state change of its integrator\'s transfers, in order, signed; a forged or replayed copy fails the check', async () => {
  const hooks = await receiver();
  try {
    await createWebhook(database.db, 'dapp', hooks.url, SECRET, new Date(now));
    await save(1);
    await save(2, { integrator: 'someone-else' });
    await save(1, { status: 'DONE', substatus: 'COMPLETED' });
    const sender = worker();
    expect(await sender.runOnce()).toBe(1); // the DONE waits for the PENDING of the same transfer
    expect(await sender.runOnce()).toBe(1);
    expect(await sender.runOnce()).toBe(0);
    const bodies = hooks.got.map((d) => JSON.parse(d.body) as { id: string; type: string; sequence: string; data: { status: string; sending: { txHash: string } } });
    expect(bodies.map((b) => [b.type, b.data.sending.txHash, b.data.status])).toEqual([['transfer.status', hash(1), 'PENDING'], ['transfer.status', hash(1), 'DONE']]);
    expect(Number(bodies[0]!.sequence)).toBeLessThan(Number(bodies[1]!.sequence));

    // the receiver's check (src/webhooks/signature.ts): passes for what was sent, at the time it was sent
    const [first] = hooks.got;
    const header = first!.headers[WEBHOOK_SIGNATURE_HEADER] as string;
    expect(first!.headers[WEBHOOK_ID_HEADER]).toBe(bodies[0]!.id);
    expect(verifyWebhook(SECRET, header, first!.body, { nowSec: now / 1000 })).toEqual({ ok: true, timestampSec: now / 1000 });
    // forged: another secret, another body, a signature of one's own
    expect(verifyWebhook('whsec_guess', header, first!.body, { nowSec: now / 1000 }).ok).toBe(false);
    expect(verifyWebhook(SECRET, header, first!.body.replace('PENDING', 'DONE'), { nowSec: now / 1000 }).ok).toBe(false);
    expect(verifyWebhook(SECRET, `t=${now / 1000},v1=${'0'.repeat(64)}`, first!.body, { nowSec: now / 1000 }).ok).toBe(false);
    // replayed six minutes later
    expect(verifyWebhook(SECRET, header, first!.body, { nowSec: now / 1000 + 360 })).toMatchObject({ ok: false });
  } finally {
    await hooks.close();
  }
});

test('a failing receiver gets retries on the schedule, the later state after the earlier one, and each delivery keeps its id', async () => {
  const hooks = await receiver((n) => (n <= 2 ? 500 : 200));
  try {
    await createWebhook(database.db, 'dapp', hooks.url, SECRET, new Date(now));
    await save(3);
    await save(3, { status: 'DONE', substatus: 'COMPLETED' });
    const sender = worker();
    expect(await sender.runOnce()).toBe(1); // 500
    expect(await sender.runOnce()).toBe(0); // not due for 10 s
    now += 10_500;
    expect(await sender.runOnce()).toBe(1); // 500 again
    now += 20_000;
    expect(await sender.runOnce()).toBe(0); // the second retry waits 30 s
    now += 11_000;
    expect(await sender.runOnce()).toBe(1); // delivered
    expect(await sender.runOnce()).toBe(1); // then the DONE
    const statuses = hooks.got.map((d) => (JSON.parse(d.body) as { data: { status: string } }).data.status);
    expect(statuses).toEqual(['PENDING', 'PENDING', 'PENDING', 'DONE']);
    expect(new Set(hooks.got.slice(0, 3).map((d) => d.headers[WEBHOOK_ID_HEADER])).size).toBe(1);
    const rows = await database.db.selectFrom('webhook_deliveries').select(['state', 'attempts', 'last_status']).orderBy('id').execute();
    expect(rows).toEqual([{ state: 'delivered', attempts: 3, last_status: 200 }, { state: 'delivered', attempts: 1, last_status: 200 }]);
  } finally {
    await hooks.close();
  }
});

test('a URL on loopback reaches nothing unless private addresses are allowed: the delivery fails and is retried later', async () => {
  const hooks = await receiver();
  try {
    await createWebhook(database.db, 'dapp', hooks.url.replace('http:', 'https:'), SECRET, new Date(now));
    await save(4);
    expect(await worker({ allowPrivate: false }).runOnce()).toBe(1);
    expect(hooks.got).toEqual([]);
    const [row] = await database.db.selectFrom('webhook_deliveries').select(['state', 'attempts', 'last_error']).execute();
    expect(row).toMatchObject({ state: 'pending', attempts: 1 });
    expect(row!.last_error).toMatch(/loopback/);
  } finally {
    await hooks.close();
  }
});

test('two instances on one database send each delivery once', async () => {
  const hooks = await receiver();
  try {
    await createWebhook(database.db, 'dapp', hooks.url, SECRET, new Date(now));
    for (let n = 10; n < 30; n += 1) await save(n);
    const [a, b] = [worker({ holder: 'a' }), worker({ holder: 'b' })];
    const [sentA, sentB] = await Promise.all([a.runOnce(), b.runOnce()]);
    expect(sentA + sentB).toBe(20);
    const hashes = hooks.got.map((d) => (JSON.parse(d.body) as { data: { sending: { txHash: string } } }).data.sending.txHash);
    expect(new Set(hashes).size).toBe(20);
    expect(hashes).toHaveLength(20);
  } finally {
    await hooks.close();
  }
});
