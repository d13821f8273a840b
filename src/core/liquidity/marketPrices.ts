/**
 * Token prices from the pools (chain mode): what `priceUSD`, `toAmountUSD`, gas in USD and the ranking of routes
 * follow when the service reads its pools from the chains, instead of the catalog's reference table.
 *
 * The rule, stated (docs/chain-mode.md "Prices in chain mode"):
 * - Anchors: the catalog's USD stablecoins (tag `stablecoin`) keep their reference price; every other coin is priced
 *   from pools against coins already priced, anchors first, then coins priced from anchors (WBTC/WETH after
 *   WETH/USDC), up to MAX_ROUNDS rounds.
 * - Pools: constant-product (V2) and concentrated (V3) pools; a pool's spot price is its mid price (V2: the reserves'
 *   ratio; V3: sqrtPriceX96²), without fees.
 * - Against thin pools: a pool counts only when its depth on the priced side is at least `minDepthUSD`. Depth is what
 *   the pool holds of the priced coin as a constant-product pool: V2 its reserve, V3 the virtual reserve of its
 *   in-range liquidity (L·√P or L/√P): moving the price by x % costs about the same in both. A pool whose liquidity
 *   is out of range (L = 0) has no depth.
 * - Against a manipulated pool: a coin's price is the depth-weighted median of the qualifying pools' prices over every
 *   chain followed (one coinKey, one price). To move it, a manipulator must move pools holding half the depth.
 * - A chain's native coin takes the price of its wrapped token (the pools hold the wrapped one) unless pools price
 *   the native coin's coinKey directly.
 * - A coin no qualifying pool prices keeps the reference price and is listed as `unpriced` (chain status logs it):
 *   it stays routable.
 * - A discovered token (`verificationStatus` unverified: found from a factory's pool, not in the catalog's data) is
 *   priced by its pools like any coin, but never prices another: anyone can create a token and pools of it, and its
 *   pools' depth is counted at the price they give it. Its reference price is "0" (no price).
 *
 * Prices are written with PRICE_DIGITS significant digits, so that a pool's every swap does not make a new price
 * (and a new catalog). Floats: prices are for display and ranking only, never for returned amounts.
 */
import type { Catalog } from '../catalog/catalog';
import type { PoolState } from './snapshot';

export interface PriceRule {
  /** A pool counts when it holds at least this much of the priced coin (USD, at the price it implies). */
  readonly minDepthUSD: number;
}

export const DEFAULT_PRICE_RULE: PriceRule = Object.freeze({ minDepthUSD: 50_000 });

export interface MarketPrices {
  /** Prices by coinKey, as decimal strings, of the coins the pools price (anchors included). */
  readonly prices: ReadonlyMap<string, string>;
  /** coinKeys of the followed chains' tokens that no qualifying pool prices (they keep the reference price). */
  readonly unpriced: readonly string[];
}

const MAX_ROUNDS = 3;
/** Prices outside these bounds (a pool drained to dust on one side) are taken as no price. */
const MIN_PRICE = 1e-12;
const MAX_PRICE = 1e12;
export const PRICE_DIGITS = 6;
const Q96 = 2 ** 96;

interface Quote {
  readonly price: number;
  readonly depthUSD: number;
}

/**
 * The prices the pools of `chainIds` imply under `rule`, with `catalog`'s stablecoins as anchors. Pools of other
 * chains are not read. Pure: the same pools give the same prices.
 */
export function marketPrices(catalog: Catalog, pools: readonly PoolState[], chainIds: ReadonlySet<number>, rule: PriceRule = DEFAULT_PRICE_RULE): MarketPrices {
  const coinOf = new Map<string, { coinKey: string; decimals: number }>();
  const wanted = new Set<string>();
  const anchors = new Map<string, number>();
  const discovered = new Set<string>();
  for (const chainId of chainIds) {
    for (const token of catalog.tokensOf(chainId)) {
      coinOf.set(`${chainId}:${catalog.addressKey(chainId, token.address)}`, { coinKey: token.coinKey, decimals: token.decimals });
      wanted.add(token.coinKey);
      if (token.verificationStatus === 'unverified') discovered.add(token.coinKey);
      if (token.tags.includes('stablecoin')) anchors.set(token.coinKey, Number(token.priceUSD));
    }
    const native = catalog.getChain(chainId)?.nativeToken;
    if (native) wanted.add(native.coinKey);
  }
  const priced = new Map<string, number>(anchors);
  const usable = pools.filter((p) => chainIds.has(p.chainId) && p.kind !== 'stableswap' && p.tokens.length === 2);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const quotes = new Map<string, Quote[]>();
    for (const pool of usable) {
      const a = coinOf.get(`${pool.chainId}:${pool.tokens[0]}`);
      const b = coinOf.get(`${pool.chainId}:${pool.tokens[1]}`);
      if (!a || !b || a.coinKey === b.coinKey) continue;
      const mid = midPrice(pool, a.decimals, b.decimals);
      if (!mid) continue;
      // a coin is priced from the side already priced in an earlier round, never from a coin of this round
      for (const [target, other, otherPerTarget, otherReserve] of [
        [a, b, mid.bPerA, mid.reserveB],
        [b, a, 1 / mid.bPerA, mid.reserveA],
      ] as const) {
        if (priced.has(other.coinKey) && !priced.has(target.coinKey) && !discovered.has(other.coinKey)) {
          const otherPrice = priced.get(other.coinKey)!;
          const price = otherPerTarget * otherPrice;
          // depth on the priced side (equal, at the mid price, to the other side's in a constant-product pool)
          const depthUSD = otherReserve * otherPrice;
          if (depthUSD < rule.minDepthUSD || !(price >= MIN_PRICE && price <= MAX_PRICE)) continue;
          quotes.set(target.coinKey, [...(quotes.get(target.coinKey) ?? []), { price, depthUSD }]);
        }
      }
    }
    if (quotes.size === 0) break;
    for (const [coinKey, list] of quotes) priced.set(coinKey, weightedMedian(list));
  }
  // native coins follow their wrapped token
  for (const chainId of chainIds) {
    const chain = catalog.getChain(chainId);
    if (!chain || priced.has(chain.nativeToken.coinKey)) continue;
    const wrapped = catalog.wrappedNativeOf(chainId);
    const price = wrapped && priced.get(wrapped.coinKey);
    if (price !== undefined) priced.set(chain.nativeToken.coinKey, price);
  }
  const prices = new Map<string, string>();
  for (const [coinKey, price] of [...priced].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    prices.set(coinKey, anchors.has(coinKey) ? referencePrice(catalog, coinKey, chainIds) : formatPrice(price));
  }
  return { prices, unpriced: [...wanted].filter((k) => !prices.has(k)).sort() };
}

