import { DEFAULT_DATA_DIR } from '../../../../src/config';
import { loadCatalog } from '../../../../src/files/catalog';
import type { BridgeRoute, ChainGas, ConstantProductPoolState, LiquiditySnapshot } from '../../../../src/core/liquidity/snapshot';
import {
  DESTINATION_CALL_GAS, defaultSlippage, destinationCallGas, evaluatePlan, pricePlan, routeId, type RoutePlan,
} from '../../../../src/core/routing/evaluate';
import { RoutingGraph, type PoolEdge } from '../../../../src/core/routing/graph';
import { buildRouteRequest, type RouteParameters } from '../../../../src/core/routing/request';
import { priceEdges, type SwapPath } from '../../../../src/core/routing/swapPath';
import type { Route, RouteRequest } from '../../../../src/core/routing/route';

// The real catalog, a hand-made snapshot: every expected amount below is worked out in the test from these numbers.
const catalog = loadCatalog(DEFAULT_DATA_DIR);
const key = (chainId: number, symbol: string) => catalog.addressKey(chainId, catalog.findToken(chainId, symbol)!.address);
const tokenOf = (chainId: number, symbol: string) => catalog.findToken(chainId, symbol)!;
const ETH_1 = catalog.getChain(1)!.nativeToken;

const USDC = key(1, 'USDC');
const WETH = key(1, 'WETH');
const USDC_10 = key(10, 'USDC');
const WETH_10 = key(10, 'WETH');
const USDC_56 = key(56, 'USDC');

const E18 = 10n ** 18n;
const UNI: ConstantProductPoolState = {
  id: '1:uniswap:cp:USDC-WETH', chainId: 1, exchange: 'uniswap', kind: 'constantProduct', address: '0x1000000000000000000000000000000000000001',
  tokens: [USDC, WETH], feePpm: 3000n, reserves: [3_250_000_000_000n, 1000n * E18],
};
const SUSHI: ConstantProductPoolState = {
  id: '1:sushiswap:cp:USDC-WETH', chainId: 1, exchange: 'sushiswap', kind: 'constantProduct', address: '0x1000000000000000000000000000000000000002',
  tokens: [USDC, WETH], feePpm: 3000n, reserves: [1_625_000_000_000n, 500n * E18],
};
const OP: ConstantProductPoolState = {
  id: '10:velodrome:cp:USDC-WETH', chainId: 10, exchange: 'velodrome', kind: 'constantProduct', address: '0x1000000000000000000000000000000000000003',
  tokens: [USDC_10, WETH_10], feePpm: 500n, reserves: [650_000_000_000n, 200n * E18],
};
const ACROSS: BridgeRoute = {
  bridge: 'across', fromChainId: 1, toChainId: 10, coinKey: 'USDC', fromToken: USDC, toToken: USDC_10,
  feePpm: 400n, fixedFee: 500_000n, destinationGasFee: 100_000n, minAmount: 1_000_000n, maxAmount: 1_000_000_000_000n,
  durationSeconds: 120, gasUnits: 150_000n, nativeFee: 100_000_000_000_000n, mechanism: 'relayer',
};
/** To BNB Chain, where USDC has 18 decimals. */
const STARGATE: BridgeRoute = {
  bridge: 'stargate', fromChainId: 1, toChainId: 56, coinKey: 'USDC', fromToken: USDC, toToken: USDC_56,
  feePpm: 600n, fixedFee: 0n, destinationGasFee: 0n, minAmount: 1n, maxAmount: 10n ** 15n,
  durationSeconds: 600, gasUnits: 200_000n, nativeFee: 0n, mechanism: 'pool',
};
const gas = (chainId: number, gasPriceWei: bigint, blockTimeSeconds: number): [number, ChainGas] =>
  [chainId, { chainId, gasPriceWei, nativePriceUSD: 0, blockTimeSeconds, finalitySeconds: 60 }];
const snapshot: LiquiditySnapshot = {
  asOf: '2026-01-01', pools: [UNI, SUSHI, OP], bridges: [ACROSS, STARGATE],
  gas: new Map([gas(1, 20_000_000_000n, 12), gas(10, 100_000_000n, 2), gas(56, 1_000_000_000n, 3)]),
};
const graph = new RoutingGraph(catalog, snapshot);

