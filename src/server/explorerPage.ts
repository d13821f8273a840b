/**
 * The explorer page of a transfer (GET /explorer/tx/:ref, explorer.ts), rendered from what a transfer status holds:
 * pure functions from a TransferStatus and the catalog's chains and tools to one HTML document, and the pages of a
 * refused or failed look-up. Everything the page shows is in the document (readable without JavaScript); a page
 * whose transfer may still change is "live": it names the page script (explorerScript.ts), which follows the
 * transfer and reloads the page when its state changes, and carries a plain refresh link (and, without JavaScript,
 * a meta refresh) instead.
 *
 * Every value is escaped: the documents are written with the `html` template tag, which escapes each interpolated
 * value unless it is a fragment the tag made itself. Token symbols and names found on a chain are chosen by whoever
 * deployed the token, and substatus messages quote chain data. Links to a chain's own explorer are built only from
 * the catalog's `blockExplorerUrls[0]` (http or https, without credentials; anything else gives no link) and the
 * hash or address, URI-encoded. Token amounts are formatted from their integers (bigint), never through floats;
 * USD values, a display estimate like the status answer's `amountUSD`, are.
 */
import type { Catalog } from '../core/catalog/catalog';
import { hasPrice, type Chain, type Token } from '../core/entities';
import { isFinal, type CollectedFee, type IncludedStep, type TransferStatus, type TransferTransaction } from '../core/status/transferStatus';

/** Where the router is mounted, and the page script and stylesheet it serves. */
export const EXPLORER_BASE = '/explorer';
export const EXPLORER_SCRIPT_PATH = `${EXPLORER_BASE}/explorer.js`;
export const EXPLORER_STYLE_PATH = `${EXPLORER_BASE}/explorer.css`;

/** The pages' Content-Security-Policy: their own script and stylesheet, connections to this origin only, never framed. */
export const EXPLORER_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  // the empty icon (data:,), and nothing else
  'img-src data:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** What the pages read of the catalog: chain names and explorers, tool names. */
export type ExplorerCatalog = Pick<Catalog, 'getChain' | 'bridges' | 'exchanges'>;

/** The service's own tools, which the catalog's bridges and exchanges do not list (as the status answer names them). */
const OWN_TOOL_NAMES: Readonly<Record<string, string>> = { router: 'Router', feeCollection: 'Integrator fee', wrapper: 'Wrapper' };

// ------------------------------------------------------------------------------------------------------------------
// Escaping

/** A fragment of HTML made by {@link html}: inserted as it is into another. */
export class Html {
  constructor(readonly text: string) {}

  toString(): string {
    return this.text;
  }
}

/** What a template may interpolate: text and numbers (escaped), fragments (as they are), lists, or nothing. */
export type HtmlPart = Html | string | number | bigint | boolean | null | undefined | readonly HtmlPart[];

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

/** Text as HTML, safe between tags and inside a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (c) => ENTITIES[c]!);
}

/** The template tag of every document here: interpolated values are escaped, fragments it made are not. */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlPart[]): Html {
  let text = strings[0]!;
  values.forEach((value, i) => {
    text += partText(value) + strings[i + 1]!;
  });
  return new Html(text);
}

function partText(part: HtmlPart): string {
  if (part instanceof Html) return part.text;
  if (Array.isArray(part)) return part.map(partText).join('');
  if (part === undefined || part === null || part === false || part === true) return '';
  return escapeHtml(String(part));
}

// ------------------------------------------------------------------------------------------------------------------
// Values

/** A raw amount in a token's units as a decimal text, exactly (`1500000`, 6 → `1.5`); raw when decimals are not sane. */
export function formatUnits(amount: bigint, decimals: number): string {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 255) return amount.toString();
  const negative = amount < 0n;
  const digits = (negative ? -amount : amount).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** `1.5 USDC`, or the raw units of a token the catalog does not know. */
export function amountText(amount: bigint, token: Token | undefined): string {
  return token ? `${formatUnits(amount, token.decimals)} ${token.symbol}` : `${amount.toString()} units (unknown token)`;
}

