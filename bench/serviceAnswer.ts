/**
 * What the service reports for a route of the brute force (bench only): the service's own forward pricing
 * (evaluatePlan, its swap paths priced by its priceEdges) on the same hops. The brute force compares it with its
 * own pricing (referencePricing.ts) and never ranks by it; tests pass a deliberately wrong one to see it caught.
 */
import { fractionToPpm, takeFee } from '../src/core/math/amounts';
import { evaluatePlan, pricePlan, type RoutePlan } from '../src/core/routing/evaluate';
import type { RoutingGraph } from '../src/core/routing/graph';
import { priceEdges, type QuoteMemo, type SwapPath } from '../src/core/routing/swapPath';
import type { Route, RouteRequest } from '../src/core/routing/route';
import type { RouteSpec } from './referencePricing';

export type ServiceAnswer = { readonly ok: true; readonly route: Route } | { readonly ok: false; readonly reason: string };

/** Per request, a function answering for one route (the service's quote memo lives as long as the request). */
export type ServicePricing = (graph: RoutingGraph, request: RouteRequest) => (spec: RouteSpec) => ServiceAnswer;

/**
 * The service's answer: the source path priced by the service at its amount after the integrator fee (evaluatePlan
 * re-prices a path whose amount differs from its own), the destination path at what the service says arrives
 * (the finder prices a destination path at the arrival: its gas makes the destination-call fee), then evaluatePlan.
 */
export const servicePricing: ServicePricing = (graph, request) => {
  const memo: QuoteMemo = new Map();
  const from = graph.catalog.addressKey(request.fromChain.id, request.fromToken.address);
  const { rest } = takeFee(request.amount, fractionToPpm(request.fee ?? 0, 'up'));
  return (spec) => {
    let sources: RoutePlan['sources'] = [];
    if (spec.source.length > 0) {
      const path = priceEdges(request.fromChain.id, from, spec.source, rest, memo);
      if (!path) return { ok: false, reason: 'the service cannot price the source path' };
      sources = [{ path, sharePpm: 1_000_000n }];
    }
    let destination: SwapPath | undefined;
    if (spec.bridge && spec.destination.length > 0) {
      const upToBridge = pricePlan(graph, request, { sources, bridge: spec.bridge, destinationSeparate: false }, request.amount, memo);
      if (!upToBridge.ok) return { ok: false, reason: `${upToBridge.code}: ${upToBridge.message}` };
      destination = priceEdges(request.toChain.id, spec.bridge.toToken, spec.destination, upToBridge.amounts.arrived, memo);
      if (!destination) return { ok: false, reason: 'the service cannot price the destination path at the arrival' };
    }
    const evaluation = evaluatePlan(graph, request, { sources, bridge: spec.bridge, destination, destinationSeparate: false }, request.amount, memo);
    return evaluation.ok ? { ok: true, route: evaluation.route } : { ok: false, reason: `${evaluation.code}: ${evaluation.message}` };
  };
};
