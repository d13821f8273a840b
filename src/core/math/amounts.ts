/**
 * Amount helpers for the routing core: slippage floors, fees in parts per million, exact conversions between raw
 * integer amounts and decimal strings, and a USD value for display and ranking.
 * Amount arithmetic is bigint only; `usdValue` is the single place that returns a float (one final division).
 */
import { divCeil, MathDomainError, PPM } from './rational';

const PPM_DIGITS = 6;

function assertPpm(name: string, ppm: bigint): void {
  if (ppm < 0n || ppm > PPM) throw new MathDomainError('PPM_OUT_OF_RANGE', `${name} must be in [0, 1e6] (got ${ppm})`);
}

function assertAmount(amount: bigint): void {
  if (amount < 0n) throw new MathDomainError('NEGATIVE_AMOUNT', `amount must be >= 0 (got ${amount})`);
}

function assertDecimals(decimals: number): void {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 255) {
    throw new MathDomainError('BAD_DECIMALS', `decimals must be an integer in [0, 255] (got ${decimals})`);
  }
}

/** toAmountMin = floor(amount·(1e6 − slippagePpm)/1e6): the guaranteed minimum rounds down. */
export function applySlippageFloor(amount: bigint, slippagePpm: bigint): bigint {
  assertAmount(amount);
  assertPpm('slippagePpm', slippagePpm);
  return (amount * (PPM - slippagePpm)) / PPM; // rounds down
}

/** Splits a fee off an amount: fee = floor(amount·feePpm/1e6), rest = amount − fee (so fee + rest = amount). */
export function takeFee(amount: bigint, feePpm: bigint): { readonly fee: bigint; readonly rest: bigint } {
  assertAmount(amount);
  assertPpm('feePpm', feePpm);
  const fee = (amount * feePpm) / PPM; // rounds down
  return { fee, rest: amount - fee };
}

/**
 * The smallest x whose slippage floor, floor(x·(1e6 − ppm)/1e6) as applySlippageFloor computes it, is at least
 * `amount`: ceil(amount·1e6/(1e6 − ppm)). Also enough to leave `amount` after a fee of ppm (takeFee), though
 * there it can be one unit above the smallest (amountBeforeFee).
 */
export function grossUp(amount: bigint, ppm: bigint): bigint {
  if (ppm < 0n || ppm >= PPM) throw new RangeError(`${ppm} ppm leaves nothing of the amount`);
  return divCeil(amount * PPM, PPM - ppm);
}

/** The smallest x whose rest after takeFee(x, feePpm), x − floor(x·feePpm/1e6), is at least `net`: takeFee's exact inverse. */
export function amountBeforeFee(net: bigint, feePpm: bigint): bigint {
  const rest = (x: bigint) => x - (x * feePpm) / PPM;
  let gross = grossUp(net, feePpm);
  while (gross > net && rest(gross - 1n) >= net) gross -= 1n;
  while (rest(gross) < net) gross += 1n;
  return gross;
}

/** A decimal number as mantissa·10^exponent, read from its text without any floating-point arithmetic. */
interface ParsedDecimal {
  readonly mantissa: bigint;
  readonly exponent: number;
}

const DECIMAL_PATTERN = /^\+?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/** Parses "0.005", "12", "1.5e-7", "5E+3" (non-negative; at least one digit). */
function parseDecimal(text: string): ParsedDecimal | undefined {
  const m = DECIMAL_PATTERN.exec(text);
  if (!m) return undefined;
  const intPart = m[1] ?? '';
  const fracPart = m[2] ?? '';
  if (intPart.length + fracPart.length === 0) return undefined;
  const exp = m[3] === undefined ? 0 : Number(m[3]);
  if (!Number.isSafeInteger(exp) || Math.abs(exp) > 1000) return undefined;
  return { mantissa: BigInt(intPart + fracPart), exponent: exp - fracPart.length };
}

export type PpmRounding = 'halfDown' | 'down' | 'up' | 'reject';

/**
 * Converts a fraction given as a JS number (0.005 = 0.5 %) to integer parts per million (5000n) through the
 * number's shortest decimal text (String(x): "0.005", "1e-7"), never by float multiplication — so 0.0157 gives
 * 15700 (0.0157·1e6 in floats is 15699.999999999998) and 0.1 + 0.2 ("0.30000000000000004") gives 300000.
 * More than 6 decimal places: `rounding` decides — 'halfDown' (default: nearest, a tie goes down), 'down', 'up',
 * or 'reject' (throws). Accepts 0 ≤ x ≤ 1; anything else (NaN, ∞, negative, > 1) throws.
 */
