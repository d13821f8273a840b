/**
 * The contract-calls use case (POST /v1/quote/contractCalls): the amounts (exact output guaranteed after slippage,
 * the integrator fee inverted exactly without a swap, exact input covering the calls), the calls' gas priced into
 * the route (the relayer's destination call fee across chains, the transaction's gas on one chain), no route with
 * its reasons, and the checks naming every invalid body field.
 */
import { InvalidRequestError } from '../../../src/core/errors';
import { applySlippageFloor, grossUp } from '../../../src/core/math/amounts';
import { CONTRACT_CALL_OVERHEAD_GAS } from '../../../src/core/routing/contractCallsRoute';
import { DESTINATION_CALL_GAS } from '../../../src/core/routing/evaluate';
import { nativeWeiInToken } from '../../../src/core/routing/pricing';
import { buildRouteRequest } from '../../../src/core/routing/request';
import { quoteContractCalls, type ContractCallsInput } from '../../../src/usecases/contractCalls';
import { catalog, graph, finder, routers, ctx, WALLET, FALLBACK, TARGET, call, toBase, quote, ARB_USDC, ARB_WETH, BASE_USDC, BASE_WETH, ROUTER } from '../../support/contractCalls';


/** The InvalidRequestError's issues as [name, rule] pairs. */
function issuesOf(input: ContractCallsInput): [string, string][] {
  try {
    quoteContractCalls(ctx, input);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidRequestError);
    const issues = ((error as InvalidRequestError).details as { issues: { in?: string; name: string; rule: string; message: string }[] }).issues;
    for (const issue of issues) {
      // the field is named; where it is (the body here) is the HTTP layer's to say
      expect(issue.in).toBeUndefined();
      expect(issue.message.startsWith(`body field ${issue.name}`)).toBe(true);
      expect((error as Error).message).toContain(issue.message);
    }
    return issues.map((i) => [i.name, i.rule]);
  }
  throw new Error('expected an InvalidRequestError');
}

const gasPrice = (chainId: number) => graph.gas(chainId)!.gasPriceWei;
const tokenOf = (chainId: number, ref: string) => catalog.findToken(chainId, ref)!;

