/**
 * The rooms of the code and the doors between them (docs/architecture.md), read from the import statements of every
 * TypeScript file of the project (src/generated left out):
 *   - src/core is pure: it imports nothing of the service outside src/core, and of packages only those listed in
 *     CORE_PACKAGES (no file system, path, network or process module: the core reads no file and opens no socket);
 *   - inside the core, a room imports only the rooms below it (CORE_LAYERS);
 *   - src/usecases import the core and their own ports only;
 *   - a handler imports no other handler (its converters are in handlers/wire, its types in handlers/typedOperation.ts);
 *   - src/chain imports neither the HTTP layer nor the use cases nor handlers; src/config.ts imports no chain code;
 *   - the rooms around the service import only rooms below them (OUTER_LAYERS: the service, then the sandbox, the
 *     scripts, the test helpers, then the mock, the benchmarks and the contract tests, then the tests);
 *   - no import cycles;
 *   - nothing outside src/core/chains branches on a chain's type: it asks the chain's family (familyOf).
 * Every rule is a function of the import graph, shown to fail on a planted violation before it judges the real one.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '..', '..');
const ROOMS = ['src', 'handlers', 'client', 'sandbox', 'scripts', 'mocks', 'bench', 'contract-tests', 'test'];

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(path.join(ROOT, dir))) return [];
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return ['node_modules', path.join('src', 'generated')].includes(relative) || entry.name === 'node_modules' ? [] : sourceFiles(relative);
    return /\.m?ts$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [relative] : [];
  });
}

/** What a file imports: the project's files (relative imports resolved) and the packages (node: modules included). */
interface Imports {
  readonly files: string[];
  readonly packages: string[];
}

function importsOf(file: string): Imports {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const specifiers = ts.preProcessFile(text, true, true).importedFiles.map(({ fileName }) => fileName);
  const files = specifiers.flatMap((fileName) => {
    if (!fileName.startsWith('.')) return [];
    const base = path.normalize(path.join(path.dirname(file), fileName));
    const candidates = [base, `${base}.ts`, `${base.replace(/\.m?js$/, '')}.ts`, `${base.replace(/\.mjs$/, '')}.mts`, path.join(base, 'index.ts')];
    const found = candidates.find((c) => /\.m?ts$/.test(c) && fs.existsSync(path.join(ROOT, c)));
    return found ? [found] : [];
  });
  return { files, packages: specifiers.filter((fileName) => !fileName.startsWith('.')) };
}

type Graph = ReadonlyMap<string, Imports>;
const files = ROOMS.flatMap(sourceFiles);
const graph: Graph = new Map(files.map((f) => [f, importsOf(f)]));
const inside = (file: string, dir: string) => file.startsWith(`${dir}${path.sep}`) || file === dir;
const serviceFiles = (g: Graph) => [...g.keys()].filter((f) => inside(f, 'src') || inside(f, 'handlers'));

/** `graph` with one more import planted: a rule shown to fail on it. */
function planted(base: Graph, file: string, target: string): Graph {
  const copy = new Map(base);
  const before = copy.get(file) ?? { files: [], packages: [] };
  copy.set(file, target.startsWith('.') || target.includes(path.sep) ? { ...before, files: [...before.files, target] } : { ...before, packages: [...before.packages, target] });
  return copy;
}

function violations(g: Graph, from: (file: string) => boolean, allowed: (target: string) => boolean): string[] {
  return [...g].flatMap(([file, { files: targets }]) => (from(file) ? targets.filter((t) => !allowed(t)).map((t) => `${file} → ${t}`) : []));
}

/**
 * The packages the core may use: computation only. Hashing (node:crypto) and the chains' encodings (ethers, viem,
 * the Solana kit and programs, base58), a bounded cache, IP address arithmetic. Not node:fs, node:path, node:net,
 * node:http, node:child_process, a database or Redis client: data reaches the core as values (src/files reads them).
 */
