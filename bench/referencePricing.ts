/**
 * The brute force's own pricing of a route (bench only; the service never uses it).
 *
 * A route is given by its hops (RouteSpec: source pool/wrap edges, at most one bridge route, destination edges) and
 * priced here from the documented models (docs/api.md "Routing", ../shared/reference/routing-models.md), without any of
 * the service's composition code (evaluatePlan, pricePlan, netValue, swap-path replay, hop quoting, pricing.ts):
 *
 *  1. integrator fee: fee = floor(fromAmount · feePpm / 1e6), feePpm = the request's fee fraction in ppm rounded up
 *     (amounts.ts fractionToPpm, the parameter's parsing); what is swapped is fromAmount − fee;
 *  2. source swap: hop by hop with the protocol math of src/core/math (constant product getAmountOut, concentrated
 *     liquidity over the snapshot's tick window — leaving the window means no liquidity — and StableSwap get_dy);
 *     wraps are 1:1; a hop that gives nothing ends the route;
 *  3. bridge: bridge.ts bridgeOut (fixed + proportional + relayer destination gas, min/max), then the arrival moved
 *     from the sent token's decimals to the received token's (rounded down);
 *  4. destination call (a destination swap runs inside the bridge transaction): its gas is the destination hops'
 *     gas priced at the amount that arrives plus the call's own; the relayer charges it in the bridged token at
 *     reference prices, rounded up (the fee must cover the gas): ceil(gas · gasPrice · pNative · 10^dec /
 *     (pToken · 10^nativeDecimals)); the swap then runs on what is left;
 *  5. gas of the (single) user transaction: router base + first-use allowance + fee collection (when a fee is taken)
 *     + every source hop (per kind; concentrated: per tick crossed too) + the bridge route's own gas units;
 *  6. USD: amount · priceUSD / 10^decimals (catalog prices; gas in the chain's native coin), net value = toUSD −
 *     fromUSD − gas USD − fees paid on top (a messaging bridge's native fee); price impact = 1 − toUSD / (fromUSD −
 *     fees already taken from the amount: integrator fee, bridge fees, destination-call fee).
 *
 * `disagreements` compares such an estimate with the route the service reports for the same hops: amounts and
 * gas exactly, USD figures within float noise.
 */
import type { Token } from '../src/core/entities';
import type { BridgeRoute, ConcentratedPoolState, StableswapPoolState } from '../src/core/liquidity/snapshot';
import { fractionToPpm } from '../src/core/math/amounts';
import { bridgeOut } from '../src/core/math/bridge';
import { exactInputOutcome, tickSqrtRatios } from '../src/core/math/concentrated';
import { getAmountOut } from '../src/core/math/constantProduct';
import { getDyOf, stateOf, type StableswapState } from '../src/core/math/stableswap';
import type { PoolEdge, RoutingGraph, SwapEdge } from '../src/core/routing/graph';
import type { Route, RouteRequest } from '../src/core/routing/route';

/**
 * Gas units, as documented (pricing.ts ROUTER_BASE_GAS / FIRST_USE_GAS / FEE_COLLECTION_GAS, evaluate.ts
 * DESTINATION_CALL_GAS, graph.ts WRAP_GAS, poolQuote.ts SWAP_CALL_GAS and HOP_GAS, after routing-models.md "Gas units"
 * for the exchanges' own cost: constant product ~50–60k a hop, concentrated 80k + 31k per tick crossed, stableswap
 * ~120k). Since the router runs every SwapData in its swap executor (issue 32, contracts/router/Router.sol), each
 * SwapData — a pool hop, a wrap or unwrap, the integrator fee's collection — costs 60k more than its own work (the
 * input handed to the executor, its exact approval and reset, the output swept back, the balance checks), and the
 * router's base is 75k (was 65k) for its balance ledger. Where these are measured: eth_estimateGas on the sandbox's
 * router, 40–65k per SwapData over the exchange's own cost (poolQuote.ts SWAP_CALL_GAS, commit d31a651); the
 * first-use allowance likewise on the sandbox contracts (pricing.ts FIRST_USE_GAS). Declared here, not imported:
 * the unit test asserts that each equals the service's, so a silent change on either side shows.
 */
