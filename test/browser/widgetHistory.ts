/**
 * Browser test of the widget's transaction history against the sandbox (`npm run test:browser`, after the widget
 * test): the transfers a wallet executed on the sandbox's devnet are the ones `@lifi/widget`, exactly as published,
 * shows on its history page ("Activities"), read through the SDK's getTransactionHistory from
 * `GET /v1/analytics/transfers` — the transfer index that the sandbox's indexer fills from the chains.
 *
 * The sandbox (sandbox/service.ts: anvil chains Arbitrum and Base seeded from the snapshot, chain mode, the
 * relayer, the indexer into an in-memory database) runs in this process. Test wallet 0 executes two real transfers
 * from quote to DONE with sandbox/transfer.ts (quote, approve, sign and send transactionRequest, /v1/status), under
 * this test's integrator: a bridge transfer Base → Arbitrum (USDC) and a same-chain swap on Arbitrum (USDC → WETH);
 * then the test waits until the history API lists both as DONE.
 *
 * The page (test/browser/widget/historyPage.tsx, bundled with esbuild into a temporary folder, served on its own
 * loopback port: every call of the widget to the service is cross-origin) gives the widget the integrator, the
 * sandbox's `/v1` as `sdkConfig.apiUrl`, and an EVM wallet provider that lists the browser's injected wallets
 * (EIP-6963) in the widget's own wallet menu. The wallet is an EIP-1193 provider installed with addInitScript that
 * announces itself (EIP-6963) and forwards `request` to this process through exposeFunction, where test wallet 0
 * answers (eth_requestAccounts / eth_accounts in lower case as MetaMask does, none before the page asked;
 * eth_chainId; anything else refused with 4200).
 *
 * As a user: "Connect wallet" in the widget's header, "Test Wallet" in its wallet menu (the wallet is asked for its
 * account), the header shows the account and the history button; the history button ("Activities") opens the page,
 * which asks `GET /v1/analytics/transfers?integrator=&wallet=&fromTimestamp=&toTimestamp=`. Checked: that call is
 * answered 200 with both transfers, its query names the connected account and the integrator; each transfer is one
 * card, showing the amount sent and received exactly (the widget titles them with formatUnits of the amounts), the
 * source token and chain ("USDC on Base"), and, with the card expanded, the destination token and chain ("USDC on
 * Arbitrum", "WETH on Arbitrum"); no other card. Every answer of the service the page received is validated
 * against openapi.yaml (test/support/contract.ts). It fails on a page error, a console message about CORS, a
 * failed request to the service or the page's server, an answer of the service other than 2xx, and an API call
 * to another host than the service (such as the SDK's default https://li.quest/v1). Requests to other hosts
 * (logos, the devnet's RPCs) are listed, not failed on.
 *
 * Artifacts (test/browser/artifacts/, gitignored): widget-history-1-connected.png (the main page with the account),
 * widget-history-2-list.png (the history page), widget-history-3-expanded.png (the cards expanded),
 * widget-history-failed.png (when a stage fails), widget-history-browser-log.txt (console, requests, wallet calls).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { Wallet } from 'ethers';
import type { BrowserContext, Page, Request } from 'playwright-core';
import pino from 'pino';
import type { Response as SupertestResponse } from 'supertest';
import { formatUnits } from 'viem';
import { startSandbox, type Sandbox, type SandboxState } from '../../sandbox/service';
import { runTransfer, type TransferResult } from '../../sandbox/transfer';
import { contractValidator } from '../support/contract';
import { StepTimer, closeServer, ensureChromium, failAfter, launchChromium, listening, runBrowserTest } from './chromium';
import { HISTORY_INTEGRATOR, TEST_WALLET_INFO } from './widget/history';
import { API_URL_PARAMETER } from './widget/transfer';

const LABEL = 'browser test (widget history)';
const PAGE_SOURCES = path.join(__dirname, 'widget');
const ARTIFACTS = path.join(__dirname, 'artifacts');
/** The whole test (after the install) must finish within this. */
const TEST_TIMEOUT_MS = 150_000;
/** How long one stage may wait for an answer or for the page to show it. */
const STAGE_TIMEOUT_MS = 25_000;
/** How long the indexer may take to list both transfers as DONE once /v1/status says DONE. */
const INDEX_TIMEOUT_MS = 30_000;
const ARBITRUM = 42161;
const BASE = 8453;

