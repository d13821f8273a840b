/**
 * The route plans a search prices (finder.ts): the shapes [source swap ≤ 3 hops] → [≤ 1 bridge] → [destination
 * swap ≤ 3 hops] the request can take, each with the fromAmount to price it at. Exact input prices every shape at
 * the request's amount (a large same-chain swap also as a 2-way split); exact output walks each shape backwards to
 * the fromAmount it needs. A candidate that cannot be planned is recorded with its reason.
 */
import { bridgeIn, bridgeOut } from '../math/bridge';
import { amountBeforeFee, fractionToPpm, grossUp, takeFee, toDecimalString } from '../math/amounts';
import type { Token } from '../entities';
import { PPM } from '../math/rational';
import { quoteHopExactOut } from '../liquidity/poolQuote';
import { describePath } from './assemble';
import { destinationCallGas } from './evaluate';
import type { RoutingGraph } from './graph';
import { searchExactIn, type PathSearchOptions } from './paths';
import { nativeWeiInToken, rescale, scaledPrice } from './pricing';
import { poolIdsOf, replayPath, type QuoteMemo, type SwapPath } from './swapPath';
import type { ToolPolicy } from './tools';
import type { RouteRequest, RoutePlan, ToolError, ToolErrorCode, UnavailableRoutes } from './route';

/** Pool hops a swap may take on each side of the bridge. */
export const MAX_HOPS = 3;
const SPLIT_MIN_USD = 20_000;
const SPLIT_STEPS_PPM = Array.from({ length: 19 }, (_, k) => BigInt((k + 1) * 50_000));

/** What one search works with: the request, its tool policies and path options, and where it records each candidate left out. */
export interface SearchContext {
  readonly graph: RoutingGraph;
  readonly request: RouteRequest;
  readonly memo: QuoteMemo;
  readonly bridges: ToolPolicy;
  readonly exchanges: ToolPolicy;
  readonly pathOptions: PathSearchOptions;
  readonly unavailable: UnavailableRoutes;
  readonly startedAt: number;
  readonly now: () => number;
}

/** A plan to price, and the fromAmount to price it at. */
export interface PlanToPrice {
  readonly plan: RoutePlan;
  readonly fromAmount: bigint;
}

/** The plans of the request, each with the fromAmount to price it at. */
export function plansOf(ctx: SearchContext, sameChain: boolean): PlanToPrice[] {
  return ctx.request.mode === 'exactOut' ? exactOutPlans(ctx, sameChain) : sameChain ? sameChainPlans(ctx) : crossChainPlans(ctx);
}

function sameChainPlans(ctx: SearchContext): PlanToPrice[] {
  const { graph, request } = ctx;
  const chainId = request.fromChain.id;
  const from = graph.catalog.addressKey(request.fromChain.id, request.fromToken.address);
  const to = graph.catalog.addressKey(request.toChain.id, request.toToken.address);
  const swapAmount = takeFee(request.amount, feePpmOf(request)).rest;
  const paths = searchExactIn(graph, chainId, from, swapAmount, [to], ctx.pathOptions, ctx.memo).get(to) ?? [];
  if (paths.length === 0) noSwapPath(ctx, chainId, from, to, swapAmount);
  const plans: PlanToPrice[] = paths.map((path) => ({ plan: { sources: [{ path, sharePpm: PPM }], destinationSeparate: false }, fromAmount: request.amount }));
  const split = paths[0] && splitPlan(ctx, paths[0], swapAmount, chainId, from, to);
  if (split) plans.unshift({ plan: split, fromAmount: request.amount });
  return plans;
}

/**
 * A 2-way split of a large swap between the best path and the best path sharing none of its pools,
 * at the best 5 % step; kept only when the extra output is worth more than the extra gas.
 */
