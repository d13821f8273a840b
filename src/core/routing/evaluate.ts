/**
 * Prices a route plan forward from a fromAmount: integrator fee, source swaps (one path or a split),
 * bridge, destination swap (inside the bridge transaction, or as a second transaction after a chain
 * switch), then fees, gas, USD figures, duration and price impact. Exact-input and exact-output
 * searches both end here, so every route's figures come from the same forward computation.
 */
import { createHash } from 'node:crypto';
import type { Token } from '../catalog/types';
import { applySlippageFloor, fractionToPpm, takeFee } from '../math/amounts';
import { bridgeOut, type BridgeFees } from '../math/bridge';
import type { BridgeRoute } from '../liquidity/types';
import type { RoutingGraph } from './graph';
import { FEE_COLLECTION_GAS, FIRST_USE_GAS, ROUTER_BASE_GAS, gasCost, nativeWeiInToken, ppmToFraction, rescale, usd } from './pricing';
import { replayPath, type QuoteMemo, type SwapPath } from './swapPath';
import type { FeeCost, PlannedStep, Route, RouteRequest, RouteTransaction, ToolErrorCode } from './types';

/** Gas of the destination call around its swaps (receiver contract, checks, transfer). */
export const DESTINATION_CALL_GAS = 50_000n;

/** Gas units of a plan's destination call: its swaps, the call's own work and the contract calls' gas (request.contractCallsGas). */
export function destinationCallGas(plan: RoutePlan, contractCallsGas: bigint): bigint {
  return (plan.destination?.gasUnits ?? 0n) + DESTINATION_CALL_GAS + contractCallsGas;
}