const timer = new StepTimer();
const step = timer.step.bind(timer);

// ------------------------------------------------------------------------------------------------------------------
// What the page did

/** One call of the page to the service, as the browser saw it. */
interface ApiCall {
  method: string;
  url: URL;
  status?: number;
  /** Chromium's error text when the request failed (a CORS refusal is `net::ERR_FAILED`). */
  failure?: string;
  body?: string;
  /** The answer's headers (names in lower case), for the contract check. */
  headers?: Record<string, string>;
}

/** What the page did, gathered from the page's events. */
class Observer {
  readonly log: string[] = [];
  readonly problems: string[] = [];
  readonly calls: ApiCall[] = [];
  /** Hosts other than the page's and the service's origins that the page tried to reach, with how many requests. */
  readonly externalHosts = new Map<string, number>();
  private readonly callsByRequest = new Map<Request, ApiCall>();
  private readonly pending = new Set<Promise<unknown>>();

  constructor(
    private readonly pageOrigin: string,
    private readonly serviceOrigin: string,
  ) {}

  watch(page: Page): void {
    page.on('console', (message) => {
      const where = message.location().url;
      this.log.push(`console.${message.type()}: ${message.text()}${where ? ` (at ${where})` : ''}`);
      if (/CORS|Access-Control/i.test(message.text())) this.problems.push(`console message about CORS: ${message.text()}`);
    });
    page.on('pageerror', (error) => {
      this.log.push(`pageerror: ${error.stack ?? error.message}`);
      this.problems.push(`page error: ${error.message}`);
    });
    page.on('request', (request) => {
      const url = new URL(request.url());
      this.log.push(`request: ${request.method()} ${request.url()}`);
      if (url.origin === this.serviceOrigin) {
        const call: ApiCall = { method: request.method(), url };
        this.calls.push(call);
        this.callsByRequest.set(request, call);
      } else if (url.origin !== this.pageOrigin && /^https?:$/.test(url.protocol)) {
        this.externalHosts.set(url.host, (this.externalHosts.get(url.host) ?? 0) + 1);
        // an API call that bypasses the configured apiUrl (the SDK's default is https://li.quest/v1)
        if (/(^|\.)li\.quest$/.test(url.hostname) || url.pathname.startsWith('/v1/')) {
          this.problems.push(`API call to another host than the service: ${request.method()} ${request.url()}`);
        }
      }
    });
    page.on('response', (response) => {
      const request = response.request();
      this.log.push(`response: ${response.status()} ${request.method()} ${response.url()}`);
      const call = this.callsByRequest.get(request);
      if (!call) return;
      const status = response.status();
      call.status = status;
      call.headers = response.headers();
      const reading = response.text().then(
        (text) => {
          call.body = text;
          if (status < 200 || status > 299) this.problems.push(`the service answered ${status} to ${describe(call)}: ${text.slice(0, 500)}`);
        },
        (error: Error) => {
          call.body = '';
          this.log.push(`body of ${request.method()} ${request.url()} not readable: ${error.message}`);
        },
      );
      this.pending.add(reading);
      void reading.finally(() => this.pending.delete(reading));
    });
    page.on('requestfailed', (request) => {
      const failure = request.failure()?.errorText ?? 'failed';
      this.log.push(`requestfailed: ${request.method()} ${request.url()} ${failure}`);
      const call = this.callsByRequest.get(request);
      if (call) {
        call.failure = failure;
        // the widget aborts queries it no longer needs: not a failure of the service
        if (failure !== 'net::ERR_ABORTED') this.problems.push(`request to the service failed (${failure}): ${describe(call)}`);
      } else if (new URL(request.url()).origin === this.pageOrigin) {
        this.problems.push(`request to the page's own server failed (${failure}): ${request.url()}`);
      }
    });
  }

