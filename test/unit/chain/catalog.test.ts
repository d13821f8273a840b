/**
 * Chain mode's catalog: each connected chain advertises its RPC URL first in /v1/chains (metamask.rpcUrls), so that a
 * client following /v1/chains reads the chain the service reads; the multicall address stays the catalog's
 * (canonical Multicall3 on the sandbox's chains); chains not connected are served as the catalog has them.
 */
import request from 'supertest';
import { chainModeCatalog } from '../../../src/chain/catalog';
import { parseChainsConfig, type ChainsConfig } from '../../../src/chainsConfig';
import { loadCatalog } from '../../../src/files/catalog';
import { loadConfig } from '../../../src/config';
import { useTestApp, type TestApp } from '../../support/app';
import { useScratchDir } from '../../support/files';

const MULTICALL3 = '0xcA11bde05977b3631167028862bE2a173976CA11';
const catalog = loadCatalog(loadConfig({}).dataDir);
const rpcUrlsOf = (c: typeof catalog, id: number) => [...c.getChain(id)!.metamask.rpcUrls];

function chainsConfig(chains: object[]): ChainsConfig {
  const problems: string[] = [];
  const config = parseChainsConfig({ chains }, problems);
  expect(problems).toEqual([]);
  return config;
}

describe('chainModeCatalog', () => {
  it('puts each connected chain\'s rpcUrl first, keeps the catalog\'s URLs after it, and leaves other chains alone', () => {
    const served = chainModeCatalog(catalog, chainsConfig([
      { chainId: 42161, rpcUrl: 'http://127.0.0.1:8545' },
      // a URL the catalog lists already moves to the front instead of appearing twice
      { chainId: 8453, rpcUrl: rpcUrlsOf(catalog, 8453)[1] },
    ]));
    expect(rpcUrlsOf(served, 42161)).toEqual(['http://127.0.0.1:8545', ...rpcUrlsOf(catalog, 42161)]);
    const base = rpcUrlsOf(catalog, 8453);
    expect(rpcUrlsOf(served, 8453)).toEqual([base[1], base[0], ...base.slice(2)]);
    expect(rpcUrlsOf(served, 1)).toEqual(rpcUrlsOf(catalog, 1));
    expect(served.getChain(42161)!.multicallAddress).toBe(MULTICALL3);
    // the rest of the catalog is the same: tokens (by address and symbol), tools, every other chain field
    expect(served.findToken(42161, 'USDC')).toEqual(catalog.findToken(42161, 'USDC'));
    expect(served.listTokens()).toEqual(catalog.listTokens());
    expect(served.listTools()).toEqual(catalog.listTools());
    const { metamask: servedMetamask, ...servedRest } = served.getChain(42161)!;
    const { metamask, ...rest } = catalog.getChain(42161)!;
    expect(servedRest).toEqual(rest);
    expect({ ...servedMetamask, rpcUrls: [] }).toEqual({ ...metamask, rpcUrls: [] });
    // the given catalog is not changed
    expect(rpcUrlsOf(catalog, 42161)[0]).not.toBe('http://127.0.0.1:8545');
  });

  it('carries every other part of the catalog over as it is (tokens, tools, market figures)', () => {
    const served = chainModeCatalog(catalog, chainsConfig([{ chainId: 42161, rpcUrl: 'http://127.0.0.1:8545' }]));
    // the whole state of both catalogs but their chains: a part the rebuild forgot to carry shows up here
    const allButChains = (c: object) => Object.fromEntries(Object.entries(c).filter(([key]) => !key.startsWith('chains')));
    expect(Object.keys(allButChains(served)).length).toBeGreaterThanOrEqual(5);
    expect(allButChains(served)).toEqual(allButChains(catalog));
    const weth = catalog.findToken(42161, 'WETH')!;
    expect(catalog.marketOf(weth)).toBeDefined();
    expect(served.marketOf(weth)).toEqual(catalog.marketOf(weth));
  });

  it('advertises publicRpcUrl instead of rpcUrl when set, and nothing more than the catalog with publicRpcUrl false', () => {
    const served = chainModeCatalog(catalog, chainsConfig([
      { chainId: 42161, rpcUrl: 'https://arb-mainnet.example/v2/SECRET-KEY', publicRpcUrl: 'https://rpc.example/arb' },
      { chainId: 8453, rpcUrl: 'https://base-mainnet.example/v2/SECRET-KEY', publicRpcUrl: false },
    ]));
    expect(rpcUrlsOf(served, 42161)).toEqual(['https://rpc.example/arb', ...rpcUrlsOf(catalog, 42161)]);
    expect(rpcUrlsOf(served, 8453)).toEqual(rpcUrlsOf(catalog, 8453));
    expect(JSON.stringify(served.chains)).not.toContain('SECRET-KEY');
  });

  it('advertises the URL of a non-EVM entry too (Solana: what a @solana/kit client is built from)', () => {
    const SOLANA = 1151111081099710;
    const served = chainModeCatalog(catalog, chainsConfig([
      { chainId: SOLANA, rpcUrl: 'http://127.0.0.1:8899' },
      { chainId: 42161, rpcUrl: 'http://127.0.0.1:8545' },
    ]));
    expect(rpcUrlsOf(served, SOLANA)).toEqual(['http://127.0.0.1:8899', ...rpcUrlsOf(catalog, SOLANA)]);
    expect(rpcUrlsOf(served, 42161)[0]).toBe('http://127.0.0.1:8545');
    const hidden = chainModeCatalog(catalog, chainsConfig([{ chainId: SOLANA, rpcUrl: 'https://sol.example/SECRET-KEY', publicRpcUrl: 'https://sol.example/public' }]));
    expect(rpcUrlsOf(hidden, SOLANA)).toEqual(['https://sol.example/public', ...rpcUrlsOf(catalog, SOLANA)]);
    expect(JSON.stringify(hidden.chains)).not.toContain('SECRET-KEY');
  });

  it('is the catalog itself without chain mode', () => {
    expect(chainModeCatalog(catalog, undefined)).toBe(catalog);
  });

  it('refuses a publicRpcUrl that is neither a URL nor false', () => {
    const problems: string[] = [];
    parseChainsConfig({ chains: [{ chainId: 1, rpcUrl: 'http://a', publicRpcUrl: true }, { chainId: 2, rpcUrl: 'http://b', publicRpcUrl: 'rpc.example' }] }, problems, 'F');
    expect(problems).toEqual([
      'F: chains[0].publicRpcUrl must be an http(s) or ws(s) URL, or false (got true)',
      'F: chains[1].publicRpcUrl must be an http(s) or ws(s) URL, or false (got "rpc.example")',
    ]);
  });
});

