/**
 * The staging mock's scenarios: named requests whose real answers (the service's, on its embedded data) become the
 * named examples of openapi.yaml that Prism serves (`Prefer: example=<name>`, `Prefer: code=<status>`). Listed in
 * mocks/README.md with what each shows; written into the contract by `npm run mock:examples` (mocks/examples.ts)
 * and checked against the service in `npm test` (test/http/mockScenarios.test.ts).
 *
 * The first scenario of an operation's status is that answer's default example: the one an integrator most likely
 * wants. A scenario's name is the example's key, unique per answer; the error answers (400, 401, 403, 404, 409,
 * 429, 500, 501) are shared by the operations, so their scenarios' names are unique across the contract.
 */

export const WALLET = '0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea9';
const NATIVE = '0x0000000000000000000000000000000000000000';
const ARB_USDC = '0xaf88d065e77c8cC2239327C5EDb3A432268e5831';
const OP_USDC = '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85';
const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';

/**
 * The API keys of the recording (documented in mocks/README.md: the mock accepts any key, these show the service's
 * answers to each kind). Well-formed keys of the service's format, known only to the recording's key store.
 */
export const MOCK_KEYS = {
  valid: mockKey('mock-valid-key'),
  blocked: mockKey('mock-blocked-key'),
  limited: mockKey('mock-limited-key'),
  unknown: mockKey('mock-unknown-key'),
} as const;

/** `svc_` and 43 base64url characters, as the service's keys are. */
function mockKey(label: string): string {
  return `svc_${label.padEnd(43, '0')}`;
}

