/**
 * The partner portal's page script (bundled by src/portal/page.ts; no framework). It talks to two parties only:
 * the portal's JSON API on this origin (/portal/api, src/portal/router.ts) and the browser wallet the page finds
 * (`window.ethereum`, EIP-1193), which signs the sign-in message and sends the fee withdrawals.
 *
 * The page is a function of one state object: every action changes the state and renders again. What it shows, in
 * order: no wallet → connect → sign in (Sign-In with Ethereum, EIP-4361) → the wallet's integrators (register one) →
 * an integrator's keys (create, rename, allowlist, rotate, revoke; a new key shown once) → a key's usage chart,
 * limits and blocks → the integrator's recent transfers, each linked to its explorer page (/explorer/tx/<hash>) →
 * fee balances per chain with a withdraw button each → its webhook (set the URL, its secret shown once when made or
 * renewed, renew, remove) with its latest deliveries. Errors show as alerts at the top.
 *
 * Everything is built with DOM calls and textContent (never innerHTML), so nothing from an answer runs as markup;
 * the page's Content-Security-Policy allows this script and the stylesheet, and connections to this origin only.
 */
import { formatUnits, getAddress, toHex } from 'viem';
import type {
  ChainFeesInfo, FeesAnswer, IntegratorAnswer, IntegratorSummary, IntegratorsAnswer, IssuedKeyAnswer, IssuedWebhookAnswer, KeyAnswer, MeAnswer, NonceAnswer,
  PortalErrorBody, PortalKey, PortalTransfer, TransfersAnswer, UsageAnswer, UsageRange, WebhookAnswer, WebhookDeliveryInfo, WithdrawalAnswer,
} from '../api';

// ------------------------------------------------------------------------------------------------------------------
// The wallet (EIP-1193)

interface Eip1193Provider {
  request(args: { method: string; params?: readonly unknown[] | Record<string, unknown> }): Promise<unknown>;
  on?(event: string, listener: (...args: never[]) => void): void;
}

declare global {
  interface Window {
    ethereum?: Eip1193Provider;
  }
}

/** The wallet's error of a request (EIP-1193: `code` 4001 when the user refused, 4902 when a chain is unknown). */
function walletErrorCode(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
}

function walletMessage(error: unknown): string {
  if (walletErrorCode(error) === 4001) return 'The request was refused in the wallet.';
  const message = (error as { message?: unknown } | null)?.message;
  return `The wallet answered: ${typeof message === 'string' ? message : String(error)}`;
}

/** The text of the sign-in message's statement (the server's SIGN_IN_STATEMENT, src/portal/siwe.ts). */
const SIGN_IN_STATEMENT = 'Sign in to the partner portal to manage your integrators, API keys and fees.';
/** The sign-in message expires this long after it is made (the server accepts at most maxMessageSeconds). */
const MESSAGE_LIFETIME_MS = 5 * 60_000;

// ------------------------------------------------------------------------------------------------------------------
// The state

interface IssuedKey {
  readonly key: string;
  readonly keyId: string;
  /** Set for a rotation: the old key and the end of its grace period. */
  readonly previous?: PortalKey;
}

/** A webhook secret just made or renewed: shown once, until dismissed. */
interface IssuedSecret {
  readonly secret: string;
  readonly renewed: boolean;
}

interface WithdrawalProgress {
  readonly chainId: number;
  readonly hash?: string;
  readonly state: 'preparing' | 'switching' | 'confirm in wallet' | 'sent' | 'confirmed' | 'failed';
}

interface State {
  /** The wallet's account, once connected. */
  account?: string;
  /** The wallet's current chain. */
  walletChainId?: number;
  me: MeAnswer;
  integrators: readonly IntegratorSummary[];
  selectedIntegrator?: string;
  integrator?: IntegratorAnswer;
  /** A key just created or rotated: shown once, until dismissed. */
  issued?: IssuedKey;
  selectedKey?: string;
  usageRange: UsageRange;
  usageOperation?: string;
  usage?: UsageAnswer;
  fees?: FeesAnswer;
  withdrawal?: WithdrawalProgress;
  /** The integrator's webhook and its latest deliveries. */
  webhook?: WebhookAnswer;
  /** The webhook's secret, just made or renewed. */
  webhookSecret?: IssuedSecret;
  /** The webhook change that waits for its confirmation. */
  armedWebhook?: 'renew' | 'remove';
  /** The integrator's latest transfers. */
  transfers?: readonly PortalTransfer[];
  /** The key whose edit row is open. */
  editing?: string;
  /** The key whose revoke button waits for its confirmation. */
  armedRevoke?: string;
  /** Hours a rotated key keeps working. */
  graceHours?: number;
  /** An API call or a wallet request is running: buttons wait. */
  busy: boolean;
}

const state: State = { me: { signedIn: false }, integrators: [], usageRange: '1h', busy: false };

// ------------------------------------------------------------------------------------------------------------------
// The portal's API

class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body?: PortalErrorBody,
  ) {
    super(message);
  }
}

