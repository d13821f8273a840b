/** An integrator's API keys: create, rename, allowlist, rotate, revoke, the key shown once, and their table. */
import type { IntegratorAnswer, IssuedKeyAnswer, KeyAnswer, PortalKey } from '../api';
import { api, integratorPath, keyPath } from './api.mjs';
import { h } from './dom.mjs';
import { time } from './format.mjs';
import { loadIntegrator } from './integrators.mjs';
import { act, button, render, showAlert } from './render.mjs';
import { type IssuedKey, state } from './state.mjs';
import { loadUsage } from './usage.mjs';

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

export function issuedSection(issued: IssuedKey): Node {
  const copy = h('button', { type: 'button', onclick: () => void navigator.clipboard?.writeText(issued.key).then(() => showAlert('info', 'Key copied.'), () => undefined) }, 'Copy');
  return h('section', { class: 'secret', 'data-issued-key': issued.keyId },
    h('strong', {}, `New key ${issued.keyId}: copy it now, it is shown only once.`),
    h('code', { class: 'mono', 'data-secret': 'key' }, issued.key),
    issued.previous?.expiresAt
      ? h('p', { class: 'small' }, `The old key ${issued.previous.id} keeps working until ${time(issued.previous.expiresAt)} (the grace period), then it is refused: deploy the new key before then.`)
      : null,
    h('div', { class: 'row' }, copy, h('button', { type: 'button', onclick: () => { state.issued = undefined; render(); } }, 'I have stored it')));
}

export function keysSection(integrator: IntegratorAnswer): Node {
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
