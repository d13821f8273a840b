/**
 * What transfer tracking reads from the connected chains, in the terms of the service's contracts (router, fee
 * collector, bridge endpoint): the facts the classification (classify.ts, gasRefill.ts, solana.ts) decides on, and
 * the reads that produce them: TransferReads for the EVM chains (over JSON-RPC by src/chain/transferReads.ts),
 * SolanaTransferReads for a Solana chain, where the bridge is an escrow wallet and its memos
 * (src/core/chains/solana/memo.ts; over Solana JSON-RPC by src/chain/solanaTransferReads.ts).
 *
 * Addresses are as the chain reports them; transfer ids are lower-case hex. A read answers null for "the chain does
 * not know it" and throws when the chain does not answer.
 */

/** A connected chain. */
export interface StatusChain {
  readonly chainId: number;
  /** Blocks a sending transaction needs (its own included) before it counts as confirmed. */
  readonly confirmations: number;
  /** Whether a bridge endpoint is configured there: without one the bridge's side of a transfer cannot be read. */
  readonly hasBridgeEndpoint: boolean;
  /** Solana chains: the commitment a sending transaction needs before it counts as confirmed (instead of blocks). */
  readonly commitment?: SolanaCommitment;
}

/** The router's same-chain completion: LiFiGenericSwapCompleted (a swap) or LiFiSwappedGeneric (a contract call). */
export interface SwapEvent {
  readonly event: 'LiFiGenericSwapCompleted' | 'LiFiSwappedGeneric';
  readonly transactionId: string;
  readonly integrator: string;
  /** LiFiGenericSwapCompleted only. */
  readonly receiver?: string;
  readonly fromToken: string;
  readonly toToken: string;
  readonly fromAmount: bigint;
  readonly toAmount: bigint;
}

/** The router's LiFiTransferCompleted: what the destination side finally paid the receiver. */
export interface CompletionEvent {
  readonly token: string;
  readonly amount: bigint;
}

/** The bridge endpoint's Deposited: the funds handed to the bridge on the source chain. */
export interface DepositEvent {
  readonly depositId: bigint;
  readonly bridge: string;
  readonly transactionId: string;
  readonly token: string;
  readonly amount: bigint;
  readonly destinationChainId: number;
  readonly receiver: string;
  /** The receiver on a non-EVM destination (its bytes, 0x-hex: a Solana public key's 32), when the request has one. */
  readonly nonEvmReceiver?: string;
  readonly hasDestinationCall: boolean;
}

/** The bridge endpoint's Released on the destination chain, for a deposit of `fromChainId`. */
export interface ReleaseEvent {
  readonly fromChainId: number;
  readonly depositId: bigint;
  readonly transactionId: string;
  readonly token: string;
  readonly amount: bigint;
  readonly destinationCall: boolean;
  readonly destinationCallSucceeded: boolean;
}

/** The bridge endpoint's Refunded on the source chain. */
export interface RefundEvent {
  readonly token: string;
  readonly amount: bigint;
  readonly to: string;
}

/** The fee collector's FeesCollected. */
export interface FeeEvent {
  readonly token: string;
  readonly integratorFee: bigint;
  readonly serviceFee: bigint;
}

/** The events of the service's contracts in one transaction, in log order. */
export interface ContractEvents {
  readonly swaps: readonly SwapEvent[];
  /** The first LiFiTransferCompleted. */
  readonly completed?: CompletionEvent;
  readonly deposits: readonly DepositEvent[];
  readonly releases: readonly ReleaseEvent[];
  readonly fees: readonly FeeEvent[];
}

/** What a router call says (its call data decoded); swapTargets only when the data is not a router call. */
export interface RouterCall {
  readonly transactionId?: string;
  readonly bridge?: string;
  readonly integrator?: string;
  readonly hasSourceSwaps?: boolean;
  /** The token and amount the sender hands over. */
  readonly sent?: { readonly token: string; readonly amount: bigint };
  /** The swaps' callTo addresses (exchange routers or pools), in order. */
  readonly swapTargets: readonly string[];
  /** Who the call pays (its receiver; a bridge's on the destination), when it names an EVM address. */
  readonly receiver?: string;
}

