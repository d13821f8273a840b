/**
 * GET /v1/status/stream (issue 34, status pushed): the real app listening on a loopback port, the transfer index and
 * its events on a real database (PGlite), followed with the eventsource package (the WHATWG EventSource, as browsers
 * have it). The chains are a stand-in here whose state a test sets (the e2e tests follow real transfers): what is
 * tested is the stream — its first state, each change the indexer saves, its end, reconnections, a wallet's stream,
 * and the bounds a hostile client meets (bad input, too many streams, streams that are left). Every event's data is
 * validated against the contract's StatusResponse, and every answer's status and headers against the operation.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventSource } from 'eventsource';
import request from 'supertest';
import type { Token } from '../../src/core/entities';
import { ConnectionSlots } from '../../src/core/status/events';
import type { TransferTracker } from '../../src/core/status/tracker';
import type { TransferStatus } from '../../src/core/status/transferStatus';
import { openDatabase, type Database } from '../../src/persistence/database';
import { TransferEventFeed } from '../../src/persistence/transferEvents';
import { databaseHistory, saveTransfer } from '../../src/persistence/transfers';
import { makeTestApp, useContract, type TestApp } from '../support/app';

const ALICE = '0x552008c0F6870C2f77e5cC1d2Eb9bdff03E30Ea9';
const BOB = '0xD6345B798ADA3A1a36E85424003D1ff14e3883b7';
const USDC: Token = { chainId: 42161, address: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831', symbol: 'USDC', decimals: 6, name: 'USD Coin', coinKey: 'USDC', priceUSD: '1', tags: [] };
const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

function status(n: number, fields: Partial<TransferStatus> = {}): TransferStatus {
  return {
    status: 'PENDING', substatus: 'WAIT_DESTINATION_TRANSACTION', transactionId: hash(1000 + n), tool: 'across', fromAddress: ALICE, toAddress: ALICE,
    sending: { chainId: 42161, txHash: hash(n), block: 100 + n, amount: 1_000_000n, token: USDC, timestamp: 1_790_000_000 + n },
    receiving: { chainId: 8453 },
    ...fields,
  };
}

/** What the chains say of each transfer (the stand-in tracker): NOT_FOUND unless a test says otherwise. */
const onChain = new Map<string, TransferStatus>();
const tracker = { status: async ({ ref }: { ref: string }) => onChain.get(ref.toLowerCase()) ?? { status: 'NOT_FOUND' } } as unknown as TransferTracker;

let database: Database;
let feed: TransferEventFeed;
let t: TestApp;
let server: http.Server;
let base: string;
const contract = useContract();

beforeAll(async () => {
  database = await openDatabase({ dir: 'memory://' });
  feed = new TransferEventFeed(async () => database.db, { pollIntervalMs: 50 });
  t = await makeTestApp({
    dependencies: {
      history: databaseHistory(async () => database.db),
      events: feed,
      transfers: tracker,
      streams: { slots: new ConnectionSlots(3, 100), rereadMs: 300, heartbeatMs: 200 },
    },
  });
  server = t.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 120_000); // an in-memory PGlite opens in seconds, in tens of them on a loaded machine
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await feed?.close();
  await t?.dependencies.access.close();
  await database?.close();
});

const save = (n: number, fields: Partial<TransferStatus> = {}) =>
  saveTransfer(database.db, { chainId: 42161, txHash: hash(n), blockNumber: 100 + n, blockHash: hash(9000 + n), status: status(n, fields) }, new Date());

interface Received {
  readonly type: string;
  readonly id: string;
  readonly data: Record<string, unknown>;
}

/** Follows a stream with EventSource; collects its events until `until` says so (or `ms` pass: then it fails). */
function follow(query: string, until: (events: Received[]) => boolean, options: { lastEventId?: string; ms?: number } = {}): Promise<{ events: Received[]; source: EventSource }> {
  return new Promise((resolve, reject) => {
    const events: Received[] = [];
    const source = new EventSource(`${base}/v1/status/stream?${query}`, {
      fetch: (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), ...(options.lastEventId ? { 'last-event-id': options.lastEventId } : {}) } }),
    });
    const timer = setTimeout(() => {
      source.close();
      reject(new Error(`stream ${query}: ${JSON.stringify(events.map((e) => `${e.type} ${e.id}`))} after ${options.ms ?? 5000} ms`));
    }, options.ms ?? 5000);
    const take = (type: string) => (message: MessageEvent) => {
      events.push({ type, id: message.lastEventId, data: JSON.parse(message.data) as Record<string, unknown> });
      if (until(events)) {
        clearTimeout(timer);
        resolve({ events, source });
      }
    };
    source.addEventListener('status', take('status'));
    source.addEventListener('end', take('end'));
  });
}

