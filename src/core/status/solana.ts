/**
 * The status of a transfer from what a Solana chain tells (ports.ts: SolanaTransaction), where the bridge endpoint is
 * an escrow wallet and its memos (src/core/chains/solana/memo.ts) say what each transaction is. Pure, like classify.ts:
 * `classifySolanaTransfer` answers or names the read it needs next, and the progress after the deposit is the one of
 * every bridge transfer (classify.ts, bridgeProgress), so that the states and substatuses are the EVM transfers'.
 *
 * A transaction's role (solanaBridgeRole):
 * - a deposit: a bridge memo `xchain:v1:…` and a transfer into the escrow (SPL to the escrow owner's token account,
 *   or lamports to the owner), from the sender;
 * - a release: the memo `xchain:release:v1:<transferId>:<source chain>:<deposit id>`, signed by the escrow owner, and
 *   a transfer out of the escrow to the receiver (the receiving transaction of a transfer to Solana);
 * - a refund: the memo `xchain:refund:v1:<transferId>:<deposit signature>`, signed by the escrow owner, and a transfer
 *   out of the escrow back to the sender;
 * - anything else is not a transaction of the service (INVALID), whatever its memo says.
 * Only the transaction's own (top-level) instructions count, as for the relayer: a transfer made by a program it calls
 * (an inner instruction, such as the rent of a token account created on the way) is no deposit or payment.
 *
 * A deposit: failed → FAILED (the substatus from the node's error and logs: failure.ts); not at the chain's commitment
 * yet → PENDING WAIT_SOURCE_CONFIRMATIONS; refunded on Solana → DONE REFUNDED (as an EVM refund); then the
 * destination's release, found by the transfer id (the EVM endpoint's Released with fromChainId = Solana) → DONE
 * COMPLETED (PARTIAL when the destination call failed), or PENDING WAIT_DESTINATION_TRANSACTION. A release or refund
 * signature is read from its deposit (EVM: by the memo's deposit id; Solana: by the refund memo's signature).
 */
import { base58, hex } from '@scure/base';
import { parseBridgeMemo, parseRefundMemo, parseReleaseMemo, type BridgeMemo, type RefundMemo, type ReleaseMemo } from '../chains/solana/memo';
import { amountOf, bridgeProgress, done, invalid, transaction, type BridgeLeg, type Settled, type StatusContext, type TransferStep } from './classify';
import { diagnoseSolanaFailure } from './failure';
import type { DepositEvent, ReleaseEvent, SolanaCommitment, SolanaTokenMove, SolanaTransaction, TransactionCost } from './ports';
import type { TransferStatus, TransferTransaction } from './transferStatus';

const SIGNATURE = /^[1-9A-HJ-NP-Za-km-z]{86,88}$/;

/** Whether a reference is a Solana transaction signature: base58 of 64 bytes (86 to 88 characters). */
export function isSolanaSignature(ref: string): boolean {
  if (!SIGNATURE.test(ref)) return false;
  try {
    return base58.decode(ref).length === 64;
  } catch {
    return false;
  }
}

/** A receiver's bytes (0x-hex) as a Solana address: base58 of a 32-byte public key (undefined for other lengths). */
export function solanaAddressOf(bytes: string): string | undefined {
  if (!/^0x[0-9a-fA-F]{64}$/.test(bytes)) return undefined;
  return base58.encode(hex.decode(bytes.slice(2).toLowerCase()));
}

// ------------------------------------------------------------------------------------------------- roles

/** What a transfer moved: the mint (undefined: lamports) and the amount. */
export interface Moved {
  readonly mint?: string;
  readonly amount: bigint;
}

export type SolanaBridgeRole =
  | { readonly kind: 'deposit'; readonly memo: BridgeMemo; readonly sender: string; readonly moved: Moved }
  | { readonly kind: 'release'; readonly memo: ReleaseMemo; readonly receiver: string; readonly moved: Moved }
  | { readonly kind: 'refund'; readonly memo: RefundMemo; readonly receiver: string; readonly moved: Moved }
  | { readonly kind: 'none'; readonly reason: string };

const intoEscrow = (t: SolanaTokenMove, escrow: string) => (t.mint === undefined ? t.destination === escrow : t.destinationOwner === escrow);
const fromEscrow = (t: SolanaTokenMove, escrow: string) => (t.mint === undefined ? t.source === escrow : t.sourceOwner === escrow);

/** The moves of the first move's mint, added up. */
function movedOf(moves: readonly SolanaTokenMove[]): Moved {
  const { mint } = moves[0];
  return { ...(mint !== undefined ? { mint } : {}), amount: moves.filter((t) => t.mint === mint).reduce((n, t) => n + t.amount, 0n) };
}

