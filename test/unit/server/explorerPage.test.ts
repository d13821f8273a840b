/**
 * The explorer page's rendering (src/server/explorerPage.ts): every value a hostile token deployer, integrator or
 * chain can choose appears as text; links to a chain's explorer only from http(s) URLs; token amounts exact from
 * their integers; a pending transfer's page is live (the page script, a refresh link, a meta refresh without
 * JavaScript), a final one's is not.
 */
import { DEFAULT_DATA_DIR } from '../../../src/config';
import type { Chain, Token } from '../../../src/core/entities';
import { loadCatalog } from '../../../src/files/catalog';
import type { TransferStatus } from '../../../src/core/status/transferStatus';
import {
  EXPLORER_CSP, escapeHtml, explorerBase, explorerLink, formatUnits, html, notFoundPage, refusalPage, transferPage, unavailablePage, usdText, utcTime,
  type ExplorerCatalog,
} from '../../../src/server/explorerPage';
import { ARB_USDC, BASE_USDC, WALLET_CHECKSUMMED } from '../../support/fixtures';

const catalog = loadCatalog(DEFAULT_DATA_DIR);
const HOSTILE = '<img src=x onerror=alert(1)>';
const ESCAPED = '&lt;img src=x onerror=alert(1)&gt;';
const SEND_HASH = `0x${'ab'.repeat(32)}`;
const RECEIVE_HASH = `0x${'cd'.repeat(32)}`;
const TRANSFER_ID = `0x${'12'.repeat(32)}`;
const T0 = Date.parse('2026-11-01T12:34:56Z') / 1000;

const usdcOn = (chainId: number, address: string): Token => ({ chainId, address, symbol: 'USDC', decimals: 6, name: 'USD Coin', coinKey: 'USDC', priceUSD: '1', tags: [] });
const ARB = usdcOn(42161, ARB_USDC);
const BASE = usdcOn(8453, BASE_USDC);
const ETH: Token = { chainId: 8453, address: '0x0000000000000000000000000000000000000000', symbol: 'ETH', decimals: 18, name: 'Ether', coinKey: 'ETH', priceUSD: '2000', tags: [] };

function done(fields: Partial<TransferStatus> = {}): TransferStatus {
  return {
    status: 'DONE', substatus: 'COMPLETED', substatusMessage: 'The transfer is complete.', transactionId: TRANSFER_ID, tool: 'across',
    fromAddress: WALLET_CHECKSUMMED, toAddress: WALLET_CHECKSUMMED, integrator: 'dapp',
    sending: {
      chainId: 8453, txHash: SEND_HASH, block: 1234, amount: 1_500_000n, token: BASE, gasUsed: 210_000n, gasPrice: 1_000_000_000n,
      gasToken: ETH, gasAmount: 210_000_000_000_000n, timestamp: T0,
      includedSteps: [{ tool: 'across', fromToken: BASE, fromAmount: 1_500_000n, toToken: ARB, toAmount: 1_499_000n, bridgedAmount: 1_500_000n }],
    },
    receiving: { chainId: 42161, txHash: RECEIVE_HASH, block: 99, amount: 1_499_000n, token: ARB, timestamp: T0 + 60, includedSteps: [] },
    fees: [{ token: BASE, tokenAddress: BASE_USDC, integratorFee: 3_000n, serviceFee: 750n, fraction: 0.0025 }],
    ...fields,
  };
}

/** The catalog with the chain's explorer URLs replaced. */
function withExplorer(chainId: number, urls: string[]): ExplorerCatalog {
  const chain = catalog.getChain(chainId)!;
  const changed: Chain = { ...chain, metamask: { ...chain.metamask, blockExplorerUrls: urls } };
  return { bridges: catalog.bridges, exchanges: catalog.exchanges, getChain: (id) => (id === chainId ? changed : catalog.getChain(id)) };
}

