import { DEFAULT_DATA_DIR } from '../../../../src/config';
import { loadCatalog } from '../../../../src/files/catalog';
import type { BridgeRoute, ChainGas, ConstantProductPoolState, LiquiditySnapshot, StableswapPoolState } from '../../../../src/core/liquidity/snapshot';
import { RoutingGraph } from '../../../../src/core/routing/graph';
import { DEFAULT_SNAPSHOT_DIR } from '../../../../src/config';
import { loadSnapshot } from '../../../../src/files/snapshot';
import type { PoolState } from '../../../../src/core/liquidity/snapshot';
import { RouteFinder } from '../../../../src/core/routing/finder';
import { buildRouteRequest } from '../../../../src/core/routing/request';

// The real catalog (tokens, chains), a tiny hand-made snapshot: two pools on Ethereum, one on Optimism, three bridge routes.
const catalog = loadCatalog(DEFAULT_DATA_DIR);
const key = (chainId: number, symbol: string) => catalog.addressKey(chainId, catalog.findToken(chainId, symbol)!.address);

const USDC = key(1, 'USDC');
const WETH = key(1, 'WETH');
const ETH = key(1, 'ETH');
const DAI = key(1, 'DAI');
const USDT = key(1, 'USDT');
const LINK = key(1, 'LINK');
const USDC_10 = key(10, 'USDC');
const WETH_10 = key(10, 'WETH');
const USDC_56 = key(56, 'USDC');

const UNI: ConstantProductPoolState = {
  id: '1:uniswap:cp:USDC-WETH', chainId: 1, exchange: 'uniswap', kind: 'constantProduct', address: '0x1000000000000000000000000000000000000001',
  tokens: [USDC, WETH], feePpm: 3000n, reserves: [3_250_000_000_000n, 1_000_000_000_000_000_000_000n],
};
const CURVE: StableswapPoolState = {
  id: '1:curve:stable:3pool', chainId: 1, exchange: 'curve', kind: 'stableswap', address: '0x1000000000000000000000000000000000000002',
  tokens: [USDC, DAI, USDT], amp: 200n, feeE10: 4_000_000n,
  balances: [10_000_000_000_000n, 10_000_000_000_000_000_000_000_000n, 10_000_000_000_000n], rates: [10n ** 30n, 10n ** 18n, 10n ** 30n],
};
const OP: ConstantProductPoolState = {
  id: '10:velodrome:cp:USDC-WETH', chainId: 10, exchange: 'velodrome', kind: 'constantProduct', address: '0x1000000000000000000000000000000000000003',
  tokens: [USDC_10, WETH_10], feePpm: 500n, reserves: [650_000_000_000n, 200_000_000_000_000_000_000n],
};

const route = (bridge: string, fromChainId: number, fromToken: string, toChainId: number, toToken: string): BridgeRoute => ({
  bridge, fromChainId, toChainId, coinKey: 'USDC', fromToken, toToken, feePpm: 400n, fixedFee: 0n, destinationGasFee: 0n,
  minAmount: 1n, maxAmount: 10n ** 15n, durationSeconds: 60, gasUnits: 150_000n, nativeFee: 0n, mechanism: 'relayer',
});
const ACROSS = route('across', 1, USDC, 10, USDC_10);
const STARGATE = route('stargate', 1, USDC, 56, USDC_56);
const BACK = route('across', 10, USDC_10, 1, USDC);

const gas = (chainId: number, gasPriceWei: bigint): [number, ChainGas] => [chainId, { chainId, gasPriceWei, nativePriceUSD: 3250, blockTimeSeconds: 12, finalitySeconds: 60 }];
const snapshot: LiquiditySnapshot = {
  asOf: '2026-01-01', pools: [UNI, CURVE, OP], bridges: [ACROSS, STARGATE, BACK],
  gas: new Map([gas(1, 20_000_000_000n), gas(10, 100_000_000n)]),
};
const graph = new RoutingGraph(catalog, snapshot);

