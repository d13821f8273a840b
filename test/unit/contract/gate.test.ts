/**
 * The breaking-change gate judges every change (issue 36): against the last release AND against the change under
 * review's base, with every breaking change named in the version's changelog by operation and place, so that a
 * second break cannot hide behind a first in an unreleased major version. Small contracts in memory and in
 * temporary git repositories (never this repository's history); the CLI (contract-tests/diff.ts) end to end.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chooseBase } from '../../../contract-tests/base';
import { gate } from '../../../contract-tests/breakingChanges';
import { namesPlace, suggest } from '../../../contract-tests/changelog';
import { compareContracts, isErrorStatus } from '../../../contract-tests/changes';

const ROOT = path.join(__dirname, '..', '..', '..');
const TSX = path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = any;

/** A contract of two operations that share `Estimate`: a quote (`estimate`) and routes (`routes[].steps[].estimate`). */
function contract(version: string): Doc {
  const json = (schema: Doc) => ({ 'application/json': { schema } });
  return {
    openapi: '3.0.3',
    info: { title: 'mini', version },
    paths: {
      '/v1/quote': {
        get: {
          operationId: 'getQuote',
          parameters: [{ name: 'fromChain', in: 'query', required: true, schema: { type: 'string' } }],
          responses: {
            '200': { description: 'a quote', content: json({ $ref: '#/components/schemas/Step' }) },
            '400': { $ref: '#/components/responses/BadRequest' },
          },
        },
      },
      '/v1/advanced/routes': {
        post: {
          operationId: 'postRoutes',
          requestBody: { required: true, content: json({ type: 'object', properties: { fromChainId: { type: 'integer' } } }) },
          responses: {
            '200': {
              description: 'routes',
              content: json({ type: 'object', properties: { routes: { type: 'array', items: { type: 'object', properties: { steps: { type: 'array', items: { $ref: '#/components/schemas/Step' } } } } } } }),
            },
            '400': { $ref: '#/components/responses/BadRequest' },
          },
        },
      },
    },
    components: {
      schemas: {
        Step: { type: 'object', properties: { id: { type: 'string' }, estimate: { $ref: '#/components/schemas/Estimate' } } },
        Estimate: {
          type: 'object',
          required: ['toAmount', 'toAmountMin'],
          properties: { toAmount: { type: 'string' }, toAmountMin: { type: 'string' }, toAmountUSD: { type: 'string' } },
        },
        Error: { type: 'object', properties: { message: { type: 'string' } } },
      },
      responses: {
        BadRequest: { description: 'bad request', content: json({ $ref: '#/components/schemas/Error' }) },
        ServiceUnavailable: { description: 'unavailable', headers: { 'Retry-After': { schema: { type: 'integer' } } }, content: json({ $ref: '#/components/schemas/Error' }) },
      },
    },
  };
}

const released = () => contract('1.0.0');
/** The unreleased 2.0.0 as it stands: a first break, `estimate.toAmountUSD` removed from quotes and routes. */
function head(): Doc {
  const doc = contract('2.0.0');
  delete doc.components.schemas.Estimate.properties.toAmountUSD;
  return doc;
}
/** The change under review: a second break, `estimate.toAmountMin` removed as well. */
function second(): Doc {
  const doc = head();
  delete doc.components.schemas.Estimate.properties.toAmountMin;
  doc.components.schemas.Estimate.required = ['toAmount'];
  return doc;
}

const FIRST = '- `getQuote`, `postRoutes`: response 200 `estimate.toAmountUSD` removed: use `toAmount` and the token price.';
const changelog = (...breaking: string[]) => `# Contract changelog\n\n## 2.0.0 (unreleased)\n\n### Breaking\n${breaking.join('\n')}\n\n## 1.0.0 (2026-11-25)\n\nFirst.\n`;

