import type { SvmPriorityFeeLevel } from '../chains/solana/fees';
/** Domain types of route requests and routes. Amounts are bigint raw units; USD figures are numbers (display/ranking only). */
import type { Chain, Token } from '../entities';
import type { BridgeRoute } from '../liquidity/snapshot';
import type { BridgeFees } from '../math/bridge';
import type { SwapPath } from './swapPath';
import type { ToolSelection } from './tools';

export type Order = 'CHEAPEST' | 'FASTEST';

export interface TimingStrategy {
  readonly minWaitTimeMs: number;
  readonly startingExpectedResults: number;
  readonly reduceEveryMs: number;
}

export interface RouteRequest {
  readonly fromChain: Chain;
  readonly toChain: Chain;
  readonly fromToken: Token;
  readonly toToken: Token;
  /** fromAmount for exact input, toAmount for exact output. */
  readonly amount: bigint;
  readonly mode: 'exactIn' | 'exactOut';
  readonly fromAddress?: string;
  readonly toAddress?: string;
  readonly order: Order;
  /** Fraction 0..1; absent: 0.001 between stablecoins, 0.005 otherwise. */
  readonly slippage?: number;
  /** Integrator fee fraction [0, 1). */
  readonly fee?: number;
  readonly integrator?: string;
  readonly referrer?: string;
  readonly bridges: ToolSelection;
  readonly exchanges: ToolSelection;
  readonly allowDestinationCall: boolean;
  /** Offer routes needing a second transaction on the destination chain. */
  readonly allowSwitchChain: boolean;
  readonly maxPriceImpact: number;
  /** Part of fromAmount converted to native gas on the destination chain. */
  readonly fromAmountForGas?: bigint;
  /** Route search time budget from the timing strategies. */
  readonly timing?: TimingStrategy;
  readonly maxRoutes: number;
  /** Pool addresses (lower case, sorted, no repeats) that no route may use; absent when none are denied. */
  readonly deniedPools?: readonly string[];
  /**
   * Gas of contract calls that run after the route's swaps, in the same call (POST /v1/quote/contractCalls):
   * across chains it joins the destination call's gas that the bridge's relayer charges in the bridged token
   * (like a destination swap's), on one chain it joins the transaction's gas. Absent: no calls.
   */
  readonly contractCallsGas?: bigint;
  /**
   * Routes sent from Solana: the priority fee level of the deposit transaction (its compute unit price, and so its
   * fee); absent on other chains, so that it never splits their cached searches.
   */
  readonly svmPriorityFeeLevel?: SvmPriorityFeeLevel;
  /**
   * A gasless (relayed) route: the relayer's fee in fromToken's smallest units, taken from the sent amount after the
   * integrator's fee and collected in the same fee collection call as the service's fee (src/core/relay/fee.ts);
   * absent: the user sends the transaction.
   */
  readonly relayFee?: bigint;
}

/**
 * The shape of a route before it is priced: source swap paths (one, or a split), at most one bridge, a
 * destination swap (inside the bridge's destination call, or a second transaction after a chain switch).
 */
export interface RoutePlan {
  /** Parallel source paths with their share of the swapped amount (ppm; they add up to 1e6). Empty: no source swap. */
  readonly sources: readonly { readonly path: SwapPath; readonly sharePpm: bigint }[];
  readonly bridge?: BridgeRoute;
  readonly destination?: SwapPath;
  /** The destination swap is a second transaction sent by the user after switching chain. */
  readonly destinationSeparate: boolean;
}

/** The amounts of a plan and the figures it is ranked by, without building its steps (cheap). */
export interface PricedAmounts extends RouteValues {
  readonly plan: RoutePlan;
  readonly fromAmount: bigint;
  readonly feePpm: bigint;
  readonly integratorFee: bigint;
  /** The relayer's fee (request.relayFee, 0 when absent), collected with the integrator's. */
  readonly relayFee: bigint;
  /** What is left to swap or bridge after both fees. */
  readonly rest: bigint;
  readonly slippage: number;
  readonly slippagePpm: bigint;
  readonly sources: readonly SwapPath[];
  readonly bridged: bigint;
  readonly arrived: bigint;
  readonly bridgeFees?: BridgeFees;
  readonly destination?: SwapPath;
  readonly destinationCallFee: bigint;
  readonly toAmount: bigint;
  readonly sourceGasUnits: bigint;
  /** CHEAPEST ranks by this: output in USD after gas on all chains and fees paid on top. */
  readonly netValueUSD: number;
  /** Identifies the route shape (pools and bridge), for removing duplicates. */
  readonly key: string;
}

