/**
 * The relayer of gasless steps (src/chain/relaySender.ts) on an anvil chain, with its tasks in the database (PGlite):
 * a task sent and followed to its receipt; a transaction stuck in the mempool replaced under its nonce with higher
 * fees; a relayer that stopped between recording and broadcasting, or after broadcasting, whose task another instance
 * finishes; two instances sharing one database and one wallet, sending ten tasks without a nonce clash or a task sent
 * twice; a permit deadline passed before sending (nothing sent) and while pending (its nonce taken by a transfer of
 * nothing, so the wallet's later transactions are not stuck); a nonce the chain lost (a reorganisation) taken by a
 * transfer of nothing, so that the next task is not stuck behind it; a relayer below its balance floor sending nothing.
 */
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { hexlify, JsonRpcProvider, Wallet } from 'ethers';
import { sql } from 'kysely';
import { RelaySender } from '../../src/chain/relaySender';
import type { NewRelayTask } from '../../src/core/relay/tasks';
import { openDatabase, type Database } from '../../src/persistence/database';
import { DatabaseRelayTaskStore } from '../../src/persistence/relayTasks';
import { startAnvil, type AnvilProcess } from '../../sandbox/anvil';
import { devAccountKey, makeProvider } from '../../sandbox/rpc';

jest.setTimeout(120_000);

const CHAIN = 31_337;
const logger = pino({ level: 'silent' });
let anvil: AnvilProcess;
let provider: JsonRpcProvider;
let database: Database;
let store: DatabaseRelayTaskStore;
let relayerKey: string;
let clock = 0;

beforeAll(async () => {
  anvil = await startAnvil(CHAIN, { accounts: 3 });
  provider = makeProvider(anvil.url, CHAIN);
  database = await openDatabase({ dir: 'memory://' });
  store = new DatabaseRelayTaskStore(database.db);
}, 120_000);

afterAll(async () => {
  await database?.close();
  await anvil?.stop();
});

beforeEach(async () => {
  await sql`truncate relay_tasks, relayer_nonces`.execute(database.db);
  await provider.send('evm_setAutomine', [true]);
  // a fresh relayer for each test: its nonces start at 0 on the chain and in the store
  relayerKey = hexlify(randomBytes(32));
  await provider.send('anvil_setBalance', [new Wallet(relayerKey).address, '0x56bc75e2d63100000']); // 100 ETH
  clock = Number((await provider.getBlock('latest'))!.timestamp) * 1000;
});

function sender(instance: string, options: { floor?: bigint; broadcast?: 'fails'; batch?: number } = {}): RelaySender {
  const chainProvider = makeProvider(anvil.url, CHAIN);
  if (options.broadcast === 'fails') chainProvider.broadcastTransaction = async () => { throw new Error('the process stopped before broadcasting'); };
  return new RelaySender({
    chainId: CHAIN, wallet: new Wallet(relayerKey, chainProvider), store, instance, logger,
    balanceFloorWei: options.floor ?? 10n ** 16n, leaseMs: 30_000, resendAfterMs: 15_000, batch: options.batch ?? 10, clock: () => clock,
  });
}

let taskCount = 0;
/** A task whose transaction pays `wei` of nothing: a call to a fresh address, as a relayed proxy call would be sent. */
function task(fields: Partial<NewRelayTask> = {}): NewRelayTask {
  taskCount += 1;
  return {
    taskId: `0x${taskCount.toString(16).padStart(64, '0')}`,
    chainId: CHAIN,
    owner: new Wallet(devAccountKey(1)).address,
    permitNonce: BigInt(taskCount),
    deadline: BigInt(Math.floor(clock / 1000) + 1800),
    to: Wallet.createRandom().address,
    data: '0x1234',
    gasLimit: 60_000n,
    feeToken: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
    feeAmount: 75_000n,
    step: { id: `step-${taskCount}` },
    ...fields,
  };
}

const create = async (t: NewRelayTask) => {
  const result = await store.create(t, new Date(clock));
  expect(result.created).toBe(true);
  return t;
};

