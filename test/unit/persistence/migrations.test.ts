import { DatabaseKeyStore } from '../../../src/persistence/databaseKeyStore';
import { getKey } from '../../../src/persistence/keys';
import { appliedMigrations, LATEST_MIGRATION, MIGRATIONS, migrateTo, migrateToLatest } from '../../../src/persistence/migrations';
import { activeBlocks } from '../../../src/persistence/blocks';
import { recordUsage, usageSeries } from '../../../src/persistence/usage';
import { hashApiKey } from '../../../src/core/access/keys';
import type { Database } from '../../../src/persistence/database';
import { sql } from 'kysely';
import { databaseEngines } from '../../support/postgres';

const ALL = Object.keys(MIGRATIONS);

async function tableNames(database: Database): Promise<string[]> {
  return (await database.db.introspection.getTables()).map((table) => table.name).sort();
}

describe.each(databaseEngines())('migrations on $name', (engine) => {
  beforeAll(() => engine.start(), 120_000);
  afterAll(() => engine.stop());

  it('has at least two, named in the order they run', () => {
    expect(ALL.length).toBeGreaterThanOrEqual(2);
    expect(ALL).toEqual([...ALL].sort());
    expect(ALL.every((name) => /^\d{4}_[a-z0-9_]+$/.test(name))).toBe(true);
    expect(LATEST_MIGRATION).toBe(ALL.at(-1));
  });

  it('from an empty database to the latest, once; and all the way down again', async () => {
    const database = await engine.open({ ...(await engine.newDatabase()), migrate: false });
    expect(await tableNames(database)).toEqual([]);
    expect(await migrateToLatest(database.db)).toEqual(ALL);
    expect(await tableNames(database)).toEqual([
      'api_keys', 'blocks', 'indexer_cursors', 'integrators', 'key_client_minutes', 'key_events', 'key_imports', 'partners', 'portal_nonces', 'portal_sessions', 'relay_tasks', 'relayer_nonces', 'transfer_events', 'transfers', 'usage_minutes', 'webhook_deliveries', 'webhooks',
    ]);
    expect(await migrateToLatest(database.db)).toEqual([]);
    expect(await appliedMigrations(database.db)).toEqual(ALL);
    expect(await migrateTo(database.db, null)).toEqual([...ALL].reverse());
    expect(await tableNames(database)).toEqual([]);
    expect(await appliedMigrations(database.db)).toEqual([]);
    await expect(migrateTo(database.db, '9999_nothing')).rejects.toThrow(/no migration named "9999_nothing"/);
  });

  it('from the previous version: the data written under 0001 is all there after the latest', async () => {
    const database = await engine.open({ ...(await engine.newDatabase()), migrate: false });
    expect(await migrateTo(database.db, '0001_initial')).toEqual(['0001_initial']);
    expect(await tableNames(database)).not.toContain('usage_minutes');
    // written as the schema of 0001 has it (today's repositories may use later columns)
    const db = database.db;
    await db.insertInto('partners').values({ wallet: '0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea9', name: 'acme' }).execute();
    await db.insertInto('integrators').values({ id: 'acme', fee_wallet: '0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea9' }).execute();
    await db
      .insertInto('api_keys')
      .values({ id: 'key_old', sha256: hashApiKey('svc_old'), name: 'old', integrator_id: 'acme', integrators: null, ip_allowlist: ['203.0.113.0/24'], per_minute: 500, created_at: new Date('2025-01-01T00:00:00Z') })
      .execute();
    await db.insertInto('key_events').values({ key_id: 'key_old', type: 'created', at: new Date('2025-01-01T00:00:00Z'), actor: 'cli:ops', detail: null }).execute();
    await db
      .insertInto('blocks')
      .values({ subject_kind: 'client', subject: '198.51.100.7', rule: 'sustained-429', reason: 'too many 429', since: new Date('2025-01-01T00:00:00Z'), until: null, level: 1, created_by: 'detector' })
      .execute();

    expect(await migrateToLatest(db)).toEqual(ALL.slice(1));
    const now = new Date('2025-01-02T00:00:00Z');
    expect(await getKey(db, 'key_old', now)).toEqual({
      id: 'key_old',
      name: 'old',
      integratorId: 'acme',
      integrators: ['acme'],
      ipAllowlist: ['203.0.113.0/24'],
      perMinute: 500,
      createdAt: '2025-01-01T00:00:00.000Z',
    });
    const store = new DatabaseKeyStore(db, { clock: () => now.getTime() });
    expect((await store.authenticate('svc_old'))?.record).toMatchObject({ id: 'key_old', perMinute: 500 });
    expect(await activeBlocks(db, { kind: 'client', id: '198.51.100.7' }, now)).toEqual([expect.objectContaining({ rule: 'sustained-429', level: 1 })]);
    // and what 0002 added works
    await recordUsage(db, [{ subject: { kind: 'key', id: 'key_old' }, operationId: 'getQuote', at: now, requests: 3 }]);
    expect(await usageSeries(db, { subject: { kind: 'key', id: 'key_old' }, from: now, to: new Date(now.getTime() + 60_000) })).toEqual([
      { at: now.toISOString(), requests: 3, refused401: 0, refused403: 0, refused429: 0 },
    ]);
    // down to 0001 and up again: the later migrations' own data goes, the rest stays
    expect(await migrateTo(db, '0001_initial')).toEqual(ALL.slice(1).reverse());
    expect(await migrateToLatest(db)).toEqual(ALL.slice(1));
    expect(await getKey(db, 'key_old', now)).toMatchObject({ id: 'key_old' });
  });

  it('from 0002: the portal\'s sessions and nonces come with 0003, and go with it, the rest untouched', async () => {
    const database = await engine.open({ ...(await engine.newDatabase()), migrate: false });
    const db = database.db;
    expect(await migrateTo(db, '0002_usage')).toEqual(['0001_initial', '0002_usage']);
    expect(await tableNames(database)).not.toContain('portal_sessions');
    const now = new Date('2025-01-02T00:00:00Z');
    await db.insertInto('api_keys').values({ id: 'key_old', sha256: hashApiKey('svc_old'), name: 'old', integrator_id: null, integrators: null, ip_allowlist: null, per_minute: null, created_at: now }).execute();
    await recordUsage(db, [{ subject: { kind: 'key', id: 'key_old' }, operationId: 'getQuote', at: now, requests: 2 }]);

    expect(await migrateToLatest(db)).toEqual(ALL.slice(2));
    expect(await tableNames(database)).toEqual(expect.arrayContaining(['portal_nonces', 'portal_sessions']));
    const session = {
      id_hash: 'a'.repeat(64), address: '0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea9', chain_id: 42161, csrf_token: 'token',
      created_at: now, expires_at: new Date(now.getTime() + 3_600_000),
    };
    await db.insertInto('portal_sessions').values(session).execute();
    await db.insertInto('portal_nonces').values({ nonce: '0123456789abcdef0123456789abcdef', expires_at: now }).execute();
    // what the columns accept: the SHA-256 of an id (never an id), an address, a positive chain id, a hex nonce
    await expect(db.insertInto('portal_sessions').values({ ...session, id_hash: 'an-id-in-clear' }).execute()).rejects.toThrow(/check constraint/);
    await expect(db.insertInto('portal_sessions').values({ ...session, id_hash: 'b'.repeat(64), address: 'nobody' }).execute()).rejects.toThrow(/check constraint/);
    await expect(db.insertInto('portal_sessions').values({ ...session, id_hash: 'b'.repeat(64), chain_id: 0 }).execute()).rejects.toThrow(/check constraint/);
    await expect(db.insertInto('portal_sessions').values({ ...session }).execute()).rejects.toThrow(/duplicate key/);
    await expect(db.insertInto('portal_nonces').values({ nonce: 'NOT-HEX', expires_at: now }).execute()).rejects.toThrow(/check constraint/);
    const indexes = await sql<{ indexname: string }>`select indexname from pg_indexes where tablename in ('portal_sessions', 'portal_nonces') order by indexname`.execute(db);
    expect(indexes.rows.map((row) => row.indexname)).toEqual(['portal_nonces_by_expiry', 'portal_nonces_pkey', 'portal_sessions_by_expiry', 'portal_sessions_pkey']);
    const [row] = await db.selectFrom('portal_sessions').selectAll().execute();
    expect({ ...row, chain_id: Number(row!.chain_id) }).toEqual(session);

    // down one step: 0003's tables go, 0001's and 0002's data stays; up again: empty tables
    expect(await migrateTo(db, '0002_usage')).toEqual(ALL.slice(2).reverse());
    const tables = await tableNames(database);
    expect(tables).not.toContain('portal_sessions');
    expect(tables).not.toContain('portal_nonces');
    expect(tables).toContain('usage_minutes');
    expect(await getKey(db, 'key_old', now)).toMatchObject({ id: 'key_old' });
    expect(await usageSeries(db, { subject: { kind: 'key', id: 'key_old' }, from: now, to: new Date(now.getTime() + 60_000) })).toEqual([expect.objectContaining({ requests: 2 })]);
    expect(await migrateToLatest(db)).toEqual(ALL.slice(2));
    expect(await db.selectFrom('portal_sessions').selectAll().execute()).toEqual([]);
    expect(await appliedMigrations(db)).toEqual(ALL);
  });

  it('from 0003: integrator ids become unique without regard to case; ids registered before that differ only in case stop the migration, named', async () => {
    const database = await engine.open({ ...(await engine.newDatabase()), migrate: false });
    const db = database.db;
    await migrateTo(db, '0003_portal_sessions');
    const wallet = '0x552008c0F6870C2f77e5cC1d2Eb9bdff03E30Ea9';
    await db.insertInto('partners').values({ wallet, name: null }).execute();
    await db.insertInto('integrators').values({ id: 'alice-dapp', fee_wallet: wallet, created_at: new Date('2025-01-01T00:00:00Z') }).execute();
    await db.insertInto('integrators').values({ id: 'ALICE-DAPP', fee_wallet: wallet, created_at: new Date('2025-01-02T00:00:00Z') }).execute(); // what 0003 let in
    await expect(migrateToLatest(db)).rejects.toThrow(/0004_integrator_ids_folded.*"alice-dapp" and "ALICE-DAPP".*keep the one registered first/);
    expect(await appliedMigrations(db)).toEqual(ALL.slice(0, 3)); // nothing half done

    // the operator removes the impostor: the migration runs, and the index refuses the next one
    await db.deleteFrom('integrators').where('id', '=', 'ALICE-DAPP').execute();
    expect(await migrateToLatest(db)).toEqual(ALL.slice(3));
    await expect(db.insertInto('integrators').values({ id: 'Alice-Dapp', fee_wallet: wallet }).execute()).rejects.toThrow(/duplicate key.*integrators_id_folded/);
    expect(await migrateTo(db, '0003_portal_sessions')).toEqual(ALL.slice(3).reverse());
    await db.insertInto('integrators').values({ id: 'Alice-Dapp', fee_wallet: wallet }).execute(); // the index went with it
  });

  it('from 0004: the transfer index and the indexer\'s cursors come with 0005, one row per sending transaction, and go with it', async () => {
    const database = await engine.open({ ...(await engine.newDatabase()), migrate: false });
    const db = database.db;
    await migrateTo(db, '0004_integrator_ids_folded');
    expect(await migrateTo(db, '0005_transfers')).toEqual(['0005_transfers']);
    const row = {
      chain_id: 42161, tx_hash: `0x${'ab'.repeat(32)}`, block_number: 7, block_hash: `0x${'cd'.repeat(32)}`, started_at: new Date('2026-11-01T00:00:00Z'),
      transfer_id: null, integrator: 'dapp', from_address: null, to_address: null, to_chain_id: null, status: 'DONE' as const, substatus: null, tool: null,
      amount_usd: null, final: true, record: '{}', updated_at: new Date('2026-11-01T00:00:00Z'),
    };
    await db.insertInto('transfers').values(row).execute();
    await expect(db.insertInto('transfers').values(row).execute()).rejects.toThrow(/duplicate key.*transfers_by_transaction/);
    await db.insertInto('transfers').values({ ...row, chain_id: 8453 }).execute(); // the same hash on another chain: another transfer
    await expect(db.insertInto('transfers').values({ ...row, tx_hash: '0x01', status: 'NOT_FOUND' as 'DONE' }).execute()).rejects.toThrow(/check constraint/);
    await db.insertInto('indexer_cursors').values({ chain_id: 42161, next_block: 8 }).execute();
    expect(await migrateTo(db, '0004_integrator_ids_folded')).toEqual(['0005_transfers']);
    const tables = await tableNames(database);
    expect(tables).not.toContain('transfers');
    expect(tables).not.toContain('indexer_cursors');
  });

  it('from 0006: the relayer\'s tasks and nonces come with 0007, one task per signature, and go with it', async () => {
    const database = await engine.open({ ...(await engine.newDatabase()), migrate: false });
    const db = database.db;
    await migrateTo(db, '0006_transfer_events');
    expect(await migrateTo(db, '0007_relay_tasks')).toEqual(['0007_relay_tasks']);
    const now = new Date('2026-11-29T00:00:00Z');
    const task = {
      task_id: `0x${'ab'.repeat(32)}`, chain_id: 42161, owner: '0x552008c0F6870C2f77e5cC1d2Eb9bdff03E30Ea9', permit_nonce: '7', deadline: '1795000000',
      to_address: '0x89c6340B1a1f4b25D36cd8B063D49045caF3f818', data: '0x', gas_limit: '450000', fee_token: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
      fee_amount: String(2n ** 255n), integrator: 'unregistered', step: '{}', state: 'queued' as const, created_at: now, updated_at: now,
    };
    await db.insertInto('relay_tasks').values(task).execute();
    // one signature, one task: the same (chain, owner, nonce) under another id is refused
    await expect(db.insertInto('relay_tasks').values({ ...task, task_id: `0x${'cd'.repeat(32)}` }).execute()).rejects.toThrow(/duplicate key.*relay_tasks_by_permit/);
    await expect(db.insertInto('relay_tasks').values({ ...task, task_id: `0x${'AB'.repeat(32)}`, permit_nonce: '8' }).execute()).rejects.toThrow(/check constraint/);
    await expect(db.insertInto('relay_tasks').values({ ...task, task_id: `0x${'ef'.repeat(32)}`, permit_nonce: '9', state: 'done' as 'queued' }).execute()).rejects.toThrow(/check constraint/);
    // sent without a nonce, mined without a receipt: refused
    await expect(db.updateTable('relay_tasks').set({ state: 'sent' }).execute()).rejects.toThrow(/relay_tasks_sent_has_nonce/);
    await expect(db.updateTable('relay_tasks').set({ state: 'mined' }).execute()).rejects.toThrow(/relay_tasks_mined_has_receipt/);
    const [row] = await db.selectFrom('relay_tasks').select(['fee_amount', 'attempts', 'relayer_nonce']).execute();
    expect(row).toEqual({ fee_amount: String(2n ** 255n), attempts: [], relayer_nonce: null });
    await db.insertInto('relayer_nonces').values({ chain_id: 42161, relayer: '0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf', next_nonce: '0' }).execute();
    await expect(db.insertInto('relayer_nonces').values({ chain_id: 42161, relayer: '0x7E5F4552091A69125d5DfCb7b8C2659029395Bdf', next_nonce: '1' }).execute()).rejects.toThrow(/duplicate key/);
    expect(await migrateTo(db, '0006_transfer_events')).toEqual(['0007_relay_tasks']);
    const tables = await tableNames(database);
    expect(tables).not.toContain('relay_tasks');
    expect(tables).not.toContain('relayer_nonces');
    expect(tables).toContain('transfer_events');
  });

  it('from 0007: a relay task\'s gas used and cost come with 0008, and go with it', async () => {
    const database = await engine.open({ ...(await engine.newDatabase()), migrate: false });
    const db = database.db;
    await migrateTo(db, '0007_relay_tasks');
    const now = new Date('2026-11-29T00:00:00Z');
    await db.insertInto('relay_tasks').values({
      task_id: `0x${'ab'.repeat(32)}`, chain_id: 42161, owner: '0x552008c0F6870C2f77e5cC1d2Eb9bdff03E30Ea9', permit_nonce: '7', deadline: '1795000000',
      to_address: '0x89c6340B1a1f4b25D36cd8B063D49045caF3f818', data: '0x', gas_limit: '450000', fee_token: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
      fee_amount: '25000', integrator: 'dapp', step: '{}', state: 'queued' as const, created_at: now, updated_at: now,
    } as never).execute();
    expect(await migrateTo(db, '0008_relay_task_gas')).toEqual(['0008_relay_task_gas']);
    // the task of before has no cost yet; a negative cost is refused
    expect(await db.selectFrom('relay_tasks').select(['gas_used', 'gas_cost_wei']).executeTakeFirstOrThrow()).toEqual({ gas_used: null, gas_cost_wei: null });
    await db.updateTable('relay_tasks').set({ gas_used: '210000', gas_cost_wei: String(2n ** 255n) }).execute();
    expect(await db.selectFrom('relay_tasks').select(['gas_cost_wei']).executeTakeFirstOrThrow()).toEqual({ gas_cost_wei: String(2n ** 255n) });
    await expect(db.updateTable('relay_tasks').set({ gas_used: '-1' }).execute()).rejects.toThrow(/check constraint/);
    expect(await migrateTo(db, '0007_relay_tasks')).toEqual(['0008_relay_task_gas']);
    const columns = await sql<{ column_name: string }>`select column_name from information_schema.columns where table_name = 'relay_tasks'`.execute(db);
    expect(columns.rows.map((c) => c.column_name)).not.toContain('gas_used');
  });

  it('instances starting together run each migration once', async () => {
    const target = await engine.newDatabase();
    if (target.url) {
      // two pools on one PostgreSQL database, both migrating at open: Kysely's lock lets one do it
      const [a, b] = await Promise.all([engine.open(target), engine.open(target)]);
      expect(await appliedMigrations(a.db)).toEqual(ALL);
      expect(await appliedMigrations(b.db)).toEqual(ALL);
    } else {
      // PGlite has one connection: two migration runs on it at once are queued by it
      const database = await engine.open({ ...target, migrate: false });
      const runs = await Promise.all([migrateToLatest(database.db), migrateToLatest(database.db)]);
      expect(runs.flat().sort()).toEqual(ALL);
      expect(await appliedMigrations(database.db)).toEqual(ALL);
    }
  });
});
