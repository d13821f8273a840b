/**
 * Browser test of the partner portal (`npm run test:browser`, after /docs and the widget): the page at /portal as a
 * partner uses it, in headless Debian Chromium (test/browser/chromium.ts) driven by playwright-core, with a wallet.
 *
 * The service runs in process on a loopback port with the portal mounted (webhookAllowPrivate: its webhook receiver
 * runs on this machine) and the explorer's pages (/explorer/tx/<hash>, reading the transfer index), an in-memory
 * database (PGlite) whose keys the access control authenticates (usage recorded from its outcomes:
 * test/support/portal.ts) and which holds the transfer index, and chain mode on a devnet: one anvil chain (Arbitrum,
 * 42161) with the service's contracts, whose fee collector is seeded with this test's fee ledger (2.5 USDC of
 * "browser-dapp", booked to the wallet).
 *
 * The wallet is an EIP-1193 provider installed in the page with addInitScript (`window.ethereum`); its `request`
 * forwards to this process through exposeFunction, where an ethers Wallet (anvil dev account 2) answers:
 * eth_requestAccounts / eth_accounts (lower case, as MetaMask answers; none before the page asked), eth_chainId, personal_sign (signs),
 * wallet_switchEthereumChain (it starts on Ethereum, chain 1, which has no RPC here: the withdrawal must switch it to
 * Arbitrum), eth_sendTransaction (signed and sent to the anvil chain) and eth_getTransactionReceipt. Nothing between
 * the page and the service is routed or mocked.
 *
 * Steps: connect; sign in (SIWE); register "browser-dapp"; in a second tab of the same browser (same session), the
 * refusals: a sign-in message for another domain, its nonce presented again, an expired message, another wallet's
 * integrator (read, or given a key), a change without or with a wrong CSRF token; create a key (shown once); use it against /v1 from this
 * process and see the usage chart move (requests, then a refusal from outside an allowlist set in the page); rotate
 * it (both keys work during the grace period); revoke the old one (refused from then on); set the integrator's
 * webhook to a local receiver (its secret shown once, as the database holds it, and gone from the page once stored
 * and after a reload), change its URL (the secret kept, not shown), renew its secret (a new one shown once); a
 * transfer of the integrator saved into the index meanwhile (its tool named `<img src=x onerror=...>`) shows in the
 * recent transfers, as text, linked to /explorer/tx/<hash>, whose page opens in a new tab with the transfer's final
 * state, and as a delivery of the webhook; remove the webhook; see the fee balance and
 * withdraw it (the wallet switches chains and sends the page's transaction; its receipt is checked here and the
 * USDC arrives in the wallet); sign out. It fails on any page error, console error (a CSP refusal is one), error
 * alert of the page, or request to another origin.
 *
 * Artifacts (test/browser/artifacts/, gitignored): portal-1-connect.png ... portal-7-revoked.png, portal-7a-webhook.png,
 * portal-7b-transfers.png, portal-7c-explorer.png, portal-8-withdrawn.png, portal-9-signed-out.png,
 * portal-failed.png (when a step fails), portal-browser-log.txt (console, requests, wallet calls).
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import { Transaction, Wallet, getAddress, getBytes, type JsonRpcProvider } from 'ethers';
import type { BrowserContext, Page } from 'playwright-core';
import pino from 'pino';
import { startDevnet, type Devnet } from '../../sandbox/devnet';
import { balanceOf } from '../../sandbox/execute';
import { devAccountKey } from '../../sandbox/rpc';
import { chainsFileOf } from '../../sandbox/service';
import type { TransferStatus } from '../../src/core/status/transferStatus';
import { openDatabase, type Database } from '../../src/persistence/database';
import { registerIntegrator } from '../../src/persistence/integrators';
import { databaseHistory, saveTransfer } from '../../src/persistence/transfers';
import { portalRouter } from '../../src/portal/router';
import { SIGN_IN_STATEMENT } from '../../src/portal/siwe';
import { explorerRouter } from '../../src/server/explorer';
import { makeTestApp, type TestApp } from '../support/app';
import { ARB_USDC } from '../support/fixtures';
import { UsageRecorder, databaseAccess } from '../support/portal';
import { StepTimer, closeServer, ensureChromium, failAfter, launchChromium, listening, runBrowserTest } from './chromium';

const ARTIFACTS = path.join(__dirname, 'artifacts');
/** The whole test (after the install) must finish within this. */
const TEST_TIMEOUT_MS = 150_000;
/** How long one step may wait for the page. */
const STEP_TIMEOUT_MS = 20_000;
const INTEGRATOR = 'browser-dapp';
const ARBITRUM = 42161;
const SEEDED_USDC = 2_500_000n;
/** A tool name that would be markup if the page wrote it as HTML. */
const HOSTILE = '<img src=x onerror=alert(1)>';

const timer = new StepTimer();
const step = timer.step.bind(timer);
const log: string[] = [];
const problems: string[] = [];

// ------------------------------------------------------------------------------------------------------------------
// The wallet

/** What the page's provider receives back from this process: a result, or an EIP-1193 error (code and message). */
type WalletAnswer = { ok: true; result: unknown } | { ok: false; error: { code: number; message: string } };

class WalletError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The test wallet: one account, a current chain (chains without a provider can be selected and signed on, not sent
 * to), and the calls it received.
 */
