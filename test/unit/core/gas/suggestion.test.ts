import { DEFAULT_DATA_DIR, DEFAULT_SNAPSHOT_DIR } from '../../../../src/config';
import { loadCatalog } from '../../../../src/files/catalog';
import { APPROVAL_GAS, swapGas, swapMix, transactionSample } from '../../../../src/core/gas/sample';
import { chainGasSuggestion, usdInToken } from '../../../../src/core/gas/suggestion';
import { loadSnapshot } from '../../../../src/files/snapshot';
import type { PoolKind } from '../../../../src/core/liquidity/snapshot';
import { RoutingGraph } from '../../../../src/core/routing/graph';

const catalog = loadCatalog(DEFAULT_DATA_DIR);
const graph = new RoutingGraph(catalog, loadSnapshot(DEFAULT_SNAPSHOT_DIR, catalog));
const kindsOf = (chainId: number): PoolKind[] => graph.pools.filter((p) => p.chainId === chainId).map((p) => p.kind);
const chain = (ref: string) => catalog.resolveChain(ref)!;
const kinds = (counts: Partial<Record<PoolKind, number>>): PoolKind[] =>
  (Object.entries(counts) as [PoolKind, number][]).flatMap(([kind, n]) => Array<PoolKind>(n).fill(kind));

describe('the 10 approvals + 10 swaps sample', () => {
  it('prices an approval and a single-hop router swap per pool kind', () => {
    expect(APPROVAL_GAS).toBe(46_000n);
    // ROUTER_BASE_GAS 75,000 + HOP_GAS: the pool's own 60,000 / 80,000 / 120,000 + SWAP_CALL_GAS 60,000
    // = 75,000 + 120,000 / 140,000 / 180,000
    expect(swapGas('constantProduct')).toBe(195_000n);
    expect(swapGas('concentrated')).toBe(215_000n);
    expect(swapGas('stableswap')).toBe(255_000n);
  });

  it.each([
    // Ethereum's 72 pools before the listed coins' (issue 35): 27 cp, 41 concentrated, 4 stableswap. 10·27/72 = 3 r 54, 10·41/72 = 5 r 50,
    // 10·4/72 = 0 r 40: floors give 8, the two largest remainders (cp, concentrated) get one more each.
    [{ constantProduct: 27, concentrated: 41, stableswap: 4 }, { constantProduct: 4, concentrated: 6, stableswap: 0 }],
    // Optimism's 53 pools then: 16 / 31 / 6 → 3 r 1, 5 r 45, 1 r 7: floors give 9, concentrated gets the last one.
    [{ constantProduct: 16, concentrated: 31, stableswap: 6 }, { constantProduct: 3, concentrated: 6, stableswap: 1 }],
    // equal remainders: the fixed kind order breaks the tie
    [{ constantProduct: 1, concentrated: 1, stableswap: 1 }, { constantProduct: 4, concentrated: 3, stableswap: 3 }],
    [{ stableswap: 2 }, { constantProduct: 0, concentrated: 0, stableswap: 10 }],
    [{}, { constantProduct: 0, concentrated: 0, stableswap: 0 }],
    // Ethereum's 148 pools now: 65 / 79 / 4 → 650/148 = 4 r 58, 790/148 = 5 r 50, 40/148 = 0 r 40: cp gets the 10th
    [{ constantProduct: 65, concentrated: 79, stableswap: 4 }, { constantProduct: 5, concentrated: 5, stableswap: 0 }],
    // Optimism's 113: 46 / 61 / 6 → 460/113 = 4 r 8, 610/113 = 5 r 45, 60/113 = 0 r 60: stableswap gets the 10th
    [{ constantProduct: 46, concentrated: 61, stableswap: 6 }, { constantProduct: 4, concentrated: 5, stableswap: 1 }],
  ])('shares the 10 swaps among pool kinds %o → %o', (counts, mix) => {
    expect(swapMix(counts)).toEqual(mix);
  });

  it('averages Ethereum: (10 · 46,000 + 5 · 195,000 + 5 · 215,000) / 20 = (460,000 + 975,000 + 1,075,000) / 20 = 2,510,000 / 20 = 125,500 gas', () => {
    expect(kindsOf(1)).toHaveLength(148);
    const sample = transactionSample(kindsOf(1))!;
    expect(sample.swaps).toEqual({ constantProduct: 5, concentrated: 5, stableswap: 0 });
    expect(sample.totalGas).toBe(2_510_000n);
    expect(sample.averageGas).toBe(125_500n);
  });

  it.each([
    // 10 concentrated swaps: (460,000 + 10 · 215,000) / 20 = 2,610,000 / 20 = 130,500
    [{ concentrated: 3 }, 130_500n],
    // 1 cp + 1 stable pool → 5 + 5 swaps: (460,000 + 5 · 195,000 + 5 · 255,000) / 20 = 2,710,000 / 20 = 135,500
    [{ constantProduct: 1, stableswap: 1 }, 135_500n],
    // 1 cp + 2 concentrated pools → 10·1/3 = 3 r 1, 10·2/3 = 6 r 2 → 3 cp + 7 concentrated swaps:
    // (460,000 + 3 · 195,000 + 7 · 215,000) / 20 = (460,000 + 585,000 + 1,505,000) / 20 = 2,550,000 / 20 = 127,500
    [{ constantProduct: 1, concentrated: 2 }, 127_500n],
  ])('averages the pools %o to %s gas a transaction', (counts, average) => {
    // (every gas figure is a multiple of 5,000, so the average, rounded up by definition, is exact here)
    expect(transactionSample(kinds(counts))!.averageGas).toBe(average);
  });

  it('has no sample on a chain without pools', () => {
    expect(transactionSample([])).toBeUndefined();
  });
});