describe('RoutingGraph: swap edges', () => {
  it('a pool gives an edge in each direction between each two of its tokens, in pool order', () => {
    expect(graph.edgesFrom(1, USDC)).toEqual([
      { kind: 'pool', pool: UNI, i: 0, j: 1, from: USDC, to: WETH },
      { kind: 'pool', pool: CURVE, i: 0, j: 1, from: USDC, to: DAI },
      { kind: 'pool', pool: CURVE, i: 0, j: 2, from: USDC, to: USDT },
    ]);
    expect(graph.edgesFrom(1, USDT)).toEqual([
      { kind: 'pool', pool: CURVE, i: 2, j: 0, from: USDT, to: USDC },
      { kind: 'pool', pool: CURVE, i: 2, j: 1, from: USDT, to: DAI },
    ]);
    // the edges hold the pool object itself
    expect((graph.edgesFrom(1, USDC)[0] as { pool: unknown }).pool).toBe(UNI);
  });

  it('the native coin and its wrapped token are joined by wrap / unwrap edges (after the pool edges)', () => {
    expect(graph.edgesFrom(1, WETH)).toEqual([
      { kind: 'pool', pool: UNI, i: 1, j: 0, from: WETH, to: USDC },
      { kind: 'unwrap', from: WETH, to: ETH },
    ]);
    expect(graph.edgesFrom(1, ETH)).toEqual([{ kind: 'wrap', from: ETH, to: WETH }]);
    expect(graph.wrappedNativeOf(1)).toBe(WETH);
    expect(graph.wrappedNativeOf(10)).toBe(WETH_10);
  });

  it('wraps come from the catalog: also on EVM chains without any pool (POL ↔ WPOL on Polygon)', () => {
    const pol = key(137, 'POL');
    const wpol = key(137, 'WPOL');
    expect(graph.edgesFrom(137, pol)).toEqual([{ kind: 'wrap', from: pol, to: wpol }]);
    expect(graph.edgesFrom(137, wpol)).toEqual([{ kind: 'unwrap', from: wpol, to: pol }]);
  });

  it('no wrap on non-EVM chains, even when a W<native> token exists (Solana wSOL, Tron WTRX)', () => {
    expect(graph.wrappedNativeOf(1151111081099710)).toBeUndefined();
    expect(graph.wrappedNativeOf(728126428)).toBeUndefined();
  });

  it('a token without pools or wraps, or an unknown chain, has no edges; edge lists are frozen', () => {
    expect(graph.edgesFrom(1, LINK)).toEqual([]);
    expect(graph.edgesFrom(999, USDC)).toEqual([]);
    expect(Object.isFrozen(graph.edgesFrom(1, USDC))).toBe(true);
    expect(Object.isFrozen(graph.edgesFrom(1, LINK))).toBe(true);
  });
});

describe('RoutingGraph: bridges, gas, pools and tokens', () => {
  it('bridge routes from a token and between two chains, in snapshot order', () => {
    expect(graph.bridgesFrom(1, USDC)).toEqual([ACROSS, STARGATE]);
    expect(graph.bridgesFrom(10, USDC_10)).toEqual([BACK]);
    expect(graph.bridgesFrom(1, WETH)).toEqual([]);
    expect(graph.bridgesBetween(1, 10)).toEqual([ACROSS]);
    expect(graph.bridgesBetween(1, 56)).toEqual([STARGATE]);
    expect(graph.bridgesBetween(10, 1)).toEqual([BACK]);
    expect(graph.bridgesBetween(56, 1)).toEqual([]);
    expect(graph.bridgeRoutes).toBe(snapshot.bridges);
  });

  it('gas of a chain is the snapshot\'s; none for a chain without it', () => {
    expect(graph.gas(1)!.gasPriceWei).toBe(20_000_000_000n);
    expect(graph.gas(137)).toBeUndefined();
  });

  it('pools by id; ids unique or not', () => {
    expect(graph.pools).toBe(snapshot.pools);
    expect(graph.poolById(CURVE.id)).toBe(CURVE);
    expect(graph.poolById('nope')).toBeUndefined();
    expect(graph.poolIdsUnique).toBe(true);
    const twin = { ...OP, id: UNI.id };
    const shared = new RoutingGraph(catalog, { ...snapshot, pools: [UNI, CURVE, twin] });
    expect(shared.poolIdsUnique).toBe(false);
    expect(shared.poolById(UNI.id)).toBe(twin); // the last of those sharing the id
  });

  it('token(): the catalog token of a node; a node outside the catalog throws', () => {
    expect(graph.token(1, USDC)).toBe(catalog.findToken(1, 'USDC'));
    expect(graph.token(10, WETH_10)).toBe(catalog.findToken(10, 'WETH'));
    expect(() => graph.token(1, '0x00000000000000000000000000000000000000ee')).toThrow(/is not in the catalog/);
  });

  it('gasCostInToken: one gas unit in raw units of a token at reference prices', () => {
    // ETH 3250 USD; 20 gwei = 2e-8 ETH = 6.5e-5 USD per gas unit
    expect(catalog.getChain(1)!.nativeToken.priceUSD).toBe('3250.00');
    expect(graph.gasCostInToken(1, USDC)).toBeCloseTo(65, 9); // 6.5e-5 USD × 1e6 (USDC at 1.00, 6 decimals)
    expect(graph.gasCostInToken(1, DAI) / 6.5e13).toBeCloseTo(1, 12); // 18 decimals
    expect(graph.gasCostInToken(1, WETH) / 2e10).toBeCloseTo(1, 12); // WETH at the native price: the gas price in wei
    // 0.1 gwei on Optimism: 1e-10 ETH = 3.25e-7 USD per gas unit
    expect(graph.gasCostInToken(10, USDC_10)).toBeCloseTo(0.325, 12);
    expect(graph.gasCostInToken(137, key(137, 'USDC'))).toBe(0); // no gas price for Polygon in this snapshot
  });

  it('gasCostTable: one function per chain, answering as gasCostInToken', () => {
    const table = graph.gasCostTable(1);
    expect(graph.gasCostTable(1)).toBe(table);
    expect(table(USDC)).toBe(graph.gasCostInToken(1, USDC));
  });

  it('poolEstimate: a pool\'s float model, made once', () => {
    const estimate = graph.poolEstimate(UNI);
    expect(estimate).toEqual({ kind: 'constantProduct', reserves: [3.25e12, 1e21], keep: 0.997 });
    expect(graph.poolEstimate(UNI)).toBe(estimate);
  });
});

