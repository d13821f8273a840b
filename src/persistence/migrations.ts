/**
 * The database's versioned migrations, run by Kysely's Migrator from this module (no migration files read at
 * run time). Both engines run the same ones; openDatabase brings the schema to the latest at open.
 *
 * Adding a change: append a migration named with the next number (`0009_what_it_does`) with `up` and `down`,
 * written with Kysely's schema builder, in the file of its concern (accessMigrations.ts, transferMigrations.ts); never edit one that was released (a database that ran it would not run it
 * again). A migration describes the schema of its time, so it spells out its own values (check lists...)
 * instead of importing today's constants. Kysely records what ran in `kysely_migration`; on PostgreSQL a
 * migration run takes a lock, so instances starting together migrate once, and each run is one transaction.
 */
import type { Kysely } from 'kysely';
import { Migrator, NO_MIGRATIONS, type Migration, type MigrationResultSet } from 'kysely/migration';
import { initial, integratorIdsFolded, portalSessions, usage } from './accessMigrations';
import { relayTaskGas, relayTasks, transferEvents, transfers } from './transferMigrations';

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
