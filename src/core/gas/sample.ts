/**
 * The transaction sample behind a gas suggestion: 10 approvals and 10 swaps on the chain, priced in gas
 * units with the routing model's figures. Pure, bigint only.
 *
 *   approval            APPROVAL_GAS = 46,000 (an ERC-20 approve: routing-models "approval ~46k")
 *   swap of pool kind k ROUTER_BASE_GAS + HOP_GAS[k] = 75,000 + (120,000 | 140,000 | 180,000)
 *                       = 195,000 constant product, 215,000 concentrated (no tick crossed), 255,000 stableswap
 *                       (HOP_GAS includes the router's per-SwapData SWAP_CALL_GAS of 60,000)
 *   swap mix            the 10 swaps are shared among the chain's pool kinds in proportion to its number
 *                       of pools of each kind (largest remainder; ties in the order constantProduct,
 *                       concentrated, stableswap): "10 representative swaps of that chain's pools"
 *   average             ceil((10 · 46,000 + Σ swaps) / 20)   (rounded up: gas estimates err high)
 */
import { HOP_GAS } from '../liquidity/poolQuote';
import type { PoolKind } from '../liquidity/snapshot';
import { divCeil } from '../math/rational';
import { ROUTER_BASE_GAS } from '../routing/pricing';

export const APPROVAL_GAS = 46_000n;
export const SAMPLE_APPROVALS = 10;
export const SAMPLE_SWAPS = 10;
export const POOL_KINDS: readonly PoolKind[] = ['constantProduct', 'concentrated', 'stableswap'];

/** Gas of one single-hop swap through the router on a pool of this kind. */
export function swapGas(kind: PoolKind): bigint {
  return ROUTER_BASE_GAS + HOP_GAS[kind];
}

/**
 * How many of `swaps` sample swaps go to each pool kind: proportional to `poolCounts` by largest
 * remainder (integer arithmetic: quota_k = swaps·count_k / total, remainder compared as swaps·count_k mod total).
 */
export function swapMix(poolCounts: Readonly<Partial<Record<PoolKind, number>>>, swaps = SAMPLE_SWAPS): Record<PoolKind, number> {
  const total = POOL_KINDS.reduce((sum, kind) => sum + (poolCounts[kind] ?? 0), 0);
  const mix: Record<PoolKind, number> = { constantProduct: 0, concentrated: 0, stableswap: 0 };
  if (total === 0) return mix;
  for (const kind of POOL_KINDS) mix[kind] = Math.floor((swaps * (poolCounts[kind] ?? 0)) / total);
  let left = swaps - POOL_KINDS.reduce((sum, kind) => sum + mix[kind], 0);
  const byRemainder = [...POOL_KINDS].sort((a, b) => ((swaps * (poolCounts[b] ?? 0)) % total) - ((swaps * (poolCounts[a] ?? 0)) % total));
  for (const kind of byRemainder) {
    if (left === 0) break;
    mix[kind] += 1;
    left -= 1;
  }
  return mix;
}

export interface TransactionSample {
  readonly approvals: number;
  readonly swaps: Readonly<Record<PoolKind, number>>;
  /** Gas of the whole sample (10 approvals + 10 swaps). */
  readonly totalGas: bigint;
  /** Gas of an average transaction of the sample, rounded up. */
  readonly averageGas: bigint;
}

/** The 10 + 10 sample of a chain whose pools have these kinds; undefined when the chain has no pools. */
export function transactionSample(poolKinds: readonly PoolKind[]): TransactionSample | undefined {
  if (poolKinds.length === 0) return undefined;
  const counts: Partial<Record<PoolKind, number>> = {};
  for (const kind of poolKinds) counts[kind] = (counts[kind] ?? 0) + 1;
  const swaps = swapMix(counts);
  const swapTotal = POOL_KINDS.reduce((sum, kind) => sum + BigInt(swaps[kind]) * swapGas(kind), 0n);
  const totalGas = BigInt(SAMPLE_APPROVALS) * APPROVAL_GAS + swapTotal;
  return { approvals: SAMPLE_APPROVALS, swaps, totalGas, averageGas: divCeil(totalGas, BigInt(SAMPLE_APPROVALS + SAMPLE_SWAPS)) };
}