const edge = (pool: ConstantProductPoolState, from: string): PoolEdge =>
  graph.edgesFrom(pool.chainId, from).find((e): e is PoolEdge => e.kind === 'pool' && e.pool === pool)!;
/** A path over `edges`, priced at an amount none of the tests use, so that the plan is re-priced by the code under test. */
const pathOf = (chainId: number, from: string, ...edges: PoolEdge[]): SwapPath => priceEdges(chainId, from, edges, 10n ** 15n + 7n, new Map())!;

/** Constant product by hand: floor(in·(1e6−fee)·R_out / (R_in·1e6 + in·(1e6−fee))). */
const cpOut = (amountIn: bigint, reserveIn: bigint, reserveOut: bigint, feePpm: bigint) =>
  (amountIn * (1_000_000n - feePpm) * reserveOut) / (reserveIn * 1_000_000n + amountIn * (1_000_000n - feePpm));

const request = (p: Partial<RouteParameters>): RouteRequest =>
  buildRouteRequest(catalog, { fromChain: 1, toChain: 1, fromToken: 'USDC', toToken: 'WETH', amount: '1000000000', mode: 'exactIn', ...p });

const evaluate = (req: RouteRequest, plan: RoutePlan, fromAmount = req.amount): Route => {
  const result = evaluatePlan(graph, req, plan, fromAmount, new Map());
  if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
  return result.route;
};

