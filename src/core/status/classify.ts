/**
 * The status of a transfer from what the chains tell (ports.ts), with its substatus and the message a user reads.
 * Pure: `classifyTransfer` either answers or names the one read it needs next (`need`); the tracker makes that
 * read, adds its result to the facts and asks again.
 *
 * - the router's LiFiGenericSwapCompleted (same-chain swap) or LiFiSwappedGeneric (same-chain contract call):
 *   DONE COMPLETED, sending and receiving are the same transaction;
 * - the bridge endpoint's Deposited on the source chain: the transfer is under way until the destination
 *   endpoint's Released for (source chain, deposit id) → DONE COMPLETED (PARTIAL when a destination call failed
 *   and the bridged token was paid instead), or the source endpoint's Refunded → DONE REFUNDED. The last Deposited
 *   of a transaction is its main transfer; earlier ones (a router call nested in the swaps) are gas refuel legs;
 * - a receiving transaction (a Released without a Deposited) is read from its source side;
 * - a reverted transaction of the router: FAILED, with the reason of its replay at the parent block (failure.ts);
 * - a transaction without any event of the service's contracts: INVALID; a transfer of another bridge than the
 *   `bridge` asked for: INVALID;
 * - mined with fewer confirmations than configured: PENDING WAIT_SOURCE_CONFIRMATIONS; a chain that is not
 *   connected: PENDING CHAIN_NOT_AVAILABLE; no bridge endpoint there: PENDING BRIDGE_NOT_AVAILABLE.
 *
 * The progress of a bridge transfer after its deposit (refund, destination, release) is bridgeProgress, shared
 * with the transfers whose deposit is on Solana (solana.ts).
 */
import type { Token } from '../entities';
import { diagnoseRevert } from './failure';
import type { DepositEvent, Emitted, MinedTransaction, PendingTransaction, RefundEvent, ReleaseEvent, Replay, Settlement, StatusChain, TransactionCost } from './ports';
import type { CollectedFee, IncludedStep, TransferStatus, TransferTransaction } from './transferStatus';

/** What the classification knows besides the chains' facts: the connected chains and the catalog. */
export interface StatusContext {
  chain(chainId: number): StatusChain | undefined;
  token(chainId: number, address: string): Token | undefined;
  nativeToken(chainId: number): Token | undefined;
  /** The exchange (tool key) a swap's callTo belongs to: exchange routers and pools (undefined: unknown). */
  exchangeOf(chainId: number, address: string): string | undefined;
  /** A receiver's bytes (0x-hex, as a bridge request or memo carries them) as an address of `chainId`'s family (undefined: unknown). */
  receiverAddress?(chainId: number, bytes: string): string | undefined;
  /**
   * What `bridge` delivers on `toChainId` for `amount` of `token` deposited on `fromChainId`, by the bridge's model
   * (its route's fees; undefined: no such route, or outside its limits): the bridge step of a transfer not released yet.
   */
  bridgeEstimate?(bridge: string, fromChainId: number, toChainId: number, token: string, amount: bigint): { readonly token: string; readonly amount: bigint } | undefined;
}

/** A release or a refund, with the transaction that made it. */
export type Settled<E> = Emitted<E> & { readonly settlement: Settlement };

/** What is known of a transfer; the optional parts are there once asked for (`need`), null when the chain has none. */
export interface TransferFacts {
  /** The mined transaction the reference led to. */
  readonly tx: MinedTransaction;
  readonly replay?: Replay;
  /** A receiving transaction whose deposit the source chain's endpoint does not know. */
  readonly unknownDeposit?: true;
  readonly refund?: Settled<RefundEvent> | null;
  readonly release?: Settled<ReleaseEvent> | null;
}

