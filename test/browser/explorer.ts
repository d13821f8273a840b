/**
 * Browser test of the explorer's page per transfer (`npm run test:browser`, after the portal): /explorer/tx/<ref> in
 * headless Debian Chromium (test/browser/chromium.ts) driven by playwright-core.
 *
 * The service runs in process on a loopback port, as src/main.ts wires it (createApp with the explorer router), in
 * chain mode on a devnet of real chains: two anvil chains (Base 8453, Arbitrum 42161) with the service's contracts
 * and the bridge relayer, and an in-memory database (PGlite) as its transfer index.
 *
 * (b) A pending transfer turns into the DONE page by itself: two real bridge transfers (Base USDC → Arbitrum USDC)
 *     are quoted by the service and sent while the relayer is stopped, so the chains say PENDING
 *     WAIT_DESTINATION_TRANSACTION; their pages are opened and show it, one in a browser as it is (the page follows
 *     the status stream, /v1/status/stream), one in a browser without EventSource (the page polls /v1/status); the
 *     relayer is started and releases them on Arbitrum; each page's own script reloads it into the DONE page. The
 *     test never reloads or navigates a page itself.
 * (a) The first finished transfer's page with JavaScript disabled (a browser context without it) shows its final state:
 *     DONE, both transactions linked to the chains' explorers, the amounts; the page has no script.
 * (c) A transfer whose token symbol and name (and integrator) are `<img src=x onerror=alert(1)>`: no devnet token is
 *     named so, and the tracker names only catalog tokens, so this transfer is saved into the index
 *     (saveTransfer) as DONE, which the page answers from. The page shows the text, no dialog opens, no `img`
 *     element exists.
 *
 * It fails on any page error, console error (a CSP refusal is one), CSP violation event, dialog, failed request
 * (except requests to /v1/status that a reload ends) or request to another origin. While the status stream
 * (/v1/status/stream) is not served yet, its 404 (which Chromium reports as a console error) is the one exception,
 * and only when a request here shows it is not served: the page then falls back to polling, as it is meant to.
 *
 * Artifacts (test/browser/artifacts/, gitignored): explorer-1-pending.png, explorer-2-done.png,
 * explorer-3-no-javascript.png, explorer-4-hostile-token.png, explorer-failed.png (when a step fails),
 * explorer-browser-log.txt (console, requests, navigations).
 */
import fs from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import pino from 'pino';
import { handlers } from '../../handlers';
import { startDevnet, type Devnet } from '../../sandbox/devnet';
import { approveIfNeeded, sendTransactionRequest, type WireTransactionRequest } from '../../sandbox/execute';
import { chainsFileOf } from '../../sandbox/service';
import { loadConfig } from '../../src/config';
import type { Token } from '../../src/core/entities';
import type { TransferStatus } from '../../src/core/status/transferStatus';
import { openDatabase, type Database } from '../../src/persistence/database';
import { databaseHistory, saveTransfer } from '../../src/persistence/transfers';
import { buildAccessControl } from '../../src/server/access/build';
import { createApp } from '../../src/server/app';
import { buildDependencies, type Dependencies } from '../../src/server/dependencies';
import { explorerRouter } from '../../src/server/explorer';
import { CHROMIUM, LAUNCH_ARGS, StepTimer, closeServer, ensureChromium, failAfter, listening, runBrowserTest } from './chromium';

const ARTIFACTS = path.join(__dirname, 'artifacts');
/** The whole test (after the install) must finish within this. */
const TEST_TIMEOUT_MS = 180_000;
/** How long the page may take to follow the transfer to DONE (the fallback polls every 5 s). */
const LIVE_TIMEOUT_MS = 30_000;
const BASE = 8453;
const ARBITRUM = 42161;
const HOSTILE = '<img src=x onerror=alert(1)>';

const timer = new StepTimer();
const step = timer.step.bind(timer);
const log: string[] = [];
const problems: string[] = [];
/** Console errors tolerated while the status stream is not served (set once a request shows it is not). */
const tolerated: RegExp[] = [];

