/**
 * Builds a route from a plan's priced amounts (evaluate.ts): its included steps (the integrator fee collection,
 * each swap hop, the bridge), its transactions (one, or two when the destination swap follows a chain switch),
 * their fee and gas costs, and the overallPath that names it in routes and in no-route reasons.
 */
import type { Chain, Token } from '../entities';
import { familyOf } from '../chains/families';
import type { DepositCost } from '../chains/solana/deposit';
import { DEFAULT_PRIORITY_FEE_LEVEL, routeDepositCost, routeDepositOf } from './solanaDeposit';
import type { BridgeRoute } from '../liquidity/snapshot';
import { applySlippageFloor } from '../math/amounts';
import type { BridgeFees } from '../math/bridge';
import { PPM } from '../math/rational';
import type { RoutingGraph } from './graph';
import { FIRST_USE_GAS, ROUTER_BASE_GAS, gasCost, ppmToFraction, usd } from './pricing';
import type { SwapPath } from './swapPath';
import type { FeeCost, GasCost, PlannedStep, PricedAmounts, Route, RouteRequest, RouteTransaction } from './route';

/** Builds the full route (steps, transactions, fee and gas costs) of priced amounts. */
export function assembleRoute(graph: RoutingGraph, request: RouteRequest, amounts: PricedAmounts): Route {
  const { fromChain, toChain, fromToken, toToken } = request;
  const { plan, fromAmount, feePpm, integratorFee, relayFee, rest, slippage, slippagePpm, sources, bridged, arrived, bridgeFees, destination, destinationCallFee, toAmount } = amounts;
  const bridgedToken = plan.bridge ? graph.token(toChain.id, plan.bridge.toToken) : undefined;
  const toGas = graph.gas(toChain.id);
  // Steps and transactions.
  const fromGas = graph.gas(fromChain.id);
  const feeCosts: FeeCost[] = [];
  const steps1: PlannedStep[] = [];
  const collected: FeeCost[] = [];
  if (integratorFee > 0n) {
    collected.push({
      name: 'Integrator fee',
      description: `Fee of integrator ${request.integrator ?? '(unnamed)'}, taken from the sent amount`,
      percentage: ppmToFraction(feePpm),
      token: fromToken,
      amount: integratorFee,
      amountUSD: usd(integratorFee, fromToken),
      included: true,
    });
  }
  if (relayFee > 0n) {
    collected.push({
      name: 'Gasless relay fee',
      description: `The relayer's gas for sending the transaction on ${fromChain.name}, paid in ${fromToken.symbol}, taken from the sent amount`,
      percentage: ratio(relayFee, fromAmount),
      token: fromToken,
      amount: relayFee,
      amountUSD: usd(relayFee, fromToken),
      included: true,
    });
  }
  if (collected.length > 0) {
    feeCosts.push(...collected);
    steps1.push({ ...step('protocol', 'feeCollection', fromChain.id, fromChain.id, fromToken, fromToken, fromAmount, rest, 0, collected), ...(relayFee > 0n ? { serviceFee: relayFee } : {}) });
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
      gasCost: sendingGasCost(graph, request, steps1, fromGas?.gasPriceWei ?? 0n, sourceGas, applySlippageFloor(firstToAmount, slippagePpm)),
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
    // the ranking (evaluate.ts) counts gas in wei: a Solana deposit's lamports join the route's figure here
    gasCostUSD: amounts.gasCostUSD + solanaGasUSD(request, transactions[0]),
    extraFeesUSD,
    priceImpact,
    durationSeconds: amounts.durationSeconds,
    containsSwitchChain: transactions.length > 1,
    transactions,
    source: sources[0],
    bridge: plan.bridge && bridgeFees ? { route: plan.bridge, amountIn: bridged, amountOut: arrived, fees: bridgeFees } : undefined,
    destination,
    integratorFee,
    relayFee,
    preferred: false,
    tags: [],
    overallPath,
  };
  return route;
}

/**
 * The gas cost of the first transaction: gas × price on chains where the service's router runs (evmRouterCall); on
 * Solana the deposit's fee in lamports (src/core/routing/solanaDeposit.ts): price = compute unit price in micro-lamports, estimate =
 * limit = the compute unit limit the transaction requests, amount = base fee + priority fee (5,000 lamports per
 * signature + ceil(limit × price / 10⁶)), at the request's priority fee level and the level's fixed price (the
 * transaction built in chain mode prices it at the cluster's recent fees, and its step says so).
 */
function sendingGasCost(graph: RoutingGraph, request: RouteRequest, steps: readonly PlannedStep[], gasPriceWei: bigint, gasUnits: bigint, toAmountMin: bigint): GasCost {
  const { fromChain } = request;
  const sending = familyOf(fromChain).sending;
  if (!sending.supported || sending.transaction === 'evmRouterCall') return gasCost(fromChain, gasPriceWei, gasUnits);
  const deposit = routeDepositOf(graph.catalog, fromChain, steps);
  const receiver = request.toAddress === undefined ? undefined : receiverOf(graph, deposit.destinationChainId, request.toAddress);
  const cost = routeDepositCost(graph.catalog, deposit, receiver, toAmountMin, request.svmPriorityFeeLevel ?? DEFAULT_PRIORITY_FEE_LEVEL);
  return svmGasCost(fromChain, cost);
}

/** A Solana deposit's cost as a GasCost (see sendingGasCost). */
export function svmGasCost(chain: Chain, cost: DepositCost): GasCost {
  const amount = cost.fees.baseFee + cost.fees.priorityFee + cost.fees.rent;
  return {
    type: 'SEND',
    chainId: chain.id,
    price: cost.computeUnitPriceMicroLamports,
    estimate: BigInt(cost.computeUnitLimit),
    limit: BigInt(cost.computeUnitLimit),
    amount,
    amountUSD: usd(amount, chain.nativeToken),
    token: chain.nativeToken,
  };
}

/** The receiver's bytes for the memo, when the address is one of the destination's family (else the builder refuses it). */
function receiverOf(graph: RoutingGraph, chainId: number, address: string): string | undefined {
  const chain = graph.catalog.getChain(chainId);
  const family = chain ? familyOf(chain) : undefined;
  const parsed = family?.parseAddress(address);
  return parsed === undefined ? undefined : family!.receiverBytes(parsed);
}

function solanaGasUSD(request: RouteRequest, tx: RouteTransaction): number {
  const sending = familyOf(request.fromChain).sending;
  return sending.supported && sending.transaction === 'svmBridgeDeposit' ? tx.gasCost.amountUSD : 0;
}

/** The overallPath that assembleRoute gives priced amounts, without building the route (for candidates left out). */
export function overallPathOf(graph: RoutingGraph, request: RouteRequest, amounts: PricedAmounts): string {
  return describePlan(graph, request, amounts.sources, amounts.plan.bridge, amounts.destination);
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
  return ppmToFraction((a * PPM) / b);
}

function mainExchange(paths: readonly SwapPath[]): string {
  for (const path of paths) for (const leg of path.legs) if (leg.edge.kind === 'pool') return leg.edge.pool.exchange;
  return 'wrapper';
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
