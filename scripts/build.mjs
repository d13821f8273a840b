/**
 * The production build: src/main.ts with everything it imports (the project's code and its packages) bundled by
 * esbuild into one plain JavaScript file, dist/main.js (and the embedded database's thread into dist/pgliteWorker.js), which `node` starts without compiling TypeScript and without
 * resolving hundreds of package files at start-up (`npm start` builds, then runs it). The packages below stay in
 * node_modules: they locate files of their own at run time (PGlite's WebAssembly, esbuild's binary, Scalar's page
 * script, pino's worker files) or are optional (pg-native). The service finds openapi.yaml and data/ from the project
 * folder (src/projectRoot.ts), so the output must stay inside the project.
 *
 *   node scripts/build.mjs [--outfile dist/main.js] [--quiet] [--if-stale] [--run [--code-cache-after 5000]]
 *   node scripts/build.mjs --entry bench/route.ts --outfile dist/bench/route.js   (one other entry, built the same way:
 *                                                                            bench:route measures the search as it runs)
 *
 * --if-stale (what `npm start` passes): nothing is built when the output is newer than every file the last build read
 * (the project's sources and this script; the bundled packages' files are judged by package-lock.json and npm's own
 * record of node_modules, which every install rewrites), as listed next to the output
 * in <outfile>.inputs.json; a second `npm start` with nothing changed starts the service at once. A source added and
 * imported changes the file that imports it, so it is seen too.
 *
 * The check reads only the list and the files' times: esbuild (and the YAML parser) are imported after it, when there
 * is something to build, so that a start with nothing to build costs little more than node's own start.
 *
 * --run (what `npm start` passes): then runs the output in this process, as `node <outfile>` would (the command line
 * it sees is that one: node:cluster forks its workers from it), instead of a second node process started after this
 * one: a start saves node's own start-up (0.1-0.3 s). The output runs from V8's code cache (<outfile>.cache, next to
 * it): the machine code V8 compiled for the output's functions in an earlier run, so that a start neither parses
 * 4.6 MB of JavaScript again nor compiles the functions it runs before its first answer (0.05-0.12 s measured).
 * V8 takes a cache only for the very text and node it was made for, and says so when it refuses one; a run without a
 * usable cache writes one once the service has warmed up (CODE_CACHE_AFTER_MS), for the next start.
 *
 * The service's build also writes the contract as the service reads it, parsed (<outdir>/contract.json: openapi.yaml
 * parsed to JSON, with the SHA-256 of the text it was parsed from): parsing the YAML took ~150 ms of every start.
 * The service uses it only while that hash is the contract's (src/server/contract.ts), and parses the YAML otherwise.
 *
 * The output is written without comments and without the whitespace that only lays code out (esbuild's
 * minifyWhitespace; names are kept): ~4.6 MB instead of ~7, and plain ASCII, which V8 keeps one byte per character
 * (a single character beyond ASCII in a comment made it two bytes per character), so node reads and parses it in
 * ~0.1 s less. A source map is written next to the output: `NODE_OPTIONS=--enable-source-maps` gives stack traces in
 * the TypeScript sources (it costs start-up time and memory, so `npm start` leaves it off).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { isAscii } from 'node:buffer';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import vm from 'node:vm';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argument = (name) => {
  const k = process.argv.indexOf(`--${name}`);
  return k >= 0 ? process.argv[k + 1] : undefined;
};
const EXTERNAL = ['@electric-sql/pglite', 'esbuild', '@scalar/api-reference', 'pino', 'pino-http', 'pg-native'];

const entry = argument('entry');
const outfile = argument('outfile') ?? 'dist/main.js';
const quiet = process.argv.includes('--quiet');
const run = process.argv.includes('--run');
const inputsFile = path.resolve(root, `${outfile}.inputs.json`);
/** Files read by every build besides the bundle's inputs: what decides versions, and how the bundle is made. */
const ALWAYS = ['package-lock.json', 'node_modules/.package-lock.json', 'scripts/build.mjs'];
/** When a run without a usable code cache writes one: after the service's start and warm-up (src/server/warmUp.ts). */
const CODE_CACHE_AFTER_MS = Number(argument('code-cache-after') ?? 5_000);
/** The contract, parsed by the service's build (the entry's builds have none). */
const CONTRACT = 'openapi.yaml';
const contractFile = path.join(path.dirname(outfile), 'contract.json');

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
  // a package's files change with an install, which rewrites both lock files: only the project's own are looked at
  const own = listed.inputs.filter((file) => !file.startsWith('node_modules/'));
  return [...own, ...ALWAYS].every((file) => {
    try {
      return fs.statSync(path.join(root, file)).mtimeMs <= built;
    } catch {
      return false; // a file read by the last build is gone
    }
  });
}

