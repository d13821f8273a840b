/**
 * `DatabaseKeyStore`: the access control's view of the keys in the database (the KeyStore port of
 * src/core/access/keyStore.ts), the keys themselves managed by the key repository (keys.ts).
 */
import { LRUCache } from 'lru-cache';
import type { Kysely } from 'kysely';
import { hashApiKey } from '../core/access/keys';
import { KeyStoreUnavailableError, type KeyStore, type KnownKey } from '../core/access/keyStore';
import { keysWithBlockState, toKnownKey } from './keyRows';
import type { Schema } from './schema';

export interface DatabaseKeyStoreOptions {
  /**
   * How long an answer is reused (default 1000 ms): a hot key does not query the database on every request, and a
   * revocation, block or new key made on any instance takes effect here within this time.
   */
  readonly ttlMs?: number;
  /** The most presented keys remembered (default 10,000; least recently used go first). */
  readonly max?: number;
  readonly clock?: () => number;
}

interface Lookup {
  readonly fetchedAt: number;
  readonly found: Promise<{ readonly known: KnownKey; readonly expiresAt?: number } | undefined>;
}

/**
 * The access control's key store: a presented key is hashed and looked up by its SHA-256 (a unique index), one
 * query per key and `ttlMs`; lookups of one key at the same time share that query. Answers, unknown keys included,
 * are remembered by hash for `ttlMs` in a bounded LRU tied to this object. An expiry is checked on every use, so a
 * rotated key stops exactly at the end of its grace period.
 *
 * Looking a hash up in an index, instead of comparing every known hash in constant time, tells an observer of
 * timings at most something about the SHA-256 of what they sent, which they already know.
 */
export class DatabaseKeyStore implements KeyStore {
  private readonly lookups: LRUCache<string, Lookup>;
  private readonly ttlMs: number;
  private readonly clock: () => number;

  constructor(
    private readonly db: Kysely<Schema>,
    options: DatabaseKeyStoreOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 1000;
    this.clock = options.clock ?? Date.now;
    this.lookups = new LRUCache({ max: options.max ?? 10_000 });
  }

  async authenticate(presented: string): Promise<KnownKey | undefined> {
    const digest = hashApiKey(presented);
    const now = this.clock();
    let lookup = this.lookups.get(digest);
    if (!lookup || now - lookup.fetchedAt >= this.ttlMs) {
      // a failed query is the store's failure, not an unknown key (KeyStoreUnavailableError: 503)
      const found = this.find(digest, new Date(now)).catch((error: Error) => {
        throw new KeyStoreUnavailableError(`the keys could not be read: ${error.message}`, { cause: error });
      });
      lookup = { fetchedAt: now, found };
      this.lookups.set(digest, lookup);
      const current = lookup;
      lookup.found.catch(() => {
        if (this.lookups.get(digest) === current) this.lookups.delete(digest); // a failed query is not remembered
      });
    }
    const found = await lookup.found;
    if (!found || (found.expiresAt !== undefined && found.expiresAt <= this.clock())) return undefined;
    return found.known;
  }

  async list(): Promise<readonly KnownKey[]> {
    const now = new Date(this.clock());
    const rows = await usableKeys(this.db, now).orderBy('api_keys.created_at').orderBy('api_keys.id').execute();
    return rows.map(toKnownKey);
  }

  private async find(digest: string, now: Date): Promise<{ known: KnownKey; expiresAt?: number } | undefined> {
    const row = await keysWithBlockState(this.db, now).where('api_keys.sha256', '=', digest).where('api_keys.revoked_at', 'is', null).executeTakeFirst();
    if (!row) return undefined;
    return { known: toKnownKey(row), ...(row.expires_at === null ? {} : { expiresAt: new Date(row.expires_at).getTime() }) };
  }
}

function usableKeys(db: Kysely<Schema>, now: Date) {
  return keysWithBlockState(db, now)
    .where('api_keys.revoked_at', 'is', null)
    .where((eb) => eb.or([eb('api_keys.expires_at', 'is', null), eb('api_keys.expires_at', '>', now)]));
}
