/**
 * The portal's page: one static HTML document, one stylesheet and one script, all served from /portal under a
 * Content-Security-Policy that lets the page run its own script and nothing else (no inline script or style, no
 * other origin, no frames, no forms sent anywhere). The script is written in TypeScript for the browser
 * (client/portal.mts, type-checked with client/tsconfig.json) and bundled with esbuild on first request, once.
 */
import path from 'node:path';
import { PROJECT_ROOT } from '../projectRoot';

/** The page's Content-Security-Policy: its own script, stylesheet and API only. */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The page's Referrer-Policy. The service's default (no-referrer) would make the browser send `Origin: null` with
 * the page's own POSTs, which the CSRF check refuses; same-origin sends the origin to this origin only.
 */
export const PAGE_REFERRER_POLICY = 'same-origin';

/** The browser script's entry point (TypeScript; esbuild bundles it). */
export const CLIENT_ENTRY = path.join(PROJECT_ROOT, 'src', 'portal', 'client', 'portal.mts');

export const PAGE_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="/portal/portal.css" />
    <title>Partner portal</title>
    <script src="/portal/portal.js" defer></script>
  </head>
  <body>
    <header class="top">
      <h1>Partner portal</h1>
      <div id="wallet" class="wallet" aria-live="polite"></div>
    </header>
    <div id="alerts" class="alerts" role="alert" aria-live="assertive"></div>
    <main id="app">
      <noscript><p class="card">The portal needs JavaScript and a browser wallet (such as MetaMask).</p></noscript>
    </main>
  </body>
</html>
`;

export const PAGE_CSS = `:root {
  color-scheme: light;
  --ink: #17202a;
  --muted: #5d6d7e;
  --line: #d5dbe1;
  --paper: #f6f8fa;
  --card: #ffffff;
  --accent: #2456d3;
  --accent-ink: #ffffff;
  --ok: #1e8449;
  --warn: #b9770e;
  --bad: #c0392b;
  --requests: #2f74d0;
  --refusals: #d35400;
}
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--paper); }
.top { display: flex; align-items: center; justify-content: space-between; gap: 1rem; padding: 0.8rem 1.5rem; background: var(--card); border-bottom: 1px solid var(--line); }
.top h1 { font-size: 1.25rem; margin: 0; }
.wallet { display: flex; align-items: center; gap: 0.6rem; color: var(--muted); font-size: 0.9rem; }
main { max-width: 1100px; margin: 1.2rem auto; padding: 0 1.2rem; display: grid; gap: 1.2rem; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 1rem 1.2rem; }
.card h2 { font-size: 1.1rem; margin: 0 0 0.6rem; }
.card h3 { font-size: 1rem; margin: 1rem 0 0.4rem; }
.muted { color: var(--muted); }
.small { font-size: 0.85rem; }
.mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.88em; word-break: break-all; }
button { font: inherit; padding: 0.35rem 0.8rem; border-radius: 6px; border: 1px solid var(--line); background: var(--card); color: var(--ink); cursor: pointer; }
button:hover:not(:disabled) { border-color: var(--accent); }
button:disabled { opacity: 0.55; cursor: default; }
button.primary { background: var(--accent); border-color: var(--accent); color: var(--accent-ink); }
button.danger { color: var(--bad); }
button.danger.armed { background: var(--bad); border-color: var(--bad); color: #fff; }
input, textarea, select { font: inherit; padding: 0.35rem 0.5rem; border: 1px solid var(--line); border-radius: 6px; background: #fff; color: var(--ink); }
textarea { width: 100%; min-height: 4.2rem; }
form.inline, .row { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; }
label { display: inline-flex; align-items: center; gap: 0.35rem; }
table { width: 100%; border-collapse: collapse; }
th, td { text-align: left; padding: 0.4rem 0.5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: 0.8rem; text-transform: uppercase; letter-spacing: 0.03em; color: var(--muted); }
tr.selected td { background: #eef3fd; }
tr.past td { color: var(--muted); }
td.actions { white-space: nowrap; }
td.actions button { margin: 0 0.2rem 0.2rem 0; }
.badge { display: inline-block; padding: 0.05rem 0.45rem; border-radius: 999px; font-size: 0.78rem; border: 1px solid currentColor; }
.badge.active { color: var(--ok); }
.badge.grace { color: var(--warn); }
.badge.revoked, .badge.expired, .badge.blocked { color: var(--bad); }
.badge.done, .badge.delivered { color: var(--ok); }
.badge.pending { color: var(--warn); }
.badge.failed, .badge.invalid { color: var(--bad); }
a { color: var(--accent); }
input.wide { flex: 1 1 24rem; min-width: 14rem; }
.alerts { max-width: 1100px; margin: 0.8rem auto 0; padding: 0 1.2rem; display: grid; gap: 0.5rem; }
.alert { padding: 0.6rem 0.9rem; border-radius: 6px; border: 1px solid; display: flex; justify-content: space-between; gap: 1rem; }
.alert.error { background: #fdecea; border-color: #f5b7b1; color: #922b21; }
.alert.info { background: #eaf2fd; border-color: #aed6f1; color: #1b4f72; }
.alert button { padding: 0 0.5rem; }
.secret { background: #fef9e7; border: 1px solid #f9e79f; border-radius: 8px; padding: 0.8rem 1rem; }
.secret .mono { font-size: 1rem; display: block; margin: 0.4rem 0; user-select: all; }
.tabs { display: flex; gap: 0.4rem; flex-wrap: wrap; }
.tabs button.current { background: var(--accent); border-color: var(--accent); color: var(--accent-ink); }
.chart { width: 100%; height: auto; display: block; margin-top: 0.4rem; }
.chart .axis { stroke: var(--line); stroke-width: 1; }
.chart .grid { stroke: var(--line); stroke-width: 1; stroke-dasharray: 2 3; }
.chart .requests { fill: var(--requests); }
.chart .refusals { fill: var(--refusals); }
.chart text { fill: var(--muted); font-size: 11px; }
.legend { display: flex; gap: 1rem; font-size: 0.85rem; color: var(--muted); }
.legend .swatch { display: inline-block; width: 0.8rem; height: 0.8rem; border-radius: 2px; vertical-align: -0.1rem; margin-right: 0.3rem; }
.legend .swatch.requests { background: var(--requests); }
.legend .swatch.refusals { background: var(--refusals); }
.facts { display: grid; grid-template-columns: repeat(auto-fit, minmax(180px, 1fr)); gap: 0.6rem; margin: 0.6rem 0; }
.fact { border: 1px solid var(--line); border-radius: 6px; padding: 0.5rem 0.7rem; }
.fact .value { font-size: 1.15rem; font-weight: 600; }
.empty { color: var(--muted); font-style: italic; }
.hero { text-align: center; padding: 2.2rem 1rem; }
.hero p { max-width: 36rem; margin: 0.4rem auto 1rem; }
details summary { cursor: pointer; color: var(--muted); margin-top: 0.6rem; }
`;

let bundled: Promise<string> | undefined;

/**
 * The page's script, bundled once (esbuild, loaded on first use: the service starts without it, and only the
 * portal's script needs it). A failed bundling is not remembered: the next request tries again.
 */
export function pageScript(): Promise<string> {
  bundled ??= bundle().catch((error: unknown) => {
    bundled = undefined;
    throw error;
  });
  return bundled;
}

async function bundle(): Promise<string> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [CLIENT_ENTRY],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    charset: 'utf8',
    legalComments: 'none',
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error('esbuild produced no output for the portal\'s script');
  return output.text;
}
