import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { useAppAndContract } from '../support/app';
import { expectInvalidRequest } from '../support/contract';
import { ARB_USDC, ROUTER, WALLET } from '../support/fixtures';

/** Uniswap's Permit2 (canonical address) and the service's Permit2 proxy (routers.json: the sandbox deployer's nonce 3). */
const PERMIT2 = '0x000000000022D473030F116dDEE9F6B43aC78BA3';
const PERMIT2_PROXY = '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9';

const { t, contract } = useAppAndContract();

describe('GET /v1/chains', () => {
  it('lists every catalog chain with the ecosystem fields', async () => {
    const res = await request(t.app).get('/v1/chains');
    contract.expectResponse('getChains', res);
    expect(res.status).toBe(200);
    const keys = res.body.chains.map((c: { key: string }) => c.key);
    expect(keys).toEqual(expect.arrayContaining(['eth', 'opt', 'bsc', 'dai', 'pol', 'bas', 'arb', 'ava', 'lna', 'era', 'scl', 'sol', 'btc', 'sui', 'trx']));
    const arbitrum = res.body.chains.find((c: { id: number }) => c.id === 42161);
    expect(arbitrum).toMatchObject({ key: 'arb', chainType: 'EVM', coin: 'ETH', metamask: { chainId: '0xa4b1' } });
    expect(arbitrum.nativeToken).toMatchObject({ address: '0x0000000000000000000000000000000000000000', decimals: 18 });
  });

  it('names Permit2 and the service\'s Permit2 proxy on every EVM chain (the SDK\'s signature approvals), on no other chain', async () => {
    const res = await request(t.app).get('/v1/chains?chainTypes=EVM,SVM,UTXO,MVM,TVM');
    contract.expectResponse('getChains', res);
    expect(res.status).toBe(200);
    type WireChain = { key: string; chainType: string; diamondAddress?: string; permit2?: string; permit2Proxy?: string };
    const chains = res.body.chains as WireChain[];
    const evm = chains.filter((c) => c.chainType === 'EVM');
    expect(evm.length).toBeGreaterThan(10);
    for (const chain of evm) {
      expect({ key: chain.key, permit2: chain.permit2, permit2Proxy: chain.permit2Proxy, diamondAddress: chain.diamondAddress })
        .toEqual({ key: chain.key, permit2: PERMIT2, permit2Proxy: PERMIT2_PROXY, diamondAddress: ROUTER });
    }
    const others = chains.filter((c) => c.chainType !== 'EVM');
    expect(others.map((c) => c.key).sort()).toEqual(['btc', 'sol', 'sui', 'trx']);
    for (const chain of others) expect({ key: chain.key, fields: Object.keys(chain).filter((k) => /permit2|diamond/i.test(k)) }).toEqual({ key: chain.key, fields: [] });
    // the contract's field order: diamondAddress, permit2, permit2Proxy, then metamask last
    expect(Object.keys(evm.find((c) => c.key === 'arb')!).slice(-4)).toEqual(['diamondAddress', 'permit2', 'permit2Proxy', 'metamask']);
  });

  it('keeps the router as the approval address of a quote from a chain with a Permit2 proxy (the SDK decides with it)', async () => {
    const res = await request(t.app).get('/v1/quote').query({ fromChain: 'arb', toChain: 'opt', fromToken: 'USDC', toToken: 'USDC', fromAmount: '100000000', fromAddress: WALLET });
    contract.expectResponse('getQuote', res);
    expect(res.status).toBe(200);
    expect(res.body.estimate.approvalAddress).toBe(ROUTER);
    expect(res.body.transactionRequest.to).toBe(ROUTER);
  });

  it('filters by chainTypes, comma-joined or repeated', async () => {
    const joined = await request(t.app).get('/v1/chains?chainTypes=SVM,UTXO');
    contract.expectResponse('getChains', joined);
    expect(joined.body.chains.map((c: { key: string }) => c.key).sort()).toEqual(['btc', 'sol']);
    const repeated = await request(t.app).get('/v1/chains?chainTypes=SVM&chainTypes=UTXO');
    expect(repeated.body).toEqual(joined.body);
  });

  it('rejects an unknown chain type naming the parameter and the allowed values', async () => {
    expectInvalidRequest(contract, 'getChains', await request(t.app).get('/v1/chains?chainTypes=EVM,XYZ'), /chainTypes/, /EVM, SVM, UTXO, MVM, TVM/);
  });
});