export const GAS = {
  /** Intrinsic transaction gas plus the router's own work (dispatch, checks, event, balance ledger), per transaction. */
  routerBase: 75_000n,
  /** Allowance for first-time storage writes, per transaction (docs/sandbox.md: FIRST_USE_GAS). */
  firstUse: 65_000n,
  /** The integrator fee collection step, when a fee is taken: the fee collector's 35k + 60k per SwapData. */
  feeCollection: 95_000n,
  /** The destination call around its swaps (receiver contract, checks, transfer). */
  destinationCall: 50_000n,
  /** A wrap or unwrap of the native coin: the wrapped token's 30k + 60k per SwapData. */
  wrap: 90_000n,
  /** A constant-product hop: the pool's 60k + 60k per SwapData. */
  constantProduct: 120_000n,
  /** A concentrated-liquidity hop: the pool's 80k + 60k per SwapData, plus tickCrossed per tick crossed. */
  concentrated: 140_000n,
  /** Per tick a concentrated hop crosses (the pool's own work: not a SwapData of its own). */
  tickCrossed: 31_000n,
  /** A StableSwap hop: the pool's 120k + 60k per SwapData. */
  stableswap: 180_000n,
} as const;

const PPM = 1_000_000n;

/** A route by its hops: what the brute force enumerates and what both pricings are asked about. */
export interface RouteSpec {
  /** Pool and wrap hops on the source chain, from the request's fromToken (empty: no source swap). */
  readonly source: readonly SwapEdge[];
  readonly bridge?: BridgeRoute;
  /** Hops on the destination chain from the bridge's received token (only with a bridge). */
  readonly destination: readonly SwapEdge[];
}

export type HopQuote = { readonly ok: true; readonly amountOut: bigint; readonly gasUnits: bigint } | { readonly ok: false };

/** Per-request memo of pool-hop quotes: by edge, then by input amount. */
export type HopMemo = Map<PoolEdge, Map<bigint, HopQuote>>;

const NO_OUTPUT: HopQuote = { ok: false };

const stableStates = new WeakMap<StableswapPoolState, StableswapState>();
const sqrtRatios = new WeakMap<ConcentratedPoolState, readonly bigint[]>();

/** One pool hop, exact input, with the protocol's math; its gas by pool kind. */
export function quotePoolHop(edge: PoolEdge, amountIn: bigint): HopQuote {
  if (amountIn <= 0n) return NO_OUTPUT;
  const { pool, i, j } = edge;
  switch (pool.kind) {
    case 'constantProduct': {
      const out = getAmountOut(amountIn, pool.reserves[i], pool.reserves[j], pool.feePpm);
      return out > 0n ? { ok: true, amountOut: out, gasUnits: GAS.constantProduct } : NO_OUTPUT;
    }
    case 'concentrated': {
      let ratios = sqrtRatios.get(pool);
      if (!ratios) sqrtRatios.set(pool, (ratios = tickSqrtRatios(pool.v3)));
      const q = exactInputOutcome(pool.v3, i === 0, amountIn, ratios); // token0 is pool.tokens[0]
      if (q.exhausted || q.amountOut <= 0n) return NO_OUTPUT; // past the tick window nothing is known: no liquidity
      return { ok: true, amountOut: q.amountOut, gasUnits: GAS.concentrated + GAS.tickCrossed * BigInt(q.ticksCrossed) };
    }
    case 'stableswap': {
      let state = stableStates.get(pool);
      if (!state) stableStates.set(pool, (state = stateOf(pool.balances, pool.rates, pool.amp)));
      const out = getDyOf(state, i, j, amountIn, pool.feeE10);
      return out > 0n ? { ok: true, amountOut: out, gasUnits: GAS.stableswap } : NO_OUTPUT;
    }
  }
}

