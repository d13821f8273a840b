import { UNISWAP_V2_FACTORY, UNISWAP_V3_FACTORY, v2PairAddress, v3PoolAddress } from '../../../../src/core/liquidity/poolAddress';
/** data/catalog/routers.json: the derivation of every address (from the sandbox's deployment, or a label), coverage, validation; ids and zero addresses. */
import fs from 'node:fs';
import path from 'node:path';
import { dataSlice, getAddress, getCreateAddress, keccak256, toUtf8Bytes } from 'ethers';

/** anvil's first dev account, the sandbox's deployer (sandbox/data.ts SANDBOX_DEPLOYER; the core's tests import no sandbox code). */
const SANDBOX_DEPLOYER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
import { DEFAULT_DATA_DIR, DEFAULT_SNAPSHOT_DIR } from '../../../../src/config';
import { CatalogDataError } from '../../../../src/core/catalog/catalog';
import { loadCatalog } from '../../../../src/files/catalog';
import { PERMIT2_ADDRESS, RouterDeployments, validateRouters, type RoutersFile } from '../../../../src/core/catalog/routers';
import { loadRouters } from '../../../../src/files/routers';
import { loadSnapshot } from '../../../../src/files/snapshot';
import { integratorAccount, stepIdOf, transactionIdOf, zeroAddressOf } from '../../../../src/core/transactions/ids';

const catalog = loadCatalog(DEFAULT_DATA_DIR);
const file = JSON.parse(fs.readFileSync(path.join(DEFAULT_DATA_DIR, 'routers.json'), 'utf8')) as RoutersFile;
const fromLabel = (label: string) => getAddress(dataSlice(keccak256(toUtf8Bytes(label)), 12));
/** The file with its first chain entry (Ethereum) changed. */
const withChain0 = (f: RoutersFile, change: Partial<RoutersFile['chains'][number]>): RoutersFile => ({ ...f, chains: [{ ...f.chains[0], ...change }, ...f.chains.slice(1)] });

