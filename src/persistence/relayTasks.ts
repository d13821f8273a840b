/**
 * The gasless relayer's tasks and its accounts' nonces (0007_relay_tasks): `DatabaseRelayTaskStore`, the
 * RelayTaskStore of src/core/relay/tasks.ts, shared by every instance on the database. What holds with several
 * instances on one PostgreSQL (and on PGlite, whose single connection runs one statement at a time):
 *   - one signature makes one task: (chain_id, owner, permit_nonce) is unique, the owner kept checksummed, and a
 *     second create of it is answered with the first task (INSERT ... ON CONFLICT DO NOTHING, then a read), never
 *     an error;
 *   - a task is claimed by one instance at a time: claim leases it (claimed_by, claimed_until) in one UPDATE of the
 *     rows its sub-select locked FOR UPDATE SKIP LOCKED, so two instances claiming at once take different tasks,
 *     and another takes it only when the lease ran out (its holder died) or was released;
 *   - a nonce is handed out once: allocateNonce is one INSERT ... ON CONFLICT DO UPDATE on the account's row, which
 *     PostgreSQL runs one at a time per row;
 *   - a task keeps its relayer and nonce once sent (replacements reuse them), and a mined task is final.
 */
import { getAddress } from 'ethers';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { CreateResult, NewRelayTask, RelayAttempt, RelayCosts, RelayGas, RelayTask, RelayTaskStore } from '../core/relay/tasks';
import { ConflictError, InvalidValueError, NotFoundError } from './errors';
import type { RelayTasksTable, Schema, StoredRelayAttempt } from './schema';

/** The longest error text kept (a node's answer can carry a long revert payload). */
const MAX_ERROR_LENGTH = 2000;
/** How a bigint of the step is written in its JSON (as record.ts writes a transfer's). */
const BIGINT = '$bigint';

export class DatabaseRelayTaskStore implements RelayTaskStore {
  private readonly database: () => Promise<Kysely<Schema>>;

  /** `db`: the database, or a function that gives it once it is open (the service opens it while it starts). */
  constructor(db: Kysely<Schema> | (() => Promise<Kysely<Schema>>)) {
    this.database = typeof db === 'function' ? db : async () => db;
  }

  async create(task: NewRelayTask, now: Date): Promise<CreateResult> {
    const db = await this.database();
    const owner = address(task.owner, 'owner');
    const permitNonce = uint(task.permitNonce, 'permitNonce');
    const row = await db
      .insertInto('relay_tasks')
      .values({
        task_id: task.taskId,
        chain_id: task.chainId,
        owner,
        permit_nonce: permitNonce,
        deadline: seconds(task.deadline),
        to_address: task.to,
        data: task.data,
        gas_limit: uint(task.gasLimit, 'gasLimit'),
        fee_token: task.feeToken,
        fee_amount: uint(task.feeAmount, 'feeAmount'),
        integrator: task.integrator ?? null,
        step: encodeStep(task.step),
        state: 'queued',
        created_at: now,
        updated_at: now,
      })
      // the same signature (or task id) already there: kept as it is, and answered below
      .onConflict((oc) => oc.doNothing())
      .returningAll()
      .executeTakeFirst();
    if (row) return { created: true, task: taskOf(row) };
    const existing =
      (await db.selectFrom('relay_tasks').selectAll().where('chain_id', '=', task.chainId).where('owner', '=', owner).where('permit_nonce', '=', permitNonce).executeTakeFirst()) ??
      (await db.selectFrom('relay_tasks').selectAll().where('task_id', '=', task.taskId).executeTakeFirst());
    // tasks are never removed: a conflict names a row that is there
    if (!existing) throw new Error(`relay task ${task.taskId} was neither inserted nor found`);
    return { created: false, existing: taskOf(existing) };
  }

  async get(taskId: string): Promise<RelayTask | undefined> {
    const db = await this.database();
    const row = await db.selectFrom('relay_tasks').selectAll().where('task_id', '=', taskId.toLowerCase()).executeTakeFirst();
    return row ? taskOf(row) : undefined;
  }

