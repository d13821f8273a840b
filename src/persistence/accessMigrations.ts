/**
 * Migrations 0001–0004: API keys, clients and their events, usage, portal sessions, integrators. Listed, in order,
 * by MIGRATIONS in migrations.ts; released migrations are never edited.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { oneOf } from './schemaChecks';

export const initial: Migration = {
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

export const usage: Migration = {
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

export const portalSessions: Migration = {
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

export const integratorIdsFolded: Migration = {
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
