import type { Operation } from 'openapi-backend';
import type { ValidationIssue } from './validationMessage';

/**
 * What the service does with parts of a request that the contract does not declare (docs/integrating.md, "Parameters the
 * service does not know"): the ecosystem's clients add optional parameters in new releases, and an integration
 * must not break the day its client is upgraded.
 *
 * - A query parameter that the operation does not declare, and a body field that the operation's schema does not
 *   name, is ignored: the answer is the one the request gets without it (the response cache sees the request
 *   without it too). Its name is returned in the `x-ignored-parameters` response header, so that a typo in an
 *   optional parameter is visible to whoever looks.
 * - Everything declared is validated strictly. A misspelt *required* parameter leaves the required one missing:
 *   400 naming it, and {@link didYouMean} adds the ignored name that looks like it.
 */
export const IGNORED_PARAMETERS_HEADER = 'x-ignored-parameters';

/** Declared query parameters of an operation, and those given as indexed objects (`name[0][field]=…`). */
export interface QueryParameterNames {
  readonly declared: ReadonlySet<string>;
  /** Declared parameters whose schema is an array of objects: the SDK sends them in qs's indexed notation. */
  readonly indexedObjects: ReadonlySet<string>;
}

export function queryParameterNames(operation: Operation): QueryParameterNames {
  const declared = new Set<string>();
  const indexedObjects = new Set<string>();
  for (const parameter of operation.parameters ?? []) {
    const p = parameter as { in?: string; name?: string; schema?: { type?: string; items?: { type?: string } } };
    if (p.in !== 'query' || !p.name) continue;
    declared.add(p.name);
    if (p.schema?.type === 'array' && p.schema.items?.type === 'object') indexedObjects.add(p.name);
  }
  return { declared, indexedObjects };
}

const INDEXED_KEY = /^([A-Za-z0-9_]+)\[(\d{1,3})\]\[([A-Za-z0-9_]+)\]$/;

/**
 * The query as the operation declares it: undeclared keys left out (and named in `ignored`), keys in qs's indexed
 * notation (`distributionFees[0][percentage]=0.01`) gathered into an array of objects when their parameter is an
 * array of objects. Returns the same object when there is nothing to change.
 */
export function declaredQuery(query: Record<string, unknown>, names: QueryParameterNames): { query: Record<string, unknown>; ignored: string[] } {
  let result: Record<string, unknown> | undefined;
  const ignored: string[] = [];
  for (const key of Object.keys(query)) {
    if (names.declared.has(key)) continue;
    result ??= { ...query };
    delete result[key];
    const indexed = INDEXED_KEY.exec(key);
    if (indexed && names.indexedObjects.has(indexed[1]) && typeof query[key] === 'string') {
      const [, name, index, field] = indexed;
      const list = (Array.isArray(result[name]) ? result[name] : (result[name] = [])) as Record<string, unknown>[];
      (list[Number(index)] ??= {})[field] = query[key];
      continue;
    }
    ignored.push(key);
  }
  if (!result) return { query, ignored };
  // an index left out (distributionFees[1] without [0]) is an empty entry, which validation then refuses
  for (const name of names.indexedObjects) {
    const list = result[name];
    if (Array.isArray(list)) result[name] = Array.from(list, (entry) => entry ?? {});
  }
  return { query: result, ignored };
}

/** The parts of a JSON schema that the service looks at in request bodies. */
export interface SchemaLike {
  type?: string;
  properties?: Record<string, SchemaLike>;
  additionalProperties?: boolean | SchemaLike;
  items?: SchemaLike;
  allOf?: SchemaLike[];
  oneOf?: SchemaLike[];
  anyOf?: SchemaLike[];
}

/** The JSON schema of an operation's request body (dereferenced by openapi-backend), if it has one. */
export function bodySchema(operation: Operation): SchemaLike | undefined {
  const body = operation.requestBody as { content?: Record<string, { schema?: SchemaLike }> } | undefined;
  return body?.content?.['application/json']?.schema;
}

/**
 * Removes from a parsed JSON body, in place, every field that its schema does not name (an object schema with
 * `properties` and no `additionalProperties`), and returns their JSON pointers. Fields under
 * `additionalProperties: true` or a schema of their own, and anything under oneOf/anyOf, are left as they are.
 */
export function removeUndeclaredFields(value: unknown, schema: SchemaLike | undefined, pointer = ''): string[] {
  if (!schema || value === null || typeof value !== 'object') return [];
  if (Array.isArray(value)) return schema.items ? value.flatMap((item, i) => removeUndeclaredFields(item, schema.items, `${pointer}/${i}`)) : [];
  if (schema.oneOf || schema.anyOf) return [];
  const properties: Record<string, SchemaLike> = { ...schema.properties };
  let additional = schema.additionalProperties;
  for (const part of schema.allOf ?? []) {
    Object.assign(properties, part.properties);
    additional ??= part.additionalProperties;
  }
  if (!schema.properties && !schema.allOf) return [];
  const removed: string[] = [];
  const object = value as Record<string, unknown>;
  for (const key of Object.keys(object)) {
    const path = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (Object.prototype.hasOwnProperty.call(properties, key)) removed.push(...removeUndeclaredFields(object[key], properties[key], path));
    else if (additional === true) continue;
    else if (additional && typeof additional === 'object') removed.push(...removeUndeclaredFields(object[key], additional, path));
    else {
      delete object[key];
      removed.push(path);
    }
  }
  return removed;
}

/** At most this many ignored names in the header (the rest counted): a URL may carry thousands. */
const MAX_IGNORED_NAMES = 20;

/** The x-ignored-parameters value: names percent-encoded (a header holds ASCII only), comma-separated. */
export function ignoredHeader(ignored: readonly string[]): string {
  const shown = ignored.slice(0, MAX_IGNORED_NAMES).map((name) => encodeURIComponent(name.slice(0, 100)).replace(/%2F/g, '/'));
  if (ignored.length > MAX_IGNORED_NAMES) shown.push(`(${ignored.length - MAX_IGNORED_NAMES} more)`);
  return shown.join(', ');
}

/**
 * A required parameter (or body field) that is missing while an ignored one of a similar name was sent: the
 * message says which one was probably meant.
 */
export function withMisspellings(issues: ValidationIssue[], ignored: readonly string[]): ValidationIssue[] {
  if (ignored.length === 0) return issues;
  return issues.map((issue) => {
    if (issue.rule !== 'required') return issue;
    const isBody = issue.in === 'body';
    const slash = issue.name.lastIndexOf('/');
    const parent = isBody ? issue.name.slice(0, slash + 1) : '';
    const candidates = ignored.filter((name) => name.startsWith('/') === isBody && (!isBody || name.slice(0, name.lastIndexOf('/') + 1) === parent));
    const guess = didYouMean(isBody ? issue.name.slice(slash + 1) : issue.name, candidates.map((name) => (isBody ? name.slice(parent.length) : name)));
    return guess === undefined ? issue : { ...issue, message: `${issue.message} (${isBody ? `${parent}${guess}` : guess} was sent instead, which this operation does not know: a misspelling?)` };
  });
}

/**
 * For a required parameter that is missing, the ignored name that is most likely a misspelling of it (the same
 * letters in another case, or at most two edits away), if any.
 */
export function didYouMean(missing: string, ignored: readonly string[]): string | undefined {
  const target = missing.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const name of ignored) {
    const distance = editDistance(target, name.toLowerCase());
    if (distance <= Math.min(2, Math.floor(target.length / 3)) && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** Edit distance counting insertions, deletions, substitutions and swaps of neighbours (optimal string alignment). */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j += 1) d[0][j] = j;
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}
