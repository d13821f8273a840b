import { DEFAULT_DATA_DIR } from '../../../../src/config';
import { loadCatalog } from '../../../../src/files/catalog';
import { InvalidRequestError } from '../../../../src/core/errors';
import type { BridgeRoute, ChainGas, ConstantProductPoolState, LiquiditySnapshot, PoolState } from '../../../../src/core/liquidity/snapshot';
import { RouteFinder } from '../../../../src/core/routing/finder';
import { RoutingGraph } from '../../../../src/core/routing/graph';
import { buildRouteRequest, type RouteParameters } from '../../../../src/core/routing/request';
import type { Route } from '../../../../src/core/routing/route';
import type { Token } from '../../../../src/core/entities';

// The real catalog, tiny hand-made snapshots whose best routes are worked out by hand below.
const catalog = loadCatalog(DEFAULT_DATA_DIR);
const key = (chainId: number, symbol: string) => catalog.addressKey(chainId, catalog.findToken(chainId, symbol)!.address);
const USDC = key(1, 'USDC');
const WETH = key(1, 'WETH');
const DAI = key(1, 'DAI');
const USDC_10 = key(10, 'USDC');
const E18 = 10n ** 18n;

const cp = (id: string, exchange: string, address: string, tokens: [string, string], reserves: [bigint, bigint], feePpm = 3000n): ConstantProductPoolState => ({
  id, chainId: 1, exchange, kind: 'constantProduct', address, tokens, feePpm, reserves,
});
/** 3 250 000 USDC : 1000 WETH, the reference price of WETH (3250 USD). */
const UNI = cp('uni', 'uniswap', '0x1000000000000000000000000000000000000001', [USDC, WETH], [3_250_000_000_000n, 1000n * E18]);
/** The same pair 5 % poorer: 950 WETH for the same USDC. */
const SUSHI = cp('sushi', 'sushiswap', '0x1000000000000000000000000000000000000002', [USDC, WETH], [3_250_000_000_000n, 950n * E18]);
/** USDC ↔ DAI 1:1, 0.01 %; DAI ↔ WETH at the reference price. */
const STABLE = cp('stable', 'curve', '0x1000000000000000000000000000000000000003', [USDC, DAI], [10_000_000_000_000n, 10_000_000n * E18], 100n);
const DAI_WETH = cp('dai-weth', 'uniswap', '0x1000000000000000000000000000000000000004', [DAI, WETH], [3_250_000n * E18, 1000n * E18]);
const ACROSS: BridgeRoute = {
  bridge: 'across', fromChainId: 1, toChainId: 10, coinKey: 'USDC', fromToken: USDC, toToken: USDC_10,
  feePpm: 400n, fixedFee: 500_000n, destinationGasFee: 100_000n, minAmount: 1_000_000n, maxAmount: 1_000_000_000_000n,
  durationSeconds: 120, gasUnits: 150_000n, nativeFee: 0n, mechanism: 'relayer',
};

const gas = (chainId: number, gasPriceWei: bigint): [number, ChainGas] => [chainId, { chainId, gasPriceWei, nativePriceUSD: 3250, blockTimeSeconds: 12, finalitySeconds: 60 }];
const finderOn = (pools: PoolState[], bridges: BridgeRoute[] = []) => {
  const snapshot: LiquiditySnapshot = { asOf: '2026-01-01', pools, bridges, gas: new Map([gas(1, 20_000_000_000n), gas(10, 100_000_000n)]) };
  return new RouteFinder(new RoutingGraph(catalog, snapshot));
};

const request = (p: Partial<RouteParameters> = {}) =>
  buildRouteRequest(catalog, { fromChain: 1, toChain: 1, fromToken: 'USDC', toToken: 'WETH', amount: '1000000000', mode: 'exactIn', ...p });

/** Constant product by hand: floor(in·(1e6−fee)·R_out / (R_in·1e6 + in·(1e6−fee))). */
const cpOut = (amountIn: bigint, [rIn, rOut]: [bigint, bigint], feePpm = 3000n) =>
  (amountIn * (1_000_000n - feePpm) * rOut) / (rIn * 1_000_000n + amountIn * (1_000_000n - feePpm));
