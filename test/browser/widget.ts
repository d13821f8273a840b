/**
 * Browser test of the ecosystem's drop-in UI against the service (`npm run test:browser`, after the /docs
 * test): `@lifi/widget` exactly as published, bundled with esbuild from test/browser/widget/page.tsx into a
 * temporary folder, served by a small static server on its own loopback port, while the real service runs
 * in process on another port. Every API call of the widget is therefore cross-origin, with the browser's
 * own CORS preflight; nothing between the page and the service is mocked, routed or rewritten.
 *
 * Headless Debian Chromium (test/browser/chromium.ts) driven by playwright-core checks, as a user sees it:
 *   1. chains: `GET /v1/chains` answered 200, the default transfer's chains named on the form;
 *   2. routes: `POST /v1/advanced/routes` for the default transfer answered 200, a route card shows the
 *      exact amount of one of the routes, and "Show all" lists every route with its amount;
 *   3. token list: `GET /v1/tokens` with the widget's own parameters answered 200, the token selector
 *      lists the service's tokens of the selected chain;
 *   4. token search: typing in the selector's search box sends `GET /v1/tokens?…&search=…`, answered 200
 *      with matching tokens only, and the list shows the match and nothing else.
 * It fails on any failed request to either loopback origin (a CORS refusal is one), any answer of the
 * service other than 2xx, a console message about CORS, a page error, and any API call that goes
 * elsewhere than the service (such as the widget's default https://li.quest/v1); and it checks on the
 * service's side that the browser's preflights came from the page's origin and were allowed. Requests to
 * other hosts (logos from the catalog's logoURI, wallet connectors, fonts) cannot succeed in a closed
 * network: they are listed, not failed on.
 *
 * Artifacts (test/browser/artifacts/, gitignored): widget-1-chains.png, widget-2-routes.png (the main
 * page's route card), widget-3-all-routes.png ("Show all"), widget-4-tokens.png, widget-5-search.png,
 * widget-failed.png (when a stage fails), widget-browser-log.txt (console, requests, preflights).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import type { BrowserContext, Page, Request } from 'playwright-core';
import { formatUnits, parseUnits } from 'viem';
import type { Response as SupertestResponse } from 'supertest';
import { makeTestApp } from '../support/app';
import { contractValidator } from '../support/contract';
import { StepTimer, closeServer, ensureChromium, failAfter, launchChromium, listening, runBrowserTest } from './chromium';
import { API_URL_PARAMETER, DEFAULT_TRANSFER, INTEGRATOR, TOKEN_SEARCH } from './widget/transfer';

const PAGE_SOURCES = path.join(__dirname, 'widget');
const ARTIFACTS = path.join(__dirname, 'artifacts');
/** The whole test (after the install) must finish within this. */
const TEST_TIMEOUT_MS = 100_000;
/** How long one stage may wait for an answer or for the page to show it. */
const STAGE_TIMEOUT_MS = 25_000;
/** The placeholder of the token selector's search box (the widget's English text). */
const SEARCH_PLACEHOLDER = 'Search by token or address';

const timer = new StepTimer();
const step = timer.step.bind(timer);

/** One call of the page to the service, as the browser saw it. */
interface ApiCall {
  method: string;
  url: URL;
  postData: string | null;
  status?: number;
  /** Chromium's error text when the request failed (a CORS refusal is `net::ERR_FAILED`). */
  failure?: string;
  /** The answer's body, once read. */
  body?: string;
  /** The service's `x-ignored-parameters` header: parameters it accepted without effect. */
  ignoredParameters?: string;
  /** The answer's headers (names in lower case), for the contract check. */
  headers?: Record<string, string>;
}

/** One request as the service received it (preflights included: the page never sees those). */
interface ServerHit {
  method: string;
  url: string;
  origin: string | undefined;
  requestHeaders: string | undefined;
  status: number;
  allowOrigin: string | undefined;
  allowHeaders: string | undefined;
}

