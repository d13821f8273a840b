/**
 * Migrations 0005–0008: the indexer's transfers and their pushed events, the relayer's tasks and what they cost.
 * Listed, in order, by MIGRATIONS in migrations.ts; released migrations are never edited.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { oneOf } from './schemaChecks';

export const transfers: Migration = {
  async up(db: Kysely<any>) {
    // every transfer the indexer found on a chain, keyed by what is unique there: its sending transaction
    await db.schema
      .createTable('transfers')
      .addColumn('seq', 'bigint', (col) => col.primaryKey().generatedAlwaysAsIdentity())
      .addColumn('chain_id', 'bigint', (col) => col.notNull())
      .addColumn('tx_hash', 'text', (col) => col.notNull())
      .addColumn('block_number', 'bigint', (col) => col.notNull())
      .addColumn('block_hash', 'text', (col) => col.notNull())
      .addColumn('started_at', 'timestamptz', (col) => col.notNull())
      .addColumn('transfer_id', 'text')
      .addColumn('integrator', 'text')
      .addColumn('from_address', 'text')
      .addColumn('to_address', 'text')
      .addColumn('to_chain_id', 'bigint')
      .addColumn('status', 'text', (col) => col.notNull().check(oneOf('status', ['PENDING', 'DONE', 'FAILED', 'INVALID'])))
      .addColumn('substatus', 'text')
      .addColumn('tool', 'text')
      .addColumn('amount_usd', 'double precision')
      .addColumn('final', 'boolean', (col) => col.notNull())
      .addColumn('record', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'timestamptz', (col) => col.notNull())
      .addUniqueConstraint('transfers_by_transaction', ['chain_id', 'tx_hash'])
      .execute();
    // the history's filters, newest first (seq breaks ties: a stable order for cursors)
    await db.schema.createIndex('transfers_by_wallet').on('transfers').columns(['from_address', 'started_at', 'seq']).execute();
    await db.schema.createIndex('transfers_to_wallet').on('transfers').columns(['to_address', 'started_at', 'seq']).execute();
    await db.schema.createIndex('transfers_by_integrator').on('transfers').columns(['integrator', 'started_at', 'seq']).execute();
    await db.schema.createIndex('transfers_by_time').on('transfers').columns(['started_at', 'seq']).execute();
    await db.schema.createIndex('transfers_by_transfer_id').on('transfers').column('transfer_id').execute();
    await db.schema.createIndex('transfers_unsettled').on('transfers').columns(['chain_id', 'final']).execute();
    // how far the indexer read each chain, and which instance reads it (a lease it renews)
    await db.schema
      .createTable('indexer_cursors')
      .addColumn('chain_id', 'bigint', (col) => col.primaryKey())
      .addColumn('next_block', 'bigint', (col) => col.notNull())
      .addColumn('last_hash', 'text')
      .addColumn('holder', 'text')
      .addColumn('lease_until', 'timestamptz')
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('indexer_cursors').execute();
    await db.schema.dropTable('transfers').execute();
  },
};

export const transferEvents: Migration = {
  async up(db: Kysely<any>) {
    // each state a transfer of the index took, in the order the indexer saw them: what subscribers and webhooks get
    await db.schema
      .createTable('transfer_events')
      .addColumn('seq', 'bigint', (col) => col.primaryKey().generatedAlwaysAsIdentity())
      .addColumn('chain_id', 'bigint', (col) => col.notNull())
      .addColumn('tx_hash', 'text', (col) => col.notNull())
      .addColumn('transfer_id', 'text')
      .addColumn('integrator', 'text')
      .addColumn('from_address', 'text')
      .addColumn('to_address', 'text')
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('substatus', 'text')
      .addColumn('record', 'text', (col) => col.notNull())
      .addColumn('created_at', 'timestamptz', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('transfer_events_by_transaction').on('transfer_events').columns(['tx_hash', 'seq']).execute();
    await db.schema.createIndex('transfer_events_by_transfer_id').on('transfer_events').columns(['transfer_id', 'seq']).execute();
    await db.schema.createIndex('transfer_events_by_sender').on('transfer_events').columns(['from_address', 'seq']).execute();
    await db.schema.createIndex('transfer_events_by_receiver').on('transfer_events').columns(['to_address', 'seq']).execute();
    await db.schema.createIndex('transfer_events_by_time').on('transfer_events').column('created_at').execute();
    // an integrator's webhook: where its transfers' state changes are posted, signed with the secret
    await db.schema
      .createTable('webhooks')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('integrator_id', 'text', (col) => col.notNull().unique().references('integrators.id').onDelete('cascade'))
      .addColumn('url', 'text', (col) => col.notNull())
      .addColumn('secret', 'text', (col) => col.notNull())
      .addColumn('created_at', 'timestamptz', (col) => col.notNull())
      .addColumn('updated_at', 'timestamptz', (col) => col.notNull())
      .execute();
    // one delivery of one event to one webhook: pending until delivered, or failed once its attempts run out
    await db.schema
      .createTable('webhook_deliveries')
      .addColumn('id', 'bigint', (col) => col.primaryKey().generatedAlwaysAsIdentity())
      .addColumn('webhook_id', 'text', (col) => col.notNull().references('webhooks.id').onDelete('cascade'))
      .addColumn('event_seq', 'bigint', (col) => col.notNull().references('transfer_events.seq').onDelete('cascade'))
      .addColumn('chain_id', 'bigint', (col) => col.notNull())
      .addColumn('tx_hash', 'text', (col) => col.notNull())
      .addColumn('state', 'text', (col) => col.notNull().check(oneOf('state', ['pending', 'delivered', 'failed'])))
      .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'timestamptz', (col) => col.notNull())
      .addColumn('claimed_by', 'text')
      .addColumn('claimed_until', 'timestamptz')
      .addColumn('last_status', 'integer')
      .addColumn('last_error', 'text')
      .addColumn('delivered_at', 'timestamptz')
      .addColumn('created_at', 'timestamptz', (col) => col.notNull())
      .execute();
    await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['state', 'next_attempt_at']).execute();
    await db.schema.createIndex('webhook_deliveries_by_transfer').on('webhook_deliveries').columns(['webhook_id', 'chain_id', 'tx_hash', 'event_seq']).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('webhook_deliveries').execute();
    await db.schema.dropTable('webhooks').execute();
    await db.schema.dropTable('transfer_events').execute();
  },
};

export const relayTasks: Migration = {
  async up(db: Kysely<any>) {
    // the gasless relayer's tasks (src/core/relay/tasks.ts), shared by every instance: one per Permit2 signature
    // (chain, owner, permit nonce: the owner kept checksummed, so one signature cannot make two tasks by its case),
    // leased to the instance sending it (claimed_until: taken over after it, when the instance died). Amounts, gas
    // and nonces are uint256: numeric(78, 0)
    await db.schema
      .createTable('relay_tasks')
      .addColumn('task_id', 'text', (col) => col.primaryKey().check(sql`task_id ~ '^0x[0-9a-f]{64}$'`))
      .addColumn('chain_id', 'bigint', (col) => col.notNull().check(sql`chain_id > 0`))
      .addColumn('owner', 'text', (col) => col.notNull().check(sql`owner ~ '^0x[0-9a-fA-F]{40}$'`))
      .addColumn('permit_nonce', 'numeric(78, 0)', (col) => col.notNull().check(sql`permit_nonce >= 0`))
      .addColumn('deadline', 'bigint', (col) => col.notNull().check(sql`deadline >= 0`))
      .addColumn('to_address', 'text', (col) => col.notNull().check(sql`to_address ~ '^0x[0-9a-fA-F]{40}$'`))
      .addColumn('data', 'text', (col) => col.notNull().check(sql`data ~ '^0x([0-9a-fA-F]{2})*$'`))
      .addColumn('gas_limit', 'numeric(78, 0)', (col) => col.notNull().check(sql`gas_limit > 0`))
      .addColumn('fee_token', 'text', (col) => col.notNull().check(sql`fee_token ~ '^0x[0-9a-fA-F]{40}$'`))
      .addColumn('fee_amount', 'numeric(78, 0)', (col) => col.notNull().check(sql`fee_amount >= 0`))
      // the integrator the fee is booked under, as the step named it (no foreign key: it may be unregistered)
      .addColumn('integrator', 'text')
      .addColumn('step', 'jsonb')
      .addColumn('state', 'text', (col) => col.notNull().check(oneOf('state', ['queued', 'sent', 'mined', 'failed'])))
      .addColumn('relayer', 'text', (col) => col.check(sql`relayer ~ '^0x[0-9a-fA-F]{40}$'`))
      .addColumn('relayer_nonce', 'numeric(78, 0)', (col) => col.check(sql`relayer_nonce >= 0`))
      // every transaction sent, the last first: {txHash, maxFeePerGas, maxPriorityFeePerGas, sentAt}, the fees as
      // decimal strings
      .addColumn('attempts', 'jsonb', (col) => col.notNull().defaultTo(sql`'[]'::jsonb`).check(sql`jsonb_typeof(attempts) = 'array'`))
      .addColumn('mined_tx_hash', 'text', (col) => col.check(sql`mined_tx_hash ~ '^0x[0-9a-fA-F]{64}$'`))
      .addColumn('succeeded', 'boolean')
      .addColumn('error', 'text')
      .addColumn('claimed_by', 'text')
      .addColumn('claimed_until', 'timestamptz')
      .addColumn('last_sent_at', 'timestamptz')
      .addColumn('created_at', 'timestamptz', (col) => col.notNull())
      .addColumn('updated_at', 'timestamptz', (col) => col.notNull())
      .addUniqueConstraint('relay_tasks_by_permit', ['chain_id', 'owner', 'permit_nonce'])
      // a sent task has its relayer's nonce and a time sent; a mined one its transaction and outcome
      .addCheckConstraint('relay_tasks_sent_has_nonce', sql`state <> 'sent' or (relayer is not null and relayer_nonce is not null and last_sent_at is not null)`)
      .addCheckConstraint('relay_tasks_mined_has_receipt', sql`state <> 'mined' or (mined_tx_hash is not null and succeeded is not null)`)
      .execute();
    // claiming reads a chain's queued and sent tasks, oldest first
    await db.schema.createIndex('relay_tasks_claimable').on('relay_tasks').columns(['chain_id', 'state', 'created_at']).execute();
    // the next nonce of each relayer account on each chain, shared by every instance sending from it
    await db.schema
      .createTable('relayer_nonces')
      .addColumn('chain_id', 'bigint', (col) => col.notNull().check(sql`chain_id > 0`))
      .addColumn('relayer', 'text', (col) => col.notNull().check(sql`relayer ~ '^0x[0-9a-fA-F]{40}$'`))
      .addColumn('next_nonce', 'numeric(78, 0)', (col) => col.notNull().check(sql`next_nonce >= 0`))
      .addPrimaryKeyConstraint('relayer_nonces_pkey', ['chain_id', 'relayer'])
      .execute();
  },
  async down(db: Kysely<any>) {
    // the index goes with its table
    await db.schema.dropTable('relayer_nonces').execute();
    await db.schema.dropTable('relay_tasks').execute();
  },
};

export const relayTaskGas: Migration = {
  async up(db: Kysely<any>) {
    // what a mined relay task cost the relayer (its receipt's gas used, and that times its effective gas price, in
    // wei), beside the fee it carried: the relayer's fee and gas per integrator (DatabaseRelayTaskStore.costs)
    await db.schema
      .alterTable('relay_tasks')
      .addColumn('gas_used', 'numeric(78, 0)', (col) => col.check(sql`gas_used >= 0`))
      .addColumn('gas_cost_wei', 'numeric(78, 0)', (col) => col.check(sql`gas_cost_wei >= 0`))
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('relay_tasks').dropColumn('gas_cost_wei').dropColumn('gas_used').execute();
  },
};