/** quotePoolHop through the memo. */
export function quoteHopMemo(memo: HopMemo, edge: PoolEdge, amountIn: bigint): HopQuote {
  let byAmount = memo.get(edge);
  if (!byAmount) memo.set(edge, (byAmount = new Map()));
  let quote = byAmount.get(amountIn);
  if (!quote) byAmount.set(amountIn, (quote = quotePoolHop(edge, amountIn)));
  return quote;
}

export interface PricedPath {
  readonly amountIn: bigint;
  readonly amountOut: bigint;
  readonly gasUnits: bigint;
}

/** A sequence of hops priced forward for an input; undefined when a hop cannot take its input. */
export function pricePath(edges: readonly SwapEdge[], amountIn: bigint, memo: HopMemo): PricedPath | undefined {
  let amount = amountIn;
  let gasUnits = 0n;
  for (const edge of edges) {
    if (edge.kind !== 'pool') {
      gasUnits += GAS.wrap; // 1:1
      continue;
    }
    const quote = quoteHopMemo(memo, edge, amount);
    if (!quote.ok) return undefined;
    amount = quote.amountOut;
    gasUnits += quote.gasUnits;
  }
  return { amountIn, amountOut: amount, gasUnits };
}

/** The integrator fee taken from the sent amount (rounded down) and what is left to swap. */
export function integratorFee(request: RouteRequest): { readonly fee: bigint; readonly rest: bigint } {
  const fee = (request.amount * fractionToPpm(request.fee ?? 0, 'up')) / PPM; // rounds down
  return { fee, rest: request.amount - fee };
}

/** The same asset moved to another token's decimals, rounded down. */
export function rescaleDecimals(amount: bigint, fromDecimals: number, toDecimals: number): bigint {
  return toDecimals >= fromDecimals ? amount * 10n ** BigInt(toDecimals - fromDecimals) : amount / 10n ** BigInt(fromDecimals - toDecimals);
}

/** USD of a raw amount at the token's catalog price (a float: ranking and display only). */
export function usdOf(amount: bigint, token: Token): number {
  return (Number(amount) * Number(token.priceUSD)) / 10 ** token.decimals;
}

