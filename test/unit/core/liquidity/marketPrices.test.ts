/**
 * Prices from pools (chain mode), against hand-worked examples: V2 reserves and a V3 pool's sqrtPriceX96 and
 * in-range liquidity, the depth threshold, the depth-weighted median, prices through a priced coin, native coins.
 */
import path from 'node:path';
import { loadCatalog } from '../../../../src/files/catalog';
import type { Token } from '../../../../src/core/entities';
import type { ConcentratedPoolState, ConstantProductPoolState, PoolState } from '../../../../src/core/liquidity/snapshot';
import { catalogAtPrices, formatPrice, marketPrices, pricesOf, weightedMedian } from '../../../../src/core/liquidity/marketPrices';

const catalog = loadCatalog(path.join(__dirname, '../../../../data/catalog'));
const ETH = 1;
const ARB = 42161;
const address = (chainId: number, symbol: string) => catalog.findToken(chainId, symbol)!.address.toLowerCase();
const USDC = address(ETH, 'USDC');
const WETH = address(ETH, 'WETH');
const WBTC = address(ETH, 'WBTC');

let n = 0;
function v2(chainId: number, tokens: [string, string], reserves: [bigint, bigint]): ConstantProductPoolState {
  const id = `test-v2-${++n}`;
  return { id, chainId, exchange: 'uniswap', address: `0x${n.toString(16).padStart(40, '0')}`, kind: 'constantProduct', feePpm: 3000n, tokens, reserves };
}
function v3(chainId: number, tokens: [string, string], sqrtPriceX96: bigint, liquidity: bigint): ConcentratedPoolState {
  const id = `test-v3-${++n}`;
  return {
    id, chainId, exchange: 'uniswap', address: `0x${n.toString(16).padStart(40, '0')}`, kind: 'concentrated', feePpm: 500n, tokens,
    v3: { sqrtPriceX96, tick: 0, liquidity, feePpm: 500n, tickSpacing: 10, ticks: [] },
  };
}

// USDC (6 decimals) sorts before WETH (18): token 0 is USDC. 3,000,000 USDC against 1,000 WETH: 3,000 USD a WETH,
// $3M deep on the USDC side.
const deepV2 = v2(ETH, [USDC, WETH], [3_000_000n * 10n ** 6n, 1_000n * 10n ** 18n]);
// A V3 pool at 3,100 USD a WETH: raw WETH per raw USDC = 10^12 / 3100, √ of it = 17,960.530...; in-range liquidity L
// with L / √P = 10^12 raw USDC (1,000,000 USDC of virtual reserve): L = 10^12 · 17,960.53 ≈ 1.796·10^16.
const sqrtRaw = Math.sqrt(1e12 / 3100);
const v3Pool = v3(ETH, [USDC, WETH], BigInt(Math.round(sqrtRaw * 2 ** 48)) * 2n ** 48n, BigInt(Math.round(1e12 * sqrtRaw)));
const priced = (pools: PoolState[], minDepthUSD = 50_000) => marketPrices(catalog, pools, new Set([ETH]), { minDepthUSD });

test('a V2 pair prices WETH by its reserves; the native coin follows its wrapped token; stablecoins keep theirs', () => {
  const { prices } = priced([deepV2]);
  expect(prices.get('WETH')).toBe('3000');
  expect(prices.get('ETH')).toBe('3000');
  expect(prices.get('USDC')).toBe(catalog.findToken(ETH, 'USDC')!.priceUSD);
});

test('a V3 pool prices by sqrtPriceX96, weighted by the virtual reserves of its in-range liquidity', () => {
  expect(priced([v3Pool]).prices.get('WETH')).toBe('3100');
  // $3M at 3,000 against $1M at 3,100: half the depth is at 3,000
  expect(priced([deepV2, v3Pool]).prices.get('WETH')).toBe('3000');
  // out of range (no liquidity at the price): no depth, no price
  expect(priced([{ ...v3Pool, v3: { ...v3Pool.v3, liquidity: 0n } }]).prices.has('WETH')).toBe(false);
});

test('a thin pool does not count; a pool above the threshold is outweighed by deeper ones', () => {
  // 40,000 USDC against 4.444 WETH (9,000 USD a WETH): under $50,000 deep
  const thin = v2(ETH, [USDC, WETH], [40_000n * 10n ** 6n, 4_444_444_444_444_444_444n]);
  expect(priced([thin]).prices.has('WETH')).toBe(false);
  expect(priced([thin], 10_000).prices.get('WETH')).toBe('9000');
  const manipulated = v2(ETH, [USDC, WETH], [60_000n * 10n ** 6n, 6_666_666_666_666_666_666n]);
  expect(priced([deepV2, manipulated]).prices.get('WETH')).toBe('3000');
});

