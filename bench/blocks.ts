/**
 * Block benchmark: `npm run bench:blocks` (tsx bench/blocks.ts [--blocks=200] [--changed=1,4,16] [--seed=7]
 * [--scale=1,10,40]).
 *
 * What one instance pays when a block changes k pools of a chain (chain mode): the graph derived from the previous
 * one (RoutingGraph.derive: only the touched chain indexed again, every other memo kept) against a graph built
 * whole, each followed by the quotes users then ask (a fixed mix of same-chain and cross-chain quotes, new amounts
 * each block, as real traffic is). Prints, per k: the update alone (p50 / p99), the update with the quotes after it,
 * and the blocks per second one core keeps up with at that cost, for the embedded snapshot's pool counts per chain and
 * with Arbitrum's pools multiplied by each `--scale` (copies at other addresses, as a chain with more pools has):
 * pools per chain × blocks per second. The answers of the derived and the whole graph are compared on every block: any difference is printed and fails
 * the run (exit 1). Figures are printed, not asserted.
 */
import { DEFAULT_DATA_DIR, DEFAULT_SNAPSHOT_DIR } from '../src/config';
import { loadCatalog } from '../src/files/catalog';
import { loadSnapshot } from '../src/files/snapshot';
import type { ConstantProductPoolState, ConcentratedPoolState, LiquiditySnapshot, PoolState } from '../src/core/liquidity/snapshot';
import { RouteFinder } from '../src/core/routing/finder';
import { RoutingGraph } from '../src/core/routing/graph';
import { buildRouteRequest } from '../src/core/routing/request';
import type { RouteRequest } from '../src/core/routing/route';
import { prng } from './requests';

const catalog = loadCatalog(DEFAULT_DATA_DIR);
const base = loadSnapshot(DEFAULT_SNAPSHOT_DIR, catalog);
const CHAIN = 42161;

function args(): { blocks: number; changed: number[]; seed: number; scale: number[] } {
  const get = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  return {
    blocks: Number(get('blocks') ?? 200),
    changed: (get('changed') ?? '1,4,16').split(',').map(Number),
    seed: Number(get('seed') ?? 7),
    scale: (get('scale') ?? '1,10,40').split(',').map(Number),
  };
}

/** A pool after a swap of a few per mille: reserves moved (V2), the V3 price moved within its current range. */
function swapped(pool: PoolState, rnd: () => number): PoolState {
  const ppm = BigInt(1 + Math.floor(rnd() * 5000));
  if (pool.kind === 'constantProduct') {
    const p = pool as ConstantProductPoolState;
    return { ...p, reserves: [p.reserves[0] + (p.reserves[0] * ppm) / 1_000_000n, p.reserves[1] - (p.reserves[1] * ppm) / 1_000_000n] };
  }
  if (pool.kind === 'concentrated') {
    const p = pool as ConcentratedPoolState;
    return { ...p, v3: { ...p.v3, liquidity: p.v3.liquidity + (p.v3.liquidity * ppm) / 1_000_000n } };
  }
  return { ...pool, balances: pool.balances.map((b, k) => (k === 0 ? b + (b * ppm) / 1_000_000n : b)) };
}

function quotes(rnd: () => number): RouteRequest[] {
  const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)];
  const amount = (usd: number, decimals: number, price: number) => BigInt(Math.max(1, Math.floor((usd / price) * 10 ** Math.min(decimals, 12)))) * 10n ** BigInt(Math.max(0, decimals - 12));
  return [
    ['arb', 'arb', 'USDC', 'ETH', 6, 1], ['arb', 'arb', 'WETH', 'USDT', 18, 3250], ['eth', 'eth', 'ETH', 'USDC', 18, 3250],
    ['bas', 'arb', 'ETH', 'USDC', 18, 3250], ['arb', 'opt', 'USDC', 'WETH', 6, 1],
  ].map(([fromChain, toChain, fromToken, toToken, decimals, price]) =>
    buildRouteRequest(catalog, {
      fromChain: fromChain as string, toChain: toChain as string, fromToken: fromToken as string, toToken: toToken as string,
      amount: amount(10 + rnd() * pick([100, 1000, 10_000]), decimals as number, price as number).toString(), mode: 'exactIn',
    }));
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const fmt = (ms: number) => `${ms.toFixed(ms < 1 ? 3 : 1)} ms`;
const answer = (graph: RoutingGraph, request: RouteRequest) => JSON.stringify(new RouteFinder(graph).find(request).routes.map((r) => [r.overallPath, r.toAmount]), (_k, v) => (typeof v === 'bigint' ? `${v}` : v));

