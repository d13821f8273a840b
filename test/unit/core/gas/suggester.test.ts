/** GasSuggester: the chain's suggestion, priced in a fromToken by an exact-output route, and the 400s naming the parameter. */
import { DEFAULT_DATA_DIR, DEFAULT_SNAPSHOT_DIR } from '../../../../src/config';
import { loadCatalog } from '../../../../src/core/catalog/load';
import { InvalidRequestError } from '../../../../src/core/errors';
import { GasSuggester } from '../../../../src/core/gas/suggester';
import { loadSnapshot } from '../../../../src/core/liquidity/load';
import { RouteFinder } from '../../../../src/core/routing/finder';
import { RoutingGraph } from '../../../../src/core/routing/graph';

const catalog = loadCatalog(DEFAULT_DATA_DIR);
const graph = new RoutingGraph(catalog, loadSnapshot(DEFAULT_SNAPSHOT_DIR, catalog));
const suggester = new GasSuggester(graph, new RouteFinder(graph));

describe('GasSuggester', () => {
  it('gives the chain suggestion alone without fromChain and fromToken', () => {
    const s = suggester.suggest({ chain: '1' });
    expect(s).toMatchObject({ available: true, recommended: { amount: 8_235_000_000_000_000n } });
    expect(s).not.toHaveProperty('fromAmount');
  });

  it('prices the recommended gas in the fromToken with an exact-output route', () => {
    const s = suggester.suggest({ chain: 'eth', fromChain: 'arb', fromToken: 'USDC' });
    if (!s.available) throw new Error(s.message);
    expect(s.fromToken!.symbol).toBe('USDC');
    // $26.76 of ETH, plus swap and bridge fees: a little more USDC (6 decimals)
    expect(s.fromAmount!).toBeGreaterThan(26_763_750n);
    expect(s.fromAmount!).toBeLessThan(28_000_000n);
  });

  it('prices a same-chain swap to the native coin', () => {
    const s = suggester.suggest({ chain: 'opt', fromChain: 'opt', fromToken: 'USDC' });
    if (!s.available) throw new Error(s.message);
    // $0.012285 of ETH bought with USDC: about 12,285 units plus the pool fees
    expect(s.fromAmount!).toBeGreaterThanOrEqual(12_285n);
    expect(s.fromAmount!).toBeLessThan(12_500n);
  });

  it('needs no route when the fromToken is the native coin itself', () => {
    const s = suggester.suggest({ chain: 'arb', fromChain: 'arb', fromToken: 'ETH' });
    if (!s.available) throw new Error(s.message);
    expect(s.fromAmount).toBe(s.recommended.amount);
  });

  it('says why when no route delivers the recommended amount (bridge minimums above a few cents)', () => {
    const s = suggester.suggest({ chain: 'opt', fromChain: 'arb', fromToken: 'USDC' });
    expect(s.available).toBe(false);
    if (s.available) return;
    expect(s.message).toMatch(/^no route delivers the recommended 3780000000000 ETH on OP Mainnet \(10\) from USDC on Arbitrum \(42161\): .*AMOUNT_TOO_LOW/);
    expect(s.recommended!.amount).toBe(3_780_000_000_000n);
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
