/**
 * The recorded request set of the golden-answer test (golden.test.ts): every operation, the benchmark's request
 * mixes (bench/requests.ts, the same seed as `npm run bench:http`) and every option of the quote and route
 * operations, plus the errors a client meets. Built from the embedded data, so the same on every machine.
 */
import { buildRequestMix } from '../../bench/requests';
import type { RoutingGraph } from '../../src/core/routing/graph';
import { loadContract } from '../../src/server/contract';
import { OPENAPI_PATH } from '../support/contract';

export interface GoldenCase {
  readonly name: string;
  readonly method: 'GET' | 'POST' | 'PUT';
  /** Path and query as sent. */
  readonly url: string;
  readonly body?: unknown;
}

const WALLET = '0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea9';
const OTHER = '0x9B2a3D1b4F3a9e6C7d8E0f1A2b3C4d5E6f7A8b9C';
const ARB_USDC = '0xaf88d065e77c8cC2239327C5EDb3A432268e5831';
const NATIVE = '0x0000000000000000000000000000000000000000';
/** Seed and size of the benchmark's mix (bench/http.ts). */
const MIX_SEED = 20240611;
const MIX_SIZE = 500;

const query = (params: Record<string, string | number | boolean>): string =>
  Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');

type Examples = Record<string, { body?: unknown }>;

/** The request-body examples of the contract, by operationId. */
function bodyExamples(): Examples {
  const doc = loadContract(OPENAPI_PATH) as unknown as { paths: Record<string, Record<string, { operationId?: string; requestBody?: { content: Record<string, { example?: unknown }> } }>> };
  const result: Examples = {};
  for (const methods of Object.values(doc.paths)) {
    for (const op of Object.values(methods)) {
      if (op.operationId && op.requestBody) result[op.operationId] = { body: op.requestBody.content['application/json']?.example };
    }
  }
  return result;
}