class TestWallet {
  chainId = 1;
  /** The page asked for the account (eth_requestAccounts) and was given it. */
  connected = false;
  readonly calls: string[] = [];
  readonly sent: string[] = [];
  /** Tells the page about a change (set once the page is there). */
  emit: (event: string, value: unknown) => Promise<void> = async () => undefined;

  constructor(
    readonly signer: Wallet,
    private readonly providers: ReadonlyMap<number, JsonRpcProvider | undefined>,
  ) {}

  async handle(method: string, params: unknown[]): Promise<WalletAnswer> {
    this.calls.push(`${method} ${JSON.stringify(params).slice(0, 200)}`);
    log.push(`wallet: ${method} ${JSON.stringify(params).slice(0, 300)}`);
    try {
      return { ok: true, result: await this.answer(method, params) };
    } catch (error) {
      const code = error instanceof WalletError ? error.code : -32603;
      log.push(`wallet: ${method} failed: ${(error as Error).message}`);
      return { ok: false, error: { code, message: (error as Error).message } };
    }
  }

  private async answer(method: string, params: unknown[]): Promise<unknown> {
    switch (method) {
      case 'eth_requestAccounts':
        this.connected = true;
        return [this.signer.address.toLowerCase()];
      case 'eth_accounts':
        // like a browser wallet: no account for a site until the user has connected it
        return this.connected ? [this.signer.address.toLowerCase()] : [];
      case 'eth_chainId':
        return `0x${this.chainId.toString(16)}`;
      case 'personal_sign': {
        const [data, account] = params as [string, string];
        if (account.toLowerCase() !== this.signer.address.toLowerCase()) throw new WalletError(4100, `personal_sign for ${account}, not this wallet's account`);
        return this.signer.signMessage(getBytes(data));
      }
      case 'wallet_switchEthereumChain': {
        const chainId = Number.parseInt((params[0] as { chainId: string }).chainId, 16);
        if (!this.providers.has(chainId)) throw new WalletError(4902, `Unrecognized chain ID ${chainId}`);
        this.chainId = chainId;
        await this.emit('chainChanged', `0x${chainId.toString(16)}`);
        return null;
      }
      case 'eth_sendTransaction':
        return this.send(params[0] as { from: string; to: string; data: string; value: string; gas: string; gasPrice: string });
      case 'eth_getTransactionReceipt':
        return this.provider().send('eth_getTransactionReceipt', params);
      default:
        throw new WalletError(4200, `the test wallet does not support ${method}`);
    }
  }

  private provider(): JsonRpcProvider {
    const provider = this.providers.get(this.chainId);
    if (!provider) throw new WalletError(4901, `the test wallet has no RPC for chain ${this.chainId}`);
    return provider;
  }

  /** Signs the transaction the page built, as it is, and sends it to the current chain; its hash. */
  private async send(tx: { from: string; to: string; data: string; value: string; gas: string; gasPrice: string }): Promise<string> {
    if (tx.from.toLowerCase() !== this.signer.address.toLowerCase()) throw new WalletError(4100, `eth_sendTransaction from ${tx.from}, not this wallet's account`);
    const provider = this.provider();
    const nonce = await provider.getTransactionCount(this.signer.address, 'pending');
    const signed = await this.signer.signTransaction(Transaction.from({
      type: 0, chainId: this.chainId, nonce, to: tx.to, data: tx.data, value: BigInt(tx.value), gasLimit: BigInt(tx.gas), gasPrice: BigInt(tx.gasPrice),
    }));
    const hash = (await provider.send('eth_sendRawTransaction', [signed])) as string;
    this.sent.push(hash);
    return hash;
  }
}

/** The provider the page finds at window.ethereum: requests go to this process, events come from it. */
const PROVIDER_SCRIPT = `(() => {
  const listeners = new Map();
  window.__testWalletEmit = (event, value) => { for (const listener of listeners.get(event) ?? []) listener(value); };
  window.ethereum = {
    isTestWallet: true,
    async request({ method, params }) {
      const answer = await window.__testWalletRequest(method, params === undefined ? [] : params);
      if (answer.ok) return answer.result;
      const error = new Error(answer.error.message);
      error.code = answer.error.code;
      throw error;
    },
    on(event, listener) { listeners.set(event, [...(listeners.get(event) ?? []), listener]); },
    removeListener(event, listener) { listeners.set(event, (listeners.get(event) ?? []).filter((l) => l !== listener)); },
  };
})();`;

// ------------------------------------------------------------------------------------------------------------------
// The page

async function screenshot(page: Page, name: string): Promise<void> {
  const file = path.join(ARTIFACTS, name);
  await page.screenshot({ path: file, fullPage: true });
  process.stdout.write(`browser test (portal): screenshot ${file}\n`);
}

/** Waits for `selector`, failing at once with the page's message if an error alert shows first. */
async function shows(page: Page, selector: string, what: string): Promise<void> {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const alert = page.locator('[data-alert="error"]');
    if ((await alert.count()) > 0) throw new Error(`${what}: the page shows an error: ${(await alert.first().innerText()).trim()}`);
    if ((await page.locator(selector).count()) > 0) return;
    await page.waitForTimeout(100);
  }
  throw new Error(`${what}: ${selector} did not show within ${STEP_TIMEOUT_MS / 1000} s`);
}

/** Polls `read` until `accept` approves its value; the value. */
async function until<T>(what: string, read: () => Promise<T>, accept: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  let value = await read();
  while (!accept(value)) {
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)} after ${STEP_TIMEOUT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
}

