/**
 * The typed client (client/index.ts) end to end: against the real service listening on a free loopback
 * port, and against the staging mock (Prism serving openapi.yaml). Every answer it returns is also
 * validated against the contract. The calls are type-checked by `npm run typecheck`, including the
 * `@ts-expect-error` lines that the contract must forbid.
 */
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import type request from 'supertest';
import { createRoutingClient, type RoutingClient } from '../../client';
import { generateApiKey, hashApiKey } from '../../src/core/access/keys';
import { makeTestApp, type TestApp } from '../support/app';
import { contractValidator, OPENAPI_PATH, type ContractValidator } from '../support/contract';
import { startPrism, stopProcess, type Started } from '../support/processes';
import { ARB_USDC, WALLET } from '../support/fixtures';

jest.setTimeout(60_000);

const key = generateApiKey();

let contract: ContractValidator;
beforeAll(async () => {
  contract = await contractValidator();
});

/** openapi-fetch's Response and parsed body, in the shape the contract validator reads. */
function check(operationId: string, result: { response: Response; data?: unknown; error?: unknown }): void {
  const headers: Record<string, string> = {};
  result.response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  contract.expectResponse(operationId, { status: result.response.status, headers, body: result.data ?? result.error } as unknown as request.Response);
}

describe('typed client against the real service', () => {
  let t: TestApp;
  let server: http.Server;
  let api: RoutingClient;
  let keyed: RoutingClient;
  beforeAll(async () => {
    t = await makeTestApp({ env: { API_KEYS: JSON.stringify({ keys: [{ id: 'client-e2e', sha256: hashApiKey(key), perMinute: 1000, integrators: ['example-dapp'] }] }) } });
    server = t.app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    api = createRoutingClient({ baseUrl });
    keyed = createRoutingClient({ baseUrl: `${baseUrl}/`, apiKey: key, headers: { 'x-request-id': 'client-e2e' } });
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await t.dependencies.access.close();
  });

  it('lists chains, sending list parameters comma-joined', async () => {
    const result = await api.GET('/v1/chains', { params: { query: { chainTypes: ['SVM', 'UTXO'] } } });
    check('getChains', result);
    expect(result.response.url).toMatch(/chainTypes=SVM,UTXO$/);
    expect(result.data!.chains.map((c) => c.key).sort()).toEqual(['btc', 'sol']);
  });

  it('reads a token, and a typed Error body for an unknown one', async () => {
    const ok = await api.GET('/v1/token', { params: { query: { chain: 'arb', token: 'USDC' } } });
    check('getToken', ok);
    expect(ok.data).toMatchObject({ address: ARB_USDC, decimals: 6, chainId: 42161 });
    const missing = await api.GET('/v1/token', { params: { query: { chain: 'arb', token: 'NOSUCHTOKEN' } } });
    check('getToken', missing);
    expect(missing.response.status).toBe(404);
    expect(missing.error).toMatchObject({ code: 1003 });
  });

  it('gets a quote and routes', async () => {
    const quote = await api.GET('/v1/quote', {
      params: { query: { fromChain: 'arb', toChain: 'opt', fromToken: 'USDC', toToken: 'USDC', fromAmount: '1000000000', fromAddress: WALLET } },
    });
    check('getQuote', quote);
    expect(BigInt(quote.data!.estimate.toAmount)).toBeGreaterThan(0n);
    const routes = await api.POST('/v1/advanced/routes', {
      body: { fromChainId: 8453, toChainId: 42161, fromTokenAddress: '0x0000000000000000000000000000000000000000', toTokenAddress: ARB_USDC, fromAmount: '1000000000000000000' },
    });
    check('postRoutes', routes);
    expect(routes.data!.routes.length).toBeGreaterThan(0);
  });

  it('answers a contract violation with the 400 Error body naming the parameter', async () => {
    const result = await api.GET('/v1/quote', {
      params: { query: { fromChain: 'arb', toChain: 'opt', fromToken: 'USDC', toToken: 'USDC', fromAmount: '1.5', fromAddress: WALLET } },
    });
    check('getQuote', result);
    expect(result.response.status).toBe(400);
    expect(result.error).toMatchObject({ code: 1011 });
    expect(result.error!.message).toMatch(/fromAmount/);
  });

  it('sends the key in x-svc-api-key', async () => {
    const result = await keyed.GET('/v1/keys/test');
    check('testApiKey', result);
    expect(result.data).toMatchObject({ valid: true, keyId: 'client-e2e' });
    expect(result.response.headers.get('x-request-id')).toBe('client-e2e');
    const without = await api.GET('/v1/keys/test');
    check('testApiKey', without);
    expect(without.response.status).toBe(401);
    expect(without.error).toMatchObject({ code: 1010 });
  });

  it('is typed by the contract', () => {
    // compile-time only (npm run typecheck): these must not type-check
    const typeChecks = (): void => {
      // @ts-expect-error not a path of the contract
      void api.GET('/v1/nothing');
      // @ts-expect-error token is required
      void api.GET('/v1/token', { params: { query: { chain: 'arb' } } });
      // @ts-expect-error chainTypes items are an enum
      void api.GET('/v1/chains', { params: { query: { chainTypes: ['NOPE'] } } });
      // @ts-expect-error fromAmount is a string
      void api.POST('/v1/advanced/routes', { body: { fromChainId: 1, toChainId: 1, fromTokenAddress: '0x0', toTokenAddress: '0x0', fromAmount: 1 } });
    };
    expect(typeof typeChecks).toBe('function');
  });

  it('refuses an API key in a browser page, and a base URL that is not absolute', () => {
    const global = globalThis as { document?: unknown };
    global.document = {};
    try {
      expect(() => createRoutingClient({ baseUrl: 'http://localhost:8080', apiKey: key })).toThrow(/server-side secrets/);
      expect(() => createRoutingClient({ baseUrl: 'http://localhost:8080' })).not.toThrow();
    } finally {
      delete global.document;
    }
    expect(() => createRoutingClient({ baseUrl: '/v1' })).toThrow(/absolute URL/);
  });
});

