/**
 * Compiles contracts/**.sol with solc-js (the bundled compiler, offline) and caches the artifacts under
 * sandbox/.cache/ (gitignored), keyed by a hash of the compiler version, the settings and every source.
 *
 *   npx tsx sandbox/compile.ts          # compile (or reuse the cache) and print the contract sizes
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

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

interface Solc {
  compile(input: string): string;
  version(): string;
}

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

/** The artifacts of every contract, by contract name (names are unique across files). */
export function compileContracts(options: { dir?: string; cacheDir?: string; log?: (line: string) => void } = {}): Artifacts {
  const sources = readSources(options.dir);
  const cacheDir = options.cacheDir ?? CACHE_DIR;
  const file = path.join(cacheDir, `artifacts-${sourcesHash(sources)}.json`);
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')) as Artifacts;

  const started = Date.now();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const solc = require('solc') as Solc;
  const input = {
    language: 'Solidity',
    sources: Object.fromEntries(Object.entries(sources).map(([name, content]) => [name, { content }])),
    settings: SETTINGS,
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts?: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(`solc failed:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  const artifacts: Record<string, Artifact> = {};
  for (const [unit, contracts] of Object.entries(output.contracts ?? {})) {
    for (const [name, c] of Object.entries(contracts)) {
      if (artifacts[name]) throw new Error(`contract name ${name} is defined twice (${unit})`);
      if (!c.evm.bytecode.object) continue; // interfaces and libraries without code
      artifacts[name] = { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}`, deployedBytecode: `0x${c.evm.deployedBytecode.object}` };
    }
  }
  fs.mkdirSync(cacheDir, { recursive: true });
  // drop older caches, then write atomically (parallel test workers may compile at the same time)
  for (const old of fs.readdirSync(cacheDir)) if (old.startsWith('artifacts-') && path.join(cacheDir, old) !== file) fs.rmSync(path.join(cacheDir, old), { force: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(artifacts));
  fs.renameSync(tmp, file);
  options.log?.(`compiled ${Object.keys(artifacts).length} contracts with solc ${solc.version()} in ${Date.now() - started} ms`);
  return artifacts;
}

if (require.main === module) {
  const started = Date.now();
  const artifacts = compileContracts({ log: (l) => console.log(l) });
  for (const [name, a] of Object.entries(artifacts)) console.log(`${name.padEnd(16)} ${((a.deployedBytecode.length - 2) / 2).toString().padStart(6)} bytes runtime`);
  console.log(`done in ${Date.now() - started} ms`);
}