async function chartTotals(page: Page): Promise<{ requests: number; refused: number }> {
  const chart = page.locator('[data-section="usage"] svg.chart');
  return { requests: Number(await chart.getAttribute('data-total-requests')), refused: Number(await chart.getAttribute('data-total-refused')) };
}

// ------------------------------------------------------------------------------------------------------------------
// The attacker's site

interface AttackerSite {
  readonly server: http.Server;
  readonly origin: string;
}

/** What the attacker's page did: the wallet's signature, its own post to the portal, and its server's relays. */
interface AttackOutcome {
  readonly signed: boolean;
  /** The status of the page's own cross-origin POST to the portal, or why the browser did not send or read it. */
  readonly direct: number | string;
  readonly relayed: Array<{ status: number; message: string; cookie: boolean }>;
}

/**
 * Another site that uses Sign-In with Ethereum (http://localhost:port, another origin than the portal's
 * http://127.0.0.1:port): its server takes a nonce from the portal; its page has the wallet sign an ordinary
 * "Sign in to NFT Game" message for its own domain with that nonce, posts it to the portal itself, and hands it to
 * its server, which relays it to the portal as a script would, with any Host and Origin it likes.
 */
async function attackerSite(portal: string): Promise<AttackerSite> {
  const server = http.createServer((req, res) => {
    const answer = (status: number, type: string, body: string) => res.writeHead(status, { 'content-type': type }).end(body);
    void (async () => {
      if (req.method === 'GET' && req.url === '/') return answer(200, 'text/html; charset=utf-8', attackerPage(portal));
      if (req.method === 'GET' && req.url?.startsWith('/nonce?account=')) {
        // the portal's nonce, and the account in EIP-55 form (a Sign-In with Ethereum message names it so)
        const nonce = (await (await fetch(`${portal}/portal/api/nonce`)).json()) as { nonce: string; chainIds: number[] };
        return answer(200, 'application/json', JSON.stringify({ ...nonce, address: getAddress(new URL(req.url, 'http://x').searchParams.get('account')!) }));
      }
      if (req.method === 'POST' && req.url === '/relay') {
        let text = '';
        for await (const chunk of req) text += String(chunk);
        const ownHost = req.headers.host!;
        const relayed = [
          await relay(portal, text, { host: ownHost, origin: `http://${ownHost}` }), // as the attacker's site
          await relay(portal, text, { host: ownHost, origin: portal }), // claiming the portal's Origin
        ];
        return answer(200, 'application/json', JSON.stringify(relayed));
      }
      answer(404, 'text/plain', 'not found');
    })().catch((error: Error) => answer(500, 'text/plain', error.message));
  });
  server.listen(0, 'localhost');
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  return { server, origin: `http://localhost:${(server.address() as { port: number }).port}` };
}