/** A mined transaction's receipt. */
export interface Receipt {
  readonly chainId: number;
  readonly hash: string;
  readonly blockNumber: number;
  readonly reverted: boolean;
  readonly gasUsed: bigint;
  /** The price paid per gas, when the chain reports it in the receipt. */
  readonly gasPrice?: bigint;
  readonly events: ContractEvents;
}

/** What a mined transaction cost, and when. */
export interface TransactionCost {
  readonly gasPrice: bigint;
  readonly gasUsed: bigint;
  /**
   * The fee paid, in the native coin's smallest unit, when it is not gasPrice × gasUsed (Solana: the fee in lamports,
   * with gasUsed the compute units consumed and gasPrice the compute unit price in micro-lamports).
   */
  readonly fee?: bigint;
  readonly value: bigint;
  /** Block time, unix seconds (undefined when the block could not be read). */
  readonly timestamp?: number;
}

/** A mined transaction with its receipt, its body and its depth. */
export interface MinedTransaction extends Receipt {
  readonly from: string;
  /** The call as sent (what a replay sends again). */
  readonly to?: string;
  readonly input: string;
  readonly gasLimit: bigint;
  readonly cost: TransactionCost;
  /** Whether it calls the service's router on its chain. */
  readonly callsRouter: boolean;
  readonly call: RouterCall;
  /** Blocks from its own to the chain's head, both included. */
  readonly confirmations: number;
}

/** A transaction known to a chain but not mined yet. */
export interface PendingTransaction {
  readonly from: string;
  readonly value: bigint;
}

/** An event with the transaction that emitted it. */
export interface Emitted<E> {
  readonly txHash: string;
  readonly blockNumber: number;
  readonly event: E;
}

/** The transaction that settles a transfer (a release or a refund). */
export interface Settlement {
  /** Undefined when its receipt or body could not be read. */
  readonly cost?: TransactionCost;
  /** The router's completion in its receipt. */
  readonly completed?: CompletionEvent;
  /** A release that ran a destination call: the swaps' callTo addresses of that call. */
  readonly destinationSwapTargets: readonly string[];
}

/** Why a call reverted, as the chain told it. */
export interface Revert {
  /** The revert data, 0x-hex. */
  readonly data?: string;
  /** A reason string the node decoded. */
  readonly reason?: string;
  /** The node's short description of the failure. */
  readonly message?: string;
}

/** A reverted transaction sent again on the state before its block. */
export type Replay = { readonly reverted: false } | { readonly reverted: true; readonly revert: Revert };

/** The chain reads of transfer tracking. */
export interface TransferReads {
  readonly chains: readonly StatusChain[];
  receipt(chainId: number, hash: string): Promise<Receipt | null>;
  /** The rest of a mined transaction (body, block time, depth); throws when the chain has its receipt but not its body. */
  transaction(receipt: Receipt): Promise<MinedTransaction>;
  pending(chainId: number, hash: string): Promise<PendingTransaction | null>;
  /** The transaction whose router or bridge endpoint event names the transfer id (a recent one). */
  transferTransaction(chainId: number, transferId: string): Promise<string | null>;
  /** The transaction of a deposit of the chain's bridge endpoint (a recent one). */
  depositTransaction(chainId: number, depositId: bigint): Promise<string | null>;
  /** The first refund of a deposit, from the deposit's block on. */
  refund(chainId: number, depositId: bigint, fromBlock: number): Promise<Emitted<RefundEvent> | null>;
  /** The first release on `chainId` of deposit `depositId` of `fromChainId` (a recent one). */
  release(chainId: number, fromChainId: number, depositId: bigint): Promise<Emitted<ReleaseEvent> | null>;
  /**
   * The first release on `chainId` of the transfer `transferId` from `fromChainId` (a recent one): how a deposit of a
   * chain without deposit ids the EVM endpoint knows (Solana's escrow) is found on its destination.
   */
  releaseOfTransfer(chainId: number, fromChainId: number, transferId: string): Promise<Emitted<ReleaseEvent> | null>;
  settlement(chainId: number, hash: string, blockNumber: number): Promise<Settlement>;
  /** Never throws: a call that fails for any reason is a revert. */
  replay(transaction: MinedTransaction): Promise<Replay>;
}

