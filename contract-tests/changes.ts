/**
 * Every change between two contracts, as api-smart-diff finds them (both documents walked with $refs resolved), named
 * by operation and place and judged breaking or not by the gate's rules (breakingChanges.ts's module comment: a
 * response field or header removed breaks, an error answer added does not, a shared answer's inside is judged by the
 * answer's rules); and the operation ids of the contracts.
 */
import { apiCompare } from 'api-smart-diff';

export type Doc = Record<string, unknown> & { info?: { version?: string } };
export type Json = Record<string, unknown>;

export interface ContractChange {
  /** `GET /v1/quote`, or `security` / `securitySchemes` for changes outside the operations. */
  operation: string;
  side: 'request' | 'response' | 'operation' | 'security';
  /** Readable place: `query parameter fromChain`, `response 200 field estimate.toAmountMin`... */
  where: string;
  what: string;
  breaking: boolean;
  /**
   * A breaking request-side change that CHANGELOG.md's "### Narrowed to what the service already refused" names
   * (its operation and its parameter): the contract now says what the service answered 400 to all along.
   */
  acknowledged?: boolean;
  /** A breaking change that an entry of the version's `### Breaking` part names by operation and place. */
  named?: boolean;
  /** A breaking change against the released contract that the change under review makes (it breaks it since the base). */
  underReview?: boolean;
  /** A change under review that breaks only what no release had (an unreleased addition taken back). */
  unreleased?: boolean;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

export function compareContracts(released: Doc, current: Doc): ContractChange[] {
  const { diffs } = apiCompare(released, current);
  const seen = new Map<string, ContractChange>();
  for (const diff of diffs) {
    const change = describe(diff.path.map(String), diff.action, diff.type, released, current, diff.before, diff.after);
    if (!change) continue;
    const key = `${change.operation}\u0000${change.where}\u0000${change.what}`;
    const known = seen.get(key);
    if (known) known.breaking ||= change.breaking;
    else seen.set(key, change);
  }
  return [...seen.values()];
}

function describe(
  path: string[],
  action: string,
  type: string,
  released: Doc,
  current: Doc,
  before: unknown,
  after: unknown,
): ContractChange | undefined {
  if (type === 'annotation' && !path.includes('deprecated')) return undefined;
  const verb = action === 'add' ? 'added' : action === 'remove' ? 'removed' : action === 'rename' ? 'renamed' : 'changed';
  if (path[0] === 'security' || (path[0] === 'components' && path[1] === 'securitySchemes')) {
    return { operation: 'security', side: 'security', where: path.join('/'), what: `${verb}${values(before, after)}`, breaking: type === 'breaking' };
  }
  if (path[0] !== 'paths' || path.length < 2) return undefined;
  const route = path[1];
  if (path.length === 2) {
    return { operation: route, side: 'operation', where: 'path', what: `path ${verb}`, breaking: type === 'breaking' };
  }
  const method = path[2];
  if (!METHODS.has(method)) {
    // path-level parameters and the like: reported against the path
    return { operation: route, side: 'request', where: path.slice(2).join('/'), what: verb, breaking: type === 'breaking' };
  }
  const operation = `${method.toUpperCase()} ${route}`;
  const rest = path.slice(3);
  if (rest.length === 0) {
    return { operation, side: 'operation', where: 'operation', what: `operation ${verb}`, breaking: type === 'breaking' };
  }
  let breaking = type === 'breaking';
  const [section] = rest;
  if (section === 'parameters') {
    const index = Number(rest[1]);
    // a parameter added or removed is the diff's own value (the index may be the other document's); else the
    // parameter at that index
    const own = (rest.length === 2 ? (action === 'remove' ? before : after) : undefined) as Json | undefined;
    const parameter = (own && typeof own.name === 'string' ? own : pick(current, released, ['paths', route, method, 'parameters', String(index)], action) ?? {}) as Json;
    const name = `${String(parameter.in ?? '')} parameter ${String(parameter.name ?? `#${index}`)}`.trim();
    const inner = rest.slice(2);
    const place = schemaPlace(inner[0] === 'schema' ? inner.slice(1) : inner).replace(/^field \[\]$/, '');
    const where = place ? `${name} ${place}` : name;
    const what = inner.length === 0 ? `${verb}${parameter.required ? ' (required)' : ''}` : `${lastWord(inner)} ${verb}${values(before, after)}`;
    return { operation, side: 'request', where, what, breaking };
  }
  if (section === 'requestBody') {
    const inner = rest.slice(1);
    const schemaPath = inner.slice(inner.indexOf('schema') + 1);
    const required = requiredField(schemaPath, action, before, after);
    if (inner.includes('schema') && required) {
      return { operation, side: 'request', where: `request body ${schemaPlace(schemaPath, required)}`, what: `required status ${verb}`, breaking };
    }
    const place = schemaPlace(schemaPath);
    const where = inner.includes('schema') ? `request body ${place}`.trim() : `request body ${inner.join('/')}`;
    return { operation, side: 'request', where, what: `${lastWord(inner)} ${verb}${values(before, after)}`, breaking };
  }
  if (section === 'responses') {
    const status = rest[1];
    const inner = rest.slice(2);
    // api-smart-diff 1.0 judges the inside of an answer written as `$ref: '#/components/responses/…'` by its
    // request rules: a bound added to an error body comes out breaking and a field gone from it compatible. Such an
    // answer is judged again by the answer's rules, which are the request's turned round (below, after the answer
    // itself, which is judged apart).
    const shared = [released, current].some((doc) => typeof (pickRaw(doc, ['paths', route, method, 'responses', status]) as Json | undefined)?.$ref === 'string');
    if (inner.length === 0) {
      // The answer itself, judged here whatever the library says (it said a shared answer added was breaking, an
      // inline one compatible). A new error answer (4xx, 5xx, `default`) is compatible: a client must handle a
      // status it does not know by its class (RFC 9110 §15; Zalando's guideline 108, "be prepared to handle HTTP
      // status codes not explicitly specified in endpoint definitions"), and an error it did not expect is one the
      // service could always send (a proxy's 502, a 503 in maintenance). A new success or redirect answer is
      // breaking: a client that takes it for its class's x00 reads a body of another shape. An answer removed is
      // breaking: a client that waits for it never gets it.
      if (action === 'add') breaking = !isErrorStatus(status);
      else if (action === 'remove') breaking = true;
      return { operation, side: 'response', where: `response ${status}`, what: `response ${verb}`, breaking };
    }
    if (shared && (type === 'breaking' || type === 'non-breaking')) breaking = type === 'non-breaking';
    if (inner[0] === 'headers') {
      // a header is the client's to read: one that goes is breaking, one that comes is not, whatever the library says
      if (inner.length === 2 && (action === 'remove' || action === 'add')) breaking = action === 'remove';
      return { operation, side: 'response', where: `response ${status} header ${inner[1]}`, what: `${inner.length === 2 ? 'header' : lastWord(inner)} ${verb}${values(before, after)}`, breaking };
    }
    const schemaAt = inner.indexOf('schema');
    const schemaPath = schemaAt >= 0 ? inner.slice(schemaAt + 1) : inner;
    // a documented field that goes breaks the integrators that read it, required or not; a field that comes breaks
    // none (they ignore what they do not know), also in a shared answer, which the turn above got wrong
    const property = schemaPath.length >= 2 && schemaPath[schemaPath.length - 2] === 'properties';
    if (property && action === 'remove') breaking = true;
    if (property && action === 'add') breaking = false;
    // a field made optional (or required) is placed at the field: `estimate.toAmountMin`, not `estimate`
    const required = requiredField(schemaPath, action, before, after);
    if (required) return { operation, side: 'response', where: `response ${status} ${schemaPlace(schemaPath, required)}`, what: `required status ${verb}`, breaking };
    return { operation, side: 'response', where: `response ${status} ${schemaPlace(schemaPath)}`.trim(), what: `${lastWord(schemaPath)} ${verb}${values(before, after)}`, breaking };
  }
  return { operation, side: 'operation', where: rest.join('/'), what: `${verb}${values(before, after)}`, breaking };
}

/** The document a diff's path belongs to: the current one for an addition, the released one for a removal. */
function pick(current: Doc, released: Doc, path: string[], action: string): unknown {
  const read = (doc: Doc) => {
    let node = pickRaw(doc, path);
    // a parameter written as `$ref: '#/components/parameters/...'` is read where it points
    for (let hops = 0; hops < 8 && node && typeof node === 'object' && typeof (node as Json).$ref === 'string'; hops += 1) {
      node = pickRaw(doc, String((node as Json).$ref).replace(/^#\//, '').split('/'));
    }
    return node;
  };
  return action === 'remove' ? read(released) ?? read(current) : read(current) ?? read(released);
}

/** The node at `path` as written (a `$ref` not followed). */
function pickRaw(doc: Doc, path: string[]): unknown {
  return path.reduce<unknown>((at, key) => (at && typeof at === 'object' ? (at as Json)[key] : undefined), doc);
}

/** The property a change of a `required` list adds or removes (`required/3` of `toAmountMin`), if that is the change. */
function requiredField(schemaPath: string[], action: string, before: unknown, after: unknown): string | undefined {
  const at = schemaPath.length - 2;
  if (at < 0 || schemaPath[at] !== 'required' || !/^\d+$/.test(schemaPath[at + 1]) || (at > 0 && schemaPath[at - 1] === 'properties')) return undefined;
  const name = action === 'add' ? after : action === 'remove' ? before : undefined;
  return typeof name === 'string' ? name : undefined;
}

/**
 * `properties/estimate/properties/toAmountMin` → `field estimate.toAmountMin`; items → `[]`; keywords dropped;
 * `then`, a property of the place's object to append (the field whose required status changed).
 */
function schemaPlace(schemaPath: string[], then?: string): string {
  let field = '';
  if (then !== undefined) {
    const place = schemaPlace(schemaPath);
    return `field ${place ? `${place.slice('field '.length)}.` : ''}${then}`;
  }
  for (let i = 0; i < schemaPath.length; i += 1) {
    const key = schemaPath[i];
    if (key === 'properties' && i + 1 < schemaPath.length) {
      field += `${field ? '.' : ''}${schemaPath[i + 1]}`;
      i += 1;
    } else if (key === 'items') field += '[]';
    else if (key === 'required' && i + 1 < schemaPath.length) i += 1;
  }
  return field ? `field ${field}` : '';
}

/** The keyword that changed (`enum`, `required`, `maxLength`...), or `field` when a property itself changed. */
function lastWord(path: string[]): string {
  for (let i = path.length - 1; i >= 0; i -= 1) {
    const key = path[i];
    if (/^\d+$/.test(key)) continue;
    if (i > 0 && path[i - 1] === 'properties') return 'field';
    if (key === 'required') return 'required status';
    if (key === 'enum') return 'allowed value';
    return key;
  }
  return 'value';
}

function values(before: unknown, after: unknown): string {
  const show = (v: unknown) => {
    if (v === undefined || typeof v === 'object') return undefined;
    const text = JSON.stringify(v);
    return text.length > 80 ? `${text.slice(0, 77)}…"` : text;
  };
  const [b, a] = [show(before), show(after)];
  if (b !== undefined && a !== undefined) return ` (${b} → ${a})`;
  if (b !== undefined) return ` (${b})`;
  if (a !== undefined) return ` (${a})`;
  return '';
}

/** A 4xx or 5xx status (`404`, `5XX`) or `default`: an error answer. */
export function isErrorStatus(status: string): boolean {
  return /^[45](\d\d|XX)$/i.test(status) || status === 'default';
}

/** `GET /v1/quote` → `getQuote`, from every contract at hand (an operation removed has its id in the older one). */
export function operationIds(...docs: (Doc | undefined)[]): Map<string, string> {
  const ids = new Map<string, string>();
  for (const doc of docs) {
    for (const [route, item] of Object.entries((doc?.paths ?? {}) as Record<string, Json>)) {
      for (const [method, op] of Object.entries(item ?? {})) {
        const id = METHODS.has(method) ? (op as Json | undefined)?.operationId : undefined;
        const key = `${method.toUpperCase()} ${route}`;
        if (typeof id === 'string' && !ids.has(key)) ids.set(key, id);
      }
    }
  }
  return ids;
}