test('a coin paired only with a priced coin is priced through it (WBTC/WETH after WETH/USDC)', () => {
  // WBTC (8 decimals) sorts before WETH: 10 WBTC against 300 WETH = 30 WETH = 90,000 USD, $900,000 deep in WETH
  const wbtc = v2(ETH, [WBTC, WETH], [10n * 10n ** 8n, 300n * 10n ** 18n]);
  const { prices, unpriced } = priced([wbtc, deepV2]);
  expect(prices.get('WBTC')).toBe('90000');
  expect(unpriced).toContain('LINK');
  expect(unpriced).not.toContain('WBTC');
  // without WETH's price, nothing prices WBTC
  expect(priced([wbtc]).prices.has('WBTC')).toBe(false);
});

test('a discovered token is priced by its own deep pools, never prices another coin, and is "0" without one', () => {
  const found: Token = {
    chainId: ETH, address: '0x00000000000000000000000000000000000D15c0', symbol: 'WETH', name: 'Not WETH', decimals: 18,
    coinKey: `${ETH}:0x00000000000000000000000000000000000D15c0`, priceUSD: '0', tags: [], verificationStatus: 'unverified',
  };
  const withFound = catalog.withDiscoveredTokens([found]);
  const FOUND = found.address.toLowerCase();
  // 100,000 USDC against 50,000 of it: 2 USD, $100,000 deep in USDC
  const deep = v2(ETH, [FOUND, USDC].sort() as [string, string], FOUND < USDC ? [50_000n * 10n ** 18n, 100_000n * 10n ** 6n] : [100_000n * 10n ** 6n, 50_000n * 10n ** 18n]);
  // and a pool of it with WBTC, holding 1,000,000 of it (so $2,000,000 of depth at its price) against 1 WBTC
  const lure = v2(ETH, [WBTC, FOUND].sort() as [string, string], WBTC < FOUND ? [10n ** 8n, 10n ** 24n] : [10n ** 24n, 10n ** 8n]);
  const { prices, unpriced } = marketPrices(withFound, [deep, lure], new Set([ETH]));
  expect(prices.get(found.coinKey)).toBe('2');
  // WBTC is not priced from it (2,000,000 USD a WBTC), nor is WETH's price taken from the token that claims its symbol
  expect(prices.has('WBTC')).toBe(false);
  expect(prices.has('WETH')).toBe(false);
  expect(prices.has('ETH')).toBe(false);
  expect(unpriced).toEqual(expect.arrayContaining(['WBTC', 'WETH']));
  // without a deep pool it has no price: "0" in the catalog at market prices
  const thin = marketPrices(withFound, [lure], new Set([ETH]));
  expect(thin.unpriced).toContain(found.coinKey);
  expect(catalogAtPrices(withFound, withFound, thin.prices).findToken(ETH, found.address)!.priceUSD).toBe('0');
});

test('pools of chains not followed price nothing', () => {
  const arbUsdc = address(ARB, 'USDC');
  const arbWeth = address(ARB, 'WETH');
  const arb = v2(ARB, arbUsdc < arbWeth ? [arbUsdc, arbWeth] : [arbWeth, arbUsdc], [10n ** 12n, 10n ** 20n]);
  expect(priced([arb]).prices.has('WETH')).toBe(false);
});

test('weighted median and price text', () => {
  expect(weightedMedian([{ price: 1, depthUSD: 1 }, { price: 2, depthUSD: 1 }, { price: 3, depthUSD: 1 }])).toBe(2);
  expect(weightedMedian([{ price: 5, depthUSD: 10 }, { price: 1, depthUSD: 1 }, { price: 2, depthUSD: 1 }])).toBe(5);
  expect(formatPrice(3250)).toBe('3250');
  expect(formatPrice(95123.456)).toBe('95123.5');
  expect(formatPrice(0.000123456789)).toBe('0.000123457');
  expect(formatPrice(1.5)).toBe('1.5');
});

test('the catalog at market prices: every chain\'s tokens of the coin, native coins; unchanged prices keep the catalog', () => {
  const market = new Map([['WETH', '3000'], ['ETH', '3000']]);
  const repriced = catalogAtPrices(catalog, catalog, market);
  expect(repriced).not.toBe(catalog);
  expect(repriced.findToken(ARB, 'WETH')!.priceUSD).toBe('3000');
  expect(repriced.getChain(ARB)!.nativeToken.priceUSD).toBe('3000');
  expect(repriced.findToken(ETH, 'LINK')!.priceUSD).toBe(catalog.findToken(ETH, 'LINK')!.priceUSD);
  expect(catalogAtPrices(catalog, repriced, market)).toBe(repriced);
  // a price the pools no longer give goes back to the reference; numerically equal text is kept as it is
  const back = catalogAtPrices(catalog, repriced, new Map());
  expect(back.findToken(ARB, 'WETH')!.priceUSD).toBe(catalog.findToken(ARB, 'WETH')!.priceUSD);
  expect(catalogAtPrices(catalog, catalog, new Map([['WETH', Number(catalog.findToken(ETH, 'WETH')!.priceUSD).toString()]]))).toBe(catalog);
  expect(pricesOf(repriced).get('ETH')).toBe('3000');
});
