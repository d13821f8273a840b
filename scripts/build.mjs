/**
 * The production build: src/main.ts with everything it imports (the project's code and its packages) bundled by
 * esbuild into one plain JavaScript file, dist/main.js (and the embedded database's thread into dist/pgliteWorker.js), which `node` starts without compiling TypeScript and without
 * resolving hundreds of package files at start-up (`npm start` builds, then runs it). The packages below stay in
 * node_modules: they locate files of their own at run time (PGlite's WebAssembly, esbuild's binary, Scalar's page
 * script, pino's worker files) or are optional (pg-native). The service finds openapi.yaml and data/ from the project
 * folder (src/projectRoot.ts), so the output must stay inside the project.
 *
 *   node scripts/build.mjs [--outfile dist/main.js] [--quiet]
 *   node scripts/build.mjs --entry bench/route.ts --outfile dist/bench/route.js   (one other entry, built the same way:
 *                                                                            bench:route measures the search as it runs)
 *
 * A source map is written next to the output: `NODE_OPTIONS=--enable-source-maps` gives stack traces in the
 * TypeScript sources (it costs start-up time and memory, so `npm start` leaves it off).
 */
import { build } from 'esbuild';
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
const started = performance.now();
const options = { absWorkingDir: root, bundle: true, platform: 'node', format: 'cjs', target: 'node20.19', external: EXTERNAL, sourcemap: true, logLevel: 'warning' };
await Promise.all(entry ? [build({ ...options, entryPoints: [entry], outfile })] : [
  build({ ...options, entryPoints: ['src/main.ts'], outfile }),
  // the embedded database's thread (src/persistence/pgliteThread.ts starts it from the file next to the service's)
  build({ ...options, entryPoints: ['src/persistence/pgliteWorker.ts'], outfile: path.join(path.dirname(outfile), 'pgliteWorker.js') }),
]);
if (!process.argv.includes('--quiet')) console.log(`${outfile} built in ${Math.round(performance.now() - started)} ms`);