/** Its inverse (UniswapV2Library.getAmountIn): floor(R_in·out·1e6 / ((R_out − out)·(1e6−fee))) + 1. */
const cpIn = (amountOut: bigint, [rIn, rOut]: [bigint, bigint], feePpm = 3000n) =>
  (rIn * amountOut * 1_000_000n) / ((rOut - amountOut) * (1_000_000n - feePpm)) + 1n;

const poolsOf = (route: Route) => route.transactions.flatMap((t) => t.steps.map((s) => s.poolId ?? s.tool));

describe('RouteFinder: same-chain swaps', () => {
  const twoPools = finderOn([SUSHI, UNI]);

  it('two pools on the same pair: the better one is chosen, with its exact output', () => {
    const { routes } = twoPools.find(request({ maxRoutes: 3 }));
    expect(routes.length).toBeGreaterThanOrEqual(1);
    const [best] = routes;
    expect(poolsOf(best)).toEqual(['uni']);
    const out = cpOut(1_000_000_000n, [3_250_000_000_000n, 1000n * E18]);
    expect(best.toAmount).toBe(out);
    expect(best.toAmount).toBeGreaterThan(cpOut(1_000_000_000n, [3_250_000_000_000n, 950n * E18]));
    expect(best.tags).toEqual(['RECOMMENDED', 'CHEAPEST', 'FASTEST']);
    expect(best.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
    // the poorer pool is never ranked above it
    expect(routes.slice(1).every((r) => r.toAmount <= best.toAmount)).toBe(true);
  });

  it('a two-hop path beats a poor direct pool when its extra output is worth more than the extra hop\'s gas', () => {
    const finder = finderOn([SUSHI, STABLE, DAI_WETH]);
    const [best] = finder.find(request()).routes;
    // 1000 USDC → DAI at 0.01 %, then DAI → WETH at the reference price
    const dai = cpOut(1_000_000_000n, [10_000_000_000_000n, 10_000_000n * E18], 100n);
    expect(dai).toBe(999_800_029_995_000_799_870n);
    const twoHops = cpOut(dai, [3_250_000n * E18, 1000n * E18]);
    const direct = cpOut(1_000_000_000n, [3_250_000_000_000n, 950n * E18]);
    // ≈ 0.0144 WETH (≈ 47 USD) more, for 60 000 more gas (1.2e15 wei ≈ 3.9 USD)
    expect(Number(twoHops - direct) / 1e18 * 3250).toBeGreaterThan(40);
    expect(poolsOf(best)).toEqual(['stable', 'dai-weth']);
    expect(best.toAmount).toBe(twoHops);
    expect(best.transactions[0].steps.map((s) => s.toAmount)).toEqual([dai, twoHops]);
  });

  it('the native coin is wrapped first (a free wrap edge), then sold where WETH is dearer (the 950-WETH pool)', () => {
    const [best] = twoPools.find(request({ fromToken: 'ETH', toToken: 'USDC', amount: String(E18) })).routes;
    expect(best.transactions[0].steps.map((s) => [s.tool, s.fromToken.symbol, s.toToken.symbol])).toEqual([['wrapper', 'ETH', 'WETH'], ['sushiswap', 'WETH', 'USDC']]);
    const out = cpOut(E18, [950n * E18, 3_250_000_000_000n]);
    expect(out).toBeGreaterThan(cpOut(E18, [1000n * E18, 3_250_000_000_000n]));
    expect(best.toAmount).toBe(out);
  });

  it('exact output: the fewest USDC that buy at least the requested WETH (the pool\'s exact inverse)', () => {
    const want = 100_000_000_000_000_000n; // 0.1 WETH
    const [best] = twoPools.find(request({ mode: 'exactOut', amount: String(want) })).routes;
    const fromAmount = cpIn(want, [3_250_000_000_000n, 1000n * E18]);
    expect(best.fromAmount).toBe(fromAmount);
    expect(best.toAmount).toBeGreaterThanOrEqual(want);
    expect(best.toAmount).toBe(cpOut(fromAmount, [3_250_000_000_000n, 1000n * E18]));
    // one unit less would not be enough
    expect(cpOut(fromAmount - 1n, [3_250_000_000_000n, 1000n * E18])).toBeLessThan(want);
    expect(poolsOf(best)).toEqual(['uni']);
  });

  describe('exact output with an integrator fee of 0.3 %', () => {
    const want = 100_000_000_000_000_000n;
    const swapIn = cpIn(want, [3_250_000_000_000n, 1000n * E18]);
    const rest = (x: bigint) => x - (x * 3000n) / 1_000_000n;

    it('the swap input by hand, and the smallest amount that leaves it after the fee', () => {
      expect(swapIn).toBe(326_010_535n);
      // ceil(326 010 535 · 1e6 / 997 000) = 326 991 510 leaves 326 010 536; one unit less, 326 991 509, leaves exactly 326 010 535
      expect(rest(326_991_510n)).toBe(326_010_536n);
      expect(rest(326_991_509n)).toBe(326_010_535n);
      expect(rest(326_991_508n)).toBeLessThan(swapIn);
    });

    it('sends enough: after the fee the swap gets at least its input, and the output is at least the request', () => {
      const [best] = twoPools.find(request({ mode: 'exactOut', amount: String(want), fee: 0.003, integrator: 'acme' })).routes;
      expect(rest(best.fromAmount)).toBeGreaterThanOrEqual(swapIn);
      expect(best.integratorFee).toBe((best.fromAmount * 3000n) / 1_000_000n);
      expect(best.toAmount).toBeGreaterThanOrEqual(want);
    });

    // ceil(net·1e6/(1e6 − ppm)) can be one unit above the smallest (326 991 510 here): the finder asks for the smallest
    it('asks for the smallest such amount', () => {
      const [best] = twoPools.find(request({ mode: 'exactOut', amount: String(want), fee: 0.003, integrator: 'acme' })).routes;
      expect(best.fromAmount).toBe(326_991_509n);
      expect(rest(best.fromAmount - 1n)).toBeLessThan(swapIn);
    });
  });

  it('denyExchanges / allowExchanges exclude an exchange: the other pool is used', () => {
    const poorOut = cpOut(1_000_000_000n, [3_250_000_000_000n, 950n * E18]);
    for (const exchanges of [{ deny: ['uniswap'] }, { allow: ['sushiswap'] }]) {
      const { routes } = twoPools.find(request({ exchanges }));
      expect(routes.map(poolsOf)).toEqual([['sushi']]);
      expect(routes[0].toAmount).toBe(poorOut);
    }
  });

  it('denyPools excludes a pool by its address', () => {
    const { routes } = twoPools.find(request({ denyPools: [UNI.address.toUpperCase().replace('0X', '0x')] }));
    expect(routes.map(poolsOf)).toEqual([['sushi']]);
  });

  it('no allowed exchange left: no route, with the reason that liquidity exists elsewhere', () => {
    const result = twoPools.find(request({ exchanges: { deny: ['uniswap', 'sushiswap'] } }));
    expect(result.routes).toEqual([]);
    expect(result.unavailable.failed).toHaveLength(1);
    const [error] = Object.values(result.unavailable.failed[0].subpaths)[0];
    expect(error).toMatchObject({ errorType: 'NO_QUOTE', code: 'INSUFFICIENT_LIQUIDITY', tool: 'swap' });
    expect(error.message).toMatch(/with the allowed exchanges/);
  });

  it('a price impact above maxPriceImpact is filtered out, saying so', () => {
    const result = twoPools.find(request({ exchanges: { allow: ['sushiswap'] }, maxPriceImpact: 0.01 }));
    expect(result.routes).toEqual([]);
    // 5 % poorer pool and 0.3 % fee: ≈ 5.3 % below the reference price
    expect(result.unavailable.filteredOut).toEqual([{ overallPath: '1:USDC~1:WETH', reason: expect.stringMatching(/^price impact 5\.\d\d% is above maxPriceImpact 1\.00%$/) }]);
  });

  it('the same token on the same chain → InvalidRequestError naming toToken', () => {
    let error: unknown;
    try {
      twoPools.find(request({ toToken: 'USDC' }));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).details).toEqual({
      issues: [{ name: 'toToken', rule: 'differentFromFromToken', message: 'same token as fromToken on the same chain' }],
    });
  });

  it('no pool joins the tokens → an empty result with the reason', () => {
    const result = twoPools.find(request({ toToken: 'LINK' }));
    expect(result.routes).toEqual([]);
    expect(result.unavailable.filteredOut).toEqual([]);
    expect(result.unavailable.failed).toEqual([{
      overallPath: '1:USDC~1:LINK',
      subpaths: {
        '1:USDC~1:LINK': [{
          errorType: 'NO_QUOTE', code: 'NO_POSSIBLE_ROUTE', tool: 'swap', message: 'no pools connect USDC and LINK within 3 hops on chain 1',
          action: { fromChainId: 1, toChainId: 1, fromToken: catalog.findToken(1, 'USDC'), toToken: catalog.findToken(1, 'LINK'), fromAmount: 1_000_000_000n },
        }],
      },
    }]);
  });
});