function splitPlan(ctx: SearchContext, best: SwapPath, amount: bigint, chainId: number, from: string, to: string): RoutePlan | undefined {
  const { graph, request } = ctx;
  const usdIn = request.fromToken.priceUSD ? Number(request.fromToken.priceUSD) * Number(amount) / 10 ** request.fromToken.decimals : 0;
  if (usdIn < SPLIT_MIN_USD) return undefined;
  const excludedPools = new Set([...(ctx.pathOptions.excludedPools ?? []), ...poolIdsOf(best)]);
  const other = searchExactIn(graph, chainId, from, amount, [to], { ...ctx.pathOptions, excludedPools, labelsPerToken: 1 }, ctx.memo).get(to)?.[0];
  if (!other) return undefined;
  let bestShare = 0n;
  let bestOut = best.amountOut;
  for (const share of SPLIT_STEPS_PPM) {
    const a = (amount * share) / PPM;
    const p1 = replayPath(best, a, ctx.memo);
    const p2 = replayPath(other, amount - a, ctx.memo);
    if (!p1 || !p2) continue;
    const out = p1.amountOut + p2.amountOut;
    if (out > bestOut) {
      bestOut = out;
      bestShare = share;
    }
  }
  if (bestShare === 0n) return undefined;
  const gas = graph.gas(chainId);
  const extraGasUSD = Number(other.gasUnits * (gas?.gasPriceWei ?? 0n)) / 1e18 * Number(request.fromChain.nativeToken.priceUSD);
  const gainUSD = Number(bestOut - best.amountOut) / 10 ** request.toToken.decimals * Number(request.toToken.priceUSD);
  if (gainUSD <= extraGasUSD) return undefined;
  return { sources: [{ path: best, sharePpm: bestShare }, { path: other, sharePpm: PPM - bestShare }], destinationSeparate: false };
}

function crossChainPlans(ctx: SearchContext): PlanToPrice[] {
  const { graph, request } = ctx;
  const fromChainId = request.fromChain.id;
  const toChainId = request.toChain.id;
  const from = graph.catalog.addressKey(request.fromChain.id, request.fromToken.address);
  const to = graph.catalog.addressKey(request.toChain.id, request.toToken.address);
  const all = graph.bridgesBetween(fromChainId, toChainId);
  if (all.length === 0) {
    failed(ctx, `${fromChainId}:${request.fromToken.symbol}-?-${toChainId}:${request.toToken.symbol}`, 'NO_POSSIBLE_ROUTE', 'bridge',
      `no bridge connects ${request.fromChain.name} (${fromChainId}) and ${request.toChain.name} (${toChainId})`);
    return [];
  }
  const usable = all.filter((route) => {
    const why = ctx.bridges.whyNot(route.bridge);
    if (why) ctx.unavailable.filteredOut.push({ overallPath: bridgePath(ctx, route), reason: why });
    return !why;
  });
  const plans: PlanToPrice[] = [];
  {
    const swapAmount = takeFee(request.amount, feePpmOf(request)).rest;
    const sources = searchExactIn(graph, fromChainId, from, swapAmount, [...new Set(usable.map((r) => r.fromToken))], ctx.pathOptions, ctx.memo);
    // The destination swap is searched once per bridged token, on the largest amount any bridge delivers
    // (a pool path's output is monotone in its input); the other bridges re-price that path on their amount.
    const arrivals = usable.map((route) => {
      const source = sources.get(route.fromToken)?.[0];
      return { route, source, arrived: source ? bridgeArrival(graph, route, source.amountOut) : undefined };
    });
    const largest = new Map<string, bigint>();
    for (const { route, arrived } of arrivals) {
      if (arrived !== undefined && route.toToken !== to && arrived > (largest.get(route.toToken) ?? 0n)) largest.set(route.toToken, arrived);
    }
    const destinations = new Map<string, SwapPath | undefined>();
    const destinationFor = (token: string): SwapPath | undefined => {
      if (!destinations.has(token)) {
        destinations.set(token, searchExactIn(graph, toChainId, token, largest.get(token)!, [to], ctx.pathOptions, ctx.memo).get(to)?.[0]);
      }
      return destinations.get(token);
    };
    for (const { route, source, arrived } of arrivals) {
      if (overBudget(ctx, plans.length)) {
        failed(ctx, bridgePath(ctx, route), 'TOOL_TIMEOUT', route.bridge, 'not evaluated: the timing strategy\'s time budget ran out');
        continue;
      }
      if (!source) {
        noSwapPath(ctx, fromChainId, from, route.fromToken, swapAmount, { bridge: route.bridge, side: 'before' });
        continue;
      }
      const plan = destinationPlan(ctx, route, source.legs.length > 0 ? [{ path: source, sharePpm: PPM }] : [], () => destinationFor(route.toToken), arrived);
      if (plan) plans.push({ plan, fromAmount: request.amount });
    }
    return plans;
  }
}

