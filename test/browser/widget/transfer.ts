/**
 * What the widget test page configures and what the test expects from it, shared by the page
 * (test/browser/widget/page.tsx, bundled for the browser) and the test (test/browser/widget.ts).
 * Plain data only: this module is compiled for both node and the browser.
 */

/** The integrator name the page gives the widget (the SDK sends it in `x-lifi-integrator`). */
export const INTEGRATOR = 'xchain-router-widget-test';

/** The query parameter of the page's URL that carries the service's API base (`<service origin>/v1`). */
export const API_URL_PARAMETER = 'apiUrl';

/**
 * The default transfer the page opens with (the widget's documented form defaults): 1 ETH on Base to
 * USDC on Arbitrum, a cross-chain route of the embedded data (the README's routes example).
 */
export const DEFAULT_TRANSFER = {
  fromChain: 8453,
  fromChainName: 'Base',
  fromToken: '0x0000000000000000000000000000000000000000',
  fromTokenSymbol: 'ETH',
  toChain: 42161,
  toChainName: 'Arbitrum',
  toToken: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
  toTokenSymbol: 'USDC',
  fromAmount: '1',
} as const;

/** Typed into the token selector's search box: matches EURC on Base (name "Eurc") and nothing else there. */
export const TOKEN_SEARCH = { term: 'eur', chainId: 8453, symbol: 'EURC', address: '0x60a3E35Cc302bFA44Cb288Bc5a4F316Fdb1adb42' } as const;
