/**
 * The primary's feed to its workers: an update carries the pools that differ from the snapshot and the gas, big
 * integers exact through JSON; a worker that applies it holds the graph the primary published (the same answers),
 * keeps the objects (and memos) of the chains not touched, and a worker that starts late gets the whole state.
 */
import { DEFAULT_DATA_DIR, DEFAULT_SNAPSHOT_DIR } from '../../../src/config';
import { loadCatalog } from '../../../src/files/catalog';
import { loadSnapshot } from '../../../src/files/snapshot';
import type { ConcentratedPoolState, ConstantProductPoolState, LiquiditySnapshot } from '../../../src/core/liquidity/snapshot';
import { LiquidityState } from '../../../src/core/routing/liquidityState';
import type { Token } from '../../../src/core/entities';
import { RouteFinder } from '../../../src/core/routing/finder';
import { RoutingGraph } from '../../../src/core/routing/graph';
import { buildRouteRequest } from '../../../src/core/routing/request';
import { applyUpdate, decodeUpdate, encodeUpdate, LiquidityFeed, type LiquidityUpdate } from '../../../src/chain/liquidityFeed';

const catalog = loadCatalog(DEFAULT_DATA_DIR);
const base = loadSnapshot(DEFAULT_SNAPSHOT_DIR, catalog);
const ARB = 42161;

/** The snapshot with Arbitrum's first V2 pair and first V3 pool moved, and Arbitrum's gas doubled. */
function moved(snapshot: LiquiditySnapshot): LiquiditySnapshot {
  const v2 = snapshot.pools.find((p) => p.chainId === ARB && p.kind === 'constantProduct')!;
  const v3 = snapshot.pools.find((p) => p.chainId === ARB && p.kind === 'concentrated')!;
  const pools = snapshot.pools.map((p) => {
    if (p === v2) return { ...p, reserves: [(p as ConstantProductPoolState).reserves[0] * 2n, (p as ConstantProductPoolState).reserves[1]] } as ConstantProductPoolState;
    if (p === v3) return { ...p, v3: { ...(p as ConcentratedPoolState).v3, liquidity: (p as ConcentratedPoolState).v3.liquidity + 12345678901234567890n } } as ConcentratedPoolState;
    return p;
  });
  const gas = new Map(snapshot.gas);
  gas.set(ARB, { ...gas.get(ARB)!, gasPriceWei: gas.get(ARB)!.gasPriceWei * 2n });
  return { ...snapshot, pools, gas };
}

const requests = [
  { fromChain: 'arb', toChain: 'arb', fromToken: 'USDC', toToken: 'ETH', amount: '250000000' },
  { fromChain: 'eth', toChain: 'arb', fromToken: 'USDC', toToken: 'WETH', amount: '5000000000' },
].map((r) => buildRouteRequest(catalog, { ...r, mode: 'exactIn' }));
const answers = (graph: RoutingGraph) => requests.map((r) => JSON.stringify(new RouteFinder(graph).find(r).routes.map((x) => [x.overallPath, `${x.toAmount}`])));

test('an update goes through JSON with its big integers exact', () => {
  const update: LiquidityUpdate = { type: 'liquidity', touched: [ARB], pools: moved(base).pools.filter((p) => !base.pools.includes(p)), dropped: [], gas: [...moved(base).gas.values()], prices: [['WETH', '3000']], tokens: [] };
  expect(update.pools).toHaveLength(2);
  expect(decodeUpdate(encodeUpdate(update))).toEqual(update);
});

test('a worker that applies the updates holds the graph of the primary; untouched chains keep their objects', () => {
  const primary = new LiquidityState(new RoutingGraph(catalog, base));
  const sent: string[] = [];
  const feed = new LiquidityFeed(primary, base, (u) => sent.push(encodeUpdate(u)));
  const worker = new LiquidityState(new RoutingGraph(catalog, base));
  const before = worker.graph;

  feed.replace(RoutingGraph.derive(primary.graph, moved(base), new Set([ARB])));
  expect(sent).toHaveLength(1);
  expect(decodeUpdate(sent[0]).touched).toEqual([ARB]);
  applyUpdate(worker, base, decodeUpdate(sent[0]));

  expect(answers(worker.graph)).toEqual(answers(primary.graph));
  expect(answers(worker.graph)).not.toEqual(answers(before));
  const ethPool = base.pools.find((p) => p.chainId === 1)!;
  expect(worker.graph.poolById(ethPool.id)).toBe(before.poolById(ethPool.id));
  expect(worker.graph.gas(ARB)!.gasPriceWei).toBe(base.gas.get(ARB)!.gasPriceWei * 2n);

  // a graph with nothing new sends nothing; a worker that starts now gets the whole state at once
  feed.replace(primary.graph);
  expect(sent).toHaveLength(1);
  const late = new LiquidityState(new RoutingGraph(catalog, base));
  applyUpdate(late, base, decodeUpdate(encodeUpdate(feed.latest())));
  expect(answers(late.graph)).toEqual(answers(primary.graph));
});

