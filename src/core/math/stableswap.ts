/**
 * Curve StableSwap math for pools of 2 and 3 coins (works for up to 8), ported from the Vyper of the classic pools
 * (3pool, StableSwap3Pool.vy) with the optional A_PRECISION of the newer ones.
 *
 * Conventions, as in Curve's code (not its whitepaper):
 *  - `amp` is the on-chain value. Classic pools (aPrecision = 1): amp = A() (e.g. 100, 2000). Newer pools
 *    (aPrecision = 100): amp = A_precise() = A·100. With an integer A both give bit-identical results.
 *  - Ann = amp·N (Curve's code). It plays the role of the whitepaper's A·nⁿ, i.e. whitepaper A = amp/N^(N−1):
 *    invariant  Ann·S + D = Ann·D + D^(N+1)/(Nᴺ·Πx)  (divided by aPrecision where Ann appears).
 *  - `rates` are Curve's RATES: rate_k = 10^(36 − decimals_k) (= precision multiplier · 1e18), so that
 *    xp_k = balance_k·rate_k/1e18 is the balance in 18 decimals. `ratesForDecimals` builds them.
 *  - fees are stored ×1e10 (FEE_DENOMINATOR): 4 bps = 4_000_000.
 *  - get_dy follows exchange(): dy = xp_j − y − 1, fee = dy·fee/1e10, out = (dy − fee)·1e18/rate_j, all rounding
 *    down. (3pool's view get_dy converts to coin units before taking the fee; it can differ by 1 unit.)
 *  - where Vyper would revert (an empty coin, uint underflow of a dust trade) getDy returns 0 instead.
 * Pure; bigint only; nothing is mutated.
 */
import { divCeil, MathDomainError } from './rational';

export const FEE_DENOMINATOR = 10_000_000_000n;
export const PRECISION = 10n ** 18n;
const MAX_ITERATIONS = 255;

/** Curve RATES for tokens of the given decimals: 10^(36 − decimals). */
export function ratesForDecimals(decimals: readonly number[]): bigint[] {
  return decimals.map((d) => {
    if (!Number.isInteger(d) || d < 0 || d > 36) throw new MathDomainError('BAD_DECIMALS', `decimals ${d}`);
    return 10n ** BigInt(36 - d);
  });
}

function assertCoins(xp: readonly bigint[]): void {
  if (xp.length < 2 || xp.length > 8) throw new MathDomainError('BAD_COIN_COUNT', `${xp.length} coins`);
  for (const x of xp) if (x < 0n) throw new MathDomainError('NEGATIVE_BALANCE', 'balances must be >= 0');
}

function assertIndices(i: number, j: number, n: number): void {
  if (!Number.isInteger(i) || !Number.isInteger(j) || i === j || i < 0 || j < 0 || i >= n || j >= n) {
    throw new MathDomainError('BAD_COIN_INDEX', `bad coin indices ${i}, ${j} for ${n} coins`);
  }
}

function assertAmp(amp: bigint, aPrecision: bigint): void {
  if (aPrecision <= 0n || amp < aPrecision) throw new MathDomainError('BAD_AMP', `amp ${amp} < aPrecision ${aPrecision}`);
}

/** Balances normalised to 18 decimals: xp_k = balance_k·rate_k/1e18, rounded down (as Curve's _xp). */
export function xpFromBalances(balances: readonly bigint[], rates: readonly bigint[]): bigint[] {
  if (balances.length !== rates.length) throw new MathDomainError('BAD_RATES', 'one rate per coin');
  return balances.map((b, k) => (b * rates[k]!) / PRECISION); // rounds down
}

/** get_D: the invariant by Newton's method, from D = S until |ΔD| ≤ 1. Every division rounds down. */
export function getD(xp: readonly bigint[], amp: bigint, aPrecision = 1n): bigint {
  assertCoins(xp);
  assertAmp(amp, aPrecision);
  const n = BigInt(xp.length);
  let s = 0n;
  for (const x of xp) s += x;
  if (s === 0n) return 0n;
  if (xp.some((x) => x === 0n)) throw new MathDomainError('EMPTY_COIN', 'get_D: a coin balance is 0');
  const ann = amp * n;
  let d = s;
  for (let it = 0; it < MAX_ITERATIONS; it++) {
    let dP = d;
    for (const x of xp) dP = (dP * d) / (x * n); // rounds down
    const dPrev = d;
    const numerator = ((ann * s) / aPrecision + dP * n) * d; // Ann·S/A_PRECISION rounds down
    const denominator = ((ann - aPrecision) * d) / aPrecision + (n + 1n) * dP; // rounds down
    d = numerator / denominator; // rounds down
    if (d > dPrev ? d - dPrev <= 1n : dPrev - d <= 1n) break;
  }
  return d; // as the classic pools: after 255 iterations the last value is returned
}

