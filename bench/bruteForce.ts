/**
 * Exhaustive reference search for the routing benchmark (bench only; the service never uses it).
 *
 * Route shape, as the service defines it: [source swap, at most `maxHops` pool hops, wraps/unwraps free]
 * → [at most one bridge] → [destination swap, at most `maxHops` pool hops], one path, no split. Every simple
 * path (no token twice, no pool twice) is walked with RoutingGraph.edgesFrom; every bridge route between the
 * two chains is tried with bridgeOut (min/max, fees) and the decimals rescale.
 *
 * Pricing is the bench's own (referencePricing.ts): every route that can be the answer is priced from its hops
 * with the protocol math of src/core/math and the documented fee, gas and USD models, never with the service's
 * composition code (evaluatePlan, netValue, swap-path replay, hop quoting, pricing.ts). Among the routes that
 * maxPriceImpact lets through it returns the one with the most toAmount and the one with the most CHEAPEST net
 * value, by its own figures. Each of these routes is also priced by the service (serviceAnswer.ts: evaluatePlan on
 * the same hops) and the two are compared: toAmount, fees and gas units exactly, USD figures within float noise;
 * every disagreement counts in `mismatches` (a pricing bug on one side; must stay 0).
 *
 * Same chain: every path from fromToken to toToken is priced (a few hundred at most).
 *
 * Cross chain: every source path to every bridge token is priced (exhaustive). Each (source path, bridge
 * route) pair gives an amount that arrives; the destination paths of a pair are walked depth first, and a
 * pair or a partial destination path is skipped only when an upper bound proves it can neither beat the best
 * routes found so far (on toAmount, or on net value) nor pass maxPriceImpact. Bounds, all upper bounds:
 *  - rate: a pool's output is concave in its input (constant product, concentrated liquidity, StableSwap), so
 *    out(x) ≤ x · marginal rate at the current state; a path's output ≤ x · best product of marginal rates
 *    over the remaining hops. The bound is checked on every real hop quote (`boundViolations`, must stay 0).
 *  - arrival: a destination path's output, extended past a concentrated pool's tick window by what the
 *    window can deliver, is non-decreasing in the amount that arrives; a walk at arrival a therefore bounds
 *    every pair of the same bridged token with a smaller arrival (the walk also records the bound of every
 *    branch it skipped).
 *  - price impact: a route passes only if toUSD ≥ (1 − maxPriceImpact)·(fromUSD − included fees); included
 *    fees are bounded by the pair's bridge fees plus the largest destination-call gas (hop gas bounded per
 *    pool: ticks in the window).
 * Net value in the bounds is computed as the reference pricing does (one transaction: router base gas + swap
 * gas + bridge gas, messaging fee on top); every priced route checks that it matches (else `boundViolations`).
 * Float comparisons keep a 1e-9 slack in the exploring direction.
 * A destination path is priced at the amount that arrives (its gas, hence the destination-call fee), and must
 * be able to take that amount.
 * Exact input, default options only (every tool allowed, none preferred, allowDestinationCall, no contract
 * calls, no gas refuel).
 */
import type { Token } from '../src/core/entities';
import type { BridgeRoute, PoolState } from '../src/core/liquidity/snapshot';
import { bridgeOut } from '../src/core/math/bridge';
import { quoteExactInput } from '../src/core/math/concentrated';
import type { PoolEdge, RoutingGraph, SwapEdge } from '../src/core/routing/graph';
import type { Route, RouteRequest } from '../src/core/routing/route';
import {
  GAS, disagreements, integratorFee, pricePath, priceRoute, quoteHopMemo, quotePoolHop, rescaleDecimals, usdOf, weiInToken,
  type HopMemo, type RouteEstimate, type RouteSpec,
} from './referencePricing';
import { servicePricing, type ServiceAnswer, type ServicePricing } from './serviceAnswer';

