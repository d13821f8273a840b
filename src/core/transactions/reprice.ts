/**
 * Re-prices a route step (as POST /v1/advanced/routes returned it) on the current data: the same plan
 * (same integrator fee, same pools in the same order, same bridge route, the same split shares) is
 * evaluated forward again from the step's fromAmount with the routing core's evaluatePlan, so the fresh
 * estimate is computed exactly as the route's was. A step whose pools or bridge route no longer exist, or
 * that can no longer be priced, gives `{ok: false}` with the reason in the no-route form (the handler
 * answers 404 code 1002); a re-priced output below the step's toAmountMin throws SlippageMovedError
 * (409 code 1007); a malformed step throws InvalidRequestError naming the body field.
 */
import type { Chain, Token } from '../entities';
import { InvalidRequestError, SlippageMovedError } from '../errors';
import type { BridgeRoute } from '../liquidity/snapshot';
import { evaluatePlan, type RoutePlan } from '../routing/evaluate';
import type { RoutingGraph, SwapEdge } from '../routing/graph';
import { withRefuel } from '../routing/refuel';
import { replayPath, type SwapLeg, type SwapPath } from '../routing/swapPath';
import { DEFAULT_MAX_PRICE_IMPACT } from '../routing/request';
import { fractionToPpm, takeFee } from '../math/amounts';
import { PPM } from '../math/rational';
import type { Route, RouteRequest, ToolError, UnavailableRoutes } from '../routing/route';
import { familyOf } from '../chains/families';
import type { SvmPriorityFeeLevel } from '../chains/solana/fees';
import { DEFAULT_PRIORITY_FEE_LEVEL } from '../routing/solanaDeposit';

/** One included step of the submitted step, reduced to what identifies it. `field` is its JSON pointer. */
export type StepHop =
  | { readonly kind: 'fee'; readonly field: string; readonly fee: number }
  | {
      readonly kind: 'swap';
      readonly field: string;
      readonly chainId: number;
      readonly tool: string;
      readonly fromToken: string;
      readonly toToken: string;
      readonly fromAmount: bigint;
      /** Absent for a wrap / unwrap. */
      readonly poolId?: string;
    }
  | {
      readonly kind: 'cross';
      readonly field: string;
      readonly bridge: string;
      readonly fromAmount: bigint;
      readonly fromChainId: number;
      readonly toChainId: number;
      readonly fromToken: string;
      readonly toToken: string;
    };

/** A submitted step in domain form (the handler converts the wire Step). */
export interface StepDescription {
  readonly id: string;
  readonly fromChainId: number;
  readonly toChainId: number;
  readonly fromToken: string;
  readonly toToken: string;
  readonly fromAmount: bigint;
  readonly toAmountMin: bigint;
  readonly slippage?: number;
  readonly fromAddress?: string;
  readonly toAddress?: string;
  readonly integrator?: string;
  readonly referrer?: string;
  readonly hops: readonly StepHop[];
  /** The priority fee level of a transaction sent from Solana (ignored from other chains). */
  readonly svmPriorityFeeLevel?: SvmPriorityFeeLevel;
}

export type RepriceResult =
  | { readonly ok: true; readonly route: Route }
  | { readonly ok: false; readonly message: string; readonly unavailable: UnavailableRoutes };

/** Thrown inside when a pool or bridge route of the step is gone. */
class Unpriceable extends Error {
  constructor(message: string, readonly code: ToolError['code'], readonly tool: string) {
    super(message);
  }
}

