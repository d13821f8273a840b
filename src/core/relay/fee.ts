/**
 * What a relayed step costs the relayer, charged in the token the user sends (the user holds no native coin): the
 * proxy call's gas at the chain's gas price with the service's usual margin (GAS_LIMIT_MARGIN_PPM), converted at the
 * catalog's prices and rounded up, so that the fee pays for the gas the relayer spends. At relay time the fee the user
 * signed for is compared with the cost then: a price that moved beyond the tolerance is refused before anything is sent.
 */
import type { Token } from '../entities';
import { divCeil, PPM } from '../math/rational';
import { GAS_LIMIT_MARGIN_PPM, nativeWeiInToken } from '../routing/pricing';

/** The gas a relayed call adds to the router call's own: the proxy, Permit2's signature check and transfer. */
export const RELAY_OVERHEAD_GAS = 90_000n;

export interface RelayCost {
  /** The gas the relayer's transaction is expected to use (router call + RELAY_OVERHEAD_GAS). */
  readonly gasUnits: bigint;
  readonly gasPriceWei: bigint;
  readonly native: Token;
}

/** The relayer's fee in `token`'s smallest units; 0 when the token has no price (such a step is not offered). */
export function relayerFee(cost: RelayCost, token: Token): bigint {
  const wei = divCeil(cost.gasUnits * cost.gasPriceWei * GAS_LIMIT_MARGIN_PPM, PPM);
  return nativeWeiInToken(wei, cost.native, token);
}

/**
 * Whether a fee quoted earlier still pays for the relay at today's cost: it may fall short of the cost by at most
 * `tolerancePpm` (the margin already in the quote covers small moves).
 */
export function feeStillCovers(quotedFee: bigint, currentFee: bigint, tolerancePpm: bigint): boolean {
  return quotedFee * PPM >= currentFee * (PPM - tolerancePpm);
}