/** Calls /portal/api: JSON in and out, the CSRF token on every change, errors as ApiError with the server's message. */
async function api<T>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && state.me.signedIn) headers['x-csrf-token'] = state.me.csrfToken;
  const response = await fetch(`/portal/api${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
    // the Origin header is sent with this origin (the CSRF check needs it), whatever the page's referrer policy
    referrerPolicy: 'same-origin',
    cache: 'no-store',
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!response.ok) {
    const error = parsed as PortalErrorBody | undefined;
    if (response.status === 401 && path !== '/session' && state.me.signedIn) {
      // the session ended (expired, or the service restarted): back to signing in
      resetSession();
    }
    throw new ApiError(response.status, error?.message ?? `The portal answered ${response.status}`, error);
  }
  return parsed as T;
}

// ------------------------------------------------------------------------------------------------------------------
// Alerts

function showAlert(kind: 'error' | 'info', message: string): void {
  const alerts = document.getElementById('alerts');
  if (!alerts) return;
  const close = h('button', { type: 'button', 'aria-label': 'Dismiss', onclick: () => item.remove() }, '×');
  const item = h('div', { class: `alert ${kind}`, 'data-alert': kind }, h('span', {}, message), close);
  alerts.append(item);
  // news goes away by itself; an error stays until dismissed
  if (kind === 'info') setTimeout(() => item.remove(), 10_000);
  // only the last few stay
  while (alerts.children.length > 4) alerts.firstElementChild?.remove();
}

function clearAlerts(): void {
  document.getElementById('alerts')?.replaceChildren();
}

/** Runs an action with the buttons disabled; its error becomes an alert. */
async function act(action: () => Promise<void>): Promise<void> {
  if (state.busy) return;
  state.busy = true;
  render();
  try {
    await action();
  } catch (error) {
    showAlert('error', error instanceof ApiError ? error.message : error instanceof Error ? error.message : String(error));
  } finally {
    state.busy = false;
    render();
  }
}

// ------------------------------------------------------------------------------------------------------------------
// Wallet and session actions

function wallet(): Eip1193Provider {
  const provider = window.ethereum;
  if (!provider) throw new Error('No browser wallet was found on this page.');
  return provider;
}

async function walletRequest<T>(method: string, params?: readonly unknown[]): Promise<T> {
  try {
    return (await wallet().request(params === undefined ? { method } : { method, params })) as T;
  } catch (error) {
    throw new Error(walletMessage(error));
  }
}

async function readChainId(): Promise<number> {
  return Number.parseInt(await walletRequest<string>('eth_chainId'), 16);
}

async function connect(): Promise<void> {
  const accounts = await walletRequest<string[]>('eth_requestAccounts');
  if (!accounts[0]) throw new Error('The wallet shared no account.');
  state.account = getAddress(accounts[0]);
  state.walletChainId = await readChainId();
}

/** The EIP-4361 message the server checks (its canonical form: the server refuses any other spacing). */
function signInMessage(address: string, chainId: number, nonce: string, now: number): string {
  return [
    `${window.location.host} wants you to sign in with your Ethereum account:`,
    address,
    '',
    SIGN_IN_STATEMENT,
    '',
    `URI: ${window.location.origin}/portal`,
    'Version: 1',
    `Chain ID: ${chainId}`,
    `Nonce: ${nonce}`,
    `Issued At: ${new Date(now).toISOString()}`,
    `Expiration Time: ${new Date(now + MESSAGE_LIFETIME_MS).toISOString()}`,
  ].join('\n');
}

async function signIn(): Promise<void> {
  if (!state.account) await connect();
  const address = state.account!;
  const chainId = await readChainId();
  state.walletChainId = chainId;
  const { nonce, chainIds } = await api<NonceAnswer>('GET', '/nonce');
  if (!chainIds.includes(chainId)) {
    throw new Error(`The wallet is on chain ${chainId}, which the portal does not accept for signing in: switch to one of ${chainIds.join(', ')}.`);
  }
  const message = signInMessage(address, chainId, nonce, Date.now());
  const signature = await walletRequest<string>('personal_sign', [toHex(message), address]);
  state.me = await api<MeAnswer>('POST', '/session', { message, signature });
  clearAlerts();
  await loadIntegrators();
}

async function signOut(): Promise<void> {
  if (state.me.signedIn) await api<MeAnswer>('POST', '/logout');
  resetSession();
}

function resetSession(): void {
  Object.assign(state, {
    me: { signedIn: false }, integrators: [], selectedIntegrator: undefined, integrator: undefined, issued: undefined, selectedKey: undefined, usage: undefined, fees: undefined,
    withdrawal: undefined, editing: undefined, armedRevoke: undefined, webhook: undefined, webhookSecret: undefined, armedWebhook: undefined, transfers: undefined,
  });
}

// ------------------------------------------------------------------------------------------------------------------
// Integrators, keys, usage and fees

const integratorPath = (id: string) => `/integrators/${encodeURIComponent(id)}`;
const keyPath = (integratorId: string, keyId: string) => `${integratorPath(integratorId)}/keys/${encodeURIComponent(keyId)}`;

async function loadIntegrators(): Promise<void> {
  const { integrators } = await api<IntegratorsAnswer>('GET', '/integrators');
  state.integrators = integrators;
  const keep = integrators.some((i) => i.integratorId === state.selectedIntegrator);
  if (!keep) state.selectedIntegrator = integrators[0]?.integratorId;
  if (state.selectedIntegrator) await loadIntegrator(state.selectedIntegrator);
}

async function loadIntegrator(id: string): Promise<void> {
  if (id !== state.selectedIntegrator) {
    Object.assign(state, {
      issued: undefined, selectedKey: undefined, usage: undefined, fees: undefined, withdrawal: undefined, editing: undefined,
      webhook: undefined, webhookSecret: undefined, armedWebhook: undefined, transfers: undefined,
    });
  }
  state.selectedIntegrator = id;
  const [integrator, fees, webhook, transfers] = await Promise.all([
    api<IntegratorAnswer>('GET', integratorPath(id)),
    api<FeesAnswer>('GET', `${integratorPath(id)}/fees`),
    api<WebhookAnswer>('GET', `${integratorPath(id)}/webhook`),
    api<TransfersAnswer>('GET', `${integratorPath(id)}/transfers`),
  ]);
  state.integrator = integrator;
  state.fees = fees;
  state.webhook = webhook;
  state.transfers = transfers.transfers;
  // the usage shown is of a working key: the one selected, else the newest
  const working = integrator.keys.filter((k) => k.status === 'active' || k.status === 'grace');
  if (!integrator.keys.some((k) => k.id === state.selectedKey)) state.selectedKey = working[0]?.id;
  if (state.selectedKey) await loadUsage();
  else state.usage = undefined;
}

async function register(integratorId: string): Promise<void> {
  const created = await api<IntegratorSummary>('POST', '/integrators', { integratorId });
  showAlert('info', `Integrator "${created.integratorId}" is registered; its fees go to ${created.feeWallet}.`);
  state.selectedIntegrator = created.integratorId;
  await loadIntegrators();
}

async function createKey(name: string): Promise<void> {
  const id = state.selectedIntegrator!;
  const answer = await api<IssuedKeyAnswer>('POST', `${integratorPath(id)}/keys`, name ? { name } : {});
  state.issued = { key: answer.key, keyId: answer.view.id };
  state.selectedKey = answer.view.id;
  await loadIntegrator(id);
}

async function rename(keyId: string, name: string): Promise<void> {
  const id = state.selectedIntegrator!;
  await api<KeyAnswer>('PATCH', keyPath(id, keyId), { name });
  state.editing = undefined;
  await loadIntegrator(id);
}

async function setAllowlist(keyId: string, text: string): Promise<void> {
  const id = state.selectedIntegrator!;
  const entries = text.split(/[\s,]+/).map((entry) => entry.trim()).filter((entry) => entry !== '');
  await api<KeyAnswer>('PUT', `${keyPath(id, keyId)}/allowlist`, { ipAllowlist: entries.length === 0 ? null : entries });
  state.editing = undefined;
  showAlert('info', entries.length === 0 ? `Key ${keyId} works from any address.` : `Key ${keyId} works from ${entries.join(', ')} only.`);
  await loadIntegrator(id);
}

async function rotate(keyId: string): Promise<void> {
  const id = state.selectedIntegrator!;
  const graceHours = state.graceHours ?? (state.me.signedIn ? state.me.graceHours : 24);
  const answer = await api<IssuedKeyAnswer>('POST', `${keyPath(id, keyId)}/rotate`, { graceHours });
  state.issued = { key: answer.key, keyId: answer.view.id, ...(answer.previous ? { previous: answer.previous } : {}) };
  state.selectedKey = answer.view.id;
  await loadIntegrator(id);
}

async function revoke(keyId: string): Promise<void> {
  const id = state.selectedIntegrator!;
  await api<KeyAnswer>('POST', `${keyPath(id, keyId)}/revoke`);
  state.armedRevoke = undefined;
  if (state.issued?.keyId === keyId) state.issued = undefined;
  showAlert('info', `Key ${keyId} is revoked: it is refused from now on.`);
  await loadIntegrator(id);
}

async function loadUsage(): Promise<void> {
  const id = state.selectedIntegrator;
  const keyId = state.selectedKey;
  if (!id || !keyId) return;
  const query = new URLSearchParams({ range: state.usageRange });
  if (state.usageOperation) query.set('operationId', state.usageOperation);
  state.usage = await api<UsageAnswer>('GET', `${keyPath(id, keyId)}/usage?${query}`);
}

async function loadFees(): Promise<void> {
  const id = state.selectedIntegrator;
  if (id) state.fees = await api<FeesAnswer>('GET', `${integratorPath(id)}/fees`);
}

async function loadWebhook(): Promise<void> {
  const id = state.selectedIntegrator;
  if (id) state.webhook = await api<WebhookAnswer>('GET', `${integratorPath(id)}/webhook`);
}

async function loadTransfers(): Promise<void> {
  const id = state.selectedIntegrator;
  if (id) state.transfers = (await api<TransfersAnswer>('GET', `${integratorPath(id)}/transfers`)).transfers;
}

/** Sets the webhook's URL: a first one comes with its secret (shown once); a new URL keeps the secret. */
async function saveWebhook(url: string): Promise<void> {
  const id = state.selectedIntegrator!;
  const answer = await api<IssuedWebhookAnswer>('PUT', `${integratorPath(id)}/webhook`, { url });
  state.armedWebhook = undefined;
  if (answer.secret) state.webhookSecret = { secret: answer.secret, renewed: false };
  else showAlert('info', `Webhook URL changed to ${answer.webhook.url}; its secret is unchanged.`);
  await loadWebhook();
}

async function renewWebhookSecret(): Promise<void> {
  const id = state.selectedIntegrator!;
  const answer = await api<IssuedWebhookAnswer>('POST', `${integratorPath(id)}/webhook/secret`);
  state.armedWebhook = undefined;
  if (answer.secret) state.webhookSecret = { secret: answer.secret, renewed: true };
  await loadWebhook();
}

async function removeWebhook(): Promise<void> {
  const id = state.selectedIntegrator!;
  await api<undefined>('DELETE', `${integratorPath(id)}/webhook`);
  Object.assign(state, { armedWebhook: undefined, webhookSecret: undefined });
  showAlert('info', `The webhook of "${id}" is removed: nothing is posted to it any more.`);
  await loadWebhook();
}

/** Builds the withdrawal on the server, switches the wallet to its chain, has the wallet send it and waits for it. */
async function withdraw(chain: ChainFeesInfo): Promise<void> {
  const id = state.selectedIntegrator!;
  state.withdrawal = { chainId: chain.chainId, state: 'preparing' };
  render();
  try {
    const answer = await api<WithdrawalAnswer>('GET', `${integratorPath(id)}/fees/${chain.chainId}/withdrawal`);
    const { transaction } = answer;
    if (!transaction.from) throw new Error(`The fees of "${id}" on ${answer.chainName} are not booked to a wallet: nobody can withdraw them.`);
    if (!state.account || getAddress(transaction.from) !== state.account) {
      throw new Error(`The fees on ${answer.chainName} are booked to ${transaction.from}: connect that wallet to withdraw them.`);
    }
    if ((await readChainId()) !== answer.chainId) {
      state.withdrawal = { chainId: chain.chainId, state: 'switching' };
      render();
      await switchChain(answer);
    }
    state.walletChainId = answer.chainId;
    state.withdrawal = { chainId: chain.chainId, state: 'confirm in wallet' };
    render();
    const hash = await walletRequest<string>('eth_sendTransaction', [{
      from: state.account, to: transaction.to, data: transaction.data, value: transaction.value, gas: transaction.gas, gasPrice: transaction.gasPrice,
    }]);
    state.withdrawal = { chainId: chain.chainId, hash, state: 'sent' };
    render();
    const status = await receiptStatus(hash);
    state.withdrawal = { chainId: chain.chainId, hash, state: status === 'success' ? 'confirmed' : 'failed' };
    if (status === 'success') showAlert('info', `Withdrawn on ${answer.chainName}: ${answer.tokens.join(', ')} (transaction ${hash}).`);
    else throw new Error(status === 'reverted' ? `The withdrawal on ${answer.chainName} was reverted (transaction ${hash}).` : `No receipt for ${hash} yet: look it up in the wallet.`);
    await loadFees();
  } catch (error) {
    state.withdrawal = { ...state.withdrawal!, state: 'failed' };
    throw error;
  }
}

async function switchChain(answer: WithdrawalAnswer): Promise<void> {
  try {
    await wallet().request({ method: 'wallet_switchEthereumChain', params: [{ chainId: answer.addChain.chainId }] });
  } catch (error) {
    if (walletErrorCode(error) !== 4902) throw new Error(walletMessage(error));
    // the wallet does not know the chain: add it (EIP-3085), which also switches to it
    await walletRequest('wallet_addEthereumChain', [answer.addChain]);
  }
}

/** Polls the wallet for the transaction's receipt, up to two minutes. */
async function receiptStatus(hash: string): Promise<'success' | 'reverted' | 'unknown'> {
  for (let attempt = 0; attempt < 120; attempt += 1) {
    const receipt = await walletRequest<{ status?: string } | null>('eth_getTransactionReceipt', [hash]);
    if (receipt) return receipt.status === '0x1' ? 'success' : 'reverted';
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  return 'unknown';
}

// ------------------------------------------------------------------------------------------------------------------
// DOM helpers

type Child = Node | string | number | false | null | undefined;
type Attributes = Record<string, string | number | boolean | ((event: Event) => void) | undefined>;

/** An element with attributes (`on…` ones are listeners, `true`/`false` ones present or absent) and children. */
function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.slice(2), value);
    else if (value === true) element.setAttribute(name, '');
    else element.setAttribute(name, String(value));
  }
  element.append(...children.filter((child): child is Node | string | number => child !== false && child !== null && child !== undefined).map((child) => (typeof child === 'number' ? String(child) : child)));
  return element;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

function s(tag: string, attributes: Record<string, string | number>, ...children: (Node | string)[]): SVGElement {
  const element = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  element.append(...children);
  return element;
}

/** A button that runs an action (disabled while another runs). */
function button(label: string, action: () => Promise<void> | void, attributes: Attributes = {}): HTMLButtonElement {
  return h('button', { type: 'button', disabled: state.busy, ...attributes, onclick: () => void act(async () => action()) }, label);
}

// ------------------------------------------------------------------------------------------------------------------
// Rendering

function render(): void {
  renderWallet();
  const app = document.getElementById('app');
  if (!app) return;
  app.replaceChildren(...sections());
}

function renderWallet(): void {
  const area = document.getElementById('wallet');
  if (!area) return;
  const parts: Child[] = [];
  if (state.account) parts.push(h('span', { class: 'mono', 'data-account': state.account }, short(state.account)));
  if (state.walletChainId !== undefined) parts.push(h('span', {}, `chain ${state.walletChainId}`));
  if (state.me.signedIn) parts.push(button('Sign out', signOut, { 'data-action': 'sign-out' }));
  area.replaceChildren(...parts.filter((p): p is Node => p instanceof Node));
}

function sections(): Node[] {
  if (!window.ethereum) {
    return [h('section', { class: 'card hero', 'data-state': 'no-wallet' },
      h('h2', {}, 'No wallet found'),
      h('p', {}, 'Sign in with the wallet that receives your integrator fees: open this page in a browser with a wallet (MetaMask, Rabby, Coinbase Wallet...).'))];
  }
  if (!state.account) {
    return [h('section', { class: 'card hero', 'data-state': 'not-connected' },
      h('h2', {}, 'Connect your wallet'),
      h('p', {}, 'Your integrators are the ones whose fees go to your wallet. Connect it to sign in.'),
      button('Connect wallet', connect, { class: 'primary', 'data-action': 'connect' }))];
  }
  if (!state.me.signedIn) {
    return [h('section', { class: 'card hero', 'data-state': 'signed-out' },
      h('h2', {}, 'Sign in'),
      h('p', {}, `Connected as ${state.account}. Sign a message (Sign-In with Ethereum; it costs nothing and sends no transaction) to prove it is yours.`),
      button('Sign in with Ethereum', signIn, { class: 'primary', 'data-action': 'sign-in' }))];
  }
  const nodes: Node[] = [];
  if (state.account !== state.me.address) {
    nodes.push(h('section', { class: 'card', 'data-state': 'other-account' },
      h('p', {}, `The wallet is now on ${state.account}, but you are signed in as ${state.me.address}.`),
      button('Sign in with this account', async () => {
        await signOut();
        await signIn();
      }, { class: 'primary' })));
  }
  nodes.push(integratorsSection());
  if (state.integrator) {
    if (state.issued) nodes.push(issuedSection(state.issued));
    nodes.push(keysSection(state.integrator));
    nodes.push(usageSection());
    nodes.push(transfersSection());
    nodes.push(feesSection());
    nodes.push(webhookSection());
  }
  return nodes;
}

function integratorsSection(): Node {
  const input = h('input', { name: 'integratorId', placeholder: 'my-dapp', required: true, maxlength: 64, pattern: '[a-zA-Z0-9._\\-]{1,64}', 'aria-label': 'Integrator id' });
  const form = h('form', { class: 'inline', 'data-form': 'register' }, input, h('button', { type: 'submit', class: 'primary', disabled: state.busy }, 'Register'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const value = input.value.trim();
    void act(() => register(value));
  });
  const tabs = state.integrators.map((i) =>
    button(i.integratorId, () => loadIntegrator(i.integratorId), { class: i.integratorId === state.selectedIntegrator ? 'current' : undefined, 'data-integrator': i.integratorId }));
  return h('section', { class: 'card', 'data-state': 'signed-in' },
    h('h2', {}, 'Integrators'),
    state.integrators.length === 0
      ? h('p', { class: 'empty' }, `No integrator's fees go to ${state.me.signedIn ? state.me.address : 'this wallet'} yet: register your integrator id (the one your app sends as "integrator").`)
      : h('div', { class: 'tabs' }, ...tabs),
    h('h3', {}, 'Register an integrator id'),
    h('p', { class: 'muted small' }, 'Its fees will be booked to the signed-in wallet, which alone manages its keys.'),
    form);
}