describe('GET /v1/tokens', () => {
  it('returns stablecoins of Ethereum and Arbitrum only, keyed by chain id', async () => {
    const res = await request(t.app).get('/v1/tokens?chains=eth,arb&tags=stablecoin');
    contract.expectResponse('getTokens', res);
    expect(Object.keys(res.body.tokens).sort()).toEqual(['1', '42161']);
    for (const list of Object.values(res.body.tokens) as { tags: string[]; symbol: string }[][]) {
      expect(list.length).toBeGreaterThan(1);
      for (const token of list) expect(token.tags).toContain('stablecoin');
    }
    expect(res.body.tokens['42161'].map((x: { address: string }) => x.address)).toContain(ARB_USDC);
  });

  it('accepts chain ids and keys mixed, and repeated keys', async () => {
    const a = await request(t.app).get('/v1/tokens?chains=1,arb');
    const b = await request(t.app).get('/v1/tokens?chains=eth&chains=42161');
    contract.expectResponse('getTokens', a);
    expect(a.body).toEqual(b.body);
    expect(Object.keys(a.body.tokens).sort()).toEqual(['1', '42161']);
  });

  it('applies minPriceUSD (default 0.0001) and chainTypes together', async () => {
    const all = await request(t.app).get('/v1/tokens?chainTypes=SVM');
    contract.expectResponse('getTokens', all);
    expect(Object.keys(all.body.tokens)).toEqual(['1151111081099710']);
    const expensive = await request(t.app).get('/v1/tokens?chainTypes=SVM&minPriceUSD=100');
    // priced tokens at or above the minimum; a listed token of unknown price ("0") is not known to be below it
    for (const token of expensive.body.tokens['1151111081099710'] ?? []) expect(Number(token.priceUSD) >= 100 || token.priceUSD === '0').toBe(true);
    expect((expensive.body.tokens['1151111081099710'] ?? []).some((token: { priceUSD: string }) => token.priceUSD === '0')).toBe(true);
    expect((expensive.body.tokens['1151111081099710'] ?? []).length).toBeLessThan(all.body.tokens['1151111081099710'].length);
  });

  it('answers 400 naming an unknown chain', async () => {
    const res = await request(t.app).get('/v1/tokens?chains=eth,nochain');
    contract.expectResponse('getTokens', res);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 1011 });
    expect(res.body.message).toMatch(/query parameter chains.1: "nochain" is not a supported chain/);
    expect(res.body.errors.issues).toEqual([{ in: 'query', name: 'chains.1', rule: 'supportedChain', message: expect.stringContaining('"nochain"') }]);
  });

  it.each([
    ['minPriceUSD=-1', /minPriceUSD must be >= 0/],
    ['minPriceUSD=abc', /minPriceUSD must be number/],
  ])('answers 400 for %s', async (query, message) => {
    expectInvalidRequest(contract, 'getTokens', await request(t.app).get(`/v1/tokens?${query}`), message);
  });
});

