/**
 * What the service does with parameters it does not know (docs/integrating.md, "Parameters the service does not know"):
 * ignored and named in x-ignored-parameters; declared ones strict; a misspelt required one is a 400 naming both.
 */
import request from 'supertest';
import { useAppAndContract } from '../support/app';
import { ARB_USDC, NATIVE, WALLET, routesRequest } from '../support/fixtures';

const QUOTE = `/v1/quote?fromChain=arb&toChain=opt&fromToken=USDC&toToken=USDC&fromAmount=1000000000&fromAddress=${WALLET}`;
const ROUTES = routesRequest(8453, NATIVE, 42161, ARB_USDC, '1000000000000000000');

const { t, contract } = useAppAndContract();

describe('an unknown query parameter', () => {
  it('is ignored: the same answer as without it, and named in x-ignored-parameters', async () => {
    const plain = await request(t.app).get(QUOTE);
    const extra = await request(t.app).get(`${QUOTE}&someFutureOption=1&other%C3%A9=x`);
    contract.expectResponse('getQuote', extra);
    expect(extra.status).toBe(200);
    expect(extra.body).toEqual(plain.body);
    expect(extra.headers['x-ignored-parameters']).toBe('someFutureOption, other%C3%A9');
    expect(plain.headers['x-ignored-parameters']).toBeUndefined();
    // answered again from the response cache: the header comes with it
    const again = await request(t.app).get(`${QUOTE}&someFutureOption=1&other%C3%A9=x`);
    expect(again.headers['x-ignored-parameters']).toBe('someFutureOption, other%C3%A9');
  });

  it('does not hide a bad value of a declared one', async () => {
    const res = await request(t.app).get(`${QUOTE}&slippage=2&futureOption=1`);
    contract.expectResponse('getQuote', res);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/slippage must be <= 1/);
  });

  it('that misspells a required one: 400 naming the required one and the misspelling', async () => {
    const res = await request(t.app).get(QUOTE.replace('fromAmount=', 'fromAmout='));
    contract.expectResponse('getQuote', res);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(1011);
    expect(res.body.errors.issues).toEqual([expect.objectContaining({ in: 'query', name: 'fromAmount', rule: 'required' })]);
    expect(res.body.message).toMatch(/query parameter fromAmount is required \(fromAmout was sent instead/);
    const swapped = await request(t.app).get('/v1/token?chian=arb&token=USDC');
    expect(swapped.body.message).toMatch(/chain is required \(chian was sent instead/);
    // a name far from any required one gets no guess
    const far = await request(t.app).get('/v1/token?blockchain=arb&token=USDC');
    expect(far.body.message).toBe('Invalid request: query parameter chain is required');
  });

  it('is counted in the header at most twenty by name', async () => {
    const names = Array.from({ length: 25 }, (_, i) => `p${i}=1`).join('&');
    const res = await request(t.app).get(`/v1/chains?${names}`);
    expect(res.status).toBe(200);
    const header = String(res.headers['x-ignored-parameters']).split(', ');
    expect(header).toHaveLength(21);
    expect(header[20]).toBe('(5 more)');
  });
});

describe('an unknown body field', () => {
  it('is ignored at any depth and named as a JSON pointer', async () => {
    const plain = await request(t.app).post('/v1/advanced/routes').send(ROUTES);
    const extra = await request(t.app)
      .post('/v1/advanced/routes')
      .send({ ...ROUTES, futureField: true, options: { futureOption: 'x', bridges: { allow: ['across', 'cctp', 'stargate', 'relay'], later: 1 } } });
    contract.expectResponse('postRoutes', extra);
    expect(extra.status).toBe(200);
    expect(extra.headers['x-ignored-parameters']).toBe('/futureField, /options/futureOption, /options/bridges/later');
    expect(extra.body.routes.length).toBeGreaterThan(0);
    expect(plain.body.routes.length).toBeGreaterThan(0);
  });

  it('that misspells a required one: 400 naming both', async () => {
    const { fromAmount, ...rest } = ROUTES;
    const res = await request(t.app).post('/v1/advanced/routes').send({ ...rest, fromAmmount: fromAmount });
    contract.expectResponse('postRoutes', res);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/body field \/fromAmount is required \(\/fromAmmount was sent instead/);
  });

  it("the ecosystem's route options are accepted, and executionType=message finds no route, saying why", async () => {
    const all = await request(t.app).post('/v1/advanced/routes').send({ ...ROUTES, options: { executionType: 'all', jitoBundle: true, insurance: false, integrator: 'my-dapp' } });
    contract.expectResponse('postRoutes', all);
    expect(all.status).toBe(200);
    expect(all.headers['x-ignored-parameters']).toBeUndefined();
    expect(all.body.routes.length).toBeGreaterThan(0);
    const badType = await request(t.app).post('/v1/advanced/routes').send({ ...ROUTES, options: { executionType: 'signature' } });
    expect(badType.status).toBe(400);
    expect(badType.body.message).toMatch(/options\/executionType must be one of transaction, message, all/);
  });
});

describe('the SDK status poll', () => {
  it('is answered with fromAddress and transactionId, and taskId alone is NOT_FOUND', async () => {
    const hash = '0x0991f754c91240e76304af7d026bd597f23c9f9736ec7dafb4f9c7b2b2a17e7c';
    const res = await request(t.app).get(`/v1/status?txHash=${hash}&bridge=across&fromChain=1&toChain=42161&fromAddress=${WALLET}&transactionId=${hash}`);
    contract.expectResponse('getStatus', res);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('NOT_FOUND');
    expect(res.headers['x-ignored-parameters']).toBeUndefined();
    const task = await request(t.app).get('/v1/status?taskId=relay-task-1');
    contract.expectResponse('getStatus', task);
    expect(task.body).toEqual({ status: 'NOT_FOUND', substatusMessage: expect.stringMatching(/no relayer/) });
    const none = await request(t.app).get('/v1/status?bridge=across');
    contract.expectResponse('getStatus', none);
    expect(none.status).toBe(400);
    expect(none.body.errors.issues).toEqual([expect.objectContaining({ name: 'txHash', rule: 'required' })]);
  });
});
