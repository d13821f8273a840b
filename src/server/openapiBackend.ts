/**
 * openapi-backend: routing and validation of every request against openapi.yaml. Its set-up, and every change
 * made to its internals, are here and nowhere else.
 *
 * The changes replace three of its router's methods on the running instance, each with code that gives the same
 * answer for every request this service receives, for a cost paid on every request:
 *
 * 1. `getOperations` returned once built: the library builds the flat list of operations again (a lodash chain
 *    over every path of the definition) on every call, several times per request; the definition never changes
 *    after `init`.
 * 2. `matchOperation` looks up exact paths in a map first: the library filters every operation by path, and
 *    returns the operation of an exact path for the method whenever there is one; only other paths (templates
 *    such as `/v1/gas/prices/{chainId}`) go the library's way.
 * 3. `parseRequestQuery` copies the query without a detour: the library serializes the query with
 *    URLSearchParams (the string is not used when the query is an object) and deep-copies it with lodash's
 *    cloneDeep; the query here is always a record of strings and lists of strings (of numbers and booleans once
 *    coerced), which {@link cloneData} copies the same way. The method is undocumented (public in the typings).
 *
 * Checked against openapi-backend {@link CHECKED_VERSION} (router.js: matchOperation, getOperations,
 * parseRequestQuery). Another major version may change them: {@link createOpenApiBackend} refuses to start with
 * one. After an upgrade within the major version, read router.js again for these three methods, and let the
 * golden answers (test/golden) and the HTTP tests show that nothing changed.
 */
import addFormats from 'ajv-formats';
import { OpenAPIBackend, type Document, type Operation } from 'openapi-backend';

/** The version whose internals the changes below were checked against. */
export const CHECKED_VERSION = '5.21.2';

/** The installed version, as its package says. */
const INSTALLED_VERSION = (require('openapi-backend/package.json') as { version: string }).version;

/** The backend for the contract: strict validation, coercion of query strings to the declared types, ajv formats. */
export function createOpenApiBackend(definition: Document, version: string = INSTALLED_VERSION): OpenAPIBackend {
  requireCheckedMajor(version);
  return new OpenAPIBackend({
    definition,
    strict: true,
    validate: true,
    coerceTypes: true,
    // The contract is checked by `npm run lint:spec` and the examples test; validators compile on an operation's
    // first use, or ahead of it once the service listens (compileValidatorsInTurns: the service does, tests do not).
    quick: true,
    // verbose: a failed check carries its schema and value, so that an unknown chain is told as such (validationMessage.ts)
    // validateSchema false: ajv does not check each operation's schemas against the JSON Schema meta-schema when it
    // compiles them (the contract is checked by `npm run lint:spec` and the tests), a large part of compiling
    ajvOpts: { allErrors: true, strict: false, useDefaults: true, verbose: true, validateSchema: false },
    customizeAjv: (ajv) => {
      addFormats(ajv);
      return ajv;
    },
  });
}

/** Throws when the installed openapi-backend is of another major version than the one the changes were checked against. */
export function requireCheckedMajor(version: string): void {
  const major = (v: string) => v.split('.')[0];
  if (major(version) !== major(CHECKED_VERSION)) {
    throw new Error(
      `openapi-backend ${version} is installed, but src/server/openapiBackend.ts changes the internals of its router as of ${CHECKED_VERSION}: ` +
        'check getOperations, matchOperation and parseRequestQuery in its router.js, then update CHECKED_VERSION',
    );
  }
}

/** Applies the three changes to an initialized backend (after `init`: the definition is final). */
export function patchRouter(api: OpenAPIBackend): void {
  buildOperationsOnce(api);
  matchExactPathsFirst(api);
  cloneQueryCheaply(api);
}

function buildOperationsOnce(api: OpenAPIBackend): void {
  const operations = api.router.getOperations();
  api.router.getOperations = () => operations;
}

function matchExactPathsFirst(api: OpenAPIBackend): void {
  if (api.router.apiRoot !== '/') return;
  const exact = new Map<string, Operation>();
  for (const operation of api.router.getOperations()) {
    if (operation.path.includes('{')) continue;
    // by the method as express gives it (upper case) and as openapi-backend's own calls do (lower case)
    for (const method of [operation.method.toLowerCase(), operation.method.toUpperCase()]) {
      const key = `${method} ${operation.path}`;
      if (!exact.has(key)) exact.set(key, operation);
    }
  }
  const match = api.router.matchOperation.bind(api.router) as (req: Parameters<OpenAPIBackend['router']['matchOperation']>[0], strict?: boolean) => Operation | undefined;
  api.router.matchOperation = ((req: { method: string; path: string }, strict?: boolean) =>
    exact.get(`${req.method} ${req.path}`) ??
    exact.get(`${req.method.trim().toLowerCase()} ${req.path}`) ??
    match(req as Parameters<typeof match>[0], strict)) as OpenAPIBackend['router']['matchOperation'];
}

function cloneQueryCheaply(api: OpenAPIBackend): void {
  const router = api.router as unknown as { parseRequestQuery?: (req: { query?: unknown }) => Record<string, unknown> };
  const original = router.parseRequestQuery;
  if (typeof original !== 'function') throw new Error(`openapi-backend's router has no parseRequestQuery (checked against ${CHECKED_VERSION}): see src/server/openapiBackend.ts`);
  const parse = original.bind(router);
  router.parseRequestQuery = (req) => (typeof req.query === 'object' && req.query !== null ? (cloneData(req.query) as Record<string, unknown>) : parse(req));
}

/** A deep copy of arrays and objects (same prototypes), other values as they are: lodash's cloneDeep for JSON-like data. */
export function cloneData(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cloneData);
  if (value === null || typeof value !== 'object') return value;
  const copy = Object.create(Object.getPrototypeOf(value) as object | null) as Record<string, unknown>;
  for (const key of Object.keys(value)) {
    const item = cloneData((value as Record<string, unknown>)[key]);
    // an own `__proto__` key (a query may have one) stays an own property, as with lodash; `=` would set the prototype
    if (key === '__proto__') Object.defineProperty(copy, key, { value: item, writable: true, enumerable: true, configurable: true });
    else copy[key] = item;
  }
  return copy;
}

/**
 * Compiles the request validators of every operation, one operation per turn of the event loop, so that requests
 * are answered in between (an operation's compiling takes up to ~100 ms, all of them ~0.6 s). openapi-backend
 * compiles an operation's validators on its first request otherwise (`quick`), and keeps them, so this only takes
 * that cost off the first requests; `getRequestValidatorsForOperation` is the public method it calls to do so (an
 * operation compiled already is not compiled again). Resolves with the number of operations.
 */
export async function compileValidatorsInTurns(api: OpenAPIBackend): Promise<number> {
  const operationIds = api.router.getOperations().flatMap((op) => (op.operationId ? [op.operationId] : []));
  for (const operationId of operationIds) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    api.validator.getRequestValidatorsForOperation(operationId);
  }
  return operationIds.length;
}

/** The methods that a path has operations for (the Allow header of a 405), upper case, sorted. */
export function allowedMethods(api: OpenAPIBackend, path: string): string[] {
  const methods = api.router
    .getOperations()
    .filter((op) => api.router.matchOperation({ method: op.method, path, headers: {}, query: {} })?.operationId === op.operationId)
    .map((op) => op.method.toUpperCase());
  return [...new Set(methods)].sort();
}
