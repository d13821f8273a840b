/**
 * The staging mock (mocks/README.md): Prism serving openapi.yaml, started here as `npm run mock`
 * starts it, on a free loopback port. Its answers must validate against the contract like the real
 * server's, and it must refuse requests that break the contract. Prism is killed (its whole process
 * group) after the suite, even when a test fails.
 */
import fs from 'node:fs';
import yaml from 'js-yaml';
import request from 'supertest';
import {
  createClient, getChains, getConnections, getContractCallsQuote, getGasRecommendation, getQuote, getRoutes, getStatus, getStepTransaction, getToken, getTokens, getTools,
  type SDKClient,
} from '@lifi/sdk';
import type { RecordedRequest } from '../../mocks/scenarios';
import { loadContract } from '../../src/server/contract';
import { contractValidator, OPENAPI_PATH, type ContractValidator } from '../support/contract';
import { startPrism, stopProcess, type Started } from '../support/processes';


jest.setTimeout(60_000);

let mock: Started | undefined;
let contract: ContractValidator;

beforeAll(async () => {
  contract = await contractValidator();
  // the same flags as `npm run mock` (mocks/start.sh)
  mock = await startPrism(['mock', OPENAPI_PATH, '--cors=false', '--errors']);
});

afterAll(async () => {
  if (mock) await stopProcess(mock.child);
});

function base(): string {
  if (!mock) throw new Error('Prism did not start');
  return mock.url;
}