/** What a Solana transaction is to the bridge whose escrow `escrowOwner` owns (see the module comment). */
export function solanaBridgeRole(tx: SolanaTransaction, escrowOwner: string): SolanaBridgeRole {
  const own = tx.transfers.filter((t) => !t.inner);
  for (const text of tx.memos) {
    const deposit = parseBridgeMemo(text);
    if (deposit) {
      const into = own.filter((t) => intoEscrow(t, escrowOwner) && !fromEscrow(t, escrowOwner));
      if (into.length === 0) return { kind: 'none', reason: 'its bridge memo comes with no transfer into the bridge\'s escrow' };
      return { kind: 'deposit', memo: deposit, sender: into[0].sourceOwner ?? into[0].authority ?? tx.feePayer, moved: movedOf(into) };
    }
    const release = parseReleaseMemo(text);
    const refund = release ? undefined : parseRefundMemo(text);
    if (release || refund) {
      if (!tx.signers.includes(escrowOwner)) return { kind: 'none', reason: 'its release or refund memo is not signed by the bridge\'s escrow' };
      const out = own.filter((t) => fromEscrow(t, escrowOwner) && !intoEscrow(t, escrowOwner));
      if (out.length === 0) return { kind: 'none', reason: 'its release or refund memo comes with no transfer out of the bridge\'s escrow' };
      const receiver = out[0].destinationOwner ?? out[0].destination;
      return release ? { kind: 'release', memo: release, receiver, moved: movedOf(out) } : { kind: 'refund', memo: refund!, receiver, moved: movedOf(out) };
    }
  }
  return { kind: 'none', reason: 'it carries no memo of the bridge' };
}

// ------------------------------------------------------------------------------------------------- classification

/** What is known of a transfer read from a Solana transaction; the optional parts once asked for (`need`). */
export interface SolanaTransferFacts {
  readonly solana: SolanaTransaction;
  /** The escrow owner of the bridge on that chain. */
  readonly escrowOwner: string;
  /** A release or refund whose deposit the source chain does not know. */
  readonly unknownDeposit?: true;
  /** A deposit's refund on Solana (null: none). */
  readonly refund?: SolanaTransaction | null;
  /** A deposit's release on its destination (null: none yet). */
  readonly release?: Settled<ReleaseEvent> | null;
}

const COMMITMENT_RANK: Readonly<Record<SolanaCommitment, number>> = { processed: 0, confirmed: 1, finalized: 2 };

export function classifySolanaTransfer(facts: SolanaTransferFacts, query: { readonly bridge?: string }, context: StatusContext): TransferStep {
  const tx = facts.solana;
  const role = solanaBridgeRole(tx, facts.escrowOwner);
  switch (role.kind) {
    case 'none':
      return done(invalid(`Transaction ${tx.signature} on chain ${tx.chainId} is not a transfer of this service: ${role.reason}${tx.error !== undefined ? ' (it failed anyway)' : ''}.`));
    case 'deposit':
      return deposited(facts, role, query, context);
    case 'release': {
      if (tx.error !== undefined) return done(invalid(`Transaction ${tx.signature} on chain ${tx.chainId} is a release of the bridge that failed; it moved nothing.`));
      const sourceId = role.memo.sourceChainId;
      if (!context.chain(sourceId)?.hasBridgeEndpoint) {
        return done({
          status: 'PENDING', substatus: 'CHAIN_NOT_AVAILABLE', transactionId: role.memo.transferId,
          substatusMessage: `This is the receiving transaction of a transfer from chain ${sourceId}, which is not connected to this instance.`,
          receiving: { chainId: tx.chainId, txHash: tx.signature },
        });
      }
      if (facts.unknownDeposit) {
        return done(invalid(`Transaction ${tx.signature} releases deposit ${role.memo.depositId} of chain ${sourceId}, which that chain's bridge endpoint does not know.`));
      }
      return { need: { kind: 'sourceDeposit', chainId: sourceId, depositId: role.memo.depositId, transferId: role.memo.transferId } };
    }
    case 'refund':
      if (tx.error !== undefined) return done(invalid(`Transaction ${tx.signature} on chain ${tx.chainId} is a refund of the bridge that failed; it moved nothing.`));
      if (facts.unknownDeposit) return done(invalid(`Transaction ${tx.signature} refunds deposit ${role.memo.depositSignature}, which chain ${tx.chainId} does not know as a deposit of the bridge.`));
      return { need: { kind: 'sourceTransaction', chainId: tx.chainId, hash: role.memo.depositSignature } };
  }
}