/** A decimal text ("3250.00", "1.2e-7") as mantissa · 10^exponent, exactly. */
function decimal(text: string): { mantissa: bigint; exponent: number } {
  const m = /^\s*(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/.exec(text);
  if (!m || (m[1] ?? '') + (m[2] ?? '') === '') throw new Error(`referencePricing: not a decimal price: "${text}"`);
  return { mantissa: BigInt((m[1] ?? '') + (m[2] ?? '') || '0'), exponent: Number(m[3] ?? 0) - (m[2] ?? '').length };
}

/** `wei` of native coin as an amount of `token` at reference prices, rounded up; 0 when the token has no price. */
export function weiInToken(wei: bigint, native: Token, token: Token): bigint {
  const pn = decimal(native.priceUSD);
  const pt = decimal(token.priceUSD);
  if (pt.mantissa === 0n) return 0n;
  let num = wei * pn.mantissa * 10n ** BigInt(token.decimals);
  let den = pt.mantissa * 10n ** BigInt(native.decimals);
  const shift = pn.exponent - pt.exponent;
  if (shift >= 0) num *= 10n ** BigInt(shift);
  else den *= 10n ** BigInt(-shift);
  return (num + den - 1n) / den; // rounds up
}

export interface RouteEstimate {
  readonly spec: RouteSpec;
  /** Written as the service writes it, e.g. 8453:USDC~8453:ETH-across-137:WETH. */
  readonly overallPath: string;
  /** Pools (without chain), wrap and [bridge] in order, for display. */
  readonly hops: readonly string[];
  readonly fromAmount: bigint;
  readonly integratorFee: bigint;
  /** Output of the source swap (what is bridged; toAmount on one chain). */
  readonly bridged: bigint;
  /** What arrives on the destination chain, in the received token's units. */
  readonly arrived: bigint;
  readonly bridgeFees?: { readonly fixed: bigint; readonly proportional: bigint; readonly destinationGas: bigint };
  readonly destinationCallFee: bigint;
  readonly toAmount: bigint;
  /** Gas units of the user's transaction (source chain). */
  readonly gasUnits: bigint;
  readonly fromAmountUSD: number;
  readonly toAmountUSD: number;
  readonly gasCostUSD: number;
  readonly extraFeesUSD: number;
  readonly includedFeesUSD: number;
  readonly priceImpact: number;
  readonly netValueUSD: number;
}

export type PricedRoute = { readonly ok: true; readonly estimate: RouteEstimate } | { readonly ok: false; readonly reason: string };

/** Prices a route from its hops, forward, as documented (see the file's header). Exact input. */
export function priceRoute(graph: RoutingGraph, request: RouteRequest, spec: RouteSpec, memo: HopMemo): PricedRoute {
  const { fromChain, toChain, fromToken, toToken } = request;
  const fail = (reason: string): PricedRoute => ({ ok: false, reason });
  const { fee, rest } = integratorFee(request);
  const source = pricePath(spec.source, rest, memo);
  if (!source) return fail('a source hop cannot take its input');

  let arrived = source.amountOut;
  let bridgeFees: RouteEstimate['bridgeFees'];
  let sent: Token | undefined;
  let received: Token | undefined;
  if (spec.bridge) {
    const quote = bridgeOut(source.amountOut, spec.bridge);
    if (!quote.ok) return fail(`bridge: ${quote.reason}`);
    sent = graph.token(spec.bridge.fromChainId, spec.bridge.fromToken);
    received = graph.token(spec.bridge.toChainId, spec.bridge.toToken);
    arrived = rescaleDecimals(quote.amountOut, sent.decimals, received.decimals);
    bridgeFees = quote.fees;
  }

  let toAmount = arrived;
  let callFee = 0n;
  if (spec.destination.length > 0) {
    if (!spec.bridge || !received) return fail('a destination swap needs a bridge');
    const atArrival = pricePath(spec.destination, arrived, memo);
    if (!atArrival) return fail('a destination hop cannot take the amount that arrives');
    callFee = weiInToken((atArrival.gasUnits + GAS.destinationCall) * (graph.gas(toChain.id)?.gasPriceWei ?? 0n), toChain.nativeToken, received);
    if (callFee >= arrived) return fail('the destination call fee exceeds what arrives');
    const swap = pricePath(spec.destination, arrived - callFee, memo);
    if (!swap) return fail('a destination hop cannot take its input');
    toAmount = swap.amountOut;
  }
  if (toAmount <= 0n) return fail('nothing arrives');

  const gasUnits = GAS.routerBase + GAS.firstUse + (fee > 0n ? GAS.feeCollection : 0n) + source.gasUnits + (spec.bridge?.gasUnits ?? 0n);
  const gasCostUSD = usdOf(gasUnits * (graph.gas(fromChain.id)?.gasPriceWei ?? 0n), fromChain.nativeToken);
  const extraFeesUSD = spec.bridge ? usdOf(spec.bridge.nativeFee, fromChain.nativeToken) : 0;
  let includedFeesUSD = usdOf(fee, fromToken);
  if (bridgeFees && sent) includedFeesUSD += usdOf(bridgeFees.fixed + bridgeFees.proportional + bridgeFees.destinationGas, sent);
  if (received) includedFeesUSD += usdOf(callFee, received);
  const fromAmountUSD = usdOf(request.amount, fromToken);
  const toAmountUSD = usdOf(toAmount, toToken);
  const valueIn = fromAmountUSD - includedFeesUSD;
  return {
    ok: true,
    estimate: {
      spec,
      overallPath: overallPath(graph, request, spec),
      hops: hopNames(spec),
      fromAmount: request.amount,
      integratorFee: fee,
      bridged: source.amountOut,
      arrived,
      bridgeFees,
      destinationCallFee: callFee,
      toAmount,
      gasUnits,
      fromAmountUSD,
      toAmountUSD,
      gasCostUSD,
      extraFeesUSD,
      includedFeesUSD,
      priceImpact: valueIn > 0 ? Math.max(0, 1 - toAmountUSD / valueIn) : 1,
      netValueUSD: toAmountUSD - fromAmountUSD - gasCostUSD - extraFeesUSD,
    },
  };
}

function overallPath(graph: RoutingGraph, request: RouteRequest, spec: RouteSpec): string {
  const from = request.fromChain.id;
  let text = `${from}:${request.fromToken.symbol}` + spec.source.map((e) => `~${from}:${graph.token(from, e.to).symbol}`).join('');
  if (spec.bridge) {
    const to = spec.bridge.toChainId;
    text += `-${spec.bridge.bridge}-${to}:${graph.token(to, spec.bridge.toToken).symbol}` + spec.destination.map((e) => `~${to}:${graph.token(to, e.to).symbol}`).join('');
  }
  return text;
}

function hopNames(spec: RouteSpec): string[] {
  const name = (e: SwapEdge) => (e.kind === 'pool' ? e.pool.id.split(':').slice(1).join(':') : e.kind);
  return [...spec.source.map(name), ...(spec.bridge ? [`[${spec.bridge.bridge}]`] : []), ...spec.destination.map(name)];
}

/**
 * Where the service's route for the same hops disagrees with the estimate (empty: they agree): path, amounts,
 * fees and gas units exactly; USD figures and price impact within float noise (the service rounds USD to 1e-9).
 */
export function disagreements(estimate: RouteEstimate, route: Route): string[] {
  const out: string[] = [];
  const exact = (what: string, ours: bigint | string | undefined, theirs: bigint | string | undefined) => {
    if (ours !== theirs) out.push(`${what}: ${String(ours)} here, ${String(theirs)} by the service`);
  };
  const scale = estimate.fromAmountUSD + estimate.toAmountUSD;
  const close = (what: string, ours: number, theirs: number, tolerance = 1e-8 + 1e-12 * scale) => {
    if (!(Math.abs(ours - theirs) <= tolerance)) out.push(`${what}: ${ours} here, ${theirs} by the service`);
  };
  exact('overallPath', estimate.overallPath, route.overallPath);
  exact('fromAmount', estimate.fromAmount, route.fromAmount);
  exact('integratorFee', estimate.integratorFee, route.integratorFee);
  exact('toAmount', estimate.toAmount, route.toAmount);
  if (estimate.spec.bridge) {
    exact('bridged', estimate.bridged, route.bridge?.amountIn);
    exact('arrived', estimate.arrived, route.bridge?.amountOut);
    exact('bridge fixed fee', estimate.bridgeFees?.fixed, route.bridge?.fees.fixed);
    exact('bridge proportional fee', estimate.bridgeFees?.proportional, route.bridge?.fees.proportional);
    exact('bridge destination gas fee', estimate.bridgeFees?.destinationGas, route.bridge?.fees.destinationGas);
    const callFee = route.transactions[0]?.feeCosts.find((c) => c.name === 'Destination swap gas')?.amount ?? 0n;
    exact('destination call fee', estimate.destinationCallFee, callFee);
  }
  exact('transactions', '1', String(route.transactions.length));
  exact('gas units', estimate.gasUnits, route.transactions[0]?.gasCost.estimate);
  close('fromAmountUSD', estimate.fromAmountUSD, route.fromAmountUSD);
  close('toAmountUSD', estimate.toAmountUSD, route.toAmountUSD);
  close('gasCostUSD', estimate.gasCostUSD, route.gasCostUSD);
  close('extraFeesUSD', estimate.extraFeesUSD, route.extraFeesUSD);
  close('net value', estimate.netValueUSD, route.toAmountUSD - route.fromAmountUSD - route.gasCostUSD - route.extraFeesUSD);
  const valueIn = Math.max(estimate.fromAmountUSD - estimate.includedFeesUSD, 1e-9);
  close('priceImpact', estimate.priceImpact, route.priceImpact ?? Number.NaN, 1e-9 + (4e-9 + 1e-12 * scale) / valueIn);
  return out;
}