function issuedSection(issued: IssuedKey): Node {
  const copy = h('button', { type: 'button', onclick: () => void navigator.clipboard?.writeText(issued.key).then(() => showAlert('info', 'Key copied.'), () => undefined) }, 'Copy');
  return h('section', { class: 'secret', 'data-issued-key': issued.keyId },
    h('strong', {}, `New key ${issued.keyId}: copy it now, it is shown only once.`),
    h('code', { class: 'mono', 'data-secret': 'key' }, issued.key),
    issued.previous?.expiresAt
      ? h('p', { class: 'small' }, `The old key ${issued.previous.id} keeps working until ${time(issued.previous.expiresAt)} (the grace period), then it is refused: deploy the new key before then.`)
      : null,
    h('div', { class: 'row' }, copy, h('button', { type: 'button', onclick: () => { state.issued = undefined; render(); } }, 'I have stored it')));
}

function keysSection(integrator: IntegratorAnswer): Node {
  const working = integrator.keys.filter((k) => k.status === 'active' || k.status === 'grace');
  const past = integrator.keys.filter((k) => k.status === 'revoked' || k.status === 'expired');
  const name = h('input', { name: 'name', placeholder: 'Key name (e.g. production backend)', maxlength: 100, 'aria-label': 'Key name' });
  const form = h('form', { class: 'inline', 'data-form': 'create-key' }, name, h('button', { type: 'submit', class: 'primary', disabled: state.busy }, 'Create key'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const value = name.value.trim();
    void act(() => createKey(value));
  });
  const graceDefault = state.me.signedIn ? state.me.graceHours : 24;
  const grace = h('select', { 'aria-label': 'Grace period of a rotation', onchange: (event: Event) => { state.graceHours = Number((event.target as HTMLSelectElement).value); } },
    ...[1, 24, 72, 168].concat([graceDefault]).filter((v, i, all) => all.indexOf(v) === i).sort((a, b) => a - b)
      .map((hours) => h('option', { value: hours, selected: hours === (state.graceHours ?? graceDefault) }, hours === 1 ? '1 hour' : `${hours} hours`)));
  return h('section', { class: 'card', 'data-section': 'keys' },
    h('h2', {}, `API keys of ${integrator.integratorId}`),
    h('p', { class: 'muted small' }, 'Send a key in the x-svc-api-key header from your servers (never from a browser). A key is shown once, when it is created or rotated.'),
    form,
    h('p', { class: 'row small' }, h('label', {}, 'When a key is rotated, the old one keeps working for', grace), h('span', { class: 'muted' }, '(so you can deploy the new one first).')),
    working.length === 0 ? h('p', { class: 'empty' }, 'No working key yet.') : keyTable(working, false),
    past.length === 0 ? null : h('details', {}, h('summary', {}, `${past.length} revoked or expired key${past.length === 1 ? '' : 's'}`), keyTable(past, true)));
}

