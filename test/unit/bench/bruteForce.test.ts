/**
 * The benchmark's brute force (bench/bruteForce.ts) on a tiny hand-made catalog and snapshot, against
 * figures worked out by hand for constant-product pools, and the service's RouteFinder on the same data.
 *
 * Chain 1 ("one"), tokens A, B, C, D (6 decimals, $1 each), native ETH ($1000, no wrapped token).
 * Constant-product pools, fee 0.3 % (feePpm 3000), reserves in whole tokens:
 *   AC  A/C   1,000 /  1,000   (shallow)
 *   AB  A/B  10,000 / 10,000
 *   BC  B/C  10,000 / 10,000
 *   AD  A/D  10,000 / 10,000
 *   DC  D/C  10,000 /  9,000   (C is dearer here)
 *   BD  B/D  10,000 / 10,000
 * Simple paths from A to C within 3 hops: A-C, A-B-C, A-D-C, A-B-D-C, A-D-B-C (five).
 *
 * out(x) = floor(x·997000·R_out / (R_in·1e6 + x·997000)), for 100 A = 100,000,000 units:
 *   A-C:     100e6·997000·1000e6 / (1000e6·1e6 + 100e6·997000) = 9.97e22 / 1.0997e15           → 90,661,089
 *   A-B:     100e6·997000·10000e6 / (10000e6·1e6 + 9.97e13)   = 9.97e23 / 1.00997e16           → 98,715,803
 *   A-B-C:   98,715,803·997000·1e10 / (1e16 + 98,715,803·997000) = 9.84196556e23 / 1.00984197e16 → 97,460,453
 *   A-D-C:   98,715,803 → D/C (10,000 / 9,000): ·9e9 instead of ·1e10                            → 87,714,407
 *   A-B-D-C: 98,715,803 → 97,460,453 (B/D) → D/C                                                 → 86,609,694
 *   A-D-B-C: 98,715,803 → 97,460,453 (D/B) → B/C                                                 → 96,232,994
 * Most output: A-B-C, 97,460,453 C.
 *
 * The brute force prices with its own code (bench/referencePricing.ts) and compares every route with the service's
 * evaluatePlan (bench/serviceAnswer.ts): the last block checks that pricing against hand computations, that its
 * gas constants are the service's, and that a wrong service (a fake) is caught as mismatches.
 */
import { getAddress } from 'ethers';
import { bruteForce } from '../../../bench/bruteForce';
import { GAS, disagreements, priceRoute, type RouteSpec } from '../../../bench/referencePricing';
import { servicePricing, type ServicePricing } from '../../../bench/serviceAnswer';
import { Catalog } from '../../../src/core/catalog/catalog';
import type { Chain, Token } from '../../../src/core/entities';
import { HOP_GAS } from '../../../src/core/liquidity/poolQuote';
import type { BridgeRoute, ChainGas, LiquiditySnapshot, PoolState } from '../../../src/core/liquidity/snapshot';
import { DESTINATION_CALL_GAS } from '../../../src/core/routing/evaluate';
import { RouteFinder, netValue } from '../../../src/core/routing/finder';
import { RoutingGraph, WRAP_GAS, type PoolEdge, type SwapEdge } from '../../../src/core/routing/graph';
import { FEE_COLLECTION_GAS, FIRST_USE_GAS, ROUTER_BASE_GAS } from '../../../src/core/routing/pricing';
import { buildRouteRequest } from '../../../src/core/routing/request';
import type { Route } from '../../../src/core/routing/route';

const U = 1_000_000n; // one token of 6 decimals
const address = (digit: string) => getAddress(`0x${digit.repeat(40)}`);
const NATIVE = '0x0000000000000000000000000000000000000000';

function token(chainId: number, symbol: string, addr: string, decimals: number, priceUSD: string, coinKey = symbol): Token {
  return { chainId, address: addr, symbol, decimals, name: symbol, coinKey, priceUSD, tags: [] };
}