/** The USD value of an amount, for display (`$1,234.56`); undefined for a token without a price. */
export function usdText(amount: bigint, token: Token | undefined): string | undefined {
  if (!token || !hasPrice(token)) return undefined;
  const value = Number(formatUnits(amount, token.decimals)) * Number(token.priceUSD);
  if (!Number.isFinite(value)) return undefined;
  if (value > 0 && value < 0.01) return '< $0.01';
  return `$${value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** Unix seconds as an ISO 8601 UTC time, or undefined. */
export function utcTime(unixSeconds: number | undefined): string | undefined {
  if (unixSeconds === undefined || !Number.isFinite(unixSeconds)) return undefined;
  const date = new Date(unixSeconds * 1000);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** A chain's block explorer (its first URL), when it is an http(s) URL without credentials. */
export function explorerBase(chain: Chain | undefined): string | undefined {
  const first = chain?.metamask.blockExplorerUrls[0];
  if (!first) return undefined;
  let url: URL;
  try {
    url = new URL(first);
  } catch {
    return undefined;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) return undefined;
  const base = `${url.origin}${url.pathname}`;
  return base.endsWith('/') ? base : `${base}/`;
}

/** The chain explorer's page of a transaction or an address, or undefined when the chain has no usable explorer. */
export function explorerLink(chain: Chain | undefined, kind: 'tx' | 'address', value: string): string | undefined {
  const base = explorerBase(chain);
  return base ? `${base}${kind}/${encodeURIComponent(value)}` : undefined;
}

/** This service's page of a transfer. */
export function pagePath(ref: string): string {
  return `${EXPLORER_BASE}/tx/${encodeURIComponent(ref)}`;
}

function chainName(catalog: ExplorerCatalog, chainId: number): string {
  return catalog.getChain(chainId)?.name ?? `Chain ${chainId}`;
}

function toolName(catalog: ExplorerCatalog, key: string): string {
  const tool = catalog.bridges.find((b) => b.key === key) ?? catalog.exchanges.find((e) => e.key === key);
  return tool?.name ?? OWN_TOOL_NAMES[key] ?? key;
}

/** A hash or address, linked to the chain's explorer when it has one. */
function linked(chain: Chain | undefined, kind: 'tx' | 'address', value: string): Html {
  const href = explorerLink(chain, kind, value);
  return href ? html`<a class="mono" href="${href}" rel="noopener noreferrer">${value}</a>` : html`<span class="mono">${value}</span>`;
}

/** An amount with its USD value, when known. */
function amountCell(amount: bigint, token: Token | undefined): Html {
  const usd = usdText(amount, token);
  return html`<span class="amount">${amountText(amount, token)}</span>${usd ? html` <span class="muted">(${usd})</span>` : ''}`;
}

// ------------------------------------------------------------------------------------------------------------------
// Pages

/** What a page follows while it may change: the reference and the state it shows. */
interface Live {
  readonly ref: string;
  readonly status: string;
  readonly substatus?: string;
}

function documentOf(title: string, body: Html, live?: Live): string {
  const root = live
    ? html`<main data-ref="${live.ref}" data-status="${live.status}" data-substatus="${live.substatus ?? ''}" data-live="true">`
    : html`<main>`;
  return html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="referrer" content="no-referrer" />
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="${EXPLORER_STYLE_PATH}" />
    <title>${title}</title>
${live ? html`    <script src="${EXPLORER_SCRIPT_PATH}" defer></script>
    <noscript><meta http-equiv="refresh" content="15" /></noscript>
` : ''}  </head>
  <body>
    <header class="top"><span class="brand">Transfer explorer</span></header>
    ${root}
${body}
${live ? html`      <p class="live" data-role="live">This transfer may still change: this page follows it and reloads when its state changes (without JavaScript it refreshes every 15 s). <a href="${pagePath(live.ref)}" data-action="refresh">Refresh now</a></p>
` : ''}    </main>
  </body>
</html>
`.text;
}