  /** Waits for a call that `matches` to be answered 200 (body read); its parsed body. Fails on a failure or another status. */
  async answered<T>(what: string, matches: (call: ApiCall) => boolean): Promise<{ call: ApiCall; body: T }> {
    const deadline = Date.now() + STAGE_TIMEOUT_MS;
    while (Date.now() < deadline) {
      const call = this.calls.find((c) => matches(c) && ((c.status !== undefined && c.body !== undefined) || (c.failure && c.failure !== 'net::ERR_ABORTED')));
      if (call?.failure) throw new Error(`${what}: ${describe(call)} failed in the browser (${call.failure})`);
      if (call) {
        if (call.status !== 200) throw new Error(`${what}: ${describe(call)} answered ${call.status}: ${call.body?.slice(0, 1000)}`);
        return { call, body: JSON.parse(call.body!) as T };
      }
      await sleep(100);
    }
    const seen = this.calls.map((c) => `${describe(c)} → ${c.failure ?? c.status ?? 'no answer'}`);
    throw new Error(`${what}: no such call answered within ${STAGE_TIMEOUT_MS / 1000} s; calls to the service so far:\n    ${seen.join('\n    ') || '(none)'}`);
  }

  async drain(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }
}

function describe(call: ApiCall): string {
  return `${call.method} ${call.url.pathname}${call.url.search}`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// ------------------------------------------------------------------------------------------------------------------
// The wallet

/** What the page's provider receives back from this process: a result, or an EIP-1193 error. */
type WalletAnswer = { ok: true; result: unknown } | { ok: false; error: { code: number; message: string } };

/** Test wallet 0 of the sandbox, as the page's injected wallet: one account, on Arbitrum. */
class TestWallet {
  /** The page asked for the account and was given it. */
  connected = false;
  readonly calls: string[] = [];

  constructor(
    readonly address: string,
    private readonly chainId: number,
    private readonly log: string[],
  ) {}

  async handle(method: string, params: unknown[]): Promise<WalletAnswer> {
    this.calls.push(method);
    this.log.push(`wallet: ${method} ${JSON.stringify(params).slice(0, 300)}`);
    switch (method) {
      case 'eth_requestAccounts':
        this.connected = true;
        return { ok: true, result: [this.address.toLowerCase()] };
      case 'eth_accounts':
        // like a browser wallet: no account for a site until the user has connected it
        return { ok: true, result: this.connected ? [this.address.toLowerCase()] : [] };
      case 'eth_chainId':
        return { ok: true, result: `0x${this.chainId.toString(16)}` };
      default:
        this.log.push(`wallet: ${method} refused (not supported)`);
        return { ok: false, error: { code: 4200, message: `the test wallet does not support ${method}` } };
    }
  }
}

/** The provider the page finds: `window.ethereum`, and announced to the page by EIP-6963; `request` goes to this process. */
function providerScript(): string {
  return `(() => {
  const listeners = new Map();
  const provider = {
    async request({ method, params }) {
      const answer = await window.__testWalletRequest(method, params === undefined ? [] : params);
      if (answer.ok) return answer.result;
      const error = new Error(answer.error.message);
      error.code = answer.error.code;
      throw error;
    },
    on(event, listener) { listeners.set(event, [...(listeners.get(event) ?? []), listener]); return provider; },
    removeListener(event, listener) { listeners.set(event, (listeners.get(event) ?? []).filter((l) => l !== listener)); return provider; },
  };
  window.ethereum = provider;
  const detail = Object.freeze({ info: Object.freeze(${JSON.stringify(TEST_WALLET_INFO)}), provider });
  const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }));
  window.addEventListener('eip6963:requestProvider', announce);
  announce();
})();`;
}

// ------------------------------------------------------------------------------------------------------------------
// The page

/** Type-checks the page as browser code (test/browser/widget/tsconfig.history.json: DOM, JSX); esbuild only strips types. */
async function typecheckPage(): Promise<void> {
  const tsc = require.resolve('typescript/bin/tsc');
  try {
    await promisify(execFile)(process.execPath, [tsc, '--noEmit', '-p', path.join(PAGE_SOURCES, 'tsconfig.history.json')]);
  } catch (error) {
    const output = (error as { stdout?: string }).stdout?.trim();
    throw new Error(`the page does not type-check:\n${output || String(error)}`);
  }
}

/** Bundles the page (the widget and React as published) for the browser into `outdir` (page.js and its chunks). */
async function bundlePage(outdir: string): Promise<void> {
  await build({
    entryPoints: { page: path.join(PAGE_SOURCES, 'historyPage.tsx') },
    outdir,
    bundle: true,
    // the widget loads its translations with dynamic imports: kept as separate chunks
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'error',
  });
  fs.copyFileSync(path.join(PAGE_SOURCES, 'index.html'), path.join(outdir, 'index.html'));
}

/** Serves the bundled page's folder (index.html at `/`), nothing else. */
function staticServer(root: string): http.Server {
  const types: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8' };
  return http.createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://page').pathname;
    if (pathname === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    const file = path.join(root, pathname === '/' ? 'index.html' : path.normalize(pathname).replace(/^([/\\])+/, ''));
    const type = types[path.extname(file)];
    if (req.method !== 'GET' || !type || !file.startsWith(root + path.sep) || !fs.existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
    fs.createReadStream(file).pipe(res);
  });
}

async function screenshot(page: Page, name: string): Promise<void> {
  const file = path.join(ARTIFACTS, name);
  await page.screenshot({ path: file });
  process.stdout.write(`${LABEL}: screenshot ${file}\n`);
}

// ------------------------------------------------------------------------------------------------------------------
// The transfers

interface TokenInfo {
  address: string;
  chainId: number;
  symbol: string;
  decimals: number;
}
interface TransferSide {
  chainId: number;
  txHash?: string;
  amount?: string;
  token?: TokenInfo;
}
/** A transfer as GET /v1/status and the history answer it (what this test reads of it). */
interface StatusAnswer {
  transactionId?: string;
  status: string;
  substatus?: string;
  tool?: string;
  sending: TransferSide & { includedSteps?: { toolDetails?: { key?: string; name?: string } }[] };
  receiving?: TransferSide;
}

/** What the test expects the widget to show of one transfer. */
interface ExpectedCard {
  txHash: string;
  what: string;
  fromAmount: string;
  toAmount: string;
  fromLabel: string;
  toLabel: string;
  /** The tool's name, shown where the destination chain is while the card is collapsed. */
  toolName: string;
}

/** Executes the two transfers from test wallet 0 under the test's integrator, each to DONE. */
async function executeTransfers(state: SandboxState): Promise<{ bridge: TransferResult; swap: TransferResult }> {
  const log = (what: string) => (line: string) => process.stdout.write(`${LABEL}: ${what}: ${line}\n`);
  // on two chains: the two can go at once (each chain has its own nonces)
  const [bridge, swap] = await Promise.all([
    runTransfer(state, { fromChain: String(BASE), toChain: String(ARBITRUM), fromToken: 'USDC', toToken: 'USDC', fromAmount: '1000000000', integrator: HISTORY_INTEGRATOR }, { wallet: 0, log: log('bridge'), timeoutMs: 40_000 }),
    runTransfer(state, { fromChain: String(ARBITRUM), toChain: String(ARBITRUM), fromToken: 'USDC', toToken: 'WETH', fromAmount: '250000000', integrator: HISTORY_INTEGRATOR }, { wallet: 0, log: log('swap'), timeoutMs: 40_000 }),
  ]);
  for (const [what, result] of [['bridge', bridge], ['swap', swap]] as const) {
    if (result.status.status !== 'DONE') throw new Error(`the ${what} transfer ended ${result.status.status} ${result.status.substatus ?? ''}: ${JSON.stringify(result.status).slice(0, 500)}`);
  }
  return { bridge, swap };
}

/** Polls the history API (as the SDK asks it) until it lists every hash in `hashes` as DONE; its transfers. */
async function untilIndexed(url: string, wallet: string, hashes: readonly string[]): Promise<StatusAnswer[]> {
  const deadline = Date.now() + INDEX_TIMEOUT_MS;
  let last = '';
  for (;;) {
    const res = await fetch(`${url}/v1/analytics/transfers?${new URLSearchParams({ integrator: HISTORY_INTEGRATOR, wallet })}`);
    const text = await res.text();
    if (res.status === 200) {
      const transfers = (JSON.parse(text) as { transfers: StatusAnswer[] }).transfers;
      const done = hashes.every((hash) => transfers.some((t) => t.sending.txHash?.toLowerCase() === hash.toLowerCase() && t.status === 'DONE'));
      if (done) return transfers;
      last = transfers.map((t) => `${t.sending.txHash} ${t.status} ${t.substatus ?? ''}`).join(', ') || 'no transfer';
    } else {
      last = `HTTP ${res.status}: ${text.slice(0, 300)}`;
    }
    if (Date.now() > deadline) throw new Error(`GET /v1/analytics/transfers did not list ${hashes.join(', ')} as DONE within ${INDEX_TIMEOUT_MS / 1000} s; last: ${last}`);
    await sleep(250);
  }
}

// ------------------------------------------------------------------------------------------------------------------
// The test

async function main(): Promise<void> {
  const started = Date.now();
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  // a previous run's screenshots must not pass for this run's
  for (const file of fs.readdirSync(ARTIFACTS)) if (file.startsWith('widget-history-')) fs.rmSync(path.join(ARTIFACTS, file));
  await step('chromium present or installed', ensureChromium);

  const bundleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'widget-history-page-'));
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'widget-history-browser-'));
  const pageServer = staticServer(bundleDir).listen(0, '127.0.0.1');
  const deadline = failAfter(LABEL, TEST_TIMEOUT_MS);
  let sandbox: Sandbox | undefined;
  let sandboxStart: Promise<Sandbox> | undefined;
  let context: BrowserContext | undefined;
  let observer: Observer | undefined;
  try {
    // the sandbox starts while the page is type-checked and bundled (kept for the finally block even if the bundle fails)
    sandboxStart = startSandbox({ chains: [ARBITRUM, BASE], port: 0, host: '127.0.0.1', logger: pino({ level: 'silent' }) }).then((s) => (sandbox = s));
    const [running, pageOrigin] = await Promise.all([
      step('sandbox start', () => sandboxStart!),
      listening(pageServer),
      step('type-check and bundle the page', () => Promise.all([typecheckPage(), bundlePage(bundleDir)])),
    ]);
    const serviceOrigin = running.url;
    const state: SandboxState = {
      url: running.url,
      chains: [...running.devnet.chains.values()].map((c) => ({ chainId: c.chainId, rpcUrl: c.url })),
      walletKeys: [...running.devnet.walletKeys],
      pid: process.pid,
    };
    const account = new Wallet(state.walletKeys[0]).address;
    process.stdout.write(`${LABEL}: sandbox ${serviceOrigin} ready in ${(running.readyMs / 1000).toFixed(1)} s; wallet ${account}\n`);

    const { bridge, swap } = await step('two transfers to DONE', () => executeTransfers(state));
    const indexed = await step('indexed as DONE', () => untilIndexed(running.url, account, [bridge.txHash, swap.txHash]));
    const names = await namesOf(running.url);
    const expected = [
      expectedCard('bridge', bridge.txHash, indexed, names),
      expectedCard('swap', swap.txHash, indexed, names),
    ];
    process.stdout.write(`${LABEL}: GET /v1/analytics/transfers lists ${indexed.length} transfer(s) of ${HISTORY_INTEGRATOR}: ${expected.map(describeCard).join('; ')}\n`);

    observer = new Observer(pageOrigin, serviceOrigin);
    const watched = observer;
    const wallet = new TestWallet(account, ARBITRUM, watched.log);
    const launched = await step('browser launch', () => launchChromium(userDataDir, { width: 900, height: 1000 }));
    context = launched.context;
    const { page } = launched;
    await context.exposeFunction('__testWalletRequest', (method: string, params: unknown[]) => wallet.handle(method, params));
    await context.addInitScript(providerScript());
    watched.watch(page);

    const pageUrl = `${pageOrigin}/?${API_URL_PARAMETER}=${encodeURIComponent(`${serviceOrigin}/v1`)}`;
    process.stdout.write(`${LABEL}: page ${pageUrl}\n`);
    await step('load the page', async () => {
      const response = await page.goto(pageUrl, { waitUntil: 'load' });
      if (response?.status() !== 200) throw new Error(`the page answered ${response?.status()}`);
    });

    try {
      await step('connect the wallet', () => connectWallet(page, wallet));
      await step('history page', () => checkHistory(page, watched, account, expected));
    } catch (error) {
      // what the page showed when a stage failed, and what else went wrong until then
      await screenshot(page, 'widget-history-failed.png').catch(() => undefined);
      await watched.drain();
      if (error instanceof Error && watched.problems.length > 0) error.message += `\n  also seen on the page:\n  ${watched.problems.join('\n  ')}`;
      throw error;
    }

    await watched.drain();
    await checkAgainstContract(watched);
    if (watched.problems.length > 0) throw new Error(`the page had problems:\n  ${watched.problems.join('\n  ')}`);
    process.stdout.write(`${LABEL}: OK in ${((Date.now() - started) / 1000).toFixed(1)} s (${timer.summary()})\n`);
  } finally {
    clearTimeout(deadline);
    if (observer) {
      await observer.drain();
      const hosts = [...observer.externalHosts].map(([host, count]) => `${host} (${count})`);
      process.stdout.write(`${LABEL}: other hosts the page tried to reach (not checked): ${hosts.join(', ') || 'none'}\n`);
    }
    const logFile = path.join(ARTIFACTS, 'widget-history-browser-log.txt');
    fs.writeFileSync(logFile, `${(observer?.log ?? []).join('\n')}\n`);
    process.stdout.write(`${LABEL}: log ${logFile}\n`);
    await context?.close().catch(() => undefined);
    await closeServer(pageServer);
    await sandboxStart?.catch(() => undefined);
    await sandbox?.stop();
    fs.rmSync(userDataDir, { recursive: true, force: true });
    fs.rmSync(bundleDir, { recursive: true, force: true });
  }
}

