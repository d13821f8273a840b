/**
 * Compiles contracts/**.sol with solc-js (the bundled compiler, offline) and caches the artifacts under
 * sandbox/.cache/ (gitignored), keyed by a hash of the compiler version, the settings and every source.
 *
 *   npx tsx sandbox/compile.ts          # compile (or reuse the cache) and print the contract sizes
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

export const PROJECT_ROOT = path.resolve(__dirname, '..');
export const CONTRACTS_DIR = path.join(PROJECT_ROOT, 'contracts');
export const CACHE_DIR = path.join(__dirname, '.cache');

export interface Artifact {
  readonly abi: readonly unknown[];
  /** Creation code, 0x-prefixed. */
  readonly bytecode: string;
  /** Runtime code (what anvil_setCode places), 0x-prefixed. */
  readonly deployedBytecode: string;
}
export type Artifacts = Readonly<Record<string, Artifact>>;

const SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'cancun',
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
} as const;

/** Source unit name (path under contracts/, forward slashes) → content, sorted by name. */
export function readSources(dir = CONTRACTS_DIR): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.sol')) out[path.relative(dir, full).split(path.sep).join('/')] = fs.readFileSync(full, 'utf8');
    }
  };
  walk(dir);
  return out;
}

function solcVersion(): string {
  // the package's version, without loading the 8 MB compiler when the cache hits
  return (JSON.parse(fs.readFileSync(require.resolve('solc/package.json'), 'utf8')) as { version: string }).version;
}

export function sourcesHash(sources: Record<string, string>): string {
  const hash = createHash('sha256');
  hash.update(`solc ${solcVersion()}\n${JSON.stringify(SETTINGS)}\n`);
  for (const [name, content] of Object.entries(sources)) hash.update(`${name}\n${content.length}\n${content}`);
  return hash.digest('hex').slice(0, 24);
}

type SolcOutput = {
  errors?: { severity: string; formattedMessage: string }[];
  contracts?: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>>;
};

/**
 * One solc-js compilation in a worker thread, producing code only for `units` (every source is parsed, but the
 * costly code generation and optimisation happen only for the selected files). Plain JS, so that it runs under
 * tsx and ts-jest alike.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const solc = require(workerData.solcPath);
const input = JSON.parse(workerData.input);
input.settings.outputSelection = Object.fromEntries(workerData.units.map((u) => [u, input.settings.outputSelection['*']]));
parentPort.postMessage({ output: solc.compile(JSON.stringify(input)), version: solc.version() });
`;

function compileInWorker(input: string, units: string[]): Promise<{ output: SolcOutput; version: string }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { eval: true, workerData: { solcPath: require.resolve('solc'), input, units } });
    worker.once('message', (m: { output: string; version: string }) => {
      resolve({ output: JSON.parse(m.output) as SolcOutput, version: m.version });
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`solc worker exited with ${code}`));
    });
  });
}

/**
 * The artifacts of every contract, by contract name (names are unique across files). Compiled in parallel
 * worker threads (one per core, at most 4; the files shared out by size) unless the cache has them.
 */
export async function compileContracts(options: { dir?: string; cacheDir?: string; log?: (line: string) => void; workers?: number } = {}): Promise<Artifacts> {
  const sources = readSources(options.dir);
  const cacheDir = options.cacheDir ?? CACHE_DIR;
  const file = path.join(cacheDir, `artifacts-${sourcesHash(sources)}.json`);
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')) as Artifacts;

  const started = Date.now();
  const input = JSON.stringify({
    language: 'Solidity',
    sources: Object.fromEntries(Object.entries(sources).map(([name, content]) => [name, { content }])),
    settings: SETTINGS,
  });
  const count = Math.max(1, Math.min(options.workers ?? os.availableParallelism(), 4));
  const groups: { units: string[]; weight: number }[] = Array.from({ length: count }, () => ({ units: [], weight: 0 }));
  for (const [name, content] of Object.entries(sources).sort((a, b) => b[1].length - a[1].length)) {
    const lightest = groups.reduce((min, g) => (g.weight < min.weight ? g : min));
    lightest.units.push(name);
    lightest.weight += content.length;
  }
  const outputs = await Promise.all(groups.filter((g) => g.units.length > 0).map((g) => compileInWorker(input, g.units)));
  const artifacts: Record<string, Artifact> = {};
  for (const { output } of outputs) {
    const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
    if (errors.length > 0) throw new Error(`solc failed:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
    for (const [unit, contracts] of Object.entries(output.contracts ?? {})) {
      for (const [name, c] of Object.entries(contracts)) {
        if (!c.evm.bytecode.object) continue; // interfaces
        if (artifacts[name]) throw new Error(`contract name ${name} is defined twice (${unit})`);
        artifacts[name] = { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}`, deployedBytecode: `0x${c.evm.deployedBytecode.object}` };
      }
    }
  }
  fs.mkdirSync(cacheDir, { recursive: true });
  // drop older caches, then write atomically (parallel test workers may compile at the same time)
  for (const old of fs.readdirSync(cacheDir)) if (old.startsWith('artifacts-') && path.join(cacheDir, old) !== file) fs.rmSync(path.join(cacheDir, old), { force: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(artifacts));
  fs.renameSync(tmp, file);
  options.log?.(`compiled ${Object.keys(artifacts).length} contracts with solc ${outputs[0]?.version} in ${Date.now() - started} ms (${outputs.length} workers)`);
  return artifacts;
}

if (require.main === module) {
  const started = Date.now();
  compileContracts({ log: (l) => console.log(l) }).then((artifacts) => {
    for (const [name, a] of Object.entries(artifacts)) console.log(`${name.padEnd(16)} ${((a.deployedBytecode.length - 2) / 2).toString().padStart(6)} bytes runtime`);
    console.log(`done in ${Date.now() - started} ms`);
  }, (error: Error) => {
    console.error(error.message);
    process.exit(1);
  });
}
