/**
 * Status pushed, end to end on the sandbox devnet (issue 34): real transfers executed on two anvil chains, the
 * transfer indexer following them into a database (PGlite), the service listening on a loopback port, an
 * EventSource on a transfer's stream and on its wallet's, and an integrator's webhook receiver on loopback (the
 * worker with private receivers allowed, as the sandbox runs it):
 *   - a bridge transfer held by a stopped relayer: the stream says PENDING, then DONE when the relayer releases, then
 *     ends; the wallet's stream gets both; the webhook receiver gets both, in order, signed (the check of docs/api.md);
 *   - a transfer to a chain the devnet does not run, refunded by the relayer: DONE REFUNDED, pushed the same ways;
 *   - a router call that reverts (no approval): no event for the indexer, but its FAILED status, once a client asks
 *     for it, is in the wallet's history.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventSource } from 'eventsource';
import pino from 'pino';
import request from 'supertest';
import { statusToWire } from '../../handlers/wire/status';
import { startDevnet, type Devnet } from '../../sandbox/devnet';
import { approveIfNeeded, sendTransactionRequest, type WireTransactionRequest } from '../../sandbox/execute';
import { chainsFileOf } from '../../sandbox/service';
import { TransferIndexer } from '../../src/chain/transferIndexer';
import { openDatabase, type Database } from '../../src/persistence/database';
import { registerIntegrator } from '../../src/persistence/integrators';
import { TransferEventFeed } from '../../src/persistence/transferEvents';
import { databaseHistory } from '../../src/persistence/transfers';
import { createWebhook } from '../../src/persistence/webhooks';
import { verifyWebhook, WEBHOOK_SIGNATURE_HEADER } from '../../src/webhooks/signature';
import { WebhookWorker } from '../../src/webhooks/worker';
import { useContract, useTestApp } from '../support/app';
import { useScratchDir } from '../support/files';

jest.setTimeout(180_000);

const ARBITRUM = 42161;
const BASE = 8453;
const INTEGRATOR = 'push-dapp';
const SECRET = 'whsec_push-e2e';
const silent = pino({ level: 'silent' });

interface Quote {
  action: { fromToken: { address: string }; fromAmount: string };
  estimate: { approvalAddress: string };
  transactionRequest: WireTransactionRequest;
}

let devnet: Devnet;
let database: Database;
let feed: TransferEventFeed;
beforeAll(async () => {
  [devnet, database] = await Promise.all([startDevnet({ chains: [ARBITRUM, BASE], wallets: 1 }), openDatabase({ dir: 'memory://' })]);
  feed = new TransferEventFeed(async () => database.db, { pollIntervalMs: 100 });
}, 120_000);
const files = useScratchDir('push-e2e-');
const t = useTestApp(() => ({
  env: { CHAINS_FILE: files.writeJson('chains.json', chainsFileOf(devnet)) },
  dependencies: { history: databaseHistory(async () => database.db), events: feed },
}));
const contract = useContract();

/** Webhook deliveries received on loopback. */
const deliveries: { body: string; signature: string }[] = [];
let receiver: http.Server;
let server: http.Server;
let base: string;
let indexer: TransferIndexer;
let worker: WebhookWorker;
beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      deliveries.push({ body, signature: String(req.headers[WEBHOOK_SIGNATURE_HEADER]) });
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  await registerIntegrator(database.db, { integratorId: INTEGRATOR, feeWallet: '0x2222222222222222222222222222222222222222' });
  await createWebhook(database.db, INTEGRATOR, `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, SECRET, new Date());

  server = t.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  indexer = new TransferIndexer({
    db: database.db, tracker: t.dependencies.transfers, holder: 'push-e2e', logger: silent, pollIntervalMs: 200,
    chains: t.dependencies.chains!.chains.map((c) => ({ chainId: c.chainId, provider: c.provider, router: c.router, startBlock: 0 })),
  });
  worker = new WebhookWorker({
    db: async () => database.db, toWire: (status) => statusToWire(t.dependencies.catalog, status, t.dependencies.publicUrl),
    holder: 'push-e2e', allowPrivate: true, logger: silent, pollIntervalMs: 100,
  });
  indexer.start();
  worker.start();
});
afterAll(async () => {
  await worker?.stop();
  await indexer?.stop();
  t.dependencies.streams.slots.closeAll();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await new Promise((resolve) => receiver?.close(resolve));
  await feed?.close();
  await database?.close();
  await devnet?.stop();
});

async function quoteAndSend(query: Record<string, string>, options: { approve?: boolean } = {}): Promise<{ hash: string; status: number }> {
  const wallet = devnet.wallet(Number(query.fromChain), 0);
  const res = await request(t.app).get('/v1/quote').query({ ...query, fromAddress: wallet.address, integrator: INTEGRATOR });
  if (res.status !== 200) throw new Error(`quote: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  const quote = res.body as Quote;
  if (options.approve ?? true) await approveIfNeeded(wallet, quote.action.fromToken.address, quote.estimate.approvalAddress, BigInt(quote.action.fromAmount));
  const receipt = await sendTransactionRequest(wallet, quote.transactionRequest);
  return { hash: receipt.hash.toLowerCase(), status: receipt.status ?? 0 };
}

