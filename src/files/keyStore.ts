/** API keys from a key document on disk (API_KEYS_FILE), re-read when the file changes: the core's KeyStore port. */
import fs from 'node:fs';
import { parseKeyDocument } from '../core/access/keyFile';
import { StaticKeyStore, type KeyStore, type KnownKey } from '../core/access/keyStore';

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
