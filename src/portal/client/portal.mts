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
 *
 * This file is the entry: it draws the page (renderPage) and starts it. The rest is in modules beside it: the state
 * (state.mts), the API (api.mts), the wallet (wallet.mts), the drawing loop and alerts (render.mts), DOM helpers and
 * formatting (dom.mts, format.mts), and one module per part of the page: signIn, integrators, keys, usage, transfers,
 * fees, webhooks (.mts).
 */
import { getAddress } from 'viem';
import type { MeAnswer } from '../api';
import { api } from './api.mjs';
import { type Child, h } from './dom.mjs';
import { feesSection } from './fees.mjs';
import { short } from './format.mjs';
import { integratorsSection, loadIntegrators } from './integrators.mjs';
import { issuedSection, keysSection } from './keys.mjs';
import { act, button, onRender, render } from './render.mjs';
import { connect, signIn, signOut } from './signIn.mjs';
import { state } from './state.mjs';
import { transfersSection } from './transfers.mjs';
import { usageSection } from './usage.mjs';
import { readChainId, walletRequest } from './wallet.mjs';
import { webhookSection } from './webhooks.mjs';

/** Draws the page from the state (render.mts's render calls it). */
function renderPage(): void {
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

onRender(renderPage);
void start();
