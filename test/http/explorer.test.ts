/**
 * The explorer's page per transfer over HTTP (GET /explorer/tx/:ref, src/server/explorer.ts) through the real app
 * (createApp with the explorer router, as src/main.ts mounts it), on a real index (PGlite in memory) filled with
 * saved transfers and no chain connected: an indexed DONE transfer's page with its values, by sending hash and by
 * transfer id; a PENDING one answered from the index while the chains know nothing, live; malformed references (400,
 * HTML or JSON, naming the rule, a hostile reference escaped); an unknown transfer (404 "not found yet", live); the
 * chains failing (503); the page's headers; the per-client limit (429) and that the page script and stylesheet are
 * not counted against it.
 */
import express from 'express';
import pino from 'pino';
import request from 'supertest';
import { handlers } from '../../handlers';
import { DEFAULT_DATA_DIR, loadConfig } from '../../src/config';
import { loadCatalog } from '../../src/files/catalog';
import type { Token } from '../../src/core/entities';
import { TransferTracker } from '../../src/core/status/tracker';
import type { TransferStatus } from '../../src/core/status/transferStatus';
import { openDatabase, type Database } from '../../src/persistence/database';
import { databaseHistory, saveTransfer } from '../../src/persistence/transfers';
import { buildAccessControl } from '../../src/server/access/build';
import { createApp } from '../../src/server/app';
import { buildDependencies, type Dependencies } from '../../src/server/dependencies';
import { explorerRouter, REFERENCE_RULE } from '../../src/server/explorer';
import { EXPLORER_CSP } from '../../src/server/explorerPage';

const ALICE = '0x552008c0F6870C2f77e5cC1d2Eb9bdff03E30Ea9';
const USDC: Token = { chainId: 42161, address: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831', symbol: 'USDC', decimals: 6, name: 'USD Coin', coinKey: 'USDC', priceUSD: '1', tags: [] };
const BASE_USDC: Token = { ...USDC, chainId: 8453, address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' };
const T0 = Date.parse('2026-11-01T00:00:00Z') / 1000;
const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const DONE_HASH = hash(1);
const PENDING_HASH = hash(2);
const UNKNOWN_HASH = hash(3);

const doneTransfer: TransferStatus = {
  status: 'DONE', substatus: 'COMPLETED', substatusMessage: 'The transfer is complete.', transactionId: hash(1001), tool: 'across', fromAddress: ALICE, toAddress: ALICE, integrator: 'dapp',
  sending: { chainId: 42161, txHash: DONE_HASH, block: 101, amount: 1_234_567_891n, token: USDC, timestamp: T0 },
  receiving: { chainId: 8453, txHash: hash(501), block: 77, amount: 1_230_000_000n, token: BASE_USDC, timestamp: T0 + 42 },
};

/** A tracker whose chains fail (the use case throws instead of answering). */
class FailingTracker extends TransferTracker {
  override async status(): Promise<TransferStatus> {
    throw new Error('the RPC node refused the connection');
  }
}

const silent = pino({ level: 'silent' });
let database: Database;
const closers: (() => Promise<void>)[] = [];

/** The real app with the explorer, as src/main.ts wires it. */
async function explorerApp(options: { pagesPerMinute?: number; dependencies?: Partial<Dependencies> } = {}): Promise<express.Express> {
  const config = loadConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_OVERRIDE: '1000000' });
  const access = buildAccessControl(config, { logger: silent });
  closers.push(() => access.close());
  const dependencies = buildDependencies(config, { access, history: databaseHistory(async () => database.db), ...options.dependencies });
  const explorer = explorerRouter({ dependencies, ...(options.pagesPerMinute !== undefined ? { pagesPerMinute: options.pagesPerMinute } : {}) });
  return createApp(dependencies, config, { handlers, logger: silent, explorer });
}

let app: express.Express;
beforeAll(async () => {
  database = await openDatabase({ dir: 'memory://' });
  await saveTransfer(database.db, { chainId: 42161, txHash: DONE_HASH, blockNumber: 101, blockHash: hash(9001), status: doneTransfer }, new Date());
  await saveTransfer(database.db, {
    chainId: 42161, txHash: PENDING_HASH, blockNumber: 102, blockHash: hash(9002),
    status: { ...doneTransfer, status: 'PENDING', substatus: 'WAIT_DESTINATION_TRANSACTION', substatusMessage: 'Waiting for the bridge.', transactionId: hash(1002), sending: { ...doneTransfer.sending!, txHash: PENDING_HASH }, receiving: { chainId: 8453 } },
  }, new Date());
  app = await explorerApp();
}, 120_000); // an in-memory PGlite opens in seconds, in tens of them on a loaded machine
afterAll(async () => {
  for (const close of closers) await close();
  await database?.close();
});

function expectPageHeaders(res: request.Response): void {
  expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(res.headers['content-security-policy']).toBe(EXPLORER_CSP);
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['referrer-policy']).toBe('no-referrer');
  expect(res.headers['x-frame-options']).toBe('DENY');
}