export interface BruteForceOptions {
  /** Pool hops per swap (wraps are free). Default 3, like the service. */
  readonly maxHops?: number;
  /** Give up after this long (the request is then reported as skipped). Default 2000 ms. */
  readonly budgetMs?: number;
  readonly now?: () => number;
  /** false: no bound prunes anything (every pair walked, every route priced): slow, to validate the bounds. */
  readonly prune?: boolean;
  /** What the service reports for a route (default: its evaluatePlan on the same hops); compared, never ranked by. */
  readonly service?: ServicePricing;
  /** Called with every route compared with the service (debugging). */
  readonly trace?: (estimate: RouteEstimate, answer: ServiceAnswer, problems: readonly string[]) => void;
}

export interface BruteForceStats {
  /** Simple swap paths walked to the end (source paths, destination paths of every pair searched). */
  paths: number;
  /** Cross chain: (source path, bridge route) pairs that the bridge accepts. */
  pairs: number;
  /** Pairs whose destination paths were walked (the others were bounded out). */
  pairsSearched: number;
  /** Complete routes priced by the forward pass. */
  candidates: number;
  /** Routes priced by the reference pricing and by the service, and compared. */
  compared: number;
  /** Compared routes where the service's answer disagrees with the reference pricing (must stay 0). */
  mismatches: number;
  /** A real hop quote above its rate bound, or a route's net value off the bounds' formula (the bounds would be unsafe; must stay 0). */
  boundViolations: number;
}

/** A route as the reference pricing prices it, with the service's answer for the same hops (display). */
export interface ReferenceRoute extends RouteEstimate {
  readonly service?: Route;
}

export interface BruteForceResult {
  readonly status: 'ok' | 'noRoute' | 'skipped';
  /** Most toAmount among the routes that pass maxPriceImpact. */
  readonly bestByAmount?: ReferenceRoute;
  /** Most CHEAPEST net value among the routes that pass maxPriceImpact. */
  readonly bestByNet?: ReferenceRoute;
  readonly stats: BruteForceStats;
  /** The first few mismatches, described. */
  readonly mismatchExamples: readonly string[];
  readonly elapsedMs: number;
}

class OutOfBudget extends Error {}

interface Search {
  readonly graph: RoutingGraph;
  readonly request: RouteRequest;
  readonly maxHops: number;
  readonly memo: HopMemo;
  readonly service: (spec: RouteSpec) => ServiceAnswer;
  readonly deadline: number;
  readonly now: () => number;
  readonly stats: BruteForceStats;
  readonly mismatchExamples: string[];
  readonly trace?: BruteForceOptions['trace'];
  readonly prune: boolean;
  bestByAmount?: ReferenceRoute;
  bestByNet?: ReferenceRoute;
  bestNet: number;
}

const SLACK = 1e-9;
const MAX_EXAMPLES = 5;

export function bruteForce(graph: RoutingGraph, request: RouteRequest, options: BruteForceOptions = {}): BruteForceResult {
  if (request.mode !== 'exactIn') throw new Error('bruteForce: exact input only');
  const lists = [request.bridges, request.exchanges].flatMap((t) => [t.allow, t.deny, t.prefer]);
  if (!request.allowDestinationCall || lists.some((l) => l && l.length > 0) || (request.contractCallsGas ?? 0n) > 0n || (request.fromAmountForGas ?? 0n) > 0n) {
    throw new Error('bruteForce: default options only (every tool, destination swap inside the bridge transaction, no contract calls, no gas refuel)');
  }
  const now = options.now ?? (() => performance.now());
  const started = now();
  const s: Search = {
    graph, request, maxHops: options.maxHops ?? 3, memo: new Map(), deadline: started + (options.budgetMs ?? 2000), now,
    service: (options.service ?? servicePricing)(graph, request),
    stats: { paths: 0, pairs: 0, pairsSearched: 0, candidates: 0, compared: 0, mismatches: 0, boundViolations: 0 },
    mismatchExamples: [],
    bestNet: -Infinity,
    trace: options.trace,
    prune: options.prune ?? true,
  };
  const done = (status: BruteForceResult['status']): BruteForceResult => ({
    status,
    bestByAmount: status === 'ok' ? s.bestByAmount : undefined,
    bestByNet: status === 'ok' ? s.bestByNet : undefined,
    stats: s.stats,
    mismatchExamples: s.mismatchExamples,
    elapsedMs: now() - started,
  });
  try {
    if (request.fromChain.id === request.toChain.id) sameChain(s);
    else crossChain(s);
    return done(s.bestByAmount && s.bestByNet ? 'ok' : 'noRoute');
  } catch (error) {
    if (error instanceof OutOfBudget) return done('skipped');
    throw error;
  }
}

