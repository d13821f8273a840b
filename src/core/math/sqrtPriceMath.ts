/**
 * Uniswap V3 SqrtPriceMath ported to bigint, including the uint256 overflow fallbacks of the Solidity code (they
 * change the rounding of extreme inputs, so they are reproduced rather than simplified away).
 * Prices are Q64.96 square roots (sqrtPriceX96); liquidity is a uint128.
 */
import { divRoundingUp, MAX_UINT160, MAX_UINT256, mulDiv, mulDivRoundingUp, Q96, toUint160 } from './fullMath';
import { MathDomainError } from './rational';

function requirePositive(name: string, x: bigint): void {
  if (x <= 0n) throw new MathDomainError('NON_POSITIVE', `${name} must be > 0`);
}

/**
 * Next price after adding (`add`) or removing `amount` of token0: L·√P / (L ± amount·√P), always rounded up
 * (so that the price moves less when token0 comes in and more when it goes out — in the pool's favour).
 */
export function getNextSqrtPriceFromAmount0RoundingUp(
  sqrtPX96: bigint,
  liquidity: bigint,
  amount: bigint,
  add: boolean,
): bigint {
  if (amount === 0n) return sqrtPX96;
  const numerator1 = liquidity << 96n;
  const product = amount * sqrtPX96; // overflows uint256 in Solidity when > MAX_UINT256
  if (add) {
    if (product <= MAX_UINT256) {
      const denominator = numerator1 + product;
      if (denominator <= MAX_UINT256) {
        return toUint160(mulDivRoundingUp(numerator1, sqrtPX96, denominator)); // rounds up
      }
    }
    // fallback of the Solidity code: L / (L/√P + amount), both divisions arranged to round the price up
    const denominator = numerator1 / sqrtPX96 + amount; // numerator1/√P rounds down → denominator smaller → up
    if (denominator > MAX_UINT256) throw new MathDomainError('ADD_OVERFLOW', 'getNextSqrtPriceFromAmount0: overflow');
    return toUint160(divRoundingUp(numerator1, denominator)); // rounds up
  }
  if (product > MAX_UINT256 || numerator1 <= product) {
    throw new MathDomainError('AMOUNT0_OUT_EXCEEDS_LIQUIDITY', 'getNextSqrtPriceFromAmount0: output too large');
  }
  return toUint160(mulDivRoundingUp(numerator1, sqrtPX96, numerator1 - product)); // rounds up
}

/**
 * Next price after adding (`add`) or removing `amount` of token1: √P ± amount/L, always rounded down
 * (the price moves less when token1 comes in and more when it goes out).
 */
export function getNextSqrtPriceFromAmount1RoundingDown(
  sqrtPX96: bigint,
  liquidity: bigint,
  amount: bigint,
  add: boolean,
): bigint {
  // Solidity branches on amount ≤ uint160.max only to avoid overflow; both branches compute the same value.
  if (add) {
    const quotient = amount <= MAX_UINT160 ? (amount << 96n) / liquidity : mulDiv(amount, Q96, liquidity); // down
    return toUint160(sqrtPX96 + quotient);
  }
  const quotient =
    amount <= MAX_UINT160 ? divRoundingUp(amount << 96n, liquidity) : mulDivRoundingUp(amount, Q96, liquidity); // up
  if (sqrtPX96 <= quotient) {
    throw new MathDomainError('AMOUNT1_OUT_EXCEEDS_PRICE', 'getNextSqrtPriceFromAmount1: output too large');
  }
  return sqrtPX96 - quotient;
}

/** Price after swapping `amountIn` in (fee already taken): never overshoots the true price. */
export function getNextSqrtPriceFromInput(
  sqrtPX96: bigint,
  liquidity: bigint,
  amountIn: bigint,
  zeroForOne: boolean,
): bigint {
  requirePositive('sqrtPX96', sqrtPX96);
  requirePositive('liquidity', liquidity);
  return zeroForOne
    ? getNextSqrtPriceFromAmount0RoundingUp(sqrtPX96, liquidity, amountIn, true)
    : getNextSqrtPriceFromAmount1RoundingDown(sqrtPX96, liquidity, amountIn, true);
}

/** Price after taking `amountOut` out: always at least as far as the true price. */
export function getNextSqrtPriceFromOutput(
  sqrtPX96: bigint,
  liquidity: bigint,
  amountOut: bigint,
  zeroForOne: boolean,
): bigint {
  requirePositive('sqrtPX96', sqrtPX96);
  requirePositive('liquidity', liquidity);
  return zeroForOne
    ? getNextSqrtPriceFromAmount1RoundingDown(sqrtPX96, liquidity, amountOut, false)
    : getNextSqrtPriceFromAmount0RoundingUp(sqrtPX96, liquidity, amountOut, false);
}

/** Token0 between two prices: L·(√B − √A)/(√A·√B), rounded up or down as asked. */
export function getAmount0Delta(sqrtRatioAX96: bigint, sqrtRatioBX96: bigint, liquidity: bigint, roundUp: boolean): bigint {
  let a = sqrtRatioAX96;
  let b = sqrtRatioBX96;
  if (a > b) [a, b] = [b, a];
  requirePositive('sqrtRatioAX96', a);
  const numerator1 = liquidity << 96n;
  const numerator2 = b - a;
  return roundUp
    ? divRoundingUp(mulDivRoundingUp(numerator1, numerator2, b), a) // rounds up twice
    : mulDiv(numerator1, numerator2, b) / a; // rounds down twice
}

/** Token1 between two prices: L·(√B − √A), rounded up or down as asked. */
export function getAmount1Delta(sqrtRatioAX96: bigint, sqrtRatioBX96: bigint, liquidity: bigint, roundUp: boolean): bigint {
  let a = sqrtRatioAX96;
  let b = sqrtRatioBX96;
  if (a > b) [a, b] = [b, a];
  return roundUp ? mulDivRoundingUp(liquidity, b - a, Q96) : mulDiv(liquidity, b - a, Q96); // up / down
}
