/**
 * The page's drawing loop: render (drawn by the entry, portal.mts), alerts at the top of the page, and the actions
 * buttons run (act: buttons disabled meanwhile, an error shown as an alert).
 */
import { ApiError } from './api.mjs';
import { type Attributes, h } from './dom.mjs';
import { state } from './state.mjs';

/** Draws the page from the state: the entry's renderPage (portal.mts), given with onRender before anything runs. */
let draw: () => void = () => undefined;

/** Sets how the page is drawn (once, by the entry). */
export function onRender(drawPage: () => void): void {
  draw = drawPage;
}

/** Draws the page again from the state. */
export function render(): void {
  draw();
}

export function showAlert(kind: 'error' | 'info', message: string): void {
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

export function clearAlerts(): void {
  document.getElementById('alerts')?.replaceChildren();
}

/** Runs an action with the buttons disabled; its error becomes an alert. */
export async function act(action: () => Promise<void>): Promise<void> {
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

/** A button that runs an action (disabled while another runs). */
export function button(label: string, action: () => Promise<void> | void, attributes: Attributes = {}): HTMLButtonElement {
  return h('button', { type: 'button', disabled: state.busy, ...attributes, onclick: () => void act(async () => action()) }, label);
}
