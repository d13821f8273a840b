import { timingSafeEqual } from 'node:crypto';
import { AddressSet } from './ipAddress';
import { hashApiKey, type ApiKeyRecord } from './keys';

/** A known key with its allowlist prepared for matching. */
export interface KnownKey {
  readonly record: ApiKeyRecord;
  /** Undefined when the key may be used from any address. */
  readonly allowlist?: AddressSet;
}

/**
 * Where keys are looked up: the access rules' port (asynchronous, so that a database can sit behind it). The
 * implementations: the database's (src/persistence), and in memory from a key document (API_KEYS, tests).
 */
export interface KeyStore {
  /** The key whose SHA-256 matches the presented key, if any (revoked or expired keys: undefined). */
  authenticate(presented: string): Promise<KnownKey | undefined>;
  /** Every usable key (for listings; never holds a key, only hashes). */
  list(): Promise<readonly KnownKey[]>;
}

/**
 * The key store could not answer (its database is down or not open yet): a presented key can be neither accepted
 * nor refused as unknown. Not the caller's fault; the request may be sent again in a few seconds.
 */
export class KeyStoreUnavailableError extends Error {
  override readonly name = 'KeyStoreUnavailableError';
}

interface Entry {
  readonly digest: Buffer;
  readonly key: KnownKey;
}

/**
 * Keys held in memory as SHA-256 digests. A presented key is hashed, then compared with every digest
 * with crypto.timingSafeEqual and without stopping at a match, so the time taken depends on neither
 * which key matched nor how much of a digest did.
 */
export class StaticKeyStore implements KeyStore {
  private readonly entries: readonly Entry[];

  constructor(records: readonly ApiKeyRecord[]) {
    this.entries = records.map((record) => ({
      digest: Buffer.from(record.sha256, 'hex'),
      key: { record, allowlist: record.ipAllowlist ? new AddressSet(record.ipAllowlist) : undefined },
    }));
  }

  async authenticate(presented: string): Promise<KnownKey | undefined> {
    return this.find(presented);
  }

  /** authenticate, at once (the key file store's reads, src/files/keyStore.ts). */
  find(presented: string): KnownKey | undefined {
    const digest = Buffer.from(hashApiKey(presented), 'hex');
    let found: KnownKey | undefined;
    for (const entry of this.entries) {
      if (timingSafeEqual(entry.digest, digest) && found === undefined) found = entry.key;
    }
    return found;
  }

  async list(): Promise<readonly KnownKey[]> {
    return this.all();
  }

  all(): readonly KnownKey[] {
    return this.entries.map((entry) => entry.key);
  }
}
