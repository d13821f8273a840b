import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_DATABASE_DIR } from '../../../src/config';
import { databaseOptionsFromEnv, openDatabase } from '../../../src/persistence/database';
import { PROJECT_ROOT } from '../../../src/projectRoot';
import { block, activeBlocks } from '../../../src/persistence/blocks';
import { DatabaseKeyStore } from '../../../src/persistence/databaseKeyStore';
import { createKey, listKeys } from '../../../src/persistence/keys';
import { registerIntegrator, getIntegrator } from '../../../src/persistence/integrators';
import { recordUsage, usageSeries } from '../../../src/persistence/usage';
import { isUniqueViolation } from '../../../src/persistence/errors';
import { appliedMigrations, MIGRATIONS, migrateTo } from '../../../src/persistence/migrations';
import { databaseEngines } from '../../support/postgres';
import { sql } from 'kysely';

const by = { actor: 'test', now: new Date('2025-01-01T00:00:00Z') };

describe('database options from the environment', () => {
  it('DATABASE_URL, else DATABASE_DIR, else .data/db under the project root (git-ignored)', () => {
    expect(databaseOptionsFromEnv({ DATABASE_URL: 'postgres://db.internal/router' })).toEqual({ url: 'postgres://db.internal/router' });
    expect(databaseOptionsFromEnv({ DATABASE_DIR: 'some/where' })).toEqual({ dir: path.resolve('some/where') });
    expect(databaseOptionsFromEnv({ DATABASE_DIR: 'memory://' })).toEqual({ dir: 'memory://' });
    expect(databaseOptionsFromEnv({})).toEqual({ dir: DEFAULT_DATABASE_DIR });
    expect(DEFAULT_DATABASE_DIR).toBe(path.join(PROJECT_ROOT, '.data', 'db'));
    expect(fs.readFileSync(path.join(PROJECT_ROOT, '.gitignore'), 'utf8').split('\n')).toContain('.data/');
    expect(() => databaseOptionsFromEnv({ DATABASE_URL: 'postgres://x/y', DATABASE_DIR: 'z' })).toThrow(/not both/);
  });
});

