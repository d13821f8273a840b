/**
 * The transfer events (0006_transfer_events) on PGlite: saveTransfer appends one for each new state of a transfer
 * (not for a state saved again), with a delivery to its integrator's webhook; the feed hands each event to the
 * subscribers that follow its transfer or wallet, replays what a reconnecting subscriber missed, and finds an event
 * whose transaction committed after a later one (a gap in the sequence numbers).
 */
import { sql } from 'kysely';
import type { TransferEvent } from '../../../src/core/status/events';
import type { TransferStatus } from '../../../src/core/status/transferStatus';
import { openDatabase, type Database } from '../../../src/persistence/database';
import { registerIntegrator } from '../../../src/persistence/integrators';
import { eventsAfter, TransferEventFeed } from '../../../src/persistence/transferEvents';
import { saveTransfer } from '../../../src/persistence/transfers';

const ALICE = '0x552008c0F6870C2f77e5cC1d2Eb9bdff03E30Ea9';
const BOB = '0xD6345B798ADA3A1a36E85424003D1ff14e3883b7';
const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

let database: Database;
beforeAll(async () => {
  database = await openDatabase({ dir: 'memory://' });
}, 120_000); // an in-memory PGlite opens in seconds, in tens of them on a loaded machine
afterAll(async () => {
  await database.close();
});
beforeEach(async () => {
  await sql`truncate webhook_deliveries, webhooks, transfer_events, transfers restart identity cascade`.execute(database.db);
});

function status(n: number, fields: Partial<TransferStatus> = {}): TransferStatus {
  return { status: 'PENDING', substatus: 'WAIT_DESTINATION_TRANSACTION', transactionId: hash(1000 + n), fromAddress: ALICE, toAddress: ALICE, sending: { chainId: 42161, txHash: hash(n), timestamp: 1_790_000_000 }, ...fields };
}
const save = (n: number, fields: Partial<TransferStatus> = {}) =>
  saveTransfer(database.db, { chainId: 42161, txHash: hash(n), blockNumber: n, blockHash: hash(5000 + n), status: status(n, fields) }, new Date());

test('one event per new state of a transfer, none for a state saved again', async () => {
  await save(1);
  await save(1); // read again, same state
  await save(1, { status: 'DONE', substatus: 'COMPLETED' });
  await save(1, { status: 'DONE', substatus: 'COMPLETED' });
  const events = await eventsAfter(database.db, 0n, [], 10);
  expect(events.map((e) => [e.txHash, e.transferId, e.status.status, e.status.substatus])).toEqual([
    [hash(1), hash(1001), 'PENDING', 'WAIT_DESTINATION_TRANSACTION'],
    [hash(1), hash(1001), 'DONE', 'COMPLETED'],
  ]);
});

test('an event of an integrator with a webhook gets a pending delivery to it (its id compared without regard to case)', async () => {
  const wallet = '0x1111111111111111111111111111111111111111';
  await registerIntegrator(database.db, { integratorId: 'Dapp', feeWallet: wallet });
  await database.db.insertInto('webhooks').values({ id: 'wh_1', integrator_id: 'Dapp', url: 'https://hooks.example/x', secret: 's', created_at: new Date(), updated_at: new Date() }).execute();
  await save(1, { integrator: 'dapp' });
  await save(2, { integrator: 'other' });
  await save(3);
  const deliveries = await database.db.selectFrom('webhook_deliveries').select(['webhook_id', 'tx_hash', 'state', 'attempts']).execute();
  expect(deliveries).toEqual([{ webhook_id: 'wh_1', tx_hash: hash(1), state: 'pending', attempts: 0 }]);
});

describe('the feed', () => {
  const received = () => {
    const events: TransferEvent[] = [];
    return { events, onEvent: (event: TransferEvent) => events.push(event) };
  };
  const until = async (condition: () => boolean) => {
    const end = Date.now() + 3000;
    while (!condition()) {
      if (Date.now() > end) throw new Error('not in time');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  test('hands each new event to the subscribers that follow its transfer or wallet, from the subscription on', async () => {
    await save(1); // before anyone subscribed: not handed out
    const feed = new TransferEventFeed(async () => database.db, { pollIntervalMs: 20 });
    const byRef = received();
    const byWallet = received();
    const endRef = await feed.subscribe({ ref: hash(1002) }, byRef.onEvent); // by transfer id
    const endWallet = await feed.subscribe({ wallet: BOB.toUpperCase().replace('0X', '0x') }, byWallet.onEvent);
    await save(2);
    await save(3, { fromAddress: BOB });
    await save(2, { status: 'DONE', substatus: 'COMPLETED' });
    await until(() => byRef.events.length === 2 && byWallet.events.length === 1);
    expect(byRef.events.map((e) => e.status.status)).toEqual(['PENDING', 'DONE']);
    expect(byWallet.events.map((e) => e.txHash)).toEqual([hash(3)]);
    endRef();
    endWallet();
    expect(feed.subscriberCount).toBe(0);
    await feed.close();
  });

  test('a subscriber that gives the last event it had gets those after it first, then the live ones, each once', async () => {
    await save(1);
    await save(1, { status: 'DONE', substatus: 'COMPLETED' });
    await save(2);
    const [first] = await eventsAfter(database.db, 0n, [], 1);
    const feed = new TransferEventFeed(async () => database.db, { pollIntervalMs: 20 });
    const resumed = received();
    const end = await feed.subscribe({ wallet: ALICE }, resumed.onEvent, first!.id);
    await save(3);
    await until(() => resumed.events.length === 3);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(resumed.events.map((e) => [e.txHash, e.status.status])).toEqual([[hash(1), 'DONE'], [hash(2), 'PENDING'], [hash(3), 'PENDING']]);
    end();
    await feed.close();
  });

  test('an event whose transaction commits after a later one is still handed out (a gap is looked for again)', async () => {
    const feed = new TransferEventFeed(async () => database.db, { pollIntervalMs: 20 });
    const all = received();
    const end = await feed.subscribe({ wallet: ALICE }, all.onEvent);
    // sequence number 2 becomes visible first, 1 after it (two PostgreSQL connections may commit in that order)
    const insert = (seq: number, n: number) =>
      sql`insert into transfer_events (seq, chain_id, tx_hash, from_address, status, record, created_at) overriding system value
          values (${seq}, 42161, ${hash(n)}, ${ALICE.toLowerCase()}, 'PENDING', ${JSON.stringify(status(n))}, now())`.execute(database.db);
    await insert(2, 8);
    await until(() => all.events.length === 1);
    await insert(1, 7);
    await until(() => all.events.length === 2);
    expect(all.events.map((e) => [e.id, e.txHash])).toEqual([['2', hash(8)], ['1', hash(7)]]);
    end();
    await feed.close();
  });
});
