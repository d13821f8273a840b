/**
 * The room that reads files: the embedded data (catalog, snapshot, router deployments), the fee ledger and the API key
 * file. It hands their contents to the core as values (the core reads no file); src/server/dependencies.ts wires it.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DataDocument } from '../core/catalog/documents';

/** The JSON of `file`; a file that cannot be read or parsed becomes the error `fail` makes of the reason. */
export function readJsonFile(file: string, fail: (message: string) => Error): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw fail(`cannot read ${file}: ${(error as Error).message}`);
  }
}

/** `name` in `dir` as a document (its path names it in errors). */
export function readDocument(dir: string, name: string, fail: (message: string) => Error): DataDocument {
  const source = path.join(dir, name);
  return { source, json: readJsonFile(source, fail) };
}