describe('a second breaking change in an unreleased major version', () => {
  test('fails unless named by operation and place, though the changelog names both operations already', () => {
    // what the old gate matched: the section names both operations (by the changelog's entry for the first break)
    expect(gate(released(), head(), changelog(FIRST), { base: { doc: released(), label: 'HEAD~1' } }).ok).toBe(true);
    const verdict = gate(released(), second(), changelog(FIRST), { base: { doc: head(), label: 'HEAD (abc)', review: 'openapi.yaml in the working tree' } });
    expect(verdict.ok).toBe(false);
    expect(verdict.report).toContain('BREAKING, NOT NAMED in CHANGELOG.md');
    expect(verdict.report).toContain('does not name 4 breaking change(s) that the change under review makes (openapi.yaml in the working tree, against HEAD (abc))');
    // the line to add, in the convention: both operations, one place (the end of the path both share)
    expect(verdict.report).toContain('      - `GET /v1/quote`, `POST /v1/advanced/routes`: response 200 `estimate.toAmountMin` removed\n');
    // the first break is named: it is not asked for again
    expect(verdict.report).not.toContain('`estimate.toAmountUSD` removed\n');
    expect(verdict.changes.filter((c) => c.breaking && !c.named).map((c) => `${c.operation} ${c.where}: ${c.what}`).sort()).toEqual([
      'GET /v1/quote response 200 field estimate.toAmountMin: field removed',
      'GET /v1/quote response 200 field estimate.toAmountMin: required status removed',
      'POST /v1/advanced/routes response 200 field routes[].steps[].estimate.toAmountMin: field removed',
      'POST /v1/advanced/routes response 200 field routes[].steps[].estimate.toAmountMin: required status removed',
    ]);
  });

  test('fails without a base too: every break since the release is named by place', () => {
    const verdict = gate(released(), second(), changelog(FIRST));
    expect(verdict.ok).toBe(false);
    expect(verdict.report).toContain('does not name 4 breaking change(s) since the released 1.0.0');
  });

  test('an entry for the same operations at another place, or for one of the operations, does not name it', () => {
    const other = '- `getQuote`, `postRoutes`: response 200 `estimate.toAmount` changed';
    expect(gate(released(), second(), changelog(FIRST, other)).ok).toBe(false);
    const quoteOnly = gate(released(), second(), changelog(FIRST, '- `getQuote`: response 200 `estimate.toAmountMin` removed'));
    expect(quoteOnly.ok).toBe(false);
    expect(quoteOnly.report).toContain('- `POST /v1/advanced/routes`: response 200 `routes[].steps[].estimate.toAmountMin` removed');
    // the operation in one entry and the place in another do not make a name
    expect(gate(released(), second(), changelog(FIRST, '- `getQuote`, `postRoutes`: see below', '- response 200 `estimate.toAmountMin` removed')).ok).toBe(false);
    // another status is another place
    expect(gate(released(), second(), changelog(FIRST, '- `getQuote`, `postRoutes`: response 400 `estimate.toAmountMin` removed')).ok).toBe(false);
  });
});

