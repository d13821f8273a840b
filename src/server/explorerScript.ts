/**
 * The explorer page's script (served at /explorer/explorer.js by explorer.ts, the only script the page's
 * Content-Security-Policy lets run). On a live page (a transfer that may still change: `main[data-live]`, rendered by
 * explorerPage.ts with the reference and the state it shows in `data-ref`, `data-status`, `data-substatus`) it
 * follows the transfer and reloads the page when the state differs from the one shown, so that the page the server
 * renders stays the only view of a transfer:
 *
 * - Server-Sent Events from `/v1/status/stream?txHash=<ref>` (`event: status`, data: the /v1/status answer; the
 *   current state comes first);
 * - when EventSource is missing or the stream fails, `GET /v1/status?txHash=<ref>` every 5 s.
 *
 * A NOT_FOUND answer does not replace a transfer the page shows (the index may know a transfer before a chain node
 * does); reloads of one reference are at least 5 s apart (sessionStorage), so that a page and a status that disagree
 * cannot reload without end. Plain ES5 with no dependencies: it is served as it is written here.
 */

/** How often the fallback polls GET /v1/status, and the least time between two reloads of one page. */
export const EXPLORER_POLL_MS = 5000;

export const EXPLORER_SCRIPT = `'use strict';
(function () {
  var root = document.querySelector('main[data-live]');
  if (!root) return;
  var ref = root.getAttribute('data-ref') || '';
  var shownStatus = root.getAttribute('data-status') || '';
  var shown = shownStatus + '/' + (root.getAttribute('data-substatus') || '');
  var query = '?txHash=' + encodeURIComponent(ref);
  var interval = ${EXPLORER_POLL_MS};
  var guardKey = 'explorer-reloaded:' + ref;
  var changed = false;
  var source = null;
  var polling = false;

  function lastReload() {
    try { return Number(window.sessionStorage.getItem(guardKey)) || 0; } catch (e) { return 0; }
  }

  function reload() {
    var wait = lastReload() + interval - Date.now();
    if (wait > 0) { window.setTimeout(reload, wait); return; }
    try { window.sessionStorage.setItem(guardKey, String(Date.now())); } catch (e) { /* no storage: no guard */ }
    window.location.reload();
  }

  /** A status answer: the page reloads when its state is not the one shown. */
  function consider(answer) {
    if (changed || !answer || typeof answer.status !== 'string') return;
    if (answer.status === 'NOT_FOUND' && shownStatus !== 'NOT_FOUND' && shownStatus !== 'UNAVAILABLE') return;
    if (answer.status + '/' + (answer.substatus || '') === shown) return;
    changed = true;
    if (source) source.close();
    reload();
  }

  function poll() {
    if (changed) return;
    window.fetch('/v1/status' + query, { headers: { accept: 'application/json' }, cache: 'no-store', credentials: 'omit' })
      .then(function (res) { return res.ok ? res.json() : null; })
      .then(consider, function () { return undefined; })
      .then(function () { if (!changed) window.setTimeout(poll, interval); });
  }

  function startPolling() {
    if (polling) return;
    polling = true;
    window.setTimeout(poll, interval);
  }

  if (typeof window.EventSource !== 'function') {
    startPolling();
    return;
  }
  source = new window.EventSource('/v1/status/stream' + query);
  source.addEventListener('status', function (event) {
    var answer = null;
    try { answer = JSON.parse(event.data); } catch (e) { return; }
    consider(answer);
  });
  source.addEventListener('error', function () {
    // a stream that failed or is not served: poll instead (EventSource retries a dropped stream by itself)
    if (source.readyState === window.EventSource.CLOSED) source.close();
    startPolling();
  });
})();
`;