export type TransferNeed =
  | { readonly kind: 'replay' }
  /**
   * The source transaction of a receiving one: the facts start again from it. Found by its deposit id on an EVM
   * chain, by the transfer id on Solana (whose escrow has no deposit ids).
   */
  | { readonly kind: 'sourceDeposit'; readonly chainId: number; readonly depositId: bigint; readonly transferId: string }
  /** A transaction named by another (a Solana refund names its deposit's signature): the facts start again from it. */
  | { readonly kind: 'sourceTransaction'; readonly chainId: number; readonly hash: string }
  | { readonly kind: 'refund'; readonly chainId: number; readonly depositId: bigint; readonly fromBlock: number }
  /** The escrow's refund on Solana of the deposit `depositSignature`. */
  | { readonly kind: 'solanaRefund'; readonly chainId: number; readonly transferId: string; readonly depositSignature: string }
  /**
   * The release on `chainId` of the transfer: by deposit id when the source has one (an EVM endpoint's), else by
   * transfer id (a Solana deposit); on Solana by the release memo (transfer id, source chain, deposit id).
   */
  | { readonly kind: 'release'; readonly chainId: number; readonly fromChainId: number; readonly depositId?: bigint; readonly transferId: string };

export type TransferStep = { readonly status: TransferStatus; readonly need?: undefined } | { readonly need: TransferNeed };

// ------------------------------------------------------------------------------------ before any transaction

export const NOT_CONNECTED: TransferStatus = { status: 'NOT_FOUND', substatusMessage: 'This instance is not connected to any chain (chain mode is off), so it cannot see transactions.' };
export const NOT_A_TRACKED_REFERENCE: TransferStatus = {
  status: 'NOT_FOUND',
  substatusMessage: 'Only EVM and Solana transfers are tracked: the reference is not an EVM transaction hash, a Solana signature, a transfer id or a step id.',
};
export const NO_SOLANA_CHAIN: TransferStatus = {
  status: 'NOT_FOUND',
  substatusMessage: 'The reference is a Solana signature, but no Solana chain is connected to this instance, so it cannot see Solana transactions.',
};

export function chainNotConnected(chainId: number): TransferStatus {
  return { status: 'PENDING', substatus: 'CHAIN_NOT_AVAILABLE', substatusMessage: `Chain ${chainId} is not connected to this instance; its transactions cannot be read.` };
}

export function notMined(chainId: number, hash: string, tx: PendingTransaction): TransferStatus {
  return {
    status: 'PENDING', substatus: 'WAIT_SOURCE_CONFIRMATIONS',
    substatusMessage: 'The transaction is known but not mined yet.',
    fromAddress: tx.from,
    sending: { chainId, txHash: hash, value: tx.value },
  };
}

/** No connected chain knows the reference; `unavailable`: the chains that did not answer. */
export function notFound(unavailable: readonly number[]): TransferStatus {
  if (unavailable.length > 0) {
    const ids = [...unavailable].sort((a, b) => a - b);
    return {
      status: 'PENDING', substatus: 'CHAIN_NOT_AVAILABLE',
      substatusMessage: `Not found on the chains that answered; chain ${ids.join(', ')} did not answer, ask again later.`,
    };
  }
  return { status: 'NOT_FOUND', substatusMessage: 'No transaction or transfer with this reference on the connected chains (it may not be mined yet).' };
}

/** A chain stopped answering while the transfer was read (`reason`: "chain … did not answer: …"). */
export function chainStoppedAnswering(reason: string): TransferStatus {
  return { status: 'PENDING', substatus: 'CHAIN_NOT_AVAILABLE', substatusMessage: `${reason}; ask again later.` };
}

// ------------------------------------------------------------------------------------ a mined transaction