const CORE_PACKAGES = [/^node:crypto$/, /^ethers$/, /^viem(\/utils)?$/, /^@solana\/kit$/, /^@solana-program\/[a-z-]+$/, /^@scure\/base$/, /^lru-cache$/, /^ipaddr\.js$/, /^hash-wasm$/];

function corePackageViolations(g: Graph): string[] {
  return [...g].flatMap(([file, { packages }]) => (inside(file, path.join('src', 'core')) ? packages.filter((p) => !CORE_PACKAGES.some((allowed) => allowed.test(p))).map((p) => `${file} → ${p}`) : []));
}

/**
 * The core's rooms from the bottom up; a room imports its own files and the rooms of lower levels. The vocabulary
 * (entities.ts), errors, text, memo and math are the ground; the chain families know addresses and encodings; the
 * catalog uses the families; liquidity holds pool state on the catalog; routing finds and prices routes on it; the
 * transactions and gas are built from routes; fees and status use transactions. Access (keys and limits) stands apart.
 */
const CORE_LAYERS: readonly (readonly string[])[] = [
  ['entities.ts', 'errors.ts', 'text.ts', 'memo.ts', 'math', 'access'],
  ['chains'],
  ['catalog'],
  ['liquidity'],
  ['routing'],
  ['transactions', 'gas'],
  ['fees', 'status', 'relay'],
];

function coreRoomOf(file: string): string | undefined {
  const core = path.join('src', 'core');
  return inside(file, core) ? path.relative(core, file).split(path.sep)[0] : undefined;
}

function layerViolations(g: Graph, layers: readonly (readonly string[])[], roomOf: (file: string) => string | undefined): string[] {
  const level = (room: string | undefined) => (room === undefined ? undefined : layers.findIndex((rooms) => rooms.includes(room)));
  const unplaced = [...new Set([...g.keys()].map(roomOf).filter((room) => room !== undefined && level(room) === -1))].map((room) => `${room} is on no level`);
  const upward = [...g].flatMap(([file, { files: targets }]) => {
    const from = roomOf(file);
    if (from === undefined) return [];
    return targets.filter((t) => {
      const to = roomOf(t);
      return to !== undefined && to !== from && (level(to)! >= level(from)!);
    }).map((t) => `${file} → ${t}`);
  });
  return [...unplaced, ...upward];
}

/** The rooms of the project from the bottom up (the service first); test/support holds helpers the benchmarks share. */
const OUTER_LAYERS: readonly (readonly string[])[] = [
  ['service'],
  ['client', 'sandbox'],
  ['scripts'],
  ['test/support'],
  ['mocks', 'bench', 'contract-tests'],
  ['test'],
];

function outerRoomOf(file: string): string | undefined {
  if (inside(file, 'src') || inside(file, 'handlers')) return 'service';
  if (inside(file, path.join('test', 'support'))) return 'test/support';
  return file.split(path.sep)[0];
}

function cyclesOf(g: Graph): string[] {
  const cycles: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (file: string, trail: string[]): void => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'visiting') {
      cycles.push([...trail.slice(trail.indexOf(file)), file].join(' → '));
      return;
    }
    state.set(file, 'visiting');
    for (const target of g.get(file)?.files ?? []) visit(target, [...trail, file]);
    state.set(file, 'done');
  };
  for (const file of g.keys()) visit(file, []);
  return cycles;
}

test('the core uses only the packages of computation: no file system, path, network or process module', () => {
  const planting = path.join('src', 'core', 'routing', 'finder.ts');
  for (const module of ['node:fs', 'fs', 'node:path', 'node:net', 'node:child_process', 'kysely', 'ioredis']) {
    expect(corePackageViolations(planted(graph, planting, module))).toEqual([`${planting} → ${module}`]);
  }
  expect(corePackageViolations(graph)).toEqual([]);
});

