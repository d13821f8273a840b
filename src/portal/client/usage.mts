/** A key's usage: requests and refusals over time (a bar chart) and by operation, its limits and blocks. */
import type { UsageAnswer } from '../api';
import { api, keyPath } from './api.mjs';
import { h, s } from './dom.mjs';
import { clock, time } from './format.mjs';
import { act, button } from './render.mjs';
import { state } from './state.mjs';

export async function loadUsage(): Promise<void> {
  const id = state.selectedIntegrator;
  const keyId = state.selectedKey;
  if (!id || !keyId) return;
  const query = new URLSearchParams({ range: state.usageRange });
  if (state.usageOperation) query.set('operationId', state.usageOperation);
  state.usage = await api<UsageAnswer>('GET', `${keyPath(id, keyId)}/usage?${query}`);
}

export function usageSection(): Node {
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