describe('evaluatePlan: one swap on one chain', () => {
  const req = request({ fee: 0.003, integrator: 'acme', slippage: 0.01 });
  const plan: RoutePlan = { sources: [{ path: pathOf(1, USDC, edge(UNI, USDC)), sharePpm: 1_000_000n }], destinationSeparate: false };

  // 1000 USDC; integrator fee 0.3 % first: 3 USDC, 997 USDC swapped
  const FEE = 3_000_000n;
  const REST = 997_000_000n;
  const OUT = cpOut(REST, 3_250_000_000_000n, 1000n * E18, 3000n);

  it('the hand-worked constant-product output', () => {
    expect(OUT).toBe(305_755_408_114_626_273n);
  });

  it('takes the integrator fee first, then prices the swap on what is left', () => {
    const route = evaluate(req, plan);
    expect(route.fromAmount).toBe(1_000_000_000n);
    expect(route.integratorFee).toBe(FEE);
    expect(route.toAmount).toBe(OUT);
    expect(route.source!.amountIn).toBe(REST);
    expect(route.source!.amountOut).toBe(OUT);
  });

  it('toAmountMin is the slippage floor: floor(out·(1e6 − 10 000)/1e6)', () => {
    const route = evaluate(req, plan);
    expect(route.slippage).toBe(0.01);
    expect(route.toAmountMin).toBe((OUT * 990_000n) / 1_000_000n);
    expect(route.toAmountMin).toBe(302_697_854_033_480_010n);
    expect(route.transactions[0].toAmountMin).toBe(route.toAmountMin);
  });

  it('without a slippage: 0.5 % unless both tokens are stablecoins (0.1 %)', () => {
    const route = evaluate(request({ fee: 0.003, integrator: 'acme' }), plan);
    expect(route.slippage).toBe(0.005);
    expect(route.toAmountMin).toBe(304_226_631_074_053_141n);
    expect(defaultSlippage(request({}))).toBe(0.005);
    expect(defaultSlippage(request({ toToken: 'DAI' }))).toBe(0.001);
  });

  it('gas: router base + first use + fee collection + one constant-product hop, at the chain\'s gas price', () => {
    const { gasCost } = evaluate(req, plan).transactions[0];
    // router base 75 000 + first use 65 000 + fee collection (35 000 + 60 000 SWAP_CALL_GAS) + constant-product hop
    // (60 000 + 60 000 SWAP_CALL_GAS) = 355 000 gas; limit ·1.25 = 443 750; × 20 gwei = 7.1e15 wei = 0.0071 ETH × 3250 = 23.075 USD
    expect(gasCost).toEqual({
      type: 'SEND', chainId: 1, price: 20_000_000_000n, estimate: 355_000n, limit: 443_750n,
      amount: 7_100_000_000_000_000n, amountUSD: 23.075, token: ETH_1,
    });
  });

  it('steps: the fee collection, then the swap on the pool', () => {
    const route = evaluate(req, plan);
    const [collect, swap] = route.transactions[0].steps;
    expect(collect).toEqual({
      type: 'protocol', tool: 'feeCollection', fromChainId: 1, toChainId: 1, fromToken: tokenOf(1, 'USDC'), toToken: tokenOf(1, 'USDC'),
      fromAmount: 1_000_000_000n, toAmount: REST, durationSeconds: 0,
      feeCosts: [{
        name: 'Integrator fee', description: 'Fee of integrator acme, taken from the sent amount', percentage: '0.003',
        token: tokenOf(1, 'USDC'), amount: FEE, amountUSD: 3, included: true,
      }],
    });
    expect(swap).toEqual({
      type: 'swap', tool: 'uniswap', fromChainId: 1, toChainId: 1, fromToken: tokenOf(1, 'USDC'), toToken: tokenOf(1, 'WETH'),
      fromAmount: REST, toAmount: OUT, durationSeconds: 12, feeCosts: [],
      poolId: UNI.id, poolAddress: UNI.address, poolKind: 'constantProduct',
    });
    expect(route.transactions).toHaveLength(1);
    expect(route.transactions[0]).toMatchObject({ tool: 'uniswap', type: 'swap', chainId: 1, toChainId: 1, fromAmount: 1_000_000_000n, toAmount: OUT, durationSeconds: 12 });
  });

  it('USD figures, price impact and duration', () => {
    const route = evaluate(req, plan);
    const toUSD = (Number(OUT) / 1e18) * 3250; // WETH at 3250.00
    expect(route.fromAmountUSD).toBe(1000);
    expect(route.toAmountUSD).toBeCloseTo(toUSD, 6);
    expect(route.gasCostUSD).toBe(23.075); // 355 000 gas × 20 gwei × 3250, as above
    expect(route.extraFeesUSD).toBe(0);
    // impact against the value that reaches the swap (1000 − 3 USD of included fees)
    expect(route.priceImpact).toBeCloseTo(1 - toUSD / 997, 9);
    expect(route.durationSeconds).toBe(12);
    expect(route.containsSwitchChain).toBe(false);
    expect(route.overallPath).toBe('1:USDC~1:WETH');
  });

  it('pricePlan gives the same amounts, the ranking figure and the shape key', () => {
    const priced = pricePlan(graph, req, plan, req.amount, new Map());
    if (!priced.ok) throw new Error(priced.message);
    const { amounts } = priced;
    expect(amounts).toMatchObject({ fromAmount: 1_000_000_000n, feePpm: 3000n, integratorFee: FEE, rest: REST, bridged: OUT, arrived: OUT, toAmount: OUT, sourceGasUnits: 355_000n, slippagePpm: 10_000n });
    expect(amounts.netValueUSD).toBeCloseTo(amounts.toAmountUSD - 1000 - 23.075, 9);
    expect(amounts.key).toBe(`${UNI.id}###false`);
  });

  it('contract calls on one chain add their gas to the transaction', () => {
    const route = evaluate({ ...req, contractCallsGas: 100_000n }, plan);
    // 355 000 (above) + 100 000
    expect(route.transactions[0].gasCost.estimate).toBe(455_000n);
    expect(route.toAmount).toBe(OUT);
  });
});

