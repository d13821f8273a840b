/**
 * Prices a route plan forward from a fromAmount: integrator fee, source swaps (one path or a split),
 * bridge, destination swap (inside the bridge transaction, or as a second transaction after a chain
 * switch), then fees, gas, USD figures, duration and price impact. Exact-input and exact-output
 * searches both end here, so every route's figures come from the same forward computation. The route
 * itself (steps, transactions, fee costs) is built from the priced amounts by assemble.ts.
 */
import { createHash } from 'node:crypto';
import { hasPrice, type Token } from '../entities';
import { fractionToPpm, takeFee } from '../math/amounts';
import { bridgeOut, type BridgeFees } from '../math/bridge';
import { PPM } from '../math/rational';
import type { BridgeRoute } from '../liquidity/snapshot';
import { assembleRoute, describePath } from './assemble';
import type { RoutingGraph } from './graph';
import { FEE_COLLECTION_GAS, FIRST_USE_GAS, ROUTER_BASE_GAS, nativeWeiInToken, rescale, usd } from './pricing';
import { replayPath, type QuoteMemo, type SwapPath } from './swapPath';
import type { PricedAmounts, Route, RouteRequest, RoutePlan, ToolErrorCode } from './route';

/** A plan is what this module prices; its type lives with the other routing types (types.ts). */
export type { RoutePlan } from './route';

/** Gas of the destination call around its swaps (receiver contract, checks, transfer). */
export const DESTINATION_CALL_GAS = 50_000n;

/** Gas units of a plan's destination call: its swaps, the call's own work and the contract calls' gas (request.contractCallsGas). */
export function destinationCallGas(plan: RoutePlan, contractCallsGas: bigint): bigint {
  return (plan.destination?.gasUnits ?? 0n) + DESTINATION_CALL_GAS + contractCallsGas;
}

export type Evaluation =
  | { readonly ok: true; readonly route: Route }
  | { readonly ok: false; readonly code: ToolErrorCode; readonly tool: string; readonly message: string };

export function defaultSlippage(request: RouteRequest): number {
  return isStablecoin(request.fromToken) && isStablecoin(request.toToken) ? 0.001 : 0.005;
}

function isStablecoin(token: Token): boolean {
  return token.tags.includes('stablecoin');
}

export function evaluatePlan(graph: RoutingGraph, request: RouteRequest, plan: RoutePlan, fromAmount: bigint, memo: QuoteMemo): Evaluation {
  const priced = pricePlan(graph, request, plan, fromAmount, memo);
  return priced.ok ? { ok: true, route: assembleRoute(graph, request, priced.amounts) } : priced;
}

export type PricedPlan =
  | { readonly ok: true; readonly amounts: PricedAmounts }
  | { readonly ok: false; readonly code: ToolErrorCode; readonly tool: string; readonly message: string };

/** The request's integrator fee and slippage as the pricing takes them (ppm, rounded up): the same for every plan of a search. */
export interface RequestRates {
  readonly feePpm: bigint;
  readonly slippage: number;
  readonly slippagePpm: bigint;
}

export function requestRates(request: RouteRequest): RequestRates {
  const slippage = request.slippage ?? defaultSlippage(request);
  return { feePpm: fractionToPpm(request.fee ?? 0, 'up'), slippage, slippagePpm: fractionToPpm(slippage, 'up') };
}

