/**
 * The brute force across chains (bruteForce.ts's module comment): every source path to every bridge token priced,
 * each (source path, bridge route) pair, then the destination paths of a pair walked depth first, a pair or a partial
 * path skipped only when an upper bound proves it can neither beat a best route nor pass maxPriceImpact.
 */
import type { Token } from '../src/core/entities';
import type { BridgeRoute } from '../src/core/liquidity/snapshot';
import { bridgeOut } from '../src/core/math/bridge';
import { quoteExactInput } from '../src/core/math/concentrated';
import type { SwapEdge } from '../src/core/routing/graph';
import { GAS, integratorFee, pricePath, quoteHopMemo, rescaleDecimals, usdOf, weiInToken } from './referencePricing';
import { edgeRate, maxHopGas, rateBounds } from './bruteForceBounds';
import { checkBudget, consider, enumeratePaths, SLACK, stepper, unitUSD, type Search, type Walk } from './bruteForceSearch';

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

export function crossChain(s: Search): void {
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
