/**
 * The transfer history over HTTP (issue 34): GET /v1/analytics/transfers, /v2/analytics/transfers and
 * /v1/analytics/transfers/summary through the real app, on a real index (PGlite) filled with saved transfers, every
 * answer validated against openapi.yaml. From the attacker's side: a wallet's transfers are public, an integrator's
 * are not (no key: 401; another integrator's key: 403), cursors cannot be forged, page sizes are bounded. And the
 * ecosystem SDK's getTransactionHistory, unpatched, against the listening service.
 */
import type http from 'node:http';
import { createClient, getTransactionHistory } from '@lifi/sdk';
import request from 'supertest';
import type { Token } from '../../src/core/entities';
import { hashApiKey } from '../../src/core/access/keys';
import type { TransferStatus } from '../../src/core/status/transferStatus';
import { openDatabase, type Database } from '../../src/persistence/database';
import { databaseHistory, saveTransfer } from '../../src/persistence/transfers';
import { makeTestApp, useContract, type TestApp } from '../support/app';

const ALICE = '0x552008c0F6870C2f77e5cC1d2Eb9bdff03E30Ea9';
const BOB = '0xD6345B798ADA3A1a36E85424003D1ff14e3883b7';
const KEYS = { dapp: `svc_${'d'.repeat(43)}`, other: `svc_${'o'.repeat(43)}` };
const USDC: Token = { chainId: 42161, address: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831', symbol: 'USDC', decimals: 6, name: 'USD Coin', coinKey: 'USDC', priceUSD: '1', tags: [] };
const T0 = Date.parse('2026-11-01T00:00:00Z') / 1000;
const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

function status(n: number, fields: Partial<TransferStatus> = {}): TransferStatus {
  return {
    status: 'DONE', substatus: 'COMPLETED', transactionId: hash(1000 + n), tool: 'across', fromAddress: ALICE, toAddress: ALICE, integrator: 'dapp',
    sending: { chainId: 42161, txHash: hash(n), block: 100 + n, amount: 1_000_000n * BigInt(n), token: USDC, timestamp: T0 + n * 60 },
    receiving: { chainId: 8453 },
    ...fields,
  };
}

let database: Database;
let t: TestApp;
const contract = useContract();
beforeAll(async () => {
  database = await openDatabase({ dir: 'memory://' });
  t = await makeTestApp({
    env: { API_KEYS: JSON.stringify({ keys: [{ id: 'key_dapp', sha256: hashApiKey(KEYS.dapp), integrators: ['dapp'] }, { id: 'key_other', sha256: hashApiKey(KEYS.other), integrators: ['other'] }] }) },
    dependencies: { history: databaseHistory(async () => database.db) },
  });
  const save = (n: number, fields: Partial<TransferStatus> = {}) =>
    saveTransfer(database.db, { chainId: 42161, txHash: hash(n), blockNumber: 100 + n, blockHash: hash(9000 + n), status: status(n, fields) }, new Date());
  await save(1);
  await save(2, { fromAddress: BOB, toAddress: ALICE, integrator: 'other', tool: 'stargate' });
  await save(3, { status: 'FAILED', substatus: 'UNKNOWN_FAILED_ERROR', fromAddress: BOB, toAddress: BOB });
  await save(4, { status: 'PENDING', substatus: 'WAIT_DESTINATION_TRANSACTION' });
  await save(5);
});
afterAll(async () => {
  await t?.dependencies.access.close();
  await database?.close();
});

const get = (path: string, query: Record<string, string | number>, key?: string) => {
  const test = request(t.app).get(path).query(query);
  return key ? test.set('x-svc-api-key', key) : test;
};
const hashes = (transfers: { sending: { txHash: string } }[]) => transfers.map((x) => x.sending.txHash);

describe('GET /v1/analytics/transfers', () => {
  test('a wallet\'s transfers (sent or received) are public, newest first, each as /v1/status answers it', async () => {
    const res = await get('/v1/analytics/transfers', { wallet: ALICE });
    contract.expectResponse('getAnalyticsTransfers', res);
    expect(res.status).toBe(200);
    expect(hashes(res.body.transfers)).toEqual([hash(5), hash(4), hash(2), hash(1)]);
    expect(res.body.transfers[0]).toMatchObject({ status: 'DONE', substatus: 'COMPLETED', transactionId: hash(1005), tool: 'across', metadata: { integrator: 'dapp' }, sending: { chainId: 42161, amount: '5000000', token: { symbol: 'USDC' } } });
    // narrowed to the integrator the SDK names, by state, by time
    expect(hashes((await get('/v1/analytics/transfers', { wallet: ALICE, integrator: 'dapp' })).body.transfers)).toEqual([hash(5), hash(4), hash(1)]);
    expect(hashes((await get('/v1/analytics/transfers', { wallet: ALICE, status: 'PENDING' })).body.transfers)).toEqual([hash(4)]);
    expect(hashes((await get('/v1/analytics/transfers', { wallet: ALICE, status: 'ALL', fromTimestamp: T0 + 120, toTimestamp: T0 + 240 })).body.transfers)).toEqual([hash(4), hash(2)]);
    expect((await get('/v1/analytics/transfers', { wallet: '0x0000000000000000000000000000000000000001' })).body).toEqual({ transfers: [] });
  });

  test('all of an integrator\'s transfers need one of its keys: 401 without, 403 with another\'s', async () => {
    const none = await get('/v1/analytics/transfers', { integrator: 'dapp' });
    contract.expectResponse('getAnalyticsTransfers', none);
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ code: 1010, message: 'All of integrator "dapp"\'s transfers are read with one of its API keys: send it in x-svc-api-key (or x-lifi-api-key), or name a wallet' });
    const other = await get('/v1/analytics/transfers', { integrator: 'dapp' }, KEYS.other);
    contract.expectResponse('getAnalyticsTransfers', other);
    expect(other.status).toBe(403);
    expect(other.body.message).toBe('API key key_other may not be used for integrator "dapp"'); // the access control's integrator check, before the handler
    const own = await get('/v1/analytics/transfers', { integrator: 'dapp' }, KEYS.dapp);
    contract.expectResponse('getAnalyticsTransfers', own);
    expect(hashes(own.body.transfers)).toEqual([hash(5), hash(4), hash(3), hash(1)]);
  });

  test('bad input is a 400 naming the parameter', async () => {
    const cases: [Record<string, string | number>, RegExp][] = [
      [{}, /wallet is required \(or integrator/],
      [{ wallet: ALICE, status: 'LOST' }, /status/],
      [{ wallet: ALICE, fromTimestamp: 200, toTimestamp: 100 }, /toTimestamp must not be before fromTimestamp/],
      [{ wallet: ALICE, fromTimestamp: -1 }, /fromTimestamp/],
      [{ wallet: 'not-an-address' }, /wallet/],
    ];
    for (const [query, message] of cases) {
      const res = await get('/v1/analytics/transfers', query);
      contract.expectResponse('getAnalyticsTransfers', res);
      expect({ query, status: res.status, code: res.body.code }).toEqual({ query, status: 400, code: 1011 });
      expect(res.body.message).toMatch(message);
    }
  });

  test('the ecosystem SDK\'s getTransactionHistory, unpatched, reads a wallet\'s transfers', async () => {
    const server: http.Server = t.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const client = createClient({ integrator: 'dapp', apiUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}/v1` });
      const history = await getTransactionHistory(client, { wallet: ALICE, fromTimestamp: T0, toTimestamp: T0 + 3600 });
      expect(history.transfers.map((x) => ('sending' in x ? x.sending.txHash : undefined))).toEqual([hash(5), hash(4), hash(1)]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('GET /v2/analytics/transfers', () => {
  test('pages through every row once, in order, with an opaque cursor', async () => {
    const seen: string[] = [];
    let next: string | undefined;
    let pages = 0;
    do {
      const res = await get('/v2/analytics/transfers', { integrator: 'dapp', limit: 2, ...(next ? { next } : {}) }, KEYS.dapp);
      contract.expectResponse('getAnalyticsTransfersPage', res);
      expect(res.status).toBe(200);
      seen.push(...hashes(res.body.data));
      expect(res.body.hasNext).toBe(res.body.next !== undefined);
      next = res.body.next;
      pages++;
    } while (next);
    expect(pages).toBe(2);
    expect(seen).toEqual([hash(5), hash(4), hash(3), hash(1)]);
  });

  test('a forged cursor, a page too large, another integrator\'s transfers: refused', async () => {
    const forged = await get('/v2/analytics/transfers', { wallet: ALICE, next: 'AAAA' });
    contract.expectResponse('getAnalyticsTransfersPage', forged);
    expect(forged.status).toBe(400);
    expect(forged.body.message).toMatch(/next must be the `next` cursor of a previous page/);
    const large = await get('/v2/analytics/transfers', { wallet: ALICE, limit: 101 });
    expect(large.status).toBe(400);
    expect(large.body.message).toMatch(/limit/);
    expect((await get('/v2/analytics/transfers', { integrator: 'dapp' }, KEYS.other)).status).toBe(403);
  });
});

describe('GET /v1/analytics/transfers/summary', () => {
  test('an integrator\'s counts and volumes, for its key only', async () => {
    const res = await get('/v1/analytics/transfers/summary', { integrator: 'dapp' }, KEYS.dapp);
    contract.expectResponse('getAnalyticsTransfersSummary', res);
    expect(res.body).toEqual({
      integrator: 'dapp', count: 4, volumeUsd: '13',
      byStatus: [{ status: 'DONE', count: 2, volumeUsd: '6' }, { status: 'FAILED', count: 1, volumeUsd: '3' }, { status: 'PENDING', count: 1, volumeUsd: '4' }],
      byChain: [{ chainId: 42161, count: 4, volumeUsd: '13' }],
      byTool: [{ tool: 'across', count: 4, volumeUsd: '13' }],
    });
    expect((await get('/v1/analytics/transfers/summary', { integrator: 'dapp' })).status).toBe(401);
    expect((await get('/v1/analytics/transfers/summary', { integrator: 'dapp' }, KEYS.other)).status).toBe(403);
    const missing = await get('/v1/analytics/transfers/summary', {}, KEYS.dapp);
    contract.expectResponse('getAnalyticsTransfersSummary', missing);
    expect(missing.status).toBe(400);
  });
});

test('a deployment without a database says the history needs one (501)', async () => {
  const bare = await makeTestApp();
  try {
    const res = await request(bare.app).get('/v1/analytics/transfers').query({ wallet: ALICE });
    contract.expectResponse('getAnalyticsTransfers', res);
    expect(res.status).toBe(501);
    expect(res.body.message).toMatch(/needs the service's database/);
  } finally {
    await bare.dependencies.access.close();
  }
});