test('a pool the primary no longer quotes (no contract on the chain) leaves the workers\' graphs too', () => {
  const primary = new LiquidityState(new RoutingGraph(catalog, base));
  const sent: string[] = [];
  const feed = new LiquidityFeed(primary, base, (u) => sent.push(encodeUpdate(u)));
  const worker = new LiquidityState(new RoutingGraph(catalog, base));
  const gone = base.pools.find((p) => p.chainId === ARB)!;
  feed.replace(RoutingGraph.derive(primary.graph, { ...base, pools: base.pools.filter((p) => p !== gone) }, new Set([ARB])));
  expect(decodeUpdate(sent[0]).dropped).toEqual([gone.id]);
  applyUpdate(worker, base, decodeUpdate(sent[0]));
  expect(worker.graph.poolById(gone.id)).toBeUndefined();
  expect(worker.graph.pools).toHaveLength(base.pools.length - 1);
});

test('the primary\'s prices (from its pools) reach the workers, with the pools that make them', () => {
  const primary = new LiquidityState(new RoutingGraph(catalog, base));
  const sent: string[] = [];
  const feed = new LiquidityFeed(primary, base, (u) => sent.push(encodeUpdate(u)));
  const worker = new LiquidityState(new RoutingGraph(catalog, base));
  const repriced = catalog.withPrices(new Map([['WETH', '3000'], ['ETH', '3000']]));
  feed.replace(RoutingGraph.derive(primary.graph, moved(base), new Set([ARB]), repriced));
  applyUpdate(worker, base, decodeUpdate(sent[0]));
  expect(worker.graph.catalog.findToken(ARB, 'WETH')!.priceUSD).toBe('3000');
  expect(worker.graph.catalog.getChain(1)!.nativeToken.priceUSD).toBe('3000');
  // gas in USDC follows ETH's price
  const usdc = catalog.findToken(ARB, 'USDC')!.address.toLowerCase();
  expect(worker.graph.gasCostInToken(ARB, usdc)).toBe(primary.graph.gasCostInToken(ARB, usdc));
  expect(worker.graph.gasCostInToken(ARB, usdc)).not.toBe(new RoutingGraph(catalog, moved(base)).gasCostInToken(ARB, usdc));
  expect(answers(worker.graph)).toEqual(answers(primary.graph));
  // prices alone (no pool moved) are an update too
  feed.replace(RoutingGraph.derive(primary.graph, primary.graph.snapshot, new Set(), catalog));
  expect(sent).toHaveLength(2);
  applyUpdate(worker, base, decodeUpdate(sent[1]));
  expect(worker.graph.catalog.findToken(ARB, 'WETH')!.priceUSD).toBe(catalog.findToken(ARB, 'WETH')!.priceUSD);
});

test('a token the primary found with a pool reaches the workers with the pool: same token, same price, same quotes', () => {
  const primary = new LiquidityState(new RoutingGraph(catalog, base));
  const sent: string[] = [];
  const feed = new LiquidityFeed(primary, base, (u) => sent.push(encodeUpdate(u)));
  const worker = new LiquidityState(new RoutingGraph(catalog, base));
  const found: Token = {
    chainId: ARB, address: '0x00000000000000000000000000000000000D15c0', symbol: 'USDC', decimals: 18, name: 'Not USD Coin',
    coinKey: `${ARB}:0x00000000000000000000000000000000000D15c0`, priceUSD: '0', tags: [], verificationStatus: 'unverified',
  };
  const usdc = catalog.addressKey(ARB, catalog.findToken(ARB, 'USDC')!.address);
  const pair: ConstantProductPoolState = {
    id: `${ARB}:uniswap:constantProduct:${found.address}-USDC:3000`, chainId: ARB, exchange: 'uniswap', kind: 'constantProduct',
    address: '0x1000000000000000000000000000000000000009', tokens: [found.address.toLowerCase(), usdc], feePpm: 3000n, reserves: [10n ** 24n, 2_000_000n * 10n ** 6n],
  };
  const priced = catalog.withDiscoveredTokens([found]).withPrices(new Map([[found.coinKey, '2']]));
  feed.replace(RoutingGraph.derive(primary.graph, { ...base, pools: [...base.pools, pair] }, new Set([ARB]), priced));
  const update = decodeUpdate(sent[0]);
  expect(update.tokens).toEqual([{ ...found, priceUSD: '2' }]);
  applyUpdate(worker, base, update);
  expect(worker.graph.catalog.findToken(ARB, found.address)).toEqual({ ...found, priceUSD: '2' });
  const buy = buildRouteRequest(worker.graph.catalog, { fromChain: 'arb', toChain: 'arb', fromToken: 'USDC', toToken: found.address, amount: '1000000', mode: 'exactIn' });
  const quoted = (graph: RoutingGraph) => new RouteFinder(graph).find(buy).routes.map((r) => `${r.overallPath} ${r.toAmount}`);
  expect(quoted(worker.graph)).toEqual(quoted(primary.graph));
  expect(quoted(worker.graph)).toHaveLength(1);
});