/** The re-priced route (its single transaction is the step), or why it cannot be priced. Throws as described above. */
export function repriceStep(graph: RoutingGraph, step: StepDescription): RepriceResult {
  const fromChain = chainOf(graph, step.fromChainId, '/action/fromChainId');
  // the same rules as a quote's (request.ts): a step is served only where its transaction can be built
  const sending = familyOf(fromChain).sending;
  if (!sending.supported) {
    invalid('/action/fromChainId', 'sendingSupported', `body field /action/fromChainId: sending from ${fromChain.name} (${fromChain.id}) is not supported yet: ${sending.reason}`);
  }
  const toChain = chainOf(graph, step.toChainId, '/action/toChainId');
  const fromToken = tokenOf(graph, fromChain, step.fromToken, '/action/fromToken/address');
  const toToken = tokenOf(graph, toChain, step.toToken, '/action/toToken/address');
  const unpriceable = (message: string, code: ToolError['code'], tool: string): RepriceResult => {
    const overallPath = `${fromChain.id}:${fromToken.symbol}-${toChain.id}:${toToken.symbol}`;
    const error: ToolError = {
      errorType: 'NO_QUOTE', code, tool, message,
      action: { fromChainId: fromChain.id, toChainId: toChain.id, fromToken, toToken, fromAmount: step.fromAmount },
    };
    return { ok: false, message: `The step can no longer be priced: ${message}`, unavailable: { filteredOut: [], failed: [{ overallPath, subpaths: { [overallPath]: [error] } }] } };
  };
  if (step.hops.length === 0) invalid('/includedSteps', 'minItems', 'body field /includedSteps must list the steps of the route step (as POST /v1/advanced/routes returns them)');
  const feeHop = step.hops.find((h) => h.kind === 'fee');
  const fee = feeHop?.kind === 'fee' ? feeHop.fee : undefined;
  if (fee !== undefined && fee > 0 && !step.integrator) invalid('/integrator', 'requiresIntegrator', 'body field /integrator is missing: the step collects an integrator fee');
  const deposit = sending.transaction === 'svmBridgeDeposit';
  if (deposit && feeHop) invalid(`${feeHop.field}/tool`, 'sendingChainCollectsFees', `body field ${feeHop.field}: integrator fees are collected by the service's fee collector, which runs on EVM chains only; sending from ${fromChain.name} (${fromChain.id}) takes no fee yet`);

  // A destination gas refuel (fromAmountForGas) follows the main transfer's steps: priced as its own leg, merged as the finder does.
  const { main, refuel } = splitRefuel(step.hops, fromChain.id);
  const refuelAmount = refuel.length > 0 ? hopAmount(refuel[0]) : 0n;
  if (deposit && refuel.length > 0) invalid(`${refuel[0].field}`, 'sendingChainRefuels', `body field ${refuel[0].field}: a refuel is a second leg of the router's transaction, which runs on EVM chains only; sending from ${fromChain.name} (${fromChain.id}) cannot refuel yet`);
  if (refuelAmount >= step.fromAmount) invalid(`${refuel[0]?.field ?? '/includedSteps'}/action/fromAmount`, 'refuel', 'body field /includedSteps: the gas refuel takes the whole fromAmount');
  const request: RouteRequest = {
    fromChain, toChain, fromToken, toToken,
    amount: step.fromAmount - refuelAmount,
    mode: 'exactIn',
    fromAddress: step.fromAddress,
    toAddress: step.toAddress ?? step.fromAddress,
    order: 'CHEAPEST',
    slippage: step.slippage,
    fee,
    integrator: step.integrator,
    referrer: step.referrer,
    bridges: {},
    exchanges: {},
    allowDestinationCall: true,
    allowSwitchChain: false,
    maxPriceImpact: DEFAULT_MAX_PRICE_IMPACT,
    maxRoutes: 1,
    ...(deposit ? { svmPriorityFeeLevel: step.svmPriorityFeeLevel ?? DEFAULT_PRIORITY_FEE_LEVEL } : {}),
  };
  let route: Route;
  try {
    const evaluation = evaluateHops(graph, request, main);
    if (!evaluation.ok) return unpriceable(evaluation.message, evaluation.code, evaluation.tool);
    route = evaluation.route;
    if (refuel.length > 0) {
      const refuelRequest: RouteRequest = { ...request, amount: refuelAmount, toToken: toChain.nativeToken, fee: undefined };
      const gas = evaluateHops(graph, refuelRequest, refuel);
      if (!gas.ok) return unpriceable(`gas refuel (fromAmountForGas): ${gas.message}`, gas.code, gas.tool);
      const merged = withRefuel({ ...request, amount: step.fromAmount, fromAmountForGas: refuelAmount }, { routes: [route], unavailable: { filteredOut: [], failed: [] } }, gas.route, () => step.id);
      route = merged.routes[0];
    }
    route = { ...route, id: step.id };
  } catch (error) {
    if (error instanceof Unpriceable) return unpriceable(error.message, error.code, error.tool);
    throw error;
  }
  const tx = route.transactions[0];
  if (tx.toAmount < step.toAmountMin) {
    throw new SlippageMovedError(
      `The re-priced step returns ${tx.toAmount}, below its toAmountMin ${step.toAmountMin} (slippage ${route.slippage}). Request new routes.`,
      { toAmount: tx.toAmount.toString(), toAmountMin: step.toAmountMin.toString() },
    );
  }
  return { ok: true, route };
}

/** Splits the hops after the main transfer's bridge and its destination swaps: what follows is the gas refuel leg. */
function splitRefuel(hops: readonly StepHop[], sourceChainId: number): { main: readonly StepHop[]; refuel: readonly StepHop[] } {
  const cross = hops.findIndex((h) => h.kind === 'cross');
  if (cross < 0) return { main: hops, refuel: [] };
  let end = cross + 1;
  while (end < hops.length) {
    const hop = hops[end];
    if (hop.kind !== 'swap' || hop.chainId === sourceChainId) break;
    end += 1;
  }
  return { main: hops.slice(0, end), refuel: hops.slice(end) };
}

