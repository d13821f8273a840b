/** Deterministic helpers: ordering that does not depend on the locale, address normalisation, JSON text. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { getAddress } from 'ethers';

/** Code-unit string order (never localeCompare, whose result depends on the machine). */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function compareNumbers(a: number, b: number): number {
  return a - b;
}

/** EIP-55 checksum for EVM addresses (lower-cased first, so that a wrongly mixed-case input is repaired
 *  rather than rejected); non-EVM addresses are kept as they are. */
export function normaliseAddress(address: string, isEvm: boolean): string {
  return isEvm ? getAddress(address.toLowerCase()) : address;
}

/** Two-space JSON with a trailing newline. Key order is the construction order of the objects, which the
 *  builders fix explicitly. */
export function toJsonText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

export function sortedUnique<T extends string | number>(values: Iterable<T>): T[] {
  const list = [...new Set(values)];
  return list.sort((a, b) =>
    typeof a === 'number' && typeof b === 'number' ? a - b : compareStrings(String(a), String(b)),
  );
}

/** Positive decimal number written as a plain string ("1", "0.24", "95000.00"). */
export function isPositiveDecimalString(text: string): boolean {
  return /^(0|[1-9][0-9]*)(\.[0-9]+)?$/.test(text) && Number(text) > 0;
}

/**
 * Writes each generated file (path relative to `root` → text) that differs from what is on disk; with `check`,
 * writes nothing and reports each stale file, naming `command` as the way to regenerate it. Returns the number
 * of stale files found in check mode.
 */
export function writeGenerated(root: string, files: Record<string, string>, check: boolean, command: string): number {
  let stale = 0;
  for (const [path, text] of Object.entries(files)) {
    const target = join(root, path);
    let current: string | undefined;
    try {
      current = readFileSync(target, 'utf8');
    } catch {
      current = undefined;
    }
    if (current === text) continue;
    if (check) {
      console.error(`${path} is out of date: run ${command}`);
      stale += 1;
    } else {
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, text);
      console.log(`wrote ${path}`);
    }
  }
  return stale;
}

/** Runs a script's main as the process's exit code; an error is printed as its message. */
/** runScript for a main that answers later. */
export function runScriptAsync(main: (argv: string[]) => Promise<number>): void {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}

export function runScript(main: (argv: string[]) => number): void {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (error: unknown) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  }
}
