/**
 * The database's versioned migrations, run by Kysely's Migrator from this module (no migration files read at
 * run time). Both engines run the same ones; openDatabase brings the schema to the latest at open.
 *
 * Adding a change: append a migration named with the next number (`0004_what_it_does`) with `up` and `down`,
 * written with Kysely's schema builder; never edit one that was released (a database that ran it would not run it
 * again). A migration describes the schema of its time, so it spells out its own values (check lists...)
 * instead of importing today's constants. Kysely records what ran in `kysely_migration`; on PostgreSQL a
 * migration run takes a lock, so instances starting together migrate once, and each run is one transaction.
 */
import { sql, type Kysely } from 'kysely';
import { Migrator, NO_MIGRATIONS, type Migration, type MigrationResultSet } from 'kysely/migration';

/** Checks that a text column holds one of `values`. */
function oneOf(column: string, values: readonly string[]) {
  return sql`${sql.ref(column)} in (${sql.join(values.map((value) => sql.lit(value)))})`;
}

const initial: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('partners')
      .addColumn('wallet', 'text', (col) => col.primaryKey().check(sql`wallet ~ '^0x[0-9a-fA-F]{40}$'`))
      .addColumn('name', 'text')
      .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema
      .createTable('integrators')
      .addColumn('id', 'text', (col) => col.primaryKey().check(sql`id ~ '^[a-zA-Z0-9._-]{1,64}$'`))
      .addColumn('fee_wallet', 'text', (col) => col.notNull().references('partners.wallet'))
      .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('sha256', 'text', (col) => col.notNull().unique().check(sql`sha256 ~ '^[0-9a-f]{64}$'`))
      .addColumn('name', 'text')
      .addColumn('integrator_id', 'text', (col) => col.references('integrators.id'))
      .addColumn('integrators', sql`text[]`)
      .addColumn('ip_allowlist', sql`text[]`)
      .addColumn('per_minute', 'integer', (col) => col.check(sql`per_minute between 1 and 1000000`))
      .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
      .addColumn('expires_at', 'timestamptz')
      .addColumn('revoked_at', 'timestamptz')
      .addColumn('rotated_to', 'text', (col) => col.references('api_keys.id'))
      .execute();
    await db.schema
      .createTable('key_events')
      .addColumn('id', 'integer', (col) => col.primaryKey().generatedAlwaysAsIdentity())
      .addColumn('key_id', 'text', (col) => col.notNull().references('api_keys.id').onDelete('cascade'))
      .addColumn('type', 'text', (col) =>
        col.notNull().check(oneOf('type', ['created', 'imported', 'renamed', 'rotated', 'revoked', 'blocked', 'unblocked', 'allowlist-changed', 'limit-changed', 'integrators-changed'])),
      )
      .addColumn('at', 'timestamptz', (col) => col.notNull())
      .addColumn('actor', 'text', (col) => col.notNull())
      .addColumn('detail', 'jsonb')
      .execute();
    await db.schema.createIndex('key_events_by_key').on('key_events').columns(['key_id', 'at']).execute();
    await db.schema
      .createTable('blocks')
      .addColumn('id', 'integer', (col) => col.primaryKey().generatedAlwaysAsIdentity())
      .addColumn('subject_kind', 'text', (col) => col.notNull().check(oneOf('subject_kind', ['key', 'client'])))
      .addColumn('subject', 'text', (col) => col.notNull())
      .addColumn('rule', 'text', (col) => col.notNull())
      .addColumn('reason', 'text', (col) => col.notNull())
      .addColumn('since', 'timestamptz', (col) => col.notNull())
      .addColumn('until', 'timestamptz')
      .addColumn('level', 'integer', (col) => col.notNull().check(sql`level >= 1`))
      .addColumn('created_by', 'text', (col) => col.notNull())
      .addColumn('lifted_at', 'timestamptz')
      .addColumn('lifted_by', 'text')
      .execute();
    await db.schema
      .createTable('key_imports')
      .addColumn('id', 'integer', (col) => col.primaryKey().generatedAlwaysAsIdentity())
      .addColumn('source', 'text', (col) => col.notNull())
      .addColumn('content_sha256', 'text', (col) => col.notNull().unique())
      .addColumn('key_count', 'integer', (col) => col.notNull())
      .addColumn('imported_at', 'timestamptz', (col) => col.notNull())
      .execute();
  },
  async down(db: Kysely<any>) {
    for (const table of ['key_imports', 'blocks', 'key_events', 'api_keys', 'integrators', 'partners']) {
      await db.schema.dropTable(table).execute();
    }
  },
};