export function pricePlan(graph: RoutingGraph, request: RouteRequest, plan: RoutePlan, fromAmount: bigint, memo: QuoteMemo, rates: RequestRates = requestRates(request)): PricedPlan {
  const { fromChain, toChain, fromToken, toToken } = request;
  const { feePpm, slippage, slippagePpm } = rates;
  const { fee: integratorFee, rest: afterIntegratorFee } = takeFee(fromAmount, feePpm);
  const relayFee = request.relayFee ?? 0n;
  if (relayFee >= afterIntegratorFee) return fail('FEES_HIGHER_THAN_AMOUNT', 'relayer', `the relayer's fee (${relayFee} ${fromToken.symbol} units) is not less than the ${afterIntegratorFee} units left to send`);
  const rest = afterIntegratorFee - relayFee;

  // Source swaps.
  const sources: SwapPath[] = [];
  let bridged = rest;
  if (plan.sources.length > 0) {
    bridged = 0n;
    let left = rest;
    for (const [k, { path, sharePpm }] of plan.sources.entries()) {
      const part = k === plan.sources.length - 1 ? left : (rest * sharePpm) / PPM; // rounds down; the last part takes the remainder
      left -= part;
      const priced = replayPath(path, part, memo);
      if (!priced) return fail('INSUFFICIENT_LIQUIDITY', path.legs[0]?.edge.kind === 'pool' ? path.legs[0].edge.pool.exchange : 'swap', `not enough liquidity on ${describePath(graph, path)} for ${part}`);
      sources.push(priced);
      bridged += priced.amountOut;
    }
  }

  // Bridge.
  let arrived = bridged;
  let bridgeFees: BridgeFees | undefined;
  if (plan.bridge) {
    const quote = bridgeOut(bridged, plan.bridge);
    if (!quote.ok) {
      const token = graph.token(plan.bridge.fromChainId, plan.bridge.fromToken);
      return fail(quote.reason, plan.bridge.bridge, bridgeFailureMessage(quote.reason, plan.bridge, bridged, quote.limit, token));
    }
    // The bridge model works in the sending token's units; the same asset may have other decimals on arrival.
    const sent = graph.token(plan.bridge.fromChainId, plan.bridge.fromToken);
    const received = graph.token(plan.bridge.toChainId, plan.bridge.toToken);
    arrived = rescale(quote.amountOut, sent.decimals, received.decimals);
    bridgeFees = quote.fees;
  }

  // Destination call (destination swap and/or contract calls), charged in the bridged token, then the destination swap.
  let destination: SwapPath | undefined;
  let destinationCallFee = 0n;
  let toAmount = arrived;
  const bridgedToken = plan.bridge ? graph.token(toChain.id, plan.bridge.toToken) : undefined;
  const toGas = graph.gas(toChain.id);
  const callsGas = request.contractCallsGas ?? 0n;
  if (plan.bridge && bridgedToken && !plan.destinationSeparate && (plan.destination || callsGas > 0n)) {
    const wei = destinationCallGas(plan, callsGas) * (toGas?.gasPriceWei ?? 0n);
    destinationCallFee = nativeWeiInToken(wei, toChain.nativeToken, bridgedToken);
    if (destinationCallFee >= arrived) {
      const what = callsGas === 0n ? 'swap\'s gas' : plan.destination ? 'swap and contract calls\' gas' : 'contract calls\' gas';
      return fail('FEES_HIGHER_THAN_AMOUNT', plan.bridge.bridge, `the destination ${what} (${destinationCallFee} ${bridgedToken.symbol} units) exceeds the ${arrived} units that arrive`);
    }
    toAmount = arrived - destinationCallFee;
  }
  if (plan.destination && bridgedToken) {
    const swapIn = toAmount;
    destination = replayPath(plan.destination, swapIn, memo);
    if (!destination) return fail('INSUFFICIENT_LIQUIDITY', 'swap', `not enough liquidity on ${describePath(graph, plan.destination)} for ${swapIn}`);
    toAmount = destination.amountOut;
  }
  if (toAmount <= 0n) return fail('FEES_HIGHER_THAN_AMOUNT', plan.bridge?.bridge ?? 'swap', 'nothing would arrive after fees');

  // Figures for ranking.
  const fromGas = graph.gas(fromChain.id);
  // contract calls on one chain run in the user's transaction
  const sameChainCallsGas = plan.bridge ? 0n : callsGas;
  const sourceGasUnits = ROUTER_BASE_GAS + FIRST_USE_GAS + (integratorFee > 0n || relayFee > 0n ? FEE_COLLECTION_GAS : 0n) + sources.reduce((sum, p) => sum + p.gasUnits, 0n) + (plan.bridge?.gasUnits ?? 0n) + sameChainCallsGas;
  let gasCostUSD = usd(sourceGasUnits * (fromGas?.gasPriceWei ?? 0n), fromChain.nativeToken);
  let durationSeconds = (fromGas?.blockTimeSeconds ?? 2) + (plan.bridge?.durationSeconds ?? 0);
  if (plan.destinationSeparate && destination) {
    gasCostUSD += usd((ROUTER_BASE_GAS + FIRST_USE_GAS + destination.gasUnits) * (toGas?.gasPriceWei ?? 0n), toChain.nativeToken);
    durationSeconds += toGas?.blockTimeSeconds ?? 2;
  }
  let includedFeesUSD = usd(integratorFee + relayFee, fromToken);
  let extraFeesUSD = 0;
  if (plan.bridge && bridgeFees) {
    const sent = graph.token(plan.bridge.fromChainId, plan.bridge.fromToken);
    includedFeesUSD += usd(bridgeFees.fixed + bridgeFees.proportional + bridgeFees.destinationGas, sent);
    extraFeesUSD += usd(plan.bridge.nativeFee, fromChain.nativeToken);
  }
  if (destinationCallFee > 0n && bridgedToken) includedFeesUSD += usd(destinationCallFee, bridgedToken);
  const fromAmountUSD = usd(fromAmount, fromToken);
  const toAmountUSD = usd(toAmount, toToken);
  const valueIn = fromAmountUSD - includedFeesUSD;
  // unknown (never 100 %) when a side has no USD price: such a route is not filtered by maxPriceImpact
  const priceImpact = !hasPrice(fromToken) || !hasPrice(toToken) ? undefined : valueIn > 0 ? Math.max(0, 1 - toAmountUSD / valueIn) : 1;
  const key = `${sources.map(poolIdsKey).join('|')}#${plan.bridge ? `${plan.bridge.bridge}:${plan.bridge.fromToken}:${plan.bridge.toToken}` : ''}#${destination ? poolIdsKey(destination) : ''}#${plan.destinationSeparate}`;
  return {
    ok: true,
    amounts: {
      plan, fromAmount, feePpm, integratorFee, relayFee, rest, slippage, slippagePpm, sources, bridged, arrived, bridgeFees, destination,
      destinationCallFee, toAmount, sourceGasUnits, fromAmountUSD, toAmountUSD, gasCostUSD, extraFeesUSD, priceImpact, durationSeconds,
      netValueUSD: toAmountUSD - fromAmountUSD - gasCostUSD - extraFeesUSD,
      key,
    },
  };
}