export interface FeeCost {
  readonly name: string;
  readonly description: string;
  /** Fraction of the amount it is taken from, as a decimal string. */
  readonly percentage: string;
  readonly token: Token;
  readonly amount: bigint;
  readonly amountUSD: number;
  /** true: already taken out of the amounts; false: paid on top (native value). */
  readonly included: boolean;
}

export interface GasCost {
  readonly type: 'SEND';
  readonly chainId: number;
  readonly price: bigint;
  readonly estimate: bigint;
  readonly limit: bigint;
  readonly amount: bigint;
  readonly amountUSD: number;
  readonly token: Token;
}

/** One included step of a route: a swap hop, a bridge transfer, or the integrator fee collection. */
export interface PlannedStep {
  readonly type: 'swap' | 'cross' | 'protocol';
  readonly tool: string;
  readonly fromChainId: number;
  readonly toChainId: number;
  readonly fromToken: Token;
  readonly toToken: Token;
  readonly fromAmount: bigint;
  readonly toAmount: bigint;
  readonly durationSeconds: number;
  readonly feeCosts: readonly FeeCost[];
  /** Pool used by a swap hop (absent for wraps). */
  readonly poolId?: string;
  readonly poolAddress?: string;
  readonly poolKind?: string;
  readonly bridge?: BridgeRoute;
  /** A fee collection step: the part of fromAmount − toAmount collected as the service's fee (the relayer's fee). */
  readonly serviceFee?: bigint;
}

export interface BridgeLeg {
  readonly route: BridgeRoute;
  readonly amountIn: bigint;
  readonly amountOut: bigint;
  readonly fees: BridgeFees;
}

/** One transaction of a route (a route with containsSwitchChain has two). */
export interface RouteTransaction {
  readonly chainId: number;
  readonly fromToken: Token;
  readonly toToken: Token;
  readonly fromAmount: bigint;
  readonly toAmount: bigint;
  readonly toAmountMin: bigint;
  readonly tool: string;
  readonly type: 'swap' | 'cross';
  readonly steps: readonly PlannedStep[];
  readonly gasCost: GasCost;
  readonly feeCosts: readonly FeeCost[];
  readonly durationSeconds: number;
  readonly toChainId: number;
  readonly fromAmountUSD: number;
  readonly toAmountUSD: number;
}

/** A route's values in USD (floats: display and ranking only) and its duration. */
export interface RouteValues {
  readonly fromAmountUSD: number;
  readonly toAmountUSD: number;
  readonly gasCostUSD: number;
  /** Fees paid on top (not included), in USD: part of the CHEAPEST ranking. */
  readonly extraFeesUSD: number;
  /** The fraction of the value in that does not arrive; undefined when the from or to token has no USD price. */
  readonly priceImpact: number | undefined;
  readonly durationSeconds: number;
}

export interface Route extends RouteValues {
  readonly id: string;
  readonly request: RouteRequest;
  readonly fromAmount: bigint;
  readonly toAmount: bigint;
  readonly toAmountMin: bigint;
  readonly slippage: number;
  readonly containsSwitchChain: boolean;
  readonly transactions: readonly RouteTransaction[];
  readonly source?: SwapPath;
  readonly bridge?: BridgeLeg;
  readonly destination?: SwapPath;
  readonly integratorFee: bigint;
  readonly relayFee: bigint;
  readonly gasRefuel?: { readonly fromAmount: bigint; readonly toAmount: bigint; readonly token: Token };
  /** Whether every tool of the route is a preferred one (ranks first when preferences are given). */
  readonly preferred: boolean;
  readonly tags: readonly ('CHEAPEST' | 'FASTEST' | 'RECOMMENDED')[];
  /** The path written as in no-route reasons, e.g. 8453:USDC~8453:ETH-across-137:WETH. */
  readonly overallPath: string;
}

export type ToolErrorCode =
  | 'NO_POSSIBLE_ROUTE'
  | 'INSUFFICIENT_LIQUIDITY'
  | 'AMOUNT_TOO_LOW'
  | 'AMOUNT_TOO_HIGH'
  | 'FEES_HIGHER_THAN_AMOUNT'
  | 'TOOL_TIMEOUT';

export interface ToolError {
  readonly errorType: 'NO_QUOTE';
  readonly code: ToolErrorCode;
  readonly tool: string;
  readonly message: string;
  readonly action: { readonly fromChainId: number; readonly toChainId: number; readonly fromToken: Token; readonly toToken: Token; readonly fromAmount: bigint };
}

export interface UnavailableRoutes {
  readonly filteredOut: { overallPath: string; reason: string }[];
  readonly failed: { overallPath: string; subpaths: Record<string, ToolError[]> }[];
}

export interface RouteSearchResult {
  readonly routes: readonly Route[];
  readonly unavailable: UnavailableRoutes;
}
