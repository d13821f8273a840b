/**
 * Browser test of the interactive API reference (`npm run test:browser`): headless Debian Chromium
 * (installed with apt-get when /usr/bin/chromium is missing) driven by playwright-core loads /docs from
 * the real server on a free loopback port, checks that every operation of openapi.yaml is listed,
 * sends GET /v1/chains with Scalar's own "Test Request" client and checks that the page shows the
 * server's real answer. It fails on any request that leaves the server's origin (the page must work
 * without internet), on Content-Security-Policy violations and on page errors.
 *
 * Artifacts (test/browser/artifacts/, gitignored): docs.png (the reference), docs-response.png (the
 * client with the answer), browser-log.txt (console, requests).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import yaml from 'js-yaml';
import type { BrowserContext, Page } from 'playwright-core';
import { makeTestApp } from '../support/app';
import { OPENAPI_PATH } from '../support/contract';
import { StepTimer, closeServer, ensureChromium, failAfter, launchChromium, listening, runBrowserTest } from './chromium';

const ARTIFACTS = path.join(__dirname, 'artifacts');
/** The whole test (after the install) must finish within this. */
const TEST_TIMEOUT_MS = 90_000;

const timer = new StepTimer();
const step = timer.step.bind(timer);

/** Operation titles as the reference shows them (summary, else operationId). */
function contractOperations(): { method: string; path: string; title: string }[] {
  const document = yaml.load(fs.readFileSync(OPENAPI_PATH, 'utf8')) as {
    paths: Record<string, Record<string, { summary?: string; operationId: string }>>;
  };
  const result: { method: string; path: string; title: string }[] = [];
  for (const [p, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      result.push({ method: method.toUpperCase(), path: p, title: operation.summary ?? operation.operationId });
    }
  }
  return result;
}

async function main(): Promise<void> {
  const started = Date.now();
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await step('chromium present or installed', ensureChromium);

  // the real app on the embedded data, as the HTTP suites have it (silent, no rate limit in the way)
  const { app, dependencies } = await step('server start', () => makeTestApp());
  const server = app.listen(0, '127.0.0.1');
  const origin = await listening(server);
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-browser-'));
  let context: BrowserContext | undefined;
  const log: string[] = [];
  const problems: string[] = [];
  const deadline = failAfter('browser test', TEST_TIMEOUT_MS);
  try {
    const launched = await step('browser launch', () => launchChromium(userDataDir, { width: 1400, height: 1000 }));
    context = launched.context;
    const { page } = launched;
    watch(page, origin, log, problems);

    await step('load /docs', async () => {
      const response = await page.goto(`${origin}/docs`, { waitUntil: 'load' });
      if (response?.status() !== 200) throw new Error(`/docs answered ${response?.status()}`);
    });

    const operations = contractOperations();
    await step('operations listed', async () => {
      await page.getByText(operations[0]!.title, { exact: false }).first().waitFor({ timeout: 30_000 });
      const text = await page.locator('body').innerText();
      await page.screenshot({ path: path.join(ARTIFACTS, 'docs.png') });
      const missing = operations.filter((op) => !text.includes(op.title));
      if (missing.length > 0) throw new Error(`operations not listed: ${missing.map((op) => `${op.method} ${op.path} (${op.title})`).join('; ')}`);
      process.stdout.write(`browser test: all ${operations.length} operations of openapi.yaml are listed\n`);
    });
    await page.screenshot({ path: path.join(ARTIFACTS, 'docs.png') });

    await step('Test Request GET /v1/chains', () => tryChains(page, origin));
    await page.screenshot({ path: path.join(ARTIFACTS, 'docs-response.png') });

    if (problems.length > 0) throw new Error(`the page had problems:\n  ${problems.join('\n  ')}`);
    process.stdout.write(`browser test: OK in ${((Date.now() - started) / 1000).toFixed(1)} s (${timer.summary()})\n`);
  } finally {
    clearTimeout(deadline);
    fs.writeFileSync(path.join(ARTIFACTS, 'browser-log.txt'), `${log.join('\n')}\n`);
    await context?.close().catch(() => undefined);
    await closeServer(server);
    await dependencies.access.close();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  }
}

/** Records console messages and requests; anything leaving the origin, CSP violations and page errors are problems. */
function watch(page: Page, origin: string, log: string[], problems: string[]): void {
  page.on('console', (message) => {
    log.push(`console.${message.type()}: ${message.text()}`);
    if (/Content Security Policy/i.test(message.text())) problems.push(`CSP violation: ${message.text()}`);
  });
  page.on('pageerror', (error) => {
    log.push(`pageerror: ${error.message}`);
    problems.push(`page error: ${error.message}`);
  });
  page.on('request', (req) => {
    log.push(`request: ${req.method()} ${req.url()}`);
    const url = req.url();
    if (!url.startsWith(`${origin}/`) && !/^(data|blob|about):/.test(url)) problems.push(`request outside the origin: ${req.method()} ${url}`);
  });
  page.on('requestfailed', (req) => log.push(`requestfailed: ${req.method()} ${req.url()} ${req.failure()?.errorText ?? ''}`));
  page.on('response', (res) => log.push(`response: ${res.status()} ${res.url()}`));
}

/** Opens GET /v1/chains in the reference, opens Scalar's client ("Test Request"), sends, and reads the answer off the page. */
async function tryChains(page: Page, origin: string): Promise<void> {
  const section = page.locator('[id*="GET/v1/chains"], [id*="get/v1/chains"]').first();
  // the sidebar entry of the operation
  await page.getByText('List supported chains', { exact: false }).first().click().catch(() => undefined);
  await section.scrollIntoViewIfNeeded({ timeout: 10_000 }).catch(() => undefined);
  const testButton = section.getByRole('button', { name: /Test Request/i }).first();
  await testButton.click({ timeout: 15_000 });
  const send = page.getByRole('button', { name: /^Send( Request)?/i }).first();
  await send.waitFor({ timeout: 15_000 });
  const [answer] = await Promise.all([
    page.waitForResponse((res) => res.url().startsWith(`${origin}/v1/chains`) && res.request().method() === 'GET', { timeout: 15_000 }),
    send.click(),
  ]);
  if (answer.status() !== 200) throw new Error(`GET /v1/chains from the page answered ${answer.status()}`);
  const body = (await answer.json()) as { chains: { name: string }[] };
  // the page shows the real answer: the status and a chain name from the body
  await page.getByText(/200\s*OK/i).first().waitFor({ timeout: 15_000 });
  // the first chain of the body: the answer's viewer draws only the lines in view; the visible one, since the
  // reference also holds the operation's examples, where the name stands too
  const name = body.chains[0]!.name;
  await page.getByText(`"${name}"`).filter({ visible: true }).first().waitFor({ timeout: 15_000 });
  process.stdout.write(`browser test: Test Request GET /v1/chains from the page answered 200 with ${body.chains.length} chains, shown on the page\n`);
}

runBrowserTest('browser test', timer, main);
