/**
 * Transactions through the real app: every quote step carries a transactionRequest calling the router, and
 * GET /v1/calldata/parse of its data gives back the route (tools, tokens, amounts, receiver, minimum) for
 * every route kind the core produces: same chain per pool kind, bridge only, swap + bridge + swap, exact
 * output, integrator fee, gas refuel, native fees, non-EVM chains. POST /v1/advanced/stepTransaction
 * re-prices route steps. Every response is validated against the contract.
 */
import { base58 } from '@scure/base';
import { hexlify } from 'ethers';
import request from 'supertest';
import { useAppAndContract } from '../support/app';
import { expectInvalidRequest } from '../support/contract';
import { CallDataParser } from '../../src/core/transactions/parse';
import { ARB_USDC, ARB_USDT, ARB_WETH, BASE_USDC, ETH_USDC, ETH_USDT, FEE_COLLECTOR, NATIVE as ZERO, OP_USDC, ROUTER, WALLET, routesRequest } from '../support/fixtures';
import { hex, sameAddress as same, type Json, type ParsedCall } from '../support/wire';

const OTHER = '0x9b2a3d1B4F3a9e6C7d8E0f1A2b3C4d5E6f7A8b9C';
const SOLANA_WALLET = '7v91N7iZ9mNicL8WfG6cgSCKyRXydQjLh6UYBWwm6y1Q';
const NON_EVM_ADDRESS = '0x11f111f111f111F111f111f111F111f111f111F1';

const { t, contract } = useAppAndContract();

/** toAmountMin's rule: floor(amount · (1 − slippage)), slippage in ppm. */
const floorSlippage = (amount: bigint, slippage: number) => (amount * (1_000_000n - BigInt(Math.round(slippage * 1e6)))) / 1_000_000n;

async function quote(query: Record<string, string>, path = '/v1/quote'): Promise<Json> {
  const res = await request(t.app).get(path).query({ fromAddress: WALLET, ...query });
  contract.expectResponse(path === '/v1/quote' ? 'getQuote' : 'getQuoteToAmount', res);
  expect(res.status).toBe(200);
  return res.body;
}

/** The server refuses URLs over 8 KB (414); longer call data (a gas refuel's nested leg) is parsed by the same parser directly. */
const MAX_HTTP_CALL_DATA = 3_800;
const parser = new CallDataParser(['across', 'allbridge', 'cctp', 'debridge', 'mayan', 'relay', 'stargate']);

async function parse(callData: string, chainId?: number): Promise<ParsedCall[]> {
  if (callData.length > MAX_HTTP_CALL_DATA * 2) return JSON.parse(JSON.stringify(parser.parse(callData)));
  const res = await request(t.app).get('/v1/calldata/parse').query({ callData, ...(chainId ? { chainId: String(chainId) } : {}) });
  contract.expectResponse('parseCallData', res);
  expect(res.status).toBe(200);
  return res.body;
}

/** A SwapData's nested call (parsed) by function name. */
function nested(swap: Json): ParsedCall {
  expect(Array.isArray(swap.callData)).toBe(true);
  return swap.callData[0];
}

/** The decoded V3 path: token, fee, token. */
function v3Path(path: string): { tokenIn: string; fee: number; tokenOut: string } {
  const h = path.slice(2);
  expect(h).toHaveLength(86);
  return { tokenIn: `0x${h.slice(0, 40)}`, fee: parseInt(h.slice(40, 46), 16), tokenOut: `0x${h.slice(46)}` };
}