export interface ScenarioRequest {
  readonly method: 'GET' | 'POST';
  /** Path and query string, as sent. */
  readonly url: string;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * Which service answers: the embedded data with relaxed limits (`service`), the specified limits (`limits`, for the
 * rate-limited answer), a service whose handler fails unexpectedly (`failing`, for the 500), a deployment
 * without one operation (`partial`, for the 501), or the service in chain mode on the sandbox's devnet chains
 * after a transfer was sent there (`devnet`, for transfer states: mocks/devnetScenarios.ts).
 */
export type ScenarioService = 'service' | 'limits' | 'failing' | 'partial' | 'devnet' | 'keysDown';

export interface Scenario {
  /** The example's key: `Prefer: example=<name>`. */
  readonly name: string;
  readonly operationId: string;
  /** What it shows, in a line. */
  readonly summary: string;
  readonly status: number;
  readonly service?: ScenarioService;
  /** The request; a function of earlier answers (by scenario name) when it is made from one. */
  readonly request: ScenarioRequest | ((answers: ReadonlyMap<string, unknown>) => ScenarioRequest);
  /** The default example of its answer, ahead of scenarios listed before it (else the first listed is). */
  readonly default?: boolean;
  /** Requests sent before it, their answers unused (the first request of a rate-limited key). */
  readonly before?: readonly ScenarioRequest[];
}

const get = (path: string, query: Record<string, string> = {}, headers?: Record<string, string>): ScenarioRequest => {
  const search = new URLSearchParams(query).toString();
  return { method: 'GET', url: search ? `${path}?${search}` : path, ...(headers ? { headers } : {}) };
};
const post = (path: string, body: unknown): ScenarioRequest => ({ method: 'POST', url: path, body });

const quote = (from: string, to: string, fromToken: string, toToken: string, fromAmount: string, more: Record<string, string> = {}) =>
  get('/v1/quote', { fromChain: from, toChain: to, fromToken, toToken, fromAmount, fromAddress: WALLET, ...more });

const routesBody = { fromChainId: 8453, toChainId: 42161, fromTokenAddress: NATIVE, toTokenAddress: ARB_USDC, fromAmount: '1000000000000000000', fromAddress: WALLET };

/** The contract-call body of the contract's own example: supply USDC to a lending pool on Base after bridging. */
const contractCallsBody = {
  fromChain: 42161,
  fromToken: ARB_USDC,
  fromAddress: WALLET,
  toChain: 8453,
  toToken: BASE_USDC,
  toAmount: '9985000',
  allowBridges: ['across'],
  contractCalls: [
    {
      fromAmount: '9985000',
      fromTokenAddress: BASE_USDC,
      toContractAddress: '0xA238Dd80C259a72e81d7e4664a9801593F98d1c5',
      toContractCallData:
        '0x617ba037000000000000000000000000833589fcd6edb6e08f4c7c32d4f71b54bda029130000000000000000000000000000000000000000000000000000000000985be8000000000000000000000000552008c0f6870c2f77e5cc1d2eb9bdff03e30ea90000000000000000000000000000000000000000000000000000000000000000',
      toContractGasLimit: '300000',
    },
  ],
};

const answerOf = (answers: ReadonlyMap<string, unknown>, name: string) => {
  const answer = answers.get(name);
  if (!answer) throw new Error(`scenario ${name} must be recorded before the scenarios made from it`);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return answer as any;
};

export const SCENARIOS: readonly Scenario[] = [
  // quotes
  { name: 'crossChainTransfer', operationId: 'getQuote', status: 200, summary: '1,000 USDC from Arbitrum to OP Mainnet: one bridge step with its transaction', request: quote('arb', 'opt', 'USDC', 'USDC', '1000000000') },
  { name: 'sameChainSwap', operationId: 'getQuote', status: 200, summary: '1 ETH to USDC on Ethereum: a swap on one chain', request: quote('eth', 'eth', 'ETH', 'USDC', '1000000000000000000') },
  { name: 'swapAndBridge', operationId: 'getQuote', status: 200, summary: '1 ETH on Base to USDC on Arbitrum: swap, bridge and the steps included', request: quote('bas', 'arb', 'ETH', 'USDC', '1000000000000000000') },
  { name: 'fromSolana', operationId: 'getQuote', status: 200, summary: '100 USDC from Solana to Arbitrum: the bridge deposit as a base64 Solana transaction, its fee in lamports', request: get('/v1/quote', { fromChain: 'sol', toChain: 'arb', fromToken: 'USDC', toToken: 'USDC', fromAmount: '100000000', fromAddress: '7v91N7iZ9mNicL8WfG6cgSCKyRXydQjLh6UYBWwm6y1Q', toAddress: WALLET }) },
  { name: 'withIntegratorFee', operationId: 'getQuote', status: 200, summary: 'The cross-chain transfer with a 0.3 % integrator fee (feeCosts, the fee collector in the call)', request: quote('arb', 'opt', 'USDC', 'USDC', '1000000000', { integrator: 'example-dapp', fee: '0.003' }) },
  { name: 'exactOutput', operationId: 'getQuoteToAmount', status: 200, summary: 'Exactly 1,000 USDC on Ethereum for ETH: the fromAmount it takes', request: get('/v1/quote/toAmount', { fromChain: 'eth', toChain: 'eth', fromToken: 'ETH', toToken: 'USDC', toAmount: '1000000000', fromAddress: WALLET }) },
  { name: 'contractCall', operationId: 'postContractCallsQuote', status: 200, summary: 'Bridge USDC to Base, then supply it to a lending pool: the step ends in a custom call', request: post('/v1/quote/contractCalls', contractCallsBody) },
  { name: 'exactOutputTransfer', operationId: 'postContractCallsQuote', status: 200, summary: "No calls and a toAmount, as the SDK's own toAmount example sends it: the exact-output transfer GET /v1/quote/toAmount gives", request: post('/v1/quote/contractCalls', { fromChain: 42161, fromToken: ARB_USDC, fromAddress: WALLET, toChain: 10, toToken: OP_USDC, toAmount: '1000000000', contractCalls: [] }) },
  { name: 'contractCall', operationId: 'postContractCallQuote', status: 200, summary: 'The deprecated single-call form of the same request', request: post('/v1/quote/contractCall', { ...contractCallsBody, contractCalls: undefined, contractOutputsToken: BASE_USDC, toContractAddress: contractCallsBody.contractCalls[0].toContractAddress, toContractCallData: contractCallsBody.contractCalls[0].toContractCallData, toContractGasLimit: '300000' }) },

  // routes and steps
  { name: 'crossChainRoutes', operationId: 'postRoutes', status: 200, summary: '1 ETH on Base to USDC on Arbitrum: the routes found, best first', request: post('/v1/advanced/routes', routesBody) },
  { name: 'sameChainRoutes', operationId: 'postRoutes', status: 200, summary: '1,000 USDC to ETH on Arbitrum', request: post('/v1/advanced/routes', { fromChainId: 42161, toChainId: 42161, fromTokenAddress: ARB_USDC, toTokenAddress: NATIVE, fromAmount: '1000000000', fromAddress: WALLET }) },
  { name: 'stepTransaction', operationId: 'postStepTransaction', status: 200, summary: "The first step of crossChainRoutes' best route, re-priced with its transaction", request: (answers) => post('/v1/advanced/stepTransaction', answerOf(answers, 'crossChainRoutes').routes[0].steps[0]) },

  // catalog
  { name: 'allChains', operationId: 'getChains', status: 200, summary: 'Every chain of the catalog', request: get('/v1/chains') },
  { name: 'svmChains', operationId: 'getChains', status: 200, summary: 'The Solana Virtual Machine chains (chainTypes=SVM)', request: get('/v1/chains', { chainTypes: 'SVM' }) },
  // every token would be ~0.9 MB of openapi.yaml (3,802 tokens): the example is each chain's largest
  { name: 'topTokens', operationId: 'getTokens', status: 200, summary: 'The 15 tokens of largest market capitalisation on each chain (orderBy=marketCapUSD, limit=15)', request: get('/v1/tokens', { orderBy: 'marketCapUSD', limit: '15' }) },
  { name: 'stablecoinsOnArbitrum', operationId: 'getTokens', status: 200, summary: 'The stablecoins of Arbitrum (chains=arb, tags=stablecoin)', request: get('/v1/tokens', { chains: 'arb', tags: 'stablecoin' }) },
  { name: 'usdcOnArbitrum', operationId: 'getToken', status: 200, summary: 'USDC on Arbitrum, by symbol', request: get('/v1/token', { chain: 'arb', token: 'USDC' }) },
  { name: 'allTools', operationId: 'getTools', status: 200, summary: 'Every bridge and exchange', request: get('/v1/tools') },
  { name: 'toolsOnBase', operationId: 'getTools', status: 200, summary: 'The bridges and exchanges that serve Base (chains=bas)', request: get('/v1/tools', { chains: 'bas' }) },
  { name: 'usdcArbitrumToOptimism', operationId: 'getConnections', status: 200, summary: 'Where USDC on Arbitrum can go on OP Mainnet', request: get('/v1/connections', { fromChain: 'arb', toChain: 'opt', fromToken: 'USDC' }) },
  { name: 'acrossBetweenArbitrumAndOptimism', operationId: 'postPossibilities', status: 200, summary: 'The deprecated catalog call: what across and Uniswap offer between Arbitrum and OP Mainnet', request: post('/v1/advanced/possibilities', { chains: [42161, 10], bridges: { allow: ['across'] }, exchanges: { allow: ['uniswap'] } }) },

  // status
  { name: 'wallet', operationId: 'getAnalyticsTransfers', status: 200, summary: "A wallet's transfers through example-dapp, as the SDK's getTransactionHistory asks (none indexed on the embedded data)", request: get('/v1/analytics/transfers', { integrator: 'example-dapp', wallet: '0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea9', fromTimestamp: '1764374400', toTimestamp: '1764979200' }) },
  { name: 'wallet', operationId: 'getAnalyticsTransfersPage', status: 200, summary: "A wallet's transfers, 20 a page (none indexed on the embedded data)", request: get('/v2/analytics/transfers', { wallet: '0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea9', limit: '20' }) },
  { name: 'exampleDapp', operationId: 'getAnalyticsTransfersSummary', status: 200, summary: "example-dapp's counts and volumes, read with its key (none indexed on the embedded data)", request: get('/v1/analytics/transfers/summary', { integrator: 'example-dapp' }, { 'x-svc-api-key': MOCK_KEYS.valid }) },
  { name: 'notFound', operationId: 'getStatus', status: 200, summary: 'A hash no connected chain knows (yet): NOT_FOUND, polled again later', request: get('/v1/status', { txHash: '0x0991f754c91240e76304af7d026bd597f23c9f9736ec7dafb4f9c7b2b2a17e7c', fromChain: 'arb', toChain: 'opt', bridge: 'across' }) },
  { name: 'notFound', operationId: 'getGasStatus', status: 200, summary: 'A gas refuel no connected chain knows (yet)', request: get('/v1/gas/status', { txHash: '0x0991f754c91240e76304af7d026bd597f23c9f9736ec7dafb4f9c7b2b2a17e7c' }) },

  // gas, call data, integrators, keys
  { name: 'arbitrum', operationId: 'getGasSuggestion', status: 200, summary: 'Gas to bring for Arbitrum', request: get('/v1/gas/suggestion/arb') },
  { name: 'allChains', operationId: 'getGasPrices', status: 200, summary: 'Gas prices of every EVM chain', request: get('/v1/gas/prices') },
  { name: 'arbitrum', operationId: 'getGasPrice', status: 200, summary: 'Gas prices of Arbitrum', request: get('/v1/gas/prices/42161') },
  { name: 'crossChainTransferCall', operationId: 'parseCallData', status: 200, summary: "The call data of crossChainTransfer's transaction, decoded", request: (answers) => get('/v1/calldata/parse', { callData: answerOf(answers, 'crossChainTransfer').transactionRequest.data, chainId: '42161' }) },
  { name: 'exampleDapp', operationId: 'getIntegrator', status: 200, summary: "The fees example-dapp collected, by chain", request: get('/v1/integrators/example-dapp') },
  { name: 'exampleDappOnArbitrum', operationId: 'getIntegratorWithdrawal', status: 200, summary: "The transaction that withdraws example-dapp's fees on Arbitrum", request: get('/v1/integrators/example-dapp/withdraw/42161') },
  { name: 'validKey', operationId: 'testApiKey', status: 200, summary: 'A valid key: its id, name and limits', request: get('/v1/keys/test', {}, { 'x-svc-api-key': MOCK_KEYS.valid }) },

  // errors (answers shared by the operations)
  { name: 'unknownChain', operationId: 'getQuote', status: 400, summary: 'A chain outside the catalog (fromChain=nochain): 400 naming the parameter', request: quote('nochain', 'arb', 'USDC', 'USDC', '1000000') },
  { name: 'sendingNotSupported', operationId: 'getQuote', status: 400, summary: 'A quote from Bitcoin: sending from a chain the service builds no transaction for is refused, naming fromChain', request: get('/v1/quote', { fromChain: 'btc', toChain: 'arb', fromToken: 'BTC', toToken: 'USDC', fromAmount: '100000000', fromAddress: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh', toAddress: WALLET }) },
  { name: 'invalidAmount', operationId: 'getQuote', status: 400, summary: 'An amount that is not an integer of the smallest unit (fromAmount=1.5)', request: quote('arb', 'opt', 'USDC', 'USDC', '1.5') },
  { name: 'noKey', operationId: 'testApiKey', status: 401, summary: 'No key where one is required', request: get('/v1/keys/test') },
  { name: 'unknownKey', operationId: 'getChains', status: 401, summary: 'A key the service does not know, even on a public endpoint', request: get('/v1/chains', {}, { 'x-svc-api-key': MOCK_KEYS.unknown }) },
  { name: 'blockedKey', operationId: 'getChains', status: 403, summary: 'A blocked key', request: get('/v1/chains', {}, { 'x-svc-api-key': MOCK_KEYS.blocked }) },
  { name: 'unknownToken', operationId: 'getToken', status: 404, summary: 'A token the chain does not list', request: get('/v1/token', { chain: 'arb', token: 'USDX' }) },
  { name: 'unknownIntegrator', operationId: 'getIntegrator', status: 404, summary: 'An integrator without fees or registration', request: get('/v1/integrators/nobody') },
  { name: 'noRoute', operationId: 'getQuote', status: 404, summary: 'No route: 0.1 USDC from Arbitrum to OP Mainnet over across only, below its minimum (the relayer\'s gas); errors say why for every path', request: quote('arb', 'opt', 'USDC', 'USDC', '100000', { allowBridges: 'across', allowExchanges: 'none' }) },
  { name: 'noRoutes', operationId: 'postRoutes', status: 404, summary: 'No route for the routes search, with the reasons', request: post('/v1/advanced/routes', { fromChainId: 42161, toChainId: 10, fromTokenAddress: ARB_USDC, toTokenAddress: OP_USDC, fromAmount: '100000', options: { bridges: { allow: ['across'] }, exchanges: { allow: ['none'] } } }) },
  {
    name: 'slippageExceeded',
    operationId: 'postStepTransaction',
    status: 409,
    summary: 'A step whose toAmountMin the re-priced step no longer reaches',
    request: (answers) => {
      const step = answerOf(answers, 'crossChainRoutes').routes[0].steps[0];
      return post('/v1/advanced/stepTransaction', { ...step, estimate: { ...step.estimate, toAmountMin: (BigInt(step.estimate.toAmount) * 2n).toString() } });
    },
  },
  { name: 'rateLimited', operationId: 'getChains', status: 429, service: 'limits', summary: 'A key over its limit: Retry-After says when to come back', before: [get('/v1/chains', {}, { 'x-svc-api-key': MOCK_KEYS.limited })], request: get('/v1/chains', {}, { 'x-svc-api-key': MOCK_KEYS.limited }) },
  { name: 'serverError', operationId: 'getChains', status: 500, service: 'failing', summary: 'An unexpected failure: requestId names it in the service logs', request: get('/v1/chains') },
  { name: 'keysUnavailable', operationId: 'getChains', status: 503, service: 'keysDown', summary: 'A request with a key while the key store (the database) does not answer: Retry-After says when to try again', request: get('/v1/chains', {}, { 'x-svc-api-key': MOCK_KEYS.valid }) },
  { name: 'notImplemented', operationId: 'getGasPrices', status: 501, service: 'partial', summary: 'An operation this deployment does not implement', request: get('/v1/gas/prices') },
];

/** What an example keeps of the request that produced it (`x-request`). */
export interface RecordedRequest extends ScenarioRequest {
  /** Which service answered (mocks/scenarios.ts, ScenarioService); absent: the embedded data. */
  readonly service?: ScenarioService;
  readonly before?: readonly ScenarioRequest[];
}

export interface RecordedAnswer {
  readonly scenario: Scenario;
  readonly request: RecordedRequest;
  readonly status: number;
  readonly body: unknown;
}
