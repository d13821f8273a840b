/**
 * The staging mock (mocks/README.md): Prism serving openapi.yaml, started here as `npm run mock`
 * starts it, on a free loopback port. Its answers must validate against the contract like the real
 * server's, and it must refuse requests that break the contract. Prism is killed (its whole process
 * group) after the suite, even when a test fails.
 */
import request from 'supertest';
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

  it('refuses a request without a required parameter with a contract 400 naming it', async () => {
    const res = await request(base()).get('/v1/token').query({ chain: 'arb' });
    expect(res.status).toBe(400);
    contract.expectResponse('getToken', res);
    expect(violations(res)).toEqual(expect.arrayContaining([expect.stringMatching(/token/)]));
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