/** Follows a stream; resolves with the states (status:substatus, 'end') once `done` says so. */
function follow(query: string, done: (states: string[]) => boolean, ms = 90_000): { states: string[]; finished: Promise<string[]>; close: () => void } {
  const states: string[] = [];
  const source = new EventSource(`${base}/v1/status/stream?${query}`);
  const finished = new Promise<string[]>((resolve, reject) => {
    const timer = setTimeout(() => {
      source.close();
      reject(new Error(`stream ${query}: only ${JSON.stringify(states)} after ${ms} ms`));
    }, ms);
    const take = (state: string) => {
      states.push(state);
      if (done(states)) {
        clearTimeout(timer);
        source.close();
        resolve(states);
      }
    };
    source.addEventListener('status', (message) => {
      const body = JSON.parse(message.data) as { status: string; substatus?: string };
      take(`${body.status}:${body.substatus ?? ''}`);
    });
    source.addEventListener('end', () => take('end'));
  });
  return { states, finished, close: () => source.close() };
}

const webhookStates = (hash: string) =>
  deliveries
    .map((d) => JSON.parse(d.body) as { data: { status: string; substatus?: string; sending?: { txHash: string } } })
    .filter((b) => b.data.sending?.txHash.toLowerCase() === hash)
    .map((b) => `${b.data.status}:${b.data.substatus ?? ''}`);

async function until(condition: () => boolean | Promise<boolean>, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what}: not in ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test('a bridge transfer\'s states are pushed to its stream, its wallet\'s stream and its integrator\'s webhook, in order, signed', async () => {
  const wallet = devnet.wallet(BASE, 0).address;
  const walletStream = follow(`wallet=${wallet}`, (states) => states.includes('DONE:COMPLETED'));
  devnet.relayer!.stop();
  const sent = await quoteAndSend({ fromChain: String(BASE), toChain: String(ARBITRUM), fromToken: 'USDC', toToken: 'USDC', fromAmount: '500000000' });
  expect(sent.status).toBe(1);
  const transferStream = follow(`txHash=${sent.hash}`, (states) => states.at(-1) === 'end');
  await until(() => webhookStates(sent.hash).includes('PENDING:WAIT_DESTINATION_TRANSACTION'), 'the PENDING delivery');
  expect(transferStream.states).not.toContain('DONE:COMPLETED');
  await devnet.relayer!.start();
  const states = await transferStream.finished;
  // (a state between two reads of the indexer may be skipped: the stream sends what the index holds, in order)
  expect(states.at(-2)).toBe('DONE:COMPLETED');
  expect(states.indexOf('PENDING:WAIT_DESTINATION_TRANSACTION')).toBeLessThan(states.indexOf('DONE:COMPLETED'));
  expect(await walletStream.finished).toEqual(expect.arrayContaining(['PENDING:WAIT_DESTINATION_TRANSACTION', 'DONE:COMPLETED']));
  await until(() => webhookStates(sent.hash).includes('DONE:COMPLETED'), 'the DONE delivery');
  const pushed = webhookStates(sent.hash);
  expect(pushed.indexOf('PENDING:WAIT_DESTINATION_TRANSACTION')).toBeLessThan(pushed.indexOf('DONE:COMPLETED'));
  for (const delivery of deliveries) expect(verifyWebhook(SECRET, delivery.signature, delivery.body).ok).toBe(true);
  // the delivered body is the status as GET /v1/status answers it, with its explorer page
  const done = deliveries.map((d) => JSON.parse(d.body) as { data: Record<string, unknown> }).find((b) => b.data.status === 'DONE')!.data;
  const live = await request(t.app).get('/v1/status').query({ txHash: sent.hash });
  contract.expectResponse('getStatus', live);
  expect(done).toMatchObject({ status: 'DONE', transactionId: live.body.transactionId, lifiExplorerLink: live.body.lifiExplorerLink });
});

test('a transfer to a chain the devnet does not run is refunded: DONE REFUNDED pushed to the stream and the webhook', async () => {
  const sent = await quoteAndSend({ fromChain: String(BASE), toChain: '10', fromToken: 'USDC', toToken: 'USDC', fromAmount: '300000000' });
  expect(sent.status).toBe(1);
  const stream = follow(`txHash=${sent.hash}`, (states) => states.at(-1) === 'end');
  expect((await stream.finished).at(-2)).toBe('DONE:REFUNDED');
  await until(() => webhookStates(sent.hash).includes('DONE:REFUNDED'), 'the REFUNDED delivery');
});

test('a router call that reverts is in its wallet\'s history once a client has asked for its status', async () => {
  const wallet = devnet.wallet(ARBITRUM, 0).address;
  const sent = await quoteAndSend({ fromChain: String(ARBITRUM), toChain: String(ARBITRUM), fromToken: 'WETH', toToken: 'USDC', fromAmount: '1000000000000000' }, { approve: false });
  expect(sent.status).toBe(0);
  const status = await request(t.app).get('/v1/status').query({ txHash: sent.hash });
  expect(status.body).toMatchObject({ status: 'FAILED' });
  const history = await request(t.app).get('/v1/analytics/transfers').query({ wallet });
  contract.expectResponse('getAnalyticsTransfers', history);
  const failed = (history.body.transfers as { status: string; sending: { txHash: string } }[]).find((x) => x.sending.txHash.toLowerCase() === sent.hash);
  expect(failed).toMatchObject({ status: 'FAILED', substatus: status.body.substatus });
});
