/**
 * Seeds one anvil chain with the service's world: every catalog token of the chain at its catalog address
 * (TestToken, or the genuine WETH9 for the wrapped native coin: mainnet's code, its name and symbol the chain's, balances
 * written as deposits leave them), every snapshot pool at its snapshot address with the
 * snapshot's exact state, the exchange routers, the router and the fee collector at their routers.json addresses,
 * the sandbox bridge endpoint with every bridge route that starts or ends on the chain (bridgeRoutes.ts), the fee
 * ledger's balances, and funded test wallets.
 *
 * The service's own contracts — the router, the fee collector and the bridge endpoint — are deployed as on any chain,
 * by scripts/deploy-contracts.ts (created, initialised, the bridge routes set), as the admin's first transactions on
 * the fresh chain: the sandbox's deployer (data.ts SANDBOX_DEPLOYER), so they land at routers.json's addresses (and
 * BRIDGE_ENDPOINT_ADDRESS) on every chain. The models of other contracts (tokens, exchanges' pools and routers) are
 * placed with anvil_setCode (runtime code of the compiled artifact; no constructor runs) at their catalog and
 * snapshot addresses, then initialised by transactions of the admin account (each contract's one-time
 * `initialize`). Multicall3, which clients read balances through, is deployed as on real chains
 * (sandbox/multicall3.ts).
 *
 * The genuine Uniswap contracts run on every chain (sandbox/uniswap.ts: mainnet's deployments replayed at the
 * canonical addresses, fee tier 100/1 enabled by the V3 factory's owner), and so do the Uniswap V2 forks' factories
 * and Router02s (sandbox/v2Forks.ts: SushiSwap V2, Trader Joe V1, Pangolin, QuickSwap V2, their genuine bytecode at
 * their mainnet addresses) on the chains of their routers.json entries, and SushiSwap V3 (sandbox/v3Forks.ts: Uniswap
 * V3's core at its factory's mainnet address, Uniswap's periphery built for it); the pools of every exchange whose
 * routers.json routers are `genuine` are created through them, not placed: a V2 pair with
 * its factory's createPair, the snapshot's reserves of both tokens minted to it and pair.mint; a V3 pool with
 * its position manager's createAndInitializePoolIfNecessary at the snapshot's price, then one position per
 * liquidity band of its ticks (uniswapLiquidity.ts liquidityBands), minted with the smallest amounts that give the
 * band's liquidity, and reduced to it exactly with decreaseLiquidity when the tokens' granularity makes the mint give
 * more. The pools' state is then read back and compared with the snapshot (ChainDeployment.uniswap). Other exchanges
 * keep the project's model contracts (contracts/v2, contracts/v3). Those transactions and that check: genuinePools.ts.
 */
import { getAddress, Interface, type JsonRpcProvider } from 'ethers';
import type { Artifacts } from './compile';
import {
  BRIDGE_ENDPOINT_ADDRESS, integratorAccount, isNative, wrappedNativeOf,
  type RawExchangeRouter, type RawPool, type RawToken, type SandboxData,
} from './data';
import { checkGenuinePools, planGenuinePools, type UniswapSeeding } from './genuinePools';
import { deployMulticall3 } from './multicall3';
import { placePermit2 } from './permit2';
import { rpcBatch, UnlockedSender, type SendOptions } from './rpc';
import {
  deployUniswap, enableFeeTiers, UNISWAP_DEPLOYMENTS, uniswapAddresses, uniswapInterface, type UniswapAddresses,
  weth9Balances, weth9Placement,
} from './uniswap';
import { deployV2Fork, V2_FORKS } from './v2Forks';
import { deployV3Fork, SUSHISWAP_V3, V3_FORK_QUOTER } from './v3Forks';
import { endpointRoutes } from './bridgeRoutes';
import { allowRouterCalls, deployServiceContracts } from './serviceContracts';
import { exchangeRouterOn } from '../src/core/catalog/routers';
import { isListedOnly } from '../src/core/entities';

