/** An integrator's webhook: its URL, its secret (shown once when made or renewed), its removal, its latest deliveries. */
import type { IssuedWebhookAnswer, WebhookAnswer, WebhookDeliveryInfo } from '../api';
import { api, integratorPath } from './api.mjs';
import { h } from './dom.mjs';
import { time } from './format.mjs';
import { act, button, render, showAlert } from './render.mjs';
import { type IssuedSecret, state } from './state.mjs';
import { transferLink } from './transfers.mjs';

async function loadWebhook(): Promise<void> {
  const id = state.selectedIntegrator;
  if (id) state.webhook = await api<WebhookAnswer>('GET', `${integratorPath(id)}/webhook`);
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

export function webhookSection(): Node {
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
