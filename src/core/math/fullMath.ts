/**
 * Uniswap V3 FullMath / UnsafeMath / FixedPoint96 on bigints, with the same domain checks as the Solidity
 * libraries (a Solidity `revert` becomes a thrown MathDomainError with a stable `code`).
 *
 * In Solidity the 512-bit intermediate product is the whole point of mulDiv; with bigints it is free, so only the
 * observable behaviour is ported: the result must fit in uint256 and the denominator must be non-zero.
 */
import { MathDomainError } from './rational';

export const Q96 = 1n << 96n;
export const Q128 = 1n << 128n;
export const MAX_UINT256 = (1n << 256n) - 1n;
export const MAX_UINT160 = (1n << 160n) - 1n;
export const MAX_UINT128 = (1n << 128n) - 1n;

function assertUint256(name: string, x: bigint): void {
  if (x < 0n || x > MAX_UINT256) throw new MathDomainError('NOT_UINT256', `${name} is not a uint256 (${x})`);
}

/** floor(a·b/denominator); reverts (throws) when denominator = 0 or the result exceeds uint256. */
export function mulDiv(a: bigint, b: bigint, denominator: bigint): bigint {
  assertUint256('a', a);
  assertUint256('b', b);
  assertUint256('denominator', denominator);
  if (denominator === 0n) throw new MathDomainError('MUL_DIV_ZERO_DENOMINATOR', 'mulDiv: denominator is 0');
  const result = (a * b) / denominator; // rounds down
  if (result > MAX_UINT256) throw new MathDomainError('MUL_DIV_OVERFLOW', 'mulDiv: result exceeds uint256');
  return result;
}

/** ceil(a·b/denominator); throws like FullMath.mulDivRoundingUp (also when rounding up overflows). */
export function mulDivRoundingUp(a: bigint, b: bigint, denominator: bigint): bigint {
  // mulDiv written out, so that the product is computed once for the quotient and the remainder
  assertUint256('a', a);
  assertUint256('b', b);
  assertUint256('denominator', denominator);
  if (denominator === 0n) throw new MathDomainError('MUL_DIV_ZERO_DENOMINATOR', 'mulDiv: denominator is 0');
  const product = a * b;
  const result = product / denominator; // rounds down …
  if (result > MAX_UINT256) throw new MathDomainError('MUL_DIV_OVERFLOW', 'mulDiv: result exceeds uint256');
  if (result * denominator === product) return result; // no remainder (all non-negative): a product, not a second division
  if (result === MAX_UINT256) throw new MathDomainError('MUL_DIV_OVERFLOW', 'mulDivRoundingUp: result exceeds uint256');
  return result + 1n; // … then up when there is a remainder
}

/** UnsafeMath.divRoundingUp: ceil(x/y) for uint256 x and y > 0 (Solidity's `div` by 0 returns 0; we throw). */
export function divRoundingUp(x: bigint, y: bigint): bigint {
  assertUint256('x', x);
  if (y <= 0n) throw new MathDomainError('DIV_ZERO', 'divRoundingUp: divisor is 0');
  const q = x / y;
  return q * y === x ? q : q + 1n; // rounds up (x ≥ 0, y > 0: a remainder exactly when q·y ≠ x)
}

/** SafeCast.toUint160 */
export function toUint160(x: bigint): bigint {
  if (x < 0n || x > MAX_UINT160) throw new MathDomainError('NOT_UINT160', `value does not fit in uint160 (${x})`);
  return x;
}

/** LiquidityMath.addDelta: x + y for uint128 x and int128 y, reverting on under/overflow ('LS' / 'LA'). */
export function addDelta(x: bigint, y: bigint): bigint {
  const z = x + y;
  if (z < 0n) throw new MathDomainError('LIQUIDITY_SUB', 'addDelta: liquidity would become negative (LS)');
  if (z > MAX_UINT128) throw new MathDomainError('LIQUIDITY_ADD', 'addDelta: liquidity overflows uint128 (LA)');
  return z;
}
