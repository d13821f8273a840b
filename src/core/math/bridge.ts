/**
 * Bridge fee model, per route (bridge, fromChain, toChain, token), all amounts in the token's raw units:
 *   out = floor((in − fixedFee)·(1e6 − feePpm)/1e6) − destinationGasFee,   minAmount ≤ in ≤ maxAmount.
 * The proportional fee is expressed in parts per million (1 bp = 100 ppm, see `bpsToPpm`) so that fractional basis
 * points stay exact. Outputs round down; the exact-output inverse rounds the required input up and is minimal:
 *   in = ceil((out + destinationGasFee)·1e6/(1e6 − feePpm)) + fixedFee.
 * Pure; bigint only. Failures are typed results, never exceptions (exceptions are kept for malformed routes).
 */
import { divCeil, divFloor, MathDomainError, PPM } from './rational';

export interface BridgeFeeModel {
  readonly fixedFee: bigint;
  /** Proportional fee on (in − fixedFee), parts per million: 4 bps = 400. */
  readonly feePpm: bigint;
  /** Gas on the destination chain that the relayer charges, in the bridged token. */
  readonly destinationGasFee: bigint;
  readonly minAmount: bigint;
  /** Absent: no upper limit. */
  readonly maxAmount?: bigint;
}

export interface BridgeFees {
  readonly fixed: bigint;
  /** (in − fixed) − floor((in − fixed)·(1e6 − ppm)/1e6), i.e. the proportional fee rounded up. */
  readonly proportional: bigint;
  readonly destinationGas: bigint;
}

export type BridgeFailureReason = 'AMOUNT_TOO_LOW' | 'AMOUNT_TOO_HIGH' | 'FEES_HIGHER_THAN_AMOUNT';

export type BridgeQuote =
  | { readonly ok: true; readonly amountIn: bigint; readonly amountOut: bigint; readonly fees: BridgeFees }
  | {
      readonly ok: false;
      readonly reason: BridgeFailureReason;
      /** An input amount: the min / max of the route, or the smallest input that yields at least 1 unit. */
      readonly limit: bigint;
    };

/** 1 basis point = 100 parts per million. */
export function bpsToPpm(bps: bigint): bigint {
  return bps * 100n;
}

function validateRoute(route: BridgeFeeModel): void {
  const { fixedFee, feePpm, destinationGasFee, minAmount, maxAmount } = route;
  if (fixedFee < 0n || destinationGasFee < 0n || minAmount < 0n || (maxAmount !== undefined && maxAmount < minAmount)) {
    throw new MathDomainError('BAD_BRIDGE_ROUTE', 'bridge route amounts must be >= 0 and max >= min');
  }
  if (feePpm < 0n || feePpm >= PPM) throw new MathDomainError('BAD_BRIDGE_ROUTE', `feePpm ${feePpm} not in [0, 1e6)`);
}

/** Smallest input whose output is ≥ amountOut, ignoring min/max (rounds up; exact minimum). */
function requiredInput(amountOut: bigint, route: BridgeFeeModel): bigint {
  const beforeProportional = divCeil((amountOut + route.destinationGasFee) * PPM, PPM - route.feePpm); // rounds up
  return beforeProportional + route.fixedFee;
}

function checkLimits(amountIn: bigint, route: BridgeFeeModel): BridgeQuote | undefined {
  if (amountIn < route.minAmount) return { ok: false, reason: 'AMOUNT_TOO_LOW', limit: route.minAmount };
  if (route.maxAmount !== undefined && amountIn > route.maxAmount) {
    return { ok: false, reason: 'AMOUNT_TOO_HIGH', limit: route.maxAmount };
  }
  return undefined;
}

/** Exact input: what arrives on the destination chain for `amountIn` sent. */
export function bridgeOut(amountIn: bigint, route: BridgeFeeModel): BridgeQuote {
  validateRoute(route);
  if (amountIn < 0n) throw new MathDomainError('NEGATIVE_AMOUNT', 'amountIn must be >= 0');
  const outOfLimits = checkLimits(amountIn, route);
  if (outOfLimits) return outOfLimits;
  const afterFixed = amountIn - route.fixedFee;
  const afterProportional = afterFixed > 0n ? divFloor(afterFixed * (PPM - route.feePpm), PPM) : 0n; // rounds down
  const amountOut = afterProportional - route.destinationGasFee;
  if (afterFixed <= 0n || amountOut <= 0n) {
    return { ok: false, reason: 'FEES_HIGHER_THAN_AMOUNT', limit: requiredInput(1n, route) };
  }
  return {
    ok: true,
    amountIn,
    amountOut,
    fees: { fixed: route.fixedFee, proportional: afterFixed - afterProportional, destinationGas: route.destinationGasFee },
  };
}

/**
 * Exact output: the smallest input that delivers at least `amountOut` (≥ 1), checked against min/max. The returned
 * quote is the forward quote of that input, so its amountOut is ≥ the request (equal unless rounding adds a unit).
 * A required input below the route minimum fails with AMOUNT_TOO_LOW (limit = minAmount): sending the minimum
 * would deliver more than asked, which the caller may choose to offer.
 */
export function bridgeIn(amountOut: bigint, route: BridgeFeeModel): BridgeQuote {
  validateRoute(route);
  if (amountOut <= 0n) throw new MathDomainError('NON_POSITIVE_AMOUNT', 'amountOut must be >= 1');
  const amountIn = requiredInput(amountOut, route);
  return checkLimits(amountIn, route) ?? bridgeOut(amountIn, route);
}