/**
 * get_y: the balance of coin j that keeps D when coin i is set to x (other coins unchanged); D is computed from
 * the current xp. Newton from y = D until |Δy| ≤ 1; every division rounds down.
 */
export function getY(i: number, j: number, x: bigint, xp: readonly bigint[], amp: bigint, aPrecision = 1n): bigint {
  checkY(i, j, x, xp);
  return yForD(i, j, x, xp, amp, aPrecision, getD(xp, amp, aPrecision));
}

function checkY(i: number, j: number, x: bigint, xp: readonly bigint[]): void {
  assertCoins(xp);
  assertIndices(i, j, xp.length);
  if (x <= 0n) throw new MathDomainError('EMPTY_COIN', 'get_y: x must be > 0');
}

/** getY once the arguments are checked, with D = getD(xp, amp, aPrecision) given. */
function yForD(i: number, j: number, x: bigint, xp: readonly bigint[], amp: bigint, aPrecision: bigint, d: bigint): bigint {
  const n = BigInt(xp.length);
  const ann = amp * n;
  let c = d;
  let sPrime = 0n;
  for (let k = 0; k < xp.length; k++) {
    if (k === j) continue;
    const xk = k === i ? x : xp[k]!;
    sPrime += xk;
    c = (c * d) / (xk * n); // rounds down
  }
  c = (c * d * aPrecision) / (ann * n); // rounds down
  const b = sPrime + (d * aPrecision) / ann; // D/Ann rounds down; "− D" is applied in the loop
  let y = d;
  for (let it = 0; it < MAX_ITERATIONS; it++) {
    const yPrev = y;
    const denominator = 2n * y + b - d;
    if (denominator <= 0n) throw new MathDomainError('NO_CONVERGENCE', 'get_y: denominator underflow');
    y = (y * y + c) / denominator; // rounds down
    if (y > yPrev ? y - yPrev <= 1n : yPrev - y <= 1n) break;
  }
  return y;
}

/**
 * A pool state ready to quote: its balances, rates and amplification, the balances in 18 decimals and the
 * invariant D that every quote of that state starts from. Made by `stateOf`; a caller pricing one pool at many
 * amounts can make it once and quote with getDyOf / getDxOf (getDy and getDx make it on every call).
 */
export interface StableswapState {
  readonly balances: readonly bigint[];
  readonly rates: readonly bigint[];
  readonly amp: bigint;
  readonly aPrecision: bigint;
  /** A coin's balance is 0: nothing can be quoted. */
  readonly empty: boolean;
  readonly xp: readonly bigint[];
  /** D of xp (0 when a coin is empty). */
  readonly d: bigint;
}

export function stateOf(balances: readonly bigint[], rates: readonly bigint[], amp: bigint, aPrecision = 1n): StableswapState {
  assertCoins(balances);
  const xp = xpFromBalances(balances, rates);
  const empty = balances.some((b) => b === 0n);
  return { balances, rates, amp, aPrecision, empty, xp, d: empty ? 0n : getD(xp, amp, aPrecision) };
}

function checkQuote(i: number, j: number, balances: readonly bigint[], feeE10: bigint): void {
  assertIndices(i, j, balances.length);
  if (feeE10 < 0n || feeE10 >= FEE_DENOMINATOR) throw new MathDomainError('FEE_OUT_OF_RANGE', `fee ${feeE10}`);
}

/** getDy for dx > 0 on a pool without an empty coin. */
function dyFor(pool: StableswapState, i: number, j: number, dx: bigint, feeE10: bigint): bigint {
  const { xp, rates } = pool;
  const x = xp[i]! + (dx * rates[i]!) / PRECISION; // rounds down
  checkY(i, j, x, xp);
  const y = yForD(i, j, x, xp, pool.amp, pool.aPrecision, pool.d);
  const dy = xp[j]! - y - 1n; // "−1 just in case there were some rounding errors"
  if (dy <= 0n) return 0n;
  const fee = (dy * feeE10) / FEE_DENOMINATOR; // rounds down
  return ((dy - fee) * PRECISION) / rates[j]!; // rounds down
}

/**
 * Exact-input quote in coin units: dx of coin i → coin j, after fee, rounded down.
 * Returns 0 for dx = 0, an empty coin, or a dust trade whose output rounds below zero.
 */
export function getDy(
  i: number,
  j: number,
  dx: bigint,
  balances: readonly bigint[],
  rates: readonly bigint[],
  amp: bigint,
  feeE10: bigint,
  aPrecision = 1n,
): bigint {
  assertCoins(balances);
  return dyOf(balances, i, j, dx, feeE10, () => stateOf(balances, rates, amp, aPrecision));
}