describe('chainGasSuggestion', () => {
  it('Ethereum at 18 gwei: recommended 5 average transactions, limit 10 × recommended (above $50)', () => {
    const s = chainGasSuggestion(chain('eth'), graph.gas(1), kindsOf(1));
    if (!s.available) throw new Error(s.message);
    expect(s.gasPriceWei).toBe(18_000_000_000n);
    // 125,500 gas · 5 = 627,500 gas · 18 gwei = 11,295,000 gwei = 0.011295 ETH · $3250 = $36.70875
    expect(s.recommended.amount).toBe(11_295_000_000_000_000n);
    expect(s.recommended.amountUSD).toBeCloseTo(36.70875, 9);
    expect(s.recommended.token).toBe(chain('eth').nativeToken);
    // max(10 · 0.011295 ETH = 0.11295 ETH ($367.0875), $50 = 0.0153846… ETH) = 0.11295 ETH
    expect(s.limit.amount).toBe(112_950_000_000_000_000n);
    expect(s.limit.amountUSD).toBeCloseTo(367.0875, 9);
  });

  it('Optimism at 0.008 gwei: limit is the $50 floor', () => {
    const s = chainGasSuggestion(chain('opt'), graph.gas(10), kindsOf(10));
    if (!s.available) throw new Error(s.message);
    // (460,000 + 4 · 195,000 + 5 · 215,000 + 255,000) / 20 = (460,000 + 780,000 + 1,075,000 + 255,000) / 20
    // = 2,570,000 / 20 = 128,500 gas
    expect(s.sample.averageGas).toBe(128_500n);
    // 128,500 · 5 · 8,000,000 wei = 5,140,000,000,000 wei = 5.14e-6 ETH · $3250 = $0.016705
    expect(s.recommended.amount).toBe(5_140_000_000_000n);
    expect(s.recommended.amountUSD).toBeCloseTo(0.016705, 9);
    // 10 · recommended = $0.16705 < $50 → floor(50 · 10^18 / 3250) = 15,384,615,384,615,384 wei
    expect(s.limit.amount).toBe(15_384_615_384_615_384n);
  });

  it('converts a USD amount into token units, rounding down', () => {
    expect(usdInToken('50', chain('eth').nativeToken)).toBe(15_384_615_384_615_384n);
    // POL at $0.24: 50 / 0.24 = 208.333… POL
    expect(usdInToken('50', chain('pol').nativeToken)).toBe(208_333_333_333_333_333_333n);
  });

  it.each([
    ['a non-EVM chain', 'sol', /EVM chains only; Solana .* is a SVM chain/],
  ])('is not available on %s', (_name, ref, message) => {
    const c = chain(ref);
    const s = chainGasSuggestion(c, graph.gas(c.id), kindsOf(c.id));
    expect(s).toEqual({ available: false, message: expect.stringMatching(message) });
  });

  it('is not available without a gas price or without pools', () => {
    const eth = chain('eth');
    expect(chainGasSuggestion(eth, undefined, kindsOf(1))).toMatchObject({ available: false, message: expect.stringMatching(/no gas price/) });
    expect(chainGasSuggestion(eth, { ...graph.gas(1)!, gasPriceWei: 0n }, kindsOf(1))).toMatchObject({ available: false });
    expect(chainGasSuggestion(eth, graph.gas(1), [])).toMatchObject({ available: false, message: expect.stringMatching(/no swap pools/) });
  });
});
