/**
 * What building a route's transactions takes (TransactionContext: the graph, the routers, the integrators' fee
 * wallets, a Solana cluster's last state) and what it gives on EVM chains (EvmTransactionRequest).
 */
import type { RouterDeployments } from '../catalog/routers';
import type { RoutingGraph } from '../routing/graph';

export interface TransactionContext {
  readonly graph: RoutingGraph;
  readonly routers: RouterDeployments;
  /**
   * The address the fee collector books an integrator's fees under (the `integrator` argument of
   * collectTokenFees / collectNativeFees), e.g. its registered fee wallet; default integratorAccount(id).
   */
  readonly integratorAddress?: (integrator: string) => string | undefined;
  /**
   * Chain mode: what a Solana cluster said last (svmDeposit.ts, SvmClusterState): its recent blockhash and
   * prioritization fees. Absent (embedded data, or the cluster not read yet): a placeholder blockhash and the
   * levels' fixed prices.
   */
  readonly svmCluster?: (chainId: number) => SvmClusterState | undefined;
}

/** What chain mode last read from a Solana cluster (src/chain/solanaNode.ts). */
export interface SvmClusterState {
  readonly blockhash: string;
  readonly lastValidBlockHeight: bigint;
  /** getRecentPrioritizationFees: micro-lamports per compute unit, per recent slot. */
  readonly recentPrioritizationFees: readonly bigint[];
}

/** An EVM transaction request (domain form: big integers as bigint). */
export interface EvmTransactionRequest {
  readonly kind?: 'evm';
  readonly chainId: number;
  readonly to: string;
  readonly from?: string;
  readonly data: string;
  readonly value: bigint;
  readonly gasLimit: bigint;
  readonly gasPrice: bigint;
}