function keyTable(keys: readonly PortalKey[], past: boolean): Node {
  const rows = keys.flatMap((key) => {
    const row = h('tr', { class: [key.id === state.selectedKey ? 'selected' : '', past ? 'past' : ''].join(' ').trim() || undefined, 'data-key-id': key.id },
      h('td', {}, key.name ?? h('span', { class: 'muted' }, '(no name)')),
      h('td', { class: 'mono' }, key.id),
      h('td', {}, statusBadge(key)),
      h('td', { class: 'small' }, time(key.createdAt)),
      h('td', { class: 'small' }, key.ipAllowlist ? key.ipAllowlist.join(', ') : h('span', { class: 'muted' }, 'any address')),
      h('td', { class: 'small' }, `${key.limits.perMinute}/min; ${key.limits.twoHourWindow}/2 h`),
      h('td', { class: 'actions' }, ...(past ? [] : keyActions(key))));
    const edit = state.editing === key.id && !past ? [editRow(key)] : [];
    return [row, ...edit];
  });
  return h('table', { 'data-table': past ? 'past-keys' : 'keys' },
    h('thead', {}, h('tr', {}, ...['Name', 'Key id', 'State', 'Created', 'IP allowlist', 'Limits', ''].map((title) => h('th', {}, title)))),
    h('tbody', {}, ...rows));
}