/** What the widget names chains and tools by: /v1/chains's names by id, /v1/tools's names by key. */
interface Names {
  chains: ReadonlyMap<number, string>;
  tools: ReadonlyMap<string, string>;
}

async function namesOf(url: string): Promise<Names> {
  const [chains, tools] = await Promise.all([`${url}/v1/chains`, `${url}/v1/tools`].map(async (address) => {
    const res = await fetch(address);
    if (res.status !== 200) throw new Error(`GET ${new URL(address).pathname} answered ${res.status}`);
    return res.json();
  })) as [{ chains: { id: number; name: string }[] }, { bridges: { key: string; name: string }[]; exchanges: { key: string; name: string }[] }];
  return {
    chains: new Map(chains.chains.map((c) => [c.id, c.name])),
    tools: new Map([...tools.bridges, ...tools.exchanges].map((t) => [t.key, t.name])),
  };
}

/** What the card of the transfer sent in `txHash` must show, from the history API's answer. */
function expectedCard(what: string, txHash: string, transfers: readonly StatusAnswer[], names: Names): ExpectedCard {
  const transfer = transfers.find((t) => t.sending.txHash?.toLowerCase() === txHash.toLowerCase());
  const sending = transfer?.sending;
  const receiving = transfer?.receiving;
  if (!sending?.token || !sending.amount || !receiving?.token || !receiving.amount) {
    throw new Error(`the history's ${what} transfer lacks the sending or receiving token or amount the widget shows: ${JSON.stringify(transfer).slice(0, 800)}`);
  }
  const chain = (id: number) => names.chains.get(id) ?? `chain ${id}`;
  // the widget's own choice (buildRouteFromTxHistory): the included step of the transfer's tool, else /v1/tools, else the key
  const tool = transfer?.tool ?? '';
  const toolName = sending.includedSteps?.find((s) => s.toolDetails?.key === tool)?.toolDetails?.name ?? names.tools.get(tool) ?? tool;
  return {
    txHash,
    what,
    fromAmount: formatUnits(BigInt(sending.amount), sending.token.decimals),
    toAmount: formatUnits(BigInt(receiving.amount), receiving.token.decimals),
    fromLabel: `${sending.token.symbol} on ${chain(sending.token.chainId)}`,
    toLabel: `${receiving.token.symbol} on ${chain(receiving.token.chainId)}`,
    toolName,
  };
}