test('inside the core, a room imports only the rooms below it', () => {
  const state = path.join('src', 'core', 'liquidity', 'snapshot.ts');
  const finder = path.join('src', 'core', 'routing', 'finder.ts');
  expect(layerViolations(planted(graph, state, finder), CORE_LAYERS, coreRoomOf)).toEqual([`${state} → ${finder}`]);
  const families = path.join('src', 'core', 'chains', 'families.ts');
  const catalog = path.join('src', 'core', 'catalog', 'catalog.ts');
  expect(layerViolations(planted(graph, families, catalog), CORE_LAYERS, coreRoomOf)).toEqual([`${families} → ${catalog}`]);
  // two rooms of one level do not import each other either
  const gas = path.join('src', 'core', 'gas', 'prices.ts');
  const build = path.join('src', 'core', 'transactions', 'build.ts');
  expect(layerViolations(planted(graph, gas, build), CORE_LAYERS, coreRoomOf)).toEqual([`${gas} → ${build}`]);
  expect(layerViolations(graph, CORE_LAYERS, coreRoomOf)).toEqual([]);
});

test('the rooms around the service import only rooms below them', () => {
  const sandbox = path.join('sandbox', 'deploy.ts');
  const script = path.join('scripts', 'deploy-contracts.ts');
  expect(layerViolations(planted(graph, sandbox, script), OUTER_LAYERS, outerRoomOf)).toEqual([`${sandbox} → ${script}`]);
  const service = path.join('src', 'main.ts');
  expect(layerViolations(planted(graph, service, sandbox), OUTER_LAYERS, outerRoomOf)).toEqual([`${service} → ${sandbox}`]);
  expect(layerViolations(graph, OUTER_LAYERS, outerRoomOf)).toEqual([]);
});

test('the core imports nothing of the service outside the core', () => {
  const rule = (g: Graph) => violations(g, (f) => inside(f, path.join('src', 'core')), (t) => inside(t, path.join('src', 'core')));
  const file = path.join('src', 'core', 'catalog', 'catalog.ts');
  expect(rule(planted(graph, file, path.join('src', 'files', 'catalog.ts')))).toEqual([`${file} → ${path.join('src', 'files', 'catalog.ts')}`]);
  expect(rule(graph)).toEqual([]);
});

test('use cases import the core and their own ports only (the composition root implements them)', () => {
  const rule = (g: Graph) => violations(g, (f) => inside(f, path.join('src', 'usecases')), (t) => inside(t, path.join('src', 'core')) || inside(t, path.join('src', 'usecases')));
  const file = path.join('src', 'usecases', 'quote.ts');
  const root = path.join('src', 'server', 'dependencies.ts');
  expect(rule(planted(graph, file, root))).toEqual([`${file} → ${root}`]);
  expect(rule(graph)).toEqual([]);
});

test('a handler imports no other handler', () => {
  const handler = (f: string) => inside(f, 'handlers') && !inside(f, path.join('handlers', 'wire')) && ![path.join('handlers', 'typedOperation.ts'), path.join('handlers', 'index.ts')].includes(f);
  const rule = (g: Graph) => violations(g, handler, (t) => !handler(t));
  const [quote, routes] = [path.join('handlers', 'getQuote.ts'), path.join('handlers', 'getRoutes.ts')];
  expect(rule(planted(graph, quote, routes))).toEqual([`${quote} → ${routes}`]);
  expect(rule(graph)).toEqual([]);
});

test('chain I/O does not import the HTTP layer, and the configuration no chain code', () => {
  const chainRule = (g: Graph) => violations(g, (f) => inside(f, path.join('src', 'chain')), (t) => !inside(t, path.join('src', 'server')) && !inside(t, path.join('src', 'usecases')) && !inside(t, 'handlers'));
  const configRule = (g: Graph) => violations(g, (f) => f === path.join('src', 'config.ts'), (t) => !inside(t, path.join('src', 'chain')));
  const [rpc, app] = [path.join('src', 'chain', 'rpc.ts'), path.join('src', 'server', 'app.ts')];
  expect(chainRule(planted(graph, rpc, app))).toEqual([`${rpc} → ${app}`]);
  expect(configRule(planted(graph, path.join('src', 'config.ts'), rpc))).toEqual([`${path.join('src', 'config.ts')} → ${rpc}`]);
  expect(chainRule(graph)).toEqual([]);
  expect(configRule(graph)).toEqual([]);
});