describe('RouteFinder: across chains', () => {
  it('a bridge route: what arrives is the bridge formula on the amount sent', () => {
    const finder = finderOn([UNI], [ACROSS]);
    const [best] = finder.find(request({ toChain: 10, toToken: 'USDC' })).routes;
    // floor((1e9 − 500 000)·(1e6 − 400)/1e6) − 100 000
    expect(best.toAmount).toBe(((1_000_000_000n - 500_000n) * 999_600n) / 1_000_000n - 100_000n);
    expect(best.toAmount).toBe(999_000_200n);
    expect(best.transactions[0]).toMatchObject({ type: 'cross', tool: 'across', toChainId: 10 });
  });

  it('a swap before the bridge: WETH → USDC on Ethereum, then across', () => {
    const finder = finderOn([UNI], [ACROSS]);
    const [best] = finder.find(request({ fromToken: 'WETH', toChain: 10, toToken: 'USDC', amount: String(E18) })).routes;
    const usdc = cpOut(E18, [1000n * E18, 3_250_000_000_000n]);
    expect(best.transactions[0].steps.map((s) => [s.tool, s.toAmount])).toEqual([['uniswap', usdc], ['across', ((usdc - 500_000n) * 999_600n) / 1_000_000n - 100_000n]]);
  });

  it('a denied bridge is filtered out with the reason', () => {
    const result = finderOn([UNI], [ACROSS]).find(request({ toChain: 10, toToken: 'USDC', bridges: { deny: ['across'] } }));
    expect(result.routes).toEqual([]);
    expect(result.unavailable.filteredOut).toEqual([{ overallPath: '1:USDC~1:USDC-across-10:USDC~10:USDC', reason: 'bridge across is in denyBridges' }]);
  });

  it('no bridge between the chains → an empty result naming them', () => {
    const result = finderOn([UNI]).find(request({ toChain: 10, toToken: 'USDC' }));
    expect(result.routes).toEqual([]);
    const [error] = Object.values(result.unavailable.failed[0].subpaths)[0];
    expect(error).toMatchObject({ code: 'NO_POSSIBLE_ROUTE', tool: 'bridge', message: 'no bridge connects Ethereum (1) and OP Mainnet (10)' });
  });

  it('an amount below the bridge minimum fails with AMOUNT_TOO_LOW', () => {
    const result = finderOn([UNI], [ACROSS]).find(request({ toChain: 10, toToken: 'USDC', amount: '999999' }));
    expect(result.routes).toEqual([]);
    const [error] = Object.values(result.unavailable.failed[0].subpaths)[0];
    expect(error).toMatchObject({ code: 'AMOUNT_TOO_LOW', tool: 'across' });
  });

  it('an exact output the bridge cannot carry says so in the units of the token it names, the amount and the limit alike', () => {
    // WETH on Ethereum → 2,000,000 USDC on OP: across would carry more USDC than its maximum (1,000,000 USDC)
    const result = finderOn([UNI], [ACROSS]).find(request({ mode: 'exactOut', fromToken: 'WETH', toChain: 10, toToken: 'USDC', amount: '2000000000000' }));
    expect(result.routes).toEqual([]);
    const [error] = Object.values(result.unavailable.failed[0].subpaths)[0];
    expect(error.message).toBe('across cannot deliver 2000000000000 units of USDC (2000000 USDC): the amount it would carry is AMOUNT_TOO_HIGH (limit 1000000000000 units of USDC (1000000 USDC))');
  });
});