/** What the page did, gathered from the page's events and the service's side. */
class Observer {
  readonly log: string[] = [];
  readonly problems: string[] = [];
  readonly calls: ApiCall[] = [];
  readonly serverHits: ServerHit[] = [];
  /** Hosts other than the two loopback origins that the page tried to reach, with how many requests. */
  readonly externalHosts = new Map<string, number>();
  /** The page's calls to the service by the browser's request, to file answers and failures under. */
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
        const call: ApiCall = { method: request.method(), url, postData: request.postData() };
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
    page.on('websocket', (socket) => {
      const url = new URL(socket.url());
      this.log.push(`websocket: ${socket.url()}`);
      this.externalHosts.set(url.host, (this.externalHosts.get(url.host) ?? 0) + 1);
    });
    page.on('response', (response) => {
      const request = response.request();
      this.log.push(`response: ${response.status()} ${request.method()} ${response.url()}`);
      const call = this.callsByRequest.get(request);
      if (!call) return;
      const status = response.status();
      call.status = status;
      call.headers = response.headers();
      call.ignoredParameters = call.headers['x-ignored-parameters'];
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
        // the widget aborts queries it no longer needs (a search term typed further): not a failure of the service
        if (failure !== 'net::ERR_ABORTED') this.problems.push(`request to the service failed (${failure}): ${describe(call)}`);
      } else if (new URL(request.url()).origin === this.pageOrigin) {
        this.problems.push(`request to the page's own server failed (${failure}): ${request.url()}`);
      }
    });
  }

  /** Records what the service received and answered: preflights and the origin of each request. */
  watchServer(server: http.Server): void {
    server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
      res.on('finish', () => {
        const header = (name: string) => {
          const value = res.getHeader(name);
          return value === undefined ? undefined : String(value);
        };
        const hit: ServerHit = {
          method: req.method ?? '',
          url: req.url ?? '',
          origin: req.headers.origin,
          requestHeaders: req.headers['access-control-request-headers'],
          status: res.statusCode,
          allowOrigin: header('access-control-allow-origin'),
          allowHeaders: header('access-control-allow-headers'),
        };
        this.serverHits.push(hit);
        this.log.push(
          `service: ${hit.method} ${hit.url} origin=${hit.origin ?? '-'} → ${hit.status}` +
            (hit.method === 'OPTIONS' ? ` (requested headers: ${hit.requestHeaders ?? '-'}; allowed origin: ${hit.allowOrigin ?? '-'}, headers: ${hit.allowHeaders ?? '-'})` : ''),
        );
      });
    });
  }

  /** Waits for a call that `matches` to be answered (body read) or to fail, and returns it. */
  async settled(what: string, matches: (call: ApiCall) => boolean): Promise<ApiCall> {
    const deadline = Date.now() + STAGE_TIMEOUT_MS;
    while (Date.now() < deadline) {
      // a call the page aborted (the widget cancels a request whose inputs changed, and asks again) is never the one:
      // it may have been answered 200 before the abort, with its body unreadable
      const call = this.calls.find((c) => matches(c) && c.failure !== 'net::ERR_ABORTED' && ((c.status !== undefined && c.body !== undefined) || c.failure));
      if (call) return call;
      await sleep(100);
    }
    const seen = this.calls.map((c) => `${describe(c)} → ${c.failure ?? c.status ?? 'no answer'}`);
    throw new Error(`${what}: no such call answered within ${STAGE_TIMEOUT_MS / 1000} s; calls to the service so far:\n    ${seen.join('\n    ') || '(none)'}`);
  }

  /** Like `settled`, and the call must have been answered 200; returns its parsed body. */
  async answered<T>(what: string, matches: (call: ApiCall) => boolean): Promise<{ call: ApiCall; body: T }> {
    const call = await this.settled(what, matches);
    if (call.failure) {
      const preflight = this.serverHits.find((hit) => hit.method === 'OPTIONS' && hit.url === `${call.url.pathname}${call.url.search}`);
      const seen = preflight
        ? `its preflight asked for headers ${preflight.requestHeaders ?? '-'} and was answered ${preflight.status}, allowing ` +
          `origin ${preflight.allowOrigin ?? '(none)'} and headers ${preflight.allowHeaders ?? '(none)'}`
        : 'the service received no preflight for it';
      const browserSaid = this.problems.filter((problem) => problem.startsWith('console') && problem.includes(call.url.pathname));
      throw new Error(`${what}: ${describe(call)} failed in the browser (${call.failure}); ${seen}${browserSaid.length > 0 ? `\n  ${browserSaid.join('\n  ')}` : ''}`);
    }
    if (call.status !== 200) throw new Error(`${what}: ${describe(call)} answered ${call.status}: ${call.body?.slice(0, 1000)}`);
    return { call, body: JSON.parse(call.body!) as T };
  }

  async drain(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }
}