describe('evaluatePlan: a relayed (gasless) route takes the relayer\'s fee after the integrator\'s', () => {
  const plan: RoutePlan = { sources: [{ path: pathOf(1, USDC, edge(UNI, USDC)), sharePpm: 1_000_000n }], destinationSeparate: false };
  // 1000 USDC; integrator fee 0.3 % = 3 USDC, then the relayer's 2.5 USDC: 994.5 USDC swapped
  const RELAY = 2_500_000n;
  const REST = 994_500_000n;
  const OUT = cpOut(REST, 3_250_000_000_000n, 1000n * E18, 3000n);

  it('swaps what is left after both fees; one fee collection step collects both, the relayer\'s as the service\'s fee', () => {
    const route = evaluate({ ...request({ fee: 0.003, integrator: 'acme' }), relayFee: RELAY }, plan);
    expect(route.integratorFee).toBe(3_000_000n);
    expect(route.relayFee).toBe(RELAY);
    expect(route.source!.amountIn).toBe(REST);
    expect(route.toAmount).toBe(OUT);
    const [collect] = route.transactions[0].steps;
    expect(collect).toMatchObject({ tool: 'feeCollection', fromAmount: 1_000_000_000n, toAmount: REST, serviceFee: RELAY });
    expect(collect.feeCosts.map((c) => [c.name, c.amount, c.percentage, c.amountUSD])).toEqual([
      ['Integrator fee', 3_000_000n, '0.003', 3],
      ['Gasless relay fee', RELAY, '0.0025', 2.5],
    ]);
    // both fees are in the value that does not reach the swap
    expect(route.priceImpact).toBeCloseTo(1 - ((Number(OUT) / 1e18) * 3250) / 994.5, 9);
  });

  it('alone (no integrator fee): a fee collection step of the relayer\'s fee, with its gas', () => {
    const route = evaluate({ ...request({}), relayFee: RELAY }, plan);
    expect(route.integratorFee).toBe(0n);
    const [collect, swap] = route.transactions[0].steps;
    expect(collect).toMatchObject({ tool: 'feeCollection', fromAmount: 1_000_000_000n, toAmount: 997_500_000n, serviceFee: RELAY });
    expect(swap.fromAmount).toBe(997_500_000n);
    // the fee collection's gas, as with an integrator fee: 355 000 gas
    expect(route.transactions[0].gasCost.estimate).toBe(355_000n);
  });

  it('a relayer\'s fee that leaves nothing to send fails the plan', () => {
    const result = evaluatePlan(graph, { ...request({}), relayFee: 1_000_000_000n }, plan, 1_000_000_000n, new Map());
    expect(result).toMatchObject({ ok: false, code: 'FEES_HIGHER_THAN_AMOUNT', tool: 'relayer' });
  });
});

describe('evaluatePlan: a split between two pools', () => {
  it('each part is priced on its own pool: 60 % then the remainder', () => {
    const req = request({ amount: '10000000000' });
    const plan: RoutePlan = {
      sources: [{ path: pathOf(1, USDC, edge(UNI, USDC)), sharePpm: 600_000n }, { path: pathOf(1, USDC, edge(SUSHI, USDC)), sharePpm: 400_000n }],
      destinationSeparate: false,
    };
    const route = evaluate(req, plan);
    const a = cpOut(6_000_000_000n, 3_250_000_000_000n, 1000n * E18, 3000n);
    const b = cpOut(4_000_000_000n, 1_625_000_000_000n, 500n * E18, 3000n);
    expect(a + b).toBe(3_061_306_603_880_869_241n);
    expect(route.toAmount).toBe(a + b);
    expect(route.transactions[0].steps.map((s) => [s.tool, s.fromAmount, s.toAmount])).toEqual([['uniswap', 6_000_000_000n, a], ['sushiswap', 4_000_000_000n, b]]);
    // two hops, no fee collection: 75 000 + 65 000 + 2 · (60 000 + 60 000 SWAP_CALL_GAS) = 380 000
    expect(route.transactions[0].gasCost.estimate).toBe(380_000n);
    expect(route.integratorFee).toBe(0n);
    expect(route.overallPath).toBe('1:USDC~1:WETH|1:USDC~1:WETH');
  });

  it('the last part takes what rounding leaves', () => {
    const req = request({ amount: '1000000001' });
    const plan: RoutePlan = {
      sources: [{ path: pathOf(1, USDC, edge(UNI, USDC)), sharePpm: 333_333n }, { path: pathOf(1, USDC, edge(SUSHI, USDC)), sharePpm: 666_667n }],
      destinationSeparate: false,
    };
    const steps = evaluate(req, plan).transactions[0].steps;
    // floor(1_000_000_001 · 333 333 / 1e6) = 333_333_000; the rest 666_667_001
    expect(steps.map((s) => s.fromAmount)).toEqual([333_333_000n, 666_667_001n]);
  });
});