/** getDy on a state made by stateOf. */
export function getDyOf(pool: StableswapState, i: number, j: number, dx: bigint, feeE10: bigint): bigint {
  return dyOf(pool.balances, i, j, dx, feeE10, () => pool);
}

/** getDy's checks and trivial answers; `state` is made only for a trade to quote. */
function dyOf(balances: readonly bigint[], i: number, j: number, dx: bigint, feeE10: bigint, state: () => StableswapState): bigint {
  checkQuote(i, j, balances, feeE10);
  if (dx < 0n) throw new MathDomainError('NEGATIVE_AMOUNT', 'dx must be >= 0');
  if (dx === 0n || balances.some((b) => b === 0n)) return 0n;
  return dyFor(state(), i, j, dx, feeE10);
}

export type GetDxResult =
  | { readonly ok: true; readonly amountIn: bigint }
  | { readonly ok: false; readonly reason: 'INSUFFICIENT_LIQUIDITY' };

/**
 * Exact-output quote: the smallest dx of coin i for which getDy(i, j, dx) ≥ dy.
 * Estimate: gross the wanted output up for the fee (rounding up), invert the invariant with get_y(j, i, ·),
 * convert back to coin units rounding up; then confirm with getDy and settle on the minimum by bracketing and
 * bisection (getDy is non-decreasing in dx), so the answer is exact despite Newton's ±1 rounding.
 */
export function getDx(
  i: number,
  j: number,
  dy: bigint,
  balances: readonly bigint[],
  rates: readonly bigint[],
  amp: bigint,
  feeE10: bigint,
  aPrecision = 1n,
): GetDxResult {
  assertCoins(balances);
  return dxOf(balances, i, j, dy, feeE10, () => stateOf(balances, rates, amp, aPrecision));
}

/** getDx on a state made by stateOf. */
export function getDxOf(pool: StableswapState, i: number, j: number, dy: bigint, feeE10: bigint): GetDxResult {
  return dxOf(pool.balances, i, j, dy, feeE10, () => pool);
}

/** getDx's checks and trivial answers; `state` is made only for a trade to quote. */
function dxOf(balances: readonly bigint[], i: number, j: number, dy: bigint, feeE10: bigint, state: () => StableswapState): GetDxResult {
  checkQuote(i, j, balances, feeE10);
  if (dy < 0n) throw new MathDomainError('NEGATIVE_AMOUNT', 'dy must be >= 0');
  if (dy === 0n) return { ok: true, amountIn: 0n };
  if (dy >= balances[j]! || balances.some((b) => b === 0n)) return { ok: false, reason: 'INSUFFICIENT_LIQUIDITY' };
  return dxFor(state(), i, j, dy, feeE10);
}

/** getDx for 0 < dy < balance j on a pool without an empty coin. */
function dxFor(pool: StableswapState, i: number, j: number, dy: bigint, feeE10: bigint): GetDxResult {
  const { xp, rates } = pool;
  const dyNetXp = divCeil(dy * rates[j]!, PRECISION); // rounds up
  const dyGrossXp = divCeil(dyNetXp * FEE_DENOMINATOR, FEE_DENOMINATOR - feeE10); // rounds up
  const yTarget = xp[j]! - dyGrossXp - 1n;
  if (yTarget <= 0n) return { ok: false, reason: 'INSUFFICIENT_LIQUIDITY' };
  checkY(j, i, yTarget, xp);
  const xNew = yForD(j, i, yTarget, xp, pool.amp, pool.aPrecision, pool.d);
  const dxXp = xNew > xp[i]! ? xNew - xp[i]! : 1n;
  const estimate = divCeil(dxXp * PRECISION, rates[i]!); // rounds up

  const enough = (dx: bigint): boolean => dx > 0n && dyFor(pool, i, j, dx, feeE10) >= dy;
  // bracket: lo fails, hi succeeds
  let lo: bigint;
  let hi: bigint;
  if (enough(estimate)) {
    hi = estimate;
    let step = 1n;
    lo = estimate - step;
    while (lo > 0n && enough(lo)) {
      hi = lo;
      step *= 2n;
      lo = hi - step;
    }
    if (lo < 0n) lo = 0n; // getDy(0) = 0 < dy
  } else {
    lo = estimate;
    let step = 1n;
    hi = estimate + step;
    for (let k = 0; !enough(hi); k++) {
      if (k >= 256) return { ok: false, reason: 'INSUFFICIENT_LIQUIDITY' };
      lo = hi;
      step *= 2n;
      hi = lo + step;
    }
  }
  while (hi - lo > 1n) {
    const mid = (lo + hi) / 2n; // rounds down; lo < mid < hi
    if (enough(mid)) hi = mid;
    else lo = mid;
  }
  return { ok: true, amountIn: hi };
}
