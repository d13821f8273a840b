import { DEFAULT_DATA_DIR, DEFAULT_SNAPSHOT_DIR } from '../../../../src/config';
import { loadCatalog } from '../../../../src/core/catalog/load';
import { APPROVAL_GAS, swapGas, swapMix, transactionSample } from '../../../../src/core/gas/sample';
import { chainGasSuggestion, usdInToken } from '../../../../src/core/gas/suggestion';
import { loadSnapshot } from '../../../../src/core/liquidity/load';
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
    // Ethereum's 72 pools: 27 cp, 41 concentrated, 4 stableswap. 10·27/72 = 3 r 54, 10·41/72 = 5 r 50,
    // 10·4/72 = 0 r 40: floors give 8, the two largest remainders (cp, concentrated) get one more each.
    [{ constantProduct: 27, concentrated: 41, stableswap: 4 }, { constantProduct: 4, concentrated: 6, stableswap: 0 }],
    // Optimism's 53 pools: 16 / 31 / 6 → 3 r 1, 5 r 45, 1 r 7: floors give 9, concentrated gets the last one.
    [{ constantProduct: 16, concentrated: 31, stableswap: 6 }, { constantProduct: 3, concentrated: 6, stableswap: 1 }],
    // equal remainders: the fixed kind order breaks the tie
    [{ constantProduct: 1, concentrated: 1, stableswap: 1 }, { constantProduct: 4, concentrated: 3, stableswap: 3 }],
    [{ stableswap: 2 }, { constantProduct: 0, concentrated: 0, stableswap: 10 }],
    [{}, { constantProduct: 0, concentrated: 0, stableswap: 0 }],
  ])('shares the 10 swaps among pool kinds %o → %o', (counts, mix) => {
    expect(swapMix(counts)).toEqual(mix);
  });

  it('averages Ethereum: (10 · 46,000 + 4 · 195,000 + 6 · 215,000) / 20 = (460,000 + 780,000 + 1,290,000) / 20 = 2,530,000 / 20 = 126,500 gas', () => {
    expect(kindsOf(1)).toHaveLength(72);
    const sample = transactionSample(kindsOf(1))!;
    expect(sample.swaps).toEqual({ constantProduct: 4, concentrated: 6, stableswap: 0 });
    expect(sample.totalGas).toBe(2_530_000n);
    expect(sample.averageGas).toBe(126_500n);
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
    // 126,500 gas · 5 = 632,500 gas · 18 gwei = 11,385,000 gwei = 0.011385 ETH · $3250 = $37.00125
    expect(s.recommended.amount).toBe(11_385_000_000_000_000n);
    expect(s.recommended.amountUSD).toBeCloseTo(37.00125, 9);
    expect(s.recommended.token).toBe(chain('eth').nativeToken);
    // max(10 · 0.011385 ETH = 0.11385 ETH ($370.0125), $50 = 0.0153846… ETH) = 0.11385 ETH
    expect(s.limit.amount).toBe(113_850_000_000_000_000n);
    expect(s.limit.amountUSD).toBeCloseTo(370.0125, 9);
  });

  it('Optimism at 0.008 gwei: limit is the $50 floor', () => {
    const s = chainGasSuggestion(chain('opt'), graph.gas(10), kindsOf(10));
    if (!s.available) throw new Error(s.message);
    // (460,000 + 3 · 195,000 + 6 · 215,000 + 255,000) / 20 = (460,000 + 585,000 + 1,290,000 + 255,000) / 20
    // = 2,590,000 / 20 = 129,500 gas
    expect(s.sample.averageGas).toBe(129_500n);
    // 129,500 · 5 · 8,000,000 wei = 5,180,000,000,000 wei = 5.18e-6 ETH · $3250 = $0.016835
    expect(s.recommended.amount).toBe(5_180_000_000_000n);
    expect(s.recommended.amountUSD).toBeCloseTo(0.016835, 9);
    // 10 · recommended = $0.16835 < $50 → floor(50 · 10^18 / 3250) = 15,384,615,384,615,384 wei
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