// ------------------------------------------------------------------------------------------------------------ Solana

/** How far a Solana transaction is settled (the node's confirmationStatus). */
export type SolanaCommitment = 'processed' | 'confirmed' | 'finalized';

/**
 * Tokens a Solana transaction moved, one instruction (top-level or inner): an SPL Token Transfer / TransferChecked,
 * or a System Transfer of lamports (`mint` undefined: native SOL, source and destination are the wallets).
 */
export interface SolanaTokenMove {
  /** The SPL mint; undefined for lamports. */
  readonly mint?: string;
  readonly amount: bigint;
  /** The accounts the instruction names (token accounts; for lamports the wallets). */
  readonly source: string;
  readonly destination: string;
  /** The wallets owning them (token balances of the transaction, or the associated account derivation); lamports: the accounts. */
  readonly sourceOwner?: string;
  readonly destinationOwner?: string;
  /** The signer that moved them (SPL: the source's owner or delegate; lamports: the source). */
  readonly authority?: string;
  /** Moved by a program the transaction called (an inner instruction), not by the transaction itself. */
  readonly inner?: true;
}

/** A Solana transaction the node has at `confirmed` or beyond. */
export interface SolanaTransaction {
  readonly chainId: number;
  readonly signature: string;
  readonly slot: number;
  /** Block time, unix seconds. */
  readonly blockTime?: number;
  readonly commitment: SolanaCommitment;
  /** The fee payer (first signer). */
  readonly feePayer: string;
  readonly signers: readonly string[];
  /** Lamports. */
  readonly fee: bigint;
  readonly computeUnitsConsumed?: bigint;
  /** Micro-lamports per compute unit (its SetComputeUnitPrice; 0 without). */
  readonly computeUnitPrice: bigint;
  /** The node's TransactionError when it failed (JSON as the node gives it, e.g. {"InstructionError":[3,{"Custom":1}]}); undefined when it succeeded. */
  readonly error?: unknown;
  readonly logs: readonly string[];
  /** The texts of its Memo program instructions, in order. */
  readonly memos: readonly string[];
  readonly transfers: readonly SolanaTokenMove[];
}

/** A signature the node has seen at `processed` only (not confirmed yet). */
export interface SolanaPendingTransaction {
  readonly slot: number;
  readonly failed: boolean;
}

/** What a memo of the bridge on Solana says the transaction is (memo.ts): the sender's deposit, the escrow's release or refund. */
export type SolanaBridgeMemoKind = 'deposit' | 'release' | 'refund';

/** A transaction of the escrow whose memo names a transfer id (getSignaturesForAddress: signature, slot, memo). */
export interface SolanaEscrowEntry {
  readonly signature: string;
  readonly slot: number;
  readonly kind: SolanaBridgeMemoKind;
  readonly failed: boolean;
}

/** The chain reads of transfer tracking on one Solana chain, whose bridge endpoint is the escrow owned by `escrowOwner`. */
export interface SolanaTransferReads {
  readonly chain: StatusChain;
  /** The wallet (base58) whose associated token accounts (and lamports, for SOL) hold the bridge's escrow. */
  readonly escrowOwner: string;
  /** A transaction at `confirmed` or beyond, or null. */
  transaction(signature: string): Promise<SolanaTransaction | null>;
  /** A signature the node has seen but not confirmed yet, or null. */
  pending(signature: string): Promise<SolanaPendingTransaction | null>;
  /**
   * The escrow's recent transactions whose memo names `transferId`, newest first: the signatures of the escrow owner
   * (releases and refunds are signed by it) and, with `deposits`, of its token accounts too (an SPL deposit touches
   * only the escrow's token account); a bounded scan.
   */
  escrowTransactions(transferId: string, options: { readonly deposits: boolean }): Promise<readonly SolanaEscrowEntry[]>;
}