interface Quote {
  action: { fromAmount: string; fromToken: { address: string } };
  estimate: { approvalAddress: string };
  transactionRequest: WireTransactionRequest;
}

async function screenshot(page: Page, name: string): Promise<void> {
  const file = path.join(ARTIFACTS, name);
  await page.screenshot({ path: file, fullPage: true });
  process.stdout.write(`browser test (explorer): screenshot ${file}\n`);
}

/** The state the page shows (data-status of its main element), or undefined while it is being replaced. */
async function shownStatus(page: Page): Promise<string | undefined> {
  return page.locator('main').getAttribute('data-status', { timeout: 1000 }).then((value) => value ?? 'final', () => undefined);
}

/** Logs what a page does; page errors, console errors, CSP violations, dialogs and foreign requests are problems. */
function watch(page: Page, origin: string, label: string): void {
  page.on('console', (message) => {
    log.push(`${label} console.${message.type()}: ${message.text()}`);
    if (message.type() === 'error' && !tolerated.some((pattern) => pattern.test(message.text()))) problems.push(`${label}: console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`${label}: page error: ${error.message}`));
  page.on('dialog', (dialog) => {
    problems.push(`${label}: a ${dialog.type()} dialog opened: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) log.push(`${label} navigated: ${frame.url()}`);
  });
  page.on('request', (request) => {
    log.push(`${label} request: ${request.method()} ${request.url()}`);
    const url = new URL(request.url());
    if (/^https?:$/.test(url.protocol) && url.origin !== origin) problems.push(`${label}: request to another origin: ${request.url()}`);
  });
  page.on('response', (response) => log.push(`${label} response: ${response.status()} ${response.url()}`));
  page.on('requestfailed', (request) => {
    const reason = request.failure()?.errorText ?? '';
    log.push(`${label} requestfailed: ${request.url()} ${reason}`);
    // a reload ends the status stream or a poll in flight
    if (reason === 'net::ERR_ABORTED' && new URL(request.url()).pathname.startsWith('/v1/status')) return;
    problems.push(`${label}: request failed: ${request.url()} (${reason})`);
  });
}

/** Quotes a USDC bridge transfer Base → Arbitrum of `amount` units, approves and sends it; its hash (checked PENDING). */
async function sendBridgeTransfer(origin: string, devnet: Devnet, amount: string): Promise<string> {
  const wallet = devnet.wallet(BASE, 0);
  const query = new URLSearchParams({ fromChain: String(BASE), toChain: String(ARBITRUM), fromToken: 'USDC', toToken: 'USDC', fromAmount: amount, fromAddress: wallet.address, integrator: 'explorer-dapp' });
  const res = await fetch(`${origin}/v1/quote?${query}`);
  if (res.status !== 200) throw new Error(`quote: ${res.status} ${(await res.text()).slice(0, 300)}`);
  const quote = (await res.json()) as Quote;
  await approveIfNeeded(wallet, quote.action.fromToken.address, quote.estimate.approvalAddress, BigInt(quote.action.fromAmount));
  const receipt = await sendTransactionRequest(wallet, quote.transactionRequest);
  if (receipt.status !== 1) throw new Error(`the transfer ${receipt.hash} reverted`);
  const status = (await (await fetch(`${origin}/v1/status?txHash=${receipt.hash}`)).json()) as { status: string; substatus?: string };
  if (status.status !== 'PENDING') throw new Error(`the transfer is ${JSON.stringify(status)} before its release, not PENDING`);
  return receipt.hash;
}