/**
 * Exact output: route shapes are found by an exact-input search on an estimated input (the requested
 * output at reference prices, plus 2 %); each shape is then walked backwards with the exact inverse
 * math (required inputs round up) to the fromAmount it needs, and priced forward to confirm.
 */
function exactOutPlans(ctx: SearchContext, sameChain: boolean): PlanToPrice[] {
  const { request } = ctx;
  const probe: SearchContext = { ...ctx, request: { ...request, mode: 'exactIn', amount: estimatedInput(request) } };
  const shapes = sameChain ? sameChainPlans(probe) : crossChainPlans(probe);
  const plans: PlanToPrice[] = [];
  const to = ctx.graph.catalog.addressKey(request.toChain.id, request.toToken.address);
  for (const { plan } of shapes) {
    if (plan.sources.length > 1) continue; // splits serve exact input
    if (plan.bridge && !plan.destination && plan.bridge.toToken !== to) {
      // the probe's bridge could not carry its amount, so no destination swap was searched: the shape cannot be walked
      // back from the requested token (its amount is not the bridged token's), only reported
      reportBridgeRefusal(ctx, plan, plan.sources[0]?.path.amountOut ?? probe.request.amount);
      continue;
    }
    const required = requiredInput(ctx, plan);
    if (typeof required === 'string') {
      failed(ctx, planPath(ctx, plan), 'INSUFFICIENT_LIQUIDITY', plan.bridge?.bridge ?? 'swap', required);
      continue;
    }
    plans.push({ plan, fromAmount: required });
  }
  return plans;
}

/**
 * The probe's input: the requested output's worth in the sent token. Without a price for either token it is one
 * whole sent token, an amount the bridges carry, so that the probe finds the route shapes and, where there are none,
 * why (its reasons are exact input's, in the sent token's units); the walk back then computes the amount a shape needs.
 */
function estimatedInput(request: RouteRequest): bigint {
  const pFrom = scaledPrice(request.fromToken.priceUSD);
  const pTo = scaledPrice(request.toToken.priceUSD);
  if (pFrom === 0n || pTo === 0n) return 10n ** BigInt(request.fromToken.decimals);
  const value = (request.amount * pTo * 10n ** BigInt(request.fromToken.decimals)) / (pFrom * 10n ** BigInt(request.toToken.decimals));
  const estimate = grossUp((value * 102n) / 100n, feePpmOf(request));
  return estimate > 0n ? estimate : 1n;
}

/**
 * The fromAmount a plan needs to deliver the requested amount, walking it backwards; a message when it cannot, whose
 * amounts are in the units of the token it names (the amount needed at that point of the path, and a limit).
 */