function describe(call: ApiCall): string {
  return `${call.method} ${call.url.pathname}${call.url.search}${call.postData ? ` ${call.postData}` : ''}`;
}

/** How a call was answered, for the summary lines: its status and the parameters the service ignored. */
function answeredAs(call: ApiCall): string {
  return `answered ${call.status}${call.ignoredParameters ? ` (x-ignored-parameters: ${call.ignoredParameters})` : ''}`;
}

function logPath(): string {
  return path.join(ARTIFACTS, 'widget-browser-log.txt');
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Type-checks the page as browser code (test/browser/widget/tsconfig.json: DOM, JSX), which the root
 * tsconfig.json does not cover; esbuild only strips types.
 */
async function typecheckPage(): Promise<void> {
  const tsc = require.resolve('typescript/bin/tsc');
  try {
    await promisify(execFile)(process.execPath, [tsc, '--noEmit', '-p', path.join(PAGE_SOURCES, 'tsconfig.json')]);
  } catch (error) {
    const output = (error as { stdout?: string }).stdout?.trim();
    throw new Error(`the page does not type-check:\n${output || String(error)}`);
  }
}

/** Bundles the page (the widget and React as published) for the browser into `outdir`. */
async function bundlePage(outdir: string): Promise<void> {
  await build({
    entryPoints: [path.join(PAGE_SOURCES, 'page.tsx')],
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
      // the page has no icon; Chromium asks for one anyway
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

interface Chain {
  id: number;
  name: string;
}
interface Token {
  chainId: number;
  address: string;
  symbol: string;
  name: string;
  decimals: number;
}
interface Route {
  toAmount: string;
  toToken: Token;
}

async function main(): Promise<void> {
  const started = Date.now();
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  // a previous run's screenshots must not pass for this run's
  for (const file of fs.readdirSync(ARTIFACTS)) if (file.startsWith('widget-')) fs.rmSync(path.join(ARTIFACTS, file));
  await step('chromium present or installed', ensureChromium);

  const bundleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'widget-page-'));
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'widget-browser-'));
  const { app, dependencies } = await step('service start', () => makeTestApp());
  const service = app.listen(0, '127.0.0.1');
  const pageServer = staticServer(bundleDir).listen(0, '127.0.0.1');
  let context: BrowserContext | undefined;
  let observer: Observer | undefined;
  const deadline = failAfter('browser test (widget)', TEST_TIMEOUT_MS);
  try {
    const [serviceOrigin, pageOrigin] = await Promise.all([listening(service), listening(pageServer)]);
    await step('type-check and bundle the page', () => Promise.all([typecheckPage(), bundlePage(bundleDir)]));
    observer = new Observer(pageOrigin, serviceOrigin);
    observer.watchServer(service);
    const watched = observer;

    const launched = await step('browser launch', () => launchChromium(userDataDir, { width: 900, height: 1000 }));
    context = launched.context;
    const { page } = launched;
    watched.watch(page);

    const pageUrl = `${pageOrigin}/?${API_URL_PARAMETER}=${encodeURIComponent(`${serviceOrigin}/v1`)}`;
    process.stdout.write(`browser test (widget): page ${pageUrl}, service ${serviceOrigin}\n`);
    await step('load the page', async () => {
      const response = await page.goto(pageUrl, { waitUntil: 'load' });
      if (response?.status() !== 200) throw new Error(`the page answered ${response?.status()}`);
    });

    try {
      await step('chains', () => checkChains(page, watched));
      await step('routes', () => checkRoutes(page, watched));
      await step('token list', () => checkTokenList(page, watched));
      await step('token search', () => checkTokenSearch(page, watched));
    } catch (error) {
      // what the page showed when a stage failed, and what else went wrong until then
      await screenshot(page, 'widget-failed.png').catch(() => undefined);
      await watched.drain();
      if (error instanceof Error && watched.problems.length > 0) error.message += `\n  also seen on the page:\n  ${watched.problems.join('\n  ')}`;
      throw error;
    }

    await watched.drain();
    checkPreflights(watched, pageOrigin);
    await checkAgainstContract(watched);
    if (watched.problems.length > 0) throw new Error(`the page had problems:\n  ${watched.problems.join('\n  ')}`);
    process.stdout.write(`browser test (widget): OK in ${((Date.now() - started) / 1000).toFixed(1)} s (${timer.summary()})\n`);
  } finally {
    clearTimeout(deadline);
    if (observer) {
      await observer.drain();
      const hosts = [...observer.externalHosts].map(([host, count]) => `${host} (${count})`);
      process.stdout.write(`browser test (widget): other hosts the page tried to reach (unreachable here, not checked): ${hosts.join(', ') || 'none'}\n`);
      fs.writeFileSync(logPath(), `${observer.log.join('\n')}\n`);
      process.stdout.write(`browser test (widget): log ${logPath()}\n`);
    }
    await context?.close().catch(() => undefined);
    await closeServer(service);
    await closeServer(pageServer);
    await dependencies.access.close();
    fs.rmSync(userDataDir, { recursive: true, force: true });
    fs.rmSync(bundleDir, { recursive: true, force: true });
  }
}