function chain(id: number, key: string): Chain {
  const nativeToken = token(id, 'ETH', NATIVE, 18, '1000');
  return {
    id, key, name: key.toUpperCase(), chainType: 'EVM', coin: 'ETH', mainnet: true, nativeToken,
    metamask: { chainId: `0x${id.toString(16)}`, chainName: key, nativeCurrency: { name: 'ETH', symbol: 'ETH', decimals: 18 }, rpcUrls: [], blockExplorerUrls: [] },
  };
}

const A = token(1, 'A', address('a'), 6, '1');
const B = token(1, 'B', address('b'), 6, '1');
const C = token(1, 'C', address('c'), 6, '1');
const D = token(1, 'D', address('d'), 6, '1');
/** C on chain 10, with 18 decimals: the bridge rescales 6 → 18. */
const C10 = token(10, 'C', address('e'), 18, '1');
/** E on chain 10, 18 decimals, $1: reached from C10 by the pool CE10 (10,000 / 10,000, 0.3 %). */
const E10 = token(10, 'E', address('f'), 18, '1');

function pool(id: string, digit: string, x: Token, y: Token, rx: bigint, ry: bigint): PoolState {
  return {
    id, chainId: x.chainId, exchange: 'uniswap', kind: 'constantProduct', address: address(digit),
    tokens: [x.address.toLowerCase(), y.address.toLowerCase()], feePpm: 3000n, reserves: [rx * U, ry * U],
  };
}

const POOLS = [
  pool('AC', '1', A, C, 1_000n, 1_000n),
  pool('AB', '2', A, B, 10_000n, 10_000n),
  pool('BC', '3', B, C, 10_000n, 10_000n),
  pool('AD', '4', A, D, 10_000n, 10_000n),
  pool('DC', '5', D, C, 10_000n, 9_000n),
  pool('BD', '6', B, D, 10_000n, 10_000n),
  { ...pool('CE10', '7', C10, E10, 0n, 0n), reserves: [10_000n * 10n ** 18n, 10_000n * 10n ** 18n] },
];

function gas(chainId: number, gasPriceWei: bigint): [number, ChainGas] {
  return [chainId, { chainId, gasPriceWei, nativePriceUSD: 1000, blockTimeSeconds: 2, finalitySeconds: 10 }];
}

function world(gasPriceWei: bigint, bridges: BridgeRoute[] = [], destinationGasPriceWei = gasPriceWei) {
  const one = chain(1, 'one');
  const ten = chain(10, 'ten');
  const catalog = new Catalog({
    chains: [one, ten],
    tokens: [one.nativeToken, A, B, C, D, ten.nativeToken, C10, E10],
    bridges: [{ key: 'testbridge', name: 'Test bridge', supportedChains: [{ fromChainId: 1, toChainId: 10 }], tokens: ['C'] }],
    exchanges: [{ key: 'uniswap', name: 'Uniswap', supportedChains: [1, 10], kinds: ['constantProduct'] }],
  });
  const snapshot: LiquiditySnapshot = { asOf: '2026-01-01', pools: POOLS, bridges, gas: new Map([gas(1, gasPriceWei), gas(10, destinationGasPriceWei)]) };
  return { catalog, graph: new RoutingGraph(catalog, snapshot) };
}

const request = (catalog: Catalog, toChain: number, toToken: string, amount = 100n * U, fee?: number) =>
  buildRouteRequest(catalog, { fromChain: 1, toChain, fromToken: 'A', toToken, amount: amount.toString(), mode: 'exactIn', ...(fee ? { fee, integrator: 'acme' } : {}) });

