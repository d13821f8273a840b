/**
 * The breaking-change gate: compares openapi.yaml with the last released contract
 * (contract-tests/released/openapi.yaml) and decides whether the change may land.
 *
 * The comparison is api-smart-diff's (it walks both documents with $refs resolved and classifies every change for
 * the side it is on: a narrowed request or a widened response is breaking). Two rules are stricter here than the
 * library's defaults, because an integrator that reads a documented field breaks when it goes, required or not:
 * a response property removed, and a response header removed, are breaking. And the library's verdict on an answer
 * shared through `components/responses` (the error answers) is turned round: it judges those by its request rules.
 *
 * The verdict:
 *   - no change to paths, security or security schemes: passes (descriptions and examples are free to change);
 *   - changes, none breaking: the version must be above the released one and CHANGELOG.md must have its section;
 *   - breaking changes: the major version must be above the released one (the minor for a 0.x contract) and the
 *     version's CHANGELOG.md section must have a `### Breaking` part naming every operation broken (`METHOD /path`);
 *     an operation marked `x-beta: true` may break in a minor version, with its changelog entry;
 *   - a request parameter narrowed to what the service refused anyway (a chain outside the catalog, answered 400
 *     before the contract said so) breaks no integrator that works today: it passes in a minor version when the
 *     section's `### Narrowed to what the service already refused` part names the operation and the parameter
 *     (in backticks); the report lists it apart.
 * The report says, per operation, what breaks and for whom: the integrators that send or read the part, and the
 * ecosystem SDK's functions that call the operation.
 */
import { apiCompare } from 'api-smart-diff';

type Doc = Record<string, unknown> & { info?: { version?: string } };
type Json = Record<string, unknown>;

/** Which `@lifi/sdk` 4 functions call an operation (from the SDK's actions; test/unit/contract checks the table). */
export const SDK_CALLERS: Readonly<Record<string, readonly string[]>> = {
  'GET /v1/chains': ['getChains'],
  'GET /v1/tokens': ['getTokens'],
  'GET /v1/token': ['getToken'],
  'GET /v1/tools': ['getTools'],
  'GET /v1/connections': ['getConnections'],
  'GET /v1/quote': ['getQuote'],
  'GET /v1/quote/toAmount': ['getQuote'],
  'POST /v1/quote/contractCalls': ['getContractCallsQuote'],
  'POST /v1/advanced/routes': ['getRoutes'],
  'POST /v1/advanced/stepTransaction': ['getStepTransaction', 'executeRoute'],
  'GET /v1/status': ['getStatus', 'executeRoute'],
  'GET /v1/gas/suggestion/{chain}': ['getGasRecommendation'],
};

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
}