test('a task is sent once and followed to its receipt', async () => {
  const t = await create(task());
  const a = sender('a');
  expect(await a.runOnce()).toBe(1);
  const sent = (await store.get(t.taskId))!;
  expect(sent).toMatchObject({ state: 'sent', relayer: a.address, relayerNonce: 0n });
  expect(sent.attempts).toHaveLength(1);
  // not looked at again before resendAfterMs; then its receipt is found
  expect(await a.runOnce()).toBe(0);
  clock += 15_001;
  await a.runOnce();
  expect(await store.get(t.taskId)).toMatchObject({ state: 'mined', minedTxHash: sent.attempts[0]!.txHash, succeeded: true });
  const tx = await provider.getTransaction(sent.attempts[0]!.txHash);
  expect({ to: tx!.to, data: tx!.data, from: tx!.from }).toEqual({ to: t.to, data: t.data, from: a.address });
});

test('a transaction stuck in the mempool is replaced under its nonce with higher fees; the replacement is mined', async () => {
  await provider.send('evm_setAutomine', [false]);
  const t = await create(task());
  const a = sender('a');
  await a.runOnce();
  clock += 15_001;
  await a.runOnce();
  const replaced = (await store.get(t.taskId))!;
  expect(replaced.attempts).toHaveLength(2);
  const [second, first] = replaced.attempts as [typeof replaced.attempts[0], typeof replaced.attempts[0]];
  expect(second.maxPriorityFeePerGas > first.maxPriorityFeePerGas).toBe(true);
  expect(second.maxFeePerGas * 1000n >= first.maxFeePerGas * 1125n).toBe(true);
  expect((await provider.getTransaction(second.txHash))!.nonce).toBe(0);
  await provider.send('evm_mine', []);
  clock += 15_001;
  await a.runOnce();
  expect(await store.get(t.taskId)).toMatchObject({ state: 'mined', minedTxHash: second.txHash, succeeded: true });
  expect(await provider.getTransactionReceipt(first.txHash)).toBeNull();
});

test('a relayer that stopped after recording its transaction and before broadcasting it: another instance sends it, once', async () => {
  const t = await create(task());
  await sender('crashed', { broadcast: 'fails' }).runOnce();
  const recorded = (await store.get(t.taskId))!;
  expect(recorded.state).toBe('sent');
  expect(await provider.getTransaction(recorded.attempts[0]!.txHash)).toBeNull();
  // after its lease and the resend delay, another instance replaces it under the same nonce
  clock += 30_001;
  const b = sender('b');
  await b.runOnce();
  clock += 15_001;
  await b.runOnce();
  const done = (await store.get(t.taskId))!;
  expect(done).toMatchObject({ state: 'mined', succeeded: true, relayerNonce: 0n });
  expect(await provider.getTransactionCount(b.address, 'latest')).toBe(1);
});

test('a relayer that stopped after broadcasting: the next instance finds the receipt and sends nothing again', async () => {
  const t = await create(task());
  await sender('crashed').runOnce();
  clock += 30_001;
  await sender('b').runOnce();
  expect(await store.get(t.taskId)).toMatchObject({ state: 'mined', succeeded: true });
  expect(await provider.getTransactionCount(new Wallet(relayerKey).address, 'latest')).toBe(1);
});

test('two instances sharing one database and one wallet send ten tasks: distinct nonces, each task sent once', async () => {
  const tasks = [];
  for (let k = 0; k < 10; k++) tasks.push(await create(task()));
  const [a, b] = [sender('a', { batch: 1 }), sender('b', { batch: 1 })];
  // one task claimed per instance per look: the two interleave on the shared wallet
  for (let round = 0; round < 12; round++) await Promise.all([a.runOnce(), b.runOnce()]);
  clock += 15_001;
  for (let round = 0; round < 12; round++) await Promise.all([a.runOnce(), b.runOnce()]);
  const done = await Promise.all(tasks.map((t) => store.get(t.taskId)));
  expect(done.map((t) => t!.state)).toEqual(new Array(10).fill('mined'));
  expect(done.every((t) => t!.attempts.length === 1 && t!.succeeded)).toBe(true);
  expect(new Set(done.map((t) => t!.relayerNonce)).size).toBe(10);
  expect(await provider.getTransactionCount(a.address, 'latest')).toBe(10);
});

