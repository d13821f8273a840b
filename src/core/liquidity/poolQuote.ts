/**
 * One uniform quote interface over the pool kinds, exact input and exact output, with the gas each hop
 * costs (routing-models: constant product ~50–60k a hop, concentrated 80k + 31k per tick crossed,
 * stableswap ~120k). Never mutates a pool.
 */
import * as cp from '../math/constantProduct';
import * as v3 from '../math/concentrated';
import * as curve from '../math/stableswap';
import { ObjectMemo } from '../memo';
import type { ConcentratedPoolState, PoolState, StableswapPoolState } from './snapshot';

/**
 * What the router adds to every SwapData it runs, on top of the exchange's own gas: the hand-over of the input to
 * the swap executor (an ERC-20 transfer to an empty balance), its exact approval of the exchange and the reset, the
 * output swept back and the balance checks (contracts/router/Router.sol). Measured on the sandbox's router with
 * eth_estimateGas: 40–65k per SwapData over the exchange's own cost.
 */
export const SWAP_CALL_GAS = 60_000n;

/** Gas of one hop through the router: the pool kind's own (routing-models) plus SWAP_CALL_GAS. */
export const HOP_GAS = {
  constantProduct: 60_000n + SWAP_CALL_GAS,
  concentrated: 80_000n + SWAP_CALL_GAS,
  tickCrossed: 31_000n,
  stableswap: 120_000n + SWAP_CALL_GAS,
} as const;

export type HopFailure = 'INSUFFICIENT_LIQUIDITY';

export type HopQuote =
  | { readonly ok: true; readonly amountIn: bigint; readonly amountOut: bigint; readonly gasUnits: bigint }
  | { readonly ok: false; readonly reason: HopFailure; readonly message: string };

/*
 * What every quote of a pool starts from, computed on the pool's first quote and kept with the pool (pool states
 * are read-only; a search prices one pool at many amounts): a stableswap pool's balances in 18 decimals and
 * invariant D, a concentrated pool's price at each initialised tick.
 */
const stableswapStates = new ObjectMemo<StableswapPoolState, curve.StableswapState>();
const stableswapStateOf = (pool: StableswapPoolState) => curve.stateOf(pool.balances, pool.rates, pool.amp);
const tickSqrtRatios = new ObjectMemo<ConcentratedPoolState, readonly bigint[]>();
const tickSqrtRatiosOf = (pool: ConcentratedPoolState) => v3.tickSqrtRatios(pool.v3);

const noLiquidity = (pool: PoolState, what: string): HopQuote => ({
  ok: false,
  reason: 'INSUFFICIENT_LIQUIDITY',
  message: `${pool.exchange} pool ${pool.id} cannot ${what}`,
});

/** Output of swapping `amountIn` of pool token i for token j (rounded down). */
export function quoteHopExactIn(pool: PoolState, i: number, j: number, amountIn: bigint): HopQuote {
  if (amountIn <= 0n) return noLiquidity(pool, 'swap a zero amount');
  switch (pool.kind) {
    case 'constantProduct': {
      const amountOut = cp.getAmountOut(amountIn, pool.reserves[i], pool.reserves[j], pool.feePpm);
      return amountOut > 0n ? { ok: true, amountIn, amountOut, gasUnits: HOP_GAS.constantProduct } : noLiquidity(pool, `give any output for ${amountIn}`);
    }
    case 'concentrated': {
      const q = v3.exactInputOutcome(pool.v3, i === 0, amountIn, tickSqrtRatios.get(pool, tickSqrtRatiosOf));
      if (q.exhausted) return noLiquidity(pool, `absorb ${amountIn}: its tick window runs out`);
      if (q.amountOut <= 0n) return noLiquidity(pool, `give any output for ${amountIn}`);
      return { ok: true, amountIn, amountOut: q.amountOut, gasUnits: HOP_GAS.concentrated + HOP_GAS.tickCrossed * BigInt(q.ticksCrossed) };
    }
    case 'stableswap': {
      const amountOut = curve.getDyOf(stableswapStates.get(pool, stableswapStateOf), i, j, amountIn, pool.feeE10);
      return amountOut > 0n ? { ok: true, amountIn, amountOut, gasUnits: HOP_GAS.stableswap } : noLiquidity(pool, `give any output for ${amountIn}`);
    }
  }
}

/** Input of pool token i needed to receive `amountOut` of token j (rounded up). */
export function quoteHopExactOut(pool: PoolState, i: number, j: number, amountOut: bigint): HopQuote {
  if (amountOut <= 0n) return noLiquidity(pool, 'deliver a zero amount');
  switch (pool.kind) {
    case 'constantProduct': {
      const r = cp.getAmountIn(amountOut, pool.reserves[i], pool.reserves[j], pool.feePpm);
      return r.ok ? { ok: true, amountIn: r.amountIn, amountOut, gasUnits: HOP_GAS.constantProduct } : noLiquidity(pool, `deliver ${amountOut}: above its reserve`);
    }
    case 'concentrated': {
      const q = v3.quoteExactOutput(pool.v3, i === 0, amountOut, tickSqrtRatios.get(pool, tickSqrtRatiosOf));
      if (q.exhausted || q.amountOut < amountOut) return noLiquidity(pool, `deliver ${amountOut}: its tick window runs out`);
      return { ok: true, amountIn: q.amountIn, amountOut, gasUnits: HOP_GAS.concentrated + HOP_GAS.tickCrossed * BigInt(q.ticksCrossed) };
    }
    case 'stableswap': {
      const r = curve.getDxOf(stableswapStates.get(pool, stableswapStateOf), i, j, amountOut, pool.feeE10);
      return r.ok ? { ok: true, amountIn: r.amountIn, amountOut, gasUnits: HOP_GAS.stableswap } : noLiquidity(pool, `deliver ${amountOut}`);
    }
  }
}