function checkBudget(s: Search): void {
  if (s.now() > s.deadline) throw new OutOfBudget();
}

/**
 * Prices a route with the reference pricing, compares the service's answer for the same hops, and keeps the route
 * when it passes maxPriceImpact and beats a best (by the reference figures). `boundsNet`: the net value the
 * bounds computed for it (checked: the bounds must price net value as the reference does).
 */
function consider(s: Search, spec: RouteSpec, boundsNet?: number): boolean {
  checkBudget(s);
  const priced = priceRoute(s.graph, s.request, spec, s.memo);
  if (!priced.ok) return false;
  const estimate = priced.estimate;
  if (boundsNet !== undefined && !nearTie(estimate.netValueUSD, boundsNet)) s.stats.boundViolations++;
  s.stats.compared++;
  const answer = s.service(spec);
  const problems = answer.ok ? disagreements(estimate, answer.route) : [`the service refuses it (${answer.reason})`];
  if (problems.length > 0) {
    s.stats.mismatches++;
    if (s.mismatchExamples.length < MAX_EXAMPLES) s.mismatchExamples.push(`${estimate.overallPath}: ${problems.join('; ')}`);
  }
  s.trace?.(estimate, answer, problems);
  if (estimate.priceImpact > s.request.maxPriceImpact) return false;
  const route: ReferenceRoute = answer.ok ? { ...estimate, service: answer.route } : estimate;
  const net = estimate.netValueUSD;
  const best = s.bestByAmount;
  if (!best || route.toAmount > best.toAmount || (route.toAmount === best.toAmount && net > best.netValueUSD)) s.bestByAmount = route;
  if (!s.bestByNet || net > s.bestNet) {
    s.bestByNet = route;
    s.bestNet = net;
  }
  return true;
}

/** A swap path found by the walk, priced at its input. */
export interface Walk {
  readonly edges: readonly SwapEdge[];
  readonly amountIn: bigint;
  readonly amountOut: bigint;
  readonly gasUnits: bigint;
}

/**
 * Every simple path of at most maxHops pool hops (wraps free) from `start` to any of `targets`, priced at
 * `amountIn` (a hop that cannot take its input ends the branch). With `stopAtTargets` a path ends at the
 * first target it reaches (right for one target: a simple path cannot come back to it).
 */
export function enumeratePaths(
  graph: RoutingGraph,
  chainId: number,
  start: string,
  amountIn: bigint,
  targets: ReadonlySet<string>,
  options: { maxHops: number; stopAtTargets: boolean; memo?: HopMemo; onStep?: () => void },
): Map<string, Walk[]> {
  const memo = options.memo ?? new Map();
  const distance = graph.hopsToTargets(chainId, [...targets], options.maxHops); // a lower bound: loses no path
  const found = new Map<string, Walk[]>();
  const visited = new Set<string>([start]);
  const usedPools = new Set<string>();
  const edges: SwapEdge[] = [];

  const walk = (token: string, amount: bigint, hops: number, gasUnits: bigint) => {
    options.onStep?.();
    if (targets.has(token)) {
      const list = found.get(token) ?? [];
      list.push({ edges: [...edges], amountIn, amountOut: amount, gasUnits });
      found.set(token, list);
      if (options.stopAtTargets && edges.length > 0) return;
    }
    for (const edge of graph.edgesFrom(chainId, token)) {
      if (visited.has(edge.to)) continue;
      const nextHops = hops + (edge.kind === 'pool' ? 1 : 0);
      const remaining = distance.get(edge.to);
      if (remaining === undefined || nextHops + remaining > options.maxHops) continue;
      let out = amount;
      let gas: bigint = GAS.wrap;
      if (edge.kind === 'pool') {
        if (usedPools.has(edge.pool.id)) continue;
        const quote = quoteHopMemo(memo, edge, amount);
        if (!quote.ok) continue;
        out = quote.amountOut;
        gas = quote.gasUnits;
        usedPools.add(edge.pool.id);
      }
      visited.add(edge.to);
      edges.push(edge);
      walk(edge.to, out, nextHops, gasUnits + gas);
      edges.pop();
      visited.delete(edge.to);
      if (edge.kind === 'pool') usedPools.delete(edge.pool.id);
    }
  };
  walk(start, amountIn, 0, 0n);
  return found;
}