describe('GET /explorer/tx/:ref', () => {
  test('an indexed DONE transfer: 200 with its values, by sending hash and by transfer id, complete without script', async () => {
    const res = await request(app).get(`/explorer/tx/${DONE_HASH}`);
    expect(res.status).toBe(200);
    expectPageHeaders(res);
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    const page = res.text;
    for (const shown of [
      '<span class="badge" data-field="status">DONE</span> <span class="badge sub" data-field="substatus">COMPLETED</span>',
      'The transfer is complete.',
      '<td>Arbitrum (42161)</td>', '<td>Base (8453)</td>',
      `<a class="mono" href="https://arbiscan.io/tx/${DONE_HASH}" rel="noopener noreferrer">${DONE_HASH}</a>`,
      `href="https://basescan.org/tx/${hash(501)}"`,
      `href="https://arbiscan.io/address/${ALICE}"`,
      '<span class="amount">1234.567891 USDC</span> <span class="muted">($1,234.57)</span>',
      '<span class="amount">1230 USDC</span>',
      '<td>Across (across)</td>', '<td>dapp</td>',
      `<span class="mono">${hash(1001)}</span>`,
      '<td>2026-11-01T00:00:00.000Z</td>', '<td>2026-11-01T00:00:42.000Z</td>',
    ]) expect(page).toContain(shown);
    expect(page).not.toMatch(/<script|data-live/);
    const byId = await request(app).get(`/explorer/tx/${hash(1001).toUpperCase().replace('0X', '0x')}`);
    expect(byId.status).toBe(200);
    expect(byId.text).toContain(`href="https://arbiscan.io/tx/${DONE_HASH}"`);
  });

  test('a PENDING transfer the chains do not show: the index\'s state, said so, live and never cached', async () => {
    const res = await request(app).get(`/explorer/tx/${PENDING_HASH}`);
    expect(res.status).toBe(200);
    expectPageHeaders(res);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.text).toContain(`<main data-ref="${PENDING_HASH}" data-status="PENDING" data-substatus="WAIT_DESTINATION_TRANSACTION" data-live="true">`);
    expect(res.text).toContain('this is the state the index last saw');
    expect(res.text).toContain('<script src="/explorer/explorer.js" defer></script>');
  });

  test('a malformed reference: 400 naming the rule, as a page or as the API\'s JSON error; hostile input escaped', async () => {
    for (const ref of ['0x1234', 'hello', `0x${'a'.repeat(63)}g`, `0x${'a'.repeat(66)}`, '0OIl'.repeat(22)]) {
      const res = await request(app).get(`/explorer/tx/${encodeURIComponent(ref)}`);
      expect({ ref, status: res.status }).toEqual({ ref, status: 400 });
      expectPageHeaders(res);
      expect(res.text).toContain(REFERENCE_RULE);
    }
    const hostile = await request(app).get(`/explorer/tx/${encodeURIComponent('<img src=x onerror=alert(1)>')}`);
    expect(hostile.status).toBe(400);
    expect(hostile.text).toContain('Invalid transfer reference &quot;&lt;img src=x onerror=alert(1)&gt;&quot;');
    expect(hostile.text).not.toContain('<img');
    const json = await request(app).get('/explorer/tx/0x1234').set('accept', 'application/json');
    expect(json.status).toBe(400);
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    expect(json.body).toEqual({ message: `Invalid transfer reference "0x1234": ${REFERENCE_RULE}`, code: 1011 });
    expect((await request(app).get('/explorer/tx/')).status).toBe(400);
  });

  test('an unknown transfer: 404 "not found yet", itself live (a transaction sent a moment ago may not be seen yet)', async () => {
    const res = await request(app).get(`/explorer/tx/${UNKNOWN_HASH}`);
    expect(res.status).toBe(404);
    expectPageHeaders(res);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.text).toContain('Not found yet');
    expect(res.text).toContain('data-status="NOT_FOUND"');
    expect(res.text).toContain('<script src="/explorer/explorer.js" defer></script>');
    expect(res.text).toContain('not connected to any chain'); // the tracker's reason
  });

  test('the chains failing: 503 with Retry-After, live; an indexed final transfer is still answered', async () => {
    const failing = await explorerApp({ dependencies: { transfers: new FailingTracker(undefined, loadCatalog(DEFAULT_DATA_DIR)) } });
    const res = await request(failing).get(`/explorer/tx/${UNKNOWN_HASH}`);
    expect(res.status).toBe(503);
    expectPageHeaders(res);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.text).toContain('data-status="UNAVAILABLE"');
    expect((await request(failing).get(`/explorer/tx/${DONE_HASH}`)).status).toBe(200);
    const pending = await request(failing).get(`/explorer/tx/${PENDING_HASH}`);
    expect(pending.status).toBe(200);
    expect(pending.text).toContain('The chains could not be read just now');
  });

  test('the page script and stylesheet: same origin, typed, nosniff', async () => {
    const script = await request(app).get('/explorer/explorer.js');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(script.headers['x-content-type-options']).toBe('nosniff');
    expect(script.text).toContain("new window.EventSource('/v1/status/stream' + query)");
    const style = await request(app).get('/explorer/explorer.css');
    expect(style.headers['content-type']).toBe('text/css; charset=utf-8');
  });

  test('a limit per client address: 429 with Retry-After past it (page or JSON); the script and stylesheet are not counted', async () => {
    const limited = await explorerApp({ pagesPerMinute: 3 });
    for (let i = 0; i < 3; i++) {
      expect((await request(limited).get(`/explorer/tx/${DONE_HASH}`)).status).toBe(200);
      expect((await request(limited).get('/explorer/explorer.js')).status).toBe(200);
    }
    const refused = await request(limited).get(`/explorer/tx/${DONE_HASH}`);
    expect(refused.status).toBe(429);
    expectPageHeaders(refused);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.text).toContain('at most 3 a minute');
    const json = await request(limited).get(`/explorer/tx/${UNKNOWN_HASH}`).set('accept', 'application/json');
    expect(json.status).toBe(429);
    expect(json.body).toMatchObject({ code: 1005, message: expect.stringMatching(/^Too many explorer pages from this address: at most 3 a minute/) });
    // the API is not limited by the explorer's pages
    expect((await request(limited).get('/v1/chains')).status).toBe(200);
  });
});
