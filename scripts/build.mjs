/**
 * The production build: src/main.ts with everything it imports (the project's code and its packages) bundled by
 * esbuild into one plain JavaScript file, dist/main.js (and the embedded database's thread into dist/pgliteWorker.js), which `node` starts without compiling TypeScript and without
 * resolving hundreds of package files at start-up (`npm start` builds, then runs it). The packages below stay in
 * node_modules: they locate files of their own at run time (PGlite's WebAssembly, esbuild's binary, Scalar's page
 * script, pino's worker files) or are optional (pg-native). The service finds openapi.yaml and data/ from the project
 * folder (src/projectRoot.ts), so the output must stay inside the project.
 *
 *   node scripts/build.mjs [--outfile dist/main.js] [--quiet] [--if-stale]
 *   node scripts/build.mjs --entry bench/route.ts --outfile dist/bench/route.js   (one other entry, built the same way:
 *                                                                            bench:route measures the search as it runs)
 *
 * --if-stale (what `npm start` passes): nothing is built when the output is newer than every file the last build read
 * (the project's sources, the bundled packages' files, package-lock.json and this script), as listed next to the output
 * in <outfile>.inputs.json; a second `npm start` with nothing changed starts the service at once. A source added and
 * imported changes the file that imports it, so it is seen too.
 *
 * A source map is written next to the output: `NODE_OPTIONS=--enable-source-maps` gives stack traces in the
 * TypeScript sources (it costs start-up time and memory, so `npm start` leaves it off).
 */
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argument = (name) => {
  const k = process.argv.indexOf(`--${name}`);
  return k >= 0 ? process.argv[k + 1] : undefined;
};
const EXTERNAL = ['@electric-sql/pglite', 'esbuild', '@scalar/api-reference', 'pino', 'pino-http', 'pg-native'];

const entry = argument('entry');
const outfile = argument('outfile') ?? 'dist/main.js';
const quiet = process.argv.includes('--quiet');
const inputsFile = path.resolve(root, `${outfile}.inputs.json`);
/** Files read by every build besides the bundle's inputs: what decides versions, and how the bundle is made. */
const ALWAYS = ['package-lock.json', 'scripts/build.mjs'];

/** Whether the last build's outputs exist and are newer than every file it read. */
function upToDate() {
  let listed;
  try {
    listed = JSON.parse(fs.readFileSync(inputsFile, 'utf8'));
  } catch {
    return false;
  }
  const outputs = listed.outputs.map((file) => path.resolve(root, file));
  const built = Math.min(...outputs.map((file) => (fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0)));
  if (!(built > 0)) return false;
  return [...listed.inputs, ...ALWAYS].every((file) => {
    try {
      return fs.statSync(path.join(root, file)).mtimeMs <= built;
    } catch {
      return false; // a file read by the last build is gone
    }
  });
}

if (process.argv.includes('--if-stale') && upToDate()) {
  if (!quiet) console.log(`${outfile} is up to date`);
  process.exit(0);
}

const started = performance.now();
const options = { absWorkingDir: root, bundle: true, platform: 'node', format: 'cjs', target: 'node20.19', external: EXTERNAL, sourcemap: true, logLevel: 'warning', metafile: true };
const builds = entry ? [{ entryPoints: [entry], outfile }] : [
  { entryPoints: ['src/main.ts'], outfile },
  // the embedded database's thread (src/persistence/pgliteThread.ts starts it from the file next to the service's)
  { entryPoints: ['src/persistence/pgliteWorker.ts'], outfile: path.join(path.dirname(outfile), 'pgliteWorker.js') },
];
const results = await Promise.all(builds.map((b) => build({ ...options, ...b })));
// what this build read, for the next --if-stale (paths relative to the project; files outside it are not watched)
const inputs = [...new Set(results.flatMap((r) => Object.keys(r.metafile.inputs)))].filter((file) => !file.startsWith('..') && !path.isAbsolute(file)).sort();
fs.writeFileSync(inputsFile, `${JSON.stringify({ outputs: builds.map((b) => b.outfile), inputs }, null, 1)}\n`);
if (!quiet) console.log(`${outfile} built in ${Math.round(performance.now() - started)} ms`);
