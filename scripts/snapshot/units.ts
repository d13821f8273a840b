/** Exact arithmetic helpers of the snapshot builder: decimal strings as rationals, USD ↔ raw token units,
 *  deterministic jitter and model addresses. No floating point is used for any value that is written out. */
import { createHash } from 'node:crypto';
import { getAddress, keccak256, toUtf8Bytes } from 'ethers';
import { divCeil, divFloor, type Rational } from '../../src/core/math/rational';

export type { Rational };

const TEN = 10n;

/** "3250.00" → 325000/100 (exact). Accepts non-negative plain decimals only. */
export function parseDecimal(text: string): Rational {
  const match = /^(0|[1-9][0-9]*)(?:\.([0-9]+))?$/.exec(text);
  if (!match) throw new Error(`not a non-negative decimal string: ${JSON.stringify(text)}`);
  const fraction = match[2] ?? '';
  return { num: BigInt(match[1] + fraction), den: TEN ** BigInt(fraction.length) };
}

export function mul(a: Rational, b: Rational): Rational {
  return { num: a.num * b.num, den: a.den * b.den };
}

export function ratio(num: bigint, den: bigint): Rational {
  return { num, den };
}

export function isZero(r: Rational): boolean {
  return r.num === 0n;
}

export function max(a: Rational, b: Rational): Rational {
  return a.num * b.den >= b.num * a.den ? a : b;
}

/** Raw units of a token worth `usd`: usd·10^decimals / priceUSD, rounded down or up. */
export function usdToRaw(usd: Rational, priceUSD: Rational, decimals: number, round: 'down' | 'up'): bigint {
  const num = usd.num * TEN ** BigInt(decimals) * priceUSD.den;
  const den = usd.den * priceUSD.num;
  return round === 'down' ? divFloor(num, den) : divCeil(num, den);
}

/** Decimal string of whole units (e.g. gwei "0.012" → wei with scaleDecimals 9), which must be exact. */
export function scaleDecimal(text: string, scaleDecimals: number): bigint {
  const { num, den } = parseDecimal(text);
  const scaled = num * TEN ** BigInt(scaleDecimals);
  if (scaled % den !== 0n) throw new Error(`${text} has more than ${scaleDecimals} decimals`);
  return scaled / den;
}

/** A number in [0, 1e6) derived from SHA-256(utf8(key)): stable for a given key, independent of any other key
 *  (adding a pool never changes the numbers of the others, unlike draws from one PRNG stream). */
export function hashPpm(key: string): bigint {
  return BigInt(`0x${createHash('sha256').update(key, 'utf8').digest('hex')}`) % 1_000_000n;
}

/** A factor in [1 − spread, 1 + spread] (as a rational over 1e6) derived from SHA-256(key). */
export function jitter(key: string, spreadPpm: number): Rational {
  const spread = BigInt(spreadPpm);
  const offset = (hashPpm(key) * (2n * spread + 1n)) / 1_000_000n - spread; // in [−spread, +spread]
  return { num: 1_000_000n + offset, den: 1_000_000n };
}

/** Model pool address: EIP-55 of the last 20 bytes of keccak256(utf8(id)). Not a deployed contract. */
export function modelAddress(id: string): string {
  return getAddress(`0x${keccak256(toUtf8Bytes(id)).slice(-40)}`);
}

/** Code-unit string order (never localeCompare). */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