function stepper(s: Search): () => void {
  let steps = 0;
  return () => {
    if ((++steps & 127) === 0) checkBudget(s);
  };
}

// ---------------------------------------------------------------------------------------------- same chain

function sameChain(s: Search): void {
  const { graph, request } = s;
  const chainId = request.fromChain.id;
  const from = graph.catalog.addressKey(chainId, request.fromToken.address);
  const to = graph.catalog.addressKey(chainId, request.toToken.address);
  const paths = enumeratePaths(graph, chainId, from, integratorFee(request).rest, new Set([to]), { maxHops: s.maxHops, stopAtTargets: true, memo: s.memo, onStep: stepper(s) }).get(to) ?? [];
  s.stats.paths += paths.length;
  s.stats.candidates += paths.length;
  const gasPrice = graph.gas(chainId)?.gasPriceWei ?? 0n;
  const fastNet = (p: Walk) => usdOf(p.amountOut, request.toToken) - usdOf(p.gasUnits * gasPrice, request.fromChain.nativeToken);
  const spec = (path: Walk): RouteSpec => ({ source: path.edges, destination: [] });
  if (!s.prune) {
    for (const path of paths) consider(s, spec(path));
    return;
  }
  // Best first on each objective, until one route passes maxPriceImpact; then only ties (or float near-ties) can still win.
  let accepted: Walk | undefined;
  for (const path of [...paths].sort((a, b) => (a.amountOut > b.amountOut ? -1 : a.amountOut < b.amountOut ? 1 : 0))) {
    if (accepted && path.amountOut < accepted.amountOut) break;
    if (consider(s, spec(path))) accepted ??= path;
  }
  accepted = undefined;
  for (const path of [...paths].sort((a, b) => fastNet(b) - fastNet(a))) {
    if (accepted && !nearTie(fastNet(accepted), fastNet(path))) break;
    if (consider(s, spec(path))) accepted ??= path;
  }
}

/** USD of one raw unit of a token (float). */
function unitUSD(token: Token): number {
  return Number(token.priceUSD) / 10 ** token.decimals;
}

function nearTie(a: number, b: number): boolean {
  return Math.abs(a - b) <= SLACK * (1 + Math.abs(a) + Math.abs(b));
}

// --------------------------------------------------------------------------------------------- cross chain

interface Pair {
  readonly route: BridgeRoute;
  readonly source: Walk;
  /** What arrives on the destination chain, in the bridged token's units. */
  readonly arrived: bigint;
  readonly bridged: Token;
  readonly bridgedUnitUSD: number;
  readonly direct: boolean;
  /** Gas of the (single) transaction and messaging fee in USD: fromUSD − toUSD + costUSD = − net value. */
  readonly costUSD: number;
  /** Bridge fees taken from the amount (fixed, proportional, relayer gas) in USD: included fees of the price impact. */
  readonly bridgeFeesUSD: number;
  /** Upper bound of toAmount (raw units of toToken). */
  readonly rateBound: number;
}

