/**
 * The real bad inputs the Dredd hooks (hooks.js) send to make each operation answer its error statuses.
 */

/**
 * Real inputs that make an operation answer an error status: a function changing the request URL
 * (a WHATWG URL; its path and query are sent) or the request, given `withKey(request)`, which sets the run's valid
 * API key on a request (for the operations that check their input only after the key). Statuses of implemented
 * operations missing here are skipped with the reason printed, except 400, which falls back to an unknown query parameter.
 */
const BAD_INPUTS = {
  getChains: { 400: (url) => url.searchParams.set('chainTypes', 'XYZ') },
  getTokens: { 400: (url) => url.searchParams.set('chains', 'nochain') },
  getToken: {
    400: (url) => url.searchParams.set('chain', 'nochain'),
    404: (url) => url.searchParams.set('token', 'NOPE'),
  },
  getTools: { 400: (url) => url.searchParams.set('chains', 'nochain') },
  // a stream follows a transfer or a wallet, not both
  getStatusStream: { 400: (url) => url.searchParams.set('wallet', '0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea9') },
  // a key of the integrator (the operation requires one), and a time that is not a time
  getAnalyticsTransfersSummary: {
    400: (url, request, withKey) => {
      url.searchParams.set('fromTimestamp', 'yesterday');
      withKey(request);
    },
  },
  // a valid key, and a malformed JSON body
  testApiKey: {
    400: (url, request, withKey) => {
      GENERIC_400(url, request);
      withKey(request);
    },
  },
  getIntegrator: {
    400: (url) => { url.pathname = url.pathname.replace(/\/integrators\/[^/]+/, '/integrators/not%20an%20id'); },
    404: (url) => { url.pathname = url.pathname.replace(/\/integrators\/[^/]+/, '/integrators/unknown-integrator'); },
  },
  getQuote: {
    400: (url) => url.searchParams.set('fee', '1'),
    // without the example's fromAmountForGas, which must stay below fromAmount
    404: (url) => { url.searchParams.set('fromAmount', '1'); url.searchParams.delete('fromAmountForGas'); },
  },
  getQuoteToAmount: {
    400: (url) => url.searchParams.set('fee', '1'),
    // more than any bridge carries (the example is USDC Arbitrum → OP Mainnet)
    404: (url) => url.searchParams.set('toAmount', '100000000000000'),
  },
  // none of fromChain, toChain, fromToken, toToken: the rule the schema cannot express
  getConnections: { 400: (url) => ['fromChain', 'toChain', 'fromToken', 'toToken'].forEach((name) => url.searchParams.delete(name)) },
  parseCallData: { 400: (url) => url.searchParams.set('callData', '0xdeadbeef') },
  getStatus: { 400: (url) => url.searchParams.set('fromChain', 'nochain') },
  getGasStatus: { 400: (url) => url.searchParams.set('txHash', '0x1234') },
  // one unit of the token: below every bridge's minimum, so no route
  postRoutes: { 404: (url, request) => changeBody(request, (body) => { body.fromAmount = '1'; }) },
  // the example step, changed in its JSON body (these functions also get the request)
  postStepTransaction: {
    400: (url, request) => changeBody(request, (step) => { step.includedSteps = []; }),
    404: (url, request) => changeBody(request, (step) => { step.action.fromAmount = '1'; step.estimate.fromAmount = '1'; step.includedSteps[0].action.fromAmount = '1'; }),
    409: (url, request) => changeBody(request, (step) => { step.estimate.toAmountMin = '99999999999'; }),
  },
  getIntegratorWithdrawal: {
    // WETH on Arbitrum: the seeded integrator has collected no fees in it
    400: (url) => url.searchParams.set('tokenAddresses', '0x82aF49447D8a07e3bd95BD0d56f35241523fBab1'),
    404: (url) => { url.pathname = url.pathname.replace(/\/integrators\/[^/]+/, '/integrators/unknown-integrator'); },
  },
  getGasPrice: { 400: (url) => { url.pathname = url.pathname.replace(/\/prices\/[^/]+/, '/prices/nochain'); } },
  getGasSuggestion: { 400: (url) => { url.pathname = url.pathname.replace(/\/suggestion\/[^/]+/, '/suggestion/nochain'); } },
  // the example body, changed: both toAmount and fromAmount (the rule the schema leaves to the server);
  // an amount no bridge or pool carries (no route)
  postContractCallsQuote: {
    400: (url, request) => changeBody(request, (body) => { body.fromAmount = body.toAmount; }),
    404: (url, request) => changeBody(request, (body) => { body.toAmount = HUGE; body.contractCalls.forEach((call) => { call.fromAmount = HUGE; }); }),
  },
  // a gas limit too high for any chain; an amount no bridge or pool carries
  postContractCallQuote: {
    400: (url, request) => changeBody(request, (body) => { body.toContractGasLimit = '99999999'; }),
    404: (url, request) => changeBody(request, (body) => { body.toAmount = HUGE; }),
  },
};

/** An amount (10^27 units) more than any bridge or pool of the embedded data carries: "no route" (404). */
const HUGE = '1000000000000000000000000000';

/** Rewrites a JSON request body in place (and its Content-Length, when set). */
function changeBody(request, change) {
  const body = JSON.parse(request.body);
  change(body);
  request.body = JSON.stringify(body);
  for (const name of Object.keys(request.headers)) {
    if (name.toLowerCase() === 'content-length') request.headers[name] = String(Buffer.byteLength(request.body));
  }
}

/**
 * A 400 for operations without an input of their own above: a malformed JSON body (an unknown query parameter
 * no longer serves: it is ignored, see "Parameters the service does not know" in openapi.yaml).
 */
const GENERIC_400 = (url, request) => {
  if (!request) return;
  request.body = '{"malformed": ';
  request.headers['Content-Type'] = 'application/json';
  for (const name of Object.keys(request.headers)) {
    if (name.toLowerCase() === 'content-length') request.headers[name] = String(Buffer.byteLength(request.body));
  }
};

module.exports = { BAD_INPUTS, GENERIC_400 };