export function classifyTransfer(facts: TransferFacts, query: { readonly bridge?: string }, context: StatusContext): TransferStep {
  const { tx } = facts;
  if (tx.reverted) return failed(facts, context);
  const { events } = tx;
  const released = events.releases[0];
  if (events.deposits.length === 0 && released) return receivingSide(facts, released, context);

  const fees = events.fees.map((f): CollectedFee => {
    const token = context.token(tx.chainId, f.token);
    return { tokenAddress: f.token, ...(token ? { token } : {}), integratorFee: f.integratorFee, serviceFee: f.serviceFee, fraction: 0 };
  });
  const base = transaction(context, tx.chainId, tx.hash, tx.blockNumber, tx.cost);
  const swap = events.swaps.find((s) => s.event === 'LiFiGenericSwapCompleted') ?? events.swaps.find((s) => s.event === 'LiFiSwappedGeneric');
  if (events.deposits.length === 0 && swap) {
    const tool = swapTool(context, tx.chainId, tx.call.swapTargets) ?? 'router';
    const step: IncludedStep = {
      tool, fromAmount: swap.fromAmount, toAmount: swap.toAmount,
      ...tokenField('fromToken', context.token(tx.chainId, swap.fromToken)), ...tokenField('toToken', context.token(tx.chainId, swap.toToken)),
    };
    const receiver = swap.event === 'LiFiGenericSwapCompleted' ? swap.receiver! : tx.from;
    return done({
      status: 'DONE', substatus: 'COMPLETED', substatusMessage: 'The transfer is complete.',
      transactionId: swap.transactionId,
      tool, fromAddress: tx.from, toAddress: receiver, ...(swap.integrator ? { integrator: swap.integrator } : {}), fees: withFractions(fees, swap.fromAmount),
      sending: { ...base, ...amountOf(context, tx.chainId, { token: swap.fromToken, amount: swap.fromAmount }), includedSteps: [step] },
      // as a bridge transfer's receiving side: its steps on the receiving chain (none beyond the sending transaction's)
      receiving: { ...base, ...amountOf(context, tx.chainId, { token: swap.toToken, amount: swap.toAmount }), includedSteps: [] },
    });
  }
  if (events.deposits.length === 0) {
    return done(invalid(`Transaction ${tx.hash} on chain ${tx.chainId} is not a transfer of this service (no event of its router or bridge endpoint).`));
  }
  return bridgeTransfer(facts, base, events.deposits[events.deposits.length - 1], fees, query, context);
}

function failed(facts: TransferFacts, context: StatusContext): TransferStep {
  const { tx } = facts;
  if (!tx.callsRouter) return done(invalid(`Transaction ${tx.hash} on chain ${tx.chainId} is not a call of this service's router (it reverted anyway).`));
  // all the gas used: OUT_OF_GAS whatever a replay would say
  const outOfGas = tx.cost.gasUsed >= tx.gasLimit;
  if (!outOfGas && !facts.replay) return { need: { kind: 'replay' } };
  const diagnosis = outOfGas || facts.replay!.reverted
    ? diagnoseRevert(facts.replay?.reverted ? facts.replay.revert : undefined, outOfGas)
    : { substatus: 'UNKNOWN_FAILED_ERROR' as const, message: 'The transaction reverted, but replaying it on the state before its block succeeds: something else in its block changed the state it depended on.' };
  const { call } = tx;
  return done({
    status: 'FAILED', substatus: diagnosis.substatus, substatusMessage: diagnosis.message,
    ...(call.transactionId ? { transactionId: call.transactionId } : {}),
    // the tool the call used: its bridge, else the exchange of its swaps (the router itself when none is known)
    ...(call.bridge ? { tool: call.bridge } : call.swapTargets.length > 0 ? { tool: swapTool(context, tx.chainId, call.swapTargets) ?? 'router' } : {}),
    fromAddress: tx.from,
    ...(call.receiver ? { toAddress: call.receiver } : {}),
    ...(call.integrator ? { integrator: call.integrator } : {}),
    sending: { ...transaction(context, tx.chainId, tx.hash, tx.blockNumber, tx.cost), ...amountOf(context, tx.chainId, call.sent) },
  });
}

/** A receiving hash: the transfer is read from its source side (the Deposited of the Released's deposit id). */
function receivingSide({ tx, unknownDeposit }: TransferFacts, released: ReleaseEvent, context: StatusContext): TransferStep {
  const sourceId = released.fromChainId;
  if (!context.chain(sourceId)?.hasBridgeEndpoint) {
    return done({
      status: 'PENDING', substatus: 'CHAIN_NOT_AVAILABLE', transactionId: released.transactionId,
      substatusMessage: `This is the receiving transaction of a transfer from chain ${sourceId}, which is not connected to this instance.`,
      receiving: { chainId: tx.chainId, txHash: tx.hash },
    });
  }
  if (unknownDeposit) return done(invalid(`Transaction ${tx.hash} releases deposit ${released.depositId} of chain ${sourceId}, which that chain's bridge endpoint does not know.`));
  return { need: { kind: 'sourceDeposit', chainId: sourceId, depositId: released.depositId, transferId: released.transactionId } };
}

