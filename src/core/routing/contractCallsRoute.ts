/**
 * The route of a transfer followed by contract calls (POST /v1/quote/contractCalls): the pure rules of how much
 * to search for, how the calls are costed, the route when nothing needs swapping, and the quote's id. What a
 * quote does step by step, and the checks of the request, are the use case's (src/usecases/contractCalls.ts).
 *
 * What the route does: move fromToken on fromChain to toToken on toChain (swaps, at most one bridge, swaps),
 * then, in the same router call (the bridge's destination call across chains; the user's transaction on one
 * chain), run each contract call in order, each with its own fixed amount of the delivered toToken; what
 * arrives above the calls' amounts goes to fromAddress. The router's side is described in
 * src/core/transactions/abi.ts.
 *
 * Amounts:
 * - exact output (`toAmount`): the route guarantees at least toAmount of toToken at the router: the search asks
 *   for the smallest amount whose slippage floor is still toAmount, so estimate.toAmountMin ≥ toAmount.
 * - exact input (`fromAmount`): the route sends exactly fromAmount; of the routes found, the best one whose
 *   toAmountMin covers the calls' amounts is taken.
 *
 * Gas: each call runs with at most its gas limit, plus CONTRACT_CALL_OVERHEAD_GAS of the router's own work
 * around it. Across chains that gas joins the destination call's gas, which the bridge's relayer charges in the
 * bridged token (a "Destination call gas" fee, included); on one chain it joins the transaction's gas. The
 * calls' gas must fit in one transaction (MAX_CONTRACT_CALLS_GAS, then the route's own: fitsInOneTransaction).
 *
 * Same chain and same token: no swap at all, the calls take the sent token (the fee collection still runs
 * first when there is an integrator fee); nothing can slip, so the slippage is 0 and toAmountMin = toAmount.
 */
import { createHash } from 'node:crypto';
import type { Token } from '../entities';
import { amountBeforeFee, fractionToPpm, grossUp } from '../math/amounts';
import { divCeil, PPM } from '../math/rational';
import { defaultSlippage, destinationCallGas, evaluatePlan, routeId } from './evaluate';
import type { RoutingGraph } from './graph';
import { GAS_LIMIT_MARGIN_PPM, rescale, scaledPrice } from './pricing';
import type { Route, RouteRequest, RoutePlan, RouteSearchResult } from './route';

/**
 * The most gas one transaction may use: 2^24, EIP-7825's per-transaction cap (enforced on Ethereum since
 * Fusaka), applied to every EVM chain as the bound a destination call or a transaction must fit in.
 */
export const TRANSACTION_GAS_CAP = 16_777_216n;
/** The router's own gas around one call: handing the amount to the executor, approval and its reset, the fallback transfer, the event. */
export const CONTRACT_CALL_OVERHEAD_GAS = 40_000n;
/** Room kept for the router's own work and up to three swap hops on each side (gas units). */
export const ROUTE_GAS_HEADROOM = 1_000_000n;
/**
 * The most the calls' gas (limits plus overhead) may add up to: what fits in TRANSACTION_GAS_CAP once the
 * suggested gas limit's 25 % margin is added, less ROUTE_GAS_HEADROOM (12,421,772).
 */
export const MAX_CONTRACT_CALLS_GAS = (TRANSACTION_GAS_CAP * PPM) / GAS_LIMIT_MARGIN_PPM - ROUTE_GAS_HEADROOM;

export type ContractCallsMode = 'exactIn' | 'exactOut';

/** A checked contract call. Addresses are checksummed. */
export interface ContractCall {
  readonly index: number;
  readonly target: string;
  /** The spender approved for `amount` (toApprovalAddress, default the target). */
  readonly approveTo: string;
  /** The token the call takes: the route's toToken. */
  readonly token: Token;
  readonly amount: bigint;
  readonly callData: string;
  readonly gasLimit: bigint;
  /** Receives `amount` when the call reverts, and what a successful call leaves of it (default fromAddress). */
  readonly fallbackReceiver: string;
  /** The token the call outputs, when the request names one. */
  readonly outputToken?: Token;
}

export interface ContractCallsQuote {
  /** The route to the router holding toToken, with the calls' gas priced in; its id identifies the calls too. */
  readonly route: Route;
  readonly calls: readonly ContractCall[];
  /** Gets what arrives above the calls' amounts: fromAddress. */
  readonly receiver: string;
  readonly mode: ContractCallsMode;
  /** What the calls take in all. */
  readonly callsAmount: bigint;
  /** What the calls' gas adds up to, overhead included (request.contractCallsGas). */
  readonly callsGas: bigint;
}

/** The gas the calls add: their gas limits plus the router's overhead around each. */
export function contractCallsGas(gasLimits: readonly bigint[]): bigint {
  return gasLimits.reduce((sum, g) => sum + g + CONTRACT_CALL_OVERHEAD_GAS, 0n);
}

