/**
 * The gasless relayer's task store (0007_relay_tasks) on PGlite and on a PostgreSQL server, from the side of a user
 * who sends one signature twice, of instances that claim and send at the same time (or die holding a task), and of
 * the relayer's wallet, whose nonces must never be handed out twice.
 */
import type { NewRelayTask, RelayAttempt, RelayTask } from '../../../src/core/relay/tasks';
import type { Database } from '../../../src/persistence/database';
import { ConflictError, NotFoundError } from '../../../src/persistence/errors';
import { DatabaseRelayTaskStore } from '../../../src/persistence/relayTasks';
import { databaseEngines, emptyTables } from '../../support/postgres';

const ALICE = '0x552008c0F6870C2f77e5cC1d2Eb9bdff03E30Ea9';
const BOB = '0xD6345B798ADA3A1a36E85424003D1ff14e3883b7';
const RELAYER = '0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf';
const OTHER_RELAYER = '0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF';
const PROXY = '0x89c6340B1a1f4b25D36cd8B063D49045caF3f818';
const USDC = '0xaf88d065e77c8cC2239327C5EDb3A432268e5831';
const T0 = new Date('2026-11-29T12:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const LEASE = 30_000;
const RESEND = 60_000;
/** Beyond 2^64 (and 2^63): what a numeric(78, 0) must keep that a bigint column would not. */
const HUGE = (1n << 255n) + 12_345n;

function newTask(n: number, fields: Partial<NewRelayTask> = {}): NewRelayTask {
  return {
    taskId: hash(n),
    chainId: 42161,
    owner: ALICE,
    permitNonce: BigInt(n),
    deadline: 1_795_000_000n,
    to: PROXY,
    data: '0xdeadbeef',
    gasLimit: 450_000n,
    feeToken: USDC,
    feeAmount: 25_000n,
    integrator: 'dapp',
    step: { id: `step-${n}`, action: { fromAmount: '5000000' } },
    ...fields,
  };
}

function attempt(n: number, maxFeePerGas: bigint, sentAt: Date): RelayAttempt {
  return { txHash: hash(9000 + n), maxFeePerGas, maxPriorityFeePerGas: maxFeePerGas / 10n, sentAt };
}

describe.each(databaseEngines())('the relay task store on $name', (engine) => {
  beforeAll(() => engine.start(), 120_000);
  afterAll(() => engine.stop());
  beforeEach(() => emptyTables(engine.shared()));
  const store = () => new DatabaseRelayTaskStore(engine.shared().db);
  /** Two instances on two connections (two pools on PostgreSQL; PGlite's single connection is shared). */
  const twoInstances = async (): Promise<[DatabaseRelayTaskStore, DatabaseRelayTaskStore]> => {
    const second: Database = await engine.secondConnection();
    return [store(), new DatabaseRelayTaskStore(second.db)];
  };

  it('keeps every field: bigints beyond 2^64, the step with its bigints, the attempts, dates', async () => {
    const task = newTask(1, { permitNonce: HUGE, gasLimit: HUGE + 1n, feeAmount: HUGE + 2n, step: { nested: [{ amount: HUGE, text: 'x', none: null }], flag: true } });
    const created = await store().create(task, T0);
    const queued: RelayTask = { ...task, state: 'queued', attempts: [], createdAt: T0, updatedAt: T0 };
    expect(created).toEqual({ created: true, task: queued });
    expect(await store().get(hash(1))).toEqual(queued);

    const first = attempt(1, HUGE + 3n, at(1000));
    const second = attempt(2, HUGE + 4n, at(2000));
    await store().recordAttempt(hash(1), RELAYER, HUGE + 5n, first, at(1000));
    await store().recordAttempt(hash(1), RELAYER, HUGE + 5n, second, at(2000));
    await store().markMined(hash(1), second.txHash, false, at(3000));
    const mined = await store().get(hash(1));
    expect(mined).toEqual({ ...queued, state: 'mined', relayer: RELAYER, relayerNonce: HUGE + 5n, attempts: [second, first], minedTxHash: second.txHash, succeeded: false, updatedAt: at(3000) });
    expect(typeof mined!.permitNonce).toBe('bigint');
    expect(mined!.createdAt).toBeInstanceOf(Date);

    // a task without an integrator has none (no empty value); the owner is kept checksummed
    const bare = newTask(2, { integrator: undefined, owner: BOB.toLowerCase() });
    const { task: stored } = (await store().create(bare, T0)) as { task: RelayTask };
    expect(stored).not.toHaveProperty('integrator');
    expect(stored.owner).toBe(BOB);
    expect(await store().get(hash(404))).toBeUndefined();
  });

  it('the same signature sent twice makes one task: the second create gets the first, never an error', async () => {
    const first = await store().create(newTask(1, { permitNonce: 7n }), T0);
    expect(first.created).toBe(true);
    // same chain, owner (in another case) and Permit2 nonce under another task id: a replay of the signature
    const replay = await store().create(newTask(2, { permitNonce: 7n, owner: ALICE.toLowerCase(), feeAmount: 1n }), at(1000));
    expect(replay).toEqual({ created: false, existing: (first as { task: RelayTask }).task });
    // the same task id again (another nonce): not replaced either
    const sameId = await store().create(newTask(1, { permitNonce: 8n }), at(2000));
    expect(sameId).toEqual({ created: false, existing: (first as { task: RelayTask }).task });
    // the same nonce of another owner or on another chain is another signature
    expect((await store().create(newTask(3, { permitNonce: 7n, owner: BOB }), T0)).created).toBe(true);
    expect((await store().create(newTask(4, { permitNonce: 7n, chainId: 8453 }), T0)).created).toBe(true);

    // ten copies at once, through two connections: one task, every other answer names it
    const [a, b] = await twoInstances();
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).create(newTask(100 + i, { permitNonce: 99n }), T0)));
    const made = results.filter((result) => result.created);
    expect(made).toHaveLength(1);
    const winner = (made[0] as { task: RelayTask }).task.taskId;
    expect(results.map((result) => (result.created ? result.task.taskId : result.existing.taskId))).toEqual(Array(10).fill(winner));
    const rows = await engine.shared().db.selectFrom('relay_tasks').select('task_id').where('permit_nonce', '=', '99').execute();
    expect(rows).toEqual([{ task_id: winner }]);
  });

  it('what the table refuses: a malformed task id, an address that is not one', async () => {
    await expect(store().create(newTask(1, { taskId: 'task-1' }), T0)).rejects.toThrow(/check constraint/);
    await expect(store().create(newTask(1, { owner: 'alice' }), T0)).rejects.toThrow(/owner must be an address/);
    await expect(store().create(newTask(1, { to: '0x1234' }), T0)).rejects.toThrow(/check constraint/);
    expect(await engine.shared().db.selectFrom('relay_tasks').select('task_id').execute()).toEqual([]);
  });

  it('a claim leases tasks, oldest first: other instances get none until the lease runs out (its holder died) or is released', async () => {
    for (const n of [1, 2, 3]) await store().create(newTask(n), at(n));
    await store().create(newTask(4, { chainId: 8453 }), at(0)); // another chain
    const ids = (tasks: RelayTask[]) => tasks.map((task) => task.taskId);

    expect(ids(await store().claim(42161, 'a', T0, LEASE, RESEND, 2))).toEqual([hash(1), hash(2)]);
    expect(ids(await store().claim(42161, 'b', T0, LEASE, RESEND, 5))).toEqual([hash(3)]);
    expect(await store().claim(42161, 'c', at(LEASE - 1), LEASE, RESEND, 5)).toEqual([]);
    const row = await engine.shared().db.selectFrom('relay_tasks').select(['claimed_by', 'claimed_until']).where('task_id', '=', hash(1)).executeTakeFirstOrThrow();
    expect(row).toEqual({ claimed_by: 'a', claimed_until: at(LEASE) });

    // b stops cleanly: its task is claimable at once; a's release of a task it does not hold changes nothing
    await store().release(hash(3), 'a');
    expect(await store().claim(42161, 'c', at(1), LEASE, RESEND, 5)).toEqual([]);
    await store().release(hash(3), 'b');
    expect(ids(await store().claim(42161, 'c', at(2), LEASE, RESEND, 5))).toEqual([hash(3)]);

    // a died holding two tasks: they are claimed when its lease ends
    expect(ids(await store().claim(42161, 'd', at(LEASE), LEASE, RESEND, 5))).toEqual([hash(1), hash(2)]);
    // mined and failed tasks are not claimed, even with no lease
    await store().markFailed(hash(1), 'deadline passed', at(LEASE + 1));
    await store().recordAttempt(hash(2), RELAYER, 0n, attempt(2, 100n, at(LEASE + 1)), at(LEASE + 1));
    await store().markMined(hash(2), hash(9002), true, at(LEASE + 2));
    expect(ids(await store().claim(42161, 'e', at(10 * LEASE), LEASE, RESEND, 5))).toEqual([hash(3)]);
    expect(await store().claim(42161, 'e', at(10 * LEASE), LEASE, RESEND, 0)).toEqual([]);
    expect(ids(await store().claim(8453, 'e', at(10 * LEASE), LEASE, RESEND, 5))).toEqual([hash(4)]);
  });

  it('instances claiming at the same time never take one task twice', async () => {
    for (let n = 1; n <= 12; n += 1) await store().create(newTask(n), at(n));
    const [a, b] = await twoInstances();
    const claims = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? a : b).claim(42161, `instance-${i}`, T0, LEASE, RESEND, 3)));
    const claimed = claims.flat().map((task) => task.taskId);
    expect(new Set(claimed).size).toBe(claimed.length);
    const rest = await store().claim(42161, 'late', T0, LEASE, RESEND, 12);
    expect([...claimed, ...rest.map((task) => task.taskId)].sort()).toEqual(Array.from({ length: 12 }, (_, i) => hash(i + 1)));
  });

  it('a sent task is claimed again (to replace or re-check it) only once resendAfterMs passed since its last attempt', async () => {
    await store().create(newTask(1), T0);
    await store().claim(42161, 'a', T0, LEASE, RESEND, 1);
    await store().recordAttempt(hash(1), RELAYER, 5n, attempt(1, 100n, at(1000)), at(1000));
    await store().release(hash(1), 'a');
    expect(await store().claim(42161, 'b', at(1000 + RESEND - 1), LEASE, RESEND, 1)).toEqual([]);
    const [again] = await store().claim(42161, 'b', at(1000 + RESEND), LEASE, RESEND, 1);
    expect(again).toMatchObject({ taskId: hash(1), state: 'sent', relayerNonce: 5n });
    // a replacement restarts the wait
    await store().recordAttempt(hash(1), RELAYER, 5n, attempt(2, 200n, at(1000 + RESEND)), at(1000 + RESEND));
    await store().release(hash(1), 'b');
    expect(await store().claim(42161, 'c', at(1000 + 2 * RESEND - 1), LEASE, RESEND, 1)).toEqual([]);
    expect(await store().claim(42161, 'c', at(1000 + 2 * RESEND), LEASE, RESEND, 1)).toHaveLength(1);
  });

  it('nonces: 20 allocations at once are 20 distinct consecutive nonces, never below the chain\'s count', async () => {
    const [a, b] = await twoInstances();
    // the first ones for an account, all at once (the row does not exist yet)
    const first = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).allocateNonce(42161, RELAYER, 7n)));
    expect([...first].sort((x, y) => Number(x - y))).toEqual(Array.from({ length: 20 }, (_, i) => 7n + BigInt(i)));
    // then 20 more at once: they go on from the last
    const more = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).allocateNonce(42161, RELAYER.toUpperCase().replace('0X', '0x'), 7n)));
    expect([...more].sort((x, y) => Number(x - y))).toEqual(Array.from({ length: 20 }, (_, i) => 27n + BigInt(i)));
    // the chain counts more (transactions sent from the account elsewhere): never below it
    expect(await store().allocateNonce(42161, RELAYER, 100n)).toBe(100n);
    // the chain counts less (the node has not seen them yet): the recorded one wins
    expect(await store().allocateNonce(42161, RELAYER, 3n)).toBe(101n);
    // each account on each chain counts on its own; nonces beyond 2^64 are kept
    expect(await store().allocateNonce(8453, RELAYER, 0n)).toBe(0n);
    expect(await store().allocateNonce(42161, OTHER_RELAYER, HUGE)).toBe(HUGE);
    expect(await store().allocateNonce(42161, OTHER_RELAYER, 0n)).toBe(HUGE + 1n);
  });

  it('a replacement keeps the nonce; another nonce or another relayer for a sent task is refused', async () => {
    await store().create(newTask(1), T0);
    await store().recordAttempt(hash(1), RELAYER, 9n, attempt(1, 100n, at(1000)), at(1000));
    await store().recordAttempt(hash(1), RELAYER.toLowerCase(), 9n, attempt(2, 150n, at(2000)), at(2000));
    const sent = await store().get(hash(1));
    expect(sent).toMatchObject({ state: 'sent', relayer: RELAYER, relayerNonce: 9n, updatedAt: at(2000) });
    expect(sent!.attempts.map((a) => a.txHash)).toEqual([hash(9002), hash(9001)]);

    await expect(store().recordAttempt(hash(1), RELAYER, 10n, attempt(3, 200n, at(3000)), at(3000))).rejects.toThrow(ConflictError);
    await expect(store().recordAttempt(hash(1), RELAYER, 10n, attempt(3, 200n, at(3000)), at(3000))).rejects.toThrow(/nonce 9 .*nonce 10 .*refused/);
    await expect(store().recordAttempt(hash(1), OTHER_RELAYER, 9n, attempt(3, 200n, at(3000)), at(3000))).rejects.toThrow(ConflictError);
    expect(await store().get(hash(1))).toEqual(sent);
    await expect(store().recordAttempt(hash(404), RELAYER, 1n, attempt(3, 200n, at(3000)), at(3000))).rejects.toThrow(NotFoundError);

    // two instances recording different nonces at once: one wins, the other is refused
    await store().create(newTask(2), T0);
    const [a, b] = await twoInstances();
    const outcomes = await Promise.allSettled([a.recordAttempt(hash(2), RELAYER, 20n, attempt(20, 100n, at(1000)), at(1000)), b.recordAttempt(hash(2), RELAYER, 21n, attempt(21, 100n, at(1000)), at(1000))]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    const task = await store().get(hash(2));
    expect(task!.attempts).toHaveLength(1);
    expect(task!.relayerNonce).toBe(task!.attempts[0]!.txHash === hash(9020) ? 20n : 21n);
  });

  it('the nonces sent tasks hold, by relayer, chain and range: not those of mined, failed or queued tasks', async () => {
    const sent = async (n: number, nonce: bigint, fields: Partial<NewRelayTask> = {}, relayer = RELAYER) => {
      await store().create(newTask(n, fields), T0);
      await store().recordAttempt(hash(n), relayer, nonce, attempt(n, 100n, at(1000)), at(1000));
    };
    await sent(1, 4n);
    await sent(2, 7n);
    await sent(3, 5n);
    await store().markMined(hash(3), hash(9003), true, at(2000));
    await sent(4, 6n);
    await store().markFailed(hash(4), 'deadline passed', at(2000));
    await sent(5, 8n, {}, OTHER_RELAYER);
    await sent(6, 9n, { chainId: 10 });
    await sent(7, 300n); // beyond the range asked: numbers compared as numbers, not text
    await store().create(newTask(8), T0); // queued: no nonce yet
    expect(await store().sentNonces(42161, RELAYER, 0n, 100n)).toEqual([4n, 7n]);
    expect(await store().sentNonces(42161, RELAYER.toLowerCase(), 5n, 7n)).toEqual([]);
    expect(await store().sentNonces(42161, RELAYER, 4n, 301n)).toEqual([4n, 7n, 300n]);
    expect(await store().sentNonces(42161, OTHER_RELAYER, 0n, 100n)).toEqual([8n]);
    expect(await store().sentNonces(10, RELAYER, 0n, 100n)).toEqual([9n]);
  });

  it('mined is final: neither failed, nor mined again, nor sent again; a failed task that is mined after all is mined', async () => {
    await store().create(newTask(1), T0);
    await store().claim(42161, 'a', T0, LEASE, RESEND, 1);
    await store().recordAttempt(hash(1), RELAYER, 3n, attempt(1, 100n, at(1000)), at(1000));
    await store().markMined(hash(1), hash(9001), true, at(2000));
    const mined = await store().get(hash(1));
    expect(mined).toMatchObject({ state: 'mined', minedTxHash: hash(9001), succeeded: true });
    const lease = await engine.shared().db.selectFrom('relay_tasks').select(['claimed_by', 'claimed_until']).where('task_id', '=', hash(1)).executeTakeFirstOrThrow();
    expect(lease).toEqual({ claimed_by: null, claimed_until: null });

    await store().markFailed(hash(1), 'the node said no', at(3000));
    await store().markMined(hash(1), hash(9002), false, at(3000));
    await expect(store().recordAttempt(hash(1), RELAYER, 3n, attempt(2, 200n, at(3000)), at(3000))).rejects.toThrow(/is mined/);
    expect(await store().get(hash(1))).toEqual(mined);

    // failed: its error kept, its lease cleared, claimed no more; a receipt found later makes it mined
    await store().create(newTask(2), T0);
    await store().claim(42161, 'a', T0, LEASE, RESEND, 1);
    await store().markFailed(hash(2), 'relayer balance below the floor', at(1000));
    expect(await store().get(hash(2))).toMatchObject({ state: 'failed', error: 'relayer balance below the floor', updatedAt: at(1000) });
    expect(await store().claim(42161, 'b', at(1000), LEASE, RESEND, 5)).toEqual([]);
    await store().markMined(hash(2), hash(9003), true, at(2000));
    expect(await store().get(hash(2))).toMatchObject({ state: 'mined', minedTxHash: hash(9003), succeeded: true, error: 'relayer balance below the floor' });
  });

  it('a mined task keeps what its transaction cost; the relayer\'s fees and gas add up per integrator, chain and fee token', async () => {
    const minedAt = async (n: number, fields: Partial<NewRelayTask>, gas?: { used: bigint; costWei: bigint }) => {
      await store().create(newTask(n, fields), T0);
      await store().recordAttempt(hash(n), RELAYER, BigInt(n), attempt(n, 100n, at(1000)), at(1000));
      await store().markMined(hash(n), hash(9000 + n), true, at(2000), gas);
    };
    await minedAt(1, { feeAmount: 25_000n }, { used: 210_000n, costWei: 210_000n * 1_000_000_000n });
    await minedAt(2, { feeAmount: 30_000n }, { used: 190_000n, costWei: HUGE });
    await minedAt(3, { integrator: 'other', feeAmount: 7n }, { used: 1n, costWei: 2n });
    await minedAt(4, { integrator: undefined, chainId: 8453, feeAmount: 9n });
    // queued and failed tasks cost nothing and carried no fee yet
    await store().create(newTask(5, { feeAmount: 1_000_000n }), T0);
    await store().create(newTask(6, { feeAmount: 1_000_000n }), T0);
    await store().markFailed(hash(6), 'deadline passed', at(1000));

    expect((await store().get(hash(1)))!.gas).toEqual({ used: 210_000n, costWei: 210_000_000_000_000n });
    expect((await store().get(hash(4)))!.gas).toBeUndefined();
    // by chain, then integrator
    expect(await store().costs()).toEqual([
      { chainId: 8453, feeToken: USDC, tasks: 1, fees: 9n, gasCostWei: 0n },
      { integrator: 'dapp', chainId: 42161, feeToken: USDC, tasks: 2, fees: 55_000n, gasCostWei: 210_000_000_000_000n + HUGE },
      { integrator: 'other', chainId: 42161, feeToken: USDC, tasks: 1, fees: 7n, gasCostWei: 2n },
    ]);
  });
});