describe("GET /v1/tokens with the widget's parameters (orderBy, limit, extended, search)", () => {
  const markets = JSON.parse(fs.readFileSync(path.join(__dirname, '../../data/catalog/markets.json'), 'utf8')).markets as Record<string, { volumeUSD24H: number; marketCapUSD: number }>;
  type WireToken = { symbol: string; name: string; address: string; coinKey: string; priceUSD: string; volumeUSD24H?: number | null; marketCapUSD?: number | null; fdvUSD?: number | null };

  it('orders each chain by 24-hour volume, largest first, tokens without a figure last, and caps each chain at limit', async () => {
    const all = await request(t.app).get('/v1/tokens?chains=eth&extended=true');
    const res = await request(t.app).get('/v1/tokens?chainTypes=EVM,SVM,UTXO,MVM,TVM&orderBy=volumeUSD24H&extended=true&limit=4&minPriceUSD=0.000001');
    contract.expectResponse('getTokens', res);
    expect(res.status).toBe(200);
    for (const list of Object.values(res.body.tokens as Record<string, WireToken[]>)) expect(list.length).toBeLessThanOrEqual(4);
    const eth = res.body.tokens['1'] as WireToken[];
    expect(eth).toHaveLength(4);
    // the four largest by the reference table, worked out here from the whole list of the chain
    const expected = (all.body.tokens['1'] as WireToken[])
      .filter((tk) => markets[tk.coinKey])
      .sort((a, b) => markets[b.coinKey].volumeUSD24H - markets[a.coinKey].volumeUSD24H)
      .slice(0, 4)
      .map((tk) => tk.symbol);
    expect(eth.map((tk) => tk.symbol)).toEqual(expected);
    expect(eth[0]).toMatchObject({ symbol: 'USDT', volumeUSD24H: markets.USDT.volumeUSD24H, marketCapUSD: markets.USDT.marketCapUSD });
    const everything = (await request(t.app).get('/v1/tokens?chains=eth&orderBy=volumeUSD24H&extended=true')).body.tokens['1'] as WireToken[];
    const firstWithout = everything.findIndex((tk) => tk.volumeUSD24H === null);
    expect(firstWithout).toBeGreaterThan(0);
    expect(everything.slice(firstWithout).every((tk) => tk.volumeUSD24H === null)).toBe(true);
  });

  it('orders by price, and without extended the tokens carry no market figures', async () => {
    const res = await request(t.app).get('/v1/tokens?chains=arb&orderBy=priceUSD');
    contract.expectResponse('getTokens', res);
    const prices = (res.body.tokens['42161'] as WireToken[]).map((tk) => Number(tk.priceUSD));
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
    expect(prices[0]).toBeGreaterThan(prices[prices.length - 1]);
    expect(res.body.tokens['42161'][0]).not.toHaveProperty('volumeUSD24H');
  });

  it('searches symbol and name in any case, and an address exactly', async () => {
    const text = await request(t.app).get('/v1/tokens?chains=arb,opt&search=uSd');
    contract.expectResponse('getTokens', text);
    const found = Object.values(text.body.tokens as Record<string, WireToken[]>).flat();
    expect(found.length).toBeGreaterThan(2);
    for (const tk of found) expect(`${tk.symbol} ${tk.name}`.toLowerCase()).toContain('usd');
    const byAddress = await request(t.app).get(`/v1/tokens?search=${ARB_USDC.toLowerCase()}`);
    expect(byAddress.body.tokens).toEqual({ '42161': [expect.objectContaining({ symbol: 'USDC', address: ARB_USDC })] });
    const none = await request(t.app).get('/v1/tokens?search=nosuchtokenanywhere');
    expect(none.status).toBe(200);
    expect(none.body.tokens).toEqual({});
  });

  it.each([
    ['orderBy=volume', /orderBy must be one of marketCapUSD, priceUSD, volumeUSD24H, fdvUSD/],
    ['limit=0', /limit must be >= 1/],
    ['extended=maybe', /extended must be boolean/],
    ['search=', /search must NOT have fewer than 1 characters/],
  ])('answers 400 naming the parameter for %s', async (query, message) => {
    const res = await request(t.app).get(`/v1/tokens?${query}`);
    contract.expectResponse('getTokens', res);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
  });
});

describe('GET /v1/token', () => {
  it.each([
    ['arb', 'usdc'],
    ['42161', 'USDC'],
    ['ARB', ARB_USDC.toLowerCase()],
    ['arb', ARB_USDC.toUpperCase().replace('0X', '0x')],
  ])('finds USDC on Arbitrum by chain %s and token %s, returned checksummed', async (chain, token) => {
    const res = await request(t.app).get('/v1/token').query({ chain, token });
    contract.expectResponse('getToken', res);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ chainId: 42161, address: ARB_USDC, symbol: 'USDC', decimals: 6, coinKey: 'USDC' });
    expect(Number(res.body.priceUSD)).toBeGreaterThan(0.9);
  });

  it('answers 400 for an invalid chain and 404 for an unknown token', async () => {
    const badChain = await request(t.app).get('/v1/token?chain=nochain&token=USDC');
    contract.expectResponse('getToken', badChain);
    expect(badChain.status).toBe(400);
    expect(badChain.body.message).toMatch(/chain: "nochain" is not a supported chain/);
    const unknown = await request(t.app).get('/v1/token?chain=arb&token=NOPE');
    contract.expectResponse('getToken', unknown);
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe(1003);
    expect(unknown.body.message).toMatch(/NOPE/);
  });

  it('answers 400 naming a missing required parameter', async () => {
    const res = await request(t.app).get('/v1/token?chain=arb');
    contract.expectResponse('getToken', res);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/query parameter token is required/);
    expect(res.body.errors.issues).toEqual([expect.objectContaining({ in: 'query', name: 'token', rule: 'required' })]);
  });
});

