/**
 * What the ledger keeps and answers with: the outcome of an execution (logs, inner instructions, return data, fee,
 * balances and token balances before and after), a landed transaction, a block; and what send and simulate take and
 * give.
 */
import type { EncodedAccount } from '@solana/kit';
import type { TokenBalance } from './tokens';
import type { DecodedTransaction, ResolvedKeys } from './transaction';
import type { TransactionErrorJson } from './transactionErrors';

export interface CompiledInnerInstruction {
  readonly programIdIndex: number;
  readonly accounts: readonly number[];
  readonly data: Uint8Array;
  readonly stackHeight: number;
}

export interface InnerInstructions {
  readonly index: number;
  readonly instructions: readonly CompiledInnerInstruction[];
}

export interface ExecutionOutcome {
  readonly err: TransactionErrorJson | null;
  readonly logs: readonly string[];
  readonly unitsConsumed: bigint;
  readonly innerInstructions: readonly InnerInstructions[];
  readonly returnData: { readonly programId: string; readonly data: Uint8Array } | null;
  readonly fee: bigint;
  readonly preBalances: readonly bigint[];
  readonly postBalances: readonly bigint[];
  readonly preTokenBalances: readonly TokenBalance[];
  readonly postTokenBalances: readonly TokenBalance[];
  /** Accounts after execution (simulation: what LiteSVM reports; landed: read back), by address. */
  readonly postAccounts: ReadonlyMap<string, EncodedAccount | null>;
}

export interface LandedTransaction extends ExecutionOutcome {
  readonly decoded: DecodedTransaction;
  readonly keys: ResolvedKeys;
  readonly slot: bigint;
  readonly blockTime: number;
  /** Micro-lamports per compute unit the transaction asked for (0 without SetComputeUnitPrice). */
  readonly computeUnitPrice: bigint;
  /** "[len] text" of each memo instruction joined with "; " (getSignaturesForAddress's memo), or null. */
  readonly memo: string | null;
}

export interface Block {
  readonly slot: bigint;
  readonly parentSlot: bigint;
  readonly blockHeight: bigint;
  readonly blockhash: string;
  readonly previousBlockhash: string;
  readonly blockTime: number;
  readonly transactions: readonly LandedTransaction[];
}

export type SendOutcome =
  | { readonly landed: true; readonly transaction: LandedTransaction }
  | { readonly landed: false; readonly err: TransactionErrorJson; readonly logs: readonly string[] };

export interface SimulateOptions {
  readonly sigVerify?: boolean;
  /** Skip the blockhash check (simulateTransaction's replaceRecentBlockhash: the latest blockhash stands in). */
  readonly replaceRecentBlockhash?: boolean;
}