/** The answer's head and body text of a stream request that ends (or is cut after `ms`). */
function raw(path: string, headers: Record<string, string> = {}, ms = 2000): Promise<{ status: number; headers: Record<string, string>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}${path}`, { headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      const done = () => resolve({ status: res.statusCode ?? 0, headers: res.headers as Record<string, string>, text });
      res.on('end', done);
      setTimeout(() => {
        req.destroy();
        done();
      }, ms);
    });
    req.on('error', reject);
  });
}

const statusesOf = (events: Received[]) => events.map((e) => (e.type === 'end' ? 'end' : `${e.data.status}:${e.data.substatus ?? ''}`));

describe('a transfer\'s stream', () => {
  test('starts with the current state, sends each state the indexer saves, and ends after the final one', async () => {
    await save(1);
    onChain.set(hash(1), status(1));
    const following = follow(`txHash=${hash(1)}`, (events) => events.at(-1)?.type === 'end');
    await new Promise((resolve) => setTimeout(resolve, 300));
    await save(1, { status: 'DONE', substatus: 'COMPLETED', receiving: { chainId: 8453, txHash: hash(501), amount: 990_000n, token: { ...USDC, chainId: 8453 } } });
    const { events, source } = await following;
    source.close();
    expect(statusesOf(events)).toEqual(['PENDING:WAIT_DESTINATION_TRANSACTION', 'DONE:COMPLETED', 'end']);
    expect(events.map((e) => e.id)).toEqual(['PENDING:WAIT_DESTINATION_TRANSACTION', 'DONE:COMPLETED', 'DONE:COMPLETED']);
    expect(events[1]!.data).toMatchObject({ transactionId: hash(1001), receiving: { txHash: hash(501), amount: '990000' } });
    // each state links to the transfer's explorer page (PUBLIC_URL, by default the listen port's localhost)
    expect(events[1]!.data.lifiExplorerLink).toBe(`http://localhost:${t.config.port}/explorer/tx/${hash(1)}`);
    expect(events[0]!.data.explorerLink).toBe(events[1]!.data.lifiExplorerLink);
    contract.expectEventStream('getStatusStream', { status: 200, headers: { 'content-type': 'text/event-stream', 'access-control-allow-origin': '*', 'ratelimit-limit': '1', 'ratelimit-remaining': '1', 'ratelimit-reset': '1' } }, events.filter((e) => e.type === 'status').map((e) => e.data), 'StatusResponse');
  });

  test('follows a transfer the index does not know by reading it again (a chain without an indexer)', async () => {
    onChain.set(hash(2), status(2, { status: 'PENDING', substatus: 'WAIT_SOURCE_CONFIRMATIONS' }));
    const following = follow(`transactionId=${hash(2)}`, (events) => events.at(-1)?.type === 'end');
    await new Promise((resolve) => setTimeout(resolve, 100));
    onChain.set(hash(2), status(2, { status: 'FAILED', substatus: 'UNKNOWN_FAILED_ERROR' }));
    const { events, source } = await following;
    source.close();
    expect(statusesOf(events)).toEqual(['PENDING:WAIT_SOURCE_CONFIRMATIONS', 'FAILED:UNKNOWN_FAILED_ERROR', 'end']);
  });

  test('a transfer not found yet is streamed as NOT_FOUND until it appears', async () => {
    const following = follow(`txHash=${hash(3)}`, (events) => events.length >= 2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await save(3);
    const { events, source } = await following;
    source.close();
    expect(statusesOf(events)).toEqual(['NOT_FOUND:', 'PENDING:WAIT_DESTINATION_TRANSACTION']);
  });

  test('the answer is an event stream as the contract declares it; a reconnection that has the final state gets 204', async () => {
    await save(4, { status: 'DONE', substatus: 'COMPLETED' });
    const first = await raw(`/v1/status/stream?txHash=${hash(4)}`);
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(first.headers['cache-control']).toBe('no-cache, no-transform');
    expect(first.text).toMatch(/^retry: 3000\n\nid: DONE:COMPLETED\nevent: status\ndata: \{.*\}\n\nevent: end\ndata: \{\}\n\n$/s);
    contract.expectEventStream('getStatusStream', { status: first.status, headers: first.headers }, [JSON.parse(/data: (\{.*\})\n/.exec(first.text)![1]!)], 'StatusResponse');
    const again = await raw(`/v1/status/stream?txHash=${hash(4)}`, { 'last-event-id': 'DONE:COMPLETED' });
    expect(again.status).toBe(204);
    expect(again.text).toBe('');
    const headers = await request(t.app).get('/v1/status/stream').query({ txHash: hash(4) }).set('last-event-id', 'DONE:COMPLETED');
    expect(headers.status).toBe(204);
    expect(headers.headers['ratelimit-limit']).toBeDefined();
  });

  test('a quiet stream gets a comment line now and then (proxies keep it open)', async () => {
    await save(5);
    onChain.set(hash(5), status(5));
    const quiet = await raw(`/v1/status/stream?txHash=${hash(5)}`, {}, 700);
    expect(quiet.text).toContain(': keep-alive\n\n');
  });
});