/** Checks a SwapData against the included step it encodes. */
function expectSwapMatches(swap: Json, step: Json, router: string, slippage: number): void {
  const { action, estimate } = step;
  expect(swap.fromAmount).toBe(action.fromAmount);
  if (step.type === 'protocol') {
    expect(step.tool).toBe('feeCollection');
    expect(swap.callTo).toBe(FEE_COLLECTOR);
    const call = nested(swap);
    const fee = (BigInt(estimate.fromAmount) - BigInt(estimate.toAmount)).toString();
    if (same(action.fromToken.address, ZERO)) expect(call).toMatchObject({ functionName: 'collectNativeFees', functionParameters: { integratorFee: fee, serviceFee: '0' } });
    else expect(call).toMatchObject({ functionName: 'collectTokenFees', functionParameters: { token: action.fromToken.address, integratorFee: fee, serviceFee: '0' } });
    return;
  }
  expect(step.type).toBe('swap');
  expect(same(swap.sendingAssetId, action.fromToken.address)).toBe(true);
  expect(same(swap.receivingAssetId, action.toToken.address)).toBe(true);
  const call = nested(swap);
  const minOut = floorSlippage(BigInt(estimate.toAmount), slippage).toString();
  if (step.tool === 'wrapper') {
    if (same(action.fromToken.address, ZERO)) {
      expect(call).toEqual({ functionName: 'deposit', functionParameters: {} });
      expect(same(swap.callTo, action.toToken.address)).toBe(true);
    } else {
      expect(call).toEqual({ functionName: 'withdraw', functionParameters: { amount: action.fromAmount } });
      expect(same(swap.callTo, action.fromToken.address)).toBe(true);
    }
    return;
  }
  const { poolKind, pool } = estimate.data;
  const exchangeRouter = (kind: 'constantProduct' | 'concentrated') => t.dependencies.routers.exchangeRouter(step.tool, kind)!.address;
  switch (poolKind) {
    case 'constantProduct':
      expect(swap.callTo).toBe(exchangeRouter('constantProduct'));
      expect(call.functionName).toBe('swapExactTokensForTokens');
      expect(call.functionParameters).toMatchObject({ amountIn: action.fromAmount, amountOutMin: minOut, to: router, deadline: '4102444800' });
      expect(call.functionParameters.path.map((a: string) => a.toLowerCase())).toEqual([action.fromToken.address.toLowerCase(), action.toToken.address.toLowerCase()]);
      break;
    case 'concentrated': {
      expect(swap.callTo).toBe(exchangeRouter('concentrated'));
      expect(call.functionName).toBe('exactInput');
      expect(call.functionParameters.params).toMatchObject({ amountIn: action.fromAmount, amountOutMinimum: minOut, recipient: router });
      const path = v3Path(call.functionParameters.params.path);
      expect(same(path.tokenIn, action.fromToken.address) && same(path.tokenOut, action.toToken.address)).toBe(true);
      expect([100, 500, 3000, 10000]).toContain(path.fee);
      break;
    }
    case 'stableswap':
      expect(swap.callTo).toBe(pool);
      expect(call.functionName).toBe('exchange');
      expect(call.functionParameters).toMatchObject({ dx: action.fromAmount, min_dy: minOut });
      expect(call.functionParameters.i).not.toBe(call.functionParameters.j);
      break;
    default:
      throw new Error(`unexpected pool kind ${poolKind}`);
  }
  expect(swap.approveTo).toBe(swap.callTo);
}

/**
 * Checks a Step with its transactionRequest against the parse of its data: router, value, gas, the
 * transactionId, receiver, minimum, and every included step in order (fee, swaps, bridge, destination swaps,
 * refuel leg). Returns the parsed call.
 */