export interface SeedOptions {
  readonly provider: JsonRpcProvider;
  readonly chainId: number;
  readonly artifacts: Artifacts;
  readonly data: SandboxData;
  readonly admin: string;
  readonly relayer: string;
  /** Wallets that receive every token of the chain. */
  readonly wallets: readonly string[];
  /** Whole tokens each wallet gets of every ERC-20 (default 10,000,000; WETH: 10,000). */
  readonly walletTokens?: bigint;
  /**
   * Put the router in the steady state of a router in use (default true): it holds 1 unit of every token (the dust
   * routers keep), so a swap's intermediate balance is not a first-time storage write. It has no standing approval:
   * the router approves exactly and resets (contracts/router/Router.sol).
   */
  readonly warmRouter?: boolean;
  /**
   * Put the genuine pools in the state of pools in use (default true), as the snapshot's are: fees collected in both
   * tokens (feeGrowthGlobal0/1 of a V3 pool non-zero, swaps back and forth on a temporary position before the bands
   * are minted, the price put back exactly) and a V2 pair's price accumulators running (sync() in a later block). A
   * pool never swapped pays its first swap a zero-to-non-zero write per accumulator (~17k gas each), which pools in
   * use do not; state that quotes read (price, tick, liquidity, ticks, reserves) is unchanged.
   */
  readonly warmPools?: boolean;
}

export interface ChainDeployment {
  readonly chainId: number;
  readonly router: string;
  readonly feeCollector: string;
  readonly bridgeEndpoint: string;
  /** The router's Permit2 proxy (contracts/router/Permit2Proxy.sol), beside Uniswap's Permit2 at its canonical address. */
  readonly permit2Proxy: string;
  /** Catalog tokens placed on the chain, by lower-case address. */
  readonly tokens: ReadonlyMap<string, RawToken & { readonly contract: 'TestToken' | 'TestPermitToken' | 'WETH9' }>;
  readonly wrappedNative?: string;
  readonly pools: readonly RawPool[];
  readonly exchangeRouters: readonly { readonly exchange: string; readonly kind: string; readonly address: string }[];
  readonly bridgeRoutes: number;
  /** The genuine Uniswap contracts and the pools created through them (absent on a chain without a wrapped native token). */
  readonly uniswap?: UniswapSeeding;
  /** Milliseconds spent per seeding phase. */
  readonly timings: Readonly<Record<string, number>>;
}

/** Tokens whose real contract has EIP-2612 `permit` (Circle's USDC): the sandbox's copy has it too (TestPermitToken). */
const PERMIT_TOKENS: ReadonlySet<string> = new Set(['USDC']);

const pow10 = (n: number) => 10n ** BigInt(n);