  async claim(chainId: number, instance: string, now: Date, leaseMs: number, resendAfterMs: number, limit: number): Promise<RelayTask[]> {
    const db = await this.database();
    if (limit <= 0) return [];
    const sentBefore = new Date(now.getTime() - resendAfterMs);
    const due = db
      .selectFrom('relay_tasks as due')
      .select('due.task_id')
      .where('due.chain_id', '=', chainId)
      .where((eb) => eb.or([eb('due.state', '=', 'queued'), eb.and([eb('due.state', '=', 'sent'), eb('due.last_sent_at', '<=', sentBefore)])]))
      .where((eb) => eb.or([eb('due.claimed_until', 'is', null), eb('due.claimed_until', '<=', now)]))
      .orderBy('due.created_at')
      .orderBy('due.task_id')
      .limit(limit)
      .forUpdate()
      .skipLocked();
    const rows = await db
      .updateTable('relay_tasks')
      .set({ claimed_by: instance, claimed_until: new Date(now.getTime() + leaseMs) })
      .where('task_id', 'in', due)
      .returningAll()
      .execute();
    // RETURNING follows no order: oldest first, as claimed
    return rows.map(taskOf).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : 0));
  }

  async allocateNonce(chainId: number, relayer: string, chainNonce: bigint): Promise<bigint> {
    const db = await this.database();
    // the first allocation stores chainNonce + 1 and hands out chainNonce; later ones hand out the larger of the
    // stored next nonce and chainNonce, and store it + 1: one statement, the row locked while it runs
    const row = await db
      .insertInto('relayer_nonces')
      .values({ chain_id: chainId, relayer: address(relayer, 'relayer'), next_nonce: uint(chainNonce + 1n, 'chainNonce + 1') })
      .onConflict((oc) =>
        oc.columns(['chain_id', 'relayer']).doUpdateSet((eb) => ({
          next_nonce: eb.fn<string>('greatest', [eb(eb.ref('relayer_nonces.next_nonce'), '+', eb.cast<string>(eb.lit(1), 'numeric')), eb.ref('excluded.next_nonce')]),
        })),
      )
      .returning((eb) => eb(eb.ref('next_nonce'), '-', eb.cast<string>(eb.lit(1), 'numeric')).as('allocated'))
      .executeTakeFirstOrThrow();
    return BigInt(row.allocated);
  }

  async sentNonces(chainId: number, relayer: string, from: bigint, to: bigint): Promise<bigint[]> {
    const db = await this.database();
    const rows = await db
      .selectFrom('relay_tasks')
      .select('relayer_nonce')
      .where('chain_id', '=', chainId)
      .where('relayer', '=', address(relayer, 'relayer'))
      .where('state', '=', 'sent')
      .where('relayer_nonce', '>=', uint(from, 'from'))
      .where('relayer_nonce', '<', uint(to, 'to'))
      .orderBy('relayer_nonce')
      .execute();
    return rows.map((row) => BigInt(row.relayer_nonce!));
  }

  async recordAttempt(taskId: string, relayer: string, relayerNonce: bigint, attempt: RelayAttempt, now: Date): Promise<void> {
    const db = await this.database();
    const account = address(relayer, 'relayer');
    const nonce = uint(relayerNonce, 'relayerNonce');
    const stored: StoredRelayAttempt = {
      txHash: attempt.txHash,
      maxFeePerGas: uint(attempt.maxFeePerGas, 'maxFeePerGas'),
      maxPriorityFeePerGas: uint(attempt.maxPriorityFeePerGas, 'maxPriorityFeePerGas'),
      sentAt: attempt.sentAt.toISOString(),
    };
    const result = await db
      .updateTable('relay_tasks')
      .set((eb) => ({
        state: 'sent',
        relayer: account,
        relayer_nonce: nonce,
        // prepended: the last attempt first
        attempts: eb(eb.cast<string>(eb.val(JSON.stringify([stored])), 'jsonb'), '||', eb.cast<string>(eb.ref('attempts'), 'jsonb')),
        last_sent_at: attempt.sentAt,
        updated_at: now,
      }))
      .where('task_id', '=', taskId)
      .where('state', '<>', 'mined')
      // a replacement keeps the account and nonce of the first attempt (the row's update re-checks this when two
      // instances record at once)
      .where((eb) => eb.or([eb('relayer_nonce', 'is', null), eb.and([eb('relayer_nonce', '=', nonce), eb('relayer', '=', account)])]))
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) > 0) return;
    const task = await this.get(taskId);
    if (!task) throw new NotFoundError(`no relay task ${taskId}`);
    if (task.state === 'mined') throw new ConflictError(`relay task ${taskId} is mined (${task.minedTxHash}): nothing more is sent for it`);
    throw new ConflictError(`relay task ${taskId} was sent with nonce ${task.relayerNonce} of ${task.relayer}: a replacement keeps them (nonce ${relayerNonce} of ${account} refused)`);
  }

  async markMined(taskId: string, txHash: string, succeeded: boolean, now: Date, gas?: RelayGas): Promise<void> {
    const db = await this.database();
    await db
      .updateTable('relay_tasks')
      .set({
        state: 'mined', mined_tx_hash: txHash, succeeded, claimed_by: null, claimed_until: null, updated_at: now,
        ...(gas ? { gas_used: uint(gas.used, 'gas used'), gas_cost_wei: uint(gas.costWei, 'gas cost') } : {}),
      })
      .where('task_id', '=', taskId)
      .where('state', '<>', 'mined')
      .execute();
  }

  async costs(): Promise<RelayCosts[]> {
    const db = await this.database();
    const rows = await db
      .selectFrom('relay_tasks')
      .select((eb) => [
        'integrator', 'chain_id', 'fee_token',
        eb.fn.countAll<number | string>().as('tasks'),
        eb.fn.sum<string | number>('fee_amount').as('fees'),
        eb.fn.coalesce(eb.fn.sum<string | number>('gas_cost_wei'), sql<string>`0`).as('gas_cost_wei'),
      ])
      .where('state', '=', 'mined')
      .groupBy(['integrator', 'chain_id', 'fee_token'])
      .orderBy('chain_id')
      .orderBy('integrator')
      .orderBy('fee_token')
      .execute();
    return rows.map((row) => ({
      ...(row.integrator !== null ? { integrator: row.integrator } : {}),
      chainId: Number(row.chain_id),
      feeToken: row.fee_token,
      tasks: Number(row.tasks),
      fees: BigInt(String(row.fees)),
      gasCostWei: BigInt(String(row.gas_cost_wei)),
    }));
  }

  async markFailed(taskId: string, error: string, now: Date): Promise<void> {
    const db = await this.database();
    await db
      .updateTable('relay_tasks')
      .set({ state: 'failed', error: error.slice(0, MAX_ERROR_LENGTH), claimed_by: null, claimed_until: null, updated_at: now })
      .where('task_id', '=', taskId)
      .where('state', '<>', 'mined')
      .execute();
  }

  async release(taskId: string, instance: string): Promise<void> {
    const db = await this.database();
    await db.updateTable('relay_tasks').set({ claimed_by: null, claimed_until: null }).where('task_id', '=', taskId).where('claimed_by', '=', instance).execute();
  }
}

