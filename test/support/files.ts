import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A folder of a suite's own files (CHAINS_FILE, FEE_LEDGER_FILE...) under the OS temp dir. */
export interface ScratchDir {
  /** The folder (set once the suite's beforeAll has run). */
  readonly path: string;
  /** Writes `doc` as JSON to `name` in the folder; returns the file's path. */
  writeJson(name: string, doc: unknown): string;
}

/** A scratch folder made in a beforeAll (before those declared after this call) and removed in an afterAll. */
export function useScratchDir(prefix: string): ScratchDir {
  let dir: string | undefined;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  });
  afterAll(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  return {
    get path() {
      if (!dir) throw new Error(`the scratch folder ${prefix}… is made in a beforeAll: use it in a hook or a test`);
      return dir;
    },
    writeJson(name, doc) {
      const file = path.join(this.path, name);
      fs.writeFileSync(file, JSON.stringify(doc));
      return file;
    },
  };
}