export async function seedChain(o: SeedOptions): Promise<ChainDeployment> {
  const { provider, chainId, artifacts, data, admin } = o;
  const timings: Record<string, number> = {};
  let mark = Date.now();
  const lap = (name: string) => {
    timings[name] = Date.now() - mark;
    mark = Date.now();
  };
  const iface = (name: string) => new Interface(artifacts[name].abi as string[]);
  const I = {
    token: iface('TestToken'), v2Pair: iface('V2Pair'), v2Router: iface('V2Router'), v3Pool: iface('V3Pool'),
    v3Router: iface('V3Router'), curve: iface('StableSwapPool'), feeCollector: iface('FeeCollector'),
  };
  const chain = data.chains.find((c) => c.id === chainId);
  if (!chain) throw new Error(`chain ${chainId} is not in the catalog`);
  if (chain.chainType !== 'EVM') throw new Error(`chain ${chainId} is not an EVM chain`);
  const deployment = data.routers.chains.find((c) => c.chainId === chainId);
  if (!deployment) throw new Error(`routers.json has no deployment on chain ${chainId}`);

  // --- what goes where
  const wrapped = wrappedNativeOf(data, chainId);
  const tokens = new Map<string, RawToken & { contract: 'TestToken' | 'TestPermitToken' | 'WETH9' }>();
  // the tokens the embedded data routes: a listed-only token (no price, no pool, no bridge route) gets no contract, as
  // nothing the service quotes moves it (the fee collector books balances by address, so reading one costs nothing)
  for (const t of data.tokens) {
    if (t.chainId !== chainId || isNative(t.address) || isListedOnly(t)) continue;
    tokens.set(t.address.toLowerCase(), { ...t, address: getAddress(t.address), contract: t === wrapped ? 'WETH9' : PERMIT_TOKENS.has(t.symbol) ? 'TestPermitToken' : 'TestToken' });
  }
  const wrappedNative = [...tokens.values()].find((t) => t.contract === 'WETH9')?.address;
  const token = (address: string): RawToken & { contract: 'TestToken' | 'TestPermitToken' | 'WETH9' } => {
    const t = tokens.get(address.toLowerCase());
    if (!t) throw new Error(`token ${address} of chain ${chainId} is not in the catalog`);
    return t;
  };
  const pools = data.pools.filter((p) => p.chainId === chainId);
  const exchangeRouters = new Map<string, { exchange: string; kind: 'constantProduct' | 'concentrated'; address: string; genuine: boolean; entry: RawExchangeRouter; pools: string[]; keys: Set<string> }>();
  for (const p of pools) {
    if (p.kind === 'stableswap') continue;
    const key = `${p.exchange}:${p.kind}`;
    let r = exchangeRouters.get(key);
    if (!r) {
      const entry = data.routers.exchangeRouters.find((e) => e.exchange === p.exchange && e.kind === p.kind);
      if (!entry) throw new Error(`routers.json has no ${p.kind} router for exchange ${p.exchange} (pool ${p.id})`);
      r = { exchange: p.exchange, kind: p.kind, address: entry.address, genuine: !!entry.genuine, entry, pools: [], keys: new Set() };
      exchangeRouters.set(key, r);
    }
    // one pool per pair (and fee tier) per exchange router, as the call data names pools by tokens (and fee) only
    const pair = [...p.tokens].map((t) => t.toLowerCase()).sort().join('/') + (p.kind === 'concentrated' ? `/${p.feePpm}` : '');
    if (r.keys.has(pair)) throw new Error(`two ${p.exchange} ${p.kind} pools for ${pair} on chain ${chainId}: the router could not tell them apart`);
    r.keys.add(pair);
    r.pools.push(getAddress(p.address));
  }

  // the genuine routers (Uniswap's, the forks') must be the contracts sandbox/uniswap.ts, v2Forks.ts and v3Forks.ts
  // deploy, their pools those their factories create
  const genuinePool = (p: RawPool) => p.kind !== 'stableswap' && exchangeRouters.get(`${p.exchange}:${p.kind}`)!.genuine;
  const canonical = wrappedNative ? uniswapAddresses(wrappedNative) : undefined;
  // the forks whose genuine router routers.json names on this chain
  const genuineEntry = (exchange: string, kind: 'constantProduct' | 'concentrated') => data.routers.exchangeRouters.find((e) => e.exchange === exchange && e.kind === kind && e.genuine && exchangeRouterOn(e, chainId));
  const forks = V2_FORKS.filter((f) => genuineEntry(f.exchange, 'constantProduct'));
  const v3Forks = [SUSHISWAP_V3].flatMap((f) => {
    const entry = genuineEntry(f.exchange, 'concentrated');
    return entry ? [{ fork: f, entry }] : [];
  });
  const genuineContracts: Readonly<Record<string, { router?: string; factory: string; label: string }>> = {
    'uniswap:constantProduct': { router: canonical?.v2Router02, factory: UNISWAP_DEPLOYMENTS.find((d) => d.key === 'v2Factory')!.address, label: 'Uniswap V2' },
    'uniswap:concentrated': { router: canonical?.swapRouter, factory: UNISWAP_DEPLOYMENTS.find((d) => d.key === 'v3Factory')!.address, label: 'Uniswap V3' },
    ...Object.fromEntries(forks.map((f) => [`${f.exchange}:constantProduct`, { router: wrappedNative ? f.router02 : undefined, factory: f.factory, label: f.label }])),
    // a V3 fork's router is the SwapRouter the sandbox builds for it at routers.json's address (sandbox/v3Forks.ts)
    ...Object.fromEntries(v3Forks.map(({ fork, entry }) => [`${fork.exchange}:concentrated`, { router: wrappedNative ? getAddress(entry.address) : undefined, factory: fork.factory, label: fork.label }])),
  };
  for (const r of exchangeRouters.values()) {
    if (!r.genuine) continue;
    const expected = genuineContracts[`${r.exchange}:${r.kind}`];
    if (!expected) throw new Error(`routers.json's ${r.exchange} ${r.kind} router is marked genuine, but the sandbox deploys the genuine contracts of ${Object.values(genuineContracts).map((c) => c.label).join(', ')} only`);
    if (!expected.router) throw new Error(`chain ${chainId} has no wrapped native token: the genuine ${r.exchange} ${r.kind} contracts cannot be deployed`);
    if (getAddress(r.address) !== expected.router || !r.entry.factory || getAddress(r.entry.factory.address) !== expected.factory) {
      throw new Error(`routers.json's genuine ${r.exchange} ${r.kind} router ${r.address} (factory ${r.entry.factory?.address}) is not the canonical ${expected.label} ${expected.router} (factory ${expected.factory}): the sandbox deploys only those`);
    }
  }

  // --- code (the models; none at a genuine router's or pool's address). anvil refuses a request body of more than a
  // few megabytes ("Invalid request"): a token's code is ~12 KB of hex, so code goes 50 contracts a batch
  const CODE_BATCH = 50;
  const code: [string, string][] = [
    ...[...tokens.values()].map((t) => [t.address, t.contract] as [string, string]),
    ...pools.filter((p) => !genuinePool(p)).map((p) => [getAddress(p.address), p.kind === 'constantProduct' ? 'V2Pair' : p.kind === 'concentrated' ? 'V3Pool' : 'StableSwapPool'] as [string, string]),
    ...[...exchangeRouters.values()].filter((r) => !r.genuine).map((r) => [r.address, r.kind === 'constantProduct' ? 'V2Router' : 'V3Router'] as [string, string]),
  ];
  const seen = new Set<string>();
  const occupied = [
    ...code.map(([address]) => address), deployment.router, deployment.feeCollector, BRIDGE_ENDPOINT_ADDRESS,
    ...(canonical ? [
      ...UNISWAP_DEPLOYMENTS.map((d) => d.address), ...forks.flatMap((f) => [f.factory, f.router02]),
      ...v3Forks.flatMap(({ fork, entry }) => [fork.factory, fork.positionManager, getAddress(entry.address)]), ...(v3Forks.length > 0 ? [V3_FORK_QUOTER] : []),
    ] : []),
    ...pools.filter(genuinePool).map((p) => p.address),
  ];
  for (const address of occupied) {
    if (seen.has(address.toLowerCase())) throw new Error(`two contracts at ${address} on chain ${chainId}`);
    seen.add(address.toLowerCase());
  }
  // before any batch turns automine off: the deployment is mined on its own, and the deployer's nonce 0 is still unspent
  await deployMulticall3(provider, chain.multicallAddress ? [chain.multicallAddress] : []);
  await placePermit2(provider);
  lap('multicall3, permit2');
  await provider.send('anvil_setBalance', [admin, `0x${(1n << 200n).toString(16)}`]);
  // the wrapped native token is the genuine WETH9 (its name, symbol and decimals in its storage); the rest, models
  await rpcBatch(provider._getConnection().url, code.flatMap(([address, name]): [string, unknown[]][] => (name === 'WETH9'
    ? weth9Placement(address, tokens.get(address.toLowerCase())!.name, tokens.get(address.toLowerCase())!.symbol)
    : [['anvil_setCode', [address, artifacts[name].deployedBytecode]]])), CODE_BATCH);
  lap('code');

  // --- the service's own contracts, deployed as on any chain (scripts/deploy-contracts.ts) by the admin's first
  // transactions: at the addresses routers.json gives them (the same on every chain: the same deployer and nonces)
  const adminNonce = await provider.getTransactionCount(admin);
  if (adminNonce !== 0) throw new Error(`chain ${chainId}: the admin ${admin} has sent ${adminNonce} transactions already; the service's contracts are deployed by its first ones`);
  const service = await deployServiceContracts({ signer: await provider.getSigner(admin), chainId, artifacts, data, relayer: o.relayer });
  const expected = { router: getAddress(deployment.router), feeCollector: getAddress(deployment.feeCollector), bridgeEndpoint: BRIDGE_ENDPOINT_ADDRESS };
  if (!service.permit2Proxy) throw new Error(`chain ${chainId}: no Permit2 proxy was deployed`);
  for (const key of ['router', 'feeCollector', 'bridgeEndpoint'] as const) {
    if (service[key] !== expected[key]) throw new Error(`chain ${chainId}: the ${key} was deployed at ${service[key]}, not at ${expected[key]} (routers.json / sandbox/data.ts): is ${admin} the sandbox's deployer?`);
  }
  lap('service contracts');

  // --- the genuine Uniswap contracts (their periphery's WETH9 is the chain's, placed above), automine on
  let uniswap: UniswapAddresses | undefined;
  let feeTiersEnabled: number[] = [];
  // the periphery (position manager, SwapRouter) each exchange's V3 pools are created and warmed through
  const v3Periphery = new Map<string, UniswapAddresses>();
  if (wrappedNative) {
    uniswap = await deployUniswap(provider, { weth: wrappedNative });
    v3Periphery.set('uniswap', uniswap);
    const v3Entry = data.routers.exchangeRouters.find((e) => e.genuine && e.kind === 'concentrated' && e.address.toLowerCase() === uniswap!.swapRouter.toLowerCase());
    if (v3Entry?.feeTiers) feeTiersEnabled = await enableFeeTiers(provider, uniswap, v3Entry.feeTiers);
    for (const fork of forks) await deployV2Fork(provider, fork, { weth: wrappedNative });
    for (const { fork, entry } of v3Forks) v3Periphery.set(fork.exchange, await deployV3Fork(provider, fork, { weth: wrappedNative, swapRouter: entry.address, feeTiers: entry.feeTiers ?? {} }));
    lap(`uniswap${[...forks, ...v3Forks.map((f) => f.fork)].map((f) => `, ${f.label}`).join('')}`);
  }

  const sender = new UnlockedSender(provider, admin);
  const tx = (to: string, i: Interface, fn: string, args: unknown[], extra: Partial<SendOptions> = {}) =>
    ({ to, data: i.encodeFunctionData(fn, args), label: `${fn} ${to}`, ...extra });

  // --- phase A: contracts that others read during their own initialisation
  const phaseA = [
    ...[...tokens.values()].filter((t) => t.contract !== 'WETH9').map((t) => tx(t.address, I.token, 'initialize', [t.name, t.symbol, t.decimals, admin])),
    ...[...exchangeRouters.values()].filter((r) => !r.genuine).map((r) => tx(r.address, r.kind === 'constantProduct' ? I.v2Router : I.v3Router, 'initialize', [admin])),
  ];
  await sender.sendAll(phaseA);
  lap('initialize');

  // --- phase B: pools, balances, registrations, bridge routes, fee ledger
  const holdings = new Map<string, Map<string, bigint>>(); // token → holder → amount
  const give = (tokenAddress: string, holder: string, amount: bigint) => {
    const t = token(tokenAddress).address;
    let m = holdings.get(t);
    if (!m) holdings.set(t, (m = new Map()));
    m.set(holder, (m.get(holder) ?? 0n) + amount);
  };
  const phaseB: (SendOptions & { label?: string })[] = [];
  const genuine = planGenuinePools(pools.filter(genuinePool), exchangeRouters, token, admin, give, uniswap ? v3Periphery : undefined, o.warmPools ?? true);
  for (const positionManager of new Set(genuine.v3.map((p) => v3Periphery.get(p.exchange)!.positionManager))) {
    // the position managers' next token ids (ids count up from 1 and are never reused)
    const npm = uniswapInterface('NonfungiblePositionManager');
    const supply = npm.decodeFunctionResult('totalSupply', await provider.call({ to: positionManager, data: npm.encodeFunctionData('totalSupply') }))[0] as bigint;
    if (supply !== 0n) throw new Error(`chain ${chainId}: the position manager ${positionManager} already has ${supply} positions`);
  }
  for (const p of pools) {
    if (genuinePool(p)) continue;
    const address = getAddress(p.address);
    const poolTokens = p.tokens.map((t) => token(t).address);
    if (p.kind === 'constantProduct') {
      phaseB.push(tx(address, I.v2Pair, 'initialize', [poolTokens[0], poolTokens[1], p.feePpm, BigInt(p.reserves[0]), BigInt(p.reserves[1])]));
      poolTokens.forEach((t, k) => give(t, address, BigInt(p.reserves[k])));
    } else if (p.kind === 'concentrated') {
      phaseB.push(tx(address, I.v3Pool, 'initialize', [
        poolTokens[0], poolTokens[1], p.feePpm, p.tickSpacing, BigInt(p.sqrtPriceX96), p.tick, BigInt(p.liquidity),
        p.ticks.map(([t]) => t), p.ticks.map(([, net]) => BigInt(net)),
      ]));
      // the price math does not read balances: hold far more than the tick window can ever pay out
      poolTokens.forEach((t) => give(t, address, pow10(token(t).decimals + 12)));
    } else {
      phaseB.push(tx(address, I.curve, 'initialize', [poolTokens, p.balances.map(BigInt), BigInt(p.amp), BigInt(p.feeE10)]));
      poolTokens.forEach((t, k) => give(t, address, BigInt(p.balances[k])));
    }
  }
  for (const r of exchangeRouters.values()) {
    if (r.genuine) continue;
    phaseB.push(r.kind === 'constantProduct'
      ? tx(r.address, I.v2Router, 'registerPairs', [r.pools])
      : tx(r.address, I.v3Router, 'registerPools', [r.pools]));
  }
  const walletTokens = o.walletTokens ?? 10_000_000n;
  for (const t of tokens.values()) {
    for (const w of o.wallets) give(t.address, w, t.contract === 'WETH9' ? pow10(t.decimals) * 10_000n : pow10(t.decimals) * walletTokens);
    give(t.address, BRIDGE_ENDPOINT_ADDRESS, pow10(t.decimals + 12)); // the bridge's liquidity on this chain
  }
  // fee ledger: balances already collected
  const ledgerHolders: string[] = [];
  const ledgerTokens: string[] = [];
  const ledgerAmounts: bigint[] = [];
  let ledgerNative = 0n;
  for (const integrator of data.ledger?.integrators ?? []) {
    for (const entry of integrator.balances[String(chainId)] ?? []) {
      const amount = BigInt(entry.amount);
      if (isNative(entry.token)) ledgerNative += amount;
      else give(entry.token, deployment.feeCollector, amount);
      ledgerHolders.push(integrator.feeWallet ? getAddress(integrator.feeWallet) : integratorAccount(integrator.integratorId));
      ledgerTokens.push(isNative(entry.token) ? entry.token : token(entry.token).address);
      ledgerAmounts.push(amount);
    }
  }
  if (ledgerHolders.length > 0) phaseB.push(tx(deployment.feeCollector, I.feeCollector, 'seedBalances', [ledgerHolders, ledgerTokens, ledgerAmounts]));
  if (o.warmRouter ?? true) for (const t of tokens.values()) give(t.address, deployment.router, 1n);
  const wethBalances: [string, unknown[]][] = [];
  for (const [address, m] of holdings) {
    const t = token(address);
    if (t.contract === 'WETH9') {
      // as deposits would leave them (the genuine WETH9 deposits for its caller only): balances, and the ether behind
      wethBalances.push(...weth9Balances(address, m, await provider.getBalance(address)));
    } else {
      const entries = [...m];
      for (let k = 0; k < entries.length; k += 200) {
        const chunk = entries.slice(k, k + 200);
        phaseB.push(tx(address, I.token, 'mintBatch', [chunk.map(([h]) => h), chunk.map(([, a]) => a)], { gas: 30_000_000n }));
      }
    }
  }
  // after the tokens are minted (one block, the admin's nonces in order): pools created through the genuine contracts
  phaseB.push(...genuine.transactions);
  lap('prepare');
  await rpcBatch(provider._getConnection().url, wethBalances);
  await sender.sendAll(phaseB);
  lap(`seed (${phaseB.length} transactions)`);
  let uniswapSeeding: UniswapSeeding | undefined;
  if (uniswap && (o.warmPools ?? true) && genuine.v2.length > 0) {
    // a later block than the pairs' mint, one second on at least: sync() runs their price accumulators on unchanged reserves
    const pairI = uniswapInterface('UniswapV2Pair');
    const latest = await provider.getBlock('latest');
    await provider.send('evm_setNextBlockTimestamp', [Math.max(latest!.timestamp + 1, Math.floor(Date.now() / 1000))]);
    await sender.sendAll(genuine.v2.map((p) => tx(getAddress(p.address), pairI, 'sync', [])));
    lap(`sync (${genuine.v2.length} pairs)`);
  }
  if (uniswap) {
    const check = await checkGenuinePools(provider._getConnection().url, genuine);
    uniswapSeeding = {
      addresses: uniswap, v3Periphery: Object.fromEntries(v3Periphery), feeTiersEnabled, v2Pairs: genuine.v2.length, v3Pools: genuine.v3.length,
      bands: genuine.bands, bandsExactByMint: genuine.bandsExactByMint, bandsReduced: genuine.bands - genuine.bandsExactByMint, largestExcess: genuine.largestExcess,
      ...check,
    };
    lap('uniswap check');
  }
  // the router's call allowlist, now that the exchanges' routers and pools exist (deploy:contracts does the same)
  await allowRouterCalls({ signer: await provider.getSigner(admin), chainId, artifacts, data, router: deployment.router, feeCollector: deployment.feeCollector });
  lap('router allowlist');
  await provider.send('anvil_setBalance', [BRIDGE_ENDPOINT_ADDRESS, `0x${(1n << 160n).toString(16)}`]);
  if (ledgerNative > 0n) await provider.send('anvil_setBalance', [deployment.feeCollector, `0x${ledgerNative.toString(16)}`]);

  return {
    chainId,
    router: deployment.router,
    feeCollector: deployment.feeCollector,
    permit2Proxy: service.permit2Proxy,
    bridgeEndpoint: BRIDGE_ENDPOINT_ADDRESS,
    tokens,
    wrappedNative,
    pools,
    exchangeRouters: [...exchangeRouters.values()].map(({ exchange, kind, address }) => ({ exchange, kind, address })),
    bridgeRoutes: endpointRoutes(data, chainId).length,
    ...(uniswapSeeding ? { uniswap: uniswapSeeding } : {}),
    timings,
  };
}
