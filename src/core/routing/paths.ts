/**
 * Swap-path search on one chain: a label-setting search over at most `maxHops` pool hops (wraps are free),
 * keeping for every token the few best labels that no other label dominates (more output in no more hops).
 * Output of a pool is monotone in its input, so extending the best labels finds the best simple path;
 * keeping several labels per token covers paths that would reuse a pool.
 */
import { estimateOut } from '../liquidity/estimate';
import type { RoutingGraph, SwapEdge } from './graph';
import { priceEdges, type QuoteMemo, type SwapPath } from './swapPath';

export interface PathSearchOptions {
  readonly maxHops: number;
  /** Exchange keys that may be used. */
  readonly allowExchange: (key: string) => boolean;
  /** Labels kept per token. */
  readonly labelsPerToken?: number;
  /** Pool ids that must not be used (e.g. the pools of the other half of a split). */
  readonly excludedPools?: ReadonlySet<string>;
}

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
  const maxHops = options.maxHops;
  const reach = graph.reachOf(chainId, targets, maxHops);
  const poolIdsUnique = graph.poolIdsUnique;
  const best = new Map<string, EstimatedLabel[]>();
  // Labels are ranked by output net of the gas their hops cost (in the label's token), so a path that gives
  // slightly less but costs much less gas is kept.
  const gasCost = graph.gasCostTable(chainId);
  const net = (token: string, amount: number, gas: number) => amount - gas * gasCost(token);
  const initial: EstimatedLabel = { token: fromToken, amount: Number(amountIn), gas: 0, score: Number(amountIn), edge: undefined, parent: undefined, hops: 0 };
  insertEstimated(best, initial, keep);
  let frontier: EstimatedLabel[] = [initial];
  while (frontier.length > 0) {
    const next: EstimatedLabel[] = [];
    for (const label of frontier) {
      // only the edges whose end can still reach a target (in edgesFrom order)
      for (const step of reach.stepsFrom(label.token)) {
        const hops = label.hops + step.poolHops;
        if (hops + step.remaining > maxHops) continue;
        const edge = step.edge;
        if (visits(label, edge, poolIdsUnique)) continue;
        let amount = label.amount;
        if (edge.kind === 'pool') {
          if (!options.allowExchange(step.exchange!) || options.excludedPools?.has(step.poolId!)) continue;
          amount = estimateOut(step.estimate!, edge.i, edge.j, label.amount);
          if (!(amount > 0)) continue;
        }
        const gas = label.gas + step.gasUnits; // HOP_GAS of the pool's kind, or WRAP_GAS
        const extended: EstimatedLabel = { token: edge.to, amount, gas, score: amount - gas * step.toGasCost, edge, parent: label, hops };
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
    const value = (p: SwapPath) => net(target, Number(p.amountOut), Number(p.gasUnits));
    priced.sort((a, b) => value(b) - value(a) || a.legs.length - b.legs.length);
    if (priced.length > 0) result.set(target, priced);
  }
  return result;
}

/** A search label: a path kept as a chain of parents (paths have at most a handful of hops). */
interface EstimatedLabel {
  readonly token: string;
  readonly amount: number;
  /** Estimated gas units of the hops so far. */
  readonly gas: number;
  /** amount net of that gas, in the token's units: what labels are ranked by. */
  readonly score: number;
  readonly edge: SwapEdge | undefined;
  readonly parent: EstimatedLabel | undefined;
  readonly hops: number;
}

/**
 * Whether following `edge` from `label` would revisit a token or reuse a pool of the path. Pools are the same
 * when their ids are; where the graph's pool ids are all distinct (checked when it is built) that is the same
 * pool object, compared without reading the ids.
 */
function visits(label: EstimatedLabel, edge: SwapEdge, poolIdsUnique: boolean): boolean {
  const to = edge.to;
  if (edge.kind !== 'pool') {
    for (let l: EstimatedLabel | undefined = label; l; l = l.parent) if (l.token === to) return true;
    return false;
  }
  const pool = edge.pool;
  for (let l: EstimatedLabel | undefined = label; l; l = l.parent) {
    if (l.token === to) return true;
    const e = l.edge;
    if (e !== undefined && e.kind === 'pool' && (e.pool === pool || (!poolIdsUnique && e.pool.id === pool.id))) return true;
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
  let list = best.get(label.token);
  if (list === undefined) best.set(label.token, (list = []));
  // A label is dominated by one with at least the amount and at most the hops.
  for (const l of list) if (l.score >= label.score && l.amount >= label.amount && l.hops <= label.hops) return false;
  // Drop the labels it dominates (in place, order kept), insert it before the first with a lower score, keep `keep`.
  let kept = 0;
  for (let k = 0; k < list.length; k++) {
    const l = list[k];
    if (!(label.score >= l.score && label.amount >= l.amount && label.hops <= l.hops)) list[kept++] = l;
  }
  list.length = kept;
  let at = kept;
  for (let k = 0; k < kept; k++) {
    if (label.score > list[k].score) {
      at = k;
      break;
    }
  }
  for (let k = kept; k > at; k--) list[k] = list[k - 1]; // list.splice(at, 0, label) without its array of removed items
  list[at] = label;
  if (list.length > keep) list.pop();
  return list[at] === label;
}