/** Opens a pending transfer's page in `context`: the page (checked PENDING and live) and how many times it loaded. */
async function openPending(context: BrowserContext, url: string, origin: string, label: string): Promise<{ page: Page; loads: () => number }> {
  const page = await context.newPage();
  watch(page, origin, label);
  let loads = 0;
  page.on('load', () => (loads += 1));
  const response = await page.goto(url, { waitUntil: 'load' });
  if (response?.status() !== 200) throw new Error(`${label}: the page answered ${response?.status()}`);
  const first = await shownStatus(page);
  if (first !== 'PENDING') throw new Error(`${label}: the page shows ${first}, not PENDING`);
  if ((await page.locator('main[data-live] [data-action="refresh"]').count()) !== 1) throw new Error(`${label}: the pending page has no refresh link`);
  return { page, loads: () => loads };
}

/** Waits (never reloading it) until the page shows its transfer DONE, reloaded by its own script. */
async function untilDone(page: Page, loads: () => number): Promise<void> {
  const deadlineAt = Date.now() + LIVE_TIMEOUT_MS;
  let shown = await shownStatus(page);
  while (shown !== 'final' && Date.now() < deadlineAt) {
    await page.waitForTimeout(250);
    shown = (await shownStatus(page)) ?? shown;
  }
  if (shown !== 'final') throw new Error(`the page still shows ${shown} ${LIVE_TIMEOUT_MS / 1000} s after the release`);
  const state = (await page.locator('[data-field="status"]').innerText()).trim();
  if (state !== 'DONE') throw new Error(`the page reloaded into ${state}, not DONE`);
  if (loads() < 2) throw new Error('the page shows DONE without having been reloaded');
  if ((await page.locator('script').count()) !== 0) throw new Error('the DONE page still loads a script');
}

/** CSP violations the page reported (an init script records them; JavaScript-enabled pages only). */
const VIOLATIONS_SCRIPT = `window.__violations = [];
document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));`;

async function violations(page: Page, label: string): Promise<void> {
  const seen = (await page.evaluate('window.__violations')) as string[] | undefined;
  for (const v of seen ?? []) problems.push(`${label}: CSP violation: ${v}`);
}

function failOnProblems(): void {
  if (problems.length > 0) throw new Error(`the page had problems:\n  ${problems.join('\n  ')}`);
}