function statusBadge(key: PortalKey): Node {
  const badges: Node[] = [h('span', { class: `badge ${key.status}` }, key.status === 'grace' ? 'rotated' : key.status)];
  if (key.status === 'grace' && key.expiresAt) badges.push(h('div', { class: 'small muted' }, `works until ${time(key.expiresAt)}`));
  for (const block of key.blocks) {
    badges.push(h('div', { class: 'small' }, h('span', { class: 'badge blocked' }, 'blocked'), ` ${block.reason || block.rule} ${block.until ? `until ${time(block.until)}` : 'until lifted'}`));
  }
  return h('div', {}, ...badges);
}

function keyActions(key: PortalKey): Node[] {
  const armed = state.armedRevoke === key.id;
  return [
    button('Usage', async () => {
      state.selectedKey = key.id;
      await loadUsage();
    }, { 'data-action': 'usage' }),
    button(state.editing === key.id ? 'Close' : 'Edit', () => {
      state.editing = state.editing === key.id ? undefined : key.id;
    }, { 'data-action': 'edit' }),
    key.status === 'active' ? button('Rotate', () => rotate(key.id), { 'data-action': 'rotate' }) : null,
    button(armed ? 'Confirm revoke' : 'Revoke', async () => {
      if (armed) await revoke(key.id);
      else state.armedRevoke = key.id;
    }, { class: armed ? 'danger armed' : 'danger', 'data-action': armed ? 'confirm-revoke' : 'revoke' }),
  ].filter((node): node is HTMLButtonElement => node !== null);
}