/** Every answer the widget received from the service is one the contract declares, body and headers. */
async function checkAgainstContract(watched: { calls: ApiCall[]; problems: string[] }): Promise<void> {
  const contract = await contractValidator();
  for (const call of watched.calls) {
    if (call.status === undefined || call.body === undefined || call.method === 'OPTIONS') continue;
    // a call the page aborted (the widget asks again when its inputs change) may have been answered, its body then
    // unreadable to the browser: there is no answer to check (the call asked again is checked)
    if (call.failure === 'net::ERR_ABORTED' && call.body === '') continue;
    const operationId = contract.operationIdOf(call.method, call.url.pathname);
    if (!operationId) {
      watched.problems.push(`the widget called ${call.method} ${call.url.pathname}, which the contract does not have`);
      continue;
    }
    try {
      contract.expectResponse(operationId, { status: call.status, headers: call.headers ?? {}, body: JSON.parse(call.body) } as unknown as SupertestResponse);
    } catch (error) {
      watched.problems.push(`${call.method} ${call.url.pathname}${call.url.search}: ${(error as Error).message.slice(0, 500)}`);
    }
  }
}

async function screenshot(page: Page, name: string): Promise<void> {
  const file = path.join(ARTIFACTS, name);
  await page.screenshot({ path: file });
  process.stdout.write(`browser test (widget): screenshot ${file}\n`);
}

/** Stage 1: the chain list is loaded from the service and the form names the default transfer's chains. */
async function checkChains(page: Page, observer: Observer): Promise<void> {
  const { call, body } = await observer.answered<{ chains: Chain[] }>('chains', (c) => c.method === 'GET' && c.url.pathname === '/v1/chains');
  const names = body.chains.map((chain) => chain.name);
  for (const name of [DEFAULT_TRANSFER.fromChainName, DEFAULT_TRANSFER.toChainName]) {
    if (!names.includes(name)) throw new Error(`GET /v1/chains does not list ${name}: ${names.join(', ')}`);
  }
  // the "From" and "To" cards show the selected token and, under it, the chain's name from /v1/chains
  await card(page, 'From').locator(`[title="${DEFAULT_TRANSFER.fromChainName}"]`).waitFor({ timeout: STAGE_TIMEOUT_MS });
  await card(page, 'To').locator(`[title="${DEFAULT_TRANSFER.toChainName}"]`).waitFor({ timeout: STAGE_TIMEOUT_MS });
  process.stdout.write(
    `browser test (widget): ${describe(call)} ${answeredAs(call)} with ${names.length} chains; the form shows ` +
      `${DEFAULT_TRANSFER.fromTokenSymbol} on ${DEFAULT_TRANSFER.fromChainName} → ${DEFAULT_TRANSFER.toTokenSymbol} on ${DEFAULT_TRANSFER.toChainName}\n`,
  );
  await screenshot(page, 'widget-1-chains.png');
}