describe('evaluatePlan: bridge legs', () => {
  it('fixed fee, proportional fee, relayer gas and a messaging fee paid on top (bridge.ts formula)', () => {
    const req = request({ toChain: 10, toToken: 'USDC' });
    const route = evaluate(req, { sources: [], bridge: ACROSS, destinationSeparate: false });
    // in − fixed = 999 500 000; ·(1e6 − 400)/1e6 = 999 100 200 (exact); − destination gas 100 000
    const afterFixed = 1_000_000_000n - 500_000n;
    const afterProportional = (afterFixed * 999_600n) / 1_000_000n;
    expect(afterProportional).toBe(999_100_200n);
    const out = afterProportional - 100_000n;
    expect(route.toAmount).toBe(999_000_200n);
    expect(route.toAmount).toBe(out);
    expect(route.bridge).toEqual({ route: ACROSS, amountIn: 1_000_000_000n, amountOut: out, fees: { fixed: 500_000n, proportional: 399_800n, destinationGas: 100_000n } });
    // both stablecoins: 0.1 %
    expect(route.toAmountMin).toBe((out * 999_000n) / 1_000_000n);
    const tx = route.transactions[0];
    expect(tx).toMatchObject({ type: 'cross', tool: 'across', chainId: 1, toChainId: 10, toToken: tokenOf(10, 'USDC'), toAmount: out, durationSeconds: 132 });
    expect(tx.feeCosts.map((f) => [f.name, f.amount, f.percentage, f.included, f.token.symbol])).toEqual([
      ['across fee', 899_800n, '0.000899', true, 'USDC'], // (500 000 + 399 800) / 1e9 = 0.0008998 → 6 decimals, down
      ['Relayer destination gas', 100_000n, '0.0001', true, 'USDC'],
      ['Messaging fee', 100_000_000_000_000n, '0', false, 'ETH'],
    ]);
    expect(tx.feeCosts[0].amountUSD).toBeCloseTo(0.8998, 9);
    // 75 000 + 65 000 + the bridge's 150 000 gas (the deposit is no SwapData: no SWAP_CALL_GAS) = 290 000 gas; limit
    // ·1.25 = 362 500; at 20 gwei = 5.8e15 wei = 18.85 USD
    expect(tx.gasCost).toMatchObject({ estimate: 290_000n, amount: 5_800_000_000_000_000n, limit: 362_500n });
    expect(route.gasCostUSD).toBeCloseTo(18.85, 9);
    expect(route.extraFeesUSD).toBeCloseTo(0.325, 9); // 1e14 wei × 3250
    expect(route.durationSeconds).toBe(132); // a block on Ethereum + the bridge's 120 s
    // everything not delivered is an included fee: no price impact
    expect(route.priceImpact).toBeCloseTo(0, 9);
    expect(tx.steps).toEqual([{
      type: 'cross', tool: 'across', fromChainId: 1, toChainId: 10, fromToken: tokenOf(1, 'USDC'), toToken: tokenOf(10, 'USDC'),
      fromAmount: 1_000_000_000n, toAmount: out, durationSeconds: 120, feeCosts: tx.feeCosts, bridge: ACROSS,
    }]);
    expect(route.overallPath).toBe('1:USDC-across-10:USDC');
  });

  it('rescales to the destination token\'s decimals (USDC has 18 on BNB Chain)', () => {
    const req = request({ toChain: 56, toToken: 'USDC' });
    const route = evaluate(req, { sources: [], bridge: STARGATE, destinationSeparate: false });
    // floor(1e9 · 999 400 / 1e6) = 999 400 000 (6 decimals) → ·1e12
    expect(route.bridge!.amountOut).toBe(999_400_000_000_000_000_000n);
    expect(route.toAmount).toBe(999_400_000_000_000_000_000n);
    expect(route.bridge!.fees).toEqual({ fixed: 0n, proportional: 600_000n, destinationGas: 0n });
    expect(route.transactions[0].feeCosts.map((f) => [f.name, f.amount, f.percentage])).toEqual([['stargate fee', 600_000n, '0.0006']]);
    expect(route.toAmountUSD).toBeCloseTo(999.4, 9);
  });

  it('a bridge amount out of its limits, or eaten by its fees, fails with the reason', () => {
    const low = pricePlan(graph, request({ toChain: 10, toToken: 'USDC', amount: '999999' }), { sources: [], bridge: ACROSS, destinationSeparate: false }, 999_999n, new Map());
    expect(low).toEqual({ ok: false, code: 'AMOUNT_TOO_LOW', tool: 'across', message: 'across needs at least 1000000 USDC units from 1 to 10; the route brings 999999 USDC units' });
    const high = pricePlan(graph, request({ toChain: 10, toToken: 'USDC' }), { sources: [], bridge: ACROSS, destinationSeparate: false }, 2_000_000_000_000n, new Map());
    expect(high).toMatchObject({ ok: false, code: 'AMOUNT_TOO_HIGH', tool: 'across' });
    expect(!high.ok && high.message).toMatch(/moves at most 1000000000000 USDC units/);
    const greedy = { ...ACROSS, destinationGasFee: 2_000_000_000n };
    const eaten = pricePlan(graph, request({ toChain: 10, toToken: 'USDC' }), { sources: [], bridge: greedy, destinationSeparate: false }, 1_000_000_000n, new Map());
    expect(eaten).toEqual({ ok: false, code: 'FEES_HIGHER_THAN_AMOUNT', tool: 'across', message: 'across fees exceed the 1000000000 USDC units bridged' });
  });
});