describe('routers.json', () => {
  it('puts the router and the fee collector at one address on every EVM chain of the catalog: where the sandbox deployer\'s second and third transactions create them', () => {
    const routers = loadRouters(DEFAULT_DATA_DIR, catalog);
    const evm = catalog.listChains(['EVM']).map((c) => c.id).sort((a, b) => a - b);
    expect(routers.deployments.map((d) => d.chainId).sort((a, b) => a - b)).toEqual(evm);
    for (const id of evm) {
      // scripts/deploy-contracts.ts creates the bridge endpoint, the router and the fee collector in this order
      expect(routers.routerOf(id)).toBe(getCreateAddress({ from: SANDBOX_DEPLOYER, nonce: 1 }));
      expect(routers.feeCollectorOf(id)).toBe(getCreateAddress({ from: SANDBOX_DEPLOYER, nonce: 2 }));
    }
    expect(routers.routerOf(1)).toBe('0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512');
    expect(routers.routerOf(1151111081099710)).toBeUndefined();
  });

  it('puts the Permit2 proxy where the deployer\'s fourth transaction creates it, and Uniswap\'s canonical Permit2, on every EVM chain; neither elsewhere', () => {
    const routers = loadRouters(DEFAULT_DATA_DIR, catalog);
    expect(PERMIT2_ADDRESS).toBe('0x000000000022D473030F116dDEE9F6B43aC78BA3');
    for (const chain of catalog.listChains(['EVM'])) {
      // scripts/deploy-contracts.ts deploys the proxy right after the fee collector
      expect({ chain: chain.id, permit2Proxy: routers.permit2ProxyOf(chain.id), permit2: routers.permit2Of(chain.id) })
        .toEqual({ chain: chain.id, permit2Proxy: getCreateAddress({ from: SANDBOX_DEPLOYER, nonce: 3 }), permit2: PERMIT2_ADDRESS });
    }
    expect(routers.permit2ProxyOf(1)).toBe('0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9');
    for (const chain of catalog.listChains().filter((c) => c.chainType !== 'EVM')) {
      expect({ chain: chain.key, permit2Proxy: routers.permit2ProxyOf(chain.id), permit2: routers.permit2Of(chain.id) }).toEqual({ chain: chain.key, permit2Proxy: undefined, permit2: undefined });
    }
  });

  it('has a router for every exchange and routed pool kind of the snapshot: label-derived, or the genuine one with its factory', () => {
    const routers = loadRouters(DEFAULT_DATA_DIR, catalog);
    for (const r of routers.allExchangeRouters) {
      if (r.genuine === undefined) expect(r.address).toBe(fromLabel(`xchain-router:exchange-router:${r.exchange}:${r.kind}:v1`));
    }
    // Uniswap's: the genuine routers at their mainnet addresses, the pools addressed by the canonical factories
    expect(routers.exchangeRouter('uniswap', 'constantProduct')).toMatchObject({ address: '0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D', factory: { address: UNISWAP_V2_FACTORY.factory, initCodeHash: UNISWAP_V2_FACTORY.initCodeHash }, feePpm: 3000 });
    expect(routers.exchangeRouter('uniswap', 'concentrated')).toMatchObject({ address: '0xE592427A0AEce92De3Edee1F18E0157C05861564', factory: { address: UNISWAP_V3_FACTORY.factory, initCodeHash: UNISWAP_V3_FACTORY.initCodeHash } });
    const snapshot = loadSnapshot(DEFAULT_SNAPSHOT_DIR, catalog);
    for (const pool of snapshot.pools) {
      if (pool.kind === 'stableswap') continue;
      const router = routers.exchangeRouter(pool.exchange, pool.kind);
      expect(router).toBeDefined();
      // a router named on some chains only (a fork on its own chains) has the exchange's pools there only
      if (router?.chainIds !== undefined) expect({ pool: pool.id, on: router.chainIds.includes(pool.chainId) }).toEqual({ pool: pool.id, on: true });
      if (router?.factory === undefined) continue;
      // a factory's pool is where the factory creates it
      const factory = { factory: router.factory.address, initCodeHash: router.factory.initCodeHash };
      const [a, b] = pool.tokens;
      expect(pool.address).toBe(pool.kind === 'constantProduct' ? v2PairAddress(factory, a, b) : v3PoolAddress(factory, a, b, pool.feePpm));
      if (pool.kind === 'constantProduct') expect(pool.feePpm).toBe(BigInt(router.feePpm!));
    }
    expect(routers.exchangeRouter('uniswap', 'constantProduct')!.interface).toBe('uniswapV2Router02');
    expect(routers.exchangeRouter('uniswap', 'concentrated')!.interface).toBe('uniswapV3SwapRouter');
  });

  it.each([
    ['a missing EVM chain', (f: RoutersFile) => ({ ...f, chains: f.chains.slice(1) }), /no router deployment for EVM chain\(s\) eth \(1\)/],
    ['a chain listed twice', (f: RoutersFile) => ({ ...f, chains: [...f.chains, f.chains[0]] }), /chain 1 is listed twice/],
    ['a wrong checksum', (f: RoutersFile) => ({ ...f, chains: [{ ...f.chains[0], router: f.chains[0].router.toLowerCase().replace('0x4ede', '0x4EDE') }, ...f.chains.slice(1)] }), /chains\[0\]\.router must be an EIP-55 checksummed/],
    ['a non-EVM chain', (f: RoutersFile) => ({ ...f, chains: [...f.chains, { ...f.chains[0], chainId: 1151111081099710 }] }), /is not an EVM chain/],
    ['a bad pool kind', (f: RoutersFile) => ({ ...f, exchangeRouters: [{ ...f.exchangeRouters[0], kind: 'stableswap' }] }), /kind must be constantProduct or concentrated/],
    ['another schema version', (f: RoutersFile) => ({ ...f, schemaVersion: 2 }), /schemaVersion 2/],
    ['empty chainIds', (f: RoutersFile) => ({ ...f, exchangeRouters: [{ ...f.exchangeRouters[0], chainIds: [] }] }), /exchangeRouters\[0\]\.chainIds must be a non-empty array of chain ids/],
    ['chainIds of strings', (f: RoutersFile) => ({ ...f, exchangeRouters: [{ ...f.exchangeRouters[0], chainIds: ['43114'] as unknown as number[] }] }), /exchangeRouters\[0\]\.chainIds must be/],
    ['a deployable router without a factory', (f: RoutersFile) => ({ ...f, exchangeRouters: [{ ...f.exchangeRouters[0], deployable: 'uniswapV3SwapRouter' }] }), /exchangeRouters\[0\]\.deployable must be "uniswapV3SwapRouter", on a concentrated router with a factory/],
    ['chainIds outside the catalog', (f: RoutersFile) => ({ ...f, exchangeRouters: [{ ...f.exchangeRouters[0], chainIds: [43114, 999] }] }), /exchangeRouters\[0\]\.chainIds: chain 999 is not in the catalog/],
    ['a lower-case permit2Proxy', (f: RoutersFile) => withChain0(f, { permit2Proxy: f.chains[0].permit2Proxy!.toLowerCase() }), /chains\[0\]\.permit2Proxy must be an EIP-55 checksummed EVM address, got "0xcf7ed3acca5a467e9e704c703e8d87f634fb0fc9"/],
    ['a permit2Proxy with a wrong checksum', (f: RoutersFile) => withChain0(f, { permit2Proxy: '0xcF7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9' }), /chains\[0\]\.permit2Proxy must be an EIP-55 checksummed/],
    ['a permit2Proxy that is no address', (f: RoutersFile) => withChain0(f, { permit2Proxy: '0xCf7Ed3' }), /chains\[0\]\.permit2Proxy must be an EIP-55 checksummed/],
    ['a permit2Proxy that is no string', (f: RoutersFile) => withChain0(f, { permit2Proxy: 42 as unknown as string }), /chains\[0\]\.permit2Proxy must be an EIP-55 checksummed EVM address, got 42/],
    ['a lower-case permit2', (f: RoutersFile) => withChain0(f, { permit2: PERMIT2_ADDRESS.toLowerCase() }), /chains\[0\]\.permit2 must be an EIP-55 checksummed/],
    ['a permit2Proxy at the router', (f: RoutersFile) => withChain0(f, { permit2Proxy: f.chains[0].router }), /chains\[0\]\.permit2Proxy is the chain's router: the Permit2 proxy is a contract of its own/],
    ['a permit2Proxy at Permit2', (f: RoutersFile) => withChain0(f, { permit2Proxy: PERMIT2_ADDRESS }), /chains\[0\]\.permit2Proxy is the chain's permit2/],
  ])('refuses %s', (_what, change, message) => {
    expect(() => validateRouters(change(file), 'routers.json', catalog)).toThrow(CatalogDataError);
    expect(() => validateRouters(change(file), 'routers.json', catalog)).toThrow(message);
  });

  it('takes a chain without permit2 or permit2Proxy (the SDK then asks for approvals of the router), and keeps them as given', () => {
    const { permit2: _permit2, permit2Proxy: _proxy, ...bare } = file.chains[0];
    const validated = validateRouters({ ...file, chains: [bare, ...file.chains.slice(1)] }, 'routers.json', catalog);
    const routers = new RouterDeployments(validated);
    expect(routers.permit2Of(1)).toBeUndefined();
    expect(routers.permit2ProxyOf(1)).toBeUndefined();
    expect(routers.permit2ProxyOf(10)).toBe(file.chains[1].permit2Proxy);
  });
});

describe('RouterDeployments.withChains: a chains file\'s own permit2Proxy and permit2', () => {
  const routers = loadRouters(DEFAULT_DATA_DIR, catalog);
  const JSON_PROXY = getCreateAddress({ from: SANDBOX_DEPLOYER, nonce: 3 });
  const OWN_ROUTER = '0x1111111111111111111111111111111111111111';
  const OWN_PROXY = '0x3333333333333333333333333333333333333333';
  const ZKSYNC_PERMIT2 = '0x0000000000225e31D15943971F47aD3022F714Fa';

  it('replaces routers.json\'s proxy and Permit2 on the chains named, checksummed; others keep routers.json\'s', () => {
    const own = routers.withChains([{ chainId: 324, permit2Proxy: OWN_PROXY.toLowerCase(), permit2: ZKSYNC_PERMIT2.toLowerCase() }]);
    expect(own.permit2ProxyOf(324)).toBe(OWN_PROXY);
    expect(own.permit2Of(324)).toBe(ZKSYNC_PERMIT2);
    // the router and fee collector stay routers.json's
    expect(own.routerOf(324)).toBe(routers.routerOf(324));
    expect(own.feeCollectorOf(324)).toBe(routers.feeCollectorOf(324));
    expect(own.permit2ProxyOf(1)).toBe(JSON_PROXY);
    expect(own.permit2Of(1)).toBe(PERMIT2_ADDRESS);
    // the original is not changed
    expect(routers.permit2ProxyOf(324)).toBe(JSON_PROXY);
  });

  it('gives a named proxy routers.json\'s Permit2, or the canonical one where routers.json has none', () => {
    expect(routers.withChains([{ chainId: 42161, permit2Proxy: OWN_PROXY }]).permit2Of(42161)).toBe(PERMIT2_ADDRESS);
    const { permit2: _permit2, permit2Proxy: _proxy, ...bare } = file.chains[0];
    const without = new RouterDeployments({ ...file, chains: [bare, ...file.chains.slice(1)] });
    expect(without.permit2Of(1)).toBeUndefined();
    const named = without.withChains([{ chainId: 1, permit2Proxy: OWN_PROXY }]);
    expect({ permit2Proxy: named.permit2ProxyOf(1), permit2: named.permit2Of(1) }).toEqual({ permit2Proxy: OWN_PROXY, permit2: PERMIT2_ADDRESS });
    // naming another contract of a chain without Permit2 does not give it one
    const routerOnly = without.withChains([{ chainId: 1, router: OWN_ROUTER }]);
    expect({ permit2Proxy: routerOnly.permit2ProxyOf(1), permit2: routerOnly.permit2Of(1) }).toEqual({ permit2Proxy: undefined, permit2: undefined });
  });

  it('keeps routers.json\'s proxy with routers.json\'s router and Permit2 only: it calls that router through that Permit2', () => {
    // another router, no proxy named: routers.json's proxy would call routers.json's router, so the chain has none
    const ownRouter = routers.withChains([{ chainId: 42161, router: OWN_ROUTER }]);
    expect(ownRouter.routerOf(42161)).toBe(OWN_ROUTER);
    expect(ownRouter.permit2ProxyOf(42161)).toBeUndefined();
    expect(ownRouter.permit2Of(42161)).toBe(PERMIT2_ADDRESS);
    // another Permit2, no proxy named: likewise
    expect(routers.withChains([{ chainId: 42161, permit2: ZKSYNC_PERMIT2 }]).permit2ProxyOf(42161)).toBeUndefined();
    // routers.json's router named again (in any letter case), or another fee collector: the proxy stays
    expect(routers.withChains([{ chainId: 42161, router: routers.routerOf(42161)!.toLowerCase(), permit2: PERMIT2_ADDRESS }]).permit2ProxyOf(42161)).toBe(JSON_PROXY);
    expect(routers.withChains([{ chainId: 42161, feeCollector: '0x2222222222222222222222222222222222222222' }]).permit2ProxyOf(42161)).toBe(JSON_PROXY);
    // another router with its own proxy, as `npm run deploy:contracts` writes them
    const deployed = routers.withChains([{ chainId: 42161, router: OWN_ROUTER, permit2Proxy: OWN_PROXY }]);
    expect({ router: deployed.routerOf(42161), permit2Proxy: deployed.permit2ProxyOf(42161), permit2: deployed.permit2Of(42161) }).toEqual({ router: OWN_ROUTER, permit2Proxy: OWN_PROXY, permit2: PERMIT2_ADDRESS });
  });
});

describe('identifiers in the call data', () => {
  it('writes the step id into the bytes32 transactionId and reads it back', () => {
    const id = 'beaa526e-2296-45cc-9867-a481fa9095ed';
    expect(transactionIdOf(id)).toBe('0xbeaa526e229645cc9867a481fa9095ed00000000000000000000000000000000');
    expect(stepIdOf(transactionIdOf(id))).toBe(id);
    expect(stepIdOf(`0x${'11'.repeat(32)}`)).toBeUndefined();
    expect(() => transactionIdOf('not-a-uuid')).toThrow(/not a UUID/);
  });

  it('books integrators under a label-derived address', () => {
    expect(integratorAccount('acme')).toBe(fromLabel('xchain-router:integrator:acme'));
  });

  it('knows each chain type\'s zero address (no approval needed)', () => {
    const byKey = (key: string) => catalog.listChains().find((c) => c.key === key)!;
    expect(zeroAddressOf(byKey('eth'))).toBe('0x0000000000000000000000000000000000000000');
    expect(zeroAddressOf(byKey('sol'))).toBe('11111111111111111111111111111111');
    expect(zeroAddressOf(byKey('sui'))).toBe(`0x${'0'.repeat(64)}`);
    expect(zeroAddressOf(byKey('trx'))).toBe('T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb');
    expect(zeroAddressOf(byKey('btc'))).toBe('1111111111111111111114oLvT2');
  });
});
