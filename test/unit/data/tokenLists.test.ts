/**
 * The merge of the published token lists into the curated catalog (scripts/catalog/tokenLists.ts), on small lists
 * written for each rule: the curated token's precedence, addresses two lists name, checksums, decimals, symbols,
 * coinKeys and prices.
 */
import { normaliseListedAddress } from '../../../scripts/extract-catalog';
import { mergeTokenLists, type ListedToken, type MergeOptions, type TokenListSource } from '../../../scripts/catalog/tokenLists';
import type { CatalogToken } from '../../../scripts/catalog/types';

const USDC_ETH = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
const PEPE_ETH = '0x6982508145454Ce325dDbE47a25d4ec3d2311933';
const PEPE_ARB = '0x35E6A59F786d9266c7961eA28c7b768B33959cbB';
const ADDRESS_A = '0x1111111111111111111111111111111111111111';

const curated: CatalogToken[] = [
  { chainId: 1, address: USDC_ETH, symbol: 'USDC', decimals: 6, name: 'USD Coin', coinKey: 'USDC', logoURI: '', priceUSD: '1.00', tags: ['stablecoin'] },
];

const options: MergeOptions = {
  normalise: (chainId, address) => normaliseListedAddress(chainId === 1151111081099710 ? 'SVM' : 'EVM', address),
  nativeAddress: (chainId) => (chainId === 1151111081099710 ? '11111111111111111111111111111111' : '0x0000000000000000000000000000000000000000'),
  prices: { USDC: '1.00', PEPE: '0.0000068' },
  stablecoinKeys: ['USDC'],
};

const list = (name: string, tokens: ListedToken[]): TokenListSource => ({ name, version: '1', licence: 'MIT', tokens });
const token = (chainId: number, address: string, symbol: string, decimals = 18, extra: Partial<ListedToken> = {}): ListedToken =>
  ({ chainId, address, symbol, name: `${symbol} token`, decimals, logoURI: 'https://example.org/logo.png', ...extra });
const merge = (lists: TokenListSource[], chainIds = [1, 10, 42161, 1151111081099710]) => mergeTokenLists(curated, lists, chainIds, options);

