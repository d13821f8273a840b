import request from 'supertest';
import { useAppAndContract } from '../support/app';
import { expectInvalidRequest } from '../support/contract';
import { WALLET } from '../support/fixtures';

const { t, contract } = useAppAndContract();

const quote = (query: Record<string, string>) => request(t.app).get('/v1/quote').query({ fromAddress: WALLET, ...query });

describe('GET /v1/quote', () => {
  it('swaps ETH to USDC on Ethereum with a complete estimate', async () => {
    const res = await quote({ fromChain: 'eth', toChain: 'eth', fromToken: 'ETH', toToken: 'USDC', fromAmount: '1000000000000000000' });
    contract.expectResponse('getQuote', res);
    expect(res.status).toBe(200);
    const step = res.body;
    expect(step.type).toBe('lifi');
    expect(step.includedSteps.every((s: { type: string }) => s.type === 'swap')).toBe(true);
    const { estimate } = step;
    const toAmount = BigInt(estimate.toAmount);
    // 1 ETH at the reference price of about 3250 USDC, less pool fees and impact.
    expect(Number(toAmount) / 1e6).toBeGreaterThan(3000);
    expect(Number(toAmount) / 1e6).toBeLessThan(3300);
    // Default slippage for a non-stable pair is 0.5 %: toAmountMin = floor(toAmount · 0.995).
    expect(BigInt(estimate.toAmountMin)).toBe((toAmount * 995_000n) / 1_000_000n);
    expect(estimate.gasCosts).toHaveLength(1);
    const gas = estimate.gasCosts[0];
    expect(BigInt(gas.amount)).toBe(BigInt(gas.estimate) * BigInt(gas.price));
    expect(BigInt(gas.limit)).toBe((BigInt(gas.estimate) * 125n + 99n) / 100n);
    expect(step.includedSteps[step.includedSteps.length - 1].action.toToken.symbol).toBe('USDC');
  });

  it('takes the integrator fee from fromAmount and reports it as an included fee', async () => {
    const res = await quote({ fromChain: 'arb', toChain: 'arb', fromToken: 'USDC', toToken: 'WETH', fromAmount: '1000000000', fee: '0.01', integrator: 'acme' });
    contract.expectResponse('getQuote', res);
    const [feeStep, firstSwap] = res.body.includedSteps;
    expect(feeStep).toMatchObject({ type: 'protocol', tool: 'feeCollection' });
    expect(feeStep.estimate.toAmount).toBe('990000000');
    expect(firstSwap.estimate.fromAmount).toBe('990000000');
    const fee = res.body.estimate.feeCosts.find((f: { name: string }) => f.name === 'Integrator fee');
    expect(fee).toMatchObject({ amount: '10000000', included: true, percentage: '0.01' });
    expect(res.body.integrator).toBe('acme');
  });

  it('bridges USDC from Arbitrum to Optimism and orders by FASTEST when asked', async () => {
    const cheapest = await quote({ fromChain: 'arb', toChain: 'opt', fromToken: 'USDC', toToken: 'USDC', fromAmount: '1000000000' });
    const fastest = await quote({ fromChain: 'arb', toChain: 'opt', fromToken: 'USDC', toToken: 'USDC', fromAmount: '1000000000', order: 'FASTEST' });
    contract.expectResponse('getQuote', cheapest);
    contract.expectResponse('getQuote', fastest);
    expect(cheapest.body.includedSteps.some((s: { type: string }) => s.type === 'cross')).toBe(true);
    expect(fastest.body.estimate.executionDuration).toBeLessThanOrEqual(cheapest.body.estimate.executionDuration);
    expect(BigInt(cheapest.body.estimate.toAmount)).toBeGreaterThanOrEqual(BigInt(fastest.body.estimate.toAmount));
    const bridgeFees = fastest.body.estimate.feeCosts.filter((f: { included: boolean }) => f.included);
    expect(bridgeFees.length).toBeGreaterThan(0);
  });

  it('gives the same answer to the same request', async () => {
    const query = { fromChain: 'bas', toChain: 'arb', fromToken: 'ETH', toToken: 'USDC', fromAmount: '500000000000000000' };
    const a = await quote(query);
    const b = await quote(query);
    expect(a.status).toBe(200);
    expect(b.body).toEqual(a.body);
  });

  it('keeps destination swaps out of the bridge transaction when allowDestinationCall=false', async () => {
    const res = await quote({ fromChain: 'bas', toChain: 'arb', fromToken: 'USDC', toToken: 'WETH', fromAmount: '100000000', allowDestinationCall: 'false' });
    contract.expectResponse('getQuote', res);
    expect(res.status).toBe(200);
    const steps = res.body.includedSteps as { type: string; action: { fromChainId: number } }[];
    const cross = steps.findIndex((s) => s.type === 'cross');
    expect(cross).toBeGreaterThanOrEqual(0);
    expect(steps.slice(cross + 1)).toEqual([]);
  });

  it('answers 404 code 1002 with the reason of every candidate when all bridges are denied', async () => {
    const res = await quote({ fromChain: 'arb', toChain: 'opt', fromToken: 'USDC', toToken: 'USDC', fromAmount: '1000000000', allowBridges: 'none' });
    contract.expectResponse('getQuote', res);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe(1002);
    expect(res.body.errors.filteredOut.length).toBeGreaterThan(0);
    expect(res.body.errors.filteredOut[0].reason).toMatch(/not in allowBridges/);
    expect(res.body.errors.filteredOutTotal).toBeGreaterThanOrEqual(res.body.errors.filteredOut.length);
  });

  it('filters routes above maxPriceImpact and says so', async () => {
    const res = await quote({ fromChain: 'eth', toChain: 'eth', fromToken: 'ETH', toToken: 'USDC', fromAmount: '5000000000000000000000' });
    contract.expectResponse('getQuote', res);
    expect(res.status).toBe(404);
    expect(res.body.errors.filteredOut[0].reason).toMatch(/price impact .* is above maxPriceImpact 10.00%/);
  });

  it('names the bridge minimum when the amount is too small', async () => {
    // Across' minimum is its relayer's gas on OP Mainnet (100,042 units); CCTP sets none and would carry the unit
    const res = await quote({ fromChain: 'arb', toChain: 'opt', fromToken: 'USDC', toToken: 'USDC', fromAmount: '1', allowBridges: 'across' });
    contract.expectResponse('getQuote', res);
    expect(res.status).toBe(404);
    const codes = res.body.errors.failed.flatMap((f: { subpaths: Record<string, { code: string }[]> }) => Object.values(f.subpaths).flat().map((e) => e.code));
    expect(codes).toContain('AMOUNT_TOO_LOW');
  });

  it.each([
    [{ fromAmount: '1.5' }, /fromAmount must match pattern/],
    [{ slippage: '2' }, /slippage must be <= 1/],
    [{ fee: '1' }, /fee must be < 1/],
    [{ order: 'SLOWEST' }, /order must be one of FASTEST, CHEAPEST/],
    [{ fromChain: 'nochain' }, /fromChain: "nochain" is not a supported chain/],
    [{ toToken: 'NOPE' }, /toToken "NOPE" is not a known token/],
    [{ allowBridges: 'teleporter' }, /allowBridges names unknown tool\(s\) teleporter/],
    [{ swapStepTimingStrategies: 'fast' }, /swapStepTimingStrategies/],
  ])('answers 400 naming the parameter for %o', async (patch, message) => {
    expectInvalidRequest(contract, 'getQuote', await quote({ fromChain: 'arb', toChain: 'opt', fromToken: 'USDC', toToken: 'USDC', fromAmount: '1000000', ...patch }), message);
  });
});