describe('escaping', () => {
  test('escapeHtml and the html tag escape every interpolated value, and only those', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&\`</a>`)).toBe('&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&#96;&lt;/a&gt;');
    const inner = html`<b>${HOSTILE}</b>`;
    expect(html`<p title="${'" onmouseover="x'}">${inner}${[HOSTILE, 1n, undefined, false]}</p>`.text)
      .toBe(`<p title="&quot; onmouseover=&quot;x"><b>${ESCAPED}</b>${ESCAPED}1</p>`);
  });

  test('a token named and symbolled <img src=x onerror=alert(1)>, a hostile integrator, tool and substatus message: all text', () => {
    const evil: Token = { ...BASE, symbol: HOSTILE, name: HOSTILE, verificationStatus: 'unverified' };
    const page = transferPage(SEND_HASH, done({
      integrator: `"><script>alert(2)</script>`,
      tool: '<svg onload=alert(3)>',
      substatusMessage: `reverted: ${HOSTILE}`,
      sending: { ...done().sending!, token: evil, includedSteps: [{ tool: 'across', fromToken: evil, fromAmount: 1n, toToken: evil, toAmount: 1n }] },
      fees: [{ token: evil, tokenAddress: BASE_USDC, integratorFee: 1n, serviceFee: 1n, fraction: 0.001 }],
    }), catalog);
    expect(page).not.toMatch(/<img|<script>alert|<svg/i);
    expect(page).toContain(`1.5 ${ESCAPED}`);
    expect(page).toContain(`${ESCAPED} (${ESCAPED})`); // the token's name and symbol
    expect(page).toContain('&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;');
    expect(page).toContain('&lt;svg onload=alert(3)&gt;');
    expect(page).toContain(`reverted: ${ESCAPED}`);
    // the only script a page ever names is the explorer's own, and a final page names none
    expect(page).not.toContain('<script');
  });
});

