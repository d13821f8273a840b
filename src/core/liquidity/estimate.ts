/**
 * Floating-point estimates of pool outputs, used ONLY to rank candidate paths during the search: the search
 * estimates every hop it extends and prices exactly only the few best paths. Every amount the service returns
 * is re-priced with the exact integer math of src/core/math afterwards.
 *
 * A pool is estimated from its float model (poolEstimateOf: reserves, prices at its ticks, invariant, as numbers),
 * made once per pool by whoever keeps it (the routing graph).
 */
import { tickSqrtRatios } from '../math/concentrated';
import type { ConcentratedPoolState, ConstantProductPoolState, PoolState, StableswapPoolState } from './snapshot';

const Q96 = 2 ** 96;

interface V3Float {
  readonly kind: 'concentrated';
  readonly sqrtPrice: number;
  readonly liquidity: number;
  readonly fee: number;
  /** Index of the last initialised tick at or below the current tick (−1 if none). */
  readonly at: number;
  readonly tickSqrt: readonly number[];
  readonly tickNet: readonly number[];
}

interface StableFloat {
  readonly kind: 'stableswap';
  readonly xp: readonly number[];
  readonly scale: readonly number[];
  readonly amp: number;
  readonly fee: number;
  readonly d: number;
}

interface CpFloat {
  readonly kind: 'constantProduct';
  readonly reserves: readonly number[];
  /** 1 − fee, as the estimate has always computed it. */
  readonly keep: number;
}

/** A pool's float model: what estimateOut reads. */
export type PoolEstimate = CpFloat | V3Float | StableFloat;

export function poolEstimateOf(pool: PoolState): PoolEstimate {
  switch (pool.kind) {
    case 'constantProduct':
      return cpOf(pool);
    case 'concentrated':
      return v3Of(pool);
    case 'stableswap':
      return stableOf(pool);
  }
}

/** Estimated output (raw units, float) of swapping `amountIn` of pool token i for token j; 0 when it cannot. */
export function estimateOut(pool: PoolEstimate, i: number, j: number, amountIn: number): number {
  if (!(amountIn > 0)) return 0;
  switch (pool.kind) {
    case 'constantProduct': {
      const inWithFee = amountIn * pool.keep;
      return (inWithFee * pool.reserves[j]) / (pool.reserves[i] + inWithFee);
    }
    case 'concentrated':
      return estimateV3(pool, i === 0, amountIn);
    case 'stableswap':
      return estimateStable(pool, i, j, amountIn);
  }
}

function cpOf(pool: ConstantProductPoolState): CpFloat {
  return { kind: 'constantProduct', reserves: pool.reserves.map(Number), keep: 1 - Number(pool.feePpm) / 1e6 };
}

function v3Of(pool: ConcentratedPoolState): V3Float {
  const { v3 } = pool;
  let at = -1;
  for (let k = 0; k < v3.ticks.length; k++) if (v3.ticks[k][0] <= v3.tick) at = k;
  return {
    kind: 'concentrated',
    sqrtPrice: Number(v3.sqrtPriceX96) / Q96,
    liquidity: Number(v3.liquidity),
    fee: Number(v3.feePpm) / 1e6,
    at,
    tickSqrt: tickSqrtRatios(v3).map((ratio) => Number(ratio) / Q96),
    tickNet: v3.ticks.map(([, net]) => Number(net)),
  };
}

/** The V3 swap in floats: consume each liquidity range up to its boundary tick, cross it, continue. */
function estimateV3(p: V3Float, zeroForOne: boolean, amountIn: number): number {
  let remaining = amountIn * (1 - p.fee);
  let s = p.sqrtPrice;
  let liquidity = p.liquidity;
  let out = 0;
  let k = p.at;
  for (let guard = 0; guard < 64; guard++) {
    if (zeroForOne) {
      if (k < 0) return 0; // window exhausted
      const target = p.tickSqrt[k];
      const maxIn = liquidity > 0 ? liquidity * (1 / target - 1 / s) : 0;
      if (remaining <= maxIn) {
        const next = (liquidity * s) / (liquidity + remaining * s);
        return out + liquidity * (s - next);
      }
      remaining -= maxIn;
      out += liquidity * (s - target);
      s = target;
      liquidity -= p.tickNet[k];
      k -= 1;
    } else {
      if (k + 1 >= p.tickSqrt.length) return 0;
      const target = p.tickSqrt[k + 1];
      const maxIn = liquidity * (target - s);
      if (remaining <= maxIn) {
        const next = s + remaining / liquidity;
        return out + liquidity * (1 / s - 1 / next);
      }
      remaining -= maxIn;
      out += liquidity * (1 / s - 1 / target);
      s = target;
      liquidity += p.tickNet[k + 1];
      k += 1;
    }
  }
  return 0;
}

function stableOf(pool: StableswapPoolState): StableFloat {
  const scale = pool.rates.map((r) => Number(r) / 1e18);
  const xp = pool.balances.map((b, k) => Number(b) * scale[k]);
  const amp = Number(pool.amp);
  return { kind: 'stableswap', xp, scale, amp, fee: Number(pool.feeE10) / 1e10, d: floatD(xp, amp) };
}

function floatD(xp: readonly number[], amp: number): number {
  const n = xp.length;
  const s = xp.reduce((a, b) => a + b, 0);
  if (s === 0) return 0;
  const ann = amp * n;
  let d = s;
  for (let it = 0; it < 64; it++) {
    let dP = d;
    for (const x of xp) dP = (dP * d) / (x * n);
    const prev = d;
    d = ((ann * s + dP * n) * d) / ((ann - 1) * d + (n + 1) * dP);
    if (Math.abs(d - prev) <= prev * 1e-15) break;
  }
  return d;
}

function estimateStable(p: StableFloat, i: number, j: number, amountIn: number): number {
  const n = p.xp.length;
  const x = p.xp[i] + amountIn * p.scale[i];
  const ann = p.amp * n;
  let c = p.d;
  let sum = 0;
  for (let k = 0; k < n; k++) {
    if (k === j) continue;
    const xk = k === i ? x : p.xp[k];
    sum += xk;
    c = (c * p.d) / (xk * n);
  }
  c = (c * p.d) / (ann * n);
  const b = sum + p.d / ann;
  let y = p.d;
  for (let it = 0; it < 64; it++) {
    const prev = y;
    y = (y * y + c) / (2 * y + b - p.d);
    if (Math.abs(y - prev) <= prev * 1e-15) break;
  }
  const dy = p.xp[j] - y;
  return dy > 0 ? (dy * (1 - p.fee)) / p.scale[j] : 0;
}