function bridgeTransfer(
  facts: TransferFacts, base: TransferTransaction, deposit: DepositEvent, fees: CollectedFee[], query: { readonly bridge?: string }, context: StatusContext,
): TransferStep {
  const { tx } = facts;
  if (query.bridge && query.bridge !== deposit.bridge) {
    return done(invalid(`Transaction ${tx.hash} is a transfer via ${deposit.bridge}, not via ${query.bridge}.`));
  }
  const { call } = tx;
  const sentAmount = call.sent ?? { token: deposit.token, amount: deposit.amount };
  const sourceSteps: IncludedStep[] = [];
  if (call.hasSourceSwaps && sentAmount.token.toLowerCase() !== deposit.token.toLowerCase()) {
    sourceSteps.push({
      tool: swapTool(context, tx.chainId, call.swapTargets) ?? 'router', fromAmount: sentAmount.amount, toAmount: deposit.amount,
      ...tokenField('fromToken', context.token(tx.chainId, sentAmount.token)), ...tokenField('toToken', context.token(tx.chainId, deposit.token)),
    });
  }
  const receiver = deposit.nonEvmReceiver ? context.receiverAddress?.(deposit.destinationChainId, deposit.nonEvmReceiver) : undefined;
  const common = {
    transactionId: deposit.transactionId, tool: deposit.bridge, fromAddress: tx.from, toAddress: receiver ?? deposit.receiver,
    ...(call.integrator ? { integrator: call.integrator } : {}),
    fees: withFractions(fees, sentAmount.amount),
  };
  const required = context.chain(tx.chainId)?.confirmations ?? 1;
  let refund: BridgeLeg['refund'];
  if (facts.refund) {
    const { event, txHash, blockNumber, settlement } = facts.refund;
    refund = {
      message: `The bridge could not deliver on chain ${deposit.destinationChainId} and refunded ${event.amount} to ${event.to} on chain ${tx.chainId}.`,
      receiving: {
        ...(settlement.cost ? transaction(context, tx.chainId, txHash, blockNumber, settlement.cost) : { chainId: tx.chainId, txHash }),
        ...amountOf(context, tx.chainId, { token: event.token, amount: event.amount }),
      },
    };
  } else refund = facts.refund;
  return bridgeProgress({
    sourceChainId: tx.chainId, deposit, common,
    sending: { ...base, ...amountOf(context, tx.chainId, sentAmount), includedSteps: sourceSteps },
    sourceSteps,
    ...(tx.confirmations < required ? { unconfirmed: `The sending transaction has ${tx.confirmations} of ${required} confirmations.` } : {}),
    refund,
    refundNeed: { kind: 'refund', chainId: tx.chainId, depositId: deposit.depositId, fromBlock: tx.blockNumber },
    depositId: deposit.depositId,
    release: facts.release,
  }, context);
}

/** A bridge transfer whose deposit has been read, in the terms its progress is decided on (EVM or Solana deposit). */
export interface BridgeLeg {
  readonly sourceChainId: number;
  /** The deposit as the bridge took it (bridge, token, amount, destination, transfer id; the bridge step reads it). */
  readonly deposit: DepositEvent;
  /** The status fields known from the sending side (transactionId, tool, fromAddress, toAddress, integrator, fees). */
  readonly common: Omit<TransferStatus, 'status' | 'substatus' | 'substatusMessage' | 'sending' | 'receiving'>;
  readonly sending: TransferTransaction;
  readonly sourceSteps: readonly IncludedStep[];
  /** Why the sending transaction does not count as confirmed yet (undefined: it does). */
  readonly unconfirmed?: string;
  /** undefined: not read yet (refundNeed); null: none; else the refund as the status shows it. */
  readonly refund: { readonly message: string; readonly receiving: TransferTransaction } | null | undefined;
  readonly refundNeed: TransferNeed;
  /** The source endpoint's deposit id (undefined: the source has none, the release is found by transfer id). */
  readonly depositId?: bigint;
  readonly release: Settled<ReleaseEvent> | null | undefined;
}