interface CrossContext {
  readonly to: string;
  readonly toChainId: number;
  readonly toToken: Token;
  readonly fromUSD: number;
  readonly integratorFeeUSD: number;
  /** USD per raw unit of toToken. */
  readonly toUnitUSD: number;
  readonly destGasPrice: bigint;
  /** USD of one unit of gas on the destination chain. */
  readonly destGasUSD: number;
  /** Gas bound of one destination pool hop (the most expensive pool of the chain). */
  readonly maxHopGas: bigint;
  /** rates[k]: per token, bound of toAmount per unit over at most k pool hops to toToken. */
  readonly rates: readonly ReadonlyMap<string, number>[];
  /** Per bridged token: (arrival, bound of toAmount for any arrival up to it). */
  readonly arrivalBounds: Map<string, { arrived: bigint; bound: number }[]>;
  /** What a route must beat to be worth finding: the best toAmount only, or either best. */
  goal: 'amount' | 'both';
}

function crossChain(s: Search): void {
  const { graph, request } = s;
  const fromChainId = request.fromChain.id;
  const toChainId = request.toChain.id;
  const from = graph.catalog.addressKey(fromChainId, request.fromToken.address);
  const to = graph.catalog.addressKey(toChainId, request.toToken.address);
  const bridges = graph.bridgesBetween(fromChainId, toChainId);
  if (bridges.length === 0) return;
  const { rest, fee } = integratorFee(request);
  const sources = enumeratePaths(graph, fromChainId, from, rest, new Set(bridges.map((r) => r.fromToken)), { maxHops: s.maxHops, stopAtTargets: false, memo: s.memo, onStep: stepper(s) });
  for (const list of sources.values()) s.stats.paths += list.length;

  const toToken = request.toToken;
  const ctx: CrossContext = {
    to, toChainId, toToken,
    fromUSD: usdOf(request.amount, request.fromToken),
    integratorFeeUSD: usdOf(fee, request.fromToken),
    toUnitUSD: unitUSD(toToken),
    destGasPrice: graph.gas(toChainId)?.gasPriceWei ?? 0n,
    destGasUSD: Number(graph.gas(toChainId)?.gasPriceWei ?? 0n) * unitUSD(request.toChain.nativeToken),
    maxHopGas: maxHopGas(graph, toChainId),
    rates: rateBounds(graph, toChainId, to, s.maxHops),
    arrivalBounds: new Map(),
    goal: 'amount',
  };
  const srcGasPrice = graph.gas(fromChainId)?.gasPriceWei ?? 0n;
  const nativeUnitUSD = unitUSD(request.fromChain.nativeToken);
  const baseGas = GAS.routerBase + GAS.firstUse + (fee > 0n ? GAS.feeCollection : 0n);

  const pairs: Pair[] = [];
  for (const route of bridges) {
    const sent = graph.token(fromChainId, route.fromToken);
    const bridged = graph.token(toChainId, route.toToken);
    const sentUnitUSD = unitUSD(sent);
    const bridgedUnitUSD = unitUSD(bridged);
    const direct = route.toToken === to;
    const rate = direct ? 1 : ctx.rates[s.maxHops].get(route.toToken);
    if (rate === undefined) continue; // no destination path can exist
    for (const source of sources.get(route.fromToken) ?? []) {
      const quote = bridgeOut(source.amountOut, route);
      if (!quote.ok) continue;
      const arrived = rescaleDecimals(quote.amountOut, sent.decimals, bridged.decimals);
      if (arrived <= 0n) continue;
      pairs.push({
        route, source, arrived, bridged, bridgedUnitUSD, direct,
        costUSD: Number((baseGas + source.gasUnits + route.gasUnits) * srcGasPrice + route.nativeFee) * nativeUnitUSD,
        bridgeFeesUSD: Number(quote.fees.fixed + quote.fees.proportional + quote.fees.destinationGas) * sentUnitUSD,
        rateBound: Number(arrived) * rate,
      });
    }
  }
  s.stats.pairs = pairs.length;
  // Two passes, most promising first so that the bests found early bound the rest: toAmount alone (the
  // highest bounds first), then both objectives (the best net values first). A pair may be walked twice;
  // its hop quotes are memoised.
  const byAmount = [...pairs].sort((a, b) => b.rateBound - a.rateBound);
  const netKey = new Map(pairs.map((p) => [p, p.rateBound * ctx.toUnitUSD - p.costUSD]));
  const byNet = [...pairs].sort((a, b) => netKey.get(b)! - netKey.get(a)!);
  for (const [goal, order] of [['amount', byAmount], ['both', byNet]] as const) {
    ctx.goal = goal;
    for (const pair of order) {
      checkBudget(s);
      if (pair.direct) {
        if (goal === 'amount') s.stats.candidates++;
        if (mayHelp(s, ctx, pair, Number(pair.arrived), 0)) {
          consider(s, { source: pair.source.edges, bridge: pair.route, destination: [] }, usdOf(pair.arrived, ctx.toToken) - ctx.fromUSD - pair.costUSD);
        }
        continue;
      }
      // The destination call costs at least a wrap's gas plus its own: what is swapped is at most arrived minus that.
      const rate = ctx.rates[s.maxHops].get(pair.route.toToken)!;
      const bound = Math.min(pair.rateBound, arrivalBound(ctx, pair), (Number(pair.arrived) - callFeeFloor(ctx, pair, GAS.wrap)) * rate);
      if (!mayHelp(s, ctx, pair, bound, maxCallFeeUSD(ctx, pair, 0n, s.maxHops))) continue;
      s.stats.pairsSearched++;
      searchDestination(s, ctx, pair);
    }
  }
}

