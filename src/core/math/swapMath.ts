/**
 * Uniswap V3 SwapMath.computeSwapStep ported to bigint: one swap step inside a single tick range.
 * `amountRemaining` is signed like in Solidity: ≥ 0 means exact input, < 0 means exact output.
 * Fees are in pips (hundredths of a basis point, i.e. parts per million).
 */
import { mulDiv, mulDivRoundingUp } from './fullMath';
import {
  getAmount0Delta,
  getAmount1Delta,
  getNextSqrtPriceFromInput,
  getNextSqrtPriceFromOutput,
} from './sqrtPriceMath';
import { MathDomainError, PPM } from './rational';

export interface SwapStep {
  readonly sqrtRatioNextX96: bigint;
  readonly amountIn: bigint;
  readonly amountOut: bigint;
  readonly feeAmount: bigint;
}

/** Uniswap's name for parts per million. */
const PIPS = PPM;

export function computeSwapStep(
  sqrtRatioCurrentX96: bigint,
  sqrtRatioTargetX96: bigint,
  liquidity: bigint,
  amountRemaining: bigint,
  feePips: bigint,
): SwapStep {
  if (feePips < 0n || feePips >= PIPS) throw new MathDomainError('FEE_OUT_OF_RANGE', `fee ${feePips} pips`);
  const zeroForOne = sqrtRatioCurrentX96 >= sqrtRatioTargetX96;
  const exactIn = amountRemaining >= 0n;
  let sqrtRatioNextX96: bigint;
  let amountIn = 0n;
  let amountOut = 0n;

  if (exactIn) {
    const amountRemainingLessFee = mulDiv(amountRemaining, PIPS - feePips, PIPS); // rounds down
    amountIn = zeroForOne
      ? getAmount0Delta(sqrtRatioTargetX96, sqrtRatioCurrentX96, liquidity, true)
      : getAmount1Delta(sqrtRatioCurrentX96, sqrtRatioTargetX96, liquidity, true);
    sqrtRatioNextX96 =
      amountRemainingLessFee >= amountIn
        ? sqrtRatioTargetX96
        : getNextSqrtPriceFromInput(sqrtRatioCurrentX96, liquidity, amountRemainingLessFee, zeroForOne);
  } else {
    amountOut = zeroForOne
      ? getAmount1Delta(sqrtRatioTargetX96, sqrtRatioCurrentX96, liquidity, false)
      : getAmount0Delta(sqrtRatioCurrentX96, sqrtRatioTargetX96, liquidity, false);
    sqrtRatioNextX96 =
      -amountRemaining >= amountOut
        ? sqrtRatioTargetX96
        : getNextSqrtPriceFromOutput(sqrtRatioCurrentX96, liquidity, -amountRemaining, zeroForOne);
  }

  const max = sqrtRatioTargetX96 === sqrtRatioNextX96;

  // inputs round up, outputs round down
  if (zeroForOne) {
    if (!(max && exactIn)) amountIn = getAmount0Delta(sqrtRatioNextX96, sqrtRatioCurrentX96, liquidity, true);
    if (!(max && !exactIn)) amountOut = getAmount1Delta(sqrtRatioNextX96, sqrtRatioCurrentX96, liquidity, false);
  } else {
    if (!(max && exactIn)) amountIn = getAmount1Delta(sqrtRatioCurrentX96, sqrtRatioNextX96, liquidity, true);
    if (!(max && !exactIn)) amountOut = getAmount0Delta(sqrtRatioCurrentX96, sqrtRatioNextX96, liquidity, false);
  }

  // cap the output amount to not exceed the remaining output amount
  if (!exactIn && amountOut > -amountRemaining) amountOut = -amountRemaining;

  const feeAmount =
    exactIn && sqrtRatioNextX96 !== sqrtRatioTargetX96
      ? amountRemaining - amountIn // target not reached: the remainder of the input is the fee
      : mulDivRoundingUp(amountIn, feePips, PIPS - feePips); // rounds up

  return { sqrtRatioNextX96, amountIn, amountOut, feeAmount };
}