describe('the same change named passes', () => {
  test.each([
    ['by operationId and the path end both share', '- `getQuote`, `postRoutes`: response 200 `estimate.toAmountMin` removed: read `toAmount`.'],
    ['by METHOD /path and the field name', '- `GET /v1/quote`, `POST /v1/advanced/routes`: response 200 `toAmountMin` removed'],
    ['by each full path, on continuation lines', '- `GET /v1/quote`, `POST /v1/advanced/routes`: response 200\n  `estimate.toAmountMin`, `routes[].steps[].estimate.toAmountMin` removed'],
  ])('%s', (_, entry) => {
    const verdict = gate(released(), second(), changelog(FIRST, entry), { base: { doc: head(), label: 'HEAD' } });
    if (!verdict.ok) throw new Error(verdict.report);
    expect(verdict.report).toContain('BREAKING, named in CHANGELOG.md');
    expect(verdict.report).toContain('Gate: passed.');
  });

  test('a path end is whole segments: `AmountMin` or a longer path than the field has names nothing', () => {
    const change = { operation: 'GET /v1/quote', side: 'response' as const, where: 'response 200 field estimate.toAmountMin', what: 'field removed', breaking: true };
    expect(namesPlace('response 200 `estimate.toAmountMin` removed', change)).toBe(true);
    expect(namesPlace('response 200 `toAmountMin` removed', change)).toBe(true);
    expect(namesPlace('response 200 `AmountMin` removed', change)).toBe(false);
    expect(namesPlace('response 200 `steps[].estimate.toAmountMin` removed', change)).toBe(false);
    expect(namesPlace('response 2000 `toAmountMin` removed', change)).toBe(false);
    expect(namesPlace('`toAmountMin` removed from response 200', change)).toBe(false);
    const header = { ...change, where: 'response 200 header ratelimit-limit', what: 'header removed' };
    expect(namesPlace('response 200 header `RateLimit-Limit` removed', header)).toBe(true);
    expect(namesPlace('response 200 `ratelimit-limit` removed', header)).toBe(false);
    const answer = { ...change, where: 'response 202', what: 'response added' };
    expect(namesPlace('response 202 added', answer)).toBe(true);
    expect(namesPlace('response 202 `id` added', answer)).toBe(false);
    const parameter = { ...change, side: 'request' as const, where: 'query parameter fromChain', what: 'pattern changed' };
    expect(namesPlace('query parameter `fromChain` narrowed', parameter)).toBe(true);
    expect(namesPlace('path parameter `fromChain` narrowed', parameter)).toBe(false);
  });

  test('the suggested lines name what they were made for', () => {
    const changes = compareContracts(released(), second()).filter((c) => c.breaking);
    const lines = suggest(changes);
    const verdict = gate(released(), second(), changelog(...lines));
    if (!verdict.ok) throw new Error(verdict.report);
  });
});

describe('an error answer added to an operation is compatible', () => {
  test.each(['503', '502', '404', '4XX', '5XX', 'default'])('%s is an error status', (status) => expect(isErrorStatus(status)).toBe(true));
  test.each(['200', '202', '204', '301', '2XX'])('%s is not', (status) => expect(isErrorStatus(status)).toBe(false));

  test('a shared 503 and an inline 502 added: compatible, a minor version without a "### Breaking" entry passes', () => {
    const doc = contract('1.1.0');
    doc.paths['/v1/quote'].get.responses['503'] = { $ref: '#/components/responses/ServiceUnavailable' };
    doc.paths['/v1/advanced/routes'].post.responses['502'] = { description: 'bad gateway' };
    const verdict = gate(released(), doc, '## 1.1.0 (unreleased)\n\n### Changed\n- a 503 and a 502\n');
    expect(verdict.changes).toEqual(expect.arrayContaining([
      expect.objectContaining({ operation: 'GET /v1/quote', where: 'response 503', what: 'response added', breaking: false }),
      expect.objectContaining({ operation: 'POST /v1/advanced/routes', where: 'response 502', what: 'response added', breaking: false }),
    ]));
    expect(verdict.changes.filter((c) => c.breaking)).toEqual([]);
    if (!verdict.ok) throw new Error(verdict.report);
  });

  test('a success answer added, and an answer removed, are breaking', () => {
    const doc = contract('2.0.0');
    doc.paths['/v1/quote'].get.responses['202'] = { description: 'accepted' };
    delete doc.paths['/v1/advanced/routes'].post.responses['400'];
    const broken = compareContracts(released(), doc).filter((c) => c.breaking).map((c) => `${c.operation} ${c.where}: ${c.what}`);
    expect(broken.sort()).toEqual(['GET /v1/quote response 202: response added', 'POST /v1/advanced/routes response 400: response removed']);
  });

  test('a field added to a shared error answer is compatible, a field removed from it is not', () => {
    const added = contract('1.1.0');
    added.components.schemas.Error.properties.code = { type: 'integer' };
    expect(compareContracts(released(), added).filter((c) => c.breaking)).toEqual([]);
    const removed = contract('2.0.0');
    delete removed.components.schemas.Error.properties.message;
    expect(compareContracts(released(), removed).filter((c) => c.breaking).map((c) => c.where)).toEqual(['response 400 field message', 'response 400 field message']);
  });
});