/** Bound of toAmount for a pair from the walks already done at larger or equal arrivals of its bridged token. */
function arrivalBound(ctx: CrossContext, pair: Pair): number {
  let bound = Infinity;
  for (const entry of ctx.arrivalBounds.get(pair.route.toToken) ?? []) if (entry.arrived >= pair.arrived && entry.bound < bound) bound = entry.bound;
  return bound;
}

/**
 * Whether a route of this pair delivering at most `boundOut` could beat a best (toAmount or net value) and
 * still pass maxPriceImpact with at most `callFeeUSD` of destination-call fee included.
 */
function mayHelp(s: Search, ctx: CrossContext, pair: Pair, boundOut: number, callFeeUSD: number): boolean {
  if (!s.prune) return true;
  const toUSD = boundOut * ctx.toUnitUSD;
  const slack = SLACK * (1 + ctx.fromUSD);
  const beatsAmount = !s.bestByAmount || boundOut * (1 + SLACK) >= Number(s.bestByAmount.toAmount);
  const beatsNet = ctx.goal === 'both' && (!s.bestByNet || toUSD - ctx.fromUSD - pair.costUSD + slack >= s.bestNet);
  if (!beatsAmount && !beatsNet) return false;
  const valueIn = ctx.fromUSD - ctx.integratorFeeUSD - pair.bridgeFeesUSD - callFeeUSD;
  return toUSD + slack >= (1 - s.request.maxPriceImpact) * valueIn;
}

/** Largest destination-call fee (USD) a path could still reach with `gasSoFar` and `hopsLeft` pool hops to go. */
function maxCallFeeUSD(ctx: CrossContext, pair: Pair, gasSoFar: bigint, hopsLeft: number): number {
  const gas = gasSoFar + BigInt(hopsLeft) * ctx.maxHopGas + GAS.wrap + GAS.destinationCall;
  // weiInToken rounds up: at most one unit more than the exact conversion.
  return Number(gas) * ctx.destGasUSD * (1 + 1e-6) + pair.bridgedUnitUSD;
}

/** A lower bound of the destination-call fee (units of the bridged token) of a path of `gasUnits` gas. */
function callFeeFloor(ctx: CrossContext, pair: Pair, gasUnits: bigint): number {
  return (Number(gasUnits + GAS.destinationCall) * ctx.destGasUSD / pair.bridgedUnitUSD) * (1 - 1e-6);
}

/**
 * Walks every destination path of a pair, priced at the amount that arrives; keeps bounding against the
 * bests; records the bound of everything below this arrival for the bridged token.
 */