export function fractionToPpm(x: number, rounding: PpmRounding = 'halfDown'): bigint {
  if (typeof x !== 'number' || !Number.isFinite(x) || x < 0 || x > 1) {
    throw new MathDomainError('BAD_FRACTION', `fraction must be a finite number in [0, 1] (got ${x})`);
  }
  if (x === 0) return 0n; // no fee: the common case, without reading text
  const parsed = parseDecimal(String(x));
  if (!parsed) throw new MathDomainError('BAD_FRACTION', `cannot read ${x} as a decimal`);
  const shift = parsed.exponent + PPM_DIGITS; // value·1e6 = mantissa·10^shift
  if (shift >= 0) return parsed.mantissa * 10n ** BigInt(shift);
  const divisor = 10n ** BigInt(-shift);
  const q = parsed.mantissa / divisor; // rounds down
  const r = parsed.mantissa % divisor;
  if (r === 0n) return q;
  switch (rounding) {
    case 'down':
      return q;
    case 'up':
      return q + 1n;
    case 'halfDown':
      return 2n * r > divisor ? q + 1n : q; // nearest; exactly half goes down
    case 'reject':
      throw new MathDomainError('TOO_MANY_DECIMALS', `${x} has more than ${PPM_DIGITS} decimal places`);
  }
}

/** Raw amount → decimal text: (1500000n, 6) → "1.5", (1000000n, 6) → "1", (5n, 6) → "0.000005". Exact. */
export function toDecimalString(amount: bigint, decimals: number): string {
  assertDecimals(decimals);
  const negative = amount < 0n;
  const digits = (negative ? -amount : amount).toString();
  if (decimals === 0) return (negative ? '-' : '') + digits;
  const padded = digits.padStart(decimals + 1, '0');
  const whole = padded.slice(0, padded.length - decimals);
  const fraction = padded.slice(padded.length - decimals).replace(/0+$/, '');
  return (negative ? '-' : '') + whole + (fraction.length > 0 ? '.' + fraction : '');
}

const AMOUNT_PATTERN = /^(\d+)(?:\.(\d+))?$/;

/**
 * Decimal text → raw amount, exactly: ("1.5", 6) → 1500000n. Accepts plain non-negative decimals only ("12",
 * "0.5", "1.50"); rejects signs, exponents, spaces, ".5" and "1.". More decimal places than `decimals` are rejected
 * unless the extra digits are zeros (nothing is ever rounded).
 */
export function fromDecimalString(text: string, decimals: number): bigint {
  assertDecimals(decimals);
  const m = AMOUNT_PATTERN.exec(text);
  if (!m) throw new MathDomainError('BAD_DECIMAL_STRING', `not a plain decimal amount: "${text}"`);
  const whole = m[1]!;
  let fraction = m[2] ?? '';
  if (fraction.length > decimals) {
    if (/[^0]/.test(fraction.slice(decimals))) {
      throw new MathDomainError('TOO_MANY_DECIMALS', `"${text}" has more than ${decimals} decimal places`);
    }
    fraction = fraction.slice(0, decimals);
  }
  return BigInt(whole + fraction.padEnd(decimals, '0'));
}

/** Fractional digits kept before the final conversion to a float. */
const USD_SCALE_DIGITS = 18;

/**
 * USD value of a raw amount at a decimal price string ("2500.12", "1.2e-7"), for display and ranking only.
 * amount·price/10^decimals is computed exactly in bigint at 18 fractional digits (truncated below that), then
 * converted to a float once, by parsing its exact decimal text (correctly rounded: 2 WETH at "2500.12" gives
 * 5000.24, where Number(scaled)/1e18 would give 5000.240000000001) — the only float in the math modules.
 */
export function usdValue(amount: bigint, decimals: number, priceUSD: string): number {
  assertAmount(amount);
  assertDecimals(decimals);
  const price = parseDecimal(priceUSD);
  if (!price) throw new MathDomainError('BAD_PRICE', `not a decimal price: "${priceUSD}"`);
  const shift = price.exponent - decimals + USD_SCALE_DIGITS; // value·1e18 = amount·mantissa·10^shift
  const product = amount * price.mantissa;
  const scaled = shift >= 0 ? product * 10n ** BigInt(shift) : product / 10n ** BigInt(-shift); // rounds down
  return Number(toDecimalString(scaled, USD_SCALE_DIGITS)); // the one rounding to a float
}