function requiredInput(ctx: SearchContext, plan: RoutePlan): bigint | string {
  const { graph, request } = ctx;
  const units = (token: Token, amount: bigint) => `${amount} units of ${token.symbol} (${toDecimalString(amount, token.decimals)} ${token.symbol})`;
  let need = request.amount;
  // the token `need` is in, as the walk goes back from the requested token
  let needToken: Token = request.toToken;
  if (plan.destination) {
    const back = backwards(plan.destination, need);
    if (back === undefined) return `the destination swap cannot deliver ${units(needToken, need)}`;
    need = back;
  }
  const callsGas = request.contractCallsGas ?? 0n;
  if (plan.bridge && !plan.destinationSeparate && (plan.destination || callsGas > 0n)) {
    // the destination call's gas, charged in the bridged token before the destination swap
    const wei = destinationCallGas(plan, callsGas) * (graph.gas(request.toChain.id)?.gasPriceWei ?? 0n);
    need += nativeWeiInToken(wei, request.toChain.nativeToken, graph.token(request.toChain.id, plan.bridge.toToken));
  }
  if (plan.bridge) {
    const route = plan.bridge;
    const sent = graph.token(route.fromChainId, route.fromToken);
    const needSent = rescale(need, graph.token(route.toChainId, route.toToken).decimals, sent.decimals, true);
    const bridged = bridgeIn(needSent, route);
    if (!bridged.ok) return `${route.bridge} cannot deliver ${units(sent, needSent)}: the amount it would carry is ${bridged.reason} (limit ${units(sent, bridged.limit)})`;
    need = bridged.amountIn;
    needToken = sent;
  }
  const source = plan.sources[0]?.path;
  if (source) {
    const back = backwards(source, need);
    if (back === undefined) return `the source swap cannot deliver ${units(needToken, need)}`;
    need = back;
  }
  // the smallest fromAmount whose rest after the fee (takeFee) covers `need`
  return amountBeforeFee(need, feePpmOf(request));
}

/** Why a plan's bridge refuses `sent` (units of its source token), as a failed path whose amounts name their token. */
function reportBridgeRefusal(ctx: SearchContext, plan: RoutePlan, sent: bigint): void {
  const route = plan.bridge!;
  const token = ctx.graph.token(route.fromChainId, route.fromToken);
  const quote = bridgeOut(sent, route);
  const units = (amount: bigint) => `${amount} units of ${token.symbol} (${toDecimalString(amount, token.decimals)} ${token.symbol})`;
  const message = quote.ok
    ? `${route.bridge} carries ${units(sent)}, but no swap from what arrives reaches ${ctx.request.toToken.symbol}`
    : `${route.bridge} cannot carry ${units(sent)}: ${quote.reason} (limit ${units(quote.limit)})`;
  failed(ctx, planPath(ctx, plan), quote.ok ? 'INSUFFICIENT_LIQUIDITY' : quote.reason, route.bridge, message);
}

/** The input a path needs for `amountOut`, hop by hop from the end (exact inverse math, rounding up). */
function backwards(path: SwapPath, amountOut: bigint): bigint | undefined {
  let amount = amountOut;
  for (let k = path.legs.length - 1; k >= 0; k--) {
    const edge = path.legs[k].edge;
    if (edge.kind !== 'pool') continue;
    const quote = quoteHopExactOut(edge.pool, edge.i, edge.j, amount);
    if (!quote.ok) return undefined;
    amount = quote.amountIn;
  }
  return amount;
}

/** What arrives on the destination chain for `amount` sent into a bridge route (undefined when it cannot). */
function bridgeArrival(graph: RoutingGraph, route: NonNullable<RoutePlan['bridge']>, amount: bigint): bigint | undefined {
  const out = bridgeOut(amount, route);
  if (!out.ok) return undefined;
  return rescale(out.amountOut, graph.token(route.fromChainId, route.fromToken).decimals, graph.token(route.toChainId, route.toToken).decimals);
}

function destinationPlan(
  ctx: SearchContext,
  route: NonNullable<RoutePlan['bridge']>,
  sources: RoutePlan['sources'],
  findDestination: (arrived: bigint) => SwapPath | undefined,
  arrived: bigint | undefined,
): RoutePlan | undefined {
  const to = ctx.graph.catalog.addressKey(ctx.request.toChain.id, ctx.request.toToken.address);
  if (route.toToken === to) return { sources, bridge: route, destinationSeparate: false };
  if (!destinationAllowed(ctx, route)) return undefined;
  // When the bridge itself fails, evaluatePlan reports why; the destination is searched on what would arrive.
  if (arrived === undefined) return { sources, bridge: route, destinationSeparate: false, destination: undefined };
  const destination = findDestination(arrived);
  if (!destination) {
    noSwapPath(ctx, ctx.request.toChain.id, route.toToken, to, arrived, { bridge: route.bridge, side: 'after' });
    return undefined;
  }
  return { sources, bridge: route, destination, destinationSeparate: !ctx.request.allowDestinationCall };
}