export function goldenCases(graph: RoutingGraph): GoldenCase[] {
  const catalog = graph.catalog;
  const cases: GoldenCase[] = [];
  const get = (name: string, url: string) => cases.push({ name, method: 'GET', url });
  const post = (name: string, url: string, body: unknown) => cases.push({ name, method: 'POST', url, body });

  // the benchmark's mixes: quotes, exact-output quotes to 100 USDC, routes
  const mix = buildRequestMix(graph, MIX_SIZE, MIX_SEED);
  const base = (m: (typeof mix)[number]) => ({ fromChain: m.request.fromChain.id, toChain: m.request.toChain.id, fromToken: m.request.fromToken.address, toToken: m.request.toToken.address, fromAddress: WALLET });
  for (const m of mix.slice(0, 150)) get(`mix quote ${m.index} ${m.label}`, `/v1/quote?${query({ ...base(m), fromAmount: m.request.amount.toString() })}`);
  for (const m of mix.slice(0, 40)) {
    const usdc = catalog.findToken(m.request.toChain.id, 'USDC') ?? m.request.toToken;
    get(`mix toAmount ${m.index}`, `/v1/quote/toAmount?${query({ ...base(m), toToken: usdc.address, toAmount: (10n ** BigInt(usdc.decimals) * 100n).toString() })}`);
  }
  for (const m of mix.slice(0, 40)) {
    post(`mix routes ${m.index}`, '/v1/advanced/routes', {
      fromChainId: m.request.fromChain.id, toChainId: m.request.toChain.id, fromTokenAddress: m.request.fromToken.address, toTokenAddress: m.request.toToken.address, fromAmount: m.request.amount.toString(),
    });
  }

  // every option of the quote, on a cross-chain and a same-chain request
  const cross = { fromChain: 'arb', toChain: 'opt', fromToken: 'USDC', toToken: 'USDC', fromAmount: '1000000000', fromAddress: WALLET };
  const same = { fromChain: 'eth', toChain: 'eth', fromToken: 'USDC', toToken: 'WETH', fromAmount: '25000000000', fromAddress: WALLET };
  const options: Record<string, Record<string, string | number | boolean>> = {
    'order FASTEST': { order: 'FASTEST' },
    'slippage 1 %': { slippage: 0.01 },
    'integrator fee': { fee: 0.003, integrator: 'example-dapp' },
    referrer: { referrer: OTHER, integrator: 'example-dapp' },
    toAddress: { toAddress: OTHER },
    'allowBridges across': { allowBridges: 'across' },
    'denyBridges cctp,across': { denyBridges: 'cctp,across' },
    'preferBridges stargate': { preferBridges: 'stargate' },
    'allowExchanges uniswap': { allowExchanges: 'uniswap' },
    'denyExchanges uniswap': { denyExchanges: 'uniswap' },
    'preferExchanges curve': { preferExchanges: 'curve' },
    'allowExchanges none': { allowExchanges: 'none' },
    'allowDestinationCall false': { allowDestinationCall: false },
    'maxPriceImpact 0.0001': { maxPriceImpact: 0.0001 },
    'preset stablecoin': { preset: 'stablecoin' },
    'skipSimulation': { skipSimulation: true },
    'executionType message': { executionType: 'message' },
    'denyPools': { denyPools: '0xa6e1EA2D3a813E4ef4943DaE413c0358A014e30b' },
    'accepted without effect': { intermediary: 'partner', jitoBundle: true, insurance: false, svmPriorityFeeLevel: 'FAST' },
    'unknown parameter': { someFutureParameter: 1 },
  };
  for (const [label, extra] of Object.entries(options)) {
    get(`quote cross-chain ${label}`, `/v1/quote?${query({ ...cross, ...extra })}`);
    get(`quote same-chain ${label}`, `/v1/quote?${query({ ...same, ...extra })}`);
    const { fromAmount: _omit, ...toAmountBase } = cross;
    get(`toAmount cross-chain ${label}`, `/v1/quote/toAmount?${query({ ...toAmountBase, toAmount: '500000000', ...extra })}`);
  }
  get('quote fromAmountForGas', `/v1/quote?${query({ ...cross, toToken: 'USDC', fromAmountForGas: '5000000' })}`);
  get('quote native to token across chains', `/v1/quote?${query({ fromChain: 'bas', toChain: 'arb', fromToken: 'ETH', toToken: 'USDC', fromAmount: '100000000000000000', fromAddress: WALLET })}`);
  get('quote with a destination swap', `/v1/quote?${query({ fromChain: 'arb', toChain: 'bas', fromToken: 'USDC', toToken: 'WETH', fromAmount: '1000000000', fromAddress: WALLET })}`);

  // routes with options
  const routesBody = { fromChainId: 8453, toChainId: 42161, fromTokenAddress: NATIVE, toTokenAddress: ARB_USDC, fromAmount: '1000000000000000000', fromAddress: WALLET };
  const routeOptions: Record<string, unknown> = {
    'no options': undefined,
    'order FASTEST': { order: 'FASTEST' },
    'fee and integrator': { fee: 0.005, integrator: 'example-dapp', referrer: OTHER },
    'bridges and exchanges': { bridges: { allow: ['across', 'stargate', 'relay'], prefer: ['relay'] }, exchanges: { deny: ['uniswap'] } },
    'switch chain': { allowSwitchChain: true, allowDestinationCall: false },
    'slippage and price impact': { slippage: 0.02, maxPriceImpact: 0.05 },
    'preset and pools': { preset: 'stablecoin', pools: { deny: ['0xa6e1EA2D3a813E4ef4943DaE413c0358A014e30b'] } },
    'gasless': { gasless: true },
    'unknown option': { someFutureOption: 1 },
  };
  for (const [label, opts] of Object.entries(routeOptions)) post(`routes ${label}`, '/v1/advanced/routes', opts === undefined ? routesBody : { ...routesBody, options: opts });
  post('routes with a destination swap', '/v1/advanced/routes', { fromChainId: 42161, toChainId: 8453, fromTokenAddress: ARB_USDC, toTokenAddress: NATIVE, fromAmount: '2000000000', fromAmountForGas: '10000000' });

  // the other operations, on their contract examples and a few variants
  const examples = bodyExamples();
  post('stepTransaction example', '/v1/advanced/stepTransaction', examples.postStepTransaction?.body);
  post('contractCalls example', '/v1/quote/contractCalls', examples.postContractCallsQuote?.body);
  post('contractCall example', '/v1/quote/contractCall', examples.postContractCallQuote?.body);
  post('possibilities example', '/v1/advanced/possibilities', examples.postPossibilities?.body);
  post('possibilities chains 1,10', '/v1/advanced/possibilities', { chains: [1, 10], include: ['bridges', 'exchanges'] });
  for (const url of [
    '/v1/chains', '/v1/chains?chainTypes=EVM,SVM',
    '/v1/tokens', '/v1/tokens?chains=arb,opt&tags=stablecoin', '/v1/tokens?chainTypes=EVM,SVM,UTXO,MVM,TVM&orderBy=volumeUSD24H&extended=true&limit=5&minPriceUSD=0.000001',
    '/v1/tokens?search=eur', '/v1/tokens?chains=eth&orderBy=priceUSD',
    '/v1/token?chain=arb&token=usdc', `/v1/token?chain=42161&token=${ARB_USDC.toLowerCase()}`,
    '/v1/tools', '/v1/tools?chains=bas',
    '/v1/connections?fromChain=arb&toChain=opt', '/v1/connections?fromChain=eth&fromToken=USDC&denyBridges=across', '/v1/connections?toChain=bas&toToken=WETH&allowSwitchChain=true',
    '/v1/gas/suggestion/eth', '/v1/gas/suggestion/arb?fromChain=eth&fromToken=USDC', '/v1/gas/suggestion/sol',
    '/v1/gas/prices', '/v1/gas/prices/bas',
    `/v1/status?txHash=0x${'ab'.repeat(32)}`, `/v1/status?txHash=0x${'ab'.repeat(32)}&fromAddress=${WALLET}&transactionId=0x${'cd'.repeat(32)}`, '/v1/status?taskId=task-1',
    `/v1/gas/status?txHash=0x${'ab'.repeat(32)}`,
    '/v1/integrators/example-dapp', '/v1/integrators/example-dapp/withdraw/42161',
  ]) get(url, url);

  // errors a client meets
  for (const url of [
    '/v1/token?chain=nochain&token=usdc', '/v1/token?chain=arb&token=NOPE', '/v1/token?chian=arb&token=usdc',
    `/v1/quote?${query({ ...cross, fromAmount: '1' })}`, `/v1/quote?${query({ ...cross, fee: 1 })}`, `/v1/quote?${query({ ...cross, fromAmount: '-5' })}`,
    `/v1/quote?${query({ ...cross, fromToken: 'NOPE' })}`, `/v1/quote?${query({ ...same, toToken: 'USDC' })}`, `/v1/quote?${query({ ...cross, allowBridges: 'teleporter' })}`,
    `/v1/quote?${query({ ...cross, destinationActionKind: 'deposit' })}`, `/v1/quote?${query({ ...cross, fromAmountForGas: '2000000000' })}`,
    '/v1/connections', '/v1/calldata/parse?callData=0xdeadbeef', '/v1/gas/prices/sol', '/v1/integrators/unknown-integrator', '/v1/status', '/v1/nothing',
  ]) get(`error ${url}`, url);
  post('error routes body field', '/v1/advanced/routes', { ...routesBody, fromAmount: 'ten' });
  post('error routes missing field', '/v1/advanced/routes', { fromChainId: 8453, toChainId: 42161 });
  post('error routes unknown chain', '/v1/advanced/routes', { ...routesBody, fromChainId: 999999 });
  post('error routes unknown tool', '/v1/advanced/routes', { ...routesBody, options: { bridges: { deny: ['teleporter'] } } });
  post('error contractCalls both amounts', '/v1/quote/contractCalls', { ...(examples.postContractCallsQuote?.body as object), fromAmount: '1000000' });
  cases.push({ name: 'error PUT /v1/quote', method: 'PUT', url: '/v1/quote' });
  return cases;
}