describe('GET /v1/chains in chain mode', () => {
  const files = useScratchDir('chains-catalog-');
  // nothing listens there: serving /v1/chains never calls a chain
  const chains = { chains: [{ chainId: 42161, rpcUrl: 'http://127.0.0.1:9/arb' }, { chainId: 8453, rpcUrl: 'http://127.0.0.1:9/base' }] };
  const live = useTestApp(() => ({ env: { CHAINS_FILE: files.writeJson('chains.json', chains) } }));
  const plain = useTestApp();

  type WireChain = { id: number; multicallAddress?: string; metamask?: { rpcUrls: string[] } };
  const chainsOf = async (t: TestApp) => {
    const res = await request(t.app).get('/v1/chains').query({ chainTypes: 'EVM' });
    expect(res.status).toBe(200);
    return new Map((res.body.chains as WireChain[]).map((c) => [c.id, c]));
  };

  it('advertises the configured RPC URL first for each connected chain, with the canonical Multicall3', async () => {
    const chains = await chainsOf(live);
    expect(chains.get(42161)!.metamask!.rpcUrls[0]).toBe('http://127.0.0.1:9/arb');
    expect(chains.get(8453)!.metamask!.rpcUrls[0]).toBe('http://127.0.0.1:9/base');
    expect(chains.get(42161)!.multicallAddress).toBe(MULTICALL3);
    expect(chains.get(8453)!.multicallAddress).toBe(MULTICALL3);
    // a chain that is not connected keeps the catalog's URLs
    expect(chains.get(1)!.metamask!.rpcUrls).toEqual(rpcUrlsOf(catalog, 1));
  });

  it('advertises the catalog\'s URLs alone without CHAINS_FILE', async () => {
    const chains = await chainsOf(plain);
    expect(chains.get(42161)!.metamask!.rpcUrls).toEqual(rpcUrlsOf(catalog, 42161));
  });
});