function destinationAllowed(ctx: SearchContext, route: NonNullable<RoutePlan['bridge']>): boolean {
  if (ctx.request.allowDestinationCall || ctx.request.allowSwitchChain) return true;
  ctx.unavailable.filteredOut.push({
    overallPath: bridgePath(ctx, route),
    reason: `the swap ${ctx.graph.token(route.toChainId, route.toToken).symbol}→${ctx.request.toToken.symbol} on ${ctx.request.toChain.name} would run inside the ${route.bridge} transaction, and allowDestinationCall is false`,
  });
  return false;
}

function overBudget(ctx: SearchContext, found: number): boolean {
  const timing = ctx.request.timing;
  if (!timing) return false;
  return ctx.now() - ctx.startedAt >= timing.minWaitTimeMs && found >= timing.startingExpectedResults;
}

/** The integrator fee in ppm, rounded up as the pricing takes it (evaluate.ts). */
function feePpmOf(request: RouteRequest): bigint {
  return fractionToPpm(request.fee ?? 0, 'up');
}

/** Reports a swap no pool path makes; `bridging` names the bridge it was needed for, and whether before or after it. */
function noSwapPath(ctx: SearchContext, chainId: number, from: string, to: string, amount: bigint, bridging?: { bridge: string; side: 'before' | 'after' }): void {
  const { graph } = ctx;
  const sym = (t: string) => graph.token(chainId, t).symbol;
  const path = `${chainId}:${sym(from)}~${chainId}:${sym(to)}`;
  const anyPath = searchExactIn(graph, chainId, from, 1n, [to], { ...ctx.pathOptions, allowExchange: () => true }, new Map()).size > 0
    || graph.hopsToTargets(chainId, [to], MAX_HOPS).has(from);
  const code: ToolErrorCode = anyPath ? 'INSUFFICIENT_LIQUIDITY' : 'NO_POSSIBLE_ROUTE';
  const message = anyPath
    ? `no pool path of at most ${MAX_HOPS} hops from ${sym(from)} to ${sym(to)} on chain ${chainId} can take ${amount} units with the allowed exchanges`
    : `no pools connect ${sym(from)} and ${sym(to)} within ${MAX_HOPS} hops on chain ${chainId}`;
  failed(ctx, path, code, 'swap', bridging ? `${message} (needed ${bridging.side} bridging with ${bridging.bridge})` : message);
}

export function failed(ctx: SearchContext, overallPath: string, code: ToolErrorCode, tool: string, message: string): void {
  const { request } = ctx;
  // The same missing swap blocks every bridge that needs it: one reason per path is enough.
  if (ctx.unavailable.failed.some((f) => f.overallPath === overallPath)) return;
  const error: ToolError = {
    errorType: 'NO_QUOTE', code, tool, message,
    action: {
      fromChainId: request.fromChain.id, toChainId: request.toChain.id,
      fromToken: request.fromToken, toToken: request.toToken,
      fromAmount: request.mode === 'exactIn' ? request.amount : 0n,
    },
  };
  ctx.unavailable.failed.push({ overallPath, subpaths: { [overallPath]: [error] } });
}

function bridgePath(ctx: SearchContext, route: NonNullable<RoutePlan['bridge']>): string {
  const { graph, request } = ctx;
  return `${request.fromChain.id}:${request.fromToken.symbol}~${route.fromChainId}:${graph.token(route.fromChainId, route.fromToken).symbol}-${route.bridge}-${route.toChainId}:${graph.token(route.toChainId, route.toToken).symbol}~${route.toChainId}:${request.toToken.symbol}`;
}

export function planPath(ctx: SearchContext, plan: RoutePlan): string {
  if (plan.bridge) return bridgePath(ctx, plan.bridge);
  return plan.sources[0] ? describePath(ctx.graph, plan.sources[0].path) : `${ctx.request.fromChain.id}:${ctx.request.fromToken.symbol}`;
}
