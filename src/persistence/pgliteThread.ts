/**
 * PGlite in a thread of its own (pgliteWorker.ts), seen from the service's thread: the part of PGlite's interface
 * that Kysely's PGlite dialect uses (`query`, `transaction`, `waitReady`, `ready`, `closed`, `close`), each call
 * sent to the database's thread and answered from there. PGlite runs PostgreSQL synchronously: in the service's
 * thread, its opening (~0.4 s, ~2.3 s for a new folder) and every query would hold the requests being answered.
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PGlite } from '@electric-sql/pglite';
import { errorFrom, type ThreadMessage, type ThreadRequest } from './pgliteMessages';

/** What a query answers: the rows as objects, and how many rows a write changed. */
export interface ThreadResults {
  readonly rows: unknown[];
  readonly affectedRows?: number;
}

interface Queryable {
  query(sql: string, params?: readonly unknown[]): Promise<ThreadResults>;
}

/** Distributive Omit: each kind of request without the id the thread adds. */
type Unsent<T> = T extends unknown ? Omit<T, 'id'> : never;

/**
 * The worker's file: next to this one, compiled in the production build (dist/, scripts/build.mjs), TypeScript
 * run through tsx otherwise (npm run start:dev, the tests).
 */
function workerFile(): { file: string; execArgv: string[] } {
  const compiled = path.extname(__filename) === '.js';
  return compiled
    ? { file: path.join(__dirname, 'pgliteWorker.js'), execArgv: [] }
    : { file: path.join(__dirname, 'pgliteWorker.ts'), execArgv: ['--require', 'tsx/cjs'] };
}

export class PgliteThread implements Queryable {
  /** Resolves when PGlite has opened its folder (or memory) in its thread, migrated if asked; rejects if it cannot. */
  readonly waitReady: Promise<void>;
  ready = false;
  closed = false;
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private lastId = 0;
  private closing: Promise<void> | undefined;

  /**
   * Starts PGlite in its thread on `dir` (a folder, or undefined for memory); with `migrations` (the names of
   * migrations.ts's), the thread runs those not yet run before it is ready (pgliteWorker.ts).
   */
  constructor(dir: string | undefined, options: { readonly migrations?: readonly string[] } = {}) {
    const { file, execArgv } = workerFile();
    this.worker = new Worker(file, { workerData: { dir, ...(options.migrations ? { migrations: options.migrations } : {}) }, execArgv });
    this.waitReady = new Promise<void>((resolve, reject) => {
      this.worker.on('message', (message: ThreadMessage) => {
        if ('id' in message) {
          const call = this.pending.get(message.id);
          this.pending.delete(message.id);
          if (message.ok) call?.resolve(message.result);
          else call?.reject(errorFrom(message.error));
        } else if (message.kind === 'ready') {
          this.ready = true;
          resolve();
        } else {
          reject(errorFrom(message.error));
        }
      });
      // the thread ended (closed, or failed): nothing in flight will be answered
      const ended = (error: Error) => {
        this.closed = true;
        reject(error);
        for (const call of this.pending.values()) call.reject(error);
        this.pending.clear();
      };
      this.worker.on('error', ended);
      this.worker.on('exit', (code) => ended(new Error(`the database thread ended (exit code ${code})`)));
    });
  }

  query(sql: string, params: readonly unknown[] = []): Promise<ThreadResults> {
    return this.call({ kind: 'query', sql, params }) as Promise<ThreadResults>;
  }

  /** Runs `callback` in a transaction: committed when it resolves, rolled back when it throws. */
  async transaction<T>(callback: (tx: Queryable) => Promise<T>): Promise<T> {
    const tx = (await this.call({ kind: 'begin' })) as number;
    let result: T;
    try {
      result = await callback({ query: (sql, params = []) => this.call({ kind: 'query', sql, params, tx }) as Promise<ThreadResults> });
    } catch (error) {
      await this.call({ kind: 'end', tx, commit: false }).catch(() => undefined);
      throw error;
    }
    await this.call({ kind: 'end', tx, commit: true });
    return result;
  }

  /** Closes PGlite (its folder written and released) and ends its thread; closing twice is harmless. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      if (!this.closed) await this.call({ kind: 'close' }).catch(() => undefined);
      this.closed = true;
      await this.worker.terminate();
    })();
    return this.closing;
  }

  /** This object where Kysely's PGlite dialect takes a PGlite: it uses only the members above. */
  asPglite(): PGlite {
    return this as unknown as PGlite;
  }

  private call(request: Unsent<ThreadRequest>): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('the database is closed'));
    const id = ++this.lastId;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...request, id });
    });
  }
}
