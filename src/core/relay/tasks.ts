/**
 * A relay task: one signed step the service's relayer sends for its user (the gasless flow). Tasks are kept in the
 * database (src/persistence/relayTasks.ts implements RelayTaskStore), so that a restart loses none and sends none
 * twice, and so that several instances sharing one database and one relayer wallet neither send a task twice nor
 * give two transactions one nonce.
 *
 * A task's life: `queued` (accepted: its signature, step and fee checked) → `sent` (a transaction with the relayer's
 * nonce is out; it may be replaced with higher fees under the same nonce while it is not mined, each hash kept) →
 * `mined` (a receipt: success or revert) or `failed` (never sent: the relayer's balance floor, a deadline that passed
 * before it could be sent, an error the node gave).
 */

export type RelayTaskState = 'queued' | 'sent' | 'mined' | 'failed';

export interface NewRelayTask {
  /** 0x and 64 hex digits: what the client follows (GET /v1/relayer/status/{taskId}). */
  readonly taskId: string;
  readonly chainId: number;
  /** The signer: the step's fromAddress (EIP-55). */
  readonly owner: string;
  /** Permit2's nonce of the signature: (chainId, owner, permitNonce) is unique, so one signature makes one task. */
  readonly permitNonce: bigint;
  /** The permit's deadline (unix seconds): a task not sent by then fails. */
  readonly deadline: bigint;
  /** The transaction to send: the Permit2 proxy and its call (relayCall.ts). */
  readonly to: string;
  readonly data: string;
  /** The gas limit the relayer gives it. */
  readonly gasLimit: bigint;
  /** The relayer's fee the user signed for, in fromToken's units, and the integrator it is booked under. */
  readonly feeToken: string;
  readonly feeAmount: bigint;
  readonly integrator?: string;
  /** The step as relayed (for history and the explorer page). */
  readonly step: unknown;
}

/** One transaction sent for a task (a replacement is another with the same nonce). */
export interface RelayAttempt {
  readonly txHash: string;
  readonly maxFeePerGas: bigint;
  readonly maxPriorityFeePerGas: bigint;
  readonly sentAt: Date;
}

export interface RelayTask extends NewRelayTask {
  readonly state: RelayTaskState;
  /** The relayer's account and the nonce its transaction uses (set when first sent). */
  readonly relayer?: string;
  readonly relayerNonce?: bigint;
  /** Every transaction sent for it, the last one first. */
  readonly attempts: readonly RelayAttempt[];
  /** The mined transaction and whether it succeeded. */
  readonly minedTxHash?: string;
  readonly succeeded?: boolean;
  /** What the mined transaction cost the relayer. */
  readonly gas?: RelayGas;
  /** Why it failed (a `failed` task), or the last error seen while sending. */
  readonly error?: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** What a mined relay transaction cost: its gas used and that times its effective gas price (wei). */
export interface RelayGas {
  readonly used: bigint;
  readonly costWei: bigint;
}

/** The relayer's account of one integrator on one chain: the fees its tasks carried, the gas they cost. */
export interface RelayCosts {
  /** Absent: tasks whose step named no integrator. */
  readonly integrator?: string;
  readonly chainId: number;
  readonly feeToken: string;
  readonly tasks: number;
  /** The fees the mined tasks carried, in feeToken's units. */
  readonly fees: bigint;
  /** What their transactions cost the relayer, in the chain's native wei. */
  readonly gasCostWei: bigint;
}

export type CreateResult = { readonly created: true; readonly task: RelayTask } | { readonly created: false; readonly existing: RelayTask };

export interface RelayTaskStore {
  /** Records a new queued task; a task for the same (chainId, owner, permitNonce) already there is not replaced. */
  create(task: NewRelayTask, now: Date): Promise<CreateResult>;
  get(taskId: string): Promise<RelayTask | undefined>;
  /**
   * Claims up to `limit` tasks of `chainId` that need the relayer — queued ones, and sent ones whose last attempt is
   * older than `recheckAfterMs` (to look for their receipt, or replace them) — for `leaseMs`: another instance claims
   * them only when the lease ran out (its holder died). Oldest first.
   */
  claim(chainId: number, instance: string, now: Date, leaseMs: number, recheckAfterMs: number, limit: number): Promise<RelayTask[]>;
  /**
   * The next nonce of the relayer's account on the chain, shared by every instance: the larger of the one recorded
   * and `chainNonce` (the node's pending count), then counted up, in one atomic step.
   */
  allocateNonce(chainId: number, relayer: string, chainNonce: bigint): Promise<bigint>;
  /**
   * The nonces from `from` up to (not including) `to` that the relayer's sent tasks on the chain hold (sent, not yet
   * mined or failed): those of their transactions, which a replacement keeps.
   */
  sentNonces(chainId: number, relayer: string, from: bigint, to: bigint): Promise<bigint[]>;
  /** Records a transaction sent for a claimed task (its first or a replacement: same nonce, higher fees). */
  recordAttempt(taskId: string, relayer: string, relayerNonce: bigint, attempt: RelayAttempt, now: Date): Promise<void>;
  /** The task's transaction was mined (any of its attempts), at the cost `gas` when the receipt told it. */
  markMined(taskId: string, txHash: string, succeeded: boolean, now: Date, gas?: RelayGas): Promise<void>;
  /** The mined tasks' fees and gas, per integrator, chain and fee token. */
  costs(): Promise<RelayCosts[]>;
  markFailed(taskId: string, error: string, now: Date): Promise<void>;
  /** Gives a claimed task back before its lease ends (the instance stops). */
  release(taskId: string, instance: string): Promise<void>;
}