/**
 * The progress of a bridge transfer after its deposit: confirmations, the source's bridge endpoint, a refund on the
 * source chain, the destination chain and its endpoint, the release there.
 */
export function bridgeProgress(leg: BridgeLeg, context: StatusContext): TransferStep {
  const { deposit, common, sourceSteps, sourceChainId } = leg;
  const waiting = { chainId: deposit.destinationChainId };
  // while the release is awaited, the sending side lists the bridge step as the bridge's model estimates it (the DONE
  // answer lists it with the amount released); a refund lists the steps that ran
  const estimate = context.bridgeEstimate?.(deposit.bridge, sourceChainId, deposit.destinationChainId, deposit.token, deposit.amount);
  const sending: TransferTransaction = estimate
    ? {
        ...leg.sending,
        includedSteps: [
          ...sourceSteps,
          {
            tool: deposit.bridge, fromAmount: deposit.amount, toAmount: estimate.amount, bridgedAmount: deposit.amount,
            ...tokenField('fromToken', context.token(sourceChainId, deposit.token)), ...tokenField('toToken', context.token(deposit.destinationChainId, estimate.token)),
          },
        ],
      }
    : leg.sending;
  if (leg.unconfirmed !== undefined) {
    return done({ status: 'PENDING', substatus: 'WAIT_SOURCE_CONFIRMATIONS', ...common, sending, receiving: waiting, substatusMessage: leg.unconfirmed });
  }
  if (!context.chain(sourceChainId)?.hasBridgeEndpoint) return done(bridgeNotAvailable(sourceChainId, { ...common, sending, receiving: waiting }));
  // a refund happens on the source chain, also when the destination chain is out of reach
  if (leg.refund === undefined) return { need: leg.refundNeed };
  if (leg.refund) {
    return done({ status: 'DONE', substatus: 'REFUNDED', ...common, sending: leg.sending, substatusMessage: leg.refund.message, receiving: leg.refund.receiving });
  }
  const destination = context.chain(deposit.destinationChainId);
  if (!destination) {
    return done({
      status: 'PENDING', substatus: 'CHAIN_NOT_AVAILABLE', ...common, sending, receiving: waiting,
      substatusMessage: `The destination chain ${deposit.destinationChainId} is not connected to this instance; the receiving transaction cannot be read.`,
    });
  }
  if (!destination.hasBridgeEndpoint) return done(bridgeNotAvailable(destination.chainId, { ...common, sending, receiving: waiting }));
  if (leg.release === undefined) {
    return {
      need: {
        kind: 'release', chainId: destination.chainId, fromChainId: sourceChainId,
        ...(leg.depositId !== undefined ? { depositId: leg.depositId } : {}), transferId: deposit.transactionId,
      },
    };
  }
  if (leg.release === null) {
    return done({
      status: 'PENDING', substatus: 'WAIT_DESTINATION_TRANSACTION', ...common, sending, receiving: waiting,
      substatusMessage: `The bridge has the funds; waiting for the receiving transaction on chain ${deposit.destinationChainId}.`,
    });
  }
  const received = receiving(context, destination.chainId, leg.release, deposit, sourceChainId);
  return done({
    status: 'DONE', substatus: received.partial ? 'PARTIAL' : 'COMPLETED', ...common,
    substatusMessage: received.partial
      ? 'The destination call failed: the bridged token was paid to the receiver instead of the requested token.'
      : 'The transfer is complete.',
    sending: { ...leg.sending, includedSteps: [...sourceSteps, received.bridgeStep] },
    receiving: received.transaction,
  });
}

