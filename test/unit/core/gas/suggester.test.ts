/** GasSuggester: the chain's suggestion, priced in a fromToken by an exact-output route, and the 400s naming the parameter. */
import { DEFAULT_DATA_DIR, DEFAULT_SNAPSHOT_DIR } from '../../../../src/config';
import { loadCatalog } from '../../../../src/files/catalog';
import { InvalidRequestError } from '../../../../src/core/errors';
import { GasSuggester } from '../../../../src/core/gas/suggester';
import { loadSnapshot } from '../../../../src/files/snapshot';
import { RouteFinder } from '../../../../src/core/routing/finder';
import { RoutingGraph } from '../../../../src/core/routing/graph';

const catalog = loadCatalog(DEFAULT_DATA_DIR);
const graph = new RoutingGraph(catalog, loadSnapshot(DEFAULT_SNAPSHOT_DIR, catalog));
const suggester = new GasSuggester(graph, new RouteFinder(graph));

describe('GasSuggester', () => {
  it('gives the chain suggestion alone without fromChain and fromToken', () => {
    const s = suggester.suggest({ chain: '1' });
    // 5 average transactions of Ethereum's sample: 125,500 gas · 5 · 18 gwei = 0.011295 ETH (suggestion.test.ts)
    expect(s).toMatchObject({ available: true, recommended: { amount: 11_295_000_000_000_000n } });
    expect(s).not.toHaveProperty('fromAmount');
  });

  it('prices the recommended gas in the fromToken with an exact-output route', () => {
    const s = suggester.suggest({ chain: 'eth', fromChain: 'arb', fromToken: 'USDC' });
    if (!s.available) throw new Error(s.message);
    expect(s.fromToken!.symbol).toBe('USDC');
    // $36.70875 of ETH (0.011295 ETH · $3250), plus swap and bridge fees: a little more USDC (6 decimals). The fees
    // are proportional to the amount (pool fee, bridge bps), so the allowance is at most the ~4.6 % of before the gas
    // model of issue 32 (28,000,000 / 26,763,750): 36,708,750 · 1.046 ≈ 38,397,000, rounded up to 38,400,000
    expect(s.fromAmount!).toBeGreaterThan(36_708_750n);
    expect(s.fromAmount!).toBeLessThan(38_400_000n);
  });

  it('prices a same-chain swap to the native coin', () => {
    const s = suggester.suggest({ chain: 'opt', fromChain: 'opt', fromToken: 'USDC' });
    if (!s.available) throw new Error(s.message);
    // $0.016705 of ETH (5.14e12 wei · $3250) bought with USDC: about 16,705 units plus the pool fees; the same ~1.75 %
    // allowance as before the gas model of issue 32 (12,500 / 12,285): 16,705 · 1.0175 ≈ 16,997, rounded to 17,000
    expect(s.fromAmount!).toBeGreaterThanOrEqual(16_705n);
    expect(s.fromAmount!).toBeLessThan(17_000n);
  });

  it('needs no route when the fromToken is the native coin itself', () => {
    const s = suggester.suggest({ chain: 'arb', fromChain: 'arb', fromToken: 'ETH' });
    if (!s.available) throw new Error(s.message);
    expect(s.fromAmount).toBe(s.recommended.amount);
  });

  it('prices cents of gas on another chain: bridges without a documented minimum carry them (issue 35)', () => {
    const s = suggester.suggest({ chain: 'opt', fromChain: 'arb', fromToken: 'USDC' });
    if (!s.available) throw new Error(s.message);
    // Optimism's recommended gas: 128,500 gas · 5 · 0.008 gwei = 5,140,000,000,000 wei = $0.016705 (suggestion.test.ts).
    // Until issue 35 every bridge from Arbitrum to OP Mainnet refused it (invented minimums of $1 and more); CCTP sets
    // none and charges nothing, so the price is the ETH plus the destination swap and its gas: 23,646 units
    expect(s.recommended!.amount).toBe(5_140_000_000_000n);
    expect(s.fromAmount!).toBeGreaterThan(16_705n);
    expect(s.fromAmount!).toBeLessThan(30_000n);
  });

  it.each([
    [{ chain: 'nochain' }, /chain "nochain" is not a supported chain/],
    [{ chain: 'eth', fromChain: 'arb' }, /fromToken is required with fromChain/],
    [{ chain: 'eth', fromToken: 'USDC' }, /fromChain is required with fromToken/],
    [{ chain: 'eth', fromChain: 'nochain', fromToken: 'USDC' }, /fromChain "nochain"/],
    [{ chain: 'eth', fromChain: 'arb', fromToken: 'NOPE' }, /fromToken "NOPE" is not a known token on Arbitrum/],
  ])('refuses %o with a 400 naming the parameter', (request, message) => {
    expect(() => suggester.suggest(request)).toThrow(InvalidRequestError);
    expect(() => suggester.suggest(request)).toThrow(message);
  });
});