describe('links to the chains\' explorers', () => {
  test('built from the catalog\'s first explorer URL and the encoded hash or address', () => {
    const arbitrum = catalog.getChain(42161)!;
    expect(explorerLink(arbitrum, 'tx', SEND_HASH)).toBe(`https://arbiscan.io/tx/${SEND_HASH}`);
    expect(explorerLink(arbitrum, 'address', WALLET_CHECKSUMMED)).toBe(`https://arbiscan.io/address/${WALLET_CHECKSUMMED}`);
    expect(explorerLink(withExplorer(42161, ['https://explorer.example/arb']).getChain(42161), 'tx', 'a"b/c')).toBe('https://explorer.example/arb/tx/a%22b%2Fc');
    const page = transferPage(SEND_HASH, done(), catalog);
    expect(page).toContain(`<a class="mono" href="https://basescan.org/tx/${SEND_HASH}" rel="noopener noreferrer">${SEND_HASH}</a>`);
    expect(page).toContain(`href="https://arbiscan.io/tx/${RECEIVE_HASH}"`);
    expect(page).toContain(`href="https://basescan.org/address/${WALLET_CHECKSUMMED}"`); // from: the sending chain's
    expect(page).toContain(`href="https://arbiscan.io/address/${WALLET_CHECKSUMMED}"`); // to: the receiving chain's
  });

  test('javascript:, data:, other schemes, credentials and garbage are refused: the hash is shown without a link', () => {
    for (const url of ['javascript:alert(1)//', 'JavaScript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'ftp://explorer.example/', 'https://user:pass@explorer.example/', 'not a url', '']) {
      const refusing = withExplorer(8453, [url]);
      expect({ url, base: explorerBase(refusing.getChain(8453)) }).toEqual({ url, base: undefined });
      const page = transferPage(SEND_HASH, done(), refusing);
      expect(page).not.toMatch(/javascript:|data:text|ftp:|user:pass/i);
      expect(page).toContain(`<span class="mono">${SEND_HASH}</span>`);
    }
    expect(explorerBase(withExplorer(8453, []).getChain(8453))).toBeUndefined();
  });
});

describe('values', () => {
  test('token amounts are exact decimal text from their integers, never floats', () => {
    expect(formatUnits(0n, 6)).toBe('0');
    expect(formatUnits(1n, 6)).toBe('0.000001');
    expect(formatUnits(1_000_000n, 6)).toBe('1');
    expect(formatUnits(1_500_000n, 6)).toBe('1.5');
    expect(formatUnits(9_007_199_254_740_993n, 0)).toBe('9007199254740993'); // 2^53 + 1: a float would say ...992
    expect(formatUnits(123_456_789_012_345_678_901_234_567_890n, 18)).toBe('123456789012.34567890123456789');
    expect(formatUnits(1_000_000_000_000_000_001n, 18)).toBe('1.000000000000000001');
    expect(formatUnits(-1_500_000n, 6)).toBe('-1.5');
    expect(formatUnits(5n, Number.NaN)).toBe('5'); // decimals that make no sense: raw units
    const page = transferPage(SEND_HASH, done({ sending: { ...done().sending!, amount: 1_000_000_000_000_000_001n, token: { ...ETH, priceUSD: '0' } } }), catalog);
    expect(page).toContain('<span class="amount">1.000000000000000001 ETH</span>');
  });

  test('USD where the token has a price; UTC ISO times; gas, steps and fees', () => {
    expect(usdText(1_500_000n, BASE)).toBe('$1.50');
    expect(usdText(1n, BASE)).toBe('< $0.01');
    expect(usdText(1_234_567_890_000n, BASE)).toBe('$1,234,567.89');
    expect(usdText(1n, { ...BASE, priceUSD: '0' })).toBeUndefined();
    expect(utcTime(T0)).toBe('2026-11-01T12:34:56.000Z');
    const page = transferPage(SEND_HASH, done(), catalog);
    expect(page).toContain('<span class="amount">1.5 USDC</span> <span class="muted">($1.50)</span>');
    expect(page).toContain('<td>2026-11-01T12:34:56.000Z</td>');
    expect(page).toContain('<td>2026-11-01T12:35:56.000Z</td>');
    expect(page).toContain('<span class="amount">0.00021 ETH</span> <span class="muted">($0.42)</span> <span class="muted small">210000 gas at 1000000000 wei</span>');
    expect(page).toContain('<td>Base (8453)</td>');
    expect(page).toContain('<td>Arbitrum (42161)</td>');
    expect(page).toContain('<td>Across (across)</td>');
    expect(page).toMatch(/<tr><td>Sending<\/td><td>Base<\/td><td>Across<\/td><td><span class="amount">1.5 USDC<\/span>.*<td><span class="amount">1.499 USDC<\/span>.*<td>1.5 USDC<\/td><\/tr>/);
    expect(page).toMatch(/<tr><td>USDC<\/td><td><span class="amount">0.003 USDC<\/span>.*<td><span class="amount">0.00075 USDC<\/span>.*<td>0.25 %<\/td><\/tr>/);
    expect(page).toContain('<td>dapp</td>');
    expect(page).toContain(`<span class="mono">${TRANSFER_ID}</span>`);
  });
});

describe('pending and final pages', () => {
  test('a final page is complete without script: no script, not live, no refresh', () => {
    const page = transferPage(SEND_HASH, done(), catalog);
    expect(page).toContain('<main>');
    expect(page).toContain('<span class="badge" data-field="status">DONE</span> <span class="badge sub" data-field="substatus">COMPLETED</span>');
    expect(page).not.toMatch(/<script|data-live|http-equiv="refresh"|data-action="refresh"/);
    expect(page).toContain('<link rel="stylesheet" href="/explorer/explorer.css" />');
    expect(page).not.toMatch(/ style=|<style/); // the CSP allows no inline style
  });

  test('a pending page is live: its state in data attributes, the page script, a refresh link and a meta refresh for no-JS', () => {
    const page = transferPage(SEND_HASH, done({ status: 'PENDING', substatus: 'WAIT_DESTINATION_TRANSACTION', receiving: { chainId: 42161 } }), catalog);
    expect(page).toContain(`<main data-ref="${SEND_HASH}" data-status="PENDING" data-substatus="WAIT_DESTINATION_TRANSACTION" data-live="true">`);
    expect(page).toContain('<script src="/explorer/explorer.js" defer></script>');
    expect(page).toContain('<noscript><meta http-equiv="refresh" content="15" /></noscript>');
    expect(page).toContain(`<a href="/explorer/tx/${SEND_HASH}" data-action="refresh">Refresh now</a>`);
    expect(page).toContain('not sent yet');
    expect(page.match(/<script/g)).toHaveLength(1);
  });

  test('not found yet and unavailable pages are live too; refusals are not', () => {
    const missing = notFoundPage(SEND_HASH, `no chain: ${HOSTILE}`);
    expect(missing).toContain(`data-status="NOT_FOUND" data-substatus="" data-live="true"`);
    expect(missing).toContain('Not found yet');
    expect(missing).toContain(`no chain: ${ESCAPED}`);
    expect(unavailablePage(SEND_HASH)).toContain('data-status="UNAVAILABLE"');
    const refused = refusalPage('Invalid transfer reference', `Invalid transfer reference "${HOSTILE}"`);
    expect(refused).toContain(`Invalid transfer reference &quot;${ESCAPED}&quot;`);
    expect(refused).not.toMatch(/<script|data-live|<img/);
  });

  test('the CSP: own script and style only, no inline, own origin to connect to, never framed', () => {
    expect(EXPLORER_CSP).toBe("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
  });
});
