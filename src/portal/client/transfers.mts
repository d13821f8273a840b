/** An integrator's recent transfers, each linked to its page on the explorer (/explorer/tx/<hash>). */
import type { TransfersAnswer } from '../api';
import { api, integratorPath } from './api.mjs';
import { h } from './dom.mjs';
import { time } from './format.mjs';
import { button } from './render.mjs';
import { state } from './state.mjs';

async function loadTransfers(): Promise<void> {
  const id = state.selectedIntegrator;
  if (id) state.transfers = (await api<TransfersAnswer>('GET', `${integratorPath(id)}/transfers`)).transfers;
}

/** The path of a transfer's page on this service's explorer, built from its sending transaction's hash. */
function explorerHref(txHash: string): string {
  return `/explorer/tx/${encodeURIComponent(txHash)}`;
}

/** A link to a transfer's explorer page (a new tab), the hash as its text. */
export function transferLink(txHash: string): HTMLAnchorElement {
  return h('a', { href: explorerHref(txHash), target: '_blank', rel: 'noopener', class: 'mono', 'data-explorer-link': txHash }, txHash);
}

export function transfersSection(): Node {
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