function hopAmount(hop: StepHop): bigint {
  if (hop.kind === 'fee') invalid(hop.field, 'order', `body field ${hop.field}: the fee collection must be the first included step`);
  return hop.fromAmount;
}

/** Evaluates one leg's hops (fee, source paths, at most one bridge, destination path) for `request` with the routing core. */
function evaluateHops(graph: RoutingGraph, request: RouteRequest, hops: readonly StepHop[]) {
  const { catalog } = graph;
  const { fromChain, toChain, fromToken, toToken } = request;

  // The plan: source paths (a new path starts where a hop does not continue the previous one), bridge, destination path.
  const sources: { path: SwapPath; first: bigint }[] = [];
  let bridge: BridgeRoute | undefined;
  let destination: SwapPath | undefined;
  let current: { chainId: number; token: string; edges: SwapEdge[]; first: bigint; start: string } | undefined;
  const flush = () => {
    if (!current) return;
    const path = unpricedPath(current.chainId, current.start, current.edges);
    if (bridge) destination = replayPath(path, current.first, new Map()) ?? path;
    else sources.push({ path, first: current.first });
    current = undefined;
  };
  let expectedChain = fromChain.id;
  for (const hop of hops) {
    if (hop.kind === 'fee') {
      if (bridge || current || sources.length > 0) invalid(hop.field, 'order', `body field ${hop.field}: the fee collection must be the first included step`);
      continue;
    }
    if (hop.kind === 'cross') {
      if (bridge) invalid(hop.field, 'singleBridge', `body field ${hop.field}: a step crosses chains at most once`);
      flush();
      bridge = bridgeRouteOf(graph, hop);
      expectedChain = hop.toChainId;
      if (hop.fromChainId !== fromChain.id || hop.toChainId !== toChain.id) {
        invalid(hop.field, 'chains', `body field ${hop.field} bridges ${hop.fromChainId}→${hop.toChainId}, but the step goes ${fromChain.id}→${toChain.id}`);
      }
      continue;
    }
    if (hop.chainId !== expectedChain) invalid(`${hop.field}/action/fromChainId`, 'chain', `body field ${hop.field}/action/fromChainId is ${hop.chainId}; this swap must run on chain ${expectedChain}`);
    const from = catalog.addressKey(hop.chainId, hop.fromToken);
    const to = catalog.addressKey(hop.chainId, hop.toToken);
    if (!current || current.token !== from) {
      flush();
      current = { chainId: hop.chainId, token: from, edges: [], first: hop.fromAmount, start: from };
      if (bridge && destination) invalid(hop.field, 'order', `body field ${hop.field}: the destination swaps must form one path`);
    }
    current.edges.push(edgeOf(graph, hop, from, to));
    current.token = to;
  }
  flush();

  // The source paths take exactly what is left after the integrator fee (split parts included).
  const { rest } = takeFee(request.amount, fractionToPpm(request.fee ?? 0, 'up'));
  const taken = sources.reduce((sum, { first }) => sum + first, 0n);
  if (sources.length > 0 && taken !== rest) {
    invalid('/includedSteps', 'amounts', `body field /includedSteps: the source swaps take ${taken} in all, but ${rest} is left to swap after the integrator fee`);
  }
  // Every path starts from what the previous leg delivers.
  const start = catalog.addressKey(fromChain.id, fromToken.address);
  for (const { path } of sources) if (path.fromToken !== start) invalid('/includedSteps', 'connected', `body field /includedSteps: a source swap starts from ${tokenSymbol(graph, path.chainId, path.fromToken)}, not from the step's fromToken ${fromToken.symbol}`);
  const last = catalog.addressKey(toChain.id, toToken.address);
  const lastToken = destination?.toToken ?? bridge?.toToken ?? sources[sources.length - 1]?.path.toToken;
  if (bridge && sources.length > 0 && sources.some(({ path }) => path.toToken !== bridge!.fromToken)) {
    invalid('/includedSteps', 'connected', `body field /includedSteps: the source swaps do not end in the token the ${bridge.bridge} bridge sends`);
  }
  if (bridge && sources.length === 0 && bridge.fromToken !== start) invalid('/includedSteps', 'connected', `body field /includedSteps: the ${bridge.bridge} bridge does not send the step's fromToken ${fromToken.symbol}`);
  if (lastToken !== last) invalid('/includedSteps', 'connected', `body field /includedSteps: the included steps do not end in the step's toToken ${toToken.symbol}`);

  const plan: RoutePlan = {
    sources: shares(sources),
    bridge,
    destination,
    destinationSeparate: false,
  };
  return evaluatePlan(graph, request, plan, request.amount, new Map());
}

