/** Reading the embedded data files (catalog, router deployments, fee ledger). */
import fs from 'node:fs';

/** The JSON of `file`; a file that cannot be read or parsed becomes the error `fail` makes of the reason. */
export function readJsonFile(file: string, fail: (message: string) => Error): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw fail(`cannot read ${file}: ${(error as Error).message}`);
  }
}
