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
 *
 * Beside it: bruteForceSearch.ts (what both searches share), bruteForceCrossChain.ts, bruteForceBounds.ts.
 */
import type { RoutingGraph } from '../src/core/routing/graph';
import type { RouteRequest } from '../src/core/routing/route';
import { integratorFee, usdOf, type RouteSpec } from './referencePricing';
import { servicePricing, type ServicePricing } from './serviceAnswer';
import { crossChain } from './bruteForceCrossChain';
import {
  consider, enumeratePaths, nearTie, OutOfBudget, stepper,
  type BruteForceStats, type BruteForceTrace, type ReferenceRoute, type Search, type Walk,
} from './bruteForceSearch';

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
  readonly trace?: BruteForceTrace;
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