describe('GET /v1/tools', () => {
  it('lists bridges with chain pairs and exchanges with chains', async () => {
    const res = await request(t.app).get('/v1/tools');
    contract.expectResponse('getTools', res);
    const bridgeKeys = res.body.bridges.map((b: { key: string }) => b.key);
    expect(bridgeKeys).toEqual(expect.arrayContaining(['across', 'stargate', 'cctp', 'hop', 'relay', 'mayan', 'debridge']));
    const exchangeKeys = res.body.exchanges.map((e: { key: string }) => e.key);
    expect(exchangeKeys).toEqual(expect.arrayContaining(['uniswap', 'sushiswap', 'curve']));
  });

  it('restricts to the given chains', async () => {
    const res = await request(t.app).get('/v1/tools?chains=bas');
    contract.expectResponse('getTools', res);
    for (const e of res.body.exchanges) expect(e.supportedChains).toEqual([8453]);
    for (const b of res.body.bridges) {
      for (const pair of b.supportedChains) expect([pair.fromChainId, pair.toChainId]).toContain(8453);
    }
    expect(res.body.exchanges.map((e: { key: string }) => e.key)).toContain('aerodrome');
  });

  it('lists only what a route can use: an exchange where it has pools, a bridge where it has routes, from chains the service sends from', async () => {
    const res = await request(t.app).get('/v1/tools');
    contract.expectResponse('getTools', res);
    const { graph, catalog } = t.dependencies;
    const isEvm = (id: number) => catalog.getChain(id)?.chainType === 'EVM';
    const sends = (id: number) => ['EVM', 'SVM'].includes(catalog.getChain(id)?.chainType ?? '');
    for (const e of res.body.exchanges as { key: string; supportedChains: number[] }[]) {
      for (const chainId of e.supportedChains) {
        expect({ exchange: e.key, chainId, evm: isEvm(chainId), pools: graph.pools.some((p) => p.exchange === e.key && p.chainId === chainId) }).toEqual({ exchange: e.key, chainId, evm: true, pools: true });
      }
    }
    for (const b of res.body.bridges as { key: string; supportedChains: { fromChainId: number; toChainId: number }[] }[]) {
      for (const { fromChainId, toChainId } of b.supportedChains) {
        const routes = graph.bridgesBetween(fromChainId, toChainId).filter((r) => r.bridge === b.key).length;
        expect({ bridge: b.key, fromChainId, toChainId, sends: sends(fromChainId), routes: routes > 0 }).toEqual({ bridge: b.key, fromChainId, toChainId, sends: true, routes: true });
      }
    }
    // the Solana, Sui and Tron exchanges have no pool a route could use; no bridge route touches Bitcoin
    const exchangeKeys = res.body.exchanges.map((e: { key: string }) => e.key);
    for (const key of ['orca', 'raydium', 'meteora', 'cetus', 'aftermath', 'sunswap']) expect(exchangeKeys).not.toContain(key);
    const bitcoin = 20000000000001;
    expect(res.body.bridges.flatMap((b: { supportedChains: { fromChainId: number; toChainId: number }[] }) => b.supportedChains).filter((p: { fromChainId: number; toChainId: number }) => p.fromChainId === bitcoin || p.toChainId === bitcoin)).toEqual([]);
    // transfers to and from Solana are routes, so bridges list them; none from Sui or Tron
    const pairs = res.body.bridges.flatMap((b: { supportedChains: { fromChainId: number; toChainId: number }[] }) => b.supportedChains) as { fromChainId: number; toChainId: number }[];
    expect(pairs.some((p) => p.toChainId === 1151111081099710)).toBe(true);
    expect(pairs.some((p) => p.fromChainId === 1151111081099710)).toBe(true);
    expect(pairs.filter((p) => [9270000000000000, 728126428].includes(p.fromChainId))).toEqual([]);
  });
});

describe('GET /v1/connections from a chain the service cannot send from', () => {
  it('lists none (a connection starts where a route can); Solana sends', async () => {
    const fromSolana = await request(t.app).get('/v1/connections?fromChain=sol&toChain=arb');
    contract.expectResponse('getConnections', fromSolana);
    expect(fromSolana.body.connections.length).toBeGreaterThan(0);
    const res = await request(t.app).get('/v1/connections?fromChain=trx');
    contract.expectResponse('getConnections', res);
    expect(res.status).toBe(200);
    expect(res.body.connections).toEqual([]);
    const toSolana = await request(t.app).get('/v1/connections?fromChain=arb&toChain=sol');
    expect(toSolana.body.connections.length).toBeGreaterThan(0);
  });
});