export interface RoutePlan {
  /** Parallel source paths with their share of the swapped amount (ppm; they add up to 1e6). Empty: no source swap. */
  readonly sources: readonly { readonly path: SwapPath; readonly sharePpm: bigint }[];
  readonly bridge?: BridgeRoute;
  readonly destination?: SwapPath;
  /** The destination swap is a second transaction sent by the user after switching chain. */
  readonly destinationSeparate: boolean;
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

/** The amounts of a plan and the figures it is ranked by, without building its steps (cheap). */
export interface PricedAmounts {
  readonly plan: RoutePlan;
  readonly fromAmount: bigint;
  readonly feePpm: bigint;
  readonly integratorFee: bigint;
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
  readonly fromAmountUSD: number;
  readonly toAmountUSD: number;
  readonly gasCostUSD: number;
  readonly extraFeesUSD: number;
  readonly priceImpact: number;
  readonly durationSeconds: number;
  /** CHEAPEST ranks by this: output in USD after gas on all chains and fees paid on top. */
  readonly netValueUSD: number;
  /** Identifies the route shape (pools and bridge), for removing duplicates. */
  readonly key: string;
}

export type PricedPlan =
  | { readonly ok: true; readonly amounts: PricedAmounts }
  | { readonly ok: false; readonly code: ToolErrorCode; readonly tool: string; readonly message: string };

export function pricePlan(graph: RoutingGraph, request: RouteRequest, plan: RoutePlan, fromAmount: bigint, memo: QuoteMemo): PricedPlan {
  const { fromChain, toChain, fromToken, toToken } = request;
  const feePpm = fractionToPpm(request.fee ?? 0, 'up');
  const { fee: integratorFee, rest } = takeFee(fromAmount, feePpm);
  const slippage = request.slippage ?? defaultSlippage(request);
  const slippagePpm = fractionToPpm(slippage, 'up');

  // Source swaps.
  const sources: SwapPath[] = [];
  let bridged = rest;
  if (plan.sources.length > 0) {
    bridged = 0n;
    let left = rest;
    for (const [k, { path, sharePpm }] of plan.sources.entries()) {
      const part = k === plan.sources.length - 1 ? left : (rest * sharePpm) / 1_000_000n; // rounds down; the last part takes the remainder
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
  const sourceGasUnits = ROUTER_BASE_GAS + FIRST_USE_GAS + (integratorFee > 0n ? FEE_COLLECTION_GAS : 0n) + sources.reduce((sum, p) => sum + p.gasUnits, 0n) + (plan.bridge?.gasUnits ?? 0n) + sameChainCallsGas;
  let gasCostUSD = usd(sourceGasUnits * (fromGas?.gasPriceWei ?? 0n), fromChain.nativeToken);
  let durationSeconds = (fromGas?.blockTimeSeconds ?? 2) + (plan.bridge?.durationSeconds ?? 0);
  if (plan.destinationSeparate && destination) {
    gasCostUSD += usd((ROUTER_BASE_GAS + FIRST_USE_GAS + destination.gasUnits) * (toGas?.gasPriceWei ?? 0n), toChain.nativeToken);
    durationSeconds += toGas?.blockTimeSeconds ?? 2;
  }
  let includedFeesUSD = usd(integratorFee, fromToken);
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
  const priceImpact = valueIn > 0 ? Math.max(0, 1 - toAmountUSD / valueIn) : 1;
  const key = `${sources.map(poolIdsKey).join('|')}#${plan.bridge ? `${plan.bridge.bridge}:${plan.bridge.fromToken}:${plan.bridge.toToken}` : ''}#${destination ? poolIdsKey(destination) : ''}#${plan.destinationSeparate}`;
  return {
    ok: true,
    amounts: {
      plan, fromAmount, feePpm, integratorFee, rest, slippage, slippagePpm, sources, bridged, arrived, bridgeFees, destination,
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

/** Builds the full route (steps, transactions, fee and gas costs) of priced amounts. */
export function assembleRoute(graph: RoutingGraph, request: RouteRequest, amounts: PricedAmounts): Route {
  const { fromChain, toChain, fromToken, toToken } = request;
  const { plan, fromAmount, feePpm, integratorFee, rest, slippage, slippagePpm, sources, bridged, arrived, bridgeFees, destination, destinationCallFee, toAmount } = amounts;
  const bridgedToken = plan.bridge ? graph.token(toChain.id, plan.bridge.toToken) : undefined;
  const toGas = graph.gas(toChain.id);
  // Steps and transactions.
  const fromGas = graph.gas(fromChain.id);
  const feeCosts: FeeCost[] = [];
  const steps1: PlannedStep[] = [];
  if (integratorFee > 0n) {
    const cost: FeeCost = {
      name: 'Integrator fee',
      description: `Fee of integrator ${request.integrator ?? '(unnamed)'}, taken from the sent amount`,
      percentage: ppmToFraction(feePpm),
      token: fromToken,
      amount: integratorFee,
      amountUSD: usd(integratorFee, fromToken),
      included: true,
    };
    feeCosts.push(cost);
    steps1.push(step('protocol', 'feeCollection', fromChain.id, fromChain.id, fromToken, fromToken, fromAmount, rest, 0, [cost]));
  }
  for (const path of sources) steps1.push(...swapSteps(graph, path, fromGas?.blockTimeSeconds ?? 2));
  if (plan.bridge && bridgeFees) {
    const from = graph.token(fromChain.id, plan.bridge.fromToken);
    const bridgeCosts = bridgeFeeCosts(plan.bridge, bridgeFees, bridged, from, fromChain.nativeToken);
    if (destinationCallFee > 0n && bridgedToken) {
      const calls = (request.contractCallsGas ?? 0n) > 0n;
      bridgeCosts.push({
        name: calls ? 'Destination call gas' : 'Destination swap gas',
        description: calls
          ? `Gas of the ${plan.bridge.bridge} destination call on ${toChain.name} (${destination ? 'its swaps and ' : ''}the contract calls at their gas limits), paid in ${bridgedToken.symbol}`
          : `Gas of the swap run by the ${plan.bridge.bridge} destination call on ${toChain.name}, paid in ${bridgedToken.symbol}`,
        percentage: ratio(destinationCallFee, arrived),
        token: bridgedToken,
        amount: destinationCallFee,
        amountUSD: usd(destinationCallFee, bridgedToken),
        included: true,
      });
    }
    feeCosts.push(...bridgeCosts);
    steps1.push({
      ...step('cross', plan.bridge.bridge, fromChain.id, toChain.id, from, bridgedToken!, bridged, arrived, plan.bridge.durationSeconds, bridgeCosts),
      bridge: plan.bridge,
    });
  }
  const destinationSteps = destination ? swapSteps(graph, destination, toGas?.blockTimeSeconds ?? 2) : [];
  if (!plan.destinationSeparate) steps1.push(...destinationSteps);

  const sourceGas = amounts.sourceGasUnits;
  const firstToToken = plan.destinationSeparate ? bridgedToken! : toToken;
  const firstToAmount = plan.destinationSeparate ? arrived : toAmount;
  const firstDuration = (fromGas?.blockTimeSeconds ?? 2) + (plan.bridge?.durationSeconds ?? 0);
  const transactions: RouteTransaction[] = [
    {
      chainId: fromChain.id,
      toChainId: plan.destinationSeparate ? toChain.id : toChain.id,
      fromToken,
      toToken: firstToToken,
      fromAmount,
      toAmount: firstToAmount,
      toAmountMin: applySlippageFloor(firstToAmount, slippagePpm),
      tool: plan.bridge?.bridge ?? mainExchange(sources),
      type: plan.bridge ? 'cross' : 'swap',
      steps: steps1,
      gasCost: gasCost(fromChain, fromGas?.gasPriceWei ?? 0n, sourceGas),
      feeCosts,
      durationSeconds: firstDuration,
      fromAmountUSD: usd(fromAmount, fromToken),
      toAmountUSD: usd(firstToAmount, firstToToken),
    },
  ];
  if (plan.destinationSeparate && destination && bridgedToken) {
    transactions.push({
      chainId: toChain.id,
      toChainId: toChain.id,
      fromToken: bridgedToken,
      toToken,
      fromAmount: arrived,
      toAmount,
      toAmountMin: applySlippageFloor(toAmount, slippagePpm),
      tool: mainExchange([destination]),
      type: 'swap',
      steps: destinationSteps,
      gasCost: gasCost(toChain, toGas?.gasPriceWei ?? 0n, ROUTER_BASE_GAS + FIRST_USE_GAS + destination.gasUnits),
      feeCosts: [],
      durationSeconds: toGas?.blockTimeSeconds ?? 2,
      fromAmountUSD: usd(arrived, bridgedToken),
      toAmountUSD: usd(toAmount, toToken),
    });
  }

  const { fromAmountUSD, toAmountUSD, extraFeesUSD, priceImpact } = amounts;
  const overallPath = overallPathOf(graph, request, amounts);
  const route: Route = {
    id: '', // given to the routes that are returned (routeId), not to every candidate
    request,
    fromAmount,
    toAmount,
    toAmountMin: applySlippageFloor(toAmount, slippagePpm),
    slippage,
    fromAmountUSD,
    toAmountUSD,
    gasCostUSD: amounts.gasCostUSD,
    extraFeesUSD,
    priceImpact,
    durationSeconds: amounts.durationSeconds,
    containsSwitchChain: transactions.length > 1,
    transactions,
    source: sources[0],
    bridge: plan.bridge && bridgeFees ? { route: plan.bridge, amountIn: bridged, amountOut: arrived, fees: bridgeFees } : undefined,
    destination,
    integratorFee,
    preferred: false,
    tags: [],
    overallPath,
  };
  return route;
}

/** The overallPath that assembleRoute gives priced amounts, without building the route (for candidates left out). */
export function overallPathOf(graph: RoutingGraph, request: RouteRequest, amounts: PricedAmounts): string {
  return describePlan(graph, request, amounts.sources, amounts.plan.bridge, amounts.destination);
}

function fail(code: ToolErrorCode, tool: string, message: string): { ok: false; code: ToolErrorCode; tool: string; message: string } {
  return { ok: false, code, tool, message };
}

function step(
  type: PlannedStep['type'], tool: string, fromChainId: number, toChainId: number, fromToken: Token, toToken: Token,
  fromAmount: bigint, toAmount: bigint, durationSeconds: number, feeCosts: FeeCost[],
): PlannedStep {
  return { type, tool, fromChainId, toChainId, fromToken, toToken, fromAmount, toAmount, durationSeconds, feeCosts };
}

function swapSteps(graph: RoutingGraph, path: SwapPath, blockTime: number): PlannedStep[] {
  return path.legs.map((leg) => {
    const from = graph.token(path.chainId, leg.edge.from);
    const to = graph.token(path.chainId, leg.edge.to);
    if (leg.edge.kind !== 'pool') return step('swap', 'wrapper', path.chainId, path.chainId, from, to, leg.amountIn, leg.amountOut, blockTime, []);
    const pool = leg.edge.pool;
    // step(...) and the pool's fields in one object (same fields, same order)
    return {
      type: 'swap', tool: pool.exchange, fromChainId: path.chainId, toChainId: path.chainId, fromToken: from, toToken: to,
      fromAmount: leg.amountIn, toAmount: leg.amountOut, durationSeconds: blockTime, feeCosts: [],
      poolId: pool.id,
      poolAddress: pool.address,
      poolKind: pool.kind,
    };
  });
}

function bridgeFeeCosts(route: BridgeRoute, fees: BridgeFees, amountIn: bigint, token: Token, native: Token): FeeCost[] {
  const costs: FeeCost[] = [];
  const charged = fees.fixed + fees.proportional;
  if (charged > 0n) {
    costs.push({
      name: `${route.bridge} fee`,
      description: `${route.bridge} fee: ${ppmToFraction(route.feePpm)} of the bridged amount plus a fixed ${route.fixedFee} units`,
      percentage: ratio(charged, amountIn),
      token, amount: charged, amountUSD: usd(charged, token), included: true,
    });
  }
  if (fees.destinationGas > 0n) {
    costs.push({
      name: 'Relayer destination gas',
      description: `Gas the ${route.bridge} relayer spends on the destination chain, deducted from the bridged amount`,
      percentage: ratio(fees.destinationGas, amountIn),
      token, amount: fees.destinationGas, amountUSD: usd(fees.destinationGas, token), included: true,
    });
  }
  if (route.nativeFee > 0n) {
    costs.push({
      name: 'Messaging fee',
      description: `${route.bridge} message fee, paid on top as native value of the transaction`,
      percentage: '0',
      token: native, amount: route.nativeFee, amountUSD: usd(route.nativeFee, native), included: false,
    });
  }
  return costs;
}

/** a/b as a decimal fraction string with 6 significant decimals (rounded down). */
function ratio(a: bigint, b: bigint): string {
  if (b === 0n) return '0';
  return ppmToFraction((a * 1_000_000n) / b);
}

function mainExchange(paths: readonly SwapPath[]): string {
  for (const path of paths) for (const leg of path.legs) if (leg.edge.kind === 'pool') return leg.edge.pool.exchange;
  return 'wrapper';
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

export function describePath(graph: RoutingGraph, path: SwapPath): string {
  const sym = (t: string) => graph.token(path.chainId, t).symbol;
  return [`${path.chainId}:${sym(path.fromToken)}`, ...path.legs.map((l) => `${path.chainId}:${sym(l.edge.to)}`)].join('~');
}

function describePlan(graph: RoutingGraph, request: RouteRequest, sources: readonly SwapPath[], bridge?: BridgeRoute, destination?: SwapPath): string {
  let text = sources.length > 0 ? sources.map((p) => describePath(graph, p)).join('|') : `${request.fromChain.id}:${request.fromToken.symbol}`;
  if (bridge) {
    text += `-${bridge.bridge}-${bridge.toChainId}:${graph.token(bridge.toChainId, bridge.toToken).symbol}`;
    if (destination) text += destination.legs.map((l) => `~${destination.chainId}:${graph.token(destination.chainId, l.edge.to).symbol}`).join('');
  }
  return text;
}

/** A deterministic id in UUID form: the same request on the same data gives the same id. */
export function routeId(request: RouteRequest, overallPath: string, fromAmount: bigint): string {
  const hex = createHash('sha256')
    .update([request.fromChain.id, request.toChain.id, request.fromToken.address, request.toToken.address, fromAmount, request.mode, request.fee ?? 0, request.slippage ?? '', request.integrator ?? '', request.fromAddress ?? '', request.toAddress ?? '', overallPath].join('|'))
    .digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