async function main(): Promise<void> {
  const started = Date.now();
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  for (const file of fs.readdirSync(ARTIFACTS)) if (file.startsWith('explorer-')) fs.rmSync(path.join(ARTIFACTS, file));
  await step('chromium present or installed', ensureChromium);

  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'explorer-browser-'));
  let devnet: Devnet | undefined;
  let database: Database | undefined;
  let dependencies: Dependencies | undefined;
  let service: http.Server | undefined;
  let browser: Browser | undefined;
  let current: Page | undefined;
  const deadline = failAfter('browser test (explorer)', TEST_TIMEOUT_MS);
  try {
    [devnet, database] = await step('devnet (anvil Base and Arbitrum, relayer) and database (PGlite in memory)', () =>
      Promise.all([startDevnet({ chains: [BASE, ARBITRUM], wallets: 1, warmPools: false }), openDatabase({ dir: 'memory://' })]));
    const chainsFile = path.join(scratch, 'chains.json');
    fs.writeFileSync(chainsFile, JSON.stringify(chainsFileOf(devnet)));
    const opened = database;
    const origin = await step('service start (chain mode, the transfer index, the explorer)', async () => {
      const config = loadConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_OVERRIDE: '1000000', CHAINS_FILE: chainsFile });
      const logger = pino({ level: 'silent' });
      dependencies = buildDependencies(config, { access: buildAccessControl(config, { logger }), history: databaseHistory(async () => opened.db) });
      const app = await createApp(dependencies, config, { handlers, logger, explorer: explorerRouter({ dependencies }) });
      service = app.listen(0, '127.0.0.1');
      return listening(service);
    });

    // is the status stream served yet? Until it is, its 404 is expected (the page polls instead)
    const stream = await fetch(`${origin}/v1/status/stream?txHash=0x${'0'.repeat(64)}`, { signal: AbortSignal.timeout(3000) }).catch(() => undefined);
    const streamServed = stream?.headers.get('content-type')?.startsWith('text/event-stream') === true;
    await stream?.body?.cancel().catch(() => undefined);
    if (!streamServed) {
      tolerated.push(/EventSource's response has a (MIME type|status)|Failed to load resource: the server responded with a status of 404/);
      process.stdout.write('browser test (explorer): /v1/status/stream is not served here: the page must fall back to polling /v1/status\n');
    }

    const [sent, polledRef] = await step('two bridge transfers Base → Arbitrum sent while the relayer is stopped (PENDING)', async () => {
      devnet!.relayer!.stop();
      return [await sendBridgeTransfer(origin, devnet!, '1000000000'), await sendBridgeTransfer(origin, devnet!, '250000000')];
    });
    const pageUrl = `${origin}/explorer/tx/${sent}`;
    process.stdout.write(`browser test (explorer): ${pageUrl}\n`);

    browser = await step('browser launch', () => chromium.launch({ executablePath: CHROMIUM, headless: true, args: LAUNCH_ARGS }));
    const live = await browser.newContext({ viewport: { width: 1200, height: 1000 } });
    await live.addInitScript(VIOLATIONS_SCRIPT);
    // a browser without EventSource: the page polls GET /v1/status instead
    const polling = await browser.newContext({ viewport: { width: 1200, height: 1000 } });
    await polling.addInitScript(`${VIOLATIONS_SCRIPT}\ndelete window.EventSource;`);

    await step('(b) the pending transfers\' pages turn into the DONE page by themselves (status stream; polling without EventSource)', async () => {
      const streamed = await openPending(live, pageUrl, origin, 'pending');
      const polled = await openPending(polling, `${origin}/explorer/tx/${polledRef}`, origin, 'pending-polled');
      current = streamed.page;
      await screenshot(streamed.page, 'explorer-1-pending.png');
      await streamed.page.waitForTimeout(1500); // the pages follow their transfers: nothing to reload for yet
      for (const opened of [streamed, polled]) if (opened.loads() !== 1) throw new Error(`a page reloaded ${opened.loads() - 1} times while its transfer did not change`);
      await devnet!.relayer!.start();
      for (const [opened, label] of [[streamed, 'pending'], [polled, 'pending-polled']] as const) {
        current = opened.page;
        await untilDone(opened.page, opened.loads);
        await violations(opened.page, label);
      }
      const polls = log.filter((line) => line.startsWith('pending-polled request: GET') && line.includes('/v1/status?txHash=')).length;
      if (polls === 0) throw new Error('the page without EventSource did not poll /v1/status');
      if (log.some((line) => line.startsWith('pending-polled request: GET') && line.includes('/v1/status/stream'))) throw new Error('the page without EventSource opened the stream');
      await screenshot(streamed.page, 'explorer-2-done.png');
      process.stdout.write(`browser test (explorer): both pages turned from PENDING into DONE by themselves (stream: ${streamed.loads()} loads; polling: ${polled.loads()} loads, ${polls} polls)\n`);
      await streamed.page.close();
      await polled.page.close();
      failOnProblems();
    });

    await step('(a) the finished transfer\'s page without JavaScript shows its final state', async () => {
      const noScript = await browser!.newContext({ viewport: { width: 1200, height: 1000 }, javaScriptEnabled: false });
      const page = await noScript.newPage();
      current = page;
      watch(page, origin, 'no-javascript');
      const response = await page.goto(pageUrl, { waitUntil: 'load' });
      if (response?.status() !== 200) throw new Error(`the page answered ${response?.status()}`);
      const text = await page.locator('main').innerText();
      const expected = ['DONE', 'COMPLETED', 'Base (8453)', 'Arbitrum (42161)', '1000 USDC', 'explorer-dapp', sent];
      const missing = expected.filter((part) => !text.includes(part));
      if (missing.length > 0) throw new Error(`the page without JavaScript lacks ${missing.join(', ')}:\n${text}`);
      const links = await Promise.all((await page.locator('a[href^="https://"]').all()).map(async (a) => (await a.getAttribute('href')) ?? ''));
      if (!links.includes(`https://basescan.org/tx/${sent}`)) throw new Error(`no link to the sending transaction on Base's explorer: ${links.join(' ')}`);
      if (!links.some((href) => href.startsWith('https://arbiscan.io/tx/0x'))) throw new Error(`no link to the receiving transaction on Arbitrum's explorer: ${links.join(' ')}`);
      if ((await page.locator('script, [data-live]').count()) !== 0) throw new Error('the final page has a script or is live');
      await screenshot(page, 'explorer-3-no-javascript.png');
      await noScript.close();
      failOnProblems();
    });

    await step('(c) a token named <img src=x onerror=alert(1)> is shown as text', async () => {
      const evil: Token = { chainId: BASE, address: '0x00000000000000000000000000000000000bad00', symbol: HOSTILE, name: HOSTILE, decimals: 6, coinKey: HOSTILE, priceUSD: '0', tags: [], verificationStatus: 'unverified' };
      const txHash = `0x${'e'.repeat(64)}`;
      const status: TransferStatus = {
        status: 'DONE', substatus: 'COMPLETED', substatusMessage: `swapped ${HOSTILE}`, transactionId: `0x${'f'.repeat(64)}`, tool: 'across', integrator: HOSTILE,
        fromAddress: devnet!.wallet(BASE, 0).address, toAddress: devnet!.wallet(BASE, 0).address,
        sending: { chainId: BASE, txHash, block: 1, amount: 2_500_000n, token: evil, timestamp: Math.floor(Date.now() / 1000), includedSteps: [{ tool: 'across', fromToken: evil, fromAmount: 2_500_000n, toToken: evil, toAmount: 2_400_000n }] },
        receiving: { chainId: ARBITRUM, txHash: `0x${'d'.repeat(64)}`, amount: 2_400_000n, token: { ...evil, chainId: ARBITRUM } },
      };
      await saveTransfer(opened.db, { chainId: BASE, txHash, blockNumber: 1, blockHash: `0x${'1'.repeat(64)}`, status }, new Date());
      const page = await live.newPage();
      current = page;
      watch(page, origin, 'hostile');
      const response = await page.goto(`${origin}/explorer/tx/${txHash}`, { waitUntil: 'load' });
      if (response?.status() !== 200) throw new Error(`the page answered ${response?.status()}`);
      await page.waitForTimeout(500); // time for anything that would run
      const text = await page.locator('main').innerText();
      for (const shown of [`2.5 ${HOSTILE}`, `${HOSTILE} (${HOSTILE})`, `swapped ${HOSTILE}`]) {
        if (!text.includes(shown)) throw new Error(`the page does not show "${shown}" as text:\n${text}`);
      }
      const images = await page.locator('img').count();
      if (images !== 0) throw new Error(`the page has ${images} img elements`);
      if ((await page.locator('img[src="x"], [onerror]').count()) !== 0) throw new Error('an element with the hostile attributes exists');
      await violations(page, 'hostile');
      await screenshot(page, 'explorer-4-hostile-token.png');
      await page.close();
      failOnProblems();
    });
    process.stdout.write(`browser test (explorer): OK in ${((Date.now() - started) / 1000).toFixed(1)} s (${timer.summary()})\n`);
  } catch (error) {
    if (current && !current.isClosed()) await screenshot(current, 'explorer-failed.png').catch(() => undefined);
    if (error instanceof Error && problems.length > 0 && !error.message.includes('the page had problems')) error.message += `\n  also seen on the page:\n  ${problems.join('\n  ')}`;
    throw error;
  } finally {
    clearTimeout(deadline);
    fs.writeFileSync(path.join(ARTIFACTS, 'explorer-browser-log.txt'), `${log.join('\n')}\n`);
    await browser?.close().catch(() => undefined);
    if (service) await closeServer(service);
    dependencies?.chains?.close();
    await dependencies?.access.close();
    await database?.close();
    await devnet?.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

runBrowserTest('browser test (explorer)', timer, main);