/** The page of a transfer the index or the chains know (any state but NOT_FOUND). */
export function transferPage(ref: string, s: TransferStatus, catalog: ExplorerCatalog, options: { readonly notice?: string } = {}): string {
  const final = isFinal(s.status);
  const sendingChain = s.sending ? catalog.getChain(s.sending.chainId) : undefined;
  const receivingChain = s.receiving ? catalog.getChain(s.receiving.chainId) : sendingChain;
  const steps = [
    ...(s.sending?.includedSteps ?? []).map((step) => ({ side: 'Sending', chainId: s.sending!.chainId, step })),
    ...(s.receiving?.includedSteps ?? []).map((step) => ({ side: 'Receiving', chainId: s.receiving!.chainId, step })),
  ];
  const details: [string, HtmlPart][] = [
    ['Reference', html`<span class="mono">${ref}</span>`],
    ['Transfer id', s.transactionId ? html`<span class="mono">${s.transactionId}</span>` : undefined],
    ['Tool', s.tool ? `${toolName(catalog, s.tool)} (${s.tool})` : undefined],
    ['From', s.fromAddress ? linked(sendingChain, 'address', s.fromAddress) : undefined],
    ['To', s.toAddress ? linked(receivingChain, 'address', s.toAddress) : undefined],
    ['Integrator', s.integrator ? s.integrator : html`<span class="muted">none</span>`],
  ];
  const body = html`      <h1>Transfer <span class="mono">${ref}</span></h1>
      <section class="card state ${s.status.toLowerCase()}" data-section="state">
        <p><span class="badge" data-field="status">${s.status}</span>${s.substatus ? html` <span class="badge sub" data-field="substatus">${s.substatus}</span>` : ''}</p>
${s.substatusMessage ? html`        <p data-field="substatusMessage">${s.substatusMessage}</p>\n` : ''}${options.notice ? html`        <p class="muted" data-field="notice">${options.notice}</p>\n` : ''}      </section>
      <section class="card" data-section="details">
        <h2>Details</h2>
        ${table(details)}
      </section>
      <div class="sides">
        ${sidePart('Sending', 'sending', s.sending, catalog)}
        ${sidePart('Receiving', 'receiving', s.receiving, catalog, final)}
      </div>
${steps.length > 0 ? html`      <section class="card" data-section="steps">
        <h2>Steps as executed</h2>
        <table>
          <thead><tr><th>Side</th><th>Chain</th><th>Tool</th><th>From</th><th>To</th><th>Bridged</th></tr></thead>
          <tbody>
${steps.map(({ side, chainId, step }) => stepRow(side, chainId, step, catalog))}          </tbody>
        </table>
      </section>
` : ''}${s.fees && s.fees.length > 0 ? feesPart(s.fees, sendingChain) : ''}`;
  return documentOf(`Transfer ${shortRef(ref)}: ${s.status}`, body, final ? undefined : { ref, status: s.status, ...(s.substatus ? { substatus: s.substatus } : {}) });
}

/** A transfer neither the index nor the chains know (yet): a just-sent transaction may not be seen yet, so it is live. */
export function notFoundPage(ref: string, message?: string): string {
  const body = html`      <h1>Transfer <span class="mono">${ref}</span></h1>
      <section class="card state not_found" data-section="state">
        <p><span class="badge" data-field="status">NOT_FOUND</span></p>
        <p>Not found yet: no connected chain has a transfer with this reference so far. A transaction sent a moment ago may not be seen yet.</p>
${message ? html`        <p class="muted" data-field="substatusMessage">${message}</p>\n` : ''}      </section>
`;
  return documentOf(`Transfer ${shortRef(ref)}: not found yet`, body, { ref, status: 'NOT_FOUND' });
}

/** The chains could not be read: live too (any state the status endpoint gives later differs from this one). */
export function unavailablePage(ref: string): string {
  const body = html`      <h1>Transfer <span class="mono">${ref}</span></h1>
      <section class="card state failed" data-section="state">
        <p><span class="badge" data-field="status">UNAVAILABLE</span></p>
        <p>The chains could not be read just now. This page tries again by itself.</p>
      </section>
`;
  return documentOf(`Transfer ${shortRef(ref)}: unavailable`, body, { ref, status: 'UNAVAILABLE' });
}

/** A refused request (a malformed reference, too many pages): its title and why. */
export function refusalPage(title: string, message: string): string {
  const body = html`      <h1>${title}</h1>
      <section class="card state failed" data-section="refusal">
        <p data-field="message">${message}</p>
      </section>
`;
  return documentOf(title, body);
}

function shortRef(ref: string): string {
  return ref.length > 18 ? `${ref.slice(0, 10)}…${ref.slice(-6)}` : ref;
}

function table(rows: readonly (readonly [string, HtmlPart])[]): Html {
  const shown = rows.filter(([, value]) => value !== undefined && value !== '');
  return html`<table class="facts">
${shown.map(([label, value]) => html`          <tr><th scope="row">${label}</th><td>${value}</td></tr>\n`)}        </table>`;
}