describe('GET /v1/quote/toAmount', () => {
  it('finds the fromAmount that delivers at least the requested amount', async () => {
    const res = await request(t.app).get('/v1/quote/toAmount').query({ fromChain: 'eth', toChain: 'eth', fromToken: 'ETH', toToken: 'USDC', toAmount: '1000000000', fromAddress: WALLET });
    contract.expectResponse('getQuoteToAmount', res);
    expect(res.status).toBe(200);
    expect(BigInt(res.body.estimate.toAmount)).toBeGreaterThanOrEqual(1_000_000_000n);
    // About 1000 / 3250 ETH.
    expect(Number(BigInt(res.body.estimate.fromAmount)) / 1e18).toBeGreaterThan(0.3);
    expect(Number(BigInt(res.body.estimate.fromAmount)) / 1e18).toBeLessThan(0.32);
  });

  it('works across chains', async () => {
    const res = await request(t.app).get('/v1/quote/toAmount').query({ fromChain: 'arb', toChain: 'opt', fromToken: 'USDC', toToken: 'USDC', toAmount: '500000000', fromAddress: WALLET });
    contract.expectResponse('getQuoteToAmount', res);
    expect(BigInt(res.body.estimate.toAmount)).toBeGreaterThanOrEqual(500_000_000n);
    expect(BigInt(res.body.estimate.fromAmount)).toBeGreaterThanOrEqual(500_000_000n);
  });
});

