/** Domain model of transfer tracking (GET /v1/status, GET /v1/gas/status). Amounts are bigint raw units. */
import type { Token } from '../entities';

export type TransferState = 'NOT_FOUND' | 'INVALID' | 'PENDING' | 'DONE' | 'FAILED';

/** DONE, FAILED and INVALID answers never change (they are cached, indexed as final, answered from the index). */
export function isFinal(state: TransferState): boolean {
  return state === 'DONE' || state === 'FAILED' || state === 'INVALID';
}

export type Substatus =
  | 'WAIT_SOURCE_CONFIRMATIONS' | 'WAIT_DESTINATION_TRANSACTION' | 'BRIDGE_NOT_AVAILABLE' | 'CHAIN_NOT_AVAILABLE'
  | 'REFUND_IN_PROGRESS' | 'UNKNOWN_ERROR'
  | 'COMPLETED' | 'PARTIAL' | 'REFUNDED'
  | 'INSUFFICIENT_ALLOWANCE' | 'INSUFFICIENT_BALANCE' | 'OUT_OF_GAS' | 'EXPIRED' | 'SLIPPAGE_EXCEEDED' | 'UNKNOWN_FAILED_ERROR';

/** One part of a transfer as it happened (amounts read from the chain's events). */
export interface IncludedStep {
  readonly tool: string;
  readonly fromToken?: Token;
  readonly fromAmount: bigint;
  readonly toToken?: Token;
  readonly toAmount: bigint;
  /** Bridge steps: the amount handed to the bridge. */
  readonly bridgedAmount?: bigint;
}

/** A transaction of a transfer; only chainId is known while it has not happened. */
export interface TransferTransaction {
  readonly chainId: number;
  readonly txHash?: string;
  readonly block?: number;
  readonly amount?: bigint;
  /** Undefined when the token is not in the catalog (the address is then in tokenAddress). */
  readonly token?: Token;
  readonly tokenAddress?: string;
  readonly gasPrice?: bigint;
  readonly gasUsed?: bigint;
  readonly gasToken?: Token;
  readonly gasAmount?: bigint;
  readonly value?: bigint;
  /** Block time, unix seconds. */
  readonly timestamp?: number;
  readonly includedSteps?: readonly IncludedStep[];
}

/** A fee collected by the fee collector in the sending transaction. */
export interface CollectedFee {
  readonly token?: Token;
  readonly tokenAddress: string;
  readonly integratorFee: bigint;
  readonly serviceFee: bigint;
  /** Share of the sent amount (display only). */
  readonly fraction: number;
}

export interface TransferStatus {
  readonly status: TransferState;
  readonly substatus?: Substatus;
  readonly substatusMessage?: string;
  readonly transactionId?: string;
  readonly tool?: string;
  readonly fromAddress?: string;
  readonly toAddress?: string;
  readonly integrator?: string;
  readonly sending?: TransferTransaction;
  readonly receiving?: TransferTransaction;
  readonly fees?: readonly CollectedFee[];
}

export interface GasRefillTransaction {
  readonly chainId: number;
  readonly txHash: string;
  readonly block?: number;
  readonly amount?: bigint;
  readonly token?: Token;
}

export interface GasRefillStatus {
  readonly status: 'NOT_FOUND' | 'PENDING' | 'DONE';
  /** Why (not part of the contract's GasStatus; logged and used by tests). */
  readonly message?: string;
  readonly sending?: GasRefillTransaction;
  readonly receiving?: GasRefillTransaction;
}

export interface StatusQuery {
  /** Sending or receiving hash, transfer id (0x + 64 hex) or step id (UUID). */
  readonly ref: string;
  readonly bridge?: string;
  readonly fromChainId?: number;
  readonly toChainId?: number;
}