/** The main page's token card of one side ("From" or "To"). */
function card(page: Page, title: 'From' | 'To') {
  return page.getByRole('button').filter({ has: page.getByText(title, { exact: true }) }).first();
}

/** The locator of an element whose title is one of `titles` (the widget titles amounts with their exact value). */
function titled(page: Page, titles: string[]) {
  return page.locator(titles.map((title) => `[title="${title}"]`).join(', '));
}

/**
 * Stage 2: routes for the default transfer are asked for and answered; the main page shows one route card
 * with its amount, and "Show all" lists every route with its amount.
 */
async function checkRoutes(page: Page, observer: Observer): Promise<void> {
  const { call, body } = await observer.answered<{ routes: Route[] }>('routes', (c) => c.method === 'POST' && c.url.pathname === '/v1/advanced/routes');
  const request = JSON.parse(call.postData ?? '{}') as Record<string, unknown>;
  const expected = {
    fromChainId: DEFAULT_TRANSFER.fromChain,
    toChainId: DEFAULT_TRANSFER.toChain,
    fromTokenAddress: DEFAULT_TRANSFER.fromToken,
    toTokenAddress: DEFAULT_TRANSFER.toToken,
    // ETH has 18 decimals
    fromAmount: parseUnits(DEFAULT_TRANSFER.fromAmount, 18).toString(),
  };
  for (const [field, value] of Object.entries(expected)) {
    if (String(request[field]).toLowerCase() !== String(value).toLowerCase()) {
      throw new Error(`the widget asked for routes with ${field}=${String(request[field])}, not the page's default ${value}`);
    }
  }
  if (body.routes.length === 0) throw new Error(`POST /v1/advanced/routes answered 200 without routes: ${call.body?.slice(0, 500)}`);
  // a route card shows the amount received, and carries it exactly in a title (formatUnits of toAmount)
  const amounts = [...new Set(body.routes.map((route) => formatUnits(BigInt(route.toAmount), route.toToken.decimals)))];
  const shown = titled(page, amounts).first();
  await shown.waitFor({ timeout: STAGE_TIMEOUT_MS });
  const text = (await shown.innerText()).trim();
  process.stdout.write(
    `browser test (widget): ${call.method} ${call.url.pathname} ${answeredAs(call)} with ${body.routes.length} route(s); ` +
      `the route card shows ${text} ${DEFAULT_TRANSFER.toTokenSymbol} (exactly ${await shown.getAttribute('title')}; options sent: ${JSON.stringify(request.options)})\n`,
  );
  if (body.routes.length === 1) {
    await screenshot(page, 'widget-2-routes.png');
    return;
  }
  const showAll = page.getByRole('button', { name: 'Show all', exact: true });
  await showAll.waitFor({ timeout: STAGE_TIMEOUT_MS });
  await screenshot(page, 'widget-2-routes.png');
  await showAll.click();
  // the routes page renders one card per route (not virtual): every amount is there
  for (const amount of amounts) {
    await titled(page, [amount]).first().waitFor({ state: 'attached', timeout: STAGE_TIMEOUT_MS });
  }
  process.stdout.write(`browser test (widget): "Show all" lists the ${body.routes.length} routes with their amounts (${amounts.join(', ')} ${DEFAULT_TRANSFER.toTokenSymbol})\n`);
  await screenshot(page, 'widget-3-all-routes.png');
  // back to the main page by the widget's own back button: the first button of the routes page's header
  await page.locator('header', { hasText: 'Receive' }).getByRole('button').first().click();
  await showAll.waitFor({ timeout: STAGE_TIMEOUT_MS });
}