async function expectRoundTrip(step: Json): Promise<ParsedCall> {
  const { transactionRequest: tx, action, estimate } = step;
  expect(tx).toBeDefined();
  expect(tx.to).toBe(ROUTER);
  expect(tx.chainId).toBe(action.fromChainId);
  expect(same(tx.from, action.fromAddress)).toBe(true);
  expect(tx.gasLimit).toBe(hex(estimate.gasCosts[0].limit));
  expect(tx.gasPrice).toBe(hex(estimate.gasCosts[0].price));
  const nativeIn = same(action.fromToken.address, ZERO);
  const feesOnTop = estimate.feeCosts
    .filter((f: Json) => !f.included && same(f.token.address, ZERO) && f.token.chainId === action.fromChainId)
    .reduce((s: bigint, f: Json) => s + BigInt(f.amount), 0n);
  expect(tx.value).toBe(hex((nativeIn ? BigInt(action.fromAmount) : 0n) + feesOnTop));
  expect(estimate.approvalAddress).toBe(nativeIn ? ZERO : ROUTER);

  const [call] = await parse(tx.data, action.fromChainId);
  const p = call.functionParameters;
  const receiver = action.toAddress ?? action.fromAddress;
  const transactionId = `0x${step.id.replace(/-/g, '')}${'0'.repeat(32)}`;
  const steps: Json[] = step.includedSteps;
  const crossAt = steps.findIndex((s) => s.type === 'cross');
  let mainSteps = steps;
  let refuelSteps: Json[] = [];
  if (estimate.data?.gasRefuel) {
    let end = crossAt + 1;
    while (end < steps.length && steps[end].type === 'swap' && steps[end].action.fromChainId !== action.fromChainId) end += 1;
    mainSteps = steps.slice(0, end);
    refuelSteps = steps.slice(end);
    expect(refuelSteps.length).toBeGreaterThan(0);
  }

  if (crossAt < 0) {
    expect(call.functionName).toBe('swapTokensGeneric');
    expect(p.transactionId).toBe(transactionId);
    expect(same(p.receiver, receiver)).toBe(true);
    expect(p.minAmountOut).toBe(estimate.toAmountMin);
    expect(p.integrator).toBe(step.integrator ?? '');
    expect(p.swapData).toHaveLength(mainSteps.length);
    p.swapData.forEach((swap: Json, k: number) => {
      expectSwapMatches(swap, mainSteps[k], ROUTER, action.slippage);
      expect(swap.requiresDeposit).toBe(k === 0);
    });
    return call;
  }

  const cross = steps[crossAt];
  const sourceSteps = mainSteps.slice(0, crossAt);
  const destinationSteps = mainSteps.slice(crossAt + 1);
  const swapData: Json[] = p.swapData ?? [];
  const sideCalls = refuelSteps.length > 0 ? 1 : 0;
  expect(call.functionName).toBe(`${swapData.length > 0 ? 'swapAndStartBridgeTokensVia' : 'startBridgeTokensVia'}${bridgeFacet(cross.tool)}`);
  expect(swapData).toHaveLength(sourceSteps.length + sideCalls);
  sourceSteps.forEach((s, k) => expectSwapMatches(swapData[k], s, ROUTER, action.slippage));
  const { bridgeData, data } = p;
  const toEvm = action.toChainId < 1_000_000_000;
  expect(bridgeData).toMatchObject({
    transactionId,
    bridge: cross.tool,
    integrator: step.integrator ?? '',
    destinationChainId: String(action.toChainId),
    hasSourceSwaps: sourceSteps.length > 0,
    hasDestinationCall: destinationSteps.length > 0,
  });
  expect(same(bridgeData.sendingAssetId, cross.action.fromToken.address)).toBe(true);
  expect(same(bridgeData.receiver, toEvm ? receiver : NON_EVM_ADDRESS)).toBe(true);
  const swapped = sourceSteps.some((s) => s.type === 'swap' && s.tool !== 'wrapper');
  expect(bridgeData.minAmount).toBe(swapped ? floorSlippage(BigInt(cross.action.fromAmount), action.slippage).toString() : cross.action.fromAmount);
  // the guaranteed minimum on the destination is the step's toAmountMin
  expect(data.destinationMinAmount).toBe(estimate.toAmountMin);
  if (destinationSteps.length === 0) {
    expect(data.destinationCallData).toBe('0x');
    expect(same(data.receiverOnDestination, toEvm ? receiver : NON_EVM_ADDRESS)).toBe(true);
  } else {
    expect(data.receiverOnDestination).toBe(ROUTER);
    const [destination] = data.destinationCallData as ParsedCall[];
    expect(destination.functionName).toBe('swapAndCompleteBridgeTokens');
    expect(destination.functionParameters).toMatchObject({ transactionId, minAmountOut: estimate.toAmountMin });
    expect(same(destination.functionParameters.receiver, receiver)).toBe(true);
    expect(same(destination.functionParameters.transferredAssetId, cross.action.toToken.address)).toBe(true);
    expect(destination.functionParameters.swapData).toHaveLength(destinationSteps.length);
    destinationSteps.forEach((s, k) => {
      expectSwapMatches(destination.functionParameters.swapData[k], s, ROUTER, action.slippage);
      expect(destination.functionParameters.swapData[k].requiresDeposit).toBe(false);
    });
  }
  if (refuelSteps.length > 0) {
    const refuel = swapData[swapData.length - 1];
    expect(refuel).toMatchObject({ callTo: ROUTER, fromAmount: estimate.data.gasRefuel.fromAmount, requiresDeposit: true });
    const [leg] = refuel.callData as ParsedCall[];
    const refuelCross = refuelSteps.find((s) => s.type === 'cross');
    expect(leg.functionName).toMatch(new RegExp(`BridgeTokensVia${bridgeFacet(refuelCross.tool)}$`));
    expect(leg.functionParameters.bridgeData).toMatchObject({ transactionId, bridge: refuelCross.tool });
    const minGas = floorSlippage(BigInt(estimate.data.gasRefuel.toAmount), action.slippage).toString();
    expect(estimate.data.gasRefuel.toAmountMin).toBe(minGas);
    expect(leg.functionParameters.data.destinationMinAmount).toBe(minGas);
  }
  return call;
}

