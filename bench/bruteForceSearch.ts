/**
 * What both searches of the brute force (bruteForce.ts: same chain; bruteForceCrossChain.ts) share: the state of one
 * search and its budget, a route considered (priced by the reference pricing, compared with the service's answer,
 * kept when it beats a best), and the walk of every simple swap path.
 */
import type { Token } from '../src/core/entities';
import type { RoutingGraph, SwapEdge } from '../src/core/routing/graph';
import type { Route, RouteRequest } from '../src/core/routing/route';
import { disagreements, GAS, priceRoute, quoteHopMemo, type HopMemo, type RouteEstimate, type RouteSpec } from './referencePricing';
import type { ServiceAnswer } from './serviceAnswer';

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

/** Called with every route compared with the service (BruteForceOptions.trace). */
export type BruteForceTrace = (estimate: RouteEstimate, answer: ServiceAnswer, problems: readonly string[]) => void;

/** Thrown when a search runs past its budget (the request is then reported as skipped). */
export class OutOfBudget extends Error {}

/** One search: its request and limits, the memo of hop quotes, its statistics, the best routes so far. */
export interface Search {
  readonly graph: RoutingGraph;
  readonly request: RouteRequest;
  readonly maxHops: number;
  readonly memo: HopMemo;
  readonly service: (spec: RouteSpec) => ServiceAnswer;
  readonly deadline: number;
  readonly now: () => number;
  readonly stats: BruteForceStats;
  readonly mismatchExamples: string[];
  readonly trace?: BruteForceTrace;
  readonly prune: boolean;
  bestByAmount?: ReferenceRoute;
  bestByNet?: ReferenceRoute;
  bestNet: number;
}

export const SLACK = 1e-9;
const MAX_EXAMPLES = 5;

export function checkBudget(s: Search): void {
  if (s.now() > s.deadline) throw new OutOfBudget();
}

/**
 * Prices a route with the reference pricing, compares the service's answer for the same hops, and keeps the route
 * when it passes maxPriceImpact and beats a best (by the reference figures). `boundsNet`: the net value the
 * bounds computed for it (checked: the bounds must price net value as the reference does).
 */
export function consider(s: Search, spec: RouteSpec, boundsNet?: number): boolean {
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

export function stepper(s: Search): () => void {
  let steps = 0;
  return () => {
    if ((++steps & 127) === 0) checkBudget(s);
  };
}

/** USD of one raw unit of a token (float). */
export function unitUSD(token: Token): number {
  return Number(token.priceUSD) / 10 ** token.decimals;
}

export function nearTie(a: number, b: number): boolean {
  return Math.abs(a - b) <= SLACK * (1 + Math.abs(a) + Math.abs(b));
}