/** One side of the transfer: its chain, transaction, amount, gas and time. */
function sidePart(title: string, side: 'sending' | 'receiving', t: TransferTransaction | undefined, catalog: ExplorerCatalog, final = false): Html {
  if (!t) return html`<section class="card" data-section="${side}"><h2>${title}</h2><p class="muted">${final ? 'None.' : 'Not known yet.'}</p></section>`;
  const chain = catalog.getChain(t.chainId);
  const tokenAddress = t.token?.address ?? t.tokenAddress;
  const rows: [string, HtmlPart][] = [
    ['Chain', `${chainName(catalog, t.chainId)} (${t.chainId})`],
    ['Transaction', t.txHash ? linked(chain, 'tx', t.txHash) : html`<span class="muted">not sent yet</span>`],
    ['Block', t.block],
    ['Time (UTC)', utcTime(t.timestamp)],
    ['Amount', t.amount !== undefined ? amountCell(t.amount, t.token) : undefined],
    ['Token', tokenAddress ? html`${t.token ? `${t.token.name} (${t.token.symbol}) ` : ''}${linked(chain, 'address', tokenAddress)}` : undefined],
    ['Gas', t.gasAmount !== undefined ? gasCell(t) : undefined],
    ['Value sent', t.value !== undefined && t.value > 0n ? amountCell(t.value, chain?.nativeToken) : undefined],
  ];
  return html`<section class="card" data-section="${side}">
        <h2>${title}</h2>
        ${table(rows)}
      </section>`;
}

function gasCell(t: TransferTransaction): Html {
  const detail = t.gasUsed !== undefined ? `${t.gasUsed.toString()} gas${t.gasPrice !== undefined ? ` at ${t.gasPrice.toString()} wei` : ''}` : undefined;
  return html`${amountCell(t.gasAmount!, t.gasToken)}${detail ? html` <span class="muted small">${detail}</span>` : ''}`;
}

function stepRow(side: string, chainId: number, step: IncludedStep, catalog: ExplorerCatalog): Html {
  return html`            <tr><td>${side}</td><td>${chainName(catalog, chainId)}</td><td>${toolName(catalog, step.tool)}</td><td>${amountCell(step.fromAmount, step.fromToken)}</td><td>${amountCell(step.toAmount, step.toToken)}</td><td>${step.bridgedAmount !== undefined ? amountText(step.bridgedAmount, step.fromToken) : ''}</td></tr>\n`;
}

function feesPart(fees: readonly CollectedFee[], chain: Chain | undefined): Html {
  return html`      <section class="card" data-section="fees">
        <h2>Fees</h2>
        <table>
          <thead><tr><th>Token</th><th>Integrator fee</th><th>Service fee</th><th>Share of the amount sent</th></tr></thead>
          <tbody>
${fees.map((f) => html`            <tr><td>${f.token ? f.token.symbol : linked(chain, 'address', f.tokenAddress)}</td><td>${amountCell(f.integratorFee, f.token)}</td><td>${amountCell(f.serviceFee, f.token)}</td><td>${percent(f.fraction)}</td></tr>\n`)}          </tbody>
        </table>
      </section>
`;
}

function percent(fraction: number): string {
  return Number.isFinite(fraction) ? `${Number((fraction * 100).toFixed(4))} %` : '';
}

/** The pages' stylesheet (served at EXPLORER_STYLE_PATH: no inline style). */
export const EXPLORER_CSS = `:root { color-scheme: light; --ink: #17202a; --muted: #5d6d7e; --line: #d5dbe1; --paper: #f6f8fa; --card: #fff; --ok: #1e8449; --warn: #b9770e; --bad: #c0392b; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--paper); }
.top { padding: 0.8rem 1.5rem; background: var(--card); border-bottom: 1px solid var(--line); }
.brand { font-weight: 600; }
main { max-width: 1100px; margin: 1.2rem auto; padding: 0 1.2rem; display: grid; gap: 1rem; }
h1 { font-size: 1.2rem; margin: 0; overflow-wrap: anywhere; }
h2 { font-size: 1.05rem; margin: 0 0 0.5rem; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 0.9rem 1.1rem; overflow-x: auto; }
.sides { display: grid; grid-template-columns: repeat(auto-fit, minmax(420px, 1fr)); gap: 1rem; }
.muted { color: var(--muted); }
.small { font-size: 0.85rem; }
.mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.88em; overflow-wrap: anywhere; }
table { width: 100%; border-collapse: collapse; }
th, td { text-align: left; padding: 0.35rem 0.5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: 0.8rem; color: var(--muted); font-weight: 600; }
table.facts th { width: 9rem; }
.badge { display: inline-block; padding: 0.05rem 0.55rem; border-radius: 999px; border: 1px solid currentColor; font-weight: 600; font-size: 0.85rem; }
.badge.sub { font-weight: 400; }
.state.done .badge { color: var(--ok); }
.state.pending .badge, .state.not_found .badge { color: var(--warn); }
.state.failed .badge, .state.invalid .badge { color: var(--bad); }
.live { color: var(--muted); font-size: 0.9rem; }
`;