describe('typed client against the staging mock (Prism)', () => {
  let mock: Started | undefined;
  let api: RoutingClient;
  beforeAll(async () => {
    mock = await startPrism(['mock', OPENAPI_PATH, '--errors']);
    api = createRoutingClient({ baseUrl: mock.url, apiKey: 'any-key-for-the-mock' });
  });
  afterAll(async () => {
    if (mock) await stopProcess(mock.child);
  });

  it('reads the documented examples', async () => {
    const chains = await api.GET('/v1/chains');
    check('getChains', chains);
    expect(chains.data!.chains.length).toBeGreaterThan(0);
    const token = await api.GET('/v1/token', { params: { query: { chain: 'arb', token: 'USDC' } } });
    check('getToken', token);
    expect(token.data).toMatchObject({ chainId: 42161, symbol: 'USDC' });
    const keyTest = await api.GET('/v1/keys/test');
    check('testApiKey', keyTest);
    expect(keyTest.data!.valid).toBe(true);
  });

  it('gets a quote and a 400 for a request that breaks the contract', async () => {
    const query = { fromChain: 'arb', toChain: 'opt', fromToken: 'USDC', toToken: 'USDC', fromAmount: '1000000', fromAddress: WALLET };
    const quote = await api.GET('/v1/quote', { params: { query } });
    check('getQuote', quote);
    expect(quote.data!.estimate.toAmount).toEqual(expect.any(String));
    const bad = await api.GET('/v1/quote', { params: { query: { ...query, fee: 1 } } });
    check('getQuote', bad);
    expect(bad.response.status).toBe(400);
    expect(bad.error).toMatchObject({ code: 1011 });
  });
});
