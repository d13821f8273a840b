/**
 * Route search: enumerates route plans ([source swap ≤ 3 hops] → [≤ 1 bridge] → [destination swap ≤ 3 hops],
 * plans.ts), prices each forward (evaluate.ts), filters and ranks them, builds the routes returned (assemble.ts),
 * and says for every dropped candidate why.
 */
import { hasPrice } from '../entities';
import { InvalidRequestError } from '../errors';
import { assembleRoute, overallPathOf } from './assemble';
import { pricePlan, requestRates, routeId } from './evaluate';
import type { RoutingGraph } from './graph';
import { failed, MAX_HOPS, planPath, plansOf, type SearchContext } from './plans';
import { splitRefuel, withRefuel } from './refuel';
import { toolPolicy } from './tools';
import type { PricedAmounts, Route, RouteRequest, RouteSearchResult } from './route';

export class RouteFinder {
  constructor(
    private readonly graph: RoutingGraph,
    private readonly now: () => number = () => performance.now(),
  ) {}

  find(request: RouteRequest): RouteSearchResult {
    if (request.fromAmountForGas === undefined) return this.findRoutes(request);
    const { main, refuel } = splitRefuel(request);
    const result = this.findRoutes(main);
    if (result.routes.length === 0) return result;
    const gas = this.findRoutes(refuel);
    const gasRoute = gas.routes[0];
    if (!gasRoute) {
      // The transfer cannot be done as asked: say why the refuel part has no route.
      return {
        routes: [],
        unavailable: {
          filteredOut: gas.unavailable.filteredOut.map((f) => ({ ...f, reason: `gas refuel (fromAmountForGas): ${f.reason}` })),
          failed: gas.unavailable.failed.map((f) => ({ ...f, overallPath: `gas refuel ${f.overallPath}` })),
        },
      };
    }
    return withRefuel(request, result, gasRoute, (route) => routeId(request, route.overallPath, route.fromAmount));
  }

  private findRoutes(request: RouteRequest): RouteSearchResult {
    const { graph } = this;
    const sameChain = request.fromChain.id === request.toChain.id;
    if (sameChain && request.fromToken.address === request.toToken.address) {
      throw new InvalidRequestError('fromToken and toToken are the same token on the same chain: there is nothing to swap', {
        issues: [{ name: 'toToken', rule: 'differentFromFromToken', message: 'same token as fromToken on the same chain' }],
      });
    }
    const exchanges = toolPolicy('exchange', request.exchanges, graph.catalog.exchanges.map((e) => e.key), graph.catalog.retired);
    const bridges = toolPolicy('bridge', request.bridges, graph.catalog.bridges.map((b) => b.key), graph.catalog.retired);
    const ctx: SearchContext = {
      graph, request, memo: new Map(), bridges, exchanges,
      pathOptions: { maxHops: MAX_HOPS, allowExchange: (key) => exchanges.allows(key), excludedPools: deniedPoolIds(graph, request) },
      unavailable: { filteredOut: [], failed: [] },
      startedAt: this.now(),
      now: this.now,
    };
    const plans = plansOf(ctx, sameChain);
    // Price every plan (amounts and ranking figures only), then build full routes for those returned.
    const candidates: Candidate[] = [];
    const seen = new Set<string>();
    const rates = requestRates(request);
    for (const { plan, fromAmount } of plans) {
      const priced = pricePlan(graph, request, plan, fromAmount, ctx.memo, rates);
      if (!priced.ok) {
        failed(ctx, planPath(ctx, plan), priced.code, priced.tool, priced.message);
        continue;
      }
      const amounts = priced.amounts;
      if (seen.has(amounts.key)) continue;
      seen.add(amounts.key);
      if (request.mode === 'exactOut' && amounts.toAmount < request.amount) {
        failed(ctx, planPath(ctx, plan), 'INSUFFICIENT_LIQUIDITY', plan.bridge?.bridge ?? 'swap', `forward check gives ${amounts.toAmount}, below the requested ${request.amount}`);
        continue;
      }
      if (amounts.priceImpact !== undefined && amounts.priceImpact > request.maxPriceImpact) {
        ctx.unavailable.filteredOut.push({
          overallPath: overallPathOf(graph, request, amounts),
          reason: `price impact ${(amounts.priceImpact * 100).toFixed(2)}% is above maxPriceImpact ${(request.maxPriceImpact * 100).toFixed(2)}%`,
        });
        continue;
      }
      candidates.push({ amounts, preferred: isPreferred(ctx, amounts) });
    }
    const routes = withEveryTag(rank(candidates, request), request.maxRoutes)
      .map(({ candidate, tags }) => {
        const route = assembleRoute(graph, request, candidate.amounts);
        return { ...route, id: routeId(request, route.overallPath, route.fromAmount), preferred: candidate.preferred, tags };
      });
    return { routes, unavailable: ctx.unavailable };
  }
}

