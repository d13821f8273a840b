/**
 * The production build (scripts/build.mjs, what `npm start` runs): bundled into one JavaScript file, started with plain
 * `node`, it answers as the TypeScript sources do — the same quote, byte for byte, as the in-process app's.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import request from 'supertest';
import { PROJECT_ROOT } from '../../src/projectRoot';
import { freePort, stopProcess } from '../support/processes';
import { makeTestApp, type TestApp } from '../support/app';

jest.setTimeout(60_000);

const OUT = path.join(PROJECT_ROOT, '.tmp', 'build-test', 'main.js');
const QUOTE = '/v1/quote?fromChain=arb&toChain=opt&fromToken=USDC&toToken=USDC&fromAmount=1000000000&fromAddress=0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea9';
let service: ChildProcess | undefined;
let base = '';
let t: TestApp;

beforeAll(async () => {
  execFileSync(process.execPath, ['scripts/build.mjs', '--outfile', OUT, '--quiet'], { cwd: PROJECT_ROOT, stdio: 'pipe' });
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  // as `npm start` runs it, with no TypeScript loader and no database (this test is about the build)
  service = spawn(process.execPath, [OUT], {
    cwd: PROJECT_ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATABASE_DIR: 'off', RATE_LIMIT_OVERRIDE: '1000000' },
  });
  let output = '';
  service.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  service.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (service.exitCode !== null) throw new Error(`the built service exited: ${output}`);
    const ready = await fetch(`${base}/ready`).then((r) => r.ok, () => false);
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`the built service did not get ready: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  t = await makeTestApp({ env: { RATE_LIMIT_OVERRIDE: '1000000' } });
});

afterAll(async () => {
  if (service) await stopProcess(service);
  await t?.dependencies.access.close();
});

test('the build is one file of plain JavaScript with its source map, no TypeScript loader', () => {
  const code = fs.readFileSync(OUT, 'utf8');
  expect(fs.existsSync(`${OUT}.map`)).toBe(true);
  expect(code).not.toMatch(/require\("tsx|from "tsx/);
  // the project's own modules are inside it, not required from src/
  expect(code).not.toMatch(/require\("\.\.?\/(src|handlers)\//);
});

test('the build is plain ASCII, which node reads and V8 parses one byte per character (one character beyond it, in a comment, made the whole file two)', () => {
  for (const file of [OUT, path.join(path.dirname(OUT), 'pgliteWorker.js')]) {
    const bytes = fs.readFileSync(file);
    expect(bytes.findIndex((byte) => byte > 0x7f)).toBe(-1);
  }
});

test('the build writes the contract parsed, with the hash of the text it was parsed from, and the built service serves that very document', async () => {
  const text = fs.readFileSync(path.join(PROJECT_ROOT, 'openapi.yaml'), 'utf8');
  const written = JSON.parse(fs.readFileSync(path.join(path.dirname(OUT), 'contract.json'), 'utf8')) as { sha256: string; document: unknown };
  expect(written.sha256).toBe(createHash('sha256').update(text).digest('hex'));
  expect(written.document).toEqual(yaml.load(text));
  expect(await (await fetch(`${base}/openapi.json`)).json()).toEqual(yaml.load(text));
});

test('the built service answers a quote exactly as the sources do', async () => {
  const built = await fetch(`${base}${QUOTE}`);
  expect(built.status).toBe(200);
  const source = await request(t.app).get(QUOTE);
  expect(source.status).toBe(200);
  expect(await built.json()).toEqual(source.body);
});

test('the built service serves the contract it validates against, and its docs', async () => {
  const yaml = await fetch(`${base}/openapi.yaml`);
  expect(await yaml.text()).toBe(fs.readFileSync(path.join(PROJECT_ROOT, 'openapi.yaml'), 'utf8'));
  const json = (await (await fetch(`${base}/openapi.json`)).json()) as { openapi: string };
  expect(json.openapi).toMatch(/^3\.0\./);
  expect((await fetch(`${base}/docs`)).status).toBe(200);
});

test('a client mistake is a 400 with the parameter named, from the compiled validators', async () => {
  const res = await fetch(`${base}/v1/quote?fromChain=arb&toChain=opt&fromToken=USDC&toToken=USDC&fromAmount=abc&fromAddress=0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea9`);
  expect(res.status).toBe(400);
  expect(((await res.json()) as { message: string }).message).toMatch(/fromAmount/);
});

describe('npm start builds only what changed (--if-stale)', () => {
  const build = (...args: string[]) => execFileSync(process.execPath, ['scripts/build.mjs', '--outfile', OUT, ...args], { cwd: PROJECT_ROOT, encoding: 'utf8' });
  const builtAt = () => fs.statSync(OUT).mtimeMs;
  // a module resolution hook that refuses esbuild: what a start with nothing to build must not load (~0.1 s)
  const refuseEsbuild = `data:text/javascript,${encodeURIComponent(`export async function resolve(specifier, context, next) { if (/^esbuild(\\/|$)/.test(specifier)) throw new Error('esbuild was imported'); return next(specifier, context); }`)}`;
  const withoutEsbuild = (...args: string[]) => execFileSync(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(`import { register } from 'node:module'; register(${JSON.stringify(refuseEsbuild)});`)}`, 'scripts/build.mjs', '--outfile', OUT, ...args],
    { cwd: PROJECT_ROOT, encoding: 'utf8', stdio: 'pipe' },
  );

  test('with nothing changed it imports no esbuild; with something to build it does (the check sees it)', () => {
    build('--if-stale'); // up to date, whatever changed since the build above
    expect(withoutEsbuild('--if-stale')).toBe(`${OUT} is up to date\n`);
    expect(() => withoutEsbuild()).toThrow(/esbuild was imported/);
  });

  test('with nothing changed it builds nothing; a file it is built from, changed, makes it build again', () => {
    const before = builtAt();
    expect(build('--if-stale')).toBe(`${OUT} is up to date\n`);
    expect(builtAt()).toBe(before);
    // the last build's inputs: the service's sources and the packages bundled with them
    const listed = JSON.parse(fs.readFileSync(`${OUT}.inputs.json`, 'utf8')) as { inputs: string[] };
    expect(listed.inputs).toEqual(expect.arrayContaining(['src/main.ts', 'src/core/routing/finder.ts', 'handlers/getQuote.ts']));
    expect(listed.inputs.some((file) => file.startsWith('node_modules/express/'))).toBe(true);
    // a file the service is built from, newer than the build: rebuilt (its content is unchanged, its time is not)
    const source = path.join(PROJECT_ROOT, 'src', 'core', 'routing', 'finder.ts');
    const later = new Date(before + 1); // just after the build (never in the future: later builds would all be stale)
    fs.utimesSync(source, later, later);
    expect(build('--if-stale')).toMatch(/built in \d+ ms/);
    expect(builtAt()).toBeGreaterThan(before);
    expect(build('--if-stale')).toMatch(/is up to date/);
  });

  test("a package's files are judged by the install's record: node_modules/.package-lock.json changed makes it build again", () => {
    const before = builtAt();
    expect(build('--if-stale')).toBe(`${OUT} is up to date\n`);
    const record = path.join(PROJECT_ROOT, 'node_modules', '.package-lock.json');
    const later = new Date(before + 1);
    fs.utimesSync(record, later, later);
    expect(build('--if-stale')).toMatch(/built in \d+ ms/);
    expect(build('--if-stale')).toMatch(/is up to date/);
  });
});

/** Runs the build as `npm start` does (--run), waits for its first answer, keeps it `holdMs` longer, then stops it. */
async function runBuilt(holdMs: number, ...args: string[]): Promise<{ pid: number; output: string }> {
  const port = await freePort();
  const started = spawn(process.execPath, ['scripts/build.mjs', '--outfile', OUT, '--quiet', '--if-stale', '--run', ...args], {
    cwd: PROJECT_ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH ?? '', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATABASE_DIR: 'off' },
  });
  let output = '';
  started.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  started.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    const deadline = Date.now() + 30_000;
    while (!(await fetch(`http://127.0.0.1:${port}/v1/chains`).then((r) => r.ok, () => false))) {
      if (started.exitCode !== null || Date.now() > deadline) throw new Error(`the service did not answer: ${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // the process spawned is the one that answers, with no node process under it
    const children = `/proc/${started.pid}/task/${started.pid}/children`;
    if (fs.existsSync(children)) expect(fs.readFileSync(children, 'utf8').trim()).toBe('');
    expect(fs.readFileSync(`/proc/${started.pid}/cmdline`, 'utf8').split('\0')).toContain('--run');
    await new Promise((resolve) => setTimeout(resolve, holdMs));
    expect(started.exitCode).toBeNull();
    return { pid: started.pid!, output };
  } finally {
    await stopProcess(started);
  }
}

test('npm start is one node process: the check, then the service in that same process (--run)', async () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  expect(pkg.scripts.start).toBe('node scripts/build.mjs --quiet --if-stale --run');
  await runBuilt(0);
});

test("npm start runs the build from V8's code cache, made for that very text once the service is warm; a cache of another text, or one V8 refuses, is made again; one it cannot write leaves the service running", async () => {
  const cache = `${OUT}.cache`;
  const textHash = createHash('sha256').update(fs.readFileSync(OUT)).digest();
  const writtenAt = () => (fs.existsSync(cache) ? fs.statSync(cache).mtimeMs : 0);
  fs.rmSync(cache, { force: true });
  // no cache: the run writes one after --code-cache-after, headed by the SHA-256 of the text it was made for
  await runBuilt(1_500, '--code-cache-after', '200');
  const made = fs.readFileSync(cache);
  expect(made.subarray(0, 32).equals(textHash)).toBe(true);
  expect(made.length).toBeGreaterThan(100_000); // the machine code of the functions run so far, not a header alone
  // a cache V8 accepts is used as it is: the next run does not write it again
  const first = writtenAt();
  await runBuilt(1_500, '--code-cache-after', '200');
  expect(writtenAt()).toBe(first);
  // planted: a cache of another text (its hash another's; V8 itself compares the text's length only) is not used
  fs.writeFileSync(cache, Buffer.concat([Buffer.alloc(32), made.subarray(32)]));
  await runBuilt(1_500, '--code-cache-after', '200');
  expect(fs.readFileSync(cache).subarray(0, 32).equals(textHash)).toBe(true);
  // planted: this text's hash over bytes V8 refuses: the service starts all the same, and the cache is made again
  fs.writeFileSync(cache, Buffer.concat([textHash, Buffer.from('not a code cache')]));
  await runBuilt(1_500, '--code-cache-after', '200');
  expect(fs.readFileSync(cache).length).toBeGreaterThan(100_000);
  // planted: a cache it cannot write (a folder where the file would go): the service runs on, without one
  fs.rmSync(cache, { force: true });
  fs.mkdirSync(cache);
  try {
    await runBuilt(1_500, '--code-cache-after', '200'); // alive 1.3 s after the write failed
    expect(fs.statSync(cache).isDirectory()).toBe(true);
    expect(fs.readdirSync(path.dirname(OUT)).filter((f) => f.startsWith(`${path.basename(cache)}.`))).toEqual([]);
  } finally {
    fs.rmSync(cache, { recursive: true, force: true });
  }
  // a build removes the cache of the text it replaces
  await runBuilt(1_500, '--code-cache-after', '200');
  expect(fs.existsSync(cache)).toBe(true);
  execFileSync(process.execPath, ['scripts/build.mjs', '--outfile', OUT, '--quiet'], { cwd: PROJECT_ROOT, stdio: 'pipe' });
  expect(fs.existsSync(cache)).toBe(false);
});

test('the built service listens before it has loaded: /health alive and /ready 503 while it starts; an API request sent meanwhile waits and is answered as later ones', async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = spawn(process.execPath, [OUT], {
    cwd: PROJECT_ROOT, detached: true, stdio: 'ignore',
    env: { PATH: process.env.PATH ?? '', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATABASE_DIR: 'off', RATE_LIMIT_OVERRIDE: '1000000' },
  });
  try {
    // polled from the start: the first answer comes while the catalog and the snapshot still load
    let health: Response | undefined;
    while (!health) health = await fetch(`${url}/health`).catch(() => undefined);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', starting: true });
    const early = fetch(`${url}/v1/chains`);
    const ready = await fetch(`${url}/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'not ready', checks: [expect.objectContaining({ name: 'service', ok: false })] });
    const answer = await early;
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual(await (await fetch(`${base}/v1/chains`)).json());
    expect(await (await fetch(`${url}/health`)).json()).toEqual({ status: 'ok', uptimeSeconds: expect.any(Number) });
  } finally {
    await stopProcess(started);
  }
});