/** The mid price of a two-token pool (token 1 per token 0, in whole units) and its reserves in whole units. */
function midPrice(pool: PoolState, decimalsA: number, decimalsB: number): { bPerA: number; reserveA: number; reserveB: number } | undefined {
  const scaleA = 10 ** decimalsA;
  const scaleB = 10 ** decimalsB;
  if (pool.kind === 'constantProduct') {
    const [ra, rb] = pool.reserves;
    if (ra <= 0n || rb <= 0n) return undefined;
    const reserveA = Number(ra) / scaleA;
    const reserveB = Number(rb) / scaleB;
    return { bPerA: reserveB / reserveA, reserveA, reserveB };
  }
  if (pool.kind === 'concentrated') {
    const { sqrtPriceX96, liquidity } = pool.v3;
    if (liquidity <= 0n || sqrtPriceX96 <= 0n) return undefined;
    const sqrtP = Number(sqrtPriceX96) / Q96;
    const L = Number(liquidity);
    // virtual reserves of the in-range liquidity: x = L/√P (token 0), y = L·√P (token 1), raw units
    const reserveA = L / sqrtP / scaleA;
    const reserveB = (L * sqrtP) / scaleB;
    return { bPerA: reserveB / reserveA, reserveA, reserveB };
  }
  return undefined;
}

/** The depth-weighted median: the price at which half the qualifying depth is below and half above. */
export function weightedMedian(quotes: readonly Quote[]): number {
  const sorted = [...quotes].sort((a, b) => a.price - b.price);
  const total = sorted.reduce((sum, q) => sum + q.depthUSD, 0);
  let below = 0;
  for (const q of sorted) {
    below += q.depthUSD;
    if (below * 2 >= total) return q.price;
  }
  return sorted[sorted.length - 1].price;
}

/** The reference price of an anchor coin (its first token's on the followed chains, as the catalog gives it). */
function referencePrice(catalog: Catalog, coinKey: string, chainIds: ReadonlySet<number>): string {
  for (const chainId of [...chainIds].sort((a, b) => a - b)) {
    const token = catalog.tokensOf(chainId).find((t) => t.coinKey === coinKey);
    if (token) return token.priceUSD;
  }
  throw new Error(`no token of coin ${coinKey}`);
}

/** A positive price as a plain decimal string with PRICE_DIGITS significant digits (never exponent notation). */
export function formatPrice(price: number): string {
  const magnitude = Math.floor(Math.log10(price));
  const decimals = Math.min(20, Math.max(0, PRICE_DIGITS - 1 - magnitude));
  const rounded = Number(price.toPrecision(PRICE_DIGITS));
  const text = rounded.toFixed(decimals);
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

/** Every coin's price in a catalog (coinKey → its text), native coins included. */
export function pricesOf(catalog: Catalog): Map<string, string> {
  const prices = new Map<string, string>();
  for (const chain of catalog.chains) {
    prices.set(chain.nativeToken.coinKey, chain.nativeToken.priceUSD);
    for (const token of catalog.tokensOf(chain.id)) prices.set(token.coinKey, token.priceUSD);
  }
  return prices;
}

/**
 * The catalog at the `market` prices, and at `reference`'s prices for every other coin (a coin no pool prices any
 * more goes back to its reference price): `current` itself when it holds exactly these prices already, so that a
 * block that moves no price keeps the catalog (and the caches keyed by it).
 */
export function catalogAtPrices(reference: Catalog, current: Catalog, market: ReadonlyMap<string, string>): Catalog {
  return current.withPrices(new Map([...pricesOf(reference), ...market]));
}
