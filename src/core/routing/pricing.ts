/** USD figures (floats, display and ranking only) and gas costs; token amounts stay bigint. */
import type { Chain, Token } from '../entities';
import { usdValue } from '../math/amounts';
import { divCeil, PPM } from '../math/rational';
import { SWAP_CALL_GAS } from '../liquidity/poolQuote';
import { BoundedMemo, ObjectMemo } from '../memo';
import type { GasCost } from './route';

/**
 * Intrinsic transaction gas plus the router's own work (diamond dispatch, checks, event, and its balance ledger: each
 * asset's balance read before and after the transaction).
 */
export const ROUTER_BASE_GAS = 75_000n;
/**
 * Storage written for the first time costs ~20k gas a slot (a receiver's or the router's first balance of a
 * token, a first approval). A quote cannot know which slots are new, so each transaction's estimate carries
 * this allowance: measured on the sandbox contracts, a fresh router and receiver need up to ~60k more than a
 * warm one, and a gas limit that is too low is integrators' most common failure.
 */
export const FIRST_USE_GAS = 65_000n;
/** The integrator fee's SwapData: the fee collector's own cost plus the router's per-SwapData SWAP_CALL_GAS. */
export const FEE_COLLECTION_GAS = 35_000n + SWAP_CALL_GAS;
/** Suggested limit = estimate + 25 % (rounded up): integrators' most common failure is a limit too low. */
export const GAS_LIMIT_MARGIN_PPM = 1_250_000n;

/** A token's USD price per whole unit and 10^decimals, as numbers. */
interface FloatPrice {
  readonly price: number;
  readonly unit: number;
}

/** Per token (the catalog's tokens are read-only): its price parsed once. */
const floatPrices = new ObjectMemo<Token, FloatPrice>();

function floatPriceOf(token: Token): FloatPrice {
  return { price: usdValue(10n ** BigInt(token.decimals), token.decimals, token.priceUSD), unit: 10 ** token.decimals };
}

/**
 * USD value of an amount, a float for display and ranking only (never fed back into amounts).
 * Prices are parsed once per token; the result is rounded to 1e-9 USD so that binary artefacts
 * (5000.240000000001) never reach the wire.
 */
export function usd(amount: bigint, token: Token): number {
  const { price, unit } = floatPrices.get(token, floatPriceOf);
  return Math.round((Number(amount) / unit) * price * 1e9) / 1e9;
}

export function gasCost(chain: Chain, gasPriceWei: bigint, estimate: bigint): GasCost {
  const amount = estimate * gasPriceWei;
  return {
    type: 'SEND',
    chainId: chain.id,
    price: gasPriceWei,
    estimate,
    limit: divCeil(estimate * GAS_LIMIT_MARGIN_PPM, PPM),
    amount,
    amountUSD: usd(amount, chain.nativeToken),
    token: chain.nativeToken,
  };
}

const SCALE_DIGITS = 18;

/**
 * Scaled prices by price text: read on every destination-call fee and every estimate, and the parse of a text
 * never changes (a text that is not a price throws, every time: a throw is not remembered).
 */
const scaledPrices = new BoundedMemo<string, bigint>({ max: 10_000 });

/** A decimal price string as an integer scaled by 1e18 (exact for up to 18 decimals, truncated beyond). */
export function scaledPrice(priceUSD: string): bigint {
  return scaledPrices.get(priceUSD, parseScaledPrice);
}

function parseScaledPrice(priceUSD: string): bigint {
  const [whole, fraction = ''] = priceUSD.trim().split('.');
  return BigInt(whole || '0') * 10n ** BigInt(SCALE_DIGITS) + BigInt((fraction + '0'.repeat(SCALE_DIGITS)).slice(0, SCALE_DIGITS) || '0');
}

/**
 * The amount of `token` worth `nativeWei` of a chain's native coin at reference prices, rounded up
 * (a fee charged in the token must cover the gas): ceil(wei·pNative·10^dec / (pToken·10^18)).
 */
export function nativeWeiInToken(nativeWei: bigint, native: Token, token: Token): bigint {
  const pNative = scaledPrice(native.priceUSD);
  const pToken = scaledPrice(token.priceUSD);
  if (pToken === 0n) return 0n;
  return divCeil(nativeWei * pNative * pow10(token.decimals), pToken * pow10(native.decimals));
}

/** 10n ** BigInt(decimals), the common ones made once. */
function pow10(decimals: number): bigint {
  return POW10[decimals] ?? 10n ** BigInt(decimals);
}

const POW10: readonly bigint[] = Array.from({ length: 37 }, (_, k) => 10n ** BigInt(k));

/** A ppm amount as a fraction string: 2500n → "0.0025". */
export function ppmToFraction(ppm: bigint): string {
  const whole = ppm / PPM;
  const fraction = (ppm % PPM).toString().padStart(6, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : `${whole}`;
}

/** An amount moved between two tokens of the same asset with different decimals; rounds down, or up when asked. */
export function rescale(amount: bigint, fromDecimals: number, toDecimals: number, roundUp = false): bigint {
  if (fromDecimals === toDecimals) return amount;
  if (toDecimals > fromDecimals) return amount * 10n ** BigInt(toDecimals - fromDecimals);
  const divisor = 10n ** BigInt(fromDecimals - toDecimals);
  return roundUp ? (amount + divisor - 1n) / divisor : amount / divisor;
}
