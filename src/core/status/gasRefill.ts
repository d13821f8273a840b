/**
 * The status of the gas refuel leg of a sending transaction (GET /v1/gas/status), from what the chains tell.
 * Pure, like classify.ts: `classifyGasRefill` answers or names the read it needs next.
 *
 * The last deposit of a transaction is its main transfer; those before it are refuel legs (a router call nested in
 * the swaps). A transaction with a single deposit is a refuel when it delivers the destination's native coin.
 */
import { tokenField, type StatusContext } from './classify';
import type { CompletionEvent, DepositEvent, Emitted, Receipt, RefundEvent, ReleaseEvent } from './ports';
import type { GasRefillStatus } from './transferStatus';

export interface GasRefillFacts {
  /** The sending transaction's receipt. */
  readonly receipt: Receipt;
  /** The refuel's release and refund; 'unavailable' when a chain did not answer. */
  readonly settled?: { readonly release: Emitted<ReleaseEvent> | null; readonly refund: Emitted<RefundEvent> | null } | 'unavailable';
  /** The router's completion in the release's receipt (null: none, or the receipt could not be read). */
  readonly completed?: CompletionEvent | null;
  /** The sending transaction's confirmations (its block included); 'unavailable' when its chain did not answer. */
  readonly confirmations?: number | 'unavailable';
}

export type GasRefillNeed =
  | { readonly kind: 'confirmations' }
  | { readonly kind: 'settled'; readonly chainId: number; readonly destinationChainId: number; readonly depositId: bigint; readonly fromBlock: number }
  | { readonly kind: 'completed'; readonly chainId: number; readonly txHash: string };

export type GasRefillStep = { readonly status: GasRefillStatus; readonly need?: undefined } | { readonly need: GasRefillNeed };

export const GAS_NOT_CONNECTED: GasRefillStatus = { status: 'NOT_FOUND', message: 'not connected to any chain' };

/** No connected chain has mined the transaction: `pending`, the chain that knows it unmined. */
export function gasRefillNotMined(hash: string, pending: number | undefined, unavailable: readonly number[]): GasRefillStatus {
  if (pending !== undefined) return { status: 'PENDING', message: 'not mined yet', sending: { chainId: pending, txHash: hash } };
  return { status: 'NOT_FOUND', message: unavailable.length > 0 ? `chain ${[...unavailable].sort((a, b) => a - b).join(', ')} did not answer` : 'unknown transaction' };
}

export function classifyGasRefill(facts: GasRefillFacts, context: StatusContext): GasRefillStep {
  const { receipt } = facts;
  if (receipt.reverted || !context.chain(receipt.chainId)?.hasBridgeEndpoint) return done({ status: 'NOT_FOUND', message: 'not a gas refuel (reverted, or no bridge endpoint)' });
  const refuel = refuelOf(receipt, context);
  if (!refuel) return done({ status: 'NOT_FOUND', message: 'the transaction carries no gas refuel' });
  const sending = {
    chainId: receipt.chainId, txHash: receipt.hash, block: receipt.blockNumber, amount: refuel.amount,
    ...tokenField('token', context.token(receipt.chainId, refuel.token)),
  };
  const destination = context.chain(refuel.destinationChainId);
  if (!destination) return done({ status: 'PENDING', message: `destination chain ${refuel.destinationChainId} not connected`, sending });
  if (!destination.hasBridgeEndpoint) return done({ status: 'PENDING', message: `no bridge endpoint configured on destination chain ${refuel.destinationChainId}`, sending });
  // as the transfer's own status: nothing counts until the sending transaction has its chain's confirmations
  if (facts.confirmations === undefined) return { need: { kind: 'confirmations' } };
  if (facts.confirmations === 'unavailable') return done({ status: 'PENDING', message: 'a chain did not answer', sending });
  const required = context.chain(receipt.chainId)?.confirmations ?? 1;
  if (facts.confirmations < required) return done({ status: 'PENDING', message: `waiting for the source chain's confirmations: ${facts.confirmations} of ${required}`, sending });
  if (facts.settled === undefined) {
    return { need: { kind: 'settled', chainId: receipt.chainId, destinationChainId: destination.chainId, depositId: refuel.depositId, fromBlock: receipt.blockNumber } };
  }
  if (facts.settled === 'unavailable') return done({ status: 'PENDING', message: 'a chain did not answer', sending });
  const { release, refund } = facts.settled;
  if (refund) {
    return done({
      status: 'DONE', message: 'refunded on the source chain', sending,
      receiving: {
        chainId: receipt.chainId, txHash: refund.txHash, block: refund.blockNumber, amount: refund.event.amount,
        ...tokenField('token', context.token(receipt.chainId, refund.event.token)),
      },
    });
  }
  if (!release) return done({ status: 'PENDING', message: 'waiting for the destination transaction', sending });
  let final = { token: release.event.token, amount: release.event.amount };
  if (release.event.destinationCall && release.event.destinationCallSucceeded) {
    if (facts.completed === undefined) return { need: { kind: 'completed', chainId: destination.chainId, txHash: release.txHash } };
    if (facts.completed) final = facts.completed;
  }
  return done({
    status: 'DONE', sending,
    receiving: {
      chainId: destination.chainId, txHash: release.txHash, block: release.blockNumber, amount: final.amount,
      ...tokenField('token', context.token(destination.chainId, final.token)),
    },
  });
}

function refuelOf(receipt: Receipt, context: StatusContext): DepositEvent | undefined {
  const { deposits } = receipt.events;
  if (deposits.length >= 2) return deposits[0];
  if (deposits.length === 1 && !deposits[0].hasDestinationCall) {
    const nativeCoin = context.nativeToken(deposits[0].destinationChainId)?.coinKey;
    if (nativeCoin && context.token(receipt.chainId, deposits[0].token)?.coinKey === nativeCoin) return deposits[0];
  }
  return undefined;
}

function done(status: GasRefillStatus): GasRefillStep {
  return { status };
}