if (process.argv.includes('--if-stale') && upToDate()) {
  if (!quiet) console.log(`${outfile} is up to date`);
} else {
  await buildAll();
}
if (run) {
  const file = path.resolve(root, outfile);
  process.argv.splice(1, process.argv.length - 1, file);
  runFromCodeCache(file);
}

/**
 * Runs a CommonJS file as node's loader would (the same wrapper, module, require, __filename and __dirname), compiled
 * from its code cache when the cache was made for this text (its SHA-256 heads the cache: V8's own check compares
 * the text's length only) and V8 accepts it (the same node and flags); otherwise a new cache is written
 * CODE_CACHE_AFTER_MS later, holding every function compiled by then.
 */
function runFromCodeCache(file) {
  const cacheFile = `${file}.cache`;
  const bytes = fs.readFileSync(file);
  const source = bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8'); // latin1 reads ASCII as it is, without decoding
  const hash = createHash('sha256').update(bytes).digest();
  let cache;
  try {
    cache = fs.readFileSync(cacheFile);
  } catch {
    cache = undefined;
  }
  const cachedData = cache && hash.equals(cache.subarray(0, hash.length)) ? cache.subarray(hash.length) : undefined;
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData, importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER });
  if (!cachedData || script.cachedDataRejected) {
    setTimeout(() => {
      const written = `${cacheFile}.${process.pid}`;
      try {
        fs.writeFileSync(written, Buffer.concat([hash, script.createCachedData()]));
        fs.renameSync(written, cacheFile); // whole or not at all, for a start reading it now
      } catch {
        // a place it cannot write (a read-only folder, a full disk): the service runs on, the next start compiles
        try {
          fs.rmSync(written, { force: true });
        } catch {
          // nothing was written
        }
      }
    }, CODE_CACHE_AFTER_MS).unref();
  }
  const module = new Module(file);
  module.filename = file;
  script.runInThisContext()(module.exports, createRequire(file), module, file, path.dirname(file));
  module.loaded = true;
}

/** Builds the entry (or the service and its database's thread), and lists what it read for --if-stale. */
async function buildAll() {
  const started = performance.now();
  const { build, stop } = await import('esbuild');
  const options = { absWorkingDir: root, bundle: true, platform: 'node', format: 'cjs', target: 'node20.19', external: EXTERNAL, minifyWhitespace: true, sourcemap: true, logLevel: 'warning', metafile: true };
  const builds = entry ? [{ entryPoints: [entry], outfile }] : [
    { entryPoints: ['src/main.ts'], outfile },
    // the embedded database's thread (src/persistence/pgliteThread.ts starts it from the file next to the service's)
    { entryPoints: ['src/persistence/pgliteWorker.ts'], outfile: path.join(path.dirname(outfile), 'pgliteWorker.js') },
  ];
  const results = await Promise.all(builds.map((b) => build({ ...options, ...b })));
  for (const b of builds) fs.rmSync(path.resolve(root, `${b.outfile}.cache`), { force: true }); // made for the old text
  const contract = entry ? [] : await writeContract();
  // what this build read, for the next --if-stale (paths relative to the project; files outside it are not watched)
  const inputs = [...new Set([...results.flatMap((r) => Object.keys(r.metafile.inputs)), ...contract])].filter((file) => !file.startsWith('..') && !path.isAbsolute(file)).sort();
  const outputs = [...builds.map((b) => b.outfile), ...(contract.length > 0 ? [contractFile] : [])];
  fs.writeFileSync(inputsFile, `${JSON.stringify({ outputs, inputs }, null, 1)}\n`);
  if (!quiet) console.log(`${outfile} built in ${Math.round(performance.now() - started)} ms`);
  await stop(); // esbuild's own process would otherwise stay, for as long as the service --run runs
}

/**
 * Writes <outdir>/contract.json: openapi.yaml parsed as the service parses it (js-yaml), with the SHA-256 of its text
 * (src/server/contract.ts reads it). A document that JSON cannot carry unchanged (a date, say) is not written: the
 * service then parses the YAML. Returns the files read.
 */
async function writeContract() {
  fs.rmSync(path.resolve(root, contractFile), { force: true });
  const text = fs.readFileSync(path.join(root, CONTRACT), 'utf8');
  const { default: yaml } = await import('js-yaml');
  const document = yaml.load(text);
  if (!isDeepStrictEqual(JSON.parse(JSON.stringify(document)), document)) {
    if (!quiet) console.log(`${CONTRACT} has values JSON does not carry: the service will parse the YAML`);
    return [CONTRACT];
  }
  const sha256 = createHash('sha256').update(text).digest('hex');
  fs.writeFileSync(path.resolve(root, contractFile), JSON.stringify({ sha256, document }));
  return [CONTRACT];
}