function searchDestination(s: Search, ctx: CrossContext, pair: Pair): void {
  const { graph, memo, maxHops } = s;
  const chainId = ctx.toChainId;
  const start = pair.route.toToken;
  const native = s.request.toChain.nativeToken;
  const visited = new Set<string>([start]);
  const usedPools = new Set<string>();
  const edges: SwapEdge[] = [];
  let bound = 0; // the most any simple path could deliver at this arrival (completed or skipped)
  const step = stepper(s);

  const complete = (amountOut: bigint, gasUnits: bigint, pathRate: number) => {
    const callFee = weiInToken((gasUnits + GAS.destinationCall) * ctx.destGasPrice, native, pair.bridged);
    if (callFee >= pair.arrived) return;
    const callFeeUSD = usdOf(callFee, pair.bridged);
    if (!mayHelp(s, ctx, pair, Math.min(Number(amountOut), Number(pair.arrived - callFee) * pathRate), callFeeUSD)) return;
    const swapped = pricePath(edges, pair.arrived - callFee, memo);
    if (!swapped || swapped.amountOut <= 0n) return;
    s.stats.candidates++;
    if (mayHelp(s, ctx, pair, Number(swapped.amountOut), callFeeUSD)) {
      consider(s, { source: pair.source.edges, bridge: pair.route, destination: [...edges] }, usdOf(swapped.amountOut, ctx.toToken) - ctx.fromUSD - pair.costUSD);
    }
  };

  // `real`: every hop so far took its input; otherwise `amount` is the extended (window-capped) output, a bound only.
  // `prefixRate`: product of the hop rate bounds so far; an output is also at most (arrived − call fee)·rates.
  const arrived = Number(pair.arrived);
  const walk = (token: string, amount: bigint, real: boolean, hops: number, gasUnits: bigint, prefixRate: number) => {
    step();
    if (token === ctx.to) {
      s.stats.paths++;
      bound = Math.max(bound, Number(amount));
      if (real) complete(amount, gasUnits, prefixRate);
      return;
    }
    for (const edge of graph.edgesFrom(chainId, token)) {
      if (visited.has(edge.to)) continue;
      const nextHops = hops + (edge.kind === 'pool' ? 1 : 0);
      if (nextHops > maxHops) continue;
      const rate = ctx.rates[maxHops - nextHops].get(edge.to);
      if (rate === undefined) continue;
      let out: bigint;
      let nextReal = real;
      let gas: bigint;
      if (edge.kind === 'pool') {
        if (usedPools.has(edge.pool.id)) continue;
        const quote = quoteHopMemo(memo, edge, amount);
        if (quote.ok) {
          out = quote.amountOut;
          gas = quote.gasUnits;
          if (Number(out) > Number(amount) * edgeRate(graph, edge) * (1 + SLACK) + 1) s.stats.boundViolations++;
        } else if (edge.pool.kind === 'concentrated') {
          out = quoteExactInput(edge.pool.v3, edge.i === 0, amount).amountOut; // what the window can deliver
          nextReal = false;
          gas = 0n;
        } else {
          continue; // no output at all: nothing beyond
        }
      } else {
        out = amount;
        gas = GAS.wrap;
      }
      const nextRate = edge.kind === 'pool' ? prefixRate * edgeRate(graph, edge) : prefixRate;
      const reach = Math.min(Number(out) * rate, (arrived - callFeeFloor(ctx, pair, gasUnits + gas)) * nextRate * rate);
      if (!mayHelp(s, ctx, pair, reach, maxCallFeeUSD(ctx, pair, gasUnits + gas, maxHops - nextHops))) {
        bound = Math.max(bound, reach);
        continue;
      }
      if (edge.kind === 'pool') usedPools.add(edge.pool.id);
      visited.add(edge.to);
      edges.push(edge);
      walk(edge.to, out, nextReal, nextHops, gasUnits + gas, nextRate);
      edges.pop();
      visited.delete(edge.to);
      if (edge.kind === 'pool') usedPools.delete(edge.pool.id);
    }
  };
  walk(start, pair.arrived, true, 0, 0n, 1);
  const list = ctx.arrivalBounds.get(start) ?? [];
  list.push({ arrived: pair.arrived, bound });
  ctx.arrivalBounds.set(start, list);
}