describe('mergeTokenLists', () => {
  it('keeps the curated token where a list names its address, and reports a list that states other decimals', () => {
    const same = merge([list('a', [token(1, USDC_ETH, 'USDC', 6, { name: 'Listed USD Coin' })])]);
    expect(same.tokens).toEqual([]);
    expect(same.refused).toEqual([]);
    const other = merge([list('a', [token(1, USDC_ETH.toLowerCase(), 'USDC', 18)])]);
    expect(other.tokens).toEqual([]);
    expect(other.refused).toEqual([expect.objectContaining({ rule: 'decimals differ from the catalog', address: USDC_ETH.toLowerCase() })]);
  });

  it('takes an address two lists name from the first, and leaves it out when they disagree on decimals', () => {
    const agree = merge([list('first', [token(1, PEPE_ETH, 'PEPE', 18, { name: 'Pepe' })]), list('second', [token(1, PEPE_ETH.toLowerCase(), 'PEPE2', 18, { name: 'Other' })])]);
    expect(agree.tokens).toEqual([expect.objectContaining({ address: PEPE_ETH, symbol: 'PEPE', name: 'Pepe' })]);
    const disagree = merge([list('first', [token(1, PEPE_ETH, 'PEPE', 18)]), list('second', [token(1, PEPE_ETH, 'PEPE', 8)])]);
    expect(disagree.tokens).toEqual([]);
    expect(disagree.refused).toEqual([expect.objectContaining({ rule: 'lists disagree on decimals', list: 'second' })]);
  });

  it('checksums a lower-case address and refuses a mixed-case one whose checksum is wrong', () => {
    const lower = merge([list('a', [token(1, PEPE_ETH.toLowerCase(), 'PEPE')])]);
    expect(lower.tokens[0].address).toBe(PEPE_ETH);
    const damaged = PEPE_ETH.replace('Ce325', 'ce325'); // mixed case, wrong checksum
    expect(damaged).not.toBe(PEPE_ETH);
    const refused = merge([list('a', [token(1, damaged, 'PEPE')])]);
    expect(refused.tokens).toEqual([]);
    expect(refused.refused).toEqual([expect.objectContaining({ rule: 'address' })]);
    expect(merge([list('a', [token(1151111081099710, '0xnot-base58', 'BAD')])]).refused).toEqual([expect.objectContaining({ rule: 'address' })]);
  });

  it('refuses decimals outside 0..36, empty or control-character text and the native coin', () => {
    const result = merge([list('a', [
      token(1, ADDRESS_A, 'BIG', 77),
      token(1, '0x2222222222222222222222222222222222222222', ' '),
      token(1, '0x3333333333333333333333333333333333333333', 'EVIL', 18, { name: 'a\u0007b' }),
      token(1, '0x0000000000000000000000000000000000000000', 'ETH'),
    ])]);
    expect(result.tokens).toEqual([]);
    expect(result.refused.map((r) => r.rule).sort()).toEqual(['facts', 'facts', 'facts', 'native coin']);
  });

  it('gives a symbol to one token per chain, in any case: the curated one first, then the first list', () => {
    const result = merge([list('a', [token(1, ADDRESS_A, 'usdc', 6), token(10, ADDRESS_A, 'usdc', 6)])]);
    expect(result.refused).toEqual([expect.objectContaining({ rule: 'symbol taken', chainId: 1 })]);
    expect(result.tokens).toEqual([expect.objectContaining({ chainId: 10, symbol: 'usdc' })]);
  });

  it('gives a bridged copy its Ethereum coin\'s coinKey and price; a token of no stated identity never shares one by name', () => {
    const result = merge([list('a', [
      token(1, PEPE_ETH, 'PEPE'),
      token(42161, PEPE_ARB, 'PEPE', 18, { ethereumAddress: PEPE_ETH.toLowerCase() }),
      token(10, ADDRESS_A, 'PEPE'), // same symbol, no identity: its own coin, unpriced
      token(10, '0x4444444444444444444444444444444444444444', 'VELO'), // only claimant of its symbol
      token(42161, '0x5555555555555555555555555555555555555555', 'USDC', 6, { ethereumAddress: USDC_ETH.toLowerCase() }), // a copy of a curated coin
    ])]);
    const by = (chainId: number, symbol: string) => result.tokens.find((t) => t.chainId === chainId && t.symbol === symbol);
    expect(by(1, 'PEPE')).toMatchObject({ coinKey: 'PEPE', priceUSD: '0.0000068', tags: [] });
    expect(by(42161, 'PEPE')).toMatchObject({ coinKey: 'PEPE', priceUSD: '0.0000068' });
    expect(by(10, 'PEPE')).toMatchObject({ coinKey: `10:${ADDRESS_A}`, priceUSD: '0' });
    expect(by(10, 'VELO')).toMatchObject({ coinKey: 'VELO', priceUSD: '0' });
    // the curated USDC's coinKey (its bridges, pools and price) is never given to a listed token
    expect(by(42161, 'USDC')).toMatchObject({ coinKey: '42161:0x5555555555555555555555555555555555555555', priceUSD: '0', tags: [] });
  });

  it('answers the same whatever order a list holds its tokens in', () => {
    const tokens = [token(1, PEPE_ETH, 'PEPE'), token(10, ADDRESS_A, 'AAA'), token(10, '0x4444444444444444444444444444444444444444', 'aaa')];
    const forward = merge([list('a', tokens)]);
    const backward = merge([list('a', [...tokens].reverse())]);
    expect(backward).toEqual(forward);
    expect(forward.tokens.map((t) => t.address)).toContain(ADDRESS_A); // the lower address takes the symbol
  });

  it('keeps only the chains asked for, and drops a logo that is not an http(s) or ipfs address', () => {
    const result = merge([list('a', [token(999, ADDRESS_A, 'OTHER'), token(1, PEPE_ETH, 'PEPE', 18, { logoURI: 'javascript:alert(1)' })])]);
    expect(result.tokens).toEqual([expect.objectContaining({ chainId: 1, logoURI: '' })]);
  });
});