describe('a wallet\'s stream', () => {
  test('sends the changes of the wallet\'s transfers (sent or received), in order, and nobody else\'s', async () => {
    const following = follow(`wallet=${BOB}`, (events) => events.length >= 3);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await save(10, { fromAddress: BOB, toAddress: BOB });
    await save(11); // Alice's
    await save(12, { fromAddress: ALICE, toAddress: BOB });
    await save(10, { fromAddress: BOB, toAddress: BOB, status: 'DONE', substatus: 'COMPLETED' });
    const { events, source } = await following;
    source.close();
    expect(events.map((e) => [(e.data.sending as { txHash: string }).txHash, e.data.status])).toEqual([
      [hash(10), 'PENDING'],
      [hash(12), 'PENDING'],
      [hash(10), 'DONE'],
    ]);
    // ids are the index's sequence numbers, increasing
    const ids = events.map((e) => BigInt(e.id));
    expect([...ids].sort((a, b) => (a < b ? -1 : 1))).toEqual(ids);
    contract.expectEventStream('getStatusStream', { status: 200, headers: { 'content-type': 'text/event-stream', 'access-control-allow-origin': '*', 'ratelimit-limit': '1', 'ratelimit-remaining': '1', 'ratelimit-reset': '1' } }, events.map((e) => e.data), 'StatusResponse');

    // a reconnection after the first event gets what it missed first
    const resumed = await follow(`wallet=${BOB}`, (received) => received.length >= 2, { lastEventId: events[0]!.id });
    resumed.source.close();
    expect(resumed.events.map((e) => e.id)).toEqual([events[1]!.id, events[2]!.id]);
  });
});

describe('from the attacker\'s side', () => {
  test('a stream names one transfer or a wallet: 400 naming the parameter otherwise', async () => {
    const none = await request(t.app).get('/v1/status/stream');
    contract.expectResponse('getStatusStream', none);
    expect(none.status).toBe(400);
    expect(none.body.message).toMatch(/txHash/);
    const both = await request(t.app).get('/v1/status/stream').query({ txHash: hash(1), wallet: ALICE });
    contract.expectResponse('getStatusStream', both);
    expect(both.status).toBe(400);
    expect(both.body.errors.issues[0]).toMatchObject({ in: 'query', name: 'wallet', rule: 'exclusive' });
    const badRef = await request(t.app).get('/v1/status/stream').query({ txHash: '<script>' });
    contract.expectResponse('getStatusStream', badRef);
    expect(badRef.status).toBe(400);
    const badWallet = await request(t.app).get('/v1/status/stream').query({ wallet: 'not-a-wallet' });
    expect(badWallet.status).toBe(400);
    const badId = await request(t.app).get('/v1/status/stream').query({ wallet: ALICE }).set('last-event-id', '1 event: forged');
    contract.expectResponse('getStatusStream', badId);
    expect(badId.status).toBe(400);
  });

  test('a client holds at most its streams (429 with Retry-After beyond); a stream it leaves is given back', async () => {
    const sources = [0, 1, 2].map(() => new EventSource(`${base}/v1/status/stream?wallet=${ALICE}`));
    await Promise.all(sources.map((s) => new Promise((resolve) => (s.onopen = resolve))));
    const refused = await request(t.app).get('/v1/status/stream').query({ wallet: ALICE });
    contract.expectResponse('getStatusStream', refused);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe(1005);
    expect(refused.headers['retry-after']).toBe('5');
    sources[0]!.close();
    // the server sees the connection go and gives the slot and the subscription back
    await waitFor(() => t.dependencies.streams.slots.count === 2);
    const admitted = await raw(`/v1/status/stream?wallet=${ALICE}`, {}, 300);
    expect(admitted.status).toBe(200);
    for (const source of sources) source.close();
    await waitFor(() => t.dependencies.streams.slots.count === 0 && feed.subscriberCount === 0);
  });

  test('without a database, a wallet cannot be followed (501); a transfer still can, from the chains', async () => {
    const bare = await makeTestApp({ dependencies: { transfers: tracker, streams: { slots: new ConnectionSlots(3, 100), rereadMs: 300, heartbeatMs: 200 } } });
    try {
      const wallet = await request(bare.app).get('/v1/status/stream').query({ wallet: ALICE });
      contract.expectResponse('getStatusStream', wallet);
      expect(wallet.status).toBe(501);
      onChain.set(hash(20), status(20, { status: 'DONE', substatus: 'COMPLETED' }));
      const done = await request(bare.app).get('/v1/status/stream').query({ txHash: hash(20) });
      expect(done.status).toBe(200);
      expect(done.text).toContain('event: end');
    } finally {
      await bare.dependencies.access.close();
    }
  });
});

async function waitFor(condition: () => boolean, ms = 3000): Promise<void> {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