function taskOf(row: Selectable<RelayTasksTable>): RelayTask {
  return {
    taskId: row.task_id,
    chainId: Number(row.chain_id),
    owner: row.owner,
    permitNonce: BigInt(row.permit_nonce),
    deadline: BigInt(row.deadline),
    to: row.to_address,
    data: row.data,
    gasLimit: BigInt(row.gas_limit),
    feeToken: row.fee_token,
    feeAmount: BigInt(row.fee_amount),
    ...(row.integrator !== null ? { integrator: row.integrator } : {}),
    step: decodeStep(row.step),
    state: row.state,
    ...(row.relayer !== null ? { relayer: row.relayer } : {}),
    ...(row.relayer_nonce !== null ? { relayerNonce: BigInt(row.relayer_nonce) } : {}),
    attempts: row.attempts.map((attempt) => ({
      txHash: attempt.txHash,
      maxFeePerGas: BigInt(attempt.maxFeePerGas),
      maxPriorityFeePerGas: BigInt(attempt.maxPriorityFeePerGas),
      sentAt: new Date(attempt.sentAt),
    })),
    ...(row.mined_tx_hash !== null ? { minedTxHash: row.mined_tx_hash } : {}),
    ...(row.succeeded !== null ? { succeeded: row.succeeded } : {}),
    ...(row.gas_used !== null && row.gas_cost_wei !== null ? { gas: { used: BigInt(row.gas_used), costWei: BigInt(row.gas_cost_wei) } } : {}),
    ...(row.error !== null ? { error: row.error } : {}),
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

/** An address as stored: EIP-55 (one account, one spelling). */
function address(value: string, name: string): string {
  try {
    return getAddress(value);
  } catch {
    throw new InvalidValueError(`${name} must be an address (0x and 40 hex digits), not "${value}"`);
  }
}

/** A uint256 as a numeric(78, 0) column takes it. */
function uint(value: bigint, name: string): string {
  if (value < 0n || value >= 1n << 256n) throw new InvalidValueError(`${name} must be an unsigned 256-bit integer, not ${value}`);
  return value.toString();
}

/** The deadline as a bigint column takes it (unix seconds). */
function seconds(value: bigint): string {
  if (value < 0n || value >= 1n << 63n) throw new InvalidValueError(`deadline must be unix seconds, not ${value}`);
  return value.toString();
}

/** The step as JSON text, its bigints under the marker (undefined: no step, NULL). */
function encodeStep(step: unknown): string | null {
  if (step === undefined) return null;
  return JSON.stringify(step, (_key, value: unknown) => (typeof value === 'bigint' ? { [BIGINT]: value.toString() } : value));
}

/** The step encodeStep wrote, as the drivers read jsonb (parsed), its bigints back as bigints. */
function decodeStep(value: unknown): unknown {
  return value === null ? undefined : revive(value);
}

function revive(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(revive);
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    const [only] = entries;
    if (entries.length === 1 && only![0] === BIGINT && typeof only![1] === 'string') return BigInt(only![1]);
    return Object.fromEntries(entries.map(([key, item]) => [key, revive(item)]));
  }
  return value;
}
