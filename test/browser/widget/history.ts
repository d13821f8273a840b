/**
 * What the widget's history test page (test/browser/widget/historyPage.tsx) and its test
 * (test/browser/widgetHistory.ts) share. Plain data only: this module is compiled for both node and the browser.
 */

/**
 * The integrator of the transfers the test executes on the sandbox, and the one the page gives the widget: the
 * SDK's getTransactionHistory sends it as `integrator`, which narrows the wallet's history to it.
 */
export const HISTORY_INTEGRATOR = 'xchain-router-widget-history';

/**
 * The test wallet as it announces itself to the page (EIP-6963 `info`): the page lists it in the widget's wallet
 * menu under this name. The icon is an inline SVG (no request).
 */
export const TEST_WALLET_INFO = {
  uuid: '6f1c1c52-5b8e-4f0e-9d43-3b1f3a1e0c34',
  name: 'Test Wallet',
  rdns: 'org.xchain-router.test-wallet',
  icon: `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#5b3df5"/><text x="16" y="22" font-size="16" text-anchor="middle" fill="#fff">T</text></svg>')}`,
} as const;