test('a deadline passed before sending: failed, nothing sent; passed while pending: its nonce taken by a transfer of nothing', async () => {
  const late = await create(task({ deadline: BigInt(Math.floor(clock / 1000) - 1) }));
  const a = sender('a');
  await a.runOnce();
  expect(await store.get(late.taskId)).toMatchObject({ state: 'failed', attempts: [] });
  expect(await provider.getTransactionCount(a.address, 'pending')).toBe(0);

  await provider.send('evm_setAutomine', [false]);
  const pending = await create(task({ deadline: BigInt(Math.floor(clock / 1000) + 20) }));
  await a.runOnce();
  clock += 30_000; // past the deadline, the transaction not mined
  await a.runOnce();
  const cancelled = (await store.get(pending.taskId))!;
  expect(cancelled.state).toBe('failed');
  const cancel = (await provider.getTransaction(cancelled.attempts[0]!.txHash))!;
  expect({ to: cancel.to, data: cancel.data, value: cancel.value, nonce: cancel.nonce }).toEqual({ to: a.address, data: '0x', value: 0n, nonce: 0 });
  await provider.send('evm_mine', []);
  // the next task's transaction, with the next nonce, is not stuck behind it
  await provider.send('evm_setAutomine', [true]);
  const next = await create(task());
  await a.runOnce();
  clock += 15_001;
  await a.runOnce();
  expect(await store.get(next.taskId)).toMatchObject({ state: 'mined', relayerNonce: 1n, succeeded: true });
});

test('a nonce the chain lost (a mined transaction undone by a reorganisation): the next task is not stuck behind it; a nonce a sent task holds is left to that task', async () => {
  const a = sender('a');
  const before = await provider.send('evm_snapshot', []);
  const first = await create(task());
  await a.runOnce();
  clock += 15_001;
  await a.runOnce();
  expect(await store.get(first.taskId)).toMatchObject({ state: 'mined', relayerNonce: 0n });
  // the chain drops that block: its nonce 0 is free again, while the store has counted it
  await provider.send('evm_revert', [before]);
  expect(await provider.getTransactionCount(a.address, 'latest')).toBe(0);
  const reverted = await provider.getBlockNumber();
  const next = await create(task());
  await a.runOnce();
  const waiting = (await store.get(next.taskId))!;
  expect(waiting).toMatchObject({ state: 'sent', relayerNonce: 1n });
  expect(await provider.getTransactionReceipt(waiting.attempts[0]!.txHash)).toBeNull(); // behind the gap at 0
  // due for a replacement: the free nonce 0 is taken by a transfer of nothing, then the task's transaction is mined
  clock += 15_001;
  await a.runOnce();
  expect(await provider.getTransactionCount(a.address, 'latest')).toBe(2);
  const filler = (await provider.getBlock(reverted + 1, true))!.prefetchedTransactions[0]!;
  expect({ to: filler.to, data: filler.data, value: filler.value, nonce: filler.nonce, from: filler.from }).toEqual({ to: a.address, data: '0x', value: 0n, nonce: 0, from: a.address });
  clock += 15_001;
  await a.runOnce();
  expect(await store.get(next.taskId)).toMatchObject({ state: 'mined', relayerNonce: 1n, succeeded: true });

  // a gap the store's own sent tasks fill is left alone: two tasks pending, the later one due first
  await provider.send('evm_setAutomine', [false]);
  const third = await create(task());
  const fourth = await create(task());
  await a.runOnce(); // nonces 2 and 3, both in the pool
  expect((await store.get(fourth.taskId))!.relayerNonce).toBe(3n);
  clock += 15_001;
  await a.runOnce(); // both replaced under their nonces; nothing else sent
  const pool = await provider.send('txpool_content', []);
  const pending = Object.values(pool.pending as Record<string, Record<string, { to: string }>>).flatMap((byNonce) => Object.entries(byNonce));
  expect(pending.map(([nonce]) => Number(nonce)).sort()).toEqual([2, 3]);
  expect(pending.every(([, tx]) => tx.to.toLowerCase() !== a.address.toLowerCase())).toBe(true);
  await provider.send('evm_mine', []);
  clock += 15_001;
  await a.runOnce();
  expect(await store.get(third.taskId)).toMatchObject({ state: 'mined', succeeded: true });
  expect(await store.get(fourth.taskId)).toMatchObject({ state: 'mined', succeeded: true });
});

test('a relayer below its balance floor sends nothing; the task waits', async () => {
  const t = await create(task());
  const poor = sender('a', { floor: 10n ** 30n });
  expect(await poor.aboveFloor()).toBe(false);
  await poor.runOnce();
  expect(await store.get(t.taskId)).toMatchObject({ state: 'queued', attempts: [] });
  expect(await provider.getTransactionCount(poor.address, 'pending')).toBe(0);
  await sender('a').runOnce();
  expect((await store.get(t.taskId))!.state).toBe('sent');
});
