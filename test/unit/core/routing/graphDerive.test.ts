/**
 * A graph derived from the previous one when pools change (RoutingGraph.derive, what chain mode does on each block)
 * answers exactly as a graph built whole from the same snapshot, and keeps the memos of the chains it did not touch:
 * their edges, reaches and pools' float models are the same objects; the touched chain's are new.
 */
import { DEFAULT_DATA_DIR, DEFAULT_SNAPSHOT_DIR } from '../../../../src/config';
import { loadCatalog } from '../../../../src/core/catalog/load';
import { loadSnapshot } from '../../../../src/core/liquidity/load';
import type { ConstantProductPoolState, LiquiditySnapshot, PoolState } from '../../../../src/core/liquidity/snapshot';
import { RouteFinder } from '../../../../src/core/routing/finder';
import { RoutingGraph } from '../../../../src/core/routing/graph';
import { buildRouteRequest } from '../../../../src/core/routing/request';

const catalog = loadCatalog(DEFAULT_DATA_DIR);
const base = loadSnapshot(DEFAULT_SNAPSHOT_DIR, catalog);
const ARB = 42161;

/** The snapshot with every constant-product pool of `chainId` holding 3 % more of its first token. */
function moved(snapshot: LiquiditySnapshot, chainId: number): { snapshot: LiquiditySnapshot; changed: PoolState[] } {
  const changed: PoolState[] = [];
  const pools = snapshot.pools.map((p) => {
    if (p.chainId !== chainId || p.kind !== 'constantProduct') return p;
    const next: ConstantProductPoolState = { ...p, reserves: [(p.reserves[0] * 103n) / 100n, p.reserves[1]] };
    changed.push(next);
    return next;
  });
  return { snapshot: { ...snapshot, pools }, changed };
}

const requests = [
  { fromChain: 'arb', toChain: 'arb', fromToken: 'USDC', toToken: 'ETH', amount: '250000000' },
  { fromChain: 'arb', toChain: 'arb', fromToken: 'WETH', toToken: 'USDT', amount: '3000000000000000000' },
  { fromChain: 'eth', toChain: 'eth', fromToken: 'ETH', toToken: 'USDC', amount: '1000000000000000000' },
  { fromChain: 'bas', toChain: 'arb', fromToken: 'ETH', toToken: 'USDC', amount: '1000000000000000000' },
  { fromChain: 'arb', toChain: 'opt', fromToken: 'WETH', toToken: 'USDC', amount: '2000000000000000000' },
].map((r) => buildRouteRequest(catalog, { ...r, mode: 'exactIn', maxRoutes: 5 }));

const answers = (graph: RoutingGraph) => requests.map((r) => JSON.stringify(new RouteFinder(graph).find(r), (_k, v) => (typeof v === 'bigint' ? `${v}n` : v)));

test('a derived graph answers as a graph built whole from the same snapshot', () => {
  const previous = new RoutingGraph(catalog, base);
  answers(previous); // its memos filled, as a serving graph's are
  const { snapshot, changed } = moved(base, ARB);
  expect(changed.length).toBeGreaterThan(5);
  const derived = RoutingGraph.derive(previous, snapshot, new Set([ARB]));
  const whole = new RoutingGraph(catalog, snapshot);
  expect(answers(derived)).toEqual(answers(whole));
  // and the change shows: Arbitrum's answers moved, the previous graph's did not
  expect(answers(derived)[0]).not.toEqual(answers(previous)[0]);
});

test('untouched chains keep their edges, reaches and pool models; the touched chain is indexed again', () => {
  const previous = new RoutingGraph(catalog, base);
  const usdcEth = catalog.addressKey(1, catalog.findToken(1, 'USDC')!.address);
  const usdcArb = catalog.addressKey(ARB, catalog.findToken(ARB, 'USDC')!.address);
  const reachEth = previous.reachOf(1, [usdcEth], 3);
  const reachArb = previous.reachOf(ARB, [usdcArb], 3);
  const ethPool = base.pools.find((p) => p.chainId === 1)!;
  const modelEth = previous.poolEstimate(ethPool);
  const { snapshot, changed } = moved(base, ARB);
  const derived = RoutingGraph.derive(previous, snapshot, new Set([ARB]));

  expect(derived.edgesFrom(1, usdcEth)).toBe(previous.edgesFrom(1, usdcEth));
  expect(derived.reachOf(1, [usdcEth], 3)).toBe(reachEth);
  expect(derived.poolEstimate(ethPool)).toBe(modelEth);
  expect(derived.edgesFrom(ARB, usdcArb)).not.toBe(previous.edgesFrom(ARB, usdcArb));
  expect(derived.reachOf(ARB, [usdcArb], 3)).not.toBe(reachArb);
  // the touched chain's edges hold the new pool states
  const edgePools = new Set(derived.edgesFrom(ARB, usdcArb).flatMap((e) => (e.kind === 'pool' ? [e.pool] : [])));
  expect(changed.some((p) => edgePools.has(p))).toBe(true);
  expect([...edgePools].every((p) => snapshot.pools.includes(p))).toBe(true);
});

test('gas that moved on a chain is a touch: its gas costs are computed again', () => {
  const previous = new RoutingGraph(catalog, base);
  const weth = catalog.addressKey(ARB, catalog.findToken(ARB, 'WETH')!.address);
  const before = previous.gasCostInToken(ARB, weth);
  const gas = new Map(base.gas);
  gas.set(ARB, { ...gas.get(ARB)!, gasPriceWei: gas.get(ARB)!.gasPriceWei * 2n });
  const derived = RoutingGraph.derive(previous, { ...base, gas }, new Set([ARB]));
  expect(derived.gasCostInToken(ARB, weth)).toBeCloseTo(before * 2, 6);
  expect(derived.gasCostInToken(1, catalog.addressKey(1, catalog.findToken(1, 'WETH')!.address))).toBe(previous.gasCostInToken(1, catalog.addressKey(1, catalog.findToken(1, 'WETH')!.address)));
});
