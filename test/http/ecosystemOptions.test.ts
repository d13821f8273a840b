/**
 * The ecosystem's request options that mean something here are honoured (denyPools, executionType, gasless,
 * preset on routes, the deprecated contractCall's tool lists), and those that ask for what no tool here does
 * are refused (destination actions); values its request types allow are accepted (empty lists, every `order`,
 * the `STL` chain type) — each answer validated against the contract.
 */
import request from 'supertest';
import { useAppAndContract } from '../support/app';
import { ETH_USDC, ETH_WETH, WALLET, routesRequest } from '../support/fixtures';

const SWAP = `/v1/quote?fromChain=eth&toChain=eth&fromToken=USDC&toToken=WETH&fromAmount=1000000000&fromAddress=${WALLET}`;
const ROUTES = routesRequest(1, ETH_USDC, 1, ETH_WETH, '1000000000');

type Step = { tool: string; estimate: { toAmount: string; data?: { pool?: string } } };
const poolsOf = (steps: Step[]): string[] => steps.flatMap((s) => (s.estimate.data?.pool ? [s.estimate.data.pool.toLowerCase()] : []));

const { t, contract } = useAppAndContract();

describe('denyPools', () => {
  it('keeps the denied pool out of the quote, which then takes another path', async () => {
    const best = await request(t.app).get(SWAP);
    contract.expectResponse('getQuote', best);
    const pool = poolsOf(best.body.includedSteps)[0];
    expect(pool).toMatch(/^0x[0-9a-f]{40}$/);
    const denied = await request(t.app).get(`${SWAP}&denyPools=${pool.toUpperCase().replace('0X', '0x')}`);
    contract.expectResponse('getQuote', denied);
    expect(denied.status).toBe(200);
    expect(poolsOf(denied.body.includedSteps)).not.toContain(pool);
    // the best path was the best: without it the output is not larger
    expect(BigInt(denied.body.estimate.toAmount)).toBeLessThanOrEqual(BigInt(best.body.estimate.toAmount));
  });

  it('in the routes body (options.pools.deny), for every route returned', async () => {
    const best = await request(t.app).post('/v1/advanced/routes').send(ROUTES);
    const pool = poolsOf(best.body.routes[0].steps[0].includedSteps)[0];
    const denied = await request(t.app).post('/v1/advanced/routes').send({ ...ROUTES, options: { pools: { deny: [pool] } } });
    contract.expectResponse('postRoutes', denied);
    expect(denied.status).toBe(200);
    for (const route of denied.body.routes) for (const step of route.steps) expect(poolsOf(step.includedSteps)).not.toContain(pool);
  });

  it('a Uniswap V4 pool id denies nothing here (no V4 pools), a malformed one is a 400', async () => {
    const v4 = `0x${'11'.repeat(20)}-0x${'22'.repeat(32)}`;
    const res = await request(t.app).get(`${SWAP}&denyPools=${v4}`);
    expect(res.status).toBe(200);
    const bad = await request(t.app).get(`${SWAP}&denyPools=0x1234`);
    contract.expectResponse('getQuote', bad);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/denyPools/);
  });
});

describe('executionType and gasless', () => {
  it('transaction and all are the same answer; message and gasless find no route and say why', async () => {
    const plain = await request(t.app).get(SWAP);
    for (const type of ['transaction', 'all']) {
      const res = await request(t.app).get(`${SWAP}&executionType=${type}`);
      expect(res.body).toEqual(plain.body);
    }
    const message = await request(t.app).get(`${SWAP}&executionType=message`);
    contract.expectResponse('getQuote', message);
    expect(message.status).toBe(404);
    expect(message.body.code).toBe(1002);
    expect(message.body.message).toMatch(/executionType=message .* every route of this service is executed by a transaction/);
    const gasless = await request(t.app).post('/v1/advanced/routes').send({ ...ROUTES, options: { gasless: true } });
    contract.expectResponse('postRoutes', gasless);
    expect(gasless.status).toBe(404);
    expect(gasless.body.message).toMatch(/gasless=true/);
  });
});

describe('destination actions', () => {
  it('are refused with 400 naming the parameter, in the query and in route options', async () => {
    const query = await request(t.app).get(`${SWAP}&destinationActionKind=deposit&destinationActionVault=${WALLET}`);
    contract.expectResponse('getQuote', query);
    expect(query.status).toBe(400);
    expect(query.body.errors.issues[0]).toMatchObject({ name: 'destinationActionKind', rule: 'unsupported' });
    const body = await request(t.app).post('/v1/advanced/routes').send({ ...ROUTES, options: { destinationAction: { kind: 'deposit', vault: WALLET } } });
    contract.expectResponse('postRoutes', body);
    expect(body.status).toBe(400);
    expect(body.body.message).toMatch(/Smart Deposits/);
  });
});