export interface GateVerdict {
  ok: boolean;
  released: string;
  current: string;
  changes: ContractChange[];
  report: string;
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
    const parameter = (pick(current, released, ['paths', route, method, 'parameters', String(index)], action) ?? {}) as Json;
    const name = `${String(parameter.in ?? '')} parameter ${String(parameter.name ?? `#${index}`)}`.trim();
    const inner = rest.slice(2);
    const place = schemaPlace(inner[0] === 'schema' ? inner.slice(1) : inner).replace(/^field \[\]$/, '');
    const where = place ? `${name} ${place}` : name;
    const what = inner.length === 0 ? `${verb}${parameter.required ? ' (required)' : ''}` : `${lastWord(inner)} ${verb}${values(before, after)}`;
    return { operation, side: 'request', where, what, breaking };
  }
  if (section === 'requestBody') {
    const inner = rest.slice(1);
    const place = schemaPlace(inner.slice(inner.indexOf('schema') + 1));
    const where = inner.includes('schema') ? `request body ${place}`.trim() : `request body ${inner.join('/')}`;
    return { operation, side: 'request', where, what: `${lastWord(inner)} ${verb}${values(before, after)}`, breaking };
  }
  if (section === 'responses') {
    const status = rest[1];
    const inner = rest.slice(2);
    // api-smart-diff 1.0 judges an answer written as `$ref: '#/components/responses/…'` by its request rules: a
    // bound added to an error body comes out breaking and a field gone from it compatible. Such an answer is judged
    // again by the answer's rules, which are the request's turned round.
    const shared = [released, current].some((doc) => typeof (pickRaw(doc, ['paths', route, method, 'responses', status]) as Json | undefined)?.$ref === 'string');
    if (shared && (type === 'breaking' || type === 'non-breaking')) breaking = type === 'non-breaking';
    if (inner.length === 0) {
      return { operation, side: 'response', where: `response ${status}`, what: `response ${verb}`, breaking };
    }
    if (inner[0] === 'headers') {
      // a header is the client's to read: one that goes is breaking, one that comes is not, whatever the library says
      if (inner.length === 2 && (action === 'remove' || action === 'add')) breaking = action === 'remove';
      return { operation, side: 'response', where: `response ${status} header ${inner[1]}`, what: `${inner.length === 2 ? 'header' : lastWord(inner)} ${verb}${values(before, after)}`, breaking };
    }
    const schemaAt = inner.indexOf('schema');
    const schemaPath = schemaAt >= 0 ? inner.slice(schemaAt + 1) : inner;
    // a documented field that goes breaks the integrators that read it, required or not
    if (action === 'remove' && schemaPath.length >= 2 && schemaPath[schemaPath.length - 2] === 'properties') breaking = true;
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

/** `properties/estimate/properties/toAmountMin` → `field estimate.toAmountMin`; items → `[]`; keywords dropped. */
function schemaPlace(schemaPath: string[]): string {
  let field = '';
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

/** Semantic version order; pre-release tags are not used by this contract. */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => v.split('-')[0].split('.').map((part) => Number(part) || 0);
  const [x, y] = [parse(a), parse(b)];
  for (let i = 0; i < 3; i += 1) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

/** The changelog's section for a version: from `## <version>` to the next `## `. */
export function changelogSection(changelog: string, version: string): string | undefined {
  const lines = changelog.split('\n');
  const start = lines.findIndex((line) => new RegExp(`^## \\[?${version.replace(/\./g, '\\.')}\\]?(\\s|$)`).test(line));
  if (start < 0) return undefined;
  const end = lines.findIndex((line, i) => i > start && /^## /.test(line));
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
}

export function gate(released: Doc, current: Doc, changelog: string): GateVerdict {
  const releasedVersion = String(released.info?.version ?? '0.0.0');
  const currentVersion = String(current.info?.version ?? '0.0.0');
  const changes = compareContracts(released, current);
  const problems: string[] = [];
  const section = changelogSection(changelog, currentVersion);
  // a request narrowed to what the service refused anyway breaks no integrator that works today, when the
  // changelog names the operation and the parameter: `GET /v1/token` … `chain`
  const narrowedPart = partOf(section, 'Narrowed to what the service already refused');
  for (const change of changes) {
    const parameter = /parameter (\S+)/.exec(change.where)?.[1];
    if (change.breaking && change.side === 'request' && parameter && names(narrowedPart, change.operation) && narrowedPart.includes(`\`${parameter}\``)) {
      change.acknowledged = true;
    }
  }
  const breaking = changes.filter((c) => c.breaking && !c.acknowledged);
  if (changes.length > 0) {
    if (compareVersions(currentVersion, releasedVersion) <= 0) {
      problems.push(`openapi.yaml changed since the released ${releasedVersion} but info.version is still ${currentVersion}: raise it (minor for additions, major for breaking changes)`);
    }
    if (!section) problems.push(`CHANGELOG.md has no section "## ${currentVersion}" saying what changed`);
  }
  if (breaking.length > 0) {
    const [rMajor, rMinor] = releasedVersion.split('.').map(Number);
    const [cMajor, cMinor] = currentVersion.split('.').map(Number);
    const announced = rMajor === 0 ? cMajor > 0 || cMinor > rMinor : cMajor > rMajor;
    // a beta operation may break in a minor version: the changelog entry alone announces it
    const needMajor = breaking.filter((c) => !isBeta(released, c.operation));
    if (!announced && needMajor.length > 0) {
      problems.push(`${needMajor.length} breaking change(s) in a contract whose version (${currentVersion}) does not announce them: a breaking change needs a new major version (${rMajor === 0 ? `0.${rMinor + 1}.0` : `${rMajor + 1}.0.0`}), or take the change back`);
    }
    const breakingPart = partOf(section, 'Breaking');
    const operations = [...new Set(breaking.map((c) => c.operation))];
    const unnamed = operations.filter((op) => !names(breakingPart, op));
    if (unnamed.length > 0) {
      problems.push(`CHANGELOG.md's "## ${currentVersion}" has no "### Breaking" entry naming ${unnamed.join(', ')}`);
    }
  }
  return { ok: problems.length === 0, released: releasedVersion, current: currentVersion, changes, report: render(releasedVersion, currentVersion, changes, problems) };
}

/** The `### <title>` part of a changelog section ('' when it has none). */
function partOf(section: string | undefined, title: string): string {
  return section?.split(/^### /m).find((part) => part.startsWith(title)) ?? '';
}

/** The text names the operation: `GET /v1/quote` is not named by an entry for `GET /v1/quote/toAmount`. */
function names(text: string, operation: string): boolean {
  return new RegExp(`${operation.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(?![\\w/{}-])`).test(text);
}

/** The operation (`POST /v1/quote/contractCalls`) is marked `x-beta: true` in the contract. */
function isBeta(doc: Doc, operation: string): boolean {
  const [method, route] = operation.split(' ');
  const paths = (doc.paths ?? {}) as Record<string, Json>;
  const op = route && paths[route] ? (paths[route][method.toLowerCase()] as Json | undefined) : undefined;
  return op?.['x-beta'] === true;
}

function render(released: string, current: string, changes: ContractChange[], problems: string[]): string {
  const out: string[] = [`Contract ${current} (openapi.yaml) against the released ${released}:`];
  if (changes.length === 0) out.push('  no change to operations, parameters, bodies, answers or security.');
  const byOperation = new Map<string, ContractChange[]>();
  for (const change of changes) byOperation.set(change.operation, [...(byOperation.get(change.operation) ?? []), change]);
  const breaks = (c: ContractChange) => c.breaking && !c.acknowledged;
  const breakingOps = [...byOperation].filter(([, list]) => list.some(breaks));
  const otherOps = [...byOperation].filter(([, list]) => !list.some(breaks));
  if (breakingOps.length > 0) out.push('', 'BREAKING:');
  for (const [operation, list] of breakingOps) {
    const callers = SDK_CALLERS[operation];
    out.push(`  ${operation}${callers ? `  (called by the ecosystem SDK's ${callers.join(', ')})` : ''}`);
    for (const change of list.filter(breaks)) {
      const whom = change.side === 'request' ? 'breaks integrators that send it' : change.side === 'response' ? 'breaks integrators that read it' : 'breaks every integrator that calls it';
      out.push(`    - ${change.where}: ${change.what}; ${whom}`);
    }
  }
  const acknowledged = changes.filter((c) => c.acknowledged);
  if (acknowledged.length > 0) {
    out.push('', `Narrowed to what the service already refused (CHANGELOG.md says so; no integrator that works today breaks) (${acknowledged.length}):`);
    for (const change of acknowledged) out.push(`  ${change.operation}: ${change.where}: ${change.what}`);
  }
  const additive = [...otherOps, ...breakingOps].flatMap(([, list]) => list.filter((c) => !c.breaking));
  if (additive.length > 0) {
    out.push('', `Compatible changes (${additive.length}):`);
    for (const [operation, list] of [...byOperation]) {
      const compatible = list.filter((c) => !c.breaking);
      if (compatible.length === 0) continue;
      out.push(`  ${operation}`);
      for (const change of compatible) out.push(`    - ${change.where}: ${change.what}`);
    }
  }
  out.push('');
  if (problems.length === 0) out.push('Gate: passed.');
  else out.push('Gate: FAILED', ...problems.map((p) => `  - ${p}`));
  return out.join('\n');
}
