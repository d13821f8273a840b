/**
 * The rooms of the code and the doors between them (docs/architecture.md), read from the import statements
 * of every TypeScript file under src/ and handlers/:
 *   - src/core is pure: it imports nothing of the service outside src/core (no HTTP, no chain I/O, no use case);
 *   - src/usecases import the core, and the composition root's types (src/server/dependencies) only;
 *   - a handler imports no other handler (its converters are in handlers/wire, its types in handlers/typedOperation.ts);
 *   - src/chain imports neither the HTTP layer nor the use cases nor handlers; src/config.ts imports no chain code;
 *   - no import cycles;
 *   - nothing outside src/core/chains branches on a chain's type: it asks the chain's family (familyOf).
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return relative === path.join('src', 'generated') ? [] : sourceFiles(relative);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [relative] : [];
  });
}

/** The files of the project a file imports (relative imports resolved; packages left out), type-only imports included. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  return ts.preProcessFile(text, true, true).importedFiles.flatMap(({ fileName }) => {
    if (!fileName.startsWith('.')) return [];
    const base = path.normalize(path.join(path.dirname(file), fileName));
    const candidates = [`${base}.ts`, path.join(base, 'index.ts')];
    const found = candidates.find((c) => fs.existsSync(path.join(ROOT, c)));
    return found ? [found] : [];
  });
}

const files = [...sourceFiles('src'), ...sourceFiles('handlers')];
const graph = new Map(files.map((f) => [f, importsOf(f)]));
const inside = (file: string, dir: string) => file.startsWith(`${dir}${path.sep}`) || file === dir;

function violations(from: (file: string) => boolean, allowed: (target: string) => boolean): string[] {
  return [...graph].flatMap(([file, targets]) => (from(file) ? targets.filter((t) => !allowed(t)).map((t) => `${file} → ${t}`) : []));
}

test('the core imports nothing outside the core', () => {
  expect(violations((f) => inside(f, 'src/core'), (t) => inside(t, 'src/core'))).toEqual([]);
});

test('use cases import the core and the composition root types only', () => {
  expect(violations((f) => inside(f, 'src/usecases'), (t) => inside(t, 'src/core') || inside(t, 'src/usecases') || t === path.join('src', 'server', 'dependencies.ts'))).toEqual([]);
});

test('a handler imports no other handler', () => {
  const handler = (f: string) => inside(f, 'handlers') && !inside(f, path.join('handlers', 'wire')) && !['handlers/typedOperation.ts', 'handlers/index.ts'].includes(f);
  expect(violations(handler, (t) => !handler(t))).toEqual([]);
});

test('chain I/O does not import the HTTP layer, and the configuration no chain code', () => {
  expect(violations((f) => inside(f, 'src/chain'), (t) => !inside(t, 'src/server') && !inside(t, 'src/usecases') && !inside(t, 'handlers'))).toEqual([]);
  expect(violations((f) => f === path.join('src', 'config.ts'), (t) => !inside(t, 'src/chain'))).toEqual([]);
});

test('no import cycles', () => {
  const cycles: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (file: string, trail: string[]): void => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'visiting') {
      cycles.push([...trail.slice(trail.indexOf(file)), file].join(' → '));
      return;
    }
    state.set(file, 'visiting');
    for (const target of graph.get(file) ?? []) visit(target, [...trail, file]);
    state.set(file, 'done');
  };
  for (const file of files) visit(file, []);
  expect(cycles).toEqual([]);
});

test('the rules read real imports (the graph is not empty)', () => {
  expect(graph.get(path.join('handlers', 'getQuote.ts'))).toEqual(expect.arrayContaining([path.join('src', 'usecases', 'quote.ts')]));
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
  const offenders = files
    .filter((file) => !inside(file, path.join('src', 'core', 'chains')))
    .flatMap((file) => fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n').flatMap((line, i) => (branch.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])));
  expect(offenders).toEqual([]);
  // the rule reads real code: the families themselves are the only ones that name their types
  expect(fs.readFileSync(path.join(ROOT, 'src', 'core', 'chains', 'families.ts'), 'utf8')).toContain('familyOf');
  expect(branch.test("if (chain.chainType === 'EVM') return;")).toBe(true);
});