// ---------------------------------------------------------------------------------------------- bounds

const edgeRates = new WeakMap<PoolState, Map<string, number>>();

/**
 * Bound of output per unit of input of a pool hop: the marginal rate at the pool's current state (outputs are
 * concave in the input). Constant product and concentrated liquidity from their state; StableSwap from a
 * one-token probe with a 0.1 % margin (its invariant is solved numerically). Infinity when unknown.
 */
export function edgeRate(graph: RoutingGraph, edge: PoolEdge): number {
  const { pool, i, j } = edge;
  let cache = edgeRates.get(pool);
  if (!cache) {
    cache = new Map();
    edgeRates.set(pool, cache);
  }
  const key = `${i}:${j}`;
  let rate = cache.get(key);
  if (rate === undefined) {
    switch (pool.kind) {
      case 'constantProduct':
        rate = pool.reserves[i] > 0n ? (Number(1_000_000n - pool.feePpm) / 1e6) * (Number(pool.reserves[j]) / Number(pool.reserves[i])) : Infinity;
        break;
      case 'concentrated': {
        const sqrt = Number(pool.v3.sqrtPriceX96) / 2 ** 96;
        const price = sqrt * sqrt; // token1 per token0, raw units
        rate = (i === 0 ? price : 1 / price) * (Number(1_000_000n - pool.feePpm) / 1e6);
        break;
      }
      case 'stableswap': {
        const probe = 10n ** BigInt(graph.token(pool.chainId, pool.tokens[i]).decimals);
        const quote = quotePoolHop(edge, probe);
        rate = quote.ok ? (Number(quote.amountOut) + 1) / Number(probe) * 1.001 : Infinity;
        break;
      }
    }
    rate = rate * (1 + 1e-9);
    cache.set(key, rate);
  }
  return rate;
}

/** rates[k]: per token, the best product of hop rates to `to` over at most k pool hops (wraps free; simple or not). */
function rateBounds(graph: RoutingGraph, chainId: number, to: string, maxHops: number): ReadonlyMap<string, number>[] {
  const tokens = new Set<string>([to]);
  for (const pool of graph.pools) if (pool.chainId === chainId) for (const t of pool.tokens) tokens.add(t);
  for (const t of [...tokens]) for (const e of graph.edgesFrom(chainId, t)) tokens.add(e.to);
  const levels: Map<string, number>[] = [];
  for (let k = 0; k <= maxHops; k++) {
    const level = new Map<string, number>(k === 0 ? [[to, 1]] : levels[k - 1]);
    for (let pass = 0; pass < 3; pass++) { // wrap chains are one edge long; passes make sure of the closure
      for (const t of tokens) {
        for (const edge of graph.edgesFrom(chainId, t)) {
          const next = edge.kind === 'pool' ? (k > 0 ? levels[k - 1].get(edge.to) : undefined) : level.get(edge.to);
          if (next === undefined) continue;
          const value = edge.kind === 'pool' ? edgeRate(graph, edge) * next : next;
          if (value > (level.get(t) ?? -1)) level.set(t, value);
        }
      }
    }
    levels.push(level);
  }
  return levels;
}

/** Gas bound of one pool hop on a chain: the most expensive pool (a concentrated pool crossing every tick of its window). */
function maxHopGas(graph: RoutingGraph, chainId: number): bigint {
  let most: bigint = GAS.stableswap;
  for (const pool of graph.pools) {
    if (pool.chainId !== chainId || pool.kind !== 'concentrated') continue;
    const gas = GAS.concentrated + GAS.tickCrossed * BigInt(pool.v3.ticks.length + 2);
    if (gas > most) most = gas;
  }
  return most;
}