/** The snapshot with Arbitrum's pools `scale` times over (copies at other ids and addresses: the same liquidity again). */
function scaled(snapshot: LiquiditySnapshot, scale: number): LiquiditySnapshot {
  if (scale <= 1) return snapshot;
  const chainPools = snapshot.pools.filter((p) => p.chainId === CHAIN);
  const copies = Array.from({ length: scale - 1 }, (_, k) => chainPools.map((p) => ({ ...p, id: `${p.id}#${k + 1}`, address: `0x${(k + 1).toString(16).padStart(4, '0')}${p.address.slice(6)}` }) as PoolState)).flat();
  return { ...snapshot, pools: [...snapshot.pools, ...copies] };
}

function main(): void {
  const { blocks, changed, seed, scale } = args();
  let mismatches = 0;
  for (const s of scale) mismatches += run(scaled(base, s), blocks, changed, seed);
  console.log(mismatches === 0 ? 'answers: derived = whole on every block' : `answers: ${mismatches} blocks differ`);
  process.exit(mismatches === 0 ? 0 : 1);
}

/** One row per k on `snapshot`; the blocks whose answers differed. */
function run(snapshot0: LiquiditySnapshot, blocks: number, changed: number[], seed: number): number {
  const base = snapshot0;
  const chainPools = base.pools.filter((p) => p.chainId === CHAIN);
  const perChain = new Map<number, number>();
  for (const p of base.pools) perChain.set(p.chainId, (perChain.get(p.chainId) ?? 0) + 1);
  console.log(`block bench: ${base.pools.length} pools on ${perChain.size} chains (Arbitrum ${chainPools.length}; most on one chain ${Math.max(...perChain.values())}); ${blocks} blocks per row, k pools of Arbitrum changed per block, 5 new quotes after each`);
  let mismatches = 0;
  for (const k of changed) {
    const rnd = prng(seed + k);
    let snapshot: LiquiditySnapshot = base;
    let derived = new RoutingGraph(catalog, base);
    const timings = { derive: [] as number[], whole: [] as number[], deriveQuotes: [] as number[], wholeQuotes: [] as number[] };
    for (let b = 0; b < blocks; b++) {
      const touched = new Set<PoolState>();
      while (touched.size < Math.min(k, chainPools.length)) touched.add(chainPools[Math.floor(rnd() * chainPools.length)]);
      const byId = new Map([...touched].map((p) => [p.id, p]));
      const pools = snapshot.pools.map((p) => (byId.has(p.id) ? swapped(p, rnd) : p));
      snapshot = { ...snapshot, pools };
      const requests = quotes(rnd);

      let t = performance.now();
      derived = RoutingGraph.derive(derived, snapshot, new Set([CHAIN]));
      timings.derive.push(performance.now() - t);
      const derivedAnswers = requests.map((r) => answer(derived, r));
      timings.deriveQuotes.push(performance.now() - t);

      t = performance.now();
      const whole = new RoutingGraph(catalog, snapshot);
      timings.whole.push(performance.now() - t);
      const wholeAnswers = requests.map((r) => answer(whole, r));
      timings.wholeQuotes.push(performance.now() - t);

      if (JSON.stringify(derivedAnswers) !== JSON.stringify(wholeAnswers)) {
        mismatches++;
        if (mismatches <= 3) console.log(`  MISMATCH at k=${k} block ${b}: ${derivedAnswers.find((a, i) => a !== wholeAnswers[i])}`);
      }
    }
    const row = (name: string, values: number[]) => `${name} p50 ${fmt(percentile(values, 50))} p99 ${fmt(percentile(values, 99))}`;
    const blocksPerSecond = (values: number[]) => Math.floor(1000 / percentile(values, 50));
    console.log(`k=${k}: derived: ${row('update', timings.derive)}, ${row('update + quotes', timings.deriveQuotes)} → ${blocksPerSecond(timings.deriveQuotes)} blocks/s`);
    console.log(`${' '.repeat(String(k).length + 3)}whole:   ${row('update', timings.whole)}, ${row('update + quotes', timings.wholeQuotes)} → ${blocksPerSecond(timings.wholeQuotes)} blocks/s`);
  }
  return mismatches;
}

main();
