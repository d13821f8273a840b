/**
 * Swap-path search on one chain: a label-setting search over at most `maxHops` pool hops (wraps are free),
 * keeping for every token the few best labels that no other label dominates (more output in no more hops).
 * Output of a pool is monotone in its input, so extending the best labels finds the best simple path;
 * keeping several labels per token covers paths that would reuse a pool.
 */
import { HOP_GAS, type HopQuote } from '../liquidity/poolQuote';
import { estimateOut } from '../liquidity/estimate';
import { WRAP_GAS, type RoutingGraph, type SwapEdge } from './graph';
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
      for (const edge of graph.edgesFrom(chainId, label.token)) {
        const isPool = edge.kind === 'pool';
        const hops = label.hops + (isPool ? 1 : 0);
        const remaining = distance.get(edge.to);
        if (remaining === undefined || hops + remaining > options.maxHops) continue;
        if (visits(label, edge)) continue;
        let amount = label.amount;
        let gas = label.gas + WRAP_GAS_UNITS;
        if (edge.kind === 'pool') {
          if (!options.allowExchange(edge.pool.exchange) || options.excludedPools?.has(edge.pool.id)) continue;
          amount = estimateOut(edge.pool, edge.i, edge.j, label.amount);
          if (!(amount > 0)) continue;
          gas = label.gas + HOP_GAS_UNITS[edge.pool.kind];
        }
        const extended: EstimatedLabel = { token: edge.to, amount, gas, score: net(edge.to, amount, gas), edge, parent: label, hops };
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

const HOP_GAS_UNITS = {
  constantProduct: Number(HOP_GAS.constantProduct),
  concentrated: Number(HOP_GAS.concentrated),
  stableswap: Number(HOP_GAS.stableswap),
} as const;
const WRAP_GAS_UNITS = Number(WRAP_GAS);

/** Candidates kept per token during the estimated search (then priced exactly). */
const ESTIMATED_LABELS = 4;

function insertEstimated(best: Map<string, EstimatedLabel[]>, label: EstimatedLabel, keep: number): boolean {
  const list = best.get(label.token) ?? [];
  // A label is dominated by one with at least the amount and at most the hops.
  if (list.some((l) => l.score >= label.score && l.amount >= label.amount && l.hops <= label.hops)) return false;
  const kept = list.filter((l) => !(label.score >= l.score && label.amount >= l.amount && label.hops <= l.hops));
  let at = kept.findIndex((l) => label.score > l.score);
  if (at < 0) at = kept.length;
  kept.splice(at, 0, label);
  if (kept.length > keep) kept.pop();
  best.set(label.token, kept);
  return kept.includes(label);
}
