import { Catalog, CatalogDataError, type CatalogData } from '../../../../src/core/catalog/catalog';
import type { ChainFamily } from '../../../../src/core/chains/family';
import type { Chain, Token } from '../../../../src/core/entities';

const ETH_NATIVE: Token = {
  chainId: 1, address: '0x0000000000000000000000000000000000000000', symbol: 'ETH', decimals: 18,
  name: 'ETH', coinKey: 'ETH', priceUSD: '3000', tags: [],
};
const USDC_ETH: Token = {
  chainId: 1, address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', symbol: 'USDC', decimals: 6,
  name: 'USD Coin', coinKey: 'USDC', priceUSD: '1', tags: ['stablecoin'],
};
const DUST_ETH: Token = {
  chainId: 1, address: '0x1111111111111111111111111111111111111111', symbol: 'DUST', decimals: 18,
  name: 'Dust', coinKey: 'DUST', priceUSD: '0.00001', tags: [],
};
const SOL_NATIVE: Token = {
  chainId: 1151111081099710, address: '11111111111111111111111111111111', symbol: 'SOL', decimals: 9,
  name: 'SOL', coinKey: 'SOL', priceUSD: '150', tags: [],
};
const METAMASK = { chainId: '0x1', chainName: 'x', nativeCurrency: { name: 'x', symbol: 'x', decimals: 18 }, rpcUrls: [], blockExplorerUrls: [] };
const ETHEREUM: Chain = { id: 1, key: 'eth', name: 'Ethereum', chainType: 'EVM', coin: 'ETH', mainnet: true, nativeToken: ETH_NATIVE, metamask: METAMASK };
const SOLANA: Chain = { id: 1151111081099710, key: 'sol', name: 'Solana', chainType: 'SVM', coin: 'SOL', mainnet: true, nativeToken: SOL_NATIVE, metamask: METAMASK };

const DATA: CatalogData = {
  chains: [SOLANA, ETHEREUM],
  tokens: [USDC_ETH, ETH_NATIVE, DUST_ETH, SOL_NATIVE],
  bridges: [{ key: 'mayan', name: 'Mayan', supportedChains: [{ fromChainId: 1, toChainId: 1151111081099710 }], tokens: ['USDC'] }],
  exchanges: [{ key: 'uniswap', name: 'Uniswap', supportedChains: [1], kinds: ['concentrated'] }],
};