describe.each(databaseEngines())('the database on $name', (engine) => {
  beforeAll(() => engine.start(), 120_000);
  afterAll(() => engine.stop());

  it('answers ping, says where it lives (never a password), closes twice harmlessly', async () => {
    const database = engine.shared();
    await expect(database.ping()).resolves.toBeUndefined();
    expect(database.engine).toBe(engine.name === 'PGlite' ? 'pglite' : 'postgres');
    expect(database.location).toMatch(engine.name === 'PGlite' ? /^memory$/ : /^postgres:\/\/postgres@127\.0\.0\.1:\d+\/test_\d+$/);
    const other = await engine.open(await engine.newDatabase());
    await other.close();
    await other.close();
    await expect(other.ping()).rejects.toThrow();
  });

  it('a restart loses nothing: keys, integrators, blocks and usage are there after close and reopen', async () => {
    const target = await engine.newDatabase({ reopen: true });
    const first = await engine.open(target);
    await registerIntegrator(first.db, { integratorId: 'acme', feeWallet: '0x552008c0f6870c2f77e5cc1d2eb9bdff03e30ea9' });
    const { key, view } = await createKey(first.db, { name: 'acme backend', integratorId: 'acme', perMinute: 500 }, by);
    await block(first.db, { subject: { kind: 'client', id: '198.51.100.7' }, rule: 'key-spread', reason: 'many keys', actor: 'detector', now: by.now });
    await recordUsage(first.db, [{ subject: { kind: 'key', id: view.id }, operationId: 'getQuote', at: by.now, requests: 7, refused429: 2 }]);
    await first.close();

    const second = await engine.open(target);
    expect(await listKeys(second.db, { now: by.now })).toEqual([view]);
    expect((await new DatabaseKeyStore(second.db).authenticate(key))?.record.id).toBe(view.id);
    expect(await getIntegrator(second.db, 'acme')).toMatchObject({ feeWallet: '0x552008c0F6870C2f77e5cC1d2Eb9bdff03E30Ea9' });
    expect(await activeBlocks(second.db, { kind: 'client', id: '198.51.100.7' }, by.now)).toHaveLength(1);
    expect(await usageSeries(second.db, { subject: { kind: 'key', id: view.id }, from: by.now, to: new Date(by.now.getTime() + 60_000) })).toEqual([
      { at: by.now.toISOString(), requests: 7, refused401: 0, refused403: 0, refused429: 2 },
    ]);
    await second.close();
  });

  if (engine.name === 'PGlite') {
    it('a PGlite folder serves one process: a second open is refused while the first is open, and allowed after', async () => {
      const target = await engine.newDatabase({ reopen: true });
      const first = await engine.open(target);
      await expect(openDatabase(target)).rejects.toThrow(/is in use by process \d+: PGlite serves one process at a time/);
      await first.close();
      const again = await engine.open(target);
      await again.ping();
      await again.close();
    });

    it('PGlite runs in a thread of its own: opening a new folder (initdb) does not hold this thread', async () => {
      const target = await engine.newDatabase({ reopen: true });
      // the longest this thread goes without running a timer while PGlite opens (in this thread: the whole initdb)
      let last = performance.now();
      let longestGap = 0;
      const ticker = setInterval(() => {
        const now = performance.now();
        longestGap = Math.max(longestGap, now - last);
        last = now;
      }, 5);
      const started = performance.now();
      const database = await engine.open(target);
      const openMs = performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 20)); // a stretch that ends with the open is measured by the next tick
      clearInterval(ticker);
      try {
        expect(longestGap).toBeLessThan(Math.max(150, openMs / 3));
      } finally {
        await database.close();
      }
    });

    it('PGlite keeps a 16 MB page cache instead of PostgreSQL\'s 128 MB (the service\'s tables fit; ~110 MB less resident)', async () => {
      const database = await engine.open(await engine.newDatabase());
      try {
        const shown = await sql<{ shared_buffers: string }>`show shared_buffers`.execute(database.db);
        expect(shown.rows[0].shared_buffers).toBe('16MB');
      } finally {
        await database.close();
      }
    });

    it('across the thread: rows and their types, PostgreSQL errors with their SQLSTATE and constraint, transactions committed and rolled back', async () => {
      const database = await engine.open(await engine.newDatabase());
      try {
        const { db } = database;
        const typed = await sql<{ n: number; big: number; at: Date; bytes: Uint8Array; doc: unknown }>`select 1::int as n, 12345678901234::bigint as big, timestamptz '2025-01-01T00:00:00Z' as at, '\\x0102'::bytea as bytes, '{"a":[1,"b"]}'::jsonb as doc`.execute(db);
        expect(typed.rows).toEqual([{ n: 1, big: 12345678901234, at: new Date('2025-01-01T00:00:00Z'), bytes: new Uint8Array([1, 2]), doc: { a: [1, 'b'] } }]);
        await sql`create table t (a int primary key)`.execute(db);
        const violation = await sql`insert into t values (1), (1)`.execute(db).catch((error: unknown) => error);
        expect(isUniqueViolation(violation, 't_pkey')).toBe(true);
        expect((violation as Error).message).toMatch(/duplicate key value violates unique constraint "t_pkey"/);
        await expect(db.transaction().execute(async (tx) => {
          await sql`insert into t values (2)`.execute(tx);
          throw new Error('changed my mind');
        })).rejects.toThrow('changed my mind');
        await db.transaction().execute(async (tx) => {
          await sql`insert into t values (3)`.execute(tx);
        });
        const committed = await sql<{ a: number }>`select a from t order by a`.execute(db);
        expect(committed.rows.map((r) => r.a)).toEqual([3]);
      } finally {
        await database.close();
      }
      await expect(database.ping()).rejects.toThrow();
    });

    it('PGlite is migrated in its own thread as it opens: what a folder lacks is run, a folder up to date is left as it is, one of a later version is refused', async () => {
      const target = await engine.newDatabase({ reopen: true });
      const older = await engine.open({ ...target, migrate: false });
      await migrateTo(older.db, '0001_initial');
      await older.close();
      // the rest are run as it opens, in the database's thread
      const opened = await engine.open(target);
      expect(await appliedMigrations(opened.db)).toEqual(Object.keys(MIGRATIONS).sort());
      await opened.close();
      // up to date: one query tells it, nothing runs
      const again = await engine.open(target);
      expect(await appliedMigrations(again.db)).toEqual(Object.keys(MIGRATIONS).sort());
      await sql`insert into kysely_migration (name, timestamp) values ('9999_later', '2099-01-01T00:00:00Z')`.execute(again.db);
      await again.close();
      // a migration this version does not know: refused as Kysely's migrator refuses it, and the folder released
      await expect(openDatabase(target)).rejects.toThrow(/9999_later/);
      const released = await engine.open({ ...target, migrate: false });
      await released.close();
    });

    it('a lock left by a process that is gone is taken over', async () => {
      const target = await engine.newDatabase({ reopen: true });
      const first = await engine.open(target);
      await first.close();
      // a process id that cannot exist (above Linux's pid_max)
      fs.writeFileSync(path.join(target.dir!, 'xchain-router.pid'), '99999999\n');
      const again = await engine.open(target);
      await again.ping();
      await again.close();
    });
  }
});