describe('staging mock (Prism)', () => {
  it('GET /v1/chains answers 200 with a body that validates against the contract', async () => {
    const res = await request(base()).get('/v1/chains');
    expect(res.status).toBe(200);
    contract.expectResponse('getChains', res);
    expect(res.body.chains.length).toBeGreaterThan(0);
  });

  it('GET /v1/token?chain=arb&token=USDC answers the documented token', async () => {
    const res = await request(base()).get('/v1/token').query({ chain: 'arb', token: 'USDC' });
    expect(res.status).toBe(200);
    contract.expectResponse('getToken', res);
    expect(res.body).toMatchObject({ chainId: 42161, symbol: 'USDC' });
  });

  it('GET /v1/quote with the example parameters answers a quote', async () => {
    const query = exampleQuery('/v1/quote', 'get');
    expect(query).toMatchObject({ fromChain: expect.any(String), fromAmount: expect.any(String) });
    const res = await request(base()).get('/v1/quote').query(query);
    expect(res.status).toBe(200);
    contract.expectResponse('getQuote', res);
    expect(res.body).toMatchObject({ type: expect.any(String), action: expect.any(Object), estimate: expect.any(Object) });
  });

  it("accepts the ecosystem's clients' requests as the service does: the widget's token list, the SDK's status poll, route options, unknown parameters", async () => {
    const tokens = await request(base()).get('/v1/tokens').query({ chainTypes: 'EVM,SVM,UTXO,MVM,TVM', orderBy: 'volumeUSD24H', extended: 'true', limit: '1000', minPriceUSD: '0.000001', search: 'usd' });
    expect(tokens.status).toBe(200);
    contract.expectResponse('getTokens', tokens);
    const hash = '0x0991f754c91240e76304af7d026bd597f23c9f9736ec7dafb4f9c7b2b2a17e7c';
    const status = await request(base()).get('/v1/status').query({ txHash: hash, bridge: 'across', fromChain: '1', toChain: '42161', fromAddress: '0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea9', transactionId: hash });
    expect(status.status).toBe(200);
    contract.expectResponse('getStatus', status);
    const routes = await request(base())
      .post('/v1/advanced/routes')
      .send({ fromChainId: 8453, toChainId: 42161, fromTokenAddress: '0x0000000000000000000000000000000000000000', toTokenAddress: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831', fromAmount: '1000000000000000000', options: { integrator: 'my-dapp', executionType: 'all', someFutureOption: 1 } });
    expect(routes.status).toBe(200);
    contract.expectResponse('postRoutes', routes);
    const unknown = await request(base()).get('/v1/quote').query({ ...exampleQuery('/v1/quote', 'get'), someFutureParameter: '1' });
    expect(unknown.status).toBe(200);
    const prices = await request(base()).get('/v1/gas/prices/42161');
    expect(prices.status).toBe(200);
    contract.expectResponse('getGasPrice', prices);
  });

  it('refuses fee=1 on /v1/quote (the fee must be below 1: an exclusive maximum) with a contract 400', async () => {
    const query = { ...exampleQuery('/v1/quote', 'get'), fee: '1' };
    const res = await request(base()).get('/v1/quote').query(query);
    expect(res.status).toBe(400);
    contract.expectResponse('getQuote', res);
    expect(violations(res)).toEqual(expect.arrayContaining([expect.stringMatching(/fee/)]));
    // just below the bound is fine
    const ok = await request(base()).get('/v1/quote').query({ ...query, fee: '0.99' });
    expect(ok.status).toBe(200);
  });

  it('refuses a chain outside the catalog as the service does: 400 with the unknown-chain answer', async () => {
    for (const [path, query] of [['/v1/token', { chain: 'nochain', token: 'USDC' }], ['/v1/quote', { ...exampleQuery('/v1/quote', 'get'), fromChain: '99999' }], ['/v1/tools', { chains: 'arb,nochain' }]] as const) {
      const res = await request(base()).get(path).query(query);
      expect({ path, status: res.status }).toEqual({ path, status: 400 });
      expect(violations(res)).toEqual(expect.arrayContaining([expect.stringMatching(/chain/)]));
      expect(res.body).toEqual(exampleValue('getQuote.unknownChain'));
    }
    // ids with leading zeros and keys in any case are chains of the catalog, as the service reads them
    for (const chain of ['ARB', '042161']) expect((await request(base()).get('/v1/token').query({ chain, token: 'USDC' })).status).toBe(200);
  });

  it('refuses a request without a required parameter with a contract 400 naming it', async () => {
    const res = await request(base()).get('/v1/token').query({ chain: 'arb' });
    expect(res.status).toBe(400);
    contract.expectResponse('getToken', res);
    expect(violations(res)).toEqual(expect.arrayContaining([expect.stringMatching(/token/)]));
  });
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const spec = yaml.load(fs.readFileSync(OPENAPI_PATH, 'utf8')) as any;
const examples = spec.components.examples as Record<string, { 'x-request': RecordedRequest; value: unknown }>;
const exampleValue = (id: string) => examples[id]!.value;

/** Each scenario: the answers (`<status>`) whose examples name it. */
function scenarioStatuses(): [string, string, number][] {
  const out: [string, string, number][] = [];
  for (const item of Object.values<Record<string, { responses?: Record<string, { $ref?: string; content?: Record<string, { examples?: Record<string, { $ref: string }> }> }> }>>(spec.paths)) {
    for (const op of Object.values(item)) {
      for (const [status, raw] of Object.entries(op.responses ?? {})) {
        const response = raw.$ref ? spec.components.responses[raw.$ref.split('/').pop()!] : raw;
        const named: Record<string, { $ref: string }> = response.content?.['application/json']?.examples ?? {};
        for (const [name, ref] of Object.entries(named)) {
          const id = ref.$ref.split('/').pop()!;
          if (!out.some(([, known, s]) => known === id && s === Number(status))) out.push([name, id, Number(status)]);
        }
      }
    }
  }
  return out;
}

describe('scenarios (Prefer: example=<name>, Prefer: code=<status>)', () => {
  it('without Prefer, an operation answers its default scenario', async () => {
    const res = await request(base()).get('/v1/quote').query(exampleQuery('/v1/quote', 'get'));
    expect(res.body).toEqual(exampleValue('getQuote.crossChainTransfer'));
    expect((await request(base()).get('/v1/chains')).body).toEqual(exampleValue('getChains.allChains'));
  });

  it.each(scenarioStatuses())('%s (%s, %i) answers its recorded request with its example', async (name, id, status) => {
    const recorded = examples[id]!['x-request'];
    // the scenario's own request: Prism checks it against the contract, then answers the chosen example
    let call = recorded.method === 'GET' ? request(base()).get(recorded.url) : request(base()).post(recorded.url);
    for (const [header, value] of Object.entries(recorded.headers ?? {})) call = call.set(header, value);
    call = call.set('Prefer', status >= 300 ? `code=${status}, example=${name}` : `example=${name}`);
    const res = recorded.body === undefined ? await call : await call.send(recorded.body as object);
    expect(res.status).toBe(status);
    expect(res.body).toEqual(examples[id]!.value);
  });
});

describe("the ecosystem SDK's read calls against the mock", () => {
  const WALLET = '0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea9';
  const ARB_USDC = '0xaf88d065e77c8cC2239327C5EDb3A432268e5831';
  const OP_USDC = '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85';
  /** A client of the mock; `prefer` chooses a scenario through the SDK's own request interceptor. */
  const sdk = (prefer?: string): SDKClient =>
    createClient({
      integrator: 'mock-test',
      apiUrl: `${base()}/v1`,
      ...(prefer ? { requestInterceptor: (init: RequestInit) => ({ ...init, headers: { ...(init.headers as Record<string, string>), Prefer: prefer } }) } : {}),
    });

  it('getChains, getTokens, getToken, getTools, getConnections, getGasRecommendation answer the default scenarios', async () => {
    const client = sdk();
    expect(await getChains(client)).toEqual((exampleValue('getChains.allChains') as { chains: unknown[] }).chains);
    expect(await getTokens(client)).toEqual(exampleValue('getTokens.topTokens'));
    expect(await getToken(client, 42161, 'USDC')).toEqual(exampleValue('getToken.usdcOnArbitrum'));
    expect(await getTools(client)).toEqual(exampleValue('getTools.allTools'));
    expect(await getConnections(client, { fromChain: 42161, toChain: 10, fromToken: ARB_USDC })).toEqual(exampleValue('getConnections.usdcArbitrumToOptimism'));
    expect(await getGasRecommendation(client, { chainId: 42161 })).toEqual(exampleValue('getGasSuggestion.arbitrum'));
  });

  it('getQuote (from and to amount), getRoutes, getStepTransaction, getContractCallsQuote, getStatus', async () => {
    const client = sdk();
    const quote = await getQuote(client, { fromChain: 42161, toChain: 10, fromToken: ARB_USDC, toToken: OP_USDC, fromAmount: '1000000000', fromAddress: WALLET });
    expect(quote).toEqual(exampleValue('getQuote.crossChainTransfer'));
    const exact = await getQuote(client, { fromChain: 1, toChain: 1, fromToken: 'ETH', toToken: 'USDC', toAmount: '1000000000', fromAddress: WALLET });
    expect(exact).toEqual(exampleValue('getQuoteToAmount.exactOutput'));
    const { routes } = await getRoutes(client, { fromChainId: 8453, toChainId: 42161, fromTokenAddress: '0x0000000000000000000000000000000000000000', toTokenAddress: ARB_USDC, fromAmount: '1000000000000000000', fromAddress: WALLET });
    expect(routes).toEqual((exampleValue('postRoutes.crossChainRoutes') as { routes: unknown[] }).routes);
    expect(await getStepTransaction(client, routes[0]!.steps[0]!)).toEqual(exampleValue('postStepTransaction.stepTransaction'));
    const call = (examples['postContractCallsQuote.contractCall']!['x-request'].body as Parameters<typeof getContractCallsQuote>[1]);
    expect(await getContractCallsQuote(client, call)).toEqual(exampleValue('postContractCallsQuote.contractCall'));
    const status = await getStatus(client, { txHash: '0x0991f754c91240e76304af7d026bd597f23c9f9736ec7dafb4f9c7b2b2a17e7c', bridge: 'across', fromChain: 42161, toChain: 10 });
    // the default status scenario: a transfer that went through
    expect(status).toEqual(exampleValue('getStatus.done'));
  });

  it('exercise the failure paths through scenarios: no route, unknown token, rate limited, a server error, every transfer state', async () => {
    const failure = async (promise: Promise<unknown>) => {
      const error = (await promise.then(() => undefined, (e: unknown) => e)) as { cause?: { status?: number; responseBody?: unknown } } | undefined;
      return { status: error?.cause?.status, body: error?.cause?.responseBody };
    };
    const quoteRequest = { fromChain: 42161, toChain: 10, fromToken: ARB_USDC, toToken: OP_USDC, fromAmount: '500000', fromAddress: WALLET };
    expect(await failure(getQuote(sdk('code=404, example=noRoute'), quoteRequest))).toEqual({ status: 404, body: exampleValue('getQuote.noRoute') });
    const routesRequest = { fromChainId: 42161, toChainId: 10, fromTokenAddress: ARB_USDC, toTokenAddress: OP_USDC, fromAmount: '500000' };
    expect(await failure(getRoutes(sdk('code=404, example=noRoutes'), routesRequest))).toEqual({ status: 404, body: exampleValue('postRoutes.noRoutes') });
    expect(await failure(getChains(sdk('code=429')))).toEqual({ status: 429, body: exampleValue('getChains.rateLimited') });
    expect(await failure(getToken(sdk('code=404, example=unknownToken'), 42161, 'USDX'))).toEqual({ status: 404, body: exampleValue('getToken.unknownToken') });
    expect(await failure(getTools(sdk('code=500')))).toEqual({ status: 500, body: exampleValue('getChains.serverError') });
    const txHash = '0x0991f754c91240e76304af7d026bd597f23c9f9736ec7dafb4f9c7b2b2a17e7c';
    expect(await getStatus(sdk('example=notFound'), { txHash })).toMatchObject({ status: 'NOT_FOUND' });
    expect(await getStatus(sdk('example=pendingSourceConfirmations'), { txHash })).toMatchObject({ status: 'PENDING', substatus: 'WAIT_SOURCE_CONFIRMATIONS' });
    expect(await getStatus(sdk('example=pendingDestination'), { txHash })).toMatchObject({ status: 'PENDING', substatus: 'WAIT_DESTINATION_TRANSACTION' });
    expect(await getStatus(sdk('example=failed'), { txHash })).toMatchObject({ status: 'FAILED', substatus: 'SLIPPAGE_EXCEEDED' });
    expect(await getStatus(sdk('example=invalid'), { txHash })).toMatchObject({ status: 'INVALID' });
  });
});

/** Prism describes what a refused request breaks in its sl-violations header (the body is the contract's example). */
function violations(res: request.Response): string[] {
  const header = res.headers['sl-violations'];
  if (typeof header !== 'string') return [];
  return (JSON.parse(header) as { message: string }[]).map((v) => v.message);
}

/** The query of an operation built from the examples of its parameters, as Dredd and the README use them. */
function exampleQuery(pathTemplate: string, method: string): Record<string, string> {
  const document = loadContract(OPENAPI_PATH) as unknown as {
    paths: Record<string, Record<string, { parameters?: ({ $ref: string } | Parameter)[] }>>;
    components: { parameters: Record<string, Parameter> };
  };
  const operation = document.paths[pathTemplate]?.[method];
  if (!operation) throw new Error(`no operation ${method.toUpperCase()} ${pathTemplate}`);
  const query: Record<string, string> = {};
  for (const entry of operation.parameters ?? []) {
    const parameter = '$ref' in entry ? document.components.parameters[entry.$ref.split('/').pop()!]! : entry;
    if (parameter.in !== 'query' || parameter.example === undefined) continue;
    const example = parameter.example;
    // a list of objects in qs's indexed form (name[0][field]=…), as the ecosystem's SDK sends it
    if (Array.isArray(example) && typeof example[0] === 'object') {
      example.forEach((entry, i) => Object.entries(entry as Record<string, unknown>).forEach(([field, value]) => (query[`${parameter.name}[${i}][${field}]`] = String(value))));
    } else query[parameter.name] = Array.isArray(example) ? example.join(',') : String(example);
  }
  return query;
}

interface Parameter {
  name: string;
  in: string;
  example?: unknown;
}

/** Starts `prism mock openapi.yaml` on a free loopback port and waits until it answers. */
