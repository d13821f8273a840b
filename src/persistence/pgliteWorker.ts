/**
 * The embedded database's own thread (started by pgliteThread.ts): PGlite opened here, in a worker thread, answering
 * the queries and transactions the service's thread sends it. PGlite runs PostgreSQL in WebAssembly synchronously:
 * opening a folder holds its thread for ~0.4-1 s (~2.3 s for a new folder, where it runs initdb), which on the
 * service's thread would hold every request for as long.
 *
 * With `migrations` (the names of migrations.ts's, from the service's thread), the migrations not yet run are run
 * here once PGlite is open, before `ready`: a dozen statements that would otherwise each cross to the service's
 * thread and back while it starts (listens, warms up), and be answered late. A database that has run exactly these
 * migrations is told by one query, and Kysely's migrator (and Kysely) is loaded only when there is one to run.
 *
 * Messages in: `query` (outside or inside an open transaction), `begin`, `end` (commit or roll back), `close`.
 * Messages out: `ready` or `failed` once, then one answer per message in, by its id.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { errorData, type ThreadRequest } from './pgliteMessages';

/**
 * PostgreSQL's shared buffers (its page cache): PGlite keeps PostgreSQL's default of 128 MB, most of it touched and
 * resident once the database is used; the service's tables (keys, usage per minute, blocks, partners) fit in a
 * fraction of 16 MB. Measured on a folder of the service's size: ~300 MB resident after opening, ~345 after 500
 * writes, against ~185 and ~210 with 16 MB.
 */
const SHARED_BUFFERS = '16MB';

const port = parentPort!;
const { dir, migrations } = workerData as { dir?: string; migrations?: readonly string[] };
const pglite = new PGlite({ dataDir: dir, startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${SHARED_BUFFERS}`] });

/** The transactions open, by id: PGlite's transaction object, how to end it, and PGlite's promise of its end. */
const transactions = new Map<number, { tx: Transaction; end: (commit: boolean) => void; done: Promise<unknown> }>();
let lastTransaction = 0;
/** What ends a transaction's callback without committing (PGlite rolls back when the callback throws). */
const ROLLBACK = new Error('rollback');

pglite.waitReady.then(async () => {
  if (migrations && !(await migrated(migrations))) {
    const { Kysely, PGliteDialect } = require('kysely') as typeof import('kysely');
    const { migrateToLatest } = require('./migrations') as typeof import('./migrations');
    // a Kysely of its own over this PGlite, left as it is afterwards (destroying it would close PGlite)
    await migrateToLatest(new Kysely({ dialect: new PGliteDialect({ pglite }) }));
  }
}).then(
  () => port.postMessage({ kind: 'ready' }),
  (error: unknown) => port.postMessage({ kind: 'failed', error: errorData(error) }),
);

port.on('message', (request: ThreadRequest) => {
  answer(request).then(
    (result) => port.postMessage({ id: request.id, ok: true, result }),
    (error: unknown) => port.postMessage({ id: request.id, ok: false, error: errorData(error) }),
  );
});

async function answer(request: ThreadRequest): Promise<unknown> {
  switch (request.kind) {
    case 'query': {
      const target = request.tx === undefined ? pglite : transactions.get(request.tx)?.tx;
      if (!target) throw new Error(`transaction ${request.tx} is not open`);
      const { rows, affectedRows } = await target.query(request.sql, [...request.params], { rowMode: 'object' });
      return { rows, affectedRows };
    }
    case 'begin':
      return begin();
    case 'end': {
      const open = transactions.get(request.tx);
      if (!open) throw new Error(`transaction ${request.tx} is not open`);
      transactions.delete(request.tx);
      open.end(request.commit);
      try {
        await open.done;
      } catch (error) {
        if (error !== ROLLBACK) throw error;
      }
      return undefined;
    }
    case 'close':
      if (!pglite.closed) await pglite.close();
      setImmediate(() => port.close()); // after this answer: the thread then ends
      return undefined;
  }
}

/** Opens a transaction (PGlite's, which holds the database until it ends) and answers its id once it has begun. */
function begin(): Promise<number> {
  const id = ++lastTransaction;
  return new Promise<number>((begun, failed) => {
    const done = pglite.transaction(
      (tx) =>
        new Promise<void>((resolve, reject) => {
          transactions.set(id, { tx, end: (commit) => (commit ? resolve() : reject(ROLLBACK)), done });
          begun(id);
        }),
    );
    done.catch((error: unknown) => {
      transactions.delete(id);
      failed(error); // ignored once the transaction has begun: its end reports the outcome
    });
  });
}

/**
 * Whether the migrations run on this database (Kysely's table of them) are exactly `names`: then the migrator would
 * run nothing. Any other list (a new database, a migration to run, one this version does not know) goes to it.
 */
async function migrated(names: readonly string[]): Promise<boolean> {
  try {
    const { rows } = await pglite.query<{ name: string }>('select name from kysely_migration order by name');
    return rows.map((row) => row.name).join('\n') === [...names].sort().join('\n');
  } catch {
    return false; // no table of migrations yet
  }
}