const usage: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('usage_minutes')
      .addColumn('subject_kind', 'text', (col) => col.notNull().check(oneOf('subject_kind', ['key', 'client'])))
      .addColumn('subject', 'text', (col) => col.notNull())
      .addColumn('operation_id', 'text', (col) => col.notNull())
      .addColumn('minute', 'timestamptz', (col) => col.notNull())
      .addColumn('requests', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('refused_401', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('refused_403', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('refused_429', 'integer', (col) => col.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('usage_minutes_pkey', ['subject_kind', 'subject', 'operation_id', 'minute'])
      .execute();
    // which keys each client address presented, per minute: what the blocking rules that look at keys and
    // addresses together count (several keys from one address, a key from addresses outside its allowlist)
    await db.schema
      .createTable('key_client_minutes')
      .addColumn('key_id', 'text', (col) => col.notNull())
      .addColumn('client_id', 'text', (col) => col.notNull())
      .addColumn('minute', 'timestamptz', (col) => col.notNull())
      .addColumn('requests', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('refused_429', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('outside_allowlist', 'integer', (col) => col.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('key_client_minutes_pkey', ['key_id', 'client_id', 'minute'])
      .execute();
    await db.schema.createIndex('key_client_minutes_by_minute').on('key_client_minutes').column('minute').execute();
    // a subject's series over time reads (subject, minute); removing old minutes reads minute alone
    await db.schema.createIndex('usage_minutes_by_subject').on('usage_minutes').columns(['subject_kind', 'subject', 'minute']).execute();
    await db.schema.createIndex('usage_minutes_by_minute').on('usage_minutes').column('minute').execute();
    // every authentication asks for the key's blocks that are not lifted
    await db.schema.createIndex('blocks_not_lifted').on('blocks').columns(['subject_kind', 'subject']).where(sql.ref('lifted_at'), 'is', null).execute();
    await db.schema.createIndex('api_keys_by_integrator').on('api_keys').column('integrator_id').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropIndex('api_keys_by_integrator').execute();
    await db.schema.dropIndex('blocks_not_lifted').execute();
    await db.schema.dropTable('key_client_minutes').execute();
    await db.schema.dropTable('usage_minutes').execute();
  },
};

const portalSessions: Migration = {
  async up(db: Kysely<any>) {
    // the partner portal's sessions, shared by every instance on the database: found by the SHA-256 of the id the
    // browser's cookie holds (never the id itself, so that what is stored cannot be presented as a cookie)
    await db.schema
      .createTable('portal_sessions')
      .addColumn('id_hash', 'text', (col) => col.primaryKey().check(sql`id_hash ~ '^[0-9a-f]{64}$'`))
      .addColumn('address', 'text', (col) => col.notNull().check(sql`address ~ '^0x[0-9a-fA-F]{40}$'`))
      .addColumn('chain_id', 'bigint', (col) => col.notNull().check(sql`chain_id > 0`))
      .addColumn('csrf_token', 'text', (col) => col.notNull())
      .addColumn('created_at', 'timestamptz', (col) => col.notNull())
      .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
      .execute();
    // the Sign-In with Ethereum nonces issued and not used yet, each taken out once
    await db.schema
      .createTable('portal_nonces')
      .addColumn('nonce', 'text', (col) => col.primaryKey().check(sql`nonce ~ '^[0-9a-f]{32}$'`))
      .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
      .execute();
    // removing expired rows reads expires_at alone
    await db.schema.createIndex('portal_sessions_by_expiry').on('portal_sessions').column('expires_at').execute();
    await db.schema.createIndex('portal_nonces_by_expiry').on('portal_nonces').column('expires_at').execute();
  },
  async down(db: Kysely<any>) {
    // their indexes go with them
    await db.schema.dropTable('portal_nonces').execute();
    await db.schema.dropTable('portal_sessions').execute();
  },
};

const integratorIdsFolded: Migration = {
  async up(db: Kysely<any>) {
    // integrator ids are unique without regard to case (`ALICE-DAPP` beside `alice-dapp` is an impersonation). Ids
    // registered before this migration may already differ only in case: which one is genuine is for an operator to
    // decide (keys and fees hang on both), so the migration stops, naming them, rather than choosing
    const { rows } = await sql<{ ids: string[] }>`select array_agg(id order by created_at, id) as ids from integrators group by lower(id) having count(*) > 1`.execute(db);
    if (rows.length > 0) {
      const groups = rows.map((row) => row.ids.map((id) => `"${id}"`).join(' and ')).join('; ');
      throw new Error(`integrator ids that differ only in case are registered: ${groups}. Ids must be unique without regard to case: keep the one registered first (listed first), remove or rename the others (with their keys), then start again`);
    }
    await db.schema.createIndex('integrators_id_folded').on('integrators').unique().expression(sql`lower(id)`).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropIndex('integrators_id_folded').execute();
  },
};

const transfers: Migration = {
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

const transferEvents: Migration = {
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

const relayTasks: Migration = {
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

const relayTaskGas: Migration = {
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

/** Every migration, by name; names sort in the order they run. */
export const MIGRATIONS: Readonly<Record<string, Migration>> = Object.freeze({
  '0001_initial': initial,
  '0002_usage': usage,
  '0003_portal_sessions': portalSessions,
  '0004_integrator_ids_folded': integratorIdsFolded,
  '0005_transfers': transfers,
  '0006_transfer_events': transferEvents,
  '0007_relay_tasks': relayTasks,
  '0008_relay_task_gas': relayTaskGas,
});

export const LATEST_MIGRATION = Object.keys(MIGRATIONS).sort().at(-1)!;

function migrator(db: Kysely<any>): Migrator {
  return new Migrator({ db, provider: { getMigrations: async () => ({ ...MIGRATIONS }) } });
}

/** Runs every migration not yet run; returns the names run (none when the schema is current). */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  return outcome(await migrator(db).migrateToLatest());
}

/**
 * Brings the schema to `name`, up or down (`null`: before the first migration, an empty schema); returns the
 * names run. For tests and for undoing a release by hand.
 */
export async function migrateTo(db: Kysely<any>, name: string | null): Promise<string[]> {
  if (name !== null && !(name in MIGRATIONS)) throw new Error(`no migration named "${name}" (known: ${Object.keys(MIGRATIONS).join(', ')})`);
  return outcome(await migrator(db).migrateTo(name ?? NO_MIGRATIONS));
}

/** The names of the migrations run on this database, in order. */
export async function appliedMigrations(db: Kysely<any>): Promise<string[]> {
  const migrations = await migrator(db).getMigrations();
  return migrations.filter((migration) => migration.executedAt !== undefined).map((migration) => migration.name);
}

function outcome({ error, results = [] }: MigrationResultSet): string[] {
  if (error !== undefined) {
    const failed = results.find((result) => result.status === 'Error');
    const cause = error instanceof Error ? error.message : String(error);
    const which = failed ? ` ${failed.migrationName} (${failed.direction.toLowerCase()})` : '';
    throw new Error(`database migration${which} failed: ${cause}`, { cause: error });
  }
  return results.filter((result) => result.status === 'Success').map((result) => result.migrationName);
}
