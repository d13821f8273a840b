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