/** Whether a `/v1/tokens` call is the widget's token list (with its own parameters), or its search. */
function isTokensCall(call: ApiCall, search: string | null): boolean {
  return call.method === 'GET' && call.url.pathname === '/v1/tokens' && call.url.searchParams.get('search') === search;
}

/**
 * The symbols of the token selector's list items as rendered (the list is virtual: only what fits). Each
 * item is a MUI list item whose primary text is the symbol (its secondary text the name; its avatar
 * shows the symbol's initial when the logo cannot load, as here).
 */
async function listedSymbols(page: Page): Promise<string[]> {
  const symbols = await page.locator('li .MuiListItemText-primary').allInnerTexts();
  return symbols.map((symbol) => symbol.trim()).filter((symbol) => symbol.length > 0);
}

/** Polls the token selector's list until `accept` approves it; fails with what it last showed. */
async function waitForList(page: Page, what: string, accept: (symbols: string[]) => boolean): Promise<string[]> {
  const deadline = Date.now() + STAGE_TIMEOUT_MS;
  let symbols: string[] = [];
  while (Date.now() < deadline) {
    symbols = await listedSymbols(page);
    if (accept(symbols)) return symbols;
    await sleep(200);
  }
  throw new Error(`${what}; the token selector lists: ${symbols.join(', ') || 'nothing'}`);
}

/** Stage 3: the token selector lists the selected chain's tokens of the service's `/v1/tokens` answer. */
async function checkTokenList(page: Page, observer: Observer): Promise<void> {
  const { call, body } = await observer.answered<{ tokens: Record<string, Token[]> }>('token list', (c) => isTokensCall(c, null));
  const total = Object.values(body.tokens).flat().length;
  const onChain = (body.tokens[String(DEFAULT_TRANSFER.fromChain)] ?? []).map((token) => token.symbol);
  if (onChain.length === 0) throw new Error(`${describe(call)} answered no token on chain ${DEFAULT_TRANSFER.fromChain}`);
  // the parameters this test is about (a later widget release that drops them would make it pass vacuously)
  for (const parameter of ['orderBy', 'limit', 'extended']) {
    if (!call.url.searchParams.has(parameter)) throw new Error(`the widget's token list request has no ${parameter} any more: ${describe(call)}`);
  }
  // the "From" card opens the selector on the transfer's source chain
  await card(page, 'From').click();
  await page.getByPlaceholder(SEARCH_PLACEHOLDER).waitFor({ timeout: STAGE_TIMEOUT_MS });
  const enough = Math.min(3, onChain.length);
  const shown = await waitForList(
    page,
    `the token selector does not list ${enough} or more of the ${onChain.length} tokens of chain ${DEFAULT_TRANSFER.fromChain} in the answer (${onChain.join(', ')}), and only those`,
    (symbols) => symbols.length >= enough && symbols.every((symbol) => onChain.includes(symbol)),
  );
  process.stdout.write(
    `browser test (widget): ${describe(call)} ${answeredAs(call)} with ${total} tokens on ${Object.keys(body.tokens).length} chains; ` +
      `the token selector lists ${shown.join(', ')} on ${DEFAULT_TRANSFER.fromChainName}\n`,
  );
  await screenshot(page, 'widget-4-tokens.png');
}

