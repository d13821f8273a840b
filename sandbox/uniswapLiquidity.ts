/**
 * The liquidity of a Uniswap V3 position as the position manager computes it (TickMath's sqrt ratios,
 * LiquidityAmounts), the smallest amounts that give a band its liquidity, and the bands of a pool's ticks.
 */

const Q96 = 1n << 96n;
const MAX_UINT256 = (1n << 256n) - 1n;
export const MIN_TICK = -887272;
export const MAX_TICK = 887272;

/** v3-core TickMath.getSqrtRatioAtTick, bit for bit (its constants; the sandbox does not use the routing core). */
export function sqrtRatioAtTick(tick: number): bigint {
  if (!Number.isSafeInteger(tick) || tick < MIN_TICK || tick > MAX_TICK) throw new Error(`tick ${tick} out of range`);
  const abs = Math.abs(tick);
  let ratio = abs & 0x1 ? 0xfffcb933bd6fad37aa2d162d1a594001n : 0x100000000000000000000000000000000n;
  const multipliers: [number, bigint][] = [
    [0x2, 0xfff97272373d413259a46990580e213an], [0x4, 0xfff2e50f5f656932ef12357cf3c7fdccn], [0x8, 0xffe5caca7e10e4e61c3624eaa0941cd0n],
    [0x10, 0xffcb9843d60f6159c9db58835c926644n], [0x20, 0xff973b41fa98c081472e6896dfb254c0n], [0x40, 0xff2ea16466c96a3843ec78b326b52861n],
    [0x80, 0xfe5dee046a99a2a811c461f1969c3053n], [0x100, 0xfcbe86c7900a88aedcffc83b479aa3a4n], [0x200, 0xf987a7253ac413176f2b074cf7815e54n],
    [0x400, 0xf3392b0822b70005940c7a398e4b70f3n], [0x800, 0xe7159475a2c29b7443b29c7fa6e889d9n], [0x1000, 0xd097f3bdfd2022b8845ad8f792aa5825n],
    [0x2000, 0xa9f746462d870fdf8a65dc1f90e061e5n], [0x4000, 0x70d869a156d2a1b890bb3df62baf32f7n], [0x8000, 0x31be135f97d08fd981231505542fcfa6n],
    [0x10000, 0x9aa508b5b7a84e1c677de54f3e99bc9n], [0x20000, 0x5d6af8dedb81196699c329225ee604n], [0x40000, 0x2216e584f5fa1ea926041bedfe98n],
    [0x80000, 0x48a170391f7dc42444e8fa2n],
  ];
  for (const [bit, m] of multipliers) if (abs & bit) ratio = (ratio * m) >> 128n;
  if (tick > 0) ratio = MAX_UINT256 / ratio;
  return (ratio >> 32n) + (ratio % (1n << 32n) === 0n ? 0n : 1n);
}

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;
/** LiquidityAmounts.getLiquidityForAmount0 (FullMath.mulDiv rounds down; the product fits, no overflow in bigint). */
const liquidityForAmount0 = (sa: bigint, sb: bigint, amount0: bigint) => (amount0 * ((sa * sb) / Q96)) / (sb - sa);
const liquidityForAmount1 = (sa: bigint, sb: bigint, amount1: bigint) => (amount1 * Q96) / (sb - sa);

/** v3-periphery LiquidityAmounts.getLiquidityForAmounts: the liquidity NonfungiblePositionManager.mint gives desired amounts. */
export function liquidityForAmounts(sqrtPriceX96: bigint, sa: bigint, sb: bigint, amount0: bigint, amount1: bigint): bigint {
  if (sqrtPriceX96 <= sa) return liquidityForAmount0(sa, sb, amount0);
  if (sqrtPriceX96 < sb) {
    const l0 = liquidityForAmount0(sqrtPriceX96, sb, amount0);
    const l1 = liquidityForAmount1(sa, sqrtPriceX96, amount1);
    return l0 < l1 ? l0 : l1;
  }
  return liquidityForAmount1(sa, sb, amount1);
}

export interface BandAmounts {
  /** Desired amounts for the position manager's mint. */
  readonly amount0: bigint;
  readonly amount1: bigint;
  /** The liquidity the mint gives for them: the target, or the least above it the amounts can reach. */
  readonly minted: bigint;
}

/**
 * The smallest desired amounts whose mint gives at least `liquidity` in [tickLower, tickUpper] at the pool's price.
 * getLiquidityForAmount0/1 round down a linear function of the amount: the smallest amount reaching L gives exactly L
 * when L is reachable at all, and otherwise the least liquidity above L the token's granularity allows (one unit of a
 * 6-decimal token in a 1-tick band is ~2·10^4 units of liquidity at a 1:1 price); in range, the mint takes the
 * smaller of the two tokens' liquidities, so exact when either token reaches L exactly.
 */
export function amountsForLiquidity(sqrtPriceX96: bigint, tickLower: number, tickUpper: number, liquidity: bigint): BandAmounts {
  const sa = sqrtRatioAtTick(tickLower);
  const sb = sqrtRatioAtTick(tickUpper);
  const amount0For = (lower: bigint) => ceilDiv(liquidity * (sb - lower), (lower * sb) / Q96);
  const amount1For = (upper: bigint) => ceilDiv(liquidity * (upper - sa), Q96);
  let amount0 = 0n;
  let amount1 = 0n;
  if (sqrtPriceX96 <= sa) amount0 = amount0For(sa);
  else if (sqrtPriceX96 < sb) {
    amount0 = amount0For(sqrtPriceX96);
    amount1 = amount1For(sqrtPriceX96);
  } else amount1 = amount1For(sb);
  const minted = liquidityForAmounts(sqrtPriceX96, sa, sb, amount0, amount1);
  if (minted < liquidity) throw new Error(`amountsForLiquidity: ${minted} < ${liquidity} in [${tickLower}, ${tickUpper}]`);
  return { amount0, amount1, minted };
}

/**
 * The liquidity bands of a pool's initialised ticks: between consecutive ticks (in order), the active liquidity is
 * the sum of the liquidityNet of the ticks at or below; one position per band of positive liquidity reproduces every
 * tick's liquidityNet (each tick gets +L of the band above and −L of the band below) and the active liquidity.
 */
export function liquidityBands(ticks: readonly (readonly [number, bigint | string])[]): { tickLower: number; tickUpper: number; liquidity: bigint }[] {
  const bands: { tickLower: number; tickUpper: number; liquidity: bigint }[] = [];
  let active = 0n;
  for (let k = 0; k < ticks.length; k++) {
    if (k > 0 && ticks[k][0] <= ticks[k - 1][0]) throw new Error(`ticks out of order at ${ticks[k][0]}`);
    active += BigInt(ticks[k][1]);
    if (active < 0n) throw new Error(`negative liquidity above tick ${ticks[k][0]}`);
    if (active > 0n) {
      if (k === ticks.length - 1) throw new Error(`liquidity ${active} above the last tick ${ticks[k][0]}: the ticks' liquidityNet do not sum to 0`);
      bands.push({ tickLower: ticks[k][0], tickUpper: ticks[k + 1][0], liquidity: active });
    }
  }
  return bands;
}
