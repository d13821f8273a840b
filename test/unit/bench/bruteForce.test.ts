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
 */
import { getAddress } from 'ethers';
import { bruteForce } from '../../../bench/bruteForce';
import { Catalog } from '../../../src/core/catalog/catalog';
import type { Chain, Token } from '../../../src/core/catalog/types';
import type { BridgeRoute, ChainGas, LiquiditySnapshot, PoolState } from '../../../src/core/liquidity/types';
import { RouteFinder, netValue } from '../../../src/core/routing/finder';
import { RoutingGraph } from '../../../src/core/routing/graph';
import { buildRouteRequest } from '../../../src/core/routing/request';

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
];

function gas(chainId: number, gasPriceWei: bigint): [number, ChainGas] {
  return [chainId, { chainId, gasPriceWei, nativePriceUSD: 1000, blockTimeSeconds: 2, finalitySeconds: 10 }];
}

function world(gasPriceWei: bigint, bridges: BridgeRoute[] = []) {
  const one = chain(1, 'one');
  const ten = chain(10, 'ten');
  const catalog = new Catalog({
    chains: [one, ten],
    tokens: [one.nativeToken, A, B, C, D, ten.nativeToken, C10],
    bridges: [{ key: 'testbridge', name: 'Test bridge', supportedChains: [{ fromChainId: 1, toChainId: 10 }], tokens: ['C'] }],
    exchanges: [{ key: 'uniswap', name: 'Uniswap', supportedChains: [1, 10], kinds: ['constantProduct'] }],
  });
  const snapshot: LiquiditySnapshot = { asOf: '2026-01-01', pools: POOLS, bridges, gas: new Map([gas(1, gasPriceWei), gas(10, gasPriceWei)]) };
  return { catalog, graph: new RoutingGraph(catalog, snapshot) };
}

const request = (catalog: Catalog, toChain: number, toToken: string, amount = 100n * U) =>
  buildRouteRequest(catalog, { fromChain: 1, toChain, fromToken: 'A', toToken, amount: amount.toString(), mode: 'exactIn' });

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
    // 200 gwei, ETH $1000: a transaction of g gas costs g·2e11·1000/1e18 = g·2e-4 USD.
    //   A-C:   65,000 router + 65,000 first-use allowance + 60,000 (one hop) = 190,000 gas = $38;
    //          net = 90.661089 − 100 − 38 = −47.338911
    //   A-B-C: 130,000 + 2·60,000 = 250,000 gas = $50; net = 97.460453 − 100 − 50 = −52.539547
    //   A-D-B-C: 310,000 gas = $62; net = 96.232994 − 100 − 62 = −65.767006 (the others are worse still)
    const { catalog, graph } = world(200_000_000_000n);
    const req = request(catalog, 1, 'C');
    const brute = bruteForce(graph, req);
    expect(brute.bestByAmount!.overallPath).toBe('1:A~1:B~1:C');
    expect(brute.bestByAmount!.toAmount).toBe(97_460_453n);
    expect(brute.bestByNet!.overallPath).toBe('1:A~1:C');
    expect(brute.bestByNet!.toAmount).toBe(90_661_089n);
    expect(netValue(brute.bestByNet!)).toBeCloseTo(-47.338911, 6);

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
        expect(netValue(pruned.bestByNet!)).toBe(netValue(full.bestByNet!));
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