function editRow(key: PortalKey): Node {
  const name = h('input', { name: 'name', value: key.name ?? '', maxlength: 100, 'aria-label': 'New name' });
  const allowlist = h('textarea', { name: 'ipAllowlist', placeholder: 'One address or CIDR range per line (203.0.113.7, 203.0.113.0/24, 2001:db8::/48); empty: any address', 'aria-label': 'IP allowlist' });
  allowlist.value = (key.ipAllowlist ?? []).join('\n');
  return h('tr', { class: 'edit', 'data-edit-key': key.id },
    h('td', { colspan: 7 },
      h('div', { class: 'row' }, name, button('Save name', () => rename(key.id, name.value), { 'data-action': 'save-name' })),
      h('p', { class: 'small muted' }, 'Requests with this key from other addresses are refused (403).'),
      allowlist,
      h('div', { class: 'row' }, button('Save allowlist', () => setAllowlist(key.id, allowlist.value), { 'data-action': 'save-allowlist' }))));
}

function usageSection(): Node {
  const usage = state.usage;
  const key = state.integrator?.keys.find((k) => k.id === state.selectedKey);
  if (!key || !usage) {
    return h('section', { class: 'card', 'data-section': 'usage' }, h('h2', {}, 'Usage'), h('p', { class: 'empty' }, 'Create a key to see its usage here.'));
  }
  const ranges = (['1h', '24h', '7d'] as const).map((range) =>
    button(range, async () => {
      state.usageRange = range;
      await loadUsage();
    }, { class: range === state.usageRange ? 'current' : undefined, 'data-range': range }));
  const operations = h('select', {
    'aria-label': 'Operation',
    onchange: (event: Event) => {
      const value = (event.target as HTMLSelectElement).value;
      state.usageOperation = value === '' ? undefined : value;
      void act(loadUsage);
    },
  }, h('option', { value: '' }, 'every operation'), ...usage.byOperation.map((op) => h('option', { value: op.operationId, selected: op.operationId === state.usageOperation }, op.operationId)));
  const totals = usage.series.reduce((sum, p) => ({ requests: sum.requests + p.requests, refused: sum.refused + refusals(p) }), { requests: 0, refused: 0 });
  return h('section', { class: 'card', 'data-section': 'usage', 'data-key-id': key.id },
    h('h2', {}, `Usage of ${key.name ? `"${key.name}" (${key.id})` : key.id}`),
    h('div', { class: 'row' }, h('div', { class: 'tabs' }, ...ranges), operations, button('Refresh', loadUsage, { 'data-action': 'refresh-usage' })),
    h('div', { class: 'facts' },
      fact('Requests', totals.requests, 'usage-requests'),
      fact('Refused (401, 403, 429)', totals.refused, 'usage-refused'),
      fact('Limit per minute', key.limits.perMinute, 'limit-minute'),
      fact('Quotes, routes, steps per 2 h', key.limits.twoHourWindow, 'limit-two-hours'),
      fact('Blocked', usage.blocks.length === 0 ? 'no' : usage.blocks.map((b) => `${b.rule}: ${b.reason}${b.until ? ` until ${time(b.until)}` : ' until lifted'}`).join('; '), 'blocked')),
    h('div', { class: 'legend' }, h('span', {}, h('span', { class: 'swatch requests' }), 'requests'), h('span', {}, h('span', { class: 'swatch refusals' }), 'refused')),
    chart(usage),
    usage.byOperation.length === 0
      ? h('p', { class: 'empty' }, 'No request with this key in this period.')
      : h('table', { 'data-table': 'operations' },
        h('thead', {}, h('tr', {}, ...['Operation', 'Requests', '401', '403', '429'].map((title) => h('th', {}, title)))),
        h('tbody', {}, ...usage.byOperation.map((op) => h('tr', {}, h('td', { class: 'mono' }, op.operationId), h('td', {}, op.requests), h('td', {}, op.refused401), h('td', {}, op.refused403), h('td', {}, op.refused429))))));
}

function fact(label: string, value: string | number, name: string): Node {
  return h('div', { class: 'fact' }, h('div', { class: 'small muted' }, label), h('div', { class: 'value', 'data-fact': name }, String(value)));
}

const refusals = (p: { refused401: number; refused403: number; refused429: number }) => p.refused401 + p.refused403 + p.refused429;