function describeCard(card: ExpectedCard): string {
  return `${card.what} ${card.fromAmount} ${card.fromLabel} → ${card.toAmount} ${card.toLabel} via ${card.toolName} (${card.txHash})`;
}

/**
 * Stage 1: "Connect wallet" in the widget's header opens its wallet menu, which lists the injected wallet; choosing
 * it asks the wallet for its account; the header then shows the account and the history button.
 */
async function connectWallet(page: Page, wallet: TestWallet): Promise<void> {
  const header = page.locator('header');
  await header.getByRole('button', { name: 'Connect wallet' }).first().click({ timeout: STAGE_TIMEOUT_MS });
  await page.getByText(TEST_WALLET_INFO.name, { exact: true }).click({ timeout: STAGE_TIMEOUT_MS });
  // the widget's header shortens the address: its first 7 and last 5 characters
  const shown = `${wallet.address.slice(0, 7)}...${wallet.address.slice(-5)}`;
  await header.getByRole('button', { name: shown }).waitFor({ timeout: STAGE_TIMEOUT_MS });
  await page.getByRole('button', { name: 'Activities', exact: true }).waitFor({ timeout: STAGE_TIMEOUT_MS });
  if (!wallet.calls.includes('eth_requestAccounts')) throw new Error(`the page shows ${shown} without having asked the wallet for its account (wallet calls: ${wallet.calls.join(', ')})`);
  process.stdout.write(`${LABEL}: connected ${TEST_WALLET_INFO.name} from the widget's wallet menu (wallet calls: ${[...new Set(wallet.calls)].join(', ')}); the header shows ${shown} and the history button\n`);
  await screenshot(page, 'widget-history-1-connected.png');
}