describe('bench brute force, one chain, constant-product pools', () => {
  it('without gas, finds A-B-C (97,460,453 C for 100 A) among all five paths, and RouteFinder finds the same', () => {
    const { catalog, graph } = world(0n);
    const req = request(catalog, 1, 'C');
    const brute = bruteForce(graph, req);
    expect(brute.status).toBe('ok');
    expect(brute.stats.paths).toBe(5); // A-C, A-B-C, A-D-C, A-B-D-C, A-D-B-C
    expect(brute.bestByAmount!.toAmount).toBe(97_460_453n);
    expect(brute.bestByAmount!.overallPath).toBe('1:A~1:B~1:C');
    expect(brute.bestByNet!.overallPath).toBe('1:A~1:B~1:C'); // no gas: net value ranks like toAmount
    expect(brute.stats.mismatches).toBe(0);
    expect(brute.stats.boundViolations).toBe(0);

    const ours = new RouteFinder(graph).find(req).routes[0];
    expect(ours.overallPath).toBe('1:A~1:B~1:C');
    expect(ours.toAmount).toBe(97_460_453n);
  });

  it('with expensive gas, the one-hop path wins on net value while A-B-C keeps the most output', () => {
    // 200 gwei, ETH $1000: a transaction of g gas costs g·2e11·1000/1e18 = g·2e-4 USD. A constant-product hop costs
    // 60,000 + 60,000 (SWAP_CALL_GAS: the router runs each SwapData in its executor) = 120,000 gas.
    //   A-C:   75,000 router + 65,000 first-use allowance + 120,000 (one hop) = 260,000 gas = $52;
    //          net = 90.661089 − 100 − 52 = −61.338911
    //   A-B-C: 140,000 + 2·120,000 = 380,000 gas = $76; net = 97.460453 − 100 − 76 = −78.539547
    //   A-D-B-C: 140,000 + 3·120,000 = 500,000 gas = $100; net = 96.232994 − 100 − 100 = −103.767006 (the others are
    //   worse still). A second hop ($24) is worth far more than the 6.799364 C it adds: A-C wins.
    const { catalog, graph } = world(200_000_000_000n);
    const req = request(catalog, 1, 'C');
    const brute = bruteForce(graph, req);
    expect(brute.bestByAmount!.overallPath).toBe('1:A~1:B~1:C');
    expect(brute.bestByAmount!.toAmount).toBe(97_460_453n);
    expect(brute.bestByNet!.overallPath).toBe('1:A~1:C');
    expect(brute.bestByNet!.toAmount).toBe(90_661_089n);
    expect(brute.bestByNet!.netValueUSD).toBeCloseTo(-61.338911, 6);
    expect(netValue(brute.bestByNet!.service!)).toBeCloseTo(-61.338911, 6); // the service's answer for the same route
    expect(brute.stats.mismatches).toBe(0);

    const ours = new RouteFinder(graph).find(req).routes[0]; // CHEAPEST ranks by net value
    expect(ours.overallPath).toBe('1:A~1:C');
    expect(ours.toAmount).toBe(90_661_089n);
  });

  it('gives the same answer with and without its bounds', () => {
    for (const gasPrice of [0n, 200_000_000_000n]) {
      const { catalog, graph } = world(gasPrice);
      for (const to of ['B', 'C', 'D']) {
        const req = request(catalog, 1, to);
        const pruned = bruteForce(graph, req);
        const full = bruteForce(graph, req, { prune: false });
        expect(pruned.bestByAmount!.toAmount).toBe(full.bestByAmount!.toAmount);
        expect(pruned.bestByNet!.netValueUSD).toBe(full.bestByNet!.netValueUSD);
        expect(pruned.stats.mismatches + full.stats.mismatches).toBe(0);
      }
    }
  });
});

describe('bench brute force across a bridge', () => {
  // testbridge moves C from chain 1 to chain 10 free of fees but at most 95 C: A-B-C (97.46 C) and
  // A-D-B-C (96.23 C) are over the maximum; the best source path the bridge takes is A-C, 90,661,089 units,
  // which arrive rescaled from 6 to 18 decimals: 90,661,089·10^12.
  const bridge: BridgeRoute = {
    bridge: 'testbridge', fromChainId: 1, toChainId: 10, coinKey: 'C', fromToken: C.address.toLowerCase(), toToken: C10.address.toLowerCase(),
    feePpm: 0n, fixedFee: 0n, destinationGasFee: 0n, minAmount: 1n * U, maxAmount: 95n * U, durationSeconds: 60, gasUnits: 0n, nativeFee: 0n, mechanism: 'lockMint',
  };

  it('keeps to the bridge maximum by taking a source path with less output', () => {
    const { catalog, graph } = world(0n, [bridge]);
    const req = request(catalog, 10, 'C');
    const brute = bruteForce(graph, req);
    expect(brute.status).toBe('ok');
    expect(brute.stats.pairs).toBe(3); // A-C, A-D-C (87.71 C), A-B-D-C (86.61 C) fit under 95 C
    expect(brute.bestByAmount!.overallPath).toBe('1:A~1:C-testbridge-10:C');
    expect(brute.bestByAmount!.toAmount).toBe(90_661_089n * 10n ** 12n);
    expect(brute.bestByNet!.toAmount).toBe(90_661_089n * 10n ** 12n);
    expect(brute.stats.mismatches).toBe(0);
    const full = bruteForce(graph, req, { prune: false });
    expect(full.bestByAmount!.toAmount).toBe(brute.bestByAmount!.toAmount);
  });

  it('finds nothing when every source path is under the bridge minimum', () => {
    const { catalog, graph } = world(0n, [bridge]);
    const brute = bruteForce(graph, request(catalog, 10, 'C', 500_000n)); // 0.5 A: every path gives < 1 C
    expect(brute.status).toBe('noRoute');
  });
});