test('a break of what no release had (an unreleased addition taken back) asks for no entry', () => {
  const withEta = head();
  withEta.components.schemas.Estimate.properties.eta = { type: 'integer' };
  const verdict = gate(released(), head(), changelog(FIRST), { base: { doc: withEta, label: 'HEAD' } });
  expect(verdict.report).toContain('response 200 field estimate.eta: field removed; BREAKING, but of nothing released: no changelog entry needed');
  if (!verdict.ok) throw new Error(verdict.report);
});

// ---- git: the base, and the CLI on temporary repositories ----

const made: string[] = [];
afterAll(() => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'contract-gate-'));
  made.push(dir);
  return dir;
}

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, '-c', 'user.name=gate test', '-c', 'user.email=gate@test', '-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main', ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A repository with the released contract, the changelog and openapi.yaml as given (JSON is YAML). */
function repo(files: { openapi: Doc; changelog: string; released?: Doc }): string {
  const dir = tempDir();
  git(dir, 'init', '--quiet');
  write(dir, files);
  return dir;
}

function write(dir: string, files: { openapi?: Doc | string; changelog?: string; released?: Doc }): void {
  fs.mkdirSync(path.join(dir, 'contract-tests', 'released'), { recursive: true });
  if (files.openapi) fs.writeFileSync(path.join(dir, 'openapi.yaml'), typeof files.openapi === 'string' ? files.openapi : `${JSON.stringify(files.openapi, null, 2)}\n`);
  if (files.changelog) fs.writeFileSync(path.join(dir, 'CHANGELOG.md'), files.changelog);
  if (files.released) fs.writeFileSync(path.join(dir, 'contract-tests', 'released', 'openapi.yaml'), `${JSON.stringify(files.released, null, 2)}\n`);
}

function commit(dir: string, message: string): string {
  git(dir, 'add', '-A');
  git(dir, 'commit', '--quiet', '-m', message);
  return git(dir, 'rev-parse', 'HEAD').trim();
}

