/**
 * The breaking-change gate: compares openapi.yaml with the last released contract
 * (contract-tests/released/openapi.yaml) and with the contract the change under review started from (its base,
 * chosen by contract-tests/base.ts), and decides whether the change may land.
 *
 * The comparison is api-smart-diff's (it walks both documents with $refs resolved and classifies every change for
 * the side it is on: a narrowed request or a widened response is breaking). Some rules are set here instead of the
 * library's defaults:
 *   - an integrator that reads a documented field breaks when it goes, required or not: a response property
 *     removed, and a response header removed, are breaking; a property or a header added is not;
 *   - an answer added to an operation is compatible when it is an error (4xx, 5xx, `default`: clients handle a
 *     status they do not know by its class, RFC 9110 §15, as the API style guides ask of them) and breaking when it
 *     is a success or a redirect; an answer removed is breaking;
 *   - the library judges the inside of an answer shared through `components/responses` (the error answers) by its
 *     request rules: its verdict there is turned round.
 *
 * The verdict:
 *   - no change to paths, security or security schemes: passes (descriptions and examples are free to change);
 *   - changes, none breaking: the version must be above the released one and CHANGELOG.md must have its section;
 *   - breaking changes: the major version must be above the released one (the minor for a 0.x contract) and the
 *     version's CHANGELOG.md section must have a `### Breaking` part with, for every breaking change since the
 *     release, an entry naming its operation and its place (`- \`GET /v1/quote\`, \`postRoutes\`: response 200
 *     \`estimate.toAmountMin\` removed`; the convention is `namesPlace`'s, written in CHANGELOG.md's header). So a
 *     second break in a major version in flight is not covered by the first one's entry: it needs its own line.
 *     An operation marked `x-beta: true` may break in a minor version, with its changelog entry;
 *   - a request parameter narrowed to what the service refused anyway (a chain outside the catalog, answered 400
 *     before the contract said so) breaks no integrator that works today: it passes in a minor version when the
 *     section's `### Narrowed to what the service already refused` part names the operation and the parameter
 *     (in backticks); the report lists it apart.
 * The change under review (the contract against its base) is reported apart: each of its changes, compatible or
 * breaking, named or not; a break of something no release had (an unreleased addition taken back) asks for no entry.
 * When an entry is missing, the report gives the lines to add.
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
  /** A breaking change that an entry of the version's `### Breaking` part names by operation and place. */
  named?: boolean;
  /** A breaking change against the released contract that the change under review makes (it breaks it since the base). */
  underReview?: boolean;
  /** A change under review that breaks only what no release had (an unreleased addition taken back). */
  unreleased?: boolean;
}