describe('RouteFinder: a token without a USD price (discovered, unpriced)', () => {
  const FOUND: Token = {
    chainId: 1, address: '0x00000000000000000000000000000000000D15c0', symbol: 'USDC', decimals: 18, name: 'Not USD Coin',
    coinKey: '1:0x00000000000000000000000000000000000D15c0', priceUSD: '0', tags: [], verificationStatus: 'unverified',
  };
  const withFound = catalog.withDiscoveredTokens([FOUND]);
  const X = withFound.addressKey(1, FOUND.address);
  // directly: 1,000,000 of it against 1,000,000 USDC; through DAI: 1,100,000 of it against 1,000,000 DAI (more out, more gas)
  const DIRECT = cp('direct', 'uniswap', '0x1000000000000000000000000000000000000005', [X, USDC], [1_000_000n * E18, 1_000_000_000_000n]);
  const VIA_DAI = cp('via-dai', 'uniswap', '0x1000000000000000000000000000000000000006', [X, DAI], [1_100_000n * E18, 1_000_000n * E18]);
  const snapshot: LiquiditySnapshot = { asOf: '2026-01-01', pools: [DIRECT, VIA_DAI, STABLE], bridges: [], gas: new Map([gas(1, 20_000_000_000n)]) };
  const finder = new RouteFinder(new RoutingGraph(withFound, snapshot));
  const ask = (p: Partial<RouteParameters>) => buildRouteRequest(withFound, { fromChain: 1, toChain: 1, fromToken: 'USDC', toToken: FOUND.address, amount: '1000000000', mode: 'exactIn', ...p });

  it('routes to it, most received first (its amount cannot be weighed against gas), price impact unknown and never filtered', () => {
    const { routes } = finder.find(ask({ maxRoutes: 2, maxPriceImpact: 0 }));
    expect(routes.map(poolsOf)).toEqual([['stable', 'via-dai'], ['direct']]);
    const viaDai = cpOut(cpOut(1_000_000_000n, [10_000_000_000_000n, 10_000_000n * E18], 100n), [1_000_000n * E18, 1_100_000n * E18]);
    expect(routes[0].toAmount).toBe(viaDai);
    expect(routes[0].toAmount).toBeGreaterThan(routes[1].toAmount);
    expect(routes[0].gasCostUSD).toBeGreaterThan(routes[1].gasCostUSD);
    expect(routes.map((r) => [r.priceImpact, r.toAmountUSD])).toEqual([[undefined, 0], [undefined, 0]]);
    expect(routes[0].tags).toEqual(expect.arrayContaining(['RECOMMENDED', 'CHEAPEST']));
  });

  it('routes from it at the USD value received; an exact-output search to it ranks by what it costs', () => {
    const sell = finder.find(ask({ fromToken: FOUND.address, toToken: 'USDC', amount: String(1000n * E18) }));
    expect(sell.routes[0].priceImpact).toBeUndefined();
    expect(sell.routes[0].toAmountUSD).toBeGreaterThan(0);
    const exactOut = finder.find(ask({ mode: 'exactOut', amount: String(1000n * E18), maxRoutes: 2 }));
    expect(exactOut.routes.length).toBe(2);
    expect(exactOut.routes[0].fromAmount).toBeLessThan(exactOut.routes[1].fromAmount);
  });
});