describe('accepted without effect', () => {
  it('the Solana, fee-split and insurance options change nothing in the answer', async () => {
    const plain = await request(t.app).get(SWAP);
    const extra = await request(t.app).get(
      `${SWAP}&intermediary=partner&disableFees=true&jitoBundle=true&svmSponsor=${WALLET}&insurance=false&allowProtocols=all&denyProtocols=none` +
        `&distributionFees[0][percentage]=0.001&distributionFees[0][receiver]=${WALLET}`,
    );
    contract.expectResponse('getQuote', extra);
    expect(extra.headers['x-ignored-parameters']).toBeUndefined();
    expect(extra.body).toEqual(plain.body);
  });

  it('distributionFees in the indexed form is validated like any declared parameter', async () => {
    const res = await request(t.app).get(`${SWAP}&distributionFees[0][percentage]=1.5&distributionFees[0][receiver]=nope`);
    contract.expectResponse('getQuote', res);
    expect(res.status).toBe(400);
    const names = res.body.errors.issues.map((i: { name: string }) => i.name);
    expect(names).toEqual(expect.arrayContaining(['distributionFees.0.percentage', 'distributionFees.0.receiver']));
  });
});

describe('preset in the routes options', () => {
  it('applies as on /v1/quote: the stablecoin slippage', async () => {
    const body = { ...ROUTES, toTokenAddress: '0xdAC17F958D2ee523a2206206994597C13D831ec7', options: { preset: 'stablecoin' } };
    const res = await request(t.app).post('/v1/advanced/routes').send(body);
    contract.expectResponse('postRoutes', res);
    expect(res.status).toBe(200);
    expect(res.body.routes[0].steps[0].action.slippage).toBe(0.0005);
    const unknown = await request(t.app).post('/v1/advanced/routes').send({ ...body, options: { preset: 'volatile' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/preset "volatile" is unknown/);
  });
});

describe("values the ecosystem's request types allow (the bounds test/unit/contract/ecosystemRequests.test.ts compares)", () => {
  const CROSS = `/v1/quote?fromChain=arb&toChain=opt&fromToken=USDC&toToken=USDC&fromAmount=1000000000&fromAddress=${WALLET}`;
  const LISTS = ['allowBridges', 'denyBridges', 'preferBridges', 'allowExchanges', 'denyExchanges', 'preferExchanges', 'allowProtocols', 'denyProtocols', 'denyPools', 'swapStepTimingStrategies', 'routeTimingStrategies'];

  it('an empty list parameter (`allowBridges=`, as the SDK writes []) restricts nothing: the answer without it', async () => {
    const plain = await request(t.app).get(CROSS);
    const empty = await request(t.app).get(`${CROSS}&${LISTS.map((name) => `${name}=`).join('&')}`);
    contract.expectResponse('getQuote', empty);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual(plain.body);
    for (const [path, operationId, lists] of [['/v1/tokens', 'getTokens', 'chains=&tags=&chainTypes='], ['/v1/chains', 'getChains', 'chainTypes='], ['/v1/tools', 'getTools', 'chains='], ['/v1/connections?fromChain=arb', 'getConnections', 'chainTypes=&allowBridges=&denyExchanges=']]) {
      const res = await request(t.app).get(`${path}${path.includes('?') ? '&' : '?'}${lists}`);
      contract.expectResponse(operationId, res);
      expect(res.status).toBe(200);
      expect(res.body).toEqual((await request(t.app).get(path)).body);
    }
    // one empty item is still a malformed list
    const bad = await request(t.app).get('/v1/tokens?chains=,');
    contract.expectResponse('getTokens', bad);
    expect(bad.status).toBe(400);
  });

  it('empty lists in the routes options restrict nothing', async () => {
    const plain = await request(t.app).post('/v1/advanced/routes').send(ROUTES);
    const none = { allow: [], deny: [], prefer: [] };
    const empty = await request(t.app).post('/v1/advanced/routes').send({ ...ROUTES, options: { bridges: none, exchanges: none, protocols: none, pools: { deny: [] } } });
    contract.expectResponse('postRoutes', empty);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual(plain.body);
  });

  it('order RECOMMENDED and SAFEST rank as the default, CHEAPEST (no safety score of tools here)', async () => {
    const cheapest = await request(t.app).get(`${CROSS}&order=CHEAPEST`);
    const routes = await request(t.app).post('/v1/advanced/routes').send({ ...ROUTES, options: { order: 'CHEAPEST' } });
    for (const order of ['RECOMMENDED', 'SAFEST']) {
      const res = await request(t.app).get(`${CROSS}&order=${order}`);
      contract.expectResponse('getQuote', res);
      expect(res.body).toEqual(cheapest.body);
      const exact = await request(t.app).get(`${CROSS.replace('/v1/quote?', '/v1/quote/toAmount?').replace('fromAmount', 'toAmount')}&order=${order}`);
      contract.expectResponse('getQuoteToAmount', exact);
      expect(exact.status).toBe(200);
      const body = await request(t.app).post('/v1/advanced/routes').send({ ...ROUTES, options: { order } });
      contract.expectResponse('postRoutes', body);
      expect(body.body).toEqual(routes.body);
    }
  });

  it('chainTypes STL (Stellar) matches no chain here', async () => {
    const stellar = await request(t.app).get('/v1/chains?chainTypes=STL');
    contract.expectResponse('getChains', stellar);
    expect(stellar.body).toEqual({ chains: [] });
    const every = await request(t.app).get('/v1/chains?chainTypes=EVM,SVM,UTXO,MVM,TVM,STL');
    contract.expectResponse('getChains', every);
    expect(every.body).toEqual((await request(t.app).get('/v1/chains')).body);
    const tokens = await request(t.app).get('/v1/tokens?chainTypes=STL');
    contract.expectResponse('getTokens', tokens);
    expect(tokens.body).toEqual({ tokens: {} });
  });
});