describe('the brute force prices on its own and checks the service against it', () => {
  const edge = (graph: RoutingGraph, chainId: number, from: Token, poolId: string): PoolEdge => {
    const found = graph.edgesFrom(chainId, from.address.toLowerCase()).find((e): e is PoolEdge => e.kind === 'pool' && e.pool.id === poolId);
    if (!found) throw new Error(`no edge from ${from.symbol} through ${poolId}`);
    return found;
  };
  const path = (graph: RoutingGraph, ...hops: [number, Token, string][]): SwapEdge[] => hops.map(([c, t, id]) => edge(graph, c, t, id));

  it('declares the documented gas constants, equal to the service\'s (a silent change on either side fails here)', () => {
    expect(GAS).toEqual({
      routerBase: ROUTER_BASE_GAS,
      firstUse: FIRST_USE_GAS,
      feeCollection: FEE_COLLECTION_GAS,
      destinationCall: DESTINATION_CALL_GAS,
      wrap: WRAP_GAS,
      constantProduct: HOP_GAS.constantProduct,
      concentrated: HOP_GAS.concentrated,
      tickCrossed: HOP_GAS.tickCrossed,
      stableswap: HOP_GAS.stableswap,
    });
  });

  it('prices one pool hop as worked out by hand, with and without an integrator fee', () => {
    // 200 gwei, ETH $1000: g gas cost g·2e-4 USD.
    const { catalog, graph } = world(200_000_000_000n);
    const spec: RouteSpec = { source: path(graph, [1, A, 'AC']), destination: [] };

    // No fee: 100 A → 90,661,089 C (header); gas 75,000 + 65,000 + (60,000 + 60,000) = 260,000 = $52;
    // price impact 1 − 90.661089/100; net 90.661089 − 100 − 52.
    const plain = priceRoute(graph, request(catalog, 1, 'C'), spec, new Map());
    if (!plain.ok) throw new Error(plain.reason);
    expect(plain.estimate).toMatchObject({ overallPath: '1:A~1:C', integratorFee: 0n, toAmount: 90_661_089n, gasUnits: 260_000n });
    expect(plain.estimate.fromAmountUSD).toBeCloseTo(100, 9);
    expect(plain.estimate.toAmountUSD).toBeCloseTo(90.661089, 9);
    expect(plain.estimate.gasCostUSD).toBeCloseTo(52, 9);
    expect(plain.estimate.extraFeesUSD).toBe(0);
    expect(plain.estimate.priceImpact).toBeCloseTo(0.09338911, 9);
    expect(plain.estimate.netValueUSD).toBeCloseTo(-61.338911, 9);

    // Fee 0.3 % (3000 ppm): fee = floor(100e6·3000/1e6) = 300,000 units, 99,700,000 swapped:
    //   99.7e6·997000·1000e6 / (1000e6·1e6 + 99.7e6·997000) = 9.940090e22 / 1.0994009e15 → 90,413,697 C;
    // gas + 35,000 + 60,000 for the fee collection (a SwapData too) = 355,000 = $71; included fees $0.3:
    // price impact 1 − 90.413697/99.7 = 0.093142457...; net 90.413697 − 100 − 71 = −80.586303.
    const withFee = priceRoute(graph, request(catalog, 1, 'C', 100n * U, 0.003), spec, new Map());
    if (!withFee.ok) throw new Error(withFee.reason);
    expect(withFee.estimate).toMatchObject({ integratorFee: 300_000n, toAmount: 90_413_697n, gasUnits: 355_000n });
    expect(withFee.estimate.gasCostUSD).toBeCloseTo(71, 9);
    expect(withFee.estimate.priceImpact).toBeCloseTo(1 - 90.413697 / 99.7, 9);
    expect(withFee.estimate.netValueUSD).toBeCloseTo(-80.586303, 9);
  });

  it('prices a bridge with fees, a decimals rescale and a destination swap as worked out by hand, and the service agrees', () => {
    // Source 200 gwei, destination 1 gwei. Bridge C (6 decimals) → C10 (18 decimals): fixed 1 C, 5 bps, relayer
    // gas 0.1 C, 100,000 gas units, messaging fee 0.001 ETH ($1, paid on top).
    const bridge: BridgeRoute = {
      bridge: 'testbridge', fromChainId: 1, toChainId: 10, coinKey: 'C', fromToken: C.address.toLowerCase(), toToken: C10.address.toLowerCase(),
      feePpm: 500n, fixedFee: 1n * U, destinationGasFee: 100_000n, minAmount: 1n * U, maxAmount: 95n * U, durationSeconds: 60,
      gasUnits: 100_000n, nativeFee: 10n ** 15n, mechanism: 'lockMint',
    };
    const { catalog, graph } = world(200_000_000_000n, [bridge], 1_000_000_000n);
    const req = request(catalog, 10, 'E');
    const spec: RouteSpec = { source: path(graph, [1, A, 'AC']), bridge, destination: path(graph, [10, C10, 'CE10']) };
    // A-C: 90,661,089 C sent. Bridge: 90,661,089 − 1,000,000 = 89,661,089; ·999,500/1e6 = 89,616,258.45 → 89,616,258
    // (proportional fee 44,831); − 100,000 relayer gas = 89,516,258 C, rescaled: 89,516,258·10^12 C10 arrive.
    // Destination call: (120,000 one hop (60,000 + 60,000 SWAP_CALL_GAS) + 50,000) gas · 1 gwei = 1.7e14 wei = $0.17
    // = 0.17 C10 = 1.7e17 units.
    // Swapped: 89,346,258·10^12 → 89.346258e18·997000·1e22 / (1e22·1e6 + 89.346258e18·997000)
    //   = 8.9078219226e47 / 1.0089078219226e28 → 88,291,732,198,339,304,848 E.
    // Gas (source transaction): 75,000 + 65,000 + 120,000 + 100,000 = 360,000 = $72; on top: $1.
    // Included fees: 1 + 0.044831 + 0.1 (bridge) + 0.17 (call) = $1.314831.
    const priced = priceRoute(graph, req, spec, new Map());
    if (!priced.ok) throw new Error(priced.reason);
    const e = priced.estimate;
    expect(e).toMatchObject({
      overallPath: '1:A~1:C-testbridge-10:C~10:E',
      bridged: 90_661_089n,
      bridgeFees: { fixed: 1_000_000n, proportional: 44_831n, destinationGas: 100_000n },
      arrived: 89_516_258n * 10n ** 12n,
      destinationCallFee: 170_000_000_000_000_000n,
      toAmount: 88_291_732_198_339_304_848n,
      gasUnits: 360_000n,
    });
    const toUSD = 88.291732198339304848;
    expect(e.toAmountUSD).toBeCloseTo(toUSD, 9);
    expect(e.gasCostUSD).toBeCloseTo(72, 9);
    expect(e.extraFeesUSD).toBeCloseTo(1, 9);
    expect(e.includedFeesUSD).toBeCloseTo(1.314831, 9);
    expect(e.priceImpact).toBeCloseTo(1 - toUSD / (100 - 1.314831), 9);
    expect(e.netValueUSD).toBeCloseTo(toUSD - 100 - 72 - 1, 9);

    const answer = servicePricing(graph, req)(spec);
    if (!answer.ok) throw new Error(answer.reason);
    expect(disagreements(e, answer.route)).toEqual([]);
  });

  /** The service's answer, altered after the fact. */
  const altered = (change: (route: Route) => Route): ServicePricing => (graph, req) => {
    const real = servicePricing(graph, req);
    return (spec) => {
      const answer = real(spec);
      return answer.ok ? { ok: true, route: change(answer.route) } : answer;
    };
  };

  it('counts a mismatch on every route where a (fake) service prices wrongly, and keeps its own answer', () => {
    const { catalog, graph } = world(200_000_000_000n);
    const req = request(catalog, 1, 'C');
    const honest = bruteForce(graph, req, { prune: false });
    expect(honest.stats.compared).toBe(5);
    expect(honest.stats.mismatches).toBe(0);

    const fakes: [string, ServicePricing][] = [
      ['one unit more out', altered((r) => ({ ...r, toAmount: r.toAmount + 1n }))],
      ['gas without the first-use allowance', altered((r) => ({
        ...r,
        gasCostUSD: r.gasCostUSD - 13, // 65,000 gas at 2e-4 USD
        transactions: r.transactions.map((t) => ({ ...t, gasCost: { ...t.gasCost, estimate: t.gasCost.estimate - 65_000n } })),
      }))],
      ['a cent more in toAmountUSD', altered((r) => ({ ...r, toAmountUSD: r.toAmountUSD + 0.01 }))],
      ['the integrator fee forgotten', (graph, r) => servicePricing(graph, { ...r, fee: 0 })],
      ['no route at all', () => () => ({ ok: false, reason: 'fake' })],
    ];
    const feeRequest = request(catalog, 1, 'C', 100n * U, 0.003);
    for (const [what, service] of fakes) {
      const r = what === 'the integrator fee forgotten' ? feeRequest : req;
      const brute = bruteForce(graph, r, { prune: false, service });
      expect([what, brute.stats.mismatches]).toEqual([what, brute.stats.compared]);
      expect(brute.mismatchExamples.length).toBeGreaterThan(0);
      // the answer is the reference pricing's, whatever the service says
      expect(brute.bestByAmount!.toAmount).toBe(r === req ? 97_460_453n : bruteForce(graph, feeRequest).bestByAmount!.toAmount);
      expect(brute.bestByNet!.overallPath).toBe('1:A~1:C');
    }

    // Float noise is not a mismatch.
    const noisy = bruteForce(graph, req, { prune: false, service: altered((r) => ({ ...r, toAmountUSD: r.toAmountUSD * (1 + 1e-15) })) });
    expect(noisy.stats.mismatches).toBe(0);
  });

  it('catches a wrong service across a bridge too (destination-call fee, bridge fees)', () => {
    const bridge: BridgeRoute = {
      bridge: 'testbridge', fromChainId: 1, toChainId: 10, coinKey: 'C', fromToken: C.address.toLowerCase(), toToken: C10.address.toLowerCase(),
      feePpm: 500n, fixedFee: 1n * U, destinationGasFee: 100_000n, minAmount: 1n * U, maxAmount: 95n * U, durationSeconds: 60,
      gasUnits: 100_000n, nativeFee: 0n, mechanism: 'lockMint',
    };
    const { catalog, graph } = world(0n, [bridge], 1_000_000_000n);
    const req = { ...request(catalog, 10, 'E'), maxPriceImpact: 0.5 };
    const honest = bruteForce(graph, req, { prune: false });
    expect(honest.status).toBe('ok');
    expect(honest.stats.compared).toBeGreaterThan(0);
    expect(honest.stats.mismatches).toBe(0);
    const cheaperCall = bruteForce(graph, req, {
      prune: false,
      service: altered((r) => ({ ...r, transactions: r.transactions.map((t) => ({ ...t, feeCosts: t.feeCosts.map((c) => (c.name === 'Destination swap gas' ? { ...c, amount: c.amount - 1n } : c)) })) })),
    });
    expect(cheaperCall.stats.mismatches).toBe(cheaperCall.stats.compared);
  });
});
