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
 *
 * The comparison is changes.ts's, the reading of CHANGELOG.md changelog.ts's; the verdict and the report are here.
 */
import { compareContracts, operationIds, type ContractChange, type Doc, type Json } from './changes';
import { acknowledgeNarrowed, breakingEntries, changelogSection, namesOperation, namesPlace, suggest } from './changelog';

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

export interface GateVerdict {
  ok: boolean;
  released: string;
  current: string;
  changes: ContractChange[];
  /** The changes against the base (the change under review), when the gate had one. */
  sinceBase?: ContractChange[];
  report: string;
}

/** Semantic version order; pre-release tags are not used by this contract. */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => v.split('-')[0].split('.').map((part) => Number(part) || 0);
  const [x, y] = [parse(a), parse(b)];
  for (let i = 0; i < 3; i += 1) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
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