describe('RoutingGraph: reachability', () => {
  it('hopsToTargets: fewest pool hops to a target, wraps free', () => {
    expect(graph.hopsToTargets(1, [WETH], 3)).toEqual(new Map([[WETH, 0], [ETH, 0], [USDC, 1], [DAI, 2], [USDT, 2]]));
    expect(graph.hopsToTargets(1, [WETH], 1)).toEqual(new Map([[WETH, 0], [ETH, 0], [USDC, 1]]));
    expect(graph.hopsToTargets(1, [DAI], 3)).toEqual(new Map([[DAI, 0], [USDC, 1], [USDT, 1], [WETH, 2], [ETH, 2]]));
    expect(graph.hopsToTargets(1, [DAI, WETH], 3)).toEqual(new Map([[DAI, 0], [WETH, 0], [ETH, 0], [USDC, 1], [USDT, 1]]));
    expect(graph.hopsToTargets(1, [LINK], 3)).toEqual(new Map([[LINK, 0]]));
  });

  it('reachOf: per token, the edges towards the targets with what the search needs', () => {
    const reach = graph.reachOf(1, [WETH], 3);
    const steps = reach.stepsFrom(USDC);
    expect(steps.map((s) => [s.edge.to, s.remaining])).toEqual([[WETH, 0], [DAI, 2], [USDT, 2]]);
    // a hop's gas through the router: the pool kind's own + SWAP_CALL_GAS 60,000 (constant product 60,000 + 60,000,
    // stableswap 120,000 + 60,000, a wrap 30,000 + 60,000)
    expect(steps[0]).toEqual({
      edge: graph.edgesFrom(1, USDC)[0], remaining: 0, poolHops: 1, gasUnits: 120_000, exchange: 'uniswap', poolId: UNI.id,
      estimate: graph.poolEstimate(UNI), toGasCost: graph.gasCostInToken(1, WETH),
    });
    expect(steps[1]).toMatchObject({ poolHops: 1, gasUnits: 180_000, exchange: 'curve', poolId: CURVE.id });
    expect(graph.reachOf(1, [USDC], 3).stepsFrom(ETH)).toEqual([{
      edge: { kind: 'wrap', from: ETH, to: WETH }, remaining: 1, poolHops: 0, gasUnits: 90_000,
      exchange: undefined, poolId: undefined, estimate: undefined, toGasCost: graph.gasCostInToken(1, WETH),
    }]);
    // one hop allowed: the stable pool's tokens are out of reach
    expect(graph.reachOf(1, [WETH], 1).stepsFrom(USDC).map((s) => s.edge.to)).toEqual([WETH]);
    expect(graph.reachOf(1, [WETH], 1).stepsFrom(DAI)).toEqual([]);
    // steps in all lists plus one per list: USDC 3, WETH 2, ETH 1, DAI 2, USDT 2 → 10 + 5
    expect(reach.size).toBe(15);
  });

  it('reaches are remembered per chain, hop bound and set of targets (in any order)', () => {
    const g = new RoutingGraph(catalog, snapshot);
    const a = g.reachOf(1, [DAI, WETH], 3);
    expect(g.reachOf(1, [WETH, DAI], 3)).toBe(a);
    expect(g.reachOf(1, [DAI, WETH], 2)).not.toBe(a);
    expect(g.reachMemoSize()).toEqual({ entries: 2, steps: a.size + g.reachOf(1, [DAI, WETH], 2).size });
  });
});

/*
 * RoutingGraph.derive:
 * A graph derived from the previous one when pools change (RoutingGraph.derive, what chain mode does on each block)
 * answers exactly as a graph built whole from the same snapshot, and keeps the memos of the chains it did not touch:
 * their edges, reaches and pools' float models are the same objects; the touched chain's are new.
 */
describe('RoutingGraph.derive', () => {
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
});