/** POSTs a sign-in to the portal with the Host and Origin given (node:http sends the Host it is told). */
function relay(portal: string, body: string, headers: { host: string; origin: string }): Promise<{ status: number; message: string; cookie: boolean }> {
  return new Promise((resolve, reject) => {
    const url = new URL('/portal/api/session', portal);
    const req = http.request(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += String(chunk)));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, message: String((JSON.parse(text) as { message?: unknown }).message ?? ''), cookie: res.headers['set-cookie'] !== undefined }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function attackerPage(portal: string): string {
  return `<!doctype html><title>NFT Game</title><p>Sign in to NFT Game</p><script>
(async () => {
  const outcome = { signed: false, direct: 'not tried', relayed: [] };
  try {
    const [account] = await window.ethereum.request({ method: 'eth_requestAccounts' });
    const { nonce, chainIds, address } = await (await fetch('/nonce?account=' + account)).json();
    const now = Date.now();
    const message = [
      location.host + ' wants you to sign in with your Ethereum account:', address, '', 'Sign in to NFT Game', '',
      'URI: ' + location.origin + '/login', 'Version: 1', 'Chain ID: ' + chainIds[0], 'Nonce: ' + nonce,
      'Issued At: ' + new Date(now).toISOString(), 'Expiration Time: ' + new Date(now + 10 * 60000).toISOString(),
    ].join('\\n');
    const hex = '0x' + Array.from(new TextEncoder().encode(message), (b) => b.toString(16).padStart(2, '0')).join('');
    const signature = await window.ethereum.request({ method: 'personal_sign', params: [hex, account] });
    outcome.signed = true;
    const body = JSON.stringify({ message, signature });
    try {
      const res = await fetch(${JSON.stringify(portal)} + '/portal/api/session', { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json' }, body });
      outcome.direct = res.status;
    } catch (error) {
      outcome.direct = 'not sent or not readable: ' + error.message;
    }
    outcome.relayed = await (await fetch('/relay', { method: 'POST', body })).json();
  } catch (error) {
    outcome.error = String(error && error.message || error);
  }
  window.__outcome = outcome;
})();
</script>`;
}

/** The secret the database holds for the integrator's webhook (the one its deliveries are signed with). */
async function storedWebhookSecret(database: Database, integratorId: string): Promise<string | undefined> {
  return (await database.db.selectFrom('webhooks').select('secret').where('integrator_id', '=', integratorId).executeTakeFirst())?.secret;
}

/** A webhook receiver on this machine: answers 204, keeps what it was sent. */
async function webhookReceiver(): Promise<{ server: http.Server; port: number; received: string[] }> {
  const received: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += String(chunk)));
    req.on('end', () => {
      received.push(`${req.method} ${req.url} ${body.slice(0, 200)}`);
      res.writeHead(204).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  return { server, port: (server.address() as { port: number }).port, received };
}

async function countSessions(database: Database): Promise<number> {
  const row = await database.db.selectFrom('portal_sessions').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

// ------------------------------------------------------------------------------------------------------------------
// The run

async function main(): Promise<void> {
  const started = Date.now();
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  for (const file of fs.readdirSync(ARTIFACTS)) if (file.startsWith('portal-')) fs.rmSync(path.join(ARTIFACTS, file));
  await step('chromium present or installed', ensureChromium);

  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-browser-'));
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-chromium-'));
  let devnet: Devnet | undefined;
  let database: Database | undefined;
  let service: http.Server | undefined;
  let testApp: TestApp | undefined;
  let context: BrowserContext | undefined;
  let attacker: AttackerSite | undefined;
  let receiver: Awaited<ReturnType<typeof webhookReceiver>> | undefined;
  const deadline = failAfter('browser test (portal)', TEST_TIMEOUT_MS);
  try {
    // the wallet: anvil dev account 2 (the devnet's first funded test wallet), the integrator's fee wallet
    const ledgerFile = path.join(scratch, 'ledger.json');
    const walletAddress = new Wallet(devAccountKey(2)).address;
    fs.writeFileSync(ledgerFile, JSON.stringify({
      schemaVersion: 1,
      integrators: [{ integratorId: INTEGRATOR, feeWallet: walletAddress, balances: { [ARBITRUM]: [{ token: ARB_USDC, symbol: 'USDC', amount: String(SEEDED_USDC) }] } }],
    }));
    devnet = await step('devnet (anvil, Arbitrum) with the fee ledger seeded', () => startDevnet({ chains: [ARBITRUM], wallets: 1, relayer: false, warmRouter: false, warmPools: false, ledgerFile }));
    const chain = devnet.chain(ARBITRUM);
    const wallet = new TestWallet(new Wallet(devnet.walletKeys[0]!), new Map<number, JsonRpcProvider | undefined>([[1, undefined], [ARBITRUM, chain.provider]]));
    if (wallet.signer.address !== walletAddress) throw new Error('the devnet\'s first test wallet is not anvil dev account 2');

    database = await step('database (PGlite in memory)', () => openDatabase({ dir: 'memory://' }));
    const recorder = new UsageRecorder(database);
    const chainsFile = path.join(scratch, 'chains.json');
    fs.writeFileSync(chainsFile, JSON.stringify(chainsFileOf(devnet)));
    const opened = database;
    testApp = await step('service start', () => makeTestApp({
      env: { CHAINS_FILE: chainsFile, FEE_LEDGER_FILE: ledgerFile },
      dependencies: { access: databaseAccess(opened, recorder), history: databaseHistory(async () => opened.db) },
      // the portal's origin (PORTAL_ORIGIN): the loopback address it listens on, known once it listens; the webhook's
      // receiver is on this machine (WEBHOOK_ALLOW_PRIVATE, as the sandbox sets it)
      portal: (dependencies) => portalRouter({ database: async () => opened, dependencies, logger: pino({ level: 'silent' }), origins: () => [origin], webhookAllowPrivate: true }),
    }));
    // the explorer's pages beside the app, on the same origin (src/main.ts mounts them in the app itself)
    const served = express().use('/explorer', explorerRouter({ dependencies: testApp.dependencies })).use(testApp.app);
    service = served.listen(0, '127.0.0.1');
    const origin = await listening(service);
    attacker = await step('the attacker\'s site (another origin)', () => attackerSite(origin));
    receiver = await step('a webhook receiver (loopback)', webhookReceiver);
    const useKey = async (key: string) => (await fetch(`${origin}/v1/keys/test`, { headers: { 'x-svc-api-key': key } })).status;

    const launched = await step('browser launch', () => launchChromium(userDataDir, { width: 1200, height: 1000 }));
    context = launched.context;
    const { page } = launched;
    watch(page, origin);
    await page.exposeFunction('__testWalletRequest', (method: string, params: unknown[]) => wallet.handle(method, params));
    await page.addInitScript(PROVIDER_SCRIPT);
    wallet.emit = async (event, value) => {
      await page.evaluate(`window.__testWalletEmit(${JSON.stringify(event)}, ${JSON.stringify(value)})`);
    };
    process.stdout.write(`browser test (portal): ${origin}/portal, wallet ${wallet.signer.address}, devnet ${chain.url}\n`);

    try {
      await step('load the page', async () => {
        const response = await page.goto(`${origin}/portal`, { waitUntil: 'load' });
        if (response?.status() !== 200) throw new Error(`the page answered ${response?.status()}`);
        await shows(page, '[data-action="connect"]', 'not connected');
        await screenshot(page, 'portal-1-connect.png');
      });

      await step('connect and sign in (SIWE)', async () => {
        await page.click('[data-action="connect"]');
        await shows(page, '[data-action="sign-in"]', 'connected');
        await page.click('[data-action="sign-in"]');
        await shows(page, '[data-state="signed-in"]', 'signed in');
        const signed = wallet.calls.find((call) => call.startsWith('personal_sign'));
        if (!signed) throw new Error('the page signed in without asking the wallet to sign');
        await screenshot(page, 'portal-2-signed-in.png');
      });

      await step('register the integrator', async () => {
        await page.fill('[data-form="register"] input', INTEGRATOR);
        await page.click('[data-form="register"] button[type="submit"]');
        await shows(page, `[data-integrator="${INTEGRATOR}"]`, 'registered');
        await shows(page, '[data-section="keys"]', 'keys section');
        await shows(page, `[data-table="fees"] tr[data-chain-id="${ARBITRUM}"]`, 'fee balance');
        const balance = (await page.locator(`tr[data-chain-id="${ARBITRUM}"] [data-token="USDC"]`).innerText()).trim();
        if (!balance.startsWith('2.5 USDC')) throw new Error(`the fee balance on Arbitrum shows "${balance}", not 2.5 USDC`);
        await screenshot(page, 'portal-3-registered.png');
      });

      await step('refused in the browser: a wrong domain, a reused nonce, an expired message, another wallet\'s integrator, a change without the CSRF token', async () => {
        // a second tab of the same browser (the same session cookie), calling the portal's API as the page does
        const probe = await context!.newPage();
        try {
          await probe.goto(`${origin}/portal`); // the page: its Content-Security-Policy lets it connect to its own origin
          const call = (method: string, apiPath: string, body?: unknown, headers: Record<string, string> = {}) =>
            probe.evaluate(async ({ method, apiPath, body, headers }) => {
              const res = await fetch(`/portal/api${apiPath}`, { method, headers: { 'content-type': 'application/json', ...headers }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
              return { status: res.status, body: (await res.json().catch(() => null)) as { message?: string; nonce?: string; chainIds?: number[]; csrfToken?: string; signedIn?: boolean } | null };
            }, { method, apiPath, body, headers });
          const expectRefused = (what: string, answer: { status: number; body: { message?: string } | null }, status: number, message: RegExp) => {
            if (answer.status !== status || !message.test(answer.body?.message ?? '')) throw new Error(`${what}: answered ${answer.status} ${JSON.stringify(answer.body)}, not ${status} ${message}`);
          };
          const host = new URL(origin).host;
          const message = (nonce: string, chainId: number, o: { domain?: string; now?: number } = {}) => {
            const now = o.now ?? Date.now();
            return [
              `${o.domain ?? host} wants you to sign in with your Ethereum account:`, wallet.signer.address, '', SIGN_IN_STATEMENT, '',
              `URI: ${origin}/portal`, 'Version: 1', `Chain ID: ${chainId}`, `Nonce: ${nonce}`,
              `Issued At: ${new Date(now).toISOString()}`, `Expiration Time: ${new Date(now + 5 * 60_000).toISOString()}`,
            ].join('\n');
          };
          const present = async (text: string) => call('POST', '/session', { message: text, signature: await wallet.signer.signMessage(text) });
          const first = (await call('GET', '/nonce')).body!;
          const chainId = first.chainIds![0]!;
          expectRefused('a message for another domain', await present(message(first.nonce!, chainId, { domain: 'portal.example.com' })), 401, /domain/);
          expectRefused('the same nonce again, now for the right domain', await present(message(first.nonce!, chainId)), 401, /nonce was not issued here, has expired or was used already/);
          const second = (await call('GET', '/nonce')).body!;
          expectRefused('an expired message', await present(message(second.nonce!, chainId, { now: Date.now() - 10 * 60_000 })), 401, /expired/);
          // an integrator whose fees go to another wallet
          await registerIntegrator(opened.db, { integratorId: 'somebody-elses-dapp', feeWallet: new Wallet(devAccountKey(7)).address });
          const me = (await call('GET', '/me')).body!;
          if (!me.signedIn) throw new Error('the refused sign-ins ended the session');
          const csrf = { 'x-csrf-token': me.csrfToken! };
          expectRefused('another wallet\'s integrator', await call('GET', '/integrators/somebody-elses-dapp'), 403, /belongs to another wallet/);
          expectRefused('a key for another wallet\'s integrator', await call('POST', '/integrators/somebody-elses-dapp/keys', { name: 'mine now' }, csrf), 403, /belongs to another wallet/);
          expectRefused('a change without the CSRF token', await call('POST', `/integrators/${INTEGRATOR}/keys`, { name: 'no token' }), 403, /CSRF|csrf/);
          expectRefused('a change with a wrong CSRF token', await call('POST', `/integrators/${INTEGRATOR}/keys`, { name: 'wrong token' }, { 'x-csrf-token': 'x'.repeat(43) }), 403, /CSRF|csrf/);
        } finally {
          await probe.close();
        }
      });

      await step('a page on another origin obtains the wallet\'s signature and cannot turn it into a session', async () => {
        const sessionsBefore = await countSessions(opened);
        const tab = await context!.newPage();
        try {
          await tab.exposeFunction('__testWalletRequest', (method: string, params: unknown[]) => wallet.handle(method, params));
          await tab.addInitScript(PROVIDER_SCRIPT);
          await tab.goto(`${attacker!.origin}/`, { waitUntil: 'load' });
          const outcome = await until('the attacker\'s page', () => tab.evaluate('window.__outcome'), (value) => value !== undefined) as AttackOutcome;
          log.push(`attacker: ${JSON.stringify(outcome)}`);
          if (!outcome.signed) throw new Error(`the attacker's page did not get the wallet's signature: ${JSON.stringify(outcome)}`);
          if (outcome.direct === 200) throw new Error('the portal opened a session for a sign-in posted by another origin\'s page');
          const [own, claimed] = outcome.relayed;
          if (own?.status !== 403 || !/not from this portal/.test(own.message)) throw new Error(`relayed with the attacker's Host and Origin: ${JSON.stringify(own)}`);
          if (claimed?.status !== 401 || !/is for domain "localhost:\d+", not this portal/.test(claimed.message)) throw new Error(`relayed claiming the portal's Origin: ${JSON.stringify(claimed)}`);
          if (outcome.relayed.some((answer) => answer.cookie)) throw new Error('a relayed sign-in was given a session cookie');
          const sessionsAfter = await countSessions(opened);
          if (sessionsAfter !== sessionsBefore) throw new Error(`the portal has ${sessionsAfter} sessions after the attack, ${sessionsBefore} before`);
          process.stdout.write(`browser test (portal): a sign-in signed on ${attacker!.origin} was refused: from the page ${outcome.direct}, relayed ${own.status} and ${claimed.status}\n`);
        } finally {
          await tab.close();
        }
      });

      const key = await step('create a key (shown once)', async () => {
        await page.fill('[data-form="create-key"] input', 'browser backend');
        await page.click('[data-form="create-key"] button[type="submit"]');
        await shows(page, '[data-secret="key"]', 'new key');
        const text = (await page.locator('[data-secret="key"]').innerText()).trim();
        if (!/^svc_/.test(text)) throw new Error(`the new key shows as "${text}"`);
        const keyId = await page.locator('[data-issued-key]').getAttribute('data-issued-key');
        await screenshot(page, 'portal-4-key-created.png');
        // dismissed, it is gone from the page
        await page.click('[data-issued-key] button:has-text("I have stored it")');
        if ((await page.content()).includes(text)) throw new Error('the key is still on the page after "I have stored it"');
        return { key: text, id: keyId! };
      });

      await step('use the key against /v1 and see the usage chart move', async () => {
        const before = await chartTotals(page);
        if (before.requests !== 0) throw new Error(`a new key's chart shows ${before.requests} requests`);
        for (let i = 0; i < 5; i += 1) if ((await useKey(key.key)) !== 200) throw new Error('the new key is refused by /v1/keys/test');
        // an allowlist that excludes loopback, set in the page: the next request is refused (403)
        await page.click(`tr[data-key-id="${key.id}"] [data-action="edit"]`);
        await page.fill(`tr[data-edit-key="${key.id}"] textarea`, '203.0.113.0/24');
        await page.click(`tr[data-edit-key="${key.id}"] [data-action="save-allowlist"]`);
        await shows(page, `tr[data-key-id="${key.id}"]:has-text("203.0.113.0/24")`, 'allowlist set');
        if ((await useKey(key.key)) !== 403) throw new Error('a request from outside the allowlist was not refused');
        await page.click(`tr[data-key-id="${key.id}"] [data-action="edit"]`);
        await page.fill(`tr[data-edit-key="${key.id}"] textarea`, '');
        await page.click(`tr[data-edit-key="${key.id}"] [data-action="save-allowlist"]`);
        await shows(page, `tr[data-key-id="${key.id}"]:has-text("any address")`, 'allowlist cleared');
        await recorder.flush();
        await page.click('[data-action="refresh-usage"]');
        const after = await until('usage chart', () => chartTotals(page), (totals) => totals.requests >= 6 && totals.refused >= 1);
        process.stdout.write(`browser test (portal): the usage chart moved from ${before.requests} to ${after.requests} requests, ${after.refused} refused\n`);
        const operations = await page.locator('[data-table="operations"]').innerText();
        if (!operations.includes('testApiKey')) throw new Error(`the operations table does not list testApiKey: ${operations}`);
        // the screenshot is an artifact: a chart still settling on a loaded machine must not fail the test (it once waited
        // for the section to be "stable" until the step's timeout)
        await page.locator('[data-section="usage"]').scrollIntoViewIfNeeded({ timeout: 5000 }).catch(() => undefined);
        await screenshot(page, 'portal-5-usage.png');
      });

      const rotated = await step('rotate the key (both work during the grace period)', async () => {
        await page.click(`tr[data-key-id="${key.id}"] [data-action="rotate"]`);
        await shows(page, '[data-secret="key"]', 'rotated key');
        const text = (await page.locator('[data-secret="key"]').innerText()).trim();
        const id = (await page.locator('[data-issued-key]').getAttribute('data-issued-key'))!;
        const notice = await page.locator('[data-issued-key]').innerText();
        if (!notice.includes(`The old key ${key.id} keeps working until`)) throw new Error(`no grace period shown: ${notice}`);
        await shows(page, `tr[data-key-id="${key.id}"]:has-text("works until")`, 'old key in its grace period');
        if ((await useKey(text)) !== 200) throw new Error('the rotated key is refused');
        if ((await useKey(key.key)) !== 200) throw new Error('the old key is refused during its grace period');
        await screenshot(page, 'portal-6-rotated.png');
        return { key: text, id };
      });

      await step('revoke the old key', async () => {
        await page.click(`tr[data-key-id="${key.id}"] [data-action="revoke"]`);
        await page.click(`tr[data-key-id="${key.id}"] [data-action="confirm-revoke"]`);
        await shows(page, `[data-table="past-keys"] tr[data-key-id="${key.id}"]`, 'revoked key among the past keys');
        if ((await useKey(key.key)) !== 401) throw new Error('the revoked key still works');
        if ((await useKey(rotated.key)) !== 200) throw new Error('the rotated key stopped working when the old one was revoked');
        await page.locator('details summary').click();
        await screenshot(page, 'portal-7-revoked.png');
      });

      await step('set a webhook to a local receiver: its secret shown once; a new URL keeps it; renewed, shown once again', async () => {
        const hookUrl = `http://127.0.0.1:${receiver!.port}/hooks/transfers`;
        await shows(page, '[data-webhook="none"]', 'no webhook yet');
        await page.fill('[data-form="webhook"] input', hookUrl);
        await page.click('[data-form="webhook"] button[type="submit"]');
        await shows(page, '[data-webhook-secret="new"] [data-secret="webhook"]', 'new webhook secret');
        const secret = (await page.locator('[data-secret="webhook"]').innerText()).trim();
        if (!/^whsec_[A-Za-z0-9_-]{43}$/.test(secret)) throw new Error(`the webhook secret shows as "${secret}"`);
        if ((await storedWebhookSecret(opened, INTEGRATOR)) !== secret) throw new Error('the secret shown is not the one the database signs deliveries with');
        await shows(page, `[data-webhook-url="${hookUrl}"]`, 'webhook URL');
        await page.locator('[data-section="webhook"]').scrollIntoViewIfNeeded();
        await screenshot(page, 'portal-7a-webhook.png');
        await page.click('[data-webhook-secret] button:has-text("I have stored it")');
        if ((await page.content()).includes(secret)) throw new Error('the webhook secret is still on the page after "I have stored it"');
        // read again from the service (a reload): the URL, never the secret
        await page.reload({ waitUntil: 'load' });
        await shows(page, `[data-webhook-url="${hookUrl}"]`, 'webhook URL after a reload');
        if ((await page.content()).includes(secret) || (await page.locator('[data-secret="webhook"]').count()) > 0) throw new Error('the webhook secret shows again after a reload');

        const movedUrl = `http://localhost:${receiver!.port}/hooks/v2`;
        await page.fill('[data-form="webhook"] input', movedUrl);
        await page.click('[data-form="webhook"] button[type="submit"]');
        await shows(page, `[data-webhook-url="${movedUrl}"]`, 'webhook URL changed');
        if ((await page.locator('[data-secret="webhook"]').count()) > 0) throw new Error('a change of URL showed a secret');
        if ((await storedWebhookSecret(opened, INTEGRATOR)) !== secret) throw new Error('a change of URL changed the secret');

        await page.click('[data-action="renew-webhook-secret"]');
        await page.click('[data-action="confirm-renew-webhook-secret"]');
        await shows(page, '[data-webhook-secret="renewed"] [data-secret="webhook"]', 'renewed webhook secret');
        const renewed = (await page.locator('[data-secret="webhook"]').innerText()).trim();
        if (!/^whsec_/.test(renewed) || renewed === secret) throw new Error(`the renewed secret shows as "${renewed}"`);
        if ((await storedWebhookSecret(opened, INTEGRATOR)) !== renewed) throw new Error('the renewed secret shown is not the one the database holds');
        await page.click('[data-webhook-secret] button:has-text("I have stored it")');
        if ((await page.content()).includes(renewed)) throw new Error('the renewed secret is still on the page after "I have stored it"');
        process.stdout.write(`browser test (portal): webhook set to ${hookUrl}, moved to ${movedUrl} (secret kept), secret renewed; each secret shown once\n`);
      });

      await step('a transfer of the integrator shows in the recent transfers, as text, linked to its explorer page, and as a delivery', async () => {
        const txHash = `0x${'7e'.repeat(32)}`;
        const status: TransferStatus = {
          status: 'DONE', substatus: 'COMPLETED', transactionId: `0x${'7f'.repeat(32)}`, tool: HOSTILE, integrator: INTEGRATOR,
          fromAddress: wallet.signer.address, toAddress: wallet.signer.address,
          sending: { chainId: ARBITRUM, txHash, block: 1, amount: 1_000_000n, timestamp: Math.floor(Date.now() / 1000) - 60 },
          receiving: { chainId: ARBITRUM, txHash: `0x${'7d'.repeat(32)}`, block: 2, amount: 990_000n },
        };
        await saveTransfer(opened.db, { chainId: ARBITRUM, txHash, blockNumber: 1, blockHash: `0x${'11'.repeat(32)}`, status }, new Date());
        await page.click('[data-action="refresh-transfers"]');
        const row = `[data-table="transfers"] tr[data-tx-hash="${txHash}"]`;
        await shows(page, row, 'the transfer in the recent transfers');
        const link = page.locator(`${row} a[data-explorer-link]`);
        const href = await link.getAttribute('href');
        if (href !== `/explorer/tx/${txHash}`) throw new Error(`the transfer links to ${href}, not /explorer/tx/${txHash}`);
        if ((await link.innerText()).trim() !== txHash) throw new Error(`the link reads "${await link.innerText()}"`);
        const tool = (await page.locator(`${row} [data-tool]`).innerText()).trim();
        if (tool !== HOSTILE) throw new Error(`the tool shows as "${tool}", not as the text ${HOSTILE}`);
        if ((await page.locator('[data-section="transfers"] img').count()) > 0) throw new Error('a tool name became an element of the page');
        await page.locator('[data-section="transfers"]').scrollIntoViewIfNeeded();
        await screenshot(page, 'portal-7b-transfers.png');

        // the link opens the transfer's page, on this origin, in a new tab
        const [explorer] = await Promise.all([context!.waitForEvent('page'), link.click()]);
        try {
          watch(explorer, origin);
          await explorer.waitForLoadState('load');
          if (explorer.url() !== `${origin}/explorer/tx/${txHash}`) throw new Error(`the link opened ${explorer.url()}`);
          const text = await explorer.locator('main').innerText();
          const missing = ['DONE', txHash].filter((part) => !text.includes(part));
          if (missing.length > 0) throw new Error(`the explorer page lacks ${missing.join(', ')}:\n${text.slice(0, 500)}`);
          await screenshot(explorer, 'portal-7c-explorer.png');
        } finally {
          await explorer.close();
        }

        // the transfer's state is a delivery of the webhook (pending: no worker sends it in this test)
        await page.click('[data-action="refresh-webhook"]');
        await shows(page, `[data-table="deliveries"] tr[data-delivery-state="pending"] a[href="/explorer/tx/${txHash}"]`, 'the delivery of the transfer\'s state');
        const delivery = await page.locator('[data-table="deliveries"] tbody tr').first().innerText();
        if (!delivery.includes('DONE') || !delivery.includes('pending')) throw new Error(`the delivery reads "${delivery}"`);
        process.stdout.write(`browser test (portal): transfer ${txHash} listed, linked to /explorer/tx/${txHash} (opened), delivery pending\n`);
      });

      await step('remove the webhook', async () => {
        await page.click('[data-action="remove-webhook"]');
        await page.click('[data-action="confirm-remove-webhook"]');
        await shows(page, '[data-webhook="none"]', 'no webhook');
        if ((await storedWebhookSecret(opened, INTEGRATOR)) !== undefined) throw new Error('the webhook is still in the database');
        if ((await page.locator('[data-table="deliveries"]').count()) > 0) throw new Error('the removed webhook\'s deliveries are still shown');
      });

      await step('withdraw the fees with the wallet', async () => {
        const before = await balanceOf(chain.provider, ARB_USDC, wallet.signer.address);
        await page.click(`tr[data-chain-id="${ARBITRUM}"] [data-action="withdraw"]`);
        await shows(page, '[data-withdrawal="confirmed"]', 'withdrawal confirmed');
        if (!wallet.calls.some((call) => call.startsWith('wallet_switchEthereumChain'))) throw new Error('the page did not switch the wallet to Arbitrum');
        const [hash] = wallet.sent;
        if (!hash || wallet.sent.length !== 1) throw new Error(`the wallet sent ${wallet.sent.length} transactions`);
        const receipt = await chain.provider.getTransactionReceipt(hash);
        if (receipt?.status !== 1) throw new Error(`the withdrawal ${hash} did not succeed: ${JSON.stringify(receipt)}`);
        if (receipt.to?.toLowerCase() !== chain.deployment.feeCollector.toLowerCase()) throw new Error(`the withdrawal went to ${receipt.to}, not the fee collector`);
        const received = (await balanceOf(chain.provider, ARB_USDC, wallet.signer.address)) - before;
        if (received !== SEEDED_USDC) throw new Error(`the wallet received ${received} USDC units, not ${SEEDED_USDC}`);
        await shows(page, '[data-section="fees"] .empty', 'no fee left');
        process.stdout.write(`browser test (portal): withdrawal ${hash} mined in block ${receipt.blockNumber}: ${received} USDC units to ${wallet.signer.address}\n`);
        await screenshot(page, 'portal-8-withdrawn.png');
      });

      await step('sign out', async () => {
        await page.click('[data-action="sign-out"]');
        await shows(page, '[data-action="sign-in"]', 'signed out');
        await screenshot(page, 'portal-9-signed-out.png');
      });
    } catch (error) {
      if (context) await screenshot(page, 'portal-failed.png').catch(() => undefined);
      if (error instanceof Error && problems.length > 0) error.message += `\n  also seen on the page:\n  ${problems.join('\n  ')}`;
      throw error;
    }
    if (problems.length > 0) throw new Error(`the page had problems:\n  ${problems.join('\n  ')}`);
    process.stdout.write(`browser test (portal): OK in ${((Date.now() - started) / 1000).toFixed(1)} s (${timer.summary()})\n`);
  } finally {
    clearTimeout(deadline);
    fs.writeFileSync(path.join(ARTIFACTS, 'portal-browser-log.txt'), `${log.join('\n')}\n`);
    await context?.close().catch(() => undefined);
    if (service) await closeServer(service);
    if (attacker) await closeServer(attacker.server);
    if (receiver) await closeServer(receiver.server);
    testApp?.dependencies.chains?.close();
    await testApp?.dependencies.access.close();
    await database?.close();
    await devnet?.stop();
    fs.rmSync(userDataDir, { recursive: true, force: true });
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** Logs what the page does; page errors, console errors and requests to other origins are problems. */
function watch(page: Page, origin: string): void {
  page.on('console', (message) => {
    log.push(`console.${message.type()}: ${message.text()}`);
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => {
    log.push(`pageerror: ${error.stack ?? error.message}`);
    problems.push(`page error: ${error.message}`);
  });
  page.on('request', (request) => {
    log.push(`request: ${request.method()} ${request.url()}`);
    const url = new URL(request.url());
    if (/^https?:$/.test(url.protocol) && url.origin !== origin) problems.push(`request to another origin: ${request.method()} ${request.url()}`);
  });
  page.on('response', (response) => log.push(`response: ${response.status()} ${response.request().method()} ${response.url()}`));
  page.on('requestfailed', (request) => {
    log.push(`requestfailed: ${request.method()} ${request.url()} ${request.failure()?.errorText}`);
    problems.push(`request failed: ${request.method()} ${request.url()} (${request.failure()?.errorText})`);
  });
}

runBrowserTest('browser test (portal)', timer, main);
