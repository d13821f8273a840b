/**
 * Small shared helpers for the bigint math modules: an exact rational type and the two integer divisions
 * (floor / ceil) that every other module uses so that each call site states its rounding direction.
 * Pure; no floating point.
 */

/** Parts per million: the denominator of every fee, share and slippage given in ppm. */
export const PPM = 1_000_000n;

/** An exact non-negative ratio num/den (den > 0). */
export interface Rational {
  readonly num: bigint;
  readonly den: bigint;
}

/** Thrown when a math routine receives an argument outside its domain (negative amount, fee ≥ 100 %…). */
export class MathDomainError extends RangeError {
  override readonly name = 'MathDomainError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** floor(a / b) for a ≥ 0, b > 0 (bigint `/` truncates, which is floor for non-negative operands). */
export function divFloor(a: bigint, b: bigint): bigint {
  if (b <= 0n || a < 0n) throw new MathDomainError('DIV_DOMAIN', `divFloor expects a >= 0, b > 0 (got ${a}, ${b})`);
  return a / b;
}

/** ceil(a / b) for a ≥ 0, b > 0. */
export function divCeil(a: bigint, b: bigint): bigint {
  if (b <= 0n || a < 0n) throw new MathDomainError('DIV_DOMAIN', `divCeil expects a >= 0, b > 0 (got ${a}, ${b})`);
  const q = a / b; // rounds down
  return q * b === a ? q : q + 1n; // rounds up when there is a remainder
}

/** Rounds a rational to parts-per-million, upwards (ceil(num·1e6/den)). */
export function rationalToPpmCeil(r: Rational): bigint {
  return divCeil(r.num * PPM, r.den); // rounds up
}

/** Rounds a rational to parts-per-million, downwards (floor(num·1e6/den)). */
export function rationalToPpmFloor(r: Rational): bigint {
  return divFloor(r.num * PPM, r.den); // rounds down
}

/** Compares a/b with c/d exactly: -1, 0 or 1. Denominators must be positive. */
export function compareRationals(a: Rational, b: Rational): -1 | 0 | 1 {
  const left = a.num * b.den;
  const right = b.num * a.den;
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Integer square root: the largest r with r² ≤ n (Newton's method on bigints). */
export function isqrt(n: bigint): bigint {
  if (n < 0n) throw new MathDomainError('SQRT_NEGATIVE', 'isqrt of a negative number');
  if (n < 2n) return n;
  let x = 1n << BigInt((n.toString(2).length + 1) >> 1); // ≥ √n
  for (;;) {
    const y = (x + n / x) >> 1n; // both divisions round down, so y ≥ floor(√n) once x ≥ √n
    if (y >= x) return x;
    x = y;
  }
}

/** Validates that `value` is a non-negative bigint; throws MathDomainError otherwise. */
export function assertNonNegative(name: string, value: bigint): void {
  if (value < 0n) throw new MathDomainError('NEGATIVE_AMOUNT', `${name} must be >= 0 (got ${value})`);
}