describe('evaluatePlan: a swap on the destination chain', () => {
  const req = request({ toChain: 10, toToken: 'WETH' });
  const destination = pathOf(10, USDC_10, edge(OP, USDC_10));
  const ARRIVED = 999_000_200n; // as in the bridge test above

  it('inside the bridge transaction: its gas is charged in the bridged token, then the swap', () => {
    const plan: RoutePlan = { sources: [], bridge: ACROSS, destination, destinationSeparate: false };
    // the destination hop: a constant-product pool's 60 000 + SWAP_CALL_GAS 60 000 = 120 000, plus the call's own 50 000
    expect(destinationCallGas(plan, 0n)).toBe(120_000n + DESTINATION_CALL_GAS);
    expect(destinationCallGas(plan, 40_000n)).toBe(210_000n);
    const route = evaluate(req, plan);
    // (120 000 + 50 000) gas × 0.1 gwei = 1.7e13 wei = 1.7e-5 ETH = 0.05525 USD = 55 250 USDC units (exact, no rounding up)
    const callFee = 55_250n;
    const out = cpOut(ARRIVED - callFee, 650_000_000_000n, 200n * E18, 500n);
    expect(out).toBe(306_742_814_659_906_964n);
    expect(route.toAmount).toBe(out);
    expect(route.destination!.amountIn).toBe(ARRIVED - callFee);
    const tx = route.transactions[0];
    expect(tx.feeCosts.find((f) => f.name === 'Destination swap gas')).toMatchObject({ amount: callFee, percentage: '0.000055', token: tokenOf(10, 'USDC'), included: true });
    expect(tx.steps.map((s) => [s.type, s.tool, s.fromAmount, s.toAmount])).toEqual([
      ['cross', 'across', 1_000_000_000n, ARRIVED],
      ['swap', 'velodrome', ARRIVED - callFee, out],
    ]);
    expect(route.transactions).toHaveLength(1);
    expect(route.overallPath).toBe('1:USDC-across-10:USDC~10:WETH');
  });

  it('the destination call\'s fee rounds up, and contract calls add their gas to it', () => {
    const odd = new RoutingGraph(catalog, { ...snapshot, gas: new Map([...snapshot.gas, gas(10, 100_000_001n, 2)]) });
    const priced = (contractCallsGas?: bigint) => {
      const result = pricePlan(odd, { ...req, contractCallsGas }, { sources: [], bridge: ACROSS, destination, destinationSeparate: false }, req.amount, new Map());
      if (!result.ok) throw new Error(result.message);
      return result.amounts.destinationCallFee;
    };
    // 170 000 × 100 000 001 wei = 17 000 000 170 000 wei → ·3250·1e6/1e36 = 55 250.00055250 → 55 251
    expect(priced()).toBe(55_251n);
    // + 40 000 gas of contract calls: 210 000 × 100 000 001 = 21 000 000 210 000 wei → 68 250.00068250 → 68 251
    expect(priced(40_000n)).toBe(68_251n);
  });

  it('the destination call\'s gas larger than what arrives fails', () => {
    const expensive = new RoutingGraph(catalog, { ...snapshot, gas: new Map([...snapshot.gas, gas(10, 1_000_000_000_000n, 2)]) });
    const result = pricePlan(expensive, req, { sources: [], bridge: ACROSS, destination, destinationSeparate: false }, 1_000_000n, new Map());
    // 1 USDC bridged: floor(500 000 · 0.9996) − 100 000 = 399 800 arrive; 170 000 gas × 1000 gwei = 0.17 ETH = 552.5 USDC
    expect(result).toEqual({ ok: false, code: 'FEES_HIGHER_THAN_AMOUNT', tool: 'across', message: 'the destination swap\'s gas (552500000 USDC units) exceeds the 399800 units that arrive' });
  });

  it('as a second transaction after a chain switch: no call fee, its own gas and duration', () => {
    const route = evaluate(req, { sources: [], bridge: ACROSS, destination, destinationSeparate: true });
    const out = cpOut(ARRIVED, 650_000_000_000n, 200n * E18, 500n);
    expect(out).toBe(306_759_754_078_233_433n);
    expect(route.toAmount).toBe(out);
    expect(route.containsSwitchChain).toBe(true);
    const [first, second] = route.transactions;
    expect(first).toMatchObject({ chainId: 1, toToken: tokenOf(10, 'USDC'), toAmount: ARRIVED, toAmountMin: (ARRIVED * 995_000n) / 1_000_000n });
    expect(first.feeCosts.some((f) => f.name === 'Destination swap gas')).toBe(false);
    expect(second).toMatchObject({
      chainId: 10, toChainId: 10, type: 'swap', tool: 'velodrome', fromToken: tokenOf(10, 'USDC'), toToken: tokenOf(10, 'WETH'),
      fromAmount: ARRIVED, toAmount: out, toAmountMin: (out * 995_000n) / 1_000_000n, durationSeconds: 2,
    });
    // 75 000 + 65 000 + (60 000 + 60 000 SWAP_CALL_GAS) = 260 000 gas; limit ·1.25 = 325 000; at 0.1 gwei = 2.6e13 wei
    expect(second.gasCost).toMatchObject({ chainId: 10, estimate: 260_000n, limit: 325_000n, amount: 26_000_000_000_000n });
    // the bridge transaction's 290 000 gas at 20 gwei (18.85 USD, as in the bridge test) + 2.6e13 wei × 3250 = 0.0845 USD
    expect(route.gasCostUSD).toBeCloseTo(18.85 + 0.0845, 9);
    expect(route.durationSeconds).toBe(12 + 120 + 2);
  });
});

describe('evaluatePlan: failures and ids', () => {
  it('a hop that gives nothing for the amount → INSUFFICIENT_LIQUIDITY naming the path', () => {
    const req = request({ fromToken: 'WETH', toToken: 'USDC', amount: '1' });
    const result = evaluatePlan(graph, req, { sources: [{ path: pathOf(1, WETH, edge(UNI, WETH)), sharePpm: 1_000_000n }], destinationSeparate: false }, 1n, new Map());
    expect(result).toEqual({ ok: false, code: 'INSUFFICIENT_LIQUIDITY', tool: 'uniswap', message: 'not enough liquidity on 1:WETH~1:USDC for 1' });
  });

  it('routeId: a UUID-shaped id, the same for the same request and path, another for another amount', () => {
    const req = request({});
    const id = routeId(req, '1:USDC~1:WETH', 1_000_000_000n);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(routeId(request({}), '1:USDC~1:WETH', 1_000_000_000n)).toBe(id);
    expect(routeId(req, '1:USDC~1:WETH', 1_000_000_001n)).not.toBe(id);
    expect(routeId(req, '1:USDC~1:DAI~1:WETH', 1_000_000_000n)).not.toBe(id);
  });
});