describe('quotes', () => {
  it('exact output across chains without a destination swap: toAmountMin covers toAmount, the calls\' gas is a destination call fee', () => {
    const q = quote(toBase({ slippage: 0.005 }));
    const { route } = q;
    expect(q.mode).toBe('exactOut');
    expect(route.toAmountMin).toBeGreaterThanOrEqual(10_000_000n);
    expect(route.toAmountMin).toBe(applySlippageFloor(route.toAmount, 5_000n));
    expect(route.bridge).toBeDefined();
    expect(route.destination).toBeUndefined();
    // the relayer charges the destination call's gas (router work + the call at its gas limit + overhead) in the bridged token
    const fee = route.transactions[0].feeCosts.find((f) => f.name === 'Destination call gas')!;
    const wei = (DESTINATION_CALL_GAS + 300_000n + CONTRACT_CALL_OVERHEAD_GAS) * gasPrice(8453);
    expect(fee.amount).toBe(nativeWeiInToken(wei, catalog.getChain(8453)!.nativeToken, tokenOf(8453, 'USDC')));
    expect(route.toAmount).toBe(route.bridge!.amountOut - fee.amount);
    expect(q.callsGas).toBe(340_000n);
    expect(q.calls[0]).toMatchObject({ target: TARGET, approveTo: TARGET, amount: 10_000_000n, gasLimit: 300_000n, fallbackReceiver: WALLET });
  });

  it('the calls\' gas makes the same transfer dearer than a plain exact-output quote', () => {
    const q = quote(toBase({ slippage: 0.005, bridges: { allow: ['across'] } }));
    const plain = finder.find(buildRouteRequest(catalog, { fromChain: 42161, toChain: 8453, fromToken: 'USDC', toToken: 'USDC', amount: q.route.request.amount.toString(), mode: 'exactOut', slippage: 0.005, bridges: { allow: ['across'] } })).routes[0];
    expect(q.route.request.amount).toBe(grossUp(10_000_000n, 5_000n));
    expect(q.route.fromAmount).toBeGreaterThan(plain.fromAmount);
    expect(plain.transactions[0].feeCosts.some((f) => f.name.startsWith('Destination'))).toBe(false);
  });

  it('across chains with a destination swap: one destination call fee for the swap and the calls', () => {
    const q = quote(toBase({ toToken: 'WETH', toAmount: '10000000000000000', contractCalls: [call(BASE_WETH, '6000000000000000'), call(BASE_WETH, '4000000000000000', { toContractGasLimit: '100000' })] }));
    const { route } = q;
    expect(route.destination).toBeDefined();
    expect(route.toAmountMin).toBeGreaterThanOrEqual(10n ** 16n);
    const fee = route.transactions[0].feeCosts.find((f) => f.name === 'Destination call gas')!;
    const wei = (route.destination!.gasUnits + DESTINATION_CALL_GAS + 400_000n + 2n * CONTRACT_CALL_OVERHEAD_GAS) * gasPrice(8453);
    expect(fee.amount).toBe(nativeWeiInToken(wei, catalog.getChain(8453)!.nativeToken, fee.token));
    expect(fee.description).toMatch(/its swaps and the contract calls/);
  });

  it('exact input on one chain: the calls\' gas joins the transaction; the calls fit in its toAmountMin', () => {
    const input = toBase({ toChain: 42161, toToken: 'WETH', toAmount: undefined, fromAmount: '100000000', contractCalls: [call(ARB_WETH, '10000000000000000'), call(ARB_WETH, '5000000000000000')] });
    const q = quote(input);
    const plain = finder.find(buildRouteRequest(catalog, { fromChain: 42161, toChain: 42161, fromToken: 'USDC', toToken: 'WETH', amount: '100000000', mode: 'exactIn' })).routes[0];
    expect(q.mode).toBe('exactIn');
    expect(q.route.fromAmount).toBe(100_000_000n);
    expect(q.route.toAmountMin).toBeGreaterThanOrEqual(q.callsAmount);
    expect(q.callsAmount).toBe(15n * 10n ** 15n);
    expect(q.route.transactions[0].gasCost.estimate).toBe(plain.transactions[0].gasCost.estimate + 600_000n + 2n * CONTRACT_CALL_OVERHEAD_GAS);
    expect(q.route.toAmount).toBe(plain.toAmount);
  });

  it('same chain and same token: no swap, no slippage, the integrator fee inverted exactly', () => {
    const q = quote(toBase({ toChain: 42161, toToken: 'USDC', toAmount: '100000000', fee: 0.01, integrator: 'acme', contractCalls: [call(ARB_USDC, '100000000')] }));
    expect(q.route.slippage).toBe(0);
    expect(q.route.fromAmount).toBe(101_010_101n);
    expect(q.route.toAmount).toBe(100_000_000n);
    expect(q.route.toAmountMin).toBe(100_000_000n);
    expect(q.route.transactions[0].steps.map((s) => s.tool)).toEqual(['feeCollection']);
    expect(q.route.transactions[0].tool).toBe('custom');
  });

  it('gives the same id to the same calls and another to other calls', () => {
    const a = quote(toBase());
    expect(quote(toBase()).route.id).toBe(a.route.id);
    expect(quote(toBase({ contractCalls: [call(BASE_USDC, '10000000', { toContractCallData: '0x' })] })).route.id).not.toBe(a.route.id);
    expect(quote(toBase({ contractCalls: [call(BASE_USDC, '10000000', { toFallbackAddress: FALLBACK })] })).route.id).not.toBe(a.route.id);
  });

  it('says why there is no route', () => {
    // 20,000,000 USDC over CCTP: above Circle's $10 million limit per burn (one raw unit over Across is deliverable
    // since issue 35: no minimum of its own)
    const result = quoteContractCalls(ctx, toBase({ toAmount: '20000000000000', contractCalls: [call(BASE_USDC, '20000000000000')], bridges: { allow: ['cctp'] } }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.message).toMatch(/^No available quotes for the transfer before the contract calls: /);
    expect(result.unavailable.failed.length).toBeGreaterThan(0);
  });

  it('says when the calls\' gas costs more than what arrives', () => {
    const result = quoteContractCalls(ctx, toBase({
      toChain: 1, toAmount: undefined, fromAmount: '50000000', bridges: { allow: ['cctp'] },
      contractCalls: [call('0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', '1000000', { toContractGasLimit: '10000000' })],
    }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const messages = result.unavailable.failed.flatMap((f) => Object.values(f.subpaths).flat().map((e) => `${e.code} ${e.message}`));
    expect(messages.some((m) => /^FEES_HIGHER_THAN_AMOUNT the destination contract calls' gas/.test(m))).toBe(true);
  });
});

describe('validation names every invalid body field', () => {
  it.each<[string, Partial<ContractCallsInput>, [string, string][]]>([
    ['neither amount', { toAmount: undefined }, [['/toAmount', 'oneOfRequired']]],
    ['both amounts', { fromAmount: '5' }, [['/fromAmount', 'oneOf']]],
    ['a zero amount', { toAmount: '0' }, [['/toAmount', 'positive']]],
    ['unknown chains', { fromChain: 'nochain', toChain: 999 }, [['/fromChain', 'supportedChain'], ['/toChain', 'supportedChain']]],
    ['a non-EVM chain', { toChain: 'sol' }, [['/toChain', 'evmChain']]],
    ['unknown tokens', { fromToken: 'NOPE', toToken: 'NADA' }, [['/fromToken', 'knownToken'], ['/toToken', 'knownToken']]],
    ['a non-EVM fromAddress', { fromAddress: '7v91N7iZ9mNicL8WfG6cgSCKyRXydQjLh6UYBWwm6y1Q' }, [['/fromAddress', 'addressOfChain']]],
    ['a fee without integrator', { fee: 0.01 }, [['/fee', 'requiresIntegrator']]],
    ['slippage 1 with toAmount', { slippage: 1 }, [['/slippage', 'belowOne']]],
    ['an unknown bridge', { bridges: { allow: ['nobridge'] } }, [['/allowBridges', 'knownTool']]],
    ['a call of another token', { contractCalls: [call(ARB_USDC, '1')] }, [['/contractCalls/0/fromTokenAddress', 'deliveredToken']]],
    ['an unknown output token', { contractCalls: [call(BASE_USDC, '1', { toTokenAddress: '0x5eED00000000000000000000000000000000aBcD' })] }, [['/contractCalls/0/toTokenAddress', 'knownToken']]],
    ['calls of the router and approvals of the fee collector', { contractCalls: [call(BASE_USDC, '1', { toContractAddress: ROUTER, toApprovalAddress: routers.feeCollectorOf(8453)! })] }, [['/contractCalls/0/toContractAddress', 'notRouter'], ['/contractCalls/0/toApprovalAddress', 'notRouter']]],
    ['zero addresses', { contractCalls: [call(BASE_USDC, '1', { toContractAddress: '0x0000000000000000000000000000000000000000', toFallbackAddress: '0x0000000000000000000000000000000000000000' })] }, [['/contractCalls/0/toContractAddress', 'notZero'], ['/contractCalls/0/toFallbackAddress', 'notZero']]],
    ['a zero gas limit', { contractCalls: [call(BASE_USDC, '1', { toContractGasLimit: '0' })] }, [['/contractCalls/0/toContractGasLimit', 'positive']]],
    ['gas limits too high for the chain', { contractCalls: [call(BASE_USDC, '1', { toContractGasLimit: '6000000' }), call(BASE_USDC, '1', { toContractGasLimit: '6400000' })] }, [['/contractCalls/1/toContractGasLimit', 'maxGas']]],
    ['calls taking more than toAmount', { contractCalls: [call(BASE_USDC, '6000000'), call(BASE_USDC, '4000001'), call(BASE_USDC, '1')] }, [['/contractCalls/1/fromAmount', 'fundedByToAmount']]],
  ])('%s', (_what, patch, expected) => {
    expect(issuesOf(toBase(patch))).toEqual(expected);
  });

  it('lists several problems at once', () => {
    expect(issuesOf(toBase({ toAmount: undefined, fromToken: 'NOPE', contractCalls: [call(ARB_USDC, '1', { toContractGasLimit: '0' })] }))).toEqual([
      ['/fromToken', 'knownToken'], ['/toAmount', 'oneOfRequired'], ['/contractCalls/0/fromTokenAddress', 'deliveredToken'], ['/contractCalls/0/toContractGasLimit', 'positive'],
    ]);
  });

  it('exact input: 400 naming the call whose amount the route cannot guarantee', () => {
    expect(issuesOf(toBase({ toAmount: undefined, fromAmount: '10000000', contractCalls: [call(BASE_USDC, '5000000'), call(BASE_USDC, '5000000')] }))).toEqual([
      ['/contractCalls/1/fromAmount', 'fundedByFromAmount'],
    ]);
  });

  it('names the fields as the caller\'s body does (the deprecated single-call form)', () => {
    const field = (path: string) => ({ 'contractCalls/0/toContractGasLimit': '/toContractGasLimit', 'contractCalls/0/toTokenAddress': '/contractOutputsToken' })[path] ?? `/${path}`;
    expect(issuesOf(toBase({ field, contractCalls: [call(BASE_USDC, '1', { toContractGasLimit: '20000000', toTokenAddress: '0x5eED00000000000000000000000000000000aBcD' })] }))).toEqual([
      ['/contractOutputsToken', 'knownToken'], ['/toContractGasLimit', 'maxGas'],
    ]);
  });
});
