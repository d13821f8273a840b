/**
 * CHANGELOG.md as the breaking-change gate reads it: a version's section and its parts, the `### Breaking` entries and
 * what they name (operations and places, by the convention of CHANGELOG.md's header), the narrowed requests a section
 * acknowledges, and the entries suggested for breaking changes that no entry names.
 */
import type { ContractChange } from './changes';

/** The changelog's section for a version: from `## <version>` to the next `## `. */
export function changelogSection(changelog: string, version: string): string | undefined {
  const lines = changelog.split('\n');
  const start = lines.findIndex((line) => new RegExp(`^## \\[?${version.replace(/\./g, '\\.')}\\]?(\\s|$)`).test(line));
  if (start < 0) return undefined;
  const end = lines.findIndex((line, i) => i > start && /^## /.test(line));
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
}

/**
 * A request narrowed to what the service refused anyway breaks no integrator that works today, when the changelog
 * names the operation and the parameter: `GET /v1/token` … `chain`.
 */
export function acknowledgeNarrowed(changes: ContractChange[], section: string | undefined): void {
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
export function namesOperation(entry: string, operation: string, ids: Map<string, string>): boolean {
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