/** A bar chart of the series: per step, requests and refusals side by side, with a scale and time labels. */
function chart(usage: UsageAnswer): Node {
  const width = 760;
  const height = 220;
  const left = 44;
  const bottom = 24;
  const top = 10;
  const plotWidth = width - left - 8;
  const plotHeight = height - top - bottom;
  const points = usage.series;
  const max = Math.max(1, ...points.map((p) => Math.max(p.requests, refusals(p))));
  // at least 2, so that the middle line of the scale is a whole number of requests
  const scale = Math.max(2, niceCeiling(max));
  const band = plotWidth / Math.max(1, points.length);
  const bar = Math.max(1, band * 0.4);
  const y = (value: number) => top + plotHeight - (value / scale) * plotHeight;
  const nodes: SVGElement[] = [];
  for (const fraction of [0, 0.5, 1]) {
    const value = scale * fraction;
    nodes.push(s('line', { class: fraction === 0 ? 'axis' : 'grid', x1: left, x2: left + plotWidth, y1: y(value), y2: y(value) }));
    nodes.push(s('text', { x: left - 6, y: y(value) + 4, 'text-anchor': 'end' }, Number.isInteger(value) ? String(value) : value.toFixed(1)));
  }
  points.forEach((point, index) => {
    const x = left + index * band + band * 0.1;
    const refused = refusals(point);
    const label = `${time(point.at)}: ${point.requests} requests, ${refused} refused`;
    if (point.requests > 0) nodes.push(s('rect', { class: 'requests', x, y: y(point.requests), width: bar, height: y(0) - y(point.requests) }, s('title', {}, label)));
    if (refused > 0) nodes.push(s('rect', { class: 'refusals', x: x + bar, y: y(refused), width: bar, height: y(0) - y(refused) }, s('title', {}, label)));
  });
  for (const index of [0, Math.floor(points.length / 2), points.length - 1]) {
    const point = points[index];
    if (!point) continue;
    nodes.push(s('text', { x: left + index * band + band / 2, y: height - 6, 'text-anchor': index === 0 ? 'start' : index === points.length - 1 ? 'end' : 'middle' }, clock(point.at, usage.stepMinutes)));
  }
  const total = points.reduce((sum, p) => sum + p.requests, 0);
  return s('svg', { class: 'chart', viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': `Requests and refusals per ${usage.stepMinutes} minute(s)`, 'data-total-requests': total, 'data-total-refused': points.reduce((sum, p) => sum + refusals(p), 0) }, ...nodes);
}

/** 1, 2 or 5 times a power of ten, at least `value`: a round top for the scale. */
function niceCeiling(value: number): number {
  const power = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((m) => m * power).find((candidate) => candidate >= value) ?? value;
}

function feesSection(): Node {
  const fees = state.fees;
  const title = h('h2', {}, 'Fee balances');
  const done = state.withdrawal?.state === 'confirmed' && !fees?.chains.some((c) => c.chainId === state.withdrawal?.chainId)
    ? h('p', { class: 'small', 'data-withdrawal': 'confirmed' }, `Withdrawn on chain ${state.withdrawal.chainId}: transaction `, h('span', { class: 'mono' }, state.withdrawal.hash ?? ''))
    : null;
  if (!fees || fees.chains.length === 0) {
    return h('section', { class: 'card', 'data-section': 'fees' }, title, h('p', { class: 'empty' }, 'No fees to withdraw: none collected yet, or all withdrawn.'), done);
  }
  const elsewhere = fees.bookedTo && state.me.signedIn && fees.bookedTo.toLowerCase() !== state.me.address.toLowerCase()
    ? h('p', { class: 'alert error' }, `These fees are booked to ${fees.bookedTo}: only that wallet can withdraw them.`)
    : null;
  const rows = fees.chains.map((chain) => {
    const progress = state.withdrawal?.chainId === chain.chainId ? state.withdrawal : undefined;
    return h('tr', { 'data-chain-id': chain.chainId },
      h('td', {}, `${chain.chainName} (${chain.chainId})`, fees.staleChains.includes(chain.chainId) ? h('div', { class: 'small muted' }, 'last known figures') : null),
      h('td', {}, ...chain.tokenBalances.map((b) => h('div', { 'data-token': b.symbol }, `${formatUnits(BigInt(b.amount), b.decimals)} ${b.symbol}`, h('span', { class: 'muted small' }, ` ≈ $${b.amountUsd}`)))),
      h('td', { class: 'actions' },
        chain.withdrawable ? button('Withdraw', () => withdraw(chain), { class: 'primary', 'data-action': 'withdraw' }) : h('span', { class: 'muted small' }, 'not withdrawable here'),
        progress ? h('div', { class: 'small', 'data-withdrawal': progress.state }, progress.state, progress.hash ? h('div', { class: 'mono' }, progress.hash) : null) : null));
  });
  return h('section', { class: 'card', 'data-section': 'fees' },
    title,
    h('p', { class: 'muted small' }, 'A withdrawal is a transaction your wallet sends to the chain\'s fee collector, which pays the balance to the sending wallet.'),
    elsewhere,
    h('table', { 'data-table': 'fees' }, h('thead', {}, h('tr', {}, ...['Chain', 'Balance', ''].map((t) => h('th', {}, t)))), h('tbody', {}, ...rows)),
    done);
}

/** The path of a transfer's page on this service's explorer, built from its sending transaction's hash. */
function explorerHref(txHash: string): string {
  return `/explorer/tx/${encodeURIComponent(txHash)}`;
}

/** A link to a transfer's explorer page (a new tab), the hash as its text. */
function transferLink(txHash: string): HTMLAnchorElement {
  return h('a', { href: explorerHref(txHash), target: '_blank', rel: 'noopener', class: 'mono', 'data-explorer-link': txHash }, txHash);
}

function transfersSection(): Node {
  const transfers = state.transfers ?? [];
  const id = state.selectedIntegrator ?? '';
  const rows = transfers.map((transfer) => h('tr', { 'data-tx-hash': transfer.txHash },
    h('td', { class: 'small' }, transfer.startedAt ? time(transfer.startedAt) : h('span', { class: 'muted' }, 'not known')),
    h('td', {}, transferLink(transfer.txHash)),
    h('td', { class: 'small' }, transfer.toChainId === undefined || transfer.toChainId === transfer.fromChainId ? `chain ${transfer.fromChainId}` : `chain ${transfer.fromChainId} → chain ${transfer.toChainId}`),
    h('td', { class: 'small', 'data-tool': '' }, transfer.tool ?? h('span', { class: 'muted' }, '—')),
    h('td', {}, h('span', { class: `badge transfer ${transfer.status.toLowerCase()}` }, transfer.status), transfer.substatus ? h('div', { class: 'small muted' }, transfer.substatus) : null)));
  return h('section', { class: 'card', 'data-section': 'transfers' },
    h('h2', {}, 'Recent transfers'),
    h('p', { class: 'muted small' }, `The latest transfers sent with integrator "${id}", as the service found them on the chains. Each opens its page on the explorer.`),
    h('div', { class: 'row' }, button('Refresh', loadTransfers, { 'data-action': 'refresh-transfers' })),
    transfers.length === 0
      ? h('p', { class: 'empty' }, 'No transfer seen yet.')
      : h('table', { 'data-table': 'transfers' },
        h('thead', {}, h('tr', {}, ...['Started', 'Transfer', 'Chains', 'Tool', 'State'].map((title) => h('th', {}, title)))),
        h('tbody', {}, ...rows)));
}

function webhookSection(): Node {
  const answer = state.webhook;
  const webhook = answer?.webhook ?? null;
  const url = h('input', { name: 'url', type: 'url', value: webhook?.url ?? '', placeholder: 'https://example.com/webhooks/transfers', maxlength: 2048, class: 'wide', 'aria-label': 'Webhook URL' });
  // novalidate: the service's answer says what is wrong with a URL, more precisely than the browser
  const form = h('form', { class: 'inline', 'data-form': 'webhook', novalidate: true }, url, h('button', { type: 'submit', class: 'primary', disabled: state.busy }, webhook ? 'Save URL' : 'Set webhook'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const value = url.value.trim();
    void act(() => saveWebhook(value));
  });
  const armed = state.armedWebhook;
  const actions = webhook
    ? h('div', { class: 'row' },
      button(armed === 'renew' ? 'Confirm: renew the secret' : 'Renew secret', async () => {
        if (armed === 'renew') await renewWebhookSecret();
        else state.armedWebhook = 'renew';
      }, { class: armed === 'renew' ? 'danger armed' : undefined, 'data-action': armed === 'renew' ? 'confirm-renew-webhook-secret' : 'renew-webhook-secret' }),
      button(armed === 'remove' ? 'Confirm: remove the webhook' : 'Remove', async () => {
        if (armed === 'remove') await removeWebhook();
        else state.armedWebhook = 'remove';
      }, { class: armed === 'remove' ? 'danger armed' : 'danger', 'data-action': armed === 'remove' ? 'confirm-remove-webhook' : 'remove-webhook' }),
      armed === 'renew' ? h('span', { class: 'small muted' }, 'The current secret stops signing at once: update your receiver with the new one.') : null)
    : null;
  const deliveries = answer?.deliveries ?? [];
  return h('section', { class: 'card', 'data-section': 'webhook' },
    h('h2', {}, 'Webhook'),
    h('p', { class: 'muted small' },
      'Each state change of your transfers is posted to this URL as JSON, signed with the webhook\'s secret (X-Webhook-Signature: t=<unix time>,v1=<HMAC-SHA256 of "t.body">); ',
      'a delivery not answered with 2xx is retried for about a day. The URL must be https and reach the internet: addresses of loopback, private and link-local networks are refused.'),
    state.webhookSecret ? webhookSecretNotice(state.webhookSecret) : null,
    form,
    webhook
      ? h('p', { class: 'small', 'data-webhook-url': webhook.url }, 'Posting to ', h('span', { class: 'mono' }, webhook.url), h('span', { class: 'muted' }, ` (set ${time(webhook.createdAt)}, changed ${time(webhook.updatedAt)})`))
      : h('p', { class: 'empty', 'data-webhook': 'none' }, 'No webhook set: your transfers\' state changes are not posted anywhere.'),
    actions,
    h('h3', {}, 'Latest deliveries'),
    deliveries.length === 0
      ? h('p', { class: 'empty' }, 'No delivery yet.')
      : h('table', { 'data-table': 'deliveries' },
        h('thead', {}, h('tr', {}, ...['Created', 'Transfer', 'Status sent', 'Delivery', 'Attempts', 'Last answer'].map((title) => h('th', {}, title)))),
        h('tbody', {}, ...deliveries.map(deliveryRow))),
    h('div', { class: 'row' }, button('Refresh', loadWebhook, { 'data-action': 'refresh-webhook' })));
}

function deliveryRow(delivery: WebhookDeliveryInfo): Node {
  const when = delivery.state === 'delivered' && delivery.deliveredAt ? `delivered ${time(delivery.deliveredAt)}`
    : delivery.state === 'pending' && delivery.nextAttemptAt ? `next attempt ${time(delivery.nextAttemptAt)}` : '';
  return h('tr', { 'data-delivery-id': delivery.id, 'data-delivery-state': delivery.state },
    h('td', { class: 'small' }, time(delivery.createdAt)),
    h('td', {}, transferLink(delivery.txHash)),
    h('td', { class: 'small' }, delivery.status),
    h('td', {}, h('span', { class: `badge delivery ${delivery.state}` }, delivery.state), when ? h('div', { class: 'small muted' }, when) : null),
    h('td', {}, delivery.attempts),
    h('td', { class: 'small' },
      delivery.lastStatus === undefined ? null : h('div', {}, `HTTP ${delivery.lastStatus}`),
      delivery.lastError === undefined ? null : h('div', { class: 'muted' }, delivery.lastError),
      delivery.lastStatus === undefined && delivery.lastError === undefined ? h('span', { class: 'muted' }, '—') : null));
}

function webhookSecretNotice(issued: IssuedSecret): Node {
  const copy = h('button', { type: 'button', onclick: () => void navigator.clipboard?.writeText(issued.secret).then(() => showAlert('info', 'Secret copied.'), () => undefined) }, 'Copy');
  return h('div', { class: 'secret', 'data-webhook-secret': issued.renewed ? 'renewed' : 'new' },
    h('strong', {}, `${issued.renewed ? 'New webhook secret' : 'Webhook secret'}: copy it now into your receiver, it is shown only once.`),
    h('code', { class: 'mono', 'data-secret': 'webhook' }, issued.secret),
    h('p', { class: 'small' }, issued.renewed
      ? 'The previous secret no longer signs deliveries. If you lose this one, renew it again.'
      : 'Your receiver checks each delivery\'s X-Webhook-Signature with it. If you lose it, renew it.'),
    h('div', { class: 'row' }, copy, h('button', { type: 'button', onclick: () => { state.webhookSecret = undefined; render(); } }, 'I have stored it')));
}

// ------------------------------------------------------------------------------------------------------------------
// Formatting

function short(address: string): string {
  return `${address.slice(0, 6)}…${address.slice(-4)}`;
}

function time(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

function clock(iso: string, stepMinutes: number): string {
  const date = new Date(iso);
  return stepMinutes >= 60 ? date.toLocaleDateString(undefined, { month: 'short', day: 'numeric' }) : date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}

// ------------------------------------------------------------------------------------------------------------------
// Start: the session this browser may have, the wallet's account if it is shared already

async function start(): Promise<void> {
  const provider = window.ethereum;
  if (provider?.on) {
    provider.on('accountsChanged', (accounts: string[]) => {
      state.account = accounts[0] ? getAddress(accounts[0]) : undefined;
      render();
    });
    provider.on('chainChanged', (chainId: string) => {
      state.walletChainId = Number.parseInt(chainId, 16);
      render();
    });
  }
  await act(async () => {
    state.me = await api<MeAnswer>('GET', '/me');
    if (provider) {
      const accounts = await walletRequest<string[]>('eth_accounts');
      if (accounts[0]) {
        state.account = getAddress(accounts[0]);
        state.walletChainId = await readChainId();
      }
    }
    if (state.me.signedIn) await loadIntegrators();
  });
}

void start();