export interface GateVerdict {
  ok: boolean;
  released: string;
  current: string;
  changes: ContractChange[];
  /** The changes against the base (the change under review), when the gate had one. */
  sinceBase?: ContractChange[];
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

/** A 4xx or 5xx status (`404`, `5XX`) or `default`: an error answer. */
export function isErrorStatus(status: string): boolean {
  return /^[45](\d\d|XX)$/i.test(status) || status === 'default';
}

export interface GateOptions {
  /**
   * The contract the change under review started from (contract-tests/base.ts chooses it: HEAD's openapi.yaml when
   * the working tree's differs, else HEAD's parent's) and how the report calls it.
   */
  base?: { doc: Doc; label: string; review?: string };
  /** Why there is no such comparison (not a git work tree, HEAD the first commit...), for the report. */
  baseNote?: string;
}

export function gate(released: Doc, current: Doc, changelog: string, options: GateOptions = {}): GateVerdict {
  const releasedVersion = String(released.info?.version ?? '0.0.0');
  const currentVersion = String(current.info?.version ?? '0.0.0');
  const changes = compareContracts(released, current);
  const problems: string[] = [];
  const section = changelogSection(changelog, currentVersion);
  acknowledgeNarrowed(changes, section);
  const breaking = changes.filter(breaks);
  if (changes.length > 0) {
    if (compareVersions(currentVersion, releasedVersion) <= 0) {
      problems.push(`openapi.yaml changed since the released ${releasedVersion} but info.version is still ${currentVersion}: raise it (minor for additions, major for breaking changes)`);
    }
    if (!section) problems.push(`CHANGELOG.md has no section "## ${currentVersion}" saying what changed`);
  }
  const ids = operationIds(current, options.base?.doc, released);
  const entries = breakingEntries(section);
  if (breaking.length > 0) {
    const [rMajor, rMinor] = releasedVersion.split('.').map(Number);
    const [cMajor, cMinor] = currentVersion.split('.').map(Number);
    const announced = rMajor === 0 ? cMajor > 0 || cMinor > rMinor : cMajor > rMajor;
    // a beta operation may break in a minor version: the changelog entry alone announces it
    const needMajor = breaking.filter((c) => !isBeta(released, c.operation));
    if (!announced && needMajor.length > 0) {
      problems.push(`${needMajor.length} breaking change(s) in a contract whose version (${currentVersion}) does not announce them: a breaking change needs a new major version (${rMajor === 0 ? `0.${rMinor + 1}.0` : `${rMajor + 1}.0.0`}), or take the change back`);
    }
  }
  for (const change of breaking) {
    if (entries.some((entry) => namesOperation(entry, change.operation, ids) && namesPlace(entry, change))) change.named = true;
  }

  // The change under review: what it breaks of the released contract must be named like the rest (it is, above:
  // every break since the release is), and the report shows it apart so that its author sees it first. A break of
  // something no release had (an unreleased addition taken back) breaks no integrator: no entry is asked for it.
  let sinceBase: ContractChange[] | undefined;
  if (options.base) {
    sinceBase = compareContracts(options.base.doc, current);
    acknowledgeNarrowed(sinceBase, section);
    for (const change of sinceBase.filter(breaks)) {
      // the release's breaking changes at the same place (naming is by place: they are named or not together)
      const atPlace = breaking.filter((c) => c.operation === change.operation && c.where === change.where);
      for (const c of atPlace) c.underReview = true;
      if (atPlace.length === 0) change.unreleased = true;
      else if (atPlace.some((c) => c.named)) change.named = true;
    }
  }
  const unnamed = breaking.filter((c) => !c.named);
  if (unnamed.length > 0) {
    const mine = unnamed.filter((c) => c.underReview);
    const earlier = unnamed.filter((c) => !c.underReview);
    const heading = section ? `CHANGELOG.md's "## ${currentVersion}"` : `CHANGELOG.md's new "## ${currentVersion} (unreleased)" section`;
    if (mine.length > 0) {
      problems.push(`${heading} does not name ${mine.length} breaking change(s) that the change under review makes (${reviewed(options)}). Add under "### Breaking" (then say what integrators must do):\n${suggest(mine, ids).map((line) => `      ${line}`).join('\n')}`);
    }
    if (earlier.length > 0) {
      problems.push(`${heading} does not name ${earlier.length} breaking change(s) since the released ${releasedVersion}${options.base ? `, made before the change under review` : ''}. Add under "### Breaking" (then say what integrators must do):\n${suggest(earlier, ids).map((line) => `      ${line}`).join('\n')}`);
    }
    problems.push([
      'The convention (CHANGELOG.md\'s header): a "### Breaking" entry names its operations (\`METHOD /path\` or \`operationId\`) and its place, written as one of:',
      '      response <status> \`field.path\` (the end of the path is enough; several: \`a\`, \`b\`) | response <status> header \`Name\` | response <status>',
      '      <query|path|header|cookie> parameter \`name\` | request body \`field.path\` | request body | scheme \`Name\` (with \`security\`) | operation | path',
      '    An entry covers the place it names and no other: naming the operation for another change does not name this one.',
    ].join('\n'));
  }
  return {
    ok: problems.length === 0,
    released: releasedVersion,
    current: currentVersion,
    changes,
    sinceBase,
    report: render(releasedVersion, currentVersion, changes, problems, options, sinceBase),
  };
}

const breaks = (c: ContractChange) => c.breaking && !c.acknowledged;

/**
 * A request narrowed to what the service refused anyway breaks no integrator that works today, when the changelog
 * names the operation and the parameter: `GET /v1/token` … `chain`.
 */
function acknowledgeNarrowed(changes: ContractChange[], section: string | undefined): void {
  const narrowedPart = partOf(section, 'Narrowed to what the service already refused');
  for (const change of changes) {
    const parameter = /parameter (\S+)/.exec(change.where)?.[1];
    if (change.breaking && change.side === 'request' && parameter && names(narrowedPart, change.operation) && narrowedPart.includes(`\`${parameter}\``)) {
      change.acknowledged = true;
    }
  }
}

/** The `### <title>` part of a changelog section ('' when it has none). */
function partOf(section: string | undefined, title: string): string {
  return section?.split(/^### /m).find((part) => part.startsWith(title)) ?? '';
}

/** The entries of the section's `### Breaking` part: each `- ` item with its continuation lines. */
export function breakingEntries(section: string | undefined): string[] {
  const part = partOf(section, 'Breaking');
  const entries: string[] = [];
  for (const line of part.split('\n').slice(1)) {
    if (/^[-*] /.test(line)) entries.push(line.slice(2));
    else if (entries.length > 0 && /^\s+\S/.test(line)) entries[entries.length - 1] += ` ${line.trim()}`;
  }
  return entries;
}

/** The text names the operation: `GET /v1/quote` is not named by an entry for `GET /v1/quote/toAmount`. */
function names(text: string, operation: string): boolean {
  return new RegExp(`${escape(operation)}(?![\\w/{}-])`).test(text);
}

/** An entry names the operation as `METHOD /path` or as its operationId in backticks (`getQuote`). */
function namesOperation(entry: string, operation: string, ids: Map<string, string>): boolean {
  const id = ids.get(operation);
  return names(entry, operation) || (id !== undefined && entry.includes(`\`${id}\``));
}

/**
 * An entry names the change's place (the convention in CHANGELOG.md's header):
 *   response 200 `estimate.toAmountMin`   a field of the answer, by its path or the end of it (`toAmountMin`,
 *                                          `estimate.toAmountMin` name `routes[].steps[].estimate.toAmountMin`);
 *                                          several fields: response 200 `a`, `b`
 *   response 200 header `Retry-After`     a header of the answer
 *   response 503                          the answer itself (added, removed)
 *   query parameter `fromChain`           a parameter (query, path, header, cookie)
 *   request body `options.order`          a field of the request body; `request body` for the body itself
 *   scheme `LifiApiKeyAuth`               a security scheme (the entry names `security`)
 *   operation / path                      the operation or the path itself
 * Anything else: the place as the report writes it, in backticks.
 */
export function namesPlace(entry: string, change: ContractChange): boolean {
  const where = change.where;
  let m: RegExpExecArray | null;
  if ((m = /^response (\S+) header (.+)$/.exec(where))) {
    const header = m[2].toLowerCase();
    return listed(entry, `response\\s+${escape(m[1])}\\s+headers?`).some((name) => name.toLowerCase() === header);
  }
  if ((m = /^response (\S+) field (.+)$/.exec(where)) && stripItems(m[2])) {
    const field = m[2];
    return listed(entry, `response\\s+${escape(m[1])}`).some((name) => endsWithPath(field, name));
  }
  if ((m = /^response (\S+)/.exec(where))) return new RegExp(`response\\s+${escape(m[1])}(?![\\w-]|\\s+(headers?\\s+)?\`)`).test(entry);
  if ((m = /^(query|path|header|cookie) parameter (\S+)/.exec(where))) {
    const parameter = m[2];
    return listed(entry, `${m[1]}\\s+parameters?`).includes(parameter);
  }
  if ((m = /^request body field (.+)$/.exec(where)) && stripItems(m[1])) {
    const field = m[1];
    return listed(entry, 'request\\s+body').some((name) => endsWithPath(field, name));
  }
  if (/^request body\b/.test(where)) return /request\s+body(?!\s+`)/.test(entry);
  if (change.operation === 'security') {
    const scheme = /securitySchemes\/([^/]+)/.exec(where)?.[1];
    return scheme ? listed(entry, 'schemes?').includes(scheme) : true;
  }
  if (where === 'operation') return /\boperation\b/.test(entry);
  if (where === 'path') return /\bpath\b/.test(entry);
  return entry.includes(`\`${where}\``);
}

/** The backticked names right after `prefix` in the entry: `response 200 \`a\`, \`b\` and \`c\`` → a, b, c. */
function listed(entry: string, prefix: string): string[] {
  const out: string[] = [];
  const list = new RegExp(`(?:^|[^\\w])${prefix}\\s+((?:\`[^\`]+\`(?:\\s*(?:,|\\band\\b|\\bor\\b)\\s*)?)+)`, 'g');
  for (const match of entry.matchAll(list)) {
    for (const name of match[1].matchAll(/`([^`]+)`/g)) out.push(name[1]);
  }
  return out;
}

/** `routes[].steps[].estimate.toAmountMin` ends with `estimate.toAmountMin` (whole segments; a final `[]` aside). */
function endsWithPath(path: string, named: string): boolean {
  const [full, end] = [stripItems(path), stripItems(named)];
  return end !== '' && (full === end || full.endsWith(`.${end}`));
}

function stripItems(path: string): string {
  return path.replace(/(\[\])+$/, '');
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** `GET /v1/quote` → `getQuote`, from every contract at hand (an operation removed has its id in the older one). */
function operationIds(...docs: (Doc | undefined)[]): Map<string, string> {
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

/**
 * The `### Breaking` lines that would name these changes, one per place (with what happened there), each naming
 * every operation concerned; the fields of one name (`estimate.toAmountMin` in a quote, `routes[].steps[].estimate.
 * toAmountMin` in a route) share one line, by the end of the path they have in common.
 */
export function suggest(changes: ContractChange[], ids: Map<string, string> = new Map()): string[] {
  const groups = new Map<string, { operations: string[]; prefix: string; names: string[]; whats: string[] }>();
  for (const change of changes) {
    const what = change.what.replace(/^(field|header|response|operation|path) (?=added|removed|changed|renamed)/, '');
    let prefix: string;
    let name = '';
    let m: RegExpExecArray | null;
    if ((m = /^response (\S+) header (.+)$/.exec(change.where))) [prefix, name] = [`response ${m[1]} header`, m[2]];
    else if ((m = /^response (\S+) field (.+)$/.exec(change.where)) && stripItems(m[2])) [prefix, name] = [`response ${m[1]}`, stripItems(m[2])];
    else if ((m = /^response (\S+)/.exec(change.where))) prefix = `response ${m[1]}`;
    else if ((m = /^(query|path|header|cookie) parameter (\S+)/.exec(change.where))) [prefix, name] = [`${m[1]} parameter`, m[2]];
    else if ((m = /^request body field (.+)$/.exec(change.where)) && stripItems(m[1])) [prefix, name] = ['request body', stripItems(m[1])];
    else if (/^request body\b/.test(change.where)) prefix = 'request body';
    else if (change.operation === 'security' && (m = /securitySchemes\/([^/]+)/.exec(change.where))) [prefix, name] = ['scheme', m[1]];
    else if (change.where === 'operation' || change.where === 'path' || change.operation === 'security') prefix = change.where === 'operation' || change.where === 'path' ? change.where : '';
    else [prefix, name] = ['', change.where];
    const last = name.split('.').pop() ?? '';
    const key = `${prefix}\u0000${prefix.startsWith('response') || prefix === 'request body' ? last : name}`;
    const group = groups.get(key) ?? { operations: [], prefix, names: [], whats: [] };
    if (!group.operations.includes(change.operation)) group.operations.push(change.operation);
    if (name && !group.names.includes(name)) group.names.push(name);
    if (!group.whats.includes(what)) group.whats.push(what);
    groups.set(key, group);
  }
  return [...groups.values()].map(({ operations, prefix, names: fieldNames, whats }) => {
    // a field removed has lost its required status too: `removed` says both
    const what = (whats.includes('removed') ? whats.filter((w) => !w.startsWith('required status')) : whats).join(', ');
    const name = commonEnd(fieldNames);
    const place = [prefix, name ? `\`${name}\`` : ''].filter(Boolean).join(' ');
    const ops = operations.map((op) => `\`${op}\``).join(', ');
    return `- ${ops}: ${place ? `${place} ` : ''}${what}`;
  });
}

/** The path end all the names share: `a[].b.c`, `b.c` → `b.c`. */
function commonEnd(paths: string[]): string {
  if (paths.length === 0) return '';
  const split = paths.map((p) => p.split('.'));
  const out: string[] = [];
  for (let i = 1; split.every((parts) => parts.length >= i); i += 1) {
    const part = split[0][split[0].length - i];
    if (!split.every((parts) => parts[parts.length - i] === part)) break;
    out.unshift(part);
  }
  return out.join('.');
}

/** The operation (`POST /v1/quote/contractCalls`) is marked `x-beta: true` in the contract. */
function isBeta(doc: Doc, operation: string): boolean {
  const [method, route] = operation.split(' ');
  const paths = (doc.paths ?? {}) as Record<string, Json>;
  const op = route && paths[route] ? (paths[route][method.toLowerCase()] as Json | undefined) : undefined;
  return op?.['x-beta'] === true;
}

function render(released: string, current: string, changes: ContractChange[], problems: string[], options: GateOptions, sinceBase?: ContractChange[]): string {
  const out: string[] = [`Contract ${current} (openapi.yaml) against the released ${released}:`];
  if (changes.length === 0) out.push('  no change to operations, parameters, bodies, answers or security.');
  const byOperation = groupByOperation(changes);
  const breakingOps = [...byOperation].filter(([, list]) => list.some(breaks));
  const otherOps = [...byOperation].filter(([, list]) => !list.some(breaks));
  if (breakingOps.length > 0) out.push('', 'BREAKING:');
  for (const [operation, list] of breakingOps) {
    const callers = SDK_CALLERS[operation];
    out.push(`  ${operation}${callers ? `  (called by the ecosystem SDK's ${callers.join(', ')})` : ''}`);
    for (const change of list.filter(breaks)) {
      const whom = change.side === 'request' ? 'breaks integrators that send it' : change.side === 'response' ? 'breaks integrators that read it' : 'breaks every integrator that calls it';
      out.push(`    - ${change.where}: ${change.what}; ${whom}${change.named ? '' : '  [not named in CHANGELOG.md]'}`);
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
  if (options.base && sinceBase) {
    const broken = sinceBase.filter(breaks);
    out.push(`The change under review (${reviewed(options)}): ${sinceBase.length === 0 ? 'no change to operations, parameters, bodies, answers or security.' : `${sinceBase.length} change(s), ${broken.length} breaking.`}`);
    for (const [operation, list] of groupByOperation(sinceBase)) {
      out.push(`  ${operation}`);
      for (const change of list) {
        const verdict = !breaks(change)
          ? change.acknowledged ? 'narrowed to what the service already refused' : 'compatible'
          : change.unreleased ? 'BREAKING, but of nothing released: no changelog entry needed'
            : change.named ? 'BREAKING, named in CHANGELOG.md' : 'BREAKING, NOT NAMED in CHANGELOG.md';
        out.push(`    - ${change.where}: ${change.what}; ${verdict}`);
      }
    }
  } else {
    out.push(`The change under review: not compared (${options.baseNote ?? 'no base contract given'}).`);
  }
  out.push('');
  if (problems.length === 0) out.push('Gate: passed.');
  else out.push('Gate: FAILED', ...problems.map((p) => `  - ${p}`));
  return out.join('\n');
}

/** `openapi.yaml in the working tree, which differs from HEAD's, against HEAD (3e43651fab46)`. */
function reviewed(options: GateOptions): string {
  return `${options.base?.review ?? 'openapi.yaml'}, against ${options.base?.label ?? 'its base'}`;
}

function groupByOperation(changes: ContractChange[]): Map<string, ContractChange[]> {
  const byOperation = new Map<string, ContractChange[]>();
  for (const change of changes) byOperation.set(change.operation, [...(byOperation.get(change.operation) ?? []), change]);
  return byOperation;
}
