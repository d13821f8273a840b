/** The wallet's integrators: loading them (and the selected one's keys, fees, webhook and transfers), registering one. */
import type { FeesAnswer, IntegratorAnswer, IntegratorSummary, IntegratorsAnswer, TransfersAnswer, WebhookAnswer } from '../api';
import { api, integratorPath } from './api.mjs';
import { h } from './dom.mjs';
import { act, button, showAlert } from './render.mjs';
import { state } from './state.mjs';
import { loadUsage } from './usage.mjs';

export async function loadIntegrators(): Promise<void> {
  const { integrators } = await api<IntegratorsAnswer>('GET', '/integrators');
  state.integrators = integrators;
  const keep = integrators.some((i) => i.integratorId === state.selectedIntegrator);
  if (!keep) state.selectedIntegrator = integrators[0]?.integratorId;
  if (state.selectedIntegrator) await loadIntegrator(state.selectedIntegrator);
}

export async function loadIntegrator(id: string): Promise<void> {
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

export function integratorsSection(): Node {
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
