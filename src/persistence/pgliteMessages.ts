/**
 * What the service's thread and the embedded database's thread (pgliteThread.ts, pgliteWorker.ts) send each other.
 * Values cross as structured clones (rows, parameters: strings, numbers, bigints, dates, byte arrays, JSON); an
 * error crosses as its message and fields, so that PostgreSQL's SQLSTATE (`code`) and constraint reach the
 * repositories' checks (errors.ts) as they would from PGlite in the same thread.
 */
export type ThreadRequest = { readonly id: number } & (
  | { readonly kind: 'query'; readonly sql: string; readonly params: readonly unknown[]; readonly tx?: number }
  | { readonly kind: 'begin' }
  | { readonly kind: 'end'; readonly tx: number; readonly commit: boolean }
  | { readonly kind: 'close' }
);

export type ThreadMessage =
  | { readonly kind: 'ready' }
  | { readonly kind: 'failed'; readonly error: ErrorData }
  | { readonly id: number; readonly ok: true; readonly result: unknown }
  | { readonly id: number; readonly ok: false; readonly error: ErrorData };

/** An error's name, message and PostgreSQL fields (code, constraint, detail...): what crosses the thread. */
export interface ErrorData {
  readonly name: string;
  readonly message: string;
  readonly fields: Record<string, string | number>;
}

export function errorData(error: unknown): ErrorData {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(error)) {
    if (typeof value === 'string' || typeof value === 'number') fields[key] = value;
  }
  return { name: error.name, message: error.message, fields };
}

/** The error again, on the receiving side: an Error with the same name, message and fields. */
export function errorFrom(data: ErrorData): Error {
  const error = new Error(data.message);
  Object.defineProperty(error, 'name', { value: data.name, enumerable: false, configurable: true, writable: true });
  return Object.assign(error, data.fields);
}