function bridgeFacet(tool: string): string {
  const names: Record<string, string> = { cctp: 'CCTP', across: 'Across', relay: 'Relay', stargate: 'Stargate', mayan: 'Mayan', allbridge: 'Allbridge', debridge: 'DeBridge' };
  return names[tool] ?? tool[0].toUpperCase() + tool.slice(1);
}

const kinds = (step: Json) => step.includedSteps.map((s: Json) => (s.type === 'swap' ? `${s.tool}:${s.estimate.data?.poolKind ?? 'wrap'}` : `${s.type}:${s.tool}`));

describe('quotes carry a transactionRequest that parses back into the route', () => {
  it('same chain, constant-product pools only (V2 router swapExactTokensForTokens)', async () => {
    const step = await quote({ fromChain: 'ava', toChain: 'ava', fromToken: 'USDC', toToken: 'WAVAX', fromAmount: '1000000000', allowExchanges: 'pangolin' });
    expect(kinds(step)).toEqual(['pangolin:constantProduct']);
    await expectRoundTrip(step);
  });

  it('same chain from the native coin: wrap (deposit) then a concentrated pool (V3 router exactInput), value = fromAmount', async () => {
    const step = await quote({ fromChain: 'eth', toChain: 'eth', fromToken: 'ETH', toToken: 'USDC', fromAmount: '1000000000000000000' });
    expect(kinds(step)).toContain('wrapper:wrap');
    expect(kinds(step).some((k: string) => k.endsWith(':concentrated'))).toBe(true);
    expect(step.transactionRequest.value).toBe(hex(10n ** 18n));
    await expectRoundTrip(step);
  });

  it('same chain through a Curve stable pool (exchange(int128,int128,uint256,uint256) on the pool)', async () => {
    const step = await quote({ fromChain: 'eth', toChain: 'eth', fromToken: 'USDC', toToken: 'USDT', fromAmount: '1000000000', allowExchanges: 'curve' });
    expect(kinds(step)).toEqual(['curve:stableswap']);
    await expectRoundTrip(step);
  });

  it('same chain with an integrator fee: collectTokenFees first, under the integrator\'s fee account', async () => {
    const step = await quote({ fromChain: 'arb', toChain: 'arb', fromToken: 'USDC', toToken: 'WETH', fromAmount: '1000000000', fee: '0.01', integrator: 'acme' });
    const call = await expectRoundTrip(step);
    const fee = nested(call.functionParameters.swapData[0]);
    expect(fee.functionParameters.integratorFee).toBe('10000000');
    expect(fee.functionParameters.integrator).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(call.functionParameters.integrator).toBe('acme');
  });

  it('same chain to another receiver', async () => {
    const step = await quote({ fromChain: 'eth', toChain: 'eth', fromToken: 'USDC', toToken: 'USDT', fromAmount: '1000000000', allowExchanges: 'curve', toAddress: OTHER });
    const call = await expectRoundTrip(step);
    expect(same(call.functionParameters.receiver, OTHER)).toBe(true);
  });

  it('bridge only: startBridgeTokensVia<Bridge>, minAmount = the bridged amount', async () => {
    const step = await quote({ fromChain: 'arb', toChain: 'opt', fromToken: 'USDC', toToken: 'USDC', fromAmount: '1000000000' });
    expect(kinds(step)).toEqual([expect.stringMatching(/^cross:/)]);
    const call = await expectRoundTrip(step);
    expect(call.functionParameters.bridgeData.minAmount).toBe('1000000000');
  });

  it('bridge with a native messaging fee paid on top as value', async () => {
    const step = await quote({ fromChain: 'arb', toChain: 'opt', fromToken: 'USDC', toToken: 'USDC', fromAmount: '1000000000', allowBridges: 'stargate' });
    expect(step.estimate.feeCosts.some((f: Json) => !f.included)).toBe(true);
    expect(BigInt(step.transactionRequest.value)).toBeGreaterThan(0n);
    await expectRoundTrip(step);
  });

  it('swap + bridge + swap: swapAndStartBridgeTokensVia<Bridge> with the destination swaps in swapAndCompleteBridgeTokens', async () => {
    const step = await quote({ fromChain: 'pol', toChain: 'arb', fromToken: 'POL', toToken: 'USDT', fromAmount: '1000000000000000000000' });
    const types = step.includedSteps.map((s: Json) => s.type);
    const cross = types.indexOf('cross');
    expect(cross).toBeGreaterThan(0);
    expect(cross).toBeLessThan(types.length - 1);
    await expectRoundTrip(step);
  });

  it('bridge then a destination swap, with an integrator fee', async () => {
    const step = await quote({ fromChain: 'bas', toChain: 'arb', fromToken: 'USDC', toToken: 'WETH', fromAmount: '100000000', fee: '0.005', integrator: 'acme' });
    expect(step.includedSteps[0].tool).toBe('feeCollection');
    await expectRoundTrip(step);
  });

  it('exact output (/v1/quote/toAmount), same chain and across chains', async () => {
    await expectRoundTrip(await quote({ fromChain: 'eth', toChain: 'eth', fromToken: 'ETH', toToken: 'USDC', toAmount: '1000000000' }, '/v1/quote/toAmount'));
    await expectRoundTrip(await quote({ fromChain: 'arb', toChain: 'opt', fromToken: 'USDC', toToken: 'USDC', toAmount: '500000000' }, '/v1/quote/toAmount'));
  });

  it('with a gas refuel (fromAmountForGas): the refuel leg is a nested router call', async () => {
    const step = await quote({ fromChain: 'arb', toChain: 'opt', fromToken: 'USDC', toToken: 'USDC', fromAmount: '100000000', fromAmountForGas: '5000000' });
    expect(step.estimate.data.gasRefuel.fromAmount).toBe('5000000');
    await expectRoundTrip(step);
  });

  it('to Solana: the receiver travels as its 32-byte public key in nonEVMReceiver', async () => {
    const step = await quote({ fromChain: 'arb', toChain: 'sol', fromToken: 'USDC', toToken: 'USDC', fromAmount: '100000000', toAddress: SOLANA_WALLET });
    const call = await expectRoundTrip(step);
    expect(call.functionParameters.data.nonEVMReceiver).toBe(hexlify(base58.decode(SOLANA_WALLET)));
    expect(call.functionParameters.data.nonEVMReceiver).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it('answers 400 naming toAddress for a receiver that is no Solana public key (base58 of 32 bytes)', async () => {
    // 25 base58 characters pass the contract's pattern, but decode to fewer than 32 bytes
    expectInvalidRequest(contract, 'getQuote', await request(t.app).get('/v1/quote').query({ fromAddress: WALLET, fromChain: 'arb', toChain: 'sol', fromToken: 'USDC', toToken: 'USDC', fromAmount: '100000000', toAddress: '9WzDXwBbmkg8ZTbNMqUxvQRAy' }), /toAddress 9WzDXwBbmkg8ZTbNMqUxvQRAy is not an address of Solana .* base58/);
  });

  it('answers 400 naming toAddress when the receiving chain is of another type and toAddress is missing', async () => {
    expectInvalidRequest(contract, 'getQuote', await request(t.app).get('/v1/quote').query({ fromAddress: WALLET, fromChain: 'arb', toChain: 'sol', fromToken: 'USDC', toToken: 'USDC', fromAmount: '100000000' }), /toAddress .* is not an address of Solana/);
  });

  it.each([
    ['Bitcoin', { fromChain: 'btc', fromToken: 'BTC', fromAddress: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh' }],
    ['Sui', { fromChain: 'sui', fromToken: 'SUI', fromAddress: `0x${'1'.repeat(64)}` }],
    ['Tron', { fromChain: 'trx', fromToken: 'USDT', fromAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' }],
  ])('from %s: 400 naming fromChain, sending from there is not supported yet (never a step with nothing to sign)', async (name, from) => {
    const res = await request(t.app).get('/v1/quote').query({ ...from, toChain: 'arb', toToken: 'USDC', fromAmount: '100000000', toAddress: WALLET });
    expectInvalidRequest(contract, 'getQuote', res, new RegExp(`fromChain: sending from ${name} \\(\\d+\\) is not supported yet`));
    expect(res.body.errors.issues).toEqual([expect.objectContaining({ in: 'query', name: 'fromChain', rule: 'sendingSupported' })]);
  });

  it('gives the same transaction to the same request', async () => {
    const query = { fromChain: 'pol', toChain: 'arb', fromToken: 'POL', toToken: 'USDT', fromAmount: '1000000000000000000000' };
    const [a, b] = [await quote(query), await quote(query)];
    expect(b.transactionRequest).toEqual(a.transactionRequest);
  });

  it('shows the router as diamondAddress on EVM chains', async () => {
    const res = await request(t.app).get('/v1/chains');
    contract.expectResponse('getChains', res);
    for (const chain of res.body.chains) {
      if (chain.chainType === 'EVM') expect(chain.diamondAddress).toBe(ROUTER);
      else expect(chain.diamondAddress).toBeUndefined();
    }
  });

  it('sets approvalAddress on route steps and their included steps', async () => {
    const res = await request(t.app).post('/v1/advanced/routes').send(routesRequest(8453, BASE_USDC, 42161, ZERO, '100000000'));
    contract.expectResponse('postRoutes', res);
    for (const route of res.body.routes) {
      for (const step of route.steps) {
        expect(step.estimate.approvalAddress).toBe(ROUTER);
        expect(step.transactionRequest).toBeUndefined();
        for (const s of step.includedSteps) expect(s.estimate.approvalAddress).toBe(same(s.action.fromToken.address, ZERO) ? ZERO : ROUTER);
      }
    }
  });
});

describe('POST /v1/advanced/stepTransaction', () => {
  async function routes(body: Json): Promise<Json[]> {
    const res = await request(t.app).post('/v1/advanced/routes').send({ fromAddress: WALLET, ...body });
    contract.expectResponse('postRoutes', res);
    expect(res.status).toBe(200);
    return res.body.routes;
  }
  const stepTransaction = async (step: Json) => {
    const res = await request(t.app).post('/v1/advanced/stepTransaction').send(step);
    contract.expectResponse('postStepTransaction', res);
    return res;
  };
  /** The step without what the re-pricing rewrites for a step of a two-transaction route (its own path and impact). */
  const comparable = (step: Json) => ({ ...step, transactionRequest: undefined, estimate: { ...step.estimate, data: undefined } });

  it.each([
    ['swap + bridge + swap, several routes', routesRequest(137, ZERO, 42161, ARB_USDT, '1000000000000000000000')],
    ['a large same-chain swap split over two paths, with an integrator fee', { ...routesRequest(42161, ARB_USDC, 42161, ARB_WETH, '100000000000'), options: { fee: 0.003, integrator: 'acme' } }],
    ['two-transaction routes (allowSwitchChain)', { ...routesRequest(8453, BASE_USDC, 42161, ARB_WETH, '100000000'), options: { allowDestinationCall: false, allowSwitchChain: true } }],
    ['a gas refuel', { ...routesRequest(42161, ARB_USDC, 10, OP_USDC, '100000000'), fromAmountForGas: '5000000' }],
  ])('re-prices every step of %s to the same estimate and adds its transaction', async (_what, body) => {
    for (const route of await routes(body)) {
      for (const step of route.steps) {
        const res = await stepTransaction(step);
        expect(res.status).toBe(200);
        expect(res.body.id).toBe(step.id);
        if (route.steps.length === 1) expect({ ...res.body, transactionRequest: undefined }).toEqual(step);
        else expect(comparable(res.body)).toEqual(comparable(step));
        await expectRoundTrip(res.body);
      }
    }
  });

  it('answers 409 code 1007 when the re-priced output is below the step\'s toAmountMin', async () => {
    const [route] = await routes(routesRequest(42161, ARB_USDC, 10, OP_USDC, '100000000'));
    const step = route.steps[0];
    const raised = { ...step, estimate: { ...step.estimate, toAmountMin: (BigInt(step.estimate.toAmount) + 1n).toString() } };
    const res = await stepTransaction(raised);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe(1007);
    expect(res.body.message).toMatch(/below its toAmountMin/);
  });

  it('answers 404 code 1002 when the step can no longer be priced, saying why', async () => {
    // over Across, whose minimum (its relayer's gas on OP Mainnet) one raw unit is below; CCTP, the cheapest, sets none
    const [route] = await routes({ ...routesRequest(42161, ARB_USDC, 10, OP_USDC, '100000000'), options: { bridges: { allow: ['across'] } } });
    const step = route.steps[0];
    const tiny = { ...step, action: { ...step.action, fromAmount: '1' } };
    let res = await stepTransaction(tiny);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe(1002);
    expect(res.body.errors.failed[0].subpaths).toBeDefined();

    const [swapRoute] = await routes({ ...routesRequest(1, ETH_USDC, 1, ETH_USDT, '1000000000'), options: { exchanges: { allow: ['curve'] } } });
    const swapStep = swapRoute.steps[0];
    const gone = { ...swapStep, includedSteps: [{ ...swapStep.includedSteps[0], estimate: { ...swapStep.includedSteps[0].estimate, data: { poolId: '1:curve:stableswap:GONE' } } }] };
    res = await stepTransaction(gone);
    expect(res.status).toBe(404);
    expect(res.body.message).toMatch(/pool 1:curve:stableswap:GONE .* no longer trades/);
  });

  it('answers 400 naming what is malformed', async () => {
    const [route] = await routes({ ...routesRequest(1, ETH_USDC, 1, ETH_USDT, '1000000000'), options: { exchanges: { allow: ['curve'] } } });
    const step = route.steps[0];
    const first = step.includedSteps[0];
    const cases: [Json, RegExp][] = [
      [{ ...step, includedSteps: [] }, /body field \/includedSteps is missing or empty/],
      [{ ...step, includedSteps: [{ ...first, tool: 'uniswap' }] }, /body field \/includedSteps\/0\/tool is uniswap, but pool .* belongs to curve/],
      [{ ...step, includedSteps: [{ ...first, type: 'custom' }] }, /body field \/includedSteps\/0\/type: custom steps cannot be included/],
      [{ ...step, action: { ...step.action, toToken: { ...step.action.toToken, address: '0x0000000000000000000000000000000000000001' } } }, /body field \/action\/toToken\/address: .* is not a known token/],
      [{ ...step, includedSteps: [first, first] }, /body field \/includedSteps: the source swaps take 2000000000 in all, but 1000000000 is left to swap/],
      [{ ...step, action: { ...step.action, fromAmount: 'lots' } }, /body field \/action\/fromAmount must match pattern/],
    ];
    for (const [body, message] of cases) {
      const res = await stepTransaction(body);
      expect([400, 404]).toContain(res.status);
      if (res.status === 400) expect(res.body.code).toBe(1011);
      expect(res.body.message).toMatch(message);
    }
  });
});

describe('GET /v1/calldata/parse', () => {
  it('decodes an ERC-20 approval of the router', async () => {
    const data = `0x095ea7b3${ROUTER.slice(2).toLowerCase().padStart(64, '0')}${'f'.repeat(64)}`;
    expect(await parse(data, 1)).toEqual([{ functionName: 'approve', functionParameters: { spender: ROUTER, amount: (2n ** 256n - 1n).toString() } }]);
  });

  it.each([
    [{ callData: '0x123' }, /query parameter callData must match pattern/],
    [{ callData: '0xdeadbeef' }, /callData calls function selector 0xdeadbeef, which matches no known ABI/],
    [{ callData: '0x095ea7b3' }, /callData does not decode as approve\(address,uint256\)/],
    [{ callData: '0xd0e30db0', chainId: 'nochain' }, /chainId: "nochain" is not a supported chain/],
    [{}, /callData/],
  ])('answers 400 naming the parameter for %o', async (query, message) => {
    expectInvalidRequest(contract, 'parseCallData', await request(t.app).get('/v1/calldata/parse').query(query), message);
  });
});