function contractDiff(dir: string, ...args: string[]): { status: number | null; out: string } {
  const run = spawnSync(process.execPath, [TSX, 'contract-tests/diff.ts', '--repo', dir, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
  return { status: run.status, out: `${run.stdout}${run.stderr}` };
}

describe('the base: the contract the change under review started from', () => {
  test('working tree differs from HEAD → HEAD; clean → HEAD~1; --base → that commit; first commit → none', () => {
    const dir = repo({ openapi: released(), changelog: changelog(), released: released() });
    commit(dir, 'the first contract');
    expect(chooseBase(dir)).toEqual({ kind: 'none', reason: expect.stringContaining("is the repository's first commit") });
    write(dir, { openapi: head(), changelog: changelog(FIRST) });
    const first = commit(dir, 'the first break');
    // a clean checkout: the change under review is the commit HEAD, its base HEAD's parent
    const clean = chooseBase(dir);
    expect(clean).toMatchObject({ kind: 'base', ref: 'HEAD~1' });
    expect(clean.kind === 'base' && JSON.parse(clean.text)).toEqual(released());
    // the working tree differs from HEAD: the change under review is that edit, its base HEAD
    write(dir, { openapi: second() });
    const dirty = chooseBase(dir);
    expect(dirty).toMatchObject({ kind: 'base', ref: 'HEAD', commit: first });
    expect(dirty.kind === 'base' && JSON.parse(dirty.text)).toEqual(head());
    // an explicit base
    const explicit = chooseBase(dir, { explicit: 'HEAD~1' });
    expect(explicit).toMatchObject({ kind: 'base', ref: 'HEAD~1' });
    expect(explicit.kind === 'base' && JSON.parse(explicit.text)).toEqual(released());
    expect(chooseBase(dir, { explicit: 'no-such-ref' })).toMatchObject({ kind: 'error' });
  });

  test('a shallow clone without HEAD\'s parent is judged against the release only, and says so; a directory outside git has no base', () => {
    const dir = repo({ openapi: released(), changelog: changelog(), released: released() });
    commit(dir, 'one');
    write(dir, { openapi: head() });
    commit(dir, 'two');
    const shallow = path.join(tempDir(), 'clone');
    execFileSync('git', ['clone', '--quiet', '--depth', '1', `file://${dir}`, shallow], { stdio: 'ignore' });
    expect(chooseBase(shallow)).toEqual({ kind: 'none', reason: expect.stringContaining('shallow clone: the contract is judged against the last release only') });
    const outside = tempDir();
    write(outside, { openapi: head() });
    expect(chooseBase(outside)).toMatchObject({ kind: 'none' });
  });
});

describe('npm run contract:diff on a repository', () => {
  test('the planted second break fails in the working tree and once committed; named, it passes', () => {
    const dir = repo({ openapi: released(), changelog: changelog(), released: released() });
    commit(dir, 'released 1.0.0');
    write(dir, { openapi: head(), changelog: changelog(FIRST) });
    commit(dir, 'the first break, named');
    expect(contractDiff(dir)).toMatchObject({ status: 0 });
    // the second break in the working tree: judged against HEAD
    write(dir, { openapi: second() });
    const dirty = contractDiff(dir);
    expect(dirty.status).toBe(1);
    expect(dirty.out).toContain('The change under review (openapi.yaml in the working tree, which differs from HEAD\'s, against HEAD (');
    expect(dirty.out).toContain('- `GET /v1/quote`, `POST /v1/advanced/routes`: response 200 `estimate.toAmountMin` removed');
    expect(dirty.out).toContain('Gate: FAILED');
    // committed as it is (a clean checkout of that commit, as CI has it): judged against HEAD~1, fails the same
    commit(dir, 'the second break, not named');
    const committed = contractDiff(dir);
    expect(committed.status).toBe(1);
    expect(committed.out).toContain('The change under review (the commit HEAD (');
    expect(committed.out).toContain('against HEAD~1 (');
    expect(committed.out).toContain('response 200 `estimate.toAmountMin` removed');
    // named: passes
    write(dir, { changelog: changelog(FIRST, '- `getQuote`, `postRoutes`: response 200 `estimate.toAmountMin` removed: the minimum is `toAmount` less the slippage.') });
    const named = contractDiff(dir);
    if (named.status !== 0) throw new Error(named.out);
    expect(named.out).toContain('Gate: passed.');
  }, 120_000);

  test('the current contract passes: this repository\'s released contract, openapi.yaml and CHANGELOG.md, the whole unreleased version as the change under review', () => {
    const real = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
    const dir = tempDir();
    git(dir, 'init', '--quiet');
    fs.mkdirSync(path.join(dir, 'contract-tests', 'released'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'contract-tests', 'released', 'openapi.yaml'), real('contract-tests/released/openapi.yaml'));
    fs.writeFileSync(path.join(dir, 'openapi.yaml'), real('contract-tests/released/openapi.yaml'));
    fs.writeFileSync(path.join(dir, 'CHANGELOG.md'), real('CHANGELOG.md'));
    commit(dir, 'the released contract');
    fs.writeFileSync(path.join(dir, 'openapi.yaml'), real('openapi.yaml'));
    commit(dir, 'the unreleased version');
    const run = contractDiff(dir);
    if (run.status !== 0) throw new Error(run.out);
    expect(run.out).toContain('against HEAD~1 (');
    expect(run.out).toContain('Gate: passed.');
  }, 120_000);
});
