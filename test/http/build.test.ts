/**
 * The production build (scripts/build.mjs, what `npm start` runs): bundled into one JavaScript file, started with plain
 * `node`, it answers as the TypeScript sources do — the same quote, byte for byte, as the in-process app's.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
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
});