/** The index of the first amount at which the running sum exceeds `available`; undefined when the sum fits. */
export function firstOverrun(amounts: readonly bigint[], available: bigint): number | undefined {
  let sum = 0n;
  for (const [k, amount] of amounts.entries()) {
    sum += amount;
    if (sum > available) return k;
  }
  return undefined;
}

/** Whether the request moves a token to itself on one chain: nothing to swap or bridge, the calls take what is sent. */
export function isSameToken(request: RouteRequest): boolean {
  return request.fromChain.id === request.toChain.id && request.fromToken.address.toLowerCase() === request.toToken.address.toLowerCase();
}

/**
 * The route search of a contract-calls quote, from the transfer's request (`amount`: toAmount for exact output,
 * fromAmount for exact input): the calls' gas priced in, no second transaction, up to 5 routes for exact input
 * (the best whose toAmountMin covers the calls is taken) and 1 for exact output, whose amount is the smallest
 * that the slippage floor leaves at toAmount. Same token: no slippage.
 */
export function contractCallsSearch(transfer: RouteRequest, mode: ContractCallsMode, amount: bigint, callsGas: bigint): RouteRequest {
  let request: RouteRequest = { ...transfer, contractCallsGas: callsGas, allowDestinationCall: true, allowSwitchChain: false, maxRoutes: mode === 'exactIn' ? 5 : 1 };
  // without a swap or a bridge nothing can slip: the calls get exactly what is sent (after the fee)
  if (isSameToken(request)) request = { ...request, slippage: 0 };
  const slippagePpm = fractionToPpm(request.slippage ?? defaultSlippage(request), 'up');
  if (mode === 'exactOut') request = { ...request, amount: grossUp(amount, slippagePpm) };
  return request;
}

/** Same chain and same token: no swap, the calls take the sent token (after the integrator fee, if any). */
export function sameTokenRoutes(graph: RoutingGraph, request: RouteRequest): RouteSearchResult {
  const feePpm = fractionToPpm(request.fee ?? 0, 'up');
  const fromAmount = request.mode === 'exactOut' ? amountBeforeFee(request.amount, feePpm) : request.amount;
  const plan: RoutePlan = { sources: [], destinationSeparate: false };
  const evaluation = evaluatePlan(graph, request, plan, fromAmount, new Map());
  const overallPath = `${request.fromChain.id}:${request.fromToken.symbol}`;
  if (!evaluation.ok) {
    const error = {
      errorType: 'NO_QUOTE' as const, code: evaluation.code, tool: 'custom', message: evaluation.message,
      action: { fromChainId: request.fromChain.id, toChainId: request.toChain.id, fromToken: request.fromToken, toToken: request.toToken, fromAmount },
    };
    return { routes: [], unavailable: { filteredOut: [], failed: [{ overallPath, subpaths: { [overallPath]: [error] } }] } };
  }
  const route = evaluation.route;
  const transactions = route.transactions.map((tx) => ({ ...tx, tool: 'custom' }));
  return { routes: [{ ...route, transactions, id: routeId(request, route.overallPath, route.fromAmount), tags: ['RECOMMENDED', 'CHEAPEST', 'FASTEST'] }], unavailable: { filteredOut: [], failed: [] } };
}

/**
 * The gas of what runs the calls with the route's swaps, which must fit in one transaction: across chains the
 * bridge's destination call, on one chain the user's transaction.
 */
export function callsRunnerGas(route: Route, callsGas: bigint): bigint {
  return route.bridge
    ? destinationCallGas({ sources: [], destinationSeparate: false, destination: route.destination }, callsGas)
    : route.transactions[0].gasCost.estimate;
}

/** Whether `gas` fits in one transaction once the suggested gas limit's 25 % margin is added. */
export function fitsInOneTransaction(gas: bigint): boolean {
  return divCeil(gas * GAS_LIMIT_MARGIN_PPM, PPM) <= TRANSACTION_GAS_CAP;
}

/**
 * An estimate of a call's output in its output token: its input valued at reference prices (rounded down);
 * the input itself when the call names no output token, or a price is missing. The router does not check
 * a call's output: a custom step's toAmountMin is 0.
 */
export function estimateCallOutput(amount: bigint, token: Token, outputToken: Token | undefined): bigint {
  if (!outputToken) return amount;
  const pIn = scaledPrice(token.priceUSD);
  const pOut = scaledPrice(outputToken.priceUSD);
  if (pIn === 0n || pOut === 0n) return rescale(amount, token.decimals, outputToken.decimals);
  return (amount * pIn * 10n ** BigInt(outputToken.decimals)) / (pOut * 10n ** BigInt(token.decimals));
}

/** A deterministic step id (UUID form) for the route and its calls: other calls, another id (and transactionId). */
export function contractCallsRouteId(routeIdOfPath: string, calls: readonly ContractCall[]): string {
  const hash = createHash('sha256').update(routeIdOfPath);
  for (const c of calls) hash.update(`|${c.target}|${c.approveTo}|${c.amount}|${c.callData}|${c.gasLimit}|${c.fallbackReceiver}|${c.outputToken?.address ?? ''}`);
  const hex = hash.digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
