/**
 * Swap-path search on one chain: a label-setting search over at most `maxHops` pool hops (wraps are free),
 * keeping for every token the few best labels that no other label dominates (more output in no more hops).
 * Output of a pool is monotone in its input, so extending the best labels finds the best simple path;
 * keeping several labels per token covers paths that would reuse a pool.
 */
import type { HopQuote } from '../liquidity/poolQuote';
import { estimateOut } from '../liquidity/estimate';
import type { RoutingGraph, SwapEdge } from './graph';
import { priceEdges } from './replay';

export interface SwapLeg {
  readonly edge: SwapEdge;
  readonly amountIn: bigint;
  readonly amountOut: bigint;
  readonly gasUnits: bigint;
}

export interface SwapPath {
  readonly chainId: number;
  /** Lower-cased addresses. */
  readonly fromToken: string;
  readonly toToken: string;
  readonly amountIn: bigint;
  readonly amountOut: bigint;
  readonly legs: readonly SwapLeg[];
  readonly gasUnits: bigint;
}

export interface PathSearchOptions {
  readonly maxHops: number;
  /** Exchange keys that may be used. */
  readonly allowExchange: (key: string) => boolean;
  /** Labels kept per token. */
  readonly labelsPerToken?: number;
  /** Pool ids that must not be used (e.g. the pools of the other half of a split). */
  readonly excludedPools?: ReadonlySet<string>;
}

/** Per-request memo of hop quotes: the same hop with the same amount is priced once. */
export type QuoteMemo = Map<string, HopQuote>;


/**
 * Exact input: the best paths from `fromToken` with `amountIn` to each of `targets`, best first
 * (zero-hop path included when fromToken is a target). The search ranks paths with floating-point
 * estimates of every hop (src/core/liquidity/estimate.ts); the few best candidates per target are then
 * priced exactly, so every returned amount is exact and the order is by exact output.
 */
export function searchExactIn(
  graph: RoutingGraph,
  chainId: number,
  fromToken: string,
  amountIn: bigint,
  targets: readonly string[],
  options: PathSearchOptions,
  memo: QuoteMemo,
): Map<string, SwapPath[]> {
  const keep = options.labelsPerToken ?? ESTIMATED_LABELS;
  const distance = graph.hopsToTargets(chainId, targets, options.maxHops);
  const best = new Map<string, EstimatedLabel[]>();
  const initial: EstimatedLabel = { token: fromToken, amount: Number(amountIn), edge: undefined, parent: undefined, hops: 0 };
  insertEstimated(best, initial, keep);
  let frontier: EstimatedLabel[] = [initial];
  while (frontier.length > 0) {
    const next: EstimatedLabel[] = [];
    for (const label of frontier) {
      for (const edge of graph.edgesFrom(chainId, label.token)) {
        const isPool = edge.kind === 'pool';
        const hops = label.hops + (isPool ? 1 : 0);
        const remaining = distance.get(edge.to);
        if (remaining === undefined || hops + remaining > options.maxHops) continue;
        if (visits(label, edge)) continue;
        let amount = label.amount;
        if (edge.kind === 'pool') {
          if (!options.allowExchange(edge.pool.exchange) || options.excludedPools?.has(edge.pool.id)) continue;
          amount = estimateOut(edge.pool, edge.i, edge.j, label.amount);
          if (!(amount > 0)) continue;
        }
        const extended: EstimatedLabel = { token: edge.to, amount, edge, parent: label, hops };
        if (insertEstimated(best, extended, keep)) next.push(extended);
      }
    }
    frontier = next;
  }
  const result = new Map<string, SwapPath[]>();
  for (const target of new Set(targets)) {
    const priced: SwapPath[] = [];
    for (const label of best.get(target) ?? []) {
      const path = priceEdges(chainId, fromToken, edgesOf(label), amountIn, memo);
      if (path) priced.push(path);
    }
    priced.sort((a, b) => (a.amountOut === b.amountOut ? a.legs.length - b.legs.length : a.amountOut > b.amountOut ? -1 : 1));
    if (priced.length > 0) result.set(target, priced);
  }
  return result;
}

/** A search label: a path kept as a chain of parents (paths have at most a handful of hops). */
interface EstimatedLabel {
  readonly token: string;
  readonly amount: number;
  readonly edge: SwapEdge | undefined;
  readonly parent: EstimatedLabel | undefined;
  readonly hops: number;
}

/** Whether following `edge` from `label` would revisit a token or reuse a pool of the path. */
function visits(label: EstimatedLabel, edge: SwapEdge): boolean {
  const poolId = edge.kind === 'pool' ? edge.pool.id : undefined;
  for (let l: EstimatedLabel | undefined = label; l; l = l.parent) {
    if (l.token === edge.to) return true;
    if (poolId !== undefined && l.edge?.kind === 'pool' && l.edge.pool.id === poolId) return true;
  }
  return false;
}

function edgesOf(label: EstimatedLabel): SwapEdge[] {
  const edges: SwapEdge[] = [];
  for (let l: EstimatedLabel | undefined = label; l?.edge; l = l.parent) edges.push(l.edge);
  return edges.reverse();
}

/** Candidates kept per token during the estimated search (then priced exactly). */
const ESTIMATED_LABELS = 4;

function insertEstimated(best: Map<string, EstimatedLabel[]>, label: EstimatedLabel, keep: number): boolean {
  const list = best.get(label.token) ?? [];
  // A label is dominated by one with at least the amount and at most the hops.
  if (list.some((l) => l.amount >= label.amount && l.hops <= label.hops)) return false;
  const kept = list.filter((l) => !(label.amount >= l.amount && label.hops <= l.hops));
  let at = kept.findIndex((l) => label.amount > l.amount);
  if (at < 0) at = kept.length;
  kept.splice(at, 0, label);
  if (kept.length > keep) kept.pop();
  best.set(label.token, kept);
  return kept.includes(label);
}