interface Candidate {
  readonly amounts: PricedAmounts;
  readonly preferred: boolean;
}

function isPreferred(ctx: SearchContext, amounts: PricedAmounts): boolean {
  if (!ctx.bridges.hasPreferences && !ctx.exchanges.hasPreferences) return false;
  const paths = [...amounts.sources, ...(amounts.destination ? [amounts.destination] : [])];
  const exchangesUsed = paths.flatMap((p) => p.legs.flatMap((l) => (l.edge.kind === 'pool' ? [l.edge.pool.exchange] : [])));
  const bridge = amounts.plan.bridge;
  const bridgeOk = !ctx.bridges.hasPreferences || (bridge !== undefined && ctx.bridges.prefers(bridge.bridge));
  const exchangesOk = !ctx.exchanges.hasPreferences || (exchangesUsed.length > 0 && exchangesUsed.every((e) => ctx.exchanges.prefers(e)));
  return bridgeOk && exchangesOk;
}

/**
 * CHEAPEST: most output in USD after gas on all chains and fees paid on top (when the token received has no USD price:
 * most received, then that). FASTEST: shortest duration, ties by CHEAPEST.
 */
export function netValue(route: Route): number {
  return route.toAmountUSD - route.fromAmountUSD - route.gasCostUSD - route.extraFeesUSD;
}

function rank(candidates: Candidate[], request: RouteRequest): { candidate: Candidate; tags: Route['tags'][number][] }[] {
  // without a USD price of the token received, its amount cannot be weighed against gas: most received first (an
  // exact-output search receives the amount asked on every route, and its USD figures rank the inputs)
  const received = hasPrice(request.toToken) || request.mode === 'exactOut'
    ? () => 0
    : (a: Candidate, b: Candidate) => (b.amounts.toAmount > a.amounts.toAmount ? 1 : b.amounts.toAmount < a.amounts.toAmount ? -1 : 0);
  const cheapest = (a: Candidate, b: Candidate) =>
    received(a, b) || b.amounts.netValueUSD - a.amounts.netValueUSD || (a.amounts.key < b.amounts.key ? -1 : a.amounts.key > b.amounts.key ? 1 : 0);
  const fastest = (a: Candidate, b: Candidate) => a.amounts.durationSeconds - b.amounts.durationSeconds || cheapest(a, b);
  const byOrder = request.order === 'FASTEST' ? fastest : cheapest;
  const sorted = [...candidates].sort((a, b) => Number(b.preferred) - Number(a.preferred) || byOrder(a, b));
  if (sorted.length === 0) return [];
  // the first of each order (both orders end on the candidates' keys, which are distinct: one candidate per key)
  const bestCheap = first(candidates, cheapest);
  const bestFast = first(candidates, fastest);
  return sorted.map((candidate, index) => {
    const tags: Route['tags'][number][] = [];
    if (index === 0) tags.push('RECOMMENDED');
    if (candidate === bestCheap) tags.push('CHEAPEST');
    if (candidate === bestFast) tags.push('FASTEST');
    return { candidate, tags };
  });
}

/**
 * The first `max` ranked routes, except that a tagged route (the cheapest, the fastest) ranked further down takes the
 * place of the last untagged one: a client that asks for several routes always gets the best of each order (a fast
 * bridge whose fee ranks it eighth is still offered as FASTEST). Rank order is kept.
 */
function withEveryTag<T extends { readonly tags: readonly unknown[] }>(ranked: readonly T[], max: number): T[] {
  const chosen = ranked.slice(0, max);
  if (max < 2) return chosen;
  for (const entry of ranked.slice(max)) {
    if (entry.tags.length === 0) continue;
    let untagged = chosen.length - 1;
    while (untagged >= 0 && chosen[untagged]!.tags.length > 0) untagged -= 1;
    if (untagged < 0) break;
    chosen.splice(untagged, 1);
    chosen.push(entry);
  }
  return chosen;
}

/** The element that `compare` puts first (the first such element when several tie). */
function first<T>(items: readonly T[], compare: (a: T, b: T) => number): T {
  let best = items[0];
  for (let k = 1; k < items.length; k++) if (compare(items[k], best) < 0) best = items[k];
  return best;
}

/** Ids of the pools the request denies by address (denyPools), or undefined when it denies none. */
function deniedPoolIds(graph: RoutingGraph, request: RouteRequest): ReadonlySet<string> | undefined {
  if (!request.deniedPools) return undefined;
  const denied = new Set(request.deniedPools);
  return new Set(graph.pools.filter((pool) => denied.has(pool.address.toLowerCase())).map((pool) => pool.id));
}