test('no import cycles, in the service and around it', () => {
  const [examples, devnet] = [path.join('mocks', 'examples.ts'), path.join('mocks', 'devnetScenarios.ts')];
  expect(cyclesOf(planted(planted(graph, examples, devnet), devnet, examples))).not.toEqual([]);
  expect(cyclesOf(graph)).toEqual([]);
});

test('the rules read real imports (the graph is not empty)', () => {
  expect(graph.get(path.join('handlers', 'getQuote.ts'))?.files).toEqual(expect.arrayContaining([path.join('src', 'usecases', 'quote.ts')]));
  expect(graph.get(path.join('src', 'files', 'jsonFile.ts'))?.packages).toEqual(expect.arrayContaining(['node:fs']));
  expect(serviceFiles(graph).length).toBeGreaterThan(150);
  for (const room of ROOMS) expect([...graph.keys()].some((f) => inside(f, room))).toBe(true);
});

test('test/unit mirrors the code: a unit test sits where its file sits (src/, bench/, scripts/)', () => {
  // data/ and contract/ test the embedded data and openapi.yaml; this file tests the whole tree
  const unit = path.join('test', 'unit');
  const tests = sourceFiles(unit).filter((f) => f.endsWith('.test.ts') && f !== path.join(unit, 'architecture.test.ts'));
  const misplaced = tests.flatMap((file) => {
    const relative = path.relative(unit, file).replace(/\.test\.ts$/, '.ts');
    const [top] = relative.split(path.sep);
    if (top === 'data' || top === 'contract') return [];
    const subject = top === 'bench' || top === 'scripts' ? relative : path.join('src', relative);
    return fs.existsSync(path.join(ROOT, subject)) ? [] : [`${file} (no ${subject})`];
  });
  expect(tests.length).toBeGreaterThan(30);
  expect(misplaced).toEqual([]);
});

test('nothing outside the chain families branches on a chain type (src/core/chains is the seam)', () => {
  // a comparison with a chain type, or a switch over one; filtering a list by the types a request names is no branch
  const branch = /chainType\s*[!=]==|[!=]==\s*['"](EVM|SVM|UTXO|MVM|TVM)['"]|['"](EVM|SVM|UTXO|MVM|TVM)['"]\s*[!=]==|switch\s*\([^)]*chainType/;
  const offenders = serviceFiles(graph)
    .filter((file) => !inside(file, path.join('src', 'core', 'chains')))
    .flatMap((file) => fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n').flatMap((line, i) => (branch.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])));
  expect(offenders).toEqual([]);
  // the rule reads real code: the families themselves are the only ones that name their types
  expect(fs.readFileSync(path.join(ROOT, 'src', 'core', 'chains', 'families.ts'), 'utf8')).toContain('familyOf');
  expect(branch.test("if (chain.chainType === 'EVM') return;")).toBe(true);
});

/** Files of code above this many lines are split by concern (tests, generated code and fixtures are not judged). */
const MAX_LINES = 400;

function oversized(files: readonly string[], linesOf: (file: string) => number): string[] {
  return files.filter((file) => !inside(file, 'test')).flatMap((file) => (linesOf(file) > MAX_LINES ? [`${file}: ${linesOf(file)} lines`] : []));
}

test(`no file of code passes ${MAX_LINES} lines (split it by concern)`, () => {
  const lines = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n').length - 1;
  const code = [...ROOMS.flatMap(sourceFiles), path.join('contract-tests', 'hooks.js'), path.join('contract-tests', 'badInputs.js')];
  // planted: a file one line too long is named, a test file is not judged
  expect(oversized(['src/big.ts', 'test/unit/big.test.ts'], () => MAX_LINES + 1)).toEqual([`src/big.ts: ${MAX_LINES + 1} lines`]);
  expect(code.length).toBeGreaterThan(150);
  expect(oversized(code, lines)).toEqual([]);
});
