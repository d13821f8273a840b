import { DatabaseKeyStore, getKey } from '../../../src/persistence/keys';
import { appliedMigrations, LATEST_MIGRATION, MIGRATIONS, migrateTo, migrateToLatest } from '../../../src/persistence/migrations';
import { activeBlocks } from '../../../src/persistence/blocks';
import { recordUsage, usageSeries } from '../../../src/persistence/usage';
import { hashApiKey } from '../../../src/core/access/keys';
import type { Database } from '../../../src/persistence/database';
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
    expect(await tableNames(database)).toEqual(['api_keys', 'blocks', 'integrators', 'key_client_minutes', 'key_events', 'key_imports', 'partners', 'usage_minutes']);
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
    // down one step and up again: 0002's own data goes, the rest stays
    expect(await migrateTo(db, '0001_initial')).toEqual(['0002_usage']);
    expect(await migrateToLatest(db)).toEqual(['0002_usage']);
    expect(await getKey(db, 'key_old', now)).toMatchObject({ id: 'key_old' });
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