function deposited(facts: SolanaTransferFacts, role: Extract<SolanaBridgeRole, { kind: 'deposit' }>, query: { readonly bridge?: string }, context: StatusContext): TransferStep {
  const tx = facts.solana;
  const { memo, moved } = role;
  if (query.bridge && query.bridge !== memo.bridge) return done(invalid(`Transaction ${tx.signature} is a transfer via ${memo.bridge}, not via ${query.bridge}.`));
  const token = tokenAddressOf(context, tx.chainId, moved);
  const common = {
    transactionId: memo.transferId, tool: memo.bridge, fromAddress: role.sender,
    toAddress: context.receiverAddress?.(memo.destinationChainId, memo.receiver) ?? memo.receiver,
  };
  const sending: TransferTransaction = { ...solanaTransaction(context, tx), ...amountOf(context, tx.chainId, { token, amount: moved.amount }), includedSteps: [] };
  if (tx.error !== undefined) {
    const diagnosis = diagnoseSolanaFailure(tx.error, tx.logs);
    return done({ status: 'FAILED', substatus: diagnosis.substatus, substatusMessage: diagnosis.message, ...common, sending });
  }
  const required = context.chain(tx.chainId)?.commitment ?? 'confirmed';
  const deposit: DepositEvent = {
    depositId: 0n, bridge: memo.bridge, transactionId: memo.transferId, token, amount: moved.amount,
    destinationChainId: memo.destinationChainId, receiver: memo.receiver, hasDestinationCall: (memo.hops?.length ?? 0) > 0,
  };
  let refund: BridgeLeg['refund'];
  if (facts.refund) {
    const back = solanaBridgeRole(facts.refund, facts.escrowOwner);
    const paid = back.kind === 'refund' ? back.moved : moved;
    refund = {
      message: `The bridge could not deliver on chain ${memo.destinationChainId} and refunded ${paid.amount} to ${back.kind === 'refund' ? back.receiver : role.sender} on chain ${tx.chainId}.`,
      receiving: { ...solanaTransaction(context, facts.refund), ...amountOf(context, tx.chainId, { token: tokenAddressOf(context, tx.chainId, paid), amount: paid.amount }) },
    };
  } else refund = facts.refund;
  return bridgeProgress({
    sourceChainId: tx.chainId, deposit, common, sending, sourceSteps: [],
    ...(COMMITMENT_RANK[tx.commitment] < COMMITMENT_RANK[required]
      ? { unconfirmed: `The sending transaction is ${tx.commitment}; it counts once ${required}.` }
      : {}),
    refund,
    refundNeed: { kind: 'solanaRefund', chainId: tx.chainId, transferId: memo.transferId, depositSignature: tx.signature },
    release: facts.release,
  }, context);
}

/** A signature the node has seen but not confirmed: PENDING WAIT_SOURCE_CONFIRMATIONS (not cached). */
export function solanaNotConfirmed(chainId: number, signature: string, slot: number): TransferStatus {
  return {
    status: 'PENDING', substatus: 'WAIT_SOURCE_CONFIRMATIONS', substatusMessage: 'The transaction is known but not confirmed yet.',
    sending: { chainId, txHash: signature, block: slot },
  };
}

// ------------------------------------------------------------------------------------------------- Solana as the destination

/**
 * A release on Solana as the destination side of a transfer reads it (a Settled Released): its memo's source, deposit
 * and transfer id, what the escrow paid, and its cost. Undefined when the transaction is not a successful release.
 */
export function solanaRelease(tx: SolanaTransaction, escrowOwner: string, context: StatusContext): Settled<ReleaseEvent> | undefined {
  const role = solanaBridgeRole(tx, escrowOwner);
  if (role.kind !== 'release' || tx.error !== undefined) return undefined;
  return {
    txHash: tx.signature, blockNumber: tx.slot,
    event: {
      fromChainId: role.memo.sourceChainId, depositId: role.memo.depositId, transactionId: role.memo.transferId,
      token: tokenAddressOf(context, tx.chainId, role.moved), amount: role.moved.amount, destinationCall: false, destinationCallSucceeded: false,
    },
    settlement: { cost: solanaCost(tx), destinationSwapTargets: [] },
  };
}

// ------------------------------------------------------------------------------------------------- helpers

/**
 * What a Solana transaction cost: the fee in lamports (gasAmount), the compute units consumed (gasUsed), the compute
 * unit price in micro-lamports (gasPrice), the lamports the fee payer sent by its own instructions (value).
 */
export function solanaCost(tx: SolanaTransaction): TransactionCost {
  const value = tx.transfers.filter((t) => !t.inner && t.mint === undefined && t.source === tx.feePayer).reduce((n, t) => n + t.amount, 0n);
  return {
    gasPrice: tx.computeUnitPrice, gasUsed: tx.computeUnitsConsumed ?? 0n, fee: tx.fee, value,
    ...(tx.blockTime !== undefined ? { timestamp: tx.blockTime } : {}),
  };
}

function solanaTransaction(context: StatusContext, tx: SolanaTransaction): TransferTransaction {
  return transaction(context, tx.chainId, tx.signature, tx.slot, solanaCost(tx));
}

/** The token address the catalog knows a move by: its mint, or the native coin's address for lamports. */
function tokenAddressOf(context: StatusContext, chainId: number, moved: Moved): string {
  return moved.mint ?? context.nativeToken(chainId)?.address ?? '11111111111111111111111111111111';
}