describe('GET /v1/quote/toAmount beyond every bridge', () => {
  it('answers 404 with each bridge\'s refusal in the units of the token it names, never a route in another token', async () => {
    // 20,000,000 USDC to Base: more than any bridge carries (cctp 10,000,000 USDC a burn); a shape through DAI whose
    // bridge refused the probe has no destination swap and was once walked back as if DAI were USDC (a 200 in DAI)
    const res = await request(t.app).get('/v1/quote/toAmount').query({ fromChain: 'arb', toChain: 'bas', fromToken: 'USDC', toToken: 'USDC', toAmount: '20000000000000', fromAddress: WALLET });
    contract.expectResponse('getQuoteToAmount', res);
    expect(res.status).toBe(404);
    const messages = (res.body.errors.failed as { subpaths: Record<string, { message: string }[]> }[]).flatMap((f) => Object.values(f.subpaths).flat().map((e) => e.message));
    expect(messages).toContain('cctp cannot deliver 20000000000000 units of USDC (20000000 USDC): the amount it would carry is AMOUNT_TOO_HIGH (limit 10000000000000 units of USDC (10000000 USDC))');
    expect(messages.filter((m) => / units of DAI /.test(m)).every((m) => /^\w+ cannot carry \d+ units of DAI \([\d.]+ DAI\): AMOUNT_TOO_HIGH \(limit \d+ units of DAI/.test(m))).toBe(true);
  });
});

describe('POST /v1/advanced/routes', () => {
  const body = { fromChainId: 8453, toChainId: 42161, fromTokenAddress: '0x0000000000000000000000000000000000000000', toTokenAddress: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831', fromAmount: '1000000000000000000' };

  it('returns several tagged routes, best first, with the reasons for those left out', async () => {
    const res = await request(t.app).post('/v1/advanced/routes').send(body);
    contract.expectResponse('postRoutes', res);
    expect(res.status).toBe(200);
    expect(res.body.routes.length).toBeGreaterThan(1);
    expect(res.body.routes[0].tags).toContain('RECOMMENDED');
    const tags = res.body.routes.flatMap((r: { tags: string[] }) => r.tags);
    expect(tags).toEqual(expect.arrayContaining(['CHEAPEST', 'FASTEST']));
    expect(res.body.unavailableRoutes).toHaveProperty('failed');
  });

  it('offers a two-transaction route with allowSwitchChain when destination calls are not allowed', async () => {
    const res = await request(t.app).post('/v1/advanced/routes').send({
      ...body, toTokenAddress: '0x82aF49447D8a07e3bd95BD0d56f35241523fBab1', fromTokenAddress: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', fromAmount: '100000000',
      options: { allowDestinationCall: false, allowSwitchChain: true },
    });
    contract.expectResponse('postRoutes', res);
    const switching = res.body.routes.filter((r: { containsSwitchChain: boolean }) => r.containsSwitchChain);
    expect(switching.length).toBeGreaterThan(0);
    expect(switching[0].steps).toHaveLength(2);
    expect(switching[0].steps[1].action.fromChainId).toBe(42161);
  });

  it('answers 400 naming a body field that breaks the contract', async () => {
    const res = await request(t.app).post('/v1/advanced/routes').send({ ...body, fromAmount: 'lots' });
    contract.expectResponse('postRoutes', res);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/body field \/fromAmount must match pattern/);
  });
});