/** Stage 4: typing in the search box asks the service, which answers matches only, and the list shows the matches of the selected chain. */
async function checkTokenSearch(page: Page, observer: Observer): Promise<void> {
  // typed key by key, as a user does: the widget debounces the box and asks the service for the term typed
  await page.getByPlaceholder(SEARCH_PLACEHOLDER).pressSequentially(TOKEN_SEARCH.term);
  const { call, body } = await observer.answered<{ tokens: Record<string, Token[]> }>('token search', (c) => isTokensCall(c, TOKEN_SEARCH.term));
  const found = Object.values(body.tokens).flat();
  const term = TOKEN_SEARCH.term.toLowerCase();
  // what a search means to the widget (its own isSearchMatch): the term in the name, symbol or address
  const unrelated = found.filter((t) => ![t.name, t.symbol, t.address].some((s) => s.toLowerCase().includes(term)));
  if (unrelated.length > 0) {
    const sample = unrelated.slice(0, 8).map((t) => `${t.symbol} (${t.name}) on ${t.chainId}`);
    throw new Error(
      `${describe(call)} answered ${unrelated.length} of ${found.length} tokens that do not match "${TOKEN_SEARCH.term}" ` +
        `(x-ignored-parameters: ${call.ignoredParameters ?? '-'}), e.g. ${sample.join(', ')}`,
    );
  }
  if (!found.some((t) => t.chainId === TOKEN_SEARCH.chainId && t.address.toLowerCase() === TOKEN_SEARCH.address.toLowerCase())) {
    throw new Error(`${describe(call)} did not answer ${TOKEN_SEARCH.symbol} on chain ${TOKEN_SEARCH.chainId}: ${call.body?.slice(0, 500)}`);
  }
  // the selector shows the answer's matches on the selected chain, and only those (EURC, and the listed tokens whose
  // name or symbol holds the term: Heurist, NEURON)
  const expected = [...new Set(found.filter((t) => t.chainId === TOKEN_SEARCH.chainId).map((t) => t.symbol))].sort();
  const shown = await waitForList(
    page,
    `the token selector does not list exactly the answer's matches on chain ${TOKEN_SEARCH.chainId} (${expected.join(', ')})`,
    (symbols) => symbols.includes(TOKEN_SEARCH.symbol) && symbols.length === expected.length && [...symbols].sort().every((symbol, k) => symbol === expected[k]),
  );
  process.stdout.write(
    `browser test (widget): ${describe(call)} ${answeredAs(call)} with ${found.length} token(s) (${found.slice(0, 10).map((t) => `${t.symbol} on ${t.chainId}`).join(', ')}${found.length > 10 ? ', …' : ''}); ` +
      `the token selector lists ${shown.join(', ')}\n`,
  );
  await screenshot(page, 'widget-5-search.png');
}

/**
 * The calls were cross-origin for real: the service received the browser's preflights from the page's
 * origin, for the headers the SDK and the widget send, and allowed them.
 */
function checkPreflights(observer: Observer, pageOrigin: string): void {
  const preflights = observer.serverHits.filter((hit) => hit.method === 'OPTIONS');
  if (preflights.length === 0) throw new Error('the service received no CORS preflight: the calls were not cross-origin');
  for (const hit of preflights) {
    if (hit.origin !== pageOrigin) throw new Error(`a preflight came from ${hit.origin}, not the page's origin ${pageOrigin}`);
    if (hit.status < 200 || hit.status > 299) throw new Error(`the preflight of ${hit.url} answered ${hit.status}`);
  }
  const elsewhere = observer.serverHits.filter((hit) => hit.origin !== pageOrigin);
  if (elsewhere.length > 0) throw new Error(`the service received calls without the page's origin: ${elsewhere.map((hit) => `${hit.method} ${hit.url}`).join(', ')}`);
  const requested = [...new Set(preflights.flatMap((hit) => (hit.requestHeaders ?? '').split(',').map((h) => h.trim()).filter(Boolean)))];
  const crossOrigin = observer.serverHits.filter((hit) => hit.method !== 'OPTIONS' && hit.origin === pageOrigin).length;
  process.stdout.write(
    `browser test (widget): ${preflights.length} preflight(s) from ${pageOrigin} allowed (headers requested: ${requested.join(', ')}; ` +
      `integrator ${INTEGRATOR}), ${crossOrigin} cross-origin calls answered\n`,
  );
}

runBrowserTest('browser test (widget)', timer, main);