function bridgeNotAvailable(chainId: number, parts: Omit<TransferStatus, 'status'>): TransferStatus {
  return {
    status: 'PENDING', substatus: 'BRIDGE_NOT_AVAILABLE', ...parts,
    substatusMessage: `No bridge endpoint is configured on chain ${chainId}; the bridge's side of the transfer cannot be read.`,
  };
}

/** The receiving side of a transfer from its release on the destination chain. */
function receiving(context: StatusContext, destinationId: number, released: Settled<ReleaseEvent>, deposit: DepositEvent, sourceChainId: number) {
  const { event: release, settlement } = released;
  const bridgeStep: IncludedStep = {
    tool: deposit.bridge, fromAmount: deposit.amount, toAmount: release.amount, bridgedAmount: deposit.amount,
    ...tokenField('fromToken', context.token(sourceChainId, deposit.token)), ...tokenField('toToken', context.token(destinationId, release.token)),
  };
  let final = { token: release.token, amount: release.amount };
  const steps: IncludedStep[] = [];
  if (release.destinationCall && release.destinationCallSucceeded && settlement.completed) {
    final = settlement.completed;
    if (final.token.toLowerCase() !== release.token.toLowerCase()) {
      steps.push({
        tool: swapTool(context, destinationId, settlement.destinationSwapTargets) ?? 'router', fromAmount: release.amount, toAmount: final.amount,
        ...tokenField('fromToken', context.token(destinationId, release.token)), ...tokenField('toToken', context.token(destinationId, final.token)),
      });
    }
  }
  const transactionSide: TransferTransaction = {
    ...(settlement.cost ? transaction(context, destinationId, released.txHash, released.blockNumber, settlement.cost) : { chainId: destinationId, txHash: released.txHash }),
    ...amountOf(context, destinationId, final),
    includedSteps: steps,
  };
  return { transaction: transactionSide, bridgeStep, partial: release.destinationCall && !release.destinationCallSucceeded };
}

// ------------------------------------------------------------------------------------------ helpers

export function done(status: TransferStatus): TransferStep {
  return { status };
}

export function invalid(message: string): TransferStatus {
  return { status: 'INVALID', substatusMessage: message };
}

export function transaction(context: StatusContext, chainId: number, txHash: string, block: number, cost: TransactionCost): TransferTransaction {
  const native = context.nativeToken(chainId);
  return {
    chainId, txHash, block,
    gasPrice: cost.gasPrice, gasUsed: cost.gasUsed, gasAmount: cost.fee ?? cost.gasPrice * cost.gasUsed, value: cost.value,
    ...(native ? { gasToken: native } : {}),
    ...(cost.timestamp !== undefined ? { timestamp: cost.timestamp } : {}),
  };
}

export function amountOf(context: StatusContext, chainId: number, sent: { token: string; amount: bigint } | undefined): Partial<TransferTransaction> {
  if (!sent) return {};
  const token = context.token(chainId, sent.token);
  return { amount: sent.amount, ...(token ? { token } : { tokenAddress: sent.token }) };
}

function swapTool(context: StatusContext, chainId: number, targets: readonly string[]): string | undefined {
  for (const target of targets) {
    const tool = context.exchangeOf(chainId, target);
    if (tool) return tool;
  }
  return undefined;
}

export function tokenField<K extends string>(key: K, token: Token | undefined): { [P in K]?: Token } {
  return (token ? { [key]: token } : {}) as { [P in K]?: Token };
}

/** A fee's fraction of the sent amount is shown with this many decimals (truncated). */
const FRACTION_DECIMALS = 6;
const FRACTION_SCALE = 10n ** BigInt(FRACTION_DECIMALS);

function withFractions(fees: CollectedFee[], sent: bigint): CollectedFee[] {
  if (sent === 0n) return fees;
  // display only: the share of the sent amount
  return fees.map((f) => ({ ...f, fraction: Number(((f.integratorFee + f.serviceFee) * FRACTION_SCALE) / sent) / Number(FRACTION_SCALE) }));
}