/** The split shares (ppm) that give each path exactly its submitted input amount; the last path takes the rest. */
function shares(sources: readonly { path: SwapPath; first: bigint }[]): RoutePlan['sources'] {
  if (sources.length <= 1) return sources.map(({ path }) => ({ path, sharePpm: PPM }));
  const total = sources.reduce((s, p) => s + p.first, 0n);
  return sources.map(({ path, first }, k) => ({
    path,
    // ceil(first·1e6/total) is the least share whose floor(total·share/1e6) reaches `first`: exact whenever any share is.
    sharePpm: k === sources.length - 1 ? PPM - sources.slice(0, -1).reduce((s, p) => s + ceilShare(p.first, total), 0n) : ceilShare(first, total),
  }));
}

function ceilShare(part: bigint, total: bigint): bigint {
  return total === 0n ? 0n : (part * PPM + total - 1n) / total;
}

/** A path with its edges and no price yet (amountIn −1 makes replayPath price it). */
function unpricedPath(chainId: number, fromToken: string, edges: readonly SwapEdge[]): SwapPath {
  const legs: SwapLeg[] = edges.map((edge) => ({ edge, amountIn: 0n, amountOut: 0n, gasUnits: 0n }));
  return { chainId, fromToken, toToken: edges[edges.length - 1].to, amountIn: -1n, amountOut: 0n, legs, gasUnits: 0n };
}

function edgeOf(graph: RoutingGraph, hop: Extract<StepHop, { kind: 'swap' }>, from: string, to: string): SwapEdge {
  const edges = graph.edgesFrom(hop.chainId, from);
  if (hop.poolId === undefined) {
    const wrap = edges.find((e) => e.kind !== 'pool' && e.to === to);
    if (!wrap) invalid(`${hop.field}/estimate/data/poolId`, 'required', `body field ${hop.field}/estimate/data/poolId is missing: the swap ${tokenSymbol(graph, hop.chainId, from)}→${tokenSymbol(graph, hop.chainId, to)} is no wrap`);
    return wrap!;
  }
  const edge = edges.find((e) => e.kind === 'pool' && e.pool.id === hop.poolId && e.to === to);
  if (!edge) {
    throw new Unpriceable(`pool ${hop.poolId} (${hop.field}) no longer trades ${tokenSymbol(graph, hop.chainId, from)} for ${tokenSymbol(graph, hop.chainId, to)} on chain ${hop.chainId}`, 'NO_POSSIBLE_ROUTE', hop.tool);
  }
  if (edge.kind === 'pool' && edge.pool.exchange !== hop.tool) {
    invalid(`${hop.field}/tool`, 'poolExchange', `body field ${hop.field}/tool is ${hop.tool}, but pool ${hop.poolId} belongs to ${edge.pool.exchange}`);
  }
  return edge;
}

function bridgeRouteOf(graph: RoutingGraph, hop: Extract<StepHop, { kind: 'cross' }>): BridgeRoute {
  const from = graph.catalog.addressKey(hop.fromChainId, hop.fromToken);
  const to = graph.catalog.addressKey(hop.toChainId, hop.toToken);
  const route = graph.bridgesFrom(hop.fromChainId, from).find((r) => r.bridge === hop.bridge && r.toChainId === hop.toChainId && r.toToken === to);
  if (!route) {
    throw new Unpriceable(`${hop.bridge} no longer moves ${tokenSymbol(graph, hop.fromChainId, hop.fromToken)} from ${hop.fromChainId} to ${hop.toChainId} (${hop.field})`, 'NO_POSSIBLE_ROUTE', hop.bridge);
  }
  return route;
}

function chainOf(graph: RoutingGraph, id: number, field: string): Chain {
  const chain = graph.catalog.getChain(id);
  if (!chain) invalid(field, 'knownChain', `body field ${field}: chain ${id} is not a supported chain; GET /v1/chains lists them`);
  return chain!;
}

function tokenOf(graph: RoutingGraph, chain: Chain, address: string, field: string): Token {
  const token = graph.catalog.findToken(chain.id, address);
  if (!token) invalid(field, 'knownToken', `body field ${field}: ${address} is not a known token on ${chain.name} (${chain.id})`);
  return token!;
}

function tokenSymbol(graph: RoutingGraph, chainId: number, address: string): string {
  return graph.catalog.findToken(chainId, address)?.symbol ?? address;
}

function invalid(field: string, rule: string, message: string): never {
  throw new InvalidRequestError(message, { issues: [{ name: field, rule, message }] });
}