describe('Catalog', () => {
  const catalog = new Catalog(DATA);

  it('orders chains by id and resolves them by id, decimal string or key in any case', () => {
    expect(catalog.chains.map((c) => c.key)).toEqual(['eth', 'sol']);
    expect(catalog.resolveChain(1)?.key).toBe('eth');
    expect(catalog.resolveChain('1151111081099710')?.key).toBe('sol');
    expect(catalog.resolveChain('ETH')?.id).toBe(1);
    expect(catalog.resolveChain('nope')).toBeUndefined();
    expect(catalog.resolveChain('2')).toBeUndefined();
  });

  it('takes discovered tokens: found by address only, whatever symbol they claim; the same set keeps the catalog', () => {
    const found: Token = {
      chainId: 1, address: '0x00000000000000000000000000000000000D15c0', symbol: 'USDC', decimals: 18,
      name: 'Not USD Coin', coinKey: '1:0x00000000000000000000000000000000000D15c0', priceUSD: '0', tags: [], verificationStatus: 'unverified',
    };
    const withFound = catalog.withDiscoveredTokens([found]);
    expect(withFound.findToken(1, found.address.toLowerCase())).toEqual(found);
    expect(withFound.findToken(1, 'USDC')?.address).toBe(USDC_ETH.address);
    expect(withFound.tokensOf(1).map((t) => t.address)).toContain(found.address);
    // priced "0": hidden by the default minimum price, listed without one
    expect(withFound.listTokens({ minPriceUSD: 0.0001 }).get(1)!.map((t) => t.address)).not.toContain(found.address);
    expect(withFound.listTokens().get(1)!.map((t) => t.address)).toContain(found.address);
    expect(withFound.withDiscoveredTokens([{ ...found, priceUSD: '2' }])).toBe(withFound);
    expect(withFound.withPrices(new Map([[found.coinKey, '2']])).findToken(1, found.address)!.priceUSD).toBe('2');
    expect(withFound.withDiscoveredTokens([]).findToken(1, found.address)).toBeUndefined();
    expect(catalog.withDiscoveredTokens([])).toBe(catalog);
    expect(() => catalog.withDiscoveredTokens([{ ...found, verificationStatus: undefined }])).toThrow(CatalogDataError);
    expect(() => catalog.withDiscoveredTokens([{ ...found, address: USDC_ETH.address }])).toThrow(/duplicate token/);
  });

  it('lists a token of the published lists whose price is unknown whatever the minimum price: it is not known to be below it', () => {
    const listed: Token = { ...DUST_ETH, address: '0x6982508145454Ce325dDbE47a25d4ec3d2311933', symbol: 'PEPE', name: 'Pepe', coinKey: 'PEPE', priceUSD: '0' };
    const withListed = new Catalog({ ...DATA, tokens: [...DATA.tokens, listed] });
    for (const minPriceUSD of [undefined, 0, 0.0001, 1000]) {
      expect(withListed.listTokens({ minPriceUSD }).get(1)!.map((t) => t.symbol)).toContain('PEPE');
    }
    // a priced token below the minimum stays out
    expect(withListed.listTokens({ minPriceUSD: 0.0001 }).get(1)!.map((t) => t.symbol)).not.toContain('DUST');
  });

  it('names the wrapped native token from the data, never a discovered token that claims its symbol', () => {
    const WETH: Token = { ...DUST_ETH, address: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2', symbol: 'WETH', name: 'Wrapped Ether', coinKey: 'WETH' };
    const fake: Token = { ...WETH, address: '0x0000000000000000000000000000000000000001', coinKey: '1:0x0000000000000000000000000000000000000001', verificationStatus: 'unverified' };
    const withWeth = new Catalog({ ...DATA, tokens: [...DATA.tokens, WETH] }).withDiscoveredTokens([fake]);
    expect(withWeth.wrappedNativeOf(1)?.address).toBe(WETH.address);
    expect(catalog.wrappedNativeOf(1)).toBeUndefined();
  });

  it('finds EVM tokens by address in any case and returns them checksummed', () => {
    expect(catalog.findToken(1, '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48')?.address).toBe(USDC_ETH.address);
    expect(catalog.findToken(1, '0XA0B86991C6218B36C1D19D4A2E9EB0CE3606EB48'.replace('0X', '0x'))?.symbol).toBe('USDC');
    expect(catalog.findToken(1, 'usdc')?.address).toBe(USDC_ETH.address);
    expect(catalog.findToken(1, 'USDT')).toBeUndefined();
    expect(catalog.findToken(999, 'usdc')).toBeUndefined();
  });

  it('keeps non-EVM addresses case-sensitive', () => {
    expect(catalog.findToken(SOLANA.id, '11111111111111111111111111111111')?.symbol).toBe('SOL');
  });

  it('filters tokens by chains, tags, chain types and minimum price, all AND-ed', () => {
    const ids = (m: Map<number, Token[]>) => [...m.entries()].map(([id, list]) => [id, list.map((t) => t.symbol)]);
    expect(ids(catalog.listTokens())).toEqual([[1, ['DUST', 'ETH', 'USDC']], [SOLANA.id, ['SOL']]]);
    expect(ids(catalog.listTokens({ minPriceUSD: 0.0001 }))).toEqual([[1, ['ETH', 'USDC']], [SOLANA.id, ['SOL']]]);
    expect(ids(catalog.listTokens({ tags: ['stablecoin'] }))).toEqual([[1, ['USDC']]]);
    expect(ids(catalog.listTokens({ chainTypes: ['SVM'] }))).toEqual([[SOLANA.id, ['SOL']]]);
    expect(ids(catalog.listTokens({ chainIds: [1], tags: ['stablecoin'], chainTypes: ['SVM'] }))).toEqual([]);
    // an empty list restricts nothing; a chain type no chain has (the ecosystem's STL) keeps none
    expect(catalog.listTokens({ chainIds: [], tags: [], chainTypes: [] })).toEqual(catalog.listTokens());
    expect(ids(catalog.listTokens({ chainTypes: ['STL'] }))).toEqual([]);
  });

  it('restricts tools to chains: exchanges on them, bridge connections touching them', () => {
    expect(catalog.listTools([SOLANA.id]).bridges.map((b) => b.key)).toEqual(['mayan']);
    expect(catalog.listTools([SOLANA.id]).exchanges).toEqual([]);
    expect(catalog.listTools([1]).exchanges.map((e) => e.key)).toEqual(['uniswap']);
  });

  it('is read-only', () => {
    expect(() => (catalog.chains as Chain[]).push(ETHEREUM)).toThrow();
    expect(() => {
      (catalog.findToken(1, 'usdc') as { symbol: string }).symbol = 'X';
    }).toThrow();
  });

  it('copies and freezes the tokens it is given, takes a token without tags as tagless, and shares its frozen tokens with its copies', () => {
    const given = { ...DUST_ETH, tags: ['x'] };
    const own = new Catalog({ ...DATA, tokens: [USDC_ETH, ETH_NATIVE, given, SOL_NATIVE] });
    const held = own.findToken(1, 'DUST')!;
    expect(held).not.toBe(given);
    expect(Object.isFrozen(held) && Object.isFrozen(held.tags)).toBe(true);
    given.tags.push('y'); // the caller's object changes, the catalog's does not
    expect(held.tags).toEqual(['x']);
    const { tags: _none, ...untagged } = DUST_ETH;
    expect(new Catalog({ ...DATA, tokens: [USDC_ETH, ETH_NATIVE, untagged, SOL_NATIVE] }).findToken(1, 'DUST')!.tags).toEqual([]);
    // a copy keeps the very token objects it does not change (a catalog of many thousand tokens is not held twice)
    const repriced = own.withPrices(new Map([['USDC', '0.99']]));
    expect(repriced.findToken(1, 'DUST')).toBe(held);
    expect(repriced.findToken(1, 'USDC')!.priceUSD).toBe('0.99');
    expect(own.findToken(1, 'USDC')!.priceUSD).toBe('1');
    // a token frozen only on the surface (its tags open) is copied, not shared
    const shallow = Object.freeze({ ...DUST_ETH, tags: ['z'] });
    expect(new Catalog({ ...DATA, tokens: [USDC_ETH, ETH_NATIVE, shallow, SOL_NATIVE] }).findToken(1, 'DUST')).not.toBe(shallow);
  });

  it.each([
    ['a duplicate address', { tokens: [USDC_ETH, { ...USDC_ETH, symbol: 'USDC2' }] }, /duplicate token/],
    ['a duplicate symbol', { tokens: [USDC_ETH, { ...DUST_ETH, symbol: 'usdc' }] }, /duplicate symbol/],
    ['an unknown chain', { tokens: [{ ...USDC_ETH, chainId: 5 }] }, /unknown chain 5/],
    ['a non-checksummed address', { tokens: [{ ...USDC_ETH, address: USDC_ETH.address.toLowerCase() }] }, /not in its normal form \(0x and 40 hex digits\)/],
  ])('rejects data with %s', (_name, patch, message) => {
    expect(() => new Catalog({ ...DATA, ...patch })).toThrow(CatalogDataError);
    expect(() => new Catalog({ ...DATA, ...patch })).toThrow(message);
  });

  it('reads addresses with the reader it is given, and its copies keep it (the start gives a faster one: src/core/chains/eip55.ts)', () => {
    const read: string[] = [];
    const options = { parseAddress: (family: ChainFamily, text: string) => (read.push(text), family.parseAddress(text)) };
    const given = new Catalog(DATA, options);
    expect(read).toContain(USDC_ETH.address);
    read.length = 0;
    given.withChains((chain) => chain);
    expect(read).toContain(USDC_ETH.address);
    // a reader that refuses: the catalog refuses the data as it does with the family's own
    expect(() => new Catalog(DATA, { parseAddress: () => undefined })).toThrow(/not in its normal form/);
  });
});
