/**
 * Concentrated-liquidity (Uniswap V3-style) pool state from a USD depth.
 *
 * - Price: P = token1 raw per token0 raw = (priceUSD0 / priceUSD1)·10^(decimals1 − decimals0);
 *   sqrtPriceX96 = floor(√(P·2^192)) computed exactly with integers; tick = getTickAtSqrtRatio(sqrtPriceX96).
 * - Positions: one per band of the fee tier (data/sources/liquidity.json `concentratedBands`). A band of half-width
 *   h ticks spans [tick − h', tick + h''] with h', h'' = h·(1 ± 25 %) (deterministic jitter from the pool id),
 *   rounded outwards to multiples of tickSpacing, so every band contains the current tick.
 * - Liquidity of a band worth V USD: with √P the current price and √Pa, √Pb its bounds, the amounts held per unit
 *   of liquidity are x = (√Pb − √P)/(√P·√Pb) (token0) and y = √P − √Pa (token1) (V3 whitepaper 6.29–6.30), so
 *   L = V / (x·priceUSD0/10^d0 + y·priceUSD1/10^d1). Evaluated with SqrtPriceMath.getAmount{0,1}Delta at a
 *   reference liquidity of 10^30 and scaled, rounding down.
 * - Ticks: +L at each lower bound, −L at each upper bound, merged per tick; `liquidity` = Σ L (all bands are
 *   in range). Swaps that leave the outermost band exhaust the snapshot window.
 */
import { getAmount0Delta, getAmount1Delta } from '../../src/core/math/sqrtPriceMath';
import { isqrt } from '../../src/core/math/rational';
import { getSqrtRatioAtTick, getTickAtSqrtRatio } from '../../src/core/math/tickMath';
import type { CatalogToken } from '../catalog/types';
import type { BandParams, ConcentratedPool } from './types';
import { jitter, modelAddress, parseDecimal, type Rational } from './units';

const TEN = 10n;
const REFERENCE_LIQUIDITY = TEN ** 30n;
const BAND_WIDTH_SPREAD_PPM = 250_000;

/** floor(√(P·2^192)) for P = token1 raw per token0 raw implied by the catalog USD prices. */
export function sqrtPriceX96FromPrices(token0: CatalogToken, token1: CatalogToken): bigint {
  const p0 = parseDecimal(token0.priceUSD);
  const p1 = parseDecimal(token1.priceUSD);
  const num = p0.num * p1.den * TEN ** BigInt(token1.decimals);
  const den = p0.den * p1.num * TEN ** BigInt(token0.decimals);
  return isqrt((num << 192n) / den); // both steps round down
}

/** Liquidity whose position over [sqrtA, sqrtB] holds `usd` worth of tokens at sqrtP (sqrtA < sqrtP < sqrtB). */
export function liquidityForUsd(
  usd: Rational, sqrtP: bigint, sqrtA: bigint, sqrtB: bigint, token0: CatalogToken, token1: CatalogToken,
): bigint {
  const amount0 = getAmount0Delta(sqrtP, sqrtB, REFERENCE_LIQUIDITY, false);
  const amount1 = getAmount1Delta(sqrtA, sqrtP, REFERENCE_LIQUIDITY, false);
  const p0 = parseDecimal(token0.priceUSD);
  const p1 = parseDecimal(token1.priceUSD);
  const scale0 = TEN ** BigInt(token0.decimals);
  const scale1 = TEN ** BigInt(token1.decimals);
  // value of the reference position in USD = valueNum / valueDen
  const valueNum = amount0 * p0.num * p1.den * scale1 + amount1 * p1.num * p0.den * scale0;
  const valueDen = p0.den * p1.den * scale0 * scale1;
  return (REFERENCE_LIQUIDITY * usd.num * valueDen) / (usd.den * valueNum); // rounds down
}

function floorToSpacing(tick: number, spacing: number): number {
  return Math.floor(tick / spacing) * spacing;
}

function ceilToSpacing(tick: number, spacing: number): number {
  return Math.ceil(tick / spacing) * spacing;
}

function jitteredHalfWidth(halfWidth: number, key: string): number {
  const factor = jitter(key, BAND_WIDTH_SPREAD_PPM);
  return Math.max(1, Number((BigInt(halfWidth) * factor.num) / factor.den));
}

export interface ConcentratedInput {
  id: string;
  chainId: number;
  exchange: string;
  token0: CatalogToken;
  token1: CatalogToken;
  feePpm: number;
  tickSpacing: number;
  bands: BandParams[];
  usd: Rational;
  /** The address its factory gives it (routers.json); absent: its model address. */
  address?: string;
}

export function buildConcentratedPool(input: ConcentratedInput): ConcentratedPool {
  const { id, token0, token1, tickSpacing, bands } = input;
  const sqrtPriceX96 = sqrtPriceX96FromPrices(token0, token1);
  const tick = getTickAtSqrtRatio(sqrtPriceX96);
  const totalWeight = bands.reduce((sum, band) => sum + BigInt(band.weight), 0n);
  const net = new Map<number, bigint>();
  let liquidity = 0n;
  bands.forEach((band, k) => {
    const lower = floorToSpacing(tick - jitteredHalfWidth(band.halfWidthTicks, `${id}#band${k}#lower`), tickSpacing);
    const upper = ceilToSpacing(tick + jitteredHalfWidth(band.halfWidthTicks, `${id}#band${k}#upper`), tickSpacing);
    const usd = { num: input.usd.num * BigInt(band.weight), den: input.usd.den * totalWeight };
    const L = liquidityForUsd(usd, sqrtPriceX96, getSqrtRatioAtTick(lower), getSqrtRatioAtTick(upper), token0, token1);
    net.set(lower, (net.get(lower) ?? 0n) + L);
    net.set(upper, (net.get(upper) ?? 0n) - L);
    liquidity += L; // lower ≤ tick < upper for every band
  });
  const ticks = [...net.entries()]
    .filter(([, liquidityNet]) => liquidityNet !== 0n)
    .sort((a, b) => a[0] - b[0])
    .map(([t, liquidityNet]): [number, string] => [t, liquidityNet.toString()]);
  return {
    id,
    chainId: input.chainId,
    exchange: input.exchange,
    kind: 'concentrated',
    address: input.address ?? modelAddress(id),
    tokens: [token0.address, token1.address],
    feePpm: input.feePpm,
    tickSpacing,
    sqrtPriceX96: sqrtPriceX96.toString(),
    tick,
    liquidity: liquidity.toString(),
    ticks,
  };
}