/**
 * Stage 2: the history button opens the history page, which asks the service for the wallet's transfers of the
 * integrator; each transfer is one card with its amounts, tokens and chains.
 */
async function checkHistory(page: Page, observer: Observer, account: string, expected: readonly ExpectedCard[]): Promise<void> {
  const isHistory = (c: ApiCall) => c.method === 'GET' && c.url.pathname === '/v1/analytics/transfers';
  // only the history page asks for the history: none before the click
  const early = observer.calls.filter(isHistory);
  if (early.length > 0) throw new Error(`the widget asked for the history before its history page was opened: ${early.map(describe).join(', ')}`);
  await page.getByRole('button', { name: 'Activities', exact: true }).click();
  const { call, body } = await observer.answered<{ transfers: StatusAnswer[] }>('history', isHistory);
  const query = call.url.searchParams;
  if (query.get('wallet')?.toLowerCase() !== account.toLowerCase()) throw new Error(`the widget asked for the history of ${query.get('wallet')}, not of the connected ${account}: ${describe(call)}`);
  if (query.get('integrator') !== HISTORY_INTEGRATOR) throw new Error(`the widget asked for the history of integrator ${query.get('integrator')}, not ${HISTORY_INTEGRATOR}: ${describe(call)}`);
  for (const card of expected) {
    const listed = body.transfers.find((t) => t.sending.txHash?.toLowerCase() === card.txHash.toLowerCase());
    if (listed?.status !== 'DONE') throw new Error(`${describe(call)} does not list the ${card.what} transfer ${card.txHash} as DONE: ${call.body?.slice(0, 1000)}`);
  }
  process.stdout.write(`${LABEL}: ${describe(call)} answered ${call.status} with ${body.transfers.length} transfer(s)\n`);

  // the page's list: one item per transfer (a virtual list, all items fit here)
  const items = page.locator('li[data-index]');
  const cards = expected.map((card) => items.filter({ has: titled(page, card.fromAmount) }).filter({ has: titled(page, card.toAmount) }));
  for (const [index, card] of expected.entries()) {
    await cards[index].first().waitFor({ timeout: STAGE_TIMEOUT_MS }).catch(async (error: Error) => {
      const shown = (await items.allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
      throw new Error(`the history page shows no card with ${card.fromAmount} and ${card.toAmount} for the ${card.what} transfer (${error.message.split('\n')[0]}); its cards: ${shown.join(' | ') || 'none'}`);
    });
    const text = await cards[index].first().innerText();
    for (const shown of [card.fromLabel, card.toolName]) {
      if (!text.includes(shown)) throw new Error(`the ${card.what} transfer's card does not name ${shown}: ${text.replace(/\s+/g, ' ')}`);
    }
  }
  const count = await items.count();
  if (count !== expected.length) throw new Error(`the history page shows ${count} cards, not ${expected.length}: ${(await items.allInnerTexts()).join(' | ')}`);
  process.stdout.write(`${LABEL}: the history page shows ${count} cards: ${expected.map((c) => `${c.fromAmount} ${c.fromLabel} → ${c.toAmount} via ${c.toolName}`).join('; ')}\n`);
  await screenshot(page, 'widget-history-2-list.png');

  // expanded, a card names the destination token and chain (collapsed, it shows the tool there)
  for (const [index, card] of expected.entries()) {
    const item = cards[index].first();
    // the card's one icon button, beside the amount received (the card itself opens the transfer's details)
    await item.locator('button.MuiIconButton-root').click();
    await item.getByText(card.toLabel, { exact: true }).first().waitFor({ timeout: STAGE_TIMEOUT_MS }).catch(async (error: Error) => {
      throw new Error(`the ${card.what} transfer's card, expanded, does not name ${card.toLabel} (${error.message.split('\n')[0]}): ${(await item.innerText()).replace(/\s+/g, ' ')}`);
    });
  }
  process.stdout.write(`${LABEL}: expanded, the cards name ${expected.map((c) => c.toLabel).join(' and ')}\n`);
  // the widget's expand and grow transitions take 225 ms: the screenshot after them
  await page.waitForTimeout(500);
  await screenshot(page, 'widget-history-3-expanded.png');
}

/** The locator of an element titled `title` (the widget titles token amounts with their exact value). */
function titled(page: Page, title: string) {
  return page.locator(`[title="${title}"]`);
}

/** Every answer of the service the page received is one the contract declares, body and headers. */
async function checkAgainstContract(watched: Observer): Promise<void> {
  const contract = await contractValidator();
  const checked: string[] = [];
  for (const call of watched.calls) {
    if (call.status === undefined || call.body === undefined || call.method === 'OPTIONS') continue;
    // a call the page aborted may have been answered, its body then unreadable to the browser: no answer to check
    if (call.failure === 'net::ERR_ABORTED' && call.body === '') continue;
    const operationId = contract.operationIdOf(call.method, call.url.pathname);
    if (!operationId) {
      watched.problems.push(`the widget called ${call.method} ${call.url.pathname}, which the contract does not have`);
      continue;
    }
    try {
      contract.expectResponse(operationId, { status: call.status, headers: call.headers ?? {}, body: JSON.parse(call.body) } as unknown as SupertestResponse);
      checked.push(operationId);
    } catch (error) {
      watched.problems.push(`${call.method} ${call.url.pathname}${call.url.search}: ${(error as Error).message.slice(0, 500)}`);
    }
  }
  if (!checked.includes('getAnalyticsTransfers')) throw new Error('no answer of GET /v1/analytics/transfers was checked against the contract');
  process.stdout.write(`${LABEL}: ${checked.length} answers of the service valid against openapi.yaml (${[...new Set(checked)].join(', ')})\n`);
}

runBrowserTest(LABEL, timer, main);
