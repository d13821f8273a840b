/**
 * Swap-path search on one chain: a label-setting search over at most `maxHops` pool hops (wraps are free),
 * keeping for every token the best few labels (most output for exact input, least input for exact output).
 * Output of a pool is monotone in its input, so extending the best labels finds the best simple path;
 * keeping several labels per token covers paths that would reuse a pool.
 */
import { quoteHopExactIn, quoteHopExactOut, type HopQuote } from '../liquidity/poolQuote';
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

interface Label {
  readonly token: string;
  readonly amount: bigint;
  readonly legs: readonly SwapLeg[];
  readonly hops: number;
  readonly visited: ReadonlySet<string>;
}

const DEFAULT_LABELS = 3;

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

/** Exact output: the cheapest paths delivering `amountOut` of `toToken`, per starting token in `sources`. */
export function searchExactOut(
  graph: RoutingGraph,
  chainId: number,
  toToken: string,
  amountOut: bigint,
  sources: readonly string[],
  options: PathSearchOptions,
  memo: QuoteMemo,
): Map<string, SwapPath[]> {
  return search(graph, chainId, toToken, amountOut, sources, options, memo, 'out');
}

function search(
  graph: RoutingGraph,
  chainId: number,
  start: string,
  amount: bigint,
  targets: readonly string[],
  options: PathSearchOptions,
  memo: QuoteMemo,
  mode: 'in' | 'out',
): Map<string, SwapPath[]> {
  const keep = options.labelsPerToken ?? DEFAULT_LABELS;
  const distance = graph.hopsToTargets(chainId, targets, options.maxHops);
  const targetSet = new Set(targets);
  const better = mode === 'in' ? (a: bigint, b: bigint) => a > b : (a: bigint, b: bigint) => a < b;
  const best = new Map<string, Label[]>();
  const initial: Label = { token: start, amount, legs: [], hops: 0, visited: new Set([start]) };
  insert(best, initial, keep, better);

  let frontier: Label[] = [initial];
  while (frontier.length > 0) {
    const next: Label[] = [];
    for (const label of frontier) {
      for (const edge of graph.edgesFrom(chainId, label.token)) {
        const step = extend(label, edge, mode, options, distance, memo);
        if (step && insert(best, step, keep, better)) next.push(step);
      }
    }
    frontier = next;
  }

  const result = new Map<string, SwapPath[]>();
  for (const target of targetSet) {
    const labels = best.get(target);
    if (!labels) continue;
    result.set(target, labels.map((l) => toPath(chainId, start, l, mode)));
  }
  return result;
}

function extend(
  label: Label,
  edge: SwapEdge,
  mode: 'in' | 'out',
  options: PathSearchOptions,
  distance: ReadonlyMap<string, number>,
  memo: QuoteMemo,
): Label | undefined {
  if (label.visited.has(edge.to)) return undefined;
  const isPool = edge.kind === 'pool';
  const hops = label.hops + (isPool ? 1 : 0);
  const remaining = distance.get(edge.to);
  if (remaining === undefined || hops + remaining > options.maxHops) return undefined;
  let leg: SwapLeg;
  if (edge.kind === 'pool') {
    if (!options.allowExchange(edge.pool.exchange) || options.excludedPools?.has(edge.pool.id)) return undefined;
    if (label.legs.some((l) => l.edge.kind === 'pool' && l.edge.pool.id === edge.pool.id)) return undefined;
    // Exact output walks backwards: `edge` goes from the output token (label.token) to an input token.
    const key = `${edge.pool.id}:${edge.i}:${edge.j}:${mode}:${label.amount}`;
    let quote = memo.get(key);
    if (!quote) {
      quote = mode === 'in'
        ? quoteHopExactIn(edge.pool, edge.i, edge.j, label.amount)
        : quoteHopExactOut(edge.pool, edge.j, edge.i, label.amount);
      memo.set(key, quote);
    }
    if (!quote.ok) return undefined;
    leg = mode === 'in'
      ? { edge, amountIn: label.amount, amountOut: quote.amountOut, gasUnits: quote.gasUnits }
      : { edge: { ...edge, i: edge.j, j: edge.i, from: edge.to, to: edge.from }, amountIn: quote.amountIn, amountOut: label.amount, gasUnits: quote.gasUnits };
  } else {
    leg = mode === 'in'
      ? { edge, amountIn: label.amount, amountOut: label.amount, gasUnits: WRAP_GAS }
      : { edge: { kind: edge.kind === 'wrap' ? 'unwrap' : 'wrap', from: edge.to, to: edge.from }, amountIn: label.amount, amountOut: label.amount, gasUnits: WRAP_GAS };
  }
  const visited = new Set(label.visited);
  visited.add(edge.to);
  return {
    token: edge.to,
    amount: mode === 'in' ? leg.amountOut : leg.amountIn,
    legs: [...label.legs, leg],
    hops,
    visited,
  };
}

/** Keeps the `keep` best labels of a token; true when the new label made it. */
function insert(best: Map<string, Label[]>, label: Label, keep: number, better: (a: bigint, b: bigint) => boolean): boolean {
  const list = best.get(label.token) ?? [];
  if (list.length >= keep && !better(label.amount, list[list.length - 1].amount)) return false;
  let at = list.findIndex((l) => better(label.amount, l.amount) || (label.amount === l.amount && label.legs.length < l.legs.length));
  if (at < 0) at = list.length;
  list.splice(at, 0, label);
  if (list.length > keep) list.pop();
  best.set(label.token, list);
  return list.includes(label);
}

function toPath(chainId: number, start: string, label: Label, mode: 'in' | 'out'): SwapPath {
  const legs = mode === 'in' ? label.legs : [...label.legs].reverse();
  const gasUnits = legs.reduce((sum, l) => sum + l.gasUnits, 0n);
  return mode === 'in'
    ? { chainId, fromToken: start, toToken: label.token, amountIn: label.legs[0]?.amountIn ?? label.amount, amountOut: label.amount, legs, gasUnits }
    : { chainId, fromToken: label.token, toToken: start, amountIn: label.amount, amountOut: legs[legs.length - 1]?.amountOut ?? label.amount, legs, gasUnits };
}