/** A path's pools (or wrap/unwrap) joined by '>', for PricedAmounts.key. */
function poolIdsKey(path: SwapPath): string {
  let text = '';
  for (let k = 0; k < path.legs.length; k++) {
    const edge = path.legs[k].edge;
    text += (k > 0 ? '>' : '') + (edge.kind === 'pool' ? edge.pool.id : edge.kind);
  }
  return text;
}

function fail(code: ToolErrorCode, tool: string, message: string): { ok: false; code: ToolErrorCode; tool: string; message: string } {
  return { ok: false, code, tool, message };
}

function bridgeFailureMessage(reason: string, route: BridgeRoute, amount: bigint, limit: bigint, token: Token): string {
  const unit = (x: bigint) => `${x} ${token.symbol} units`;
  switch (reason) {
    case 'AMOUNT_TOO_LOW':
      return `${route.bridge} needs at least ${unit(limit)} from ${route.fromChainId} to ${route.toChainId}; the route brings ${unit(amount)}`;
    case 'AMOUNT_TOO_HIGH':
      return `${route.bridge} moves at most ${unit(limit)} from ${route.fromChainId} to ${route.toChainId}; the route brings ${unit(amount)}`;
    default:
      return `${route.bridge} fees exceed the ${unit(amount)} bridged`;
  }
}

/** A deterministic id in UUID form: the same request on the same data gives the same id. */
export function routeId(request: RouteRequest, overallPath: string, fromAmount: bigint): string {
  const hex = createHash('sha256')
    .update([request.fromChain.id, request.toChain.id, request.fromToken.address, request.toToken.address, fromAmount, request.mode, request.fee ?? 0, request.slippage ?? '', request.integrator ?? '', request.fromAddress ?? '', request.toAddress ?? '', overallPath].join('|'))
    .digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
