import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseChainsConfig, type ChainsConfig } from '../../src/chainsConfig';
import { checkChainEntries } from '../../src/chain/rpc';
import { loadCatalog } from '../../src/files/catalog';
import { loadConfig, ConfigError } from '../../src/config';
import { buildDependencies } from '../../src/server/dependencies';

const SOLANA = 1151111081099710;

describe('chain mode configuration (CHAINS_FILE)', () => {
  it('reads chains with defaults and checksums addresses', () => {
    const problems: string[] = [];
    const config = parseChainsConfig({
      chains: [{ chainId: 1, rpcUrl: 'http://127.0.0.1:8545', bridgeEndpoint: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48' }, { chainId: 8453, rpcUrl: 'https://base.example', confirmations: 3, gasPrice: 'snapshot', discoverFromBlock: 0 }],
    }, problems);
    expect(problems).toEqual([]);
    expect(config.pollIntervalMs).toBe(250);
    expect(config.rpcTimeoutMs).toBe(3000);
    expect(config).toMatchObject({ prices: 'pools', priceMinDepthUSD: 50_000 });
    expect(parseChainsConfig({ chains: [], prices: 'reference', priceMinDepthUSD: 0 }, problems)).toMatchObject({ prices: 'reference', priceMinDepthUSD: 0 });
    // confirmations and gasPrice absent stay absent (1 and "chain" where they are used), so that the catalog's check
    // tells a field given for a non-EVM chain from a default
    expect(config.chains[0]).toEqual({ chainId: 1, rpcUrl: 'http://127.0.0.1:8545', bridgeEndpoint: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48' });
    expect(config.chains[1].confirmations).toBe(3);
    expect(config.chains[1].gasPrice).toBe('snapshot');
    expect(config.chains[1].discoverFromBlock).toBe(0);
    expect(config.chains[0].discoverFromBlock).toBeUndefined();
  });

  it('names every bad entry with its path and rule', () => {
    const problems: string[] = [];
    parseChainsConfig({ pollIntervalMs: 1, prices: 'oracle', priceMinDepthUSD: -5, chains: [{ chainId: -1, rpcUrl: 'x' }, { chainId: 2, rpcUrl: 'ftp://x', router: '0x12' }, { chainId: 2, rpcUrl: 'http://a', gasPrice: 'low', discoverFromBlock: -1 }] }, problems, 'F');
    expect(problems).toEqual([
      'F: pollIntervalMs must be an integer from 10 to 60000 (got 1)',
      'F: priceMinDepthUSD must be an integer from 0 to 1000000000000 (got -5)',
      'F: prices must be "pools" or "reference" (got "oracle")',
      'F: chains[0].chainId must be a positive integer (got -1)',
      'F: chains[1].rpcUrl must be an http(s) or ws(s) URL (got "ftp://x")',
      'F: chains[1].router must be a 0x-prefixed 20-byte address (got "0x12")',
      'F: chains[2].chainId 2 appears twice',
      'F: chains[2].discoverFromBlock must be an integer from 0 to 9007199254740991 (got -1)',
      'F: chains[2].gasPrice must be "chain" or "snapshot" (got "low")',
    ]);
  });

  it('reads permit2Proxy and permit2, checksummed, absent when not given, and names malformed ones', () => {
    const problems: string[] = [];
    const config = parseChainsConfig({ chains: [
      { chainId: 42161, rpcUrl: 'http://a', permit2Proxy: '0x3333333333333333333333333333333333333333', permit2: '0x000000000022d473030f116ddee9f6b43ac78ba3' },
      { chainId: 10, rpcUrl: 'http://b', router: '0x1111111111111111111111111111111111111111' },
    ] }, problems);
    expect(problems).toEqual([]);
    expect(config.chains[0]).toEqual({ chainId: 42161, rpcUrl: 'http://a', permit2Proxy: '0x3333333333333333333333333333333333333333', permit2: '0x000000000022D473030F116dDEE9F6B43aC78BA3' });
    // no default filled in here: routers.json's (or the canonical Permit2) apply where the deployment is built
    expect(config.chains[1]).not.toHaveProperty('permit2');
    expect(config.chains[1]).not.toHaveProperty('permit2Proxy');
    parseChainsConfig({ chains: [{ chainId: 1, rpcUrl: 'http://a', permit2Proxy: '0x12', permit2: 7 }, { chainId: 10, rpcUrl: 'http://b', permit2Proxy: '0xcF7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9' }] }, problems, 'F');
    expect(problems).toEqual([
      'F: chains[0].permit2Proxy must be a 0x-prefixed 20-byte address (got "0x12")',
      'F: chains[0].permit2 must be a 0x-prefixed 20-byte address (got 7)',
      // mixed case with a wrong checksum, as for router
      'F: chains[1].permit2Proxy must be a 0x-prefixed 20-byte address (got "0xcF7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9")',
    ]);
  });

  it('is loaded from the file named by CHAINS_FILE, and a missing file stops the start-up', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chains-'));
    const file = path.join(dir, 'chains.json');
    fs.writeFileSync(file, JSON.stringify({ chains: [{ chainId: 42161, rpcUrl: 'http://127.0.0.1:1' }] }));
    expect(loadConfig({ CHAINS_FILE: file }).chains?.chains.map((c) => c.chainId)).toEqual([42161]);
    expect(loadConfig({}).chains).toBeUndefined();
    expect(() => loadConfig({ CHAINS_FILE: path.join(dir, 'missing.json') })).toThrow(ConfigError);
    fs.rmSync(dir, { recursive: true });
  });
});

describe('CHAINS_FILE against the catalog (checkChainEntries, at start where the catalog is known)', () => {
  const catalog = loadCatalog(loadConfig({}).dataDir);
  const parsed = (chains: object[]): ChainsConfig => {
    const problems: string[] = [];
    const config = parseChainsConfig({ chains }, problems);
    expect(problems).toEqual([]);
    return config;
  };
  const withFile = (chains: object[], run: (env: Record<string, string>) => void) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'chains-'));
    const file = path.join(dir, 'chains.json');
    fs.writeFileSync(file, JSON.stringify({ chains }));
    try {
      run({ CHAINS_FILE: file });
    } finally {
      fs.rmSync(dir, { recursive: true });
    }
  };

  it('takes a Solana entry with rpcUrl and publicRpcUrl only, and opens no EVM connection for it', () => {
    const config = parsed([{ chainId: SOLANA, rpcUrl: 'http://127.0.0.1:8899', publicRpcUrl: 'https://solana.example' }]);
    expect(config.chains[0]).toEqual({ chainId: SOLANA, rpcUrl: 'http://127.0.0.1:8899', publicRpcUrl: 'https://solana.example' });
    expect(() => checkChainEntries(config, catalog)).not.toThrow();
    withFile([{ chainId: SOLANA, rpcUrl: 'http://127.0.0.1:9' }, { chainId: 42161, rpcUrl: 'http://127.0.0.1:9' }], (env) => {
      const dependencies = buildDependencies(loadConfig(env));
      // one EVM connection (Arbitrum); Solana has none here (src/chain/solanaNode.ts checks it at start)
      expect(dependencies.chains!.chains.map((c) => c.chainId)).toEqual([42161]);
      dependencies.chains!.close();
    });
    withFile([{ chainId: SOLANA, rpcUrl: 'http://127.0.0.1:9' }], (env) => {
      expect(buildDependencies(loadConfig(env)).chains).toBeUndefined();
    });
  });

  it.each([
    ['router', { router: '0x4edE37CdC0E447C88409766468a66de242114A8E' }],
    ['feeCollector', { feeCollector: '0x4edE37CdC0E447C88409766468a66de242114A8E' }],
    ['bridgeEndpoint', { bridgeEndpoint: '0x4edE37CdC0E447C88409766468a66de242114A8E' }],
    ['permit2Proxy', { permit2Proxy: '0x4edE37CdC0E447C88409766468a66de242114A8E' }],
    ['permit2', { permit2: '0x000000000022D473030F116dDEE9F6B43aC78BA3' }],
    ['gasPrice', { gasPrice: 'snapshot' }],
    ['gasPrice', { gasPrice: 'chain' }],
    ['confirmations', { confirmations: 1 }],
    ['discoverFromBlock', { discoverFromBlock: 0 }],
    ['exchangeRouters', { exchangeRouters: { 'sushiswap:concentrated': '0x4edE37CdC0E447C88409766468a66de242114A8E' } }],
  ])('refuses %s given for Solana, naming the entry and the field', (field, extra) => {
    const config = parsed([{ chainId: 42161, rpcUrl: 'http://a' }, { chainId: SOLANA, rpcUrl: 'http://b', ...extra }]);
    expect(() => checkChainEntries(config, catalog)).toThrow(
      `CHAINS_FILE: chains[1] (Solana, ${SOLANA}): ${field} applies to EVM chains only; an entry for a Solana (SVM) chain takes rpcUrl, publicRpcUrl and indexFromBlock only`,
    );
  });

  it('takes indexFromBlock on a Solana entry (the first slot the transfer indexer reads there)', () => {
    const config = parsed([{ chainId: 42161, rpcUrl: 'http://a' }, { chainId: SOLANA, rpcUrl: 'http://b', indexFromBlock: 250_000_000 }]);
    expect(() => checkChainEntries(config, catalog)).not.toThrow();
    expect(config.chains[1]!.indexFromBlock).toBe(250_000_000);
  });

  it('names every EVM-only field of an entry, and every offending entry, in one error; and the start stops on it', () => {
    const chains = [
      { chainId: SOLANA, rpcUrl: 'http://b', router: '0x4edE37CdC0E447C88409766468a66de242114A8E', gasPrice: 'chain' },
      { chainId: 999_999, rpcUrl: 'http://c' },
    ];
    const message = `CHAINS_FILE: chains[0] (Solana, ${SOLANA}): router, gasPrice apply to EVM chains only; an entry for a Solana (SVM) chain takes rpcUrl, publicRpcUrl and indexFromBlock only; chains[1].chainId 999999 is not a chain of the catalog (GET /v1/chains lists them)`;
    expect(() => checkChainEntries(parsed(chains), catalog)).toThrow(message);
    withFile(chains, (env) => expect(() => buildDependencies(loadConfig(env))).toThrow(message));
  });

  it('keeps an unknown chain id an error, router given or not, and EVM entries take every field', () => {
    expect(() => checkChainEntries(parsed([{ chainId: 5, rpcUrl: 'http://a', router: '0x4edE37CdC0E447C88409766468a66de242114A8E', feeCollector: '0x4edE37CdC0E447C88409766468a66de242114A8E' }]), catalog))
      .toThrow('CHAINS_FILE: chains[0].chainId 5 is not a chain of the catalog');
    expect(() => checkChainEntries(parsed([{ chainId: 1, rpcUrl: 'http://a', router: '0x4edE37CdC0E447C88409766468a66de242114A8E', feeCollector: '0x4edE37CdC0E447C88409766468a66de242114A8E', bridgeEndpoint: '0x4edE37CdC0E447C88409766468a66de242114A8E', permit2Proxy: '0x3333333333333333333333333333333333333333', permit2: '0x000000000022D473030F116dDEE9F6B43aC78BA3', gasPrice: 'chain', confirmations: 2 }]), catalog))
      .not.toThrow();
  });

  it('gives the service the chains file\'s permit2Proxy and permit2 over routers.json\'s, and no routers.json proxy with another router', () => {
    const OWN_PROXY = '0x3333333333333333333333333333333333333333';
    const OWN_ROUTER = '0x1111111111111111111111111111111111111111';
    const ZKSYNC_PERMIT2 = '0x0000000000225e31D15943971F47aD3022F714Fa';
    const JSON_PROXY = '0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9';
    const CANONICAL = '0x000000000022D473030F116dDEE9F6B43aC78BA3';
    withFile([
      { chainId: 42161, rpcUrl: 'http://127.0.0.1:1', router: OWN_ROUTER, permit2Proxy: OWN_PROXY.toLowerCase() },
      { chainId: 324, rpcUrl: 'http://127.0.0.1:1', permit2Proxy: OWN_PROXY, permit2: ZKSYNC_PERMIT2 },
      { chainId: 10, rpcUrl: 'http://127.0.0.1:1', router: OWN_ROUTER },
      { chainId: 8453, rpcUrl: 'http://127.0.0.1:1', feeCollector: '0x2222222222222222222222222222222222222222' },
    ], (env) => {
      const deps = buildDependencies(loadConfig(env));
      try {
        const of = (chainId: number) => ({ router: deps.routers.routerOf(chainId), permit2Proxy: deps.routers.permit2ProxyOf(chainId), permit2: deps.routers.permit2Of(chainId) });
        // the deploy script's entry: its router and its proxy; Permit2 the canonical one (routers.json's)
        expect(of(42161)).toEqual({ router: OWN_ROUTER, permit2Proxy: OWN_PROXY, permit2: CANONICAL });
        // a proxy and a Permit2 of the chain's own, routers.json's router
        expect(of(324)).toEqual({ router: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512', permit2Proxy: OWN_PROXY, permit2: ZKSYNC_PERMIT2 });
        // another router without a proxy: routers.json's proxy (built for routers.json's router) is not given
        expect(of(10)).toEqual({ router: OWN_ROUTER, permit2Proxy: undefined, permit2: CANONICAL });
        // routers.json's router kept: its proxy too
        expect(of(8453).permit2Proxy).toBe(JSON_PROXY);
        // chains the file does not name, and Solana (no deployment)
        expect(of(1)).toEqual({ router: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512', permit2Proxy: JSON_PROXY, permit2: CANONICAL });
        expect(of(SOLANA)).toEqual({ router: undefined, permit2Proxy: undefined, permit2: undefined });
      } finally {
        deps.chains?.close();
      }
    });
  });

  it('reads a chain\'s own exchange routers, refuses malformed ones, and the quotes call them on that chain only', () => {
    const problems: string[] = [];
    const address = '0x4ede37cdc0e447c88409766468a66de242114a8e';
    const config = parseChainsConfig({ chains: [{ chainId: 42161, rpcUrl: 'http://a', exchangeRouters: { 'sushiswap:concentrated': address } }] }, problems);
    expect(problems).toEqual([]);
    expect(config.chains[0].exchangeRouters).toEqual({ 'sushiswap:concentrated': '0x4edE37CdC0E447C88409766468a66de242114A8E' });
    parseChainsConfig({ chains: [{ chainId: 1, rpcUrl: 'http://a', exchangeRouters: { 'sushiswap:stableswap': address, 'uniswap:concentrated': '0x12' } }, { chainId: 10, rpcUrl: 'http://b', exchangeRouters: ['x'] }] }, problems, 'F');
    expect(problems).toEqual([
      'F: chains[0].exchangeRouters: "sushiswap:stableswap" is not "<exchange>:constantProduct" or "<exchange>:concentrated"',
      'F: chains[0].exchangeRouters["uniswap:concentrated"] must be a 0x-prefixed 20-byte address (got "0x12")',
      'F: chains[1].exchangeRouters must be an object of "<exchange>:<kind>" → address (got ["x"])',
    ]);
    withFile([{ chainId: 42161, rpcUrl: 'http://127.0.0.1:1', exchangeRouters: { 'sushiswap:concentrated': address } }], (env) => {
      const deps = buildDependencies(loadConfig(env));
      try {
        expect(deps.routers.exchangeRouter('sushiswap', 'concentrated', 42161)!.address).toBe('0x4edE37CdC0E447C88409766468a66de242114A8E');
        // routers.json's elsewhere (and without a chain)
        const label = deps.routers.exchangeRouter('sushiswap', 'concentrated')!.address;
        expect(label).not.toBe('0x4edE37CdC0E447C88409766468a66de242114A8E');
        expect(deps.routers.exchangeRouter('sushiswap', 'concentrated', 1)!.address).toBe(label);
        expect(deps.routers.exchangeRoutersOn(42161).find((r) => r.exchange === 'sushiswap' && r.kind === 'concentrated')!.address).toBe('0x4edE37CdC0E447C88409766468a66de242114A8E');
      } finally {
        deps.chains?.close();
      }
    });
    // a router routers.json does not have, or has on other chains only, stops the start
    withFile([{ chainId: 42161, rpcUrl: 'http://127.0.0.1:1', exchangeRouters: { 'nowhere:concentrated': address } }], (env) => expect(() => buildDependencies(loadConfig(env))).toThrow('chain 42161: the chains file names an exchange router nowhere:concentrated that routers.json does not have'));
    withFile([{ chainId: 42161, rpcUrl: 'http://127.0.0.1:1', exchangeRouters: { 'traderjoe:constantProduct': address } }], (env) => expect(() => buildDependencies(loadConfig(env))).toThrow('which routers.json has on chains 43114 only'));
  });
});
