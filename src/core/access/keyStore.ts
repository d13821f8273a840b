import fs from 'node:fs';
import { timingSafeEqual } from 'node:crypto';
import { AddressSet } from './ipAddress';
import { parseKeyDocument } from './keyFile';
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

  /** authenticate, at once (the file store's reads). */
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

export interface FileKeyStoreOptions {
  /** How often, at most, the file's modification is checked (default 2 s). */
  readonly recheckMs?: number;
  readonly clock?: () => number;
  /** Told when a changed file cannot be used (the previous keys stay in force). */
  readonly onReloadError?: (error: Error) => void;
  readonly onReload?: (count: number) => void;
}

/**
 * Keys from a file, re-read when it changes (checked at most every `recheckMs`, on use), so that
 * `npm run keys -- block|revoke` takes effect on a running service within seconds. A file that is
 * invalid at start-up throws; a later invalid version is reported and the previous keys are kept.
 */
export class FileKeyStore implements KeyStore {
  private current: StaticKeyStore;
  private stamp: string;
  private checkedAt: number;
  private lastProblem: string | undefined;
  private readonly recheckMs: number;
  private readonly clock: () => number;

  constructor(
    readonly file: string,
    private readonly options: FileKeyStoreOptions = {},
  ) {
    this.recheckMs = options.recheckMs ?? 2000;
    this.clock = options.clock ?? Date.now;
    this.stamp = statStamp(file);
    this.current = new StaticKeyStore(parseKeyDocument(readFile(file), file).keys);
    this.checkedAt = this.clock();
  }

  async authenticate(presented: string): Promise<KnownKey | undefined> {
    this.refresh();
    return this.current.find(presented);
  }

  async list(): Promise<readonly KnownKey[]> {
    this.refresh();
    return this.current.all();
  }

  /** Re-reads the file if it changed since the last look (and the last look is old enough, unless forced). */
  refresh(force = false): void {
    const now = this.clock();
    if (!force && now - this.checkedAt < this.recheckMs) return;
    this.checkedAt = now;
    let stamp: string;
    try {
      stamp = statStamp(this.file);
    } catch (error) {
      this.report(error as Error);
      return;
    }
    if (stamp === this.stamp) return;
    this.stamp = stamp; // a broken version is reported once, not on every look
    try {
      const keys = parseKeyDocument(readFile(this.file), this.file).keys;
      this.current = new StaticKeyStore(keys);
      this.lastProblem = undefined;
      this.options.onReload?.(keys.length);
    } catch (error) {
      this.report(error as Error);
    }
  }

  private report(error: Error): void {
    if (error.message === this.lastProblem) return;
    this.lastProblem = error.message;
    this.options.onReloadError?.(error);
  }
}

function readFile(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`cannot read the API key file ${file}: ${(error as Error).message}`);
  }
}

function statStamp(file: string): string {
  try {
    const stat = fs.statSync(file);
    return `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  } catch (error) {
    throw new Error(`cannot read the API key file ${file}: ${(error as Error).message}`);
  }
}
