/**
 * Seeds one anvil chain with the service's world: every catalog token of the chain at its catalog address
 * (TestToken, or WETH9 for the wrapped native coin), every snapshot pool at its snapshot address with the
 * snapshot's exact state, the exchange routers, the router and the fee collector at their routers.json addresses,
 * the sandbox bridge endpoint with every bridge route that starts or ends on the chain, the fee ledger's balances,
 * and funded test wallets.
 *
 * Contracts are placed with anvil_setCode (runtime code of the compiled artifact; no constructor runs) and then
 * initialised by transactions of the admin account (each contract's one-time `initialize`). Multicall3, which
 * clients read balances through, is deployed as on real chains instead (sandbox/multicall3.ts).
 */
import { getAddress, Interface, type JsonRpcProvider } from 'ethers';
import type { Artifacts } from './compile';
import {
  BRIDGE_ENDPOINT_ADDRESS, integratorAccount, isNative, NATIVE, tokenDecimals,
  type RawBridgeRoute, type RawPool, type RawToken, type SandboxData,
} from './data';
import { deployMulticall3 } from './multicall3';
import { rpcBatch, UnlockedSender, type SendOptions } from './rpc';
import { foreignTokenId, SOLANA_CHAIN_ID } from './solana/bridge';

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
   * Put the router in the steady state of a router in use (default true): it holds 1 unit of every token and has
   * standing max approvals to every exchange router, Curve pool, the fee collector and the bridge endpoint, as
   * its maxApprove leaves them after a first use. A fresh router pays ~19k gas more per first-time storage
   * write (token balance 0 → x, allowance 0 → max), which the service's gas limits do not cover (README).
   */
  readonly warmRouter?: boolean;
}

export interface ChainDeployment {
  readonly chainId: number;
  readonly router: string;
  readonly feeCollector: string;
  readonly bridgeEndpoint: string;
  /** Catalog tokens placed on the chain, by lower-case address. */
  readonly tokens: ReadonlyMap<string, RawToken & { readonly contract: 'TestToken' | 'WETH9' }>;
  readonly wrappedNative?: string;
  readonly pools: readonly RawPool[];
  readonly exchangeRouters: readonly { readonly exchange: string; readonly kind: string; readonly address: string }[];
  readonly bridgeRoutes: number;
  /** Milliseconds spent per seeding phase. */
  readonly timings: Readonly<Record<string, number>>;
}

const MAX_UINT128 = (1n << 128n) - 1n;
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
    token: iface('TestToken'), weth: iface('WETH9'), v2Pair: iface('V2Pair'), v2Router: iface('V2Router'), v3Pool: iface('V3Pool'),
    v3Router: iface('V3Router'), curve: iface('StableSwapPool'), router: iface('Router'), feeCollector: iface('FeeCollector'), endpoint: iface('BridgeEndpoint'),
  };
  const chain = data.chains.find((c) => c.id === chainId);
  if (!chain) throw new Error(`chain ${chainId} is not in the catalog`);
  if (chain.chainType !== 'EVM') throw new Error(`chain ${chainId} is not an EVM chain`);
  const deployment = data.routers.chains.find((c) => c.chainId === chainId);
  if (!deployment) throw new Error(`routers.json has no deployment on chain ${chainId}`);

  // --- what goes where
  const wrappedSymbol = `W${chain.nativeToken.symbol.toUpperCase()}`;
  const tokens = new Map<string, RawToken & { contract: 'TestToken' | 'WETH9' }>();
  for (const t of data.tokens) {
    if (t.chainId !== chainId || isNative(t.address)) continue;
    tokens.set(t.address.toLowerCase(), { ...t, address: getAddress(t.address), contract: t.symbol.toUpperCase() === wrappedSymbol ? 'WETH9' : 'TestToken' });
  }
  const wrappedNative = [...tokens.values()].find((t) => t.contract === 'WETH9')?.address;
  const token = (address: string): RawToken & { contract: 'TestToken' | 'WETH9' } => {
    const t = tokens.get(address.toLowerCase());
    if (!t) throw new Error(`token ${address} of chain ${chainId} is not in the catalog`);
    return t;
  };
  const pools = data.pools.filter((p) => p.chainId === chainId);
  const exchangeRouters = new Map<string, { exchange: string; kind: 'constantProduct' | 'concentrated'; address: string; pools: string[]; keys: Set<string> }>();
  for (const p of pools) {
    if (p.kind === 'stableswap') continue;
    const key = `${p.exchange}:${p.kind}`;
    let r = exchangeRouters.get(key);
    if (!r) {
      const entry = data.routers.exchangeRouters.find((e) => e.exchange === p.exchange && e.kind === p.kind);
      if (!entry) throw new Error(`routers.json has no ${p.kind} router for exchange ${p.exchange} (pool ${p.id})`);
      r = { exchange: p.exchange, kind: p.kind, address: entry.address, pools: [], keys: new Set() };
      exchangeRouters.set(key, r);
    }
    // one pool per pair (and fee tier) per exchange router, as the call data names pools by tokens (and fee) only
    const pair = [...p.tokens].map((t) => t.toLowerCase()).sort().join('/') + (p.kind === 'concentrated' ? `/${p.feePpm}` : '');
    if (r.keys.has(pair)) throw new Error(`two ${p.exchange} ${p.kind} pools for ${pair} on chain ${chainId}: the router could not tell them apart`);
    r.keys.add(pair);
    r.pools.push(getAddress(p.address));
  }
  // routes from this chain (deposits; to a non-EVM chain too: the relayer releases those to Solana, refunds the others)
  // and to it (releases) from EVM chains and from Solana (its tokens by their foreign token id, routeConfig)
  const evm = (id: number) => data.chains.find((c) => c.id === id)?.chainType === 'EVM';
  const routes = data.bridges.filter((r) => r.fromChainId === chainId || (r.toChainId === chainId && (evm(r.fromChainId) || r.fromChainId === SOLANA_CHAIN_ID)));

  // --- code
  const code: [string, string][] = [
    ...[...tokens.values()].map((t) => [t.address, t.contract] as [string, string]),
    ...pools.map((p) => [getAddress(p.address), p.kind === 'constantProduct' ? 'V2Pair' : p.kind === 'concentrated' ? 'V3Pool' : 'StableSwapPool'] as [string, string]),
    ...[...exchangeRouters.values()].map((r) => [r.address, r.kind === 'constantProduct' ? 'V2Router' : 'V3Router'] as [string, string]),
    [deployment.router, 'Router'],
    [deployment.feeCollector, 'FeeCollector'],
    [BRIDGE_ENDPOINT_ADDRESS, 'BridgeEndpoint'],
  ];
  const seen = new Set<string>();
  for (const [address] of code) {
    if (seen.has(address.toLowerCase())) throw new Error(`two contracts at ${address} on chain ${chainId}`);
    seen.add(address.toLowerCase());
  }
  // before any batch turns automine off: the deployment is mined on its own, and the deployer's nonce 0 is still unspent
  await deployMulticall3(provider, chain.multicallAddress ? [chain.multicallAddress] : []);
  lap('multicall3');
  await provider.send('anvil_setBalance', [admin, `0x${(1n << 200n).toString(16)}`]);
  await rpcBatch(provider._getConnection().url, code.map(([address, name]) => ['anvil_setCode', [address, artifacts[name].deployedBytecode]]));
  lap('code');

  const sender = new UnlockedSender(provider, admin);
  const tx = (to: string, i: Interface, fn: string, args: unknown[], extra: Partial<SendOptions> = {}) =>
    ({ to, data: i.encodeFunctionData(fn, args), label: `${fn} ${to}`, ...extra });

  // --- phase A: contracts that others read during their own initialisation
  const phaseA = [
    ...[...tokens.values()].map((t) => t.contract === 'WETH9'
      ? tx(t.address, I.weth, 'initialize', [t.name, t.symbol])
      : tx(t.address, I.token, 'initialize', [t.name, t.symbol, t.decimals, admin])),
    tx(deployment.router, I.router, 'initialize', [admin, BRIDGE_ENDPOINT_ADDRESS]),
    tx(deployment.feeCollector, I.feeCollector, 'initialize', [admin, admin]),
    tx(BRIDGE_ENDPOINT_ADDRESS, I.endpoint, 'initialize', [admin, o.relayer]),
    ...[...exchangeRouters.values()].map((r) => tx(r.address, r.kind === 'constantProduct' ? I.v2Router : I.v3Router, 'initialize', [admin])),
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
  for (const p of pools) {
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
  for (const [address, m] of holdings) {
    const t = token(address);
    if (t.contract === 'WETH9') {
      for (const [holder, amount] of m) phaseB.push(tx(address, I.weth, 'depositTo', [holder], { value: amount }));
    } else {
      const entries = [...m];
      for (let k = 0; k < entries.length; k += 200) {
        const chunk = entries.slice(k, k + 200);
        phaseB.push(tx(address, I.token, 'mintBatch', [chunk.map(([h]) => h), chunk.map(([, a]) => a)], { gas: 30_000_000n }));
      }
    }
  }
  const configs = routes.map((r) => routeConfig(r, data));
  for (let k = 0; k < configs.length; k += 60) {
    phaseB.push(tx(BRIDGE_ENDPOINT_ADDRESS, I.endpoint, 'setRoutes', [configs.slice(k, k + 60)], { gas: 30_000_000n }));
  }
  lap('prepare');
  await sender.sendAll(phaseB);
  lap(`seed (${phaseB.length} transactions)`);
  if (o.warmRouter ?? true) {
    const spenders = new Map<string, Set<string>>(); // token → spenders the router approves
    const approve = (t: string, spender: string) => {
      const a = token(t).address;
      if (!spenders.has(a)) spenders.set(a, new Set());
      spenders.get(a)!.add(spender);
    };
    for (const p of pools) {
      const spender = p.kind === 'stableswap' ? getAddress(p.address) : exchangeRouters.get(`${p.exchange}:${p.kind}`)!.address;
      for (const t of p.tokens) approve(t, spender);
    }
    for (const t of tokens.values()) for (const spender of [deployment.feeCollector, BRIDGE_ENDPOINT_ADDRESS, deployment.router]) approve(t.address, spender);
    await provider.send('anvil_impersonateAccount', [deployment.router]);
    await provider.send('anvil_setBalance', [deployment.router, '0xde0b6b3a7640000']); // gas of the approvals, removed below
    const asRouter = new UnlockedSender(provider, deployment.router);
    const approvals = [...spenders].flatMap(([t, set]) => [...set].map((spender) => tx(t, I.token, 'approve', [spender, (1n << 256n) - 1n])));
    await asRouter.sendAll(approvals);
    lap(`warm router (${approvals.length} approvals)`);
    await provider.send('anvil_stopImpersonatingAccount', [deployment.router]);
    await provider.send('anvil_setBalance', [deployment.router, '0x0']);
  }
  await provider.send('anvil_setBalance', [BRIDGE_ENDPOINT_ADDRESS, `0x${(1n << 160n).toString(16)}`]);
  if (ledgerNative > 0n) await provider.send('anvil_setBalance', [deployment.feeCollector, `0x${ledgerNative.toString(16)}`]);

  return {
    chainId,
    router: deployment.router,
    feeCollector: deployment.feeCollector,
    bridgeEndpoint: BRIDGE_ENDPOINT_ADDRESS,
    tokens,
    wrappedNative,
    pools,
    exchangeRouters: [...exchangeRouters.values()].map(({ exchange, kind, address }) => ({ exchange, kind, address })),
    bridgeRoutes: configs.length,
    timings,
  };
}

/**
 * A route as BridgeEndpoint.setRoutes takes it. The endpoint keys a route by (bridge, from chain, to chain, from
 * token) with the token as an EVM address; a route from Solana names its token by its foreign token id (the last 20
 * bytes of keccak256 of the mint's 32 bytes, native SOL as the all-zero key 111…1: solana/bridge.ts foreignTokenId),
 * which the relayer's release of a Solana deposit gives as fromToken. The fee model is the snapshot's, in the source
 * token's decimals (the Solana token's for a Solana source), rescaled by the endpoint to the destination's.
 */
function routeConfig(r: RawBridgeRoute, data: SandboxData): unknown[] {
  const decimalsOf = (chainId: number, address: string): number => tokenDecimals(data, chainId, address);
  const u128 = (name: string, value: string): bigint => {
    const v = BigInt(value);
    if (v < 0n || v > MAX_UINT128) throw new Error(`bridge route ${r.bridge} ${r.fromChainId}→${r.toChainId}: ${name} ${value} does not fit uint128`);
    return v;
  };
  return [
    // a non-EVM destination token has no EVM address: the route is kept for deposits only
    r.bridge, BigInt(r.fromChainId), BigInt(r.toChainId), r.fromChainId === SOLANA_CHAIN_ID ? foreignTokenId(r.fromToken) : getAddress(r.fromToken),
    /^0x[0-9a-fA-F]{40}$/.test(r.toToken) ? getAddress(r.toToken) : NATIVE,
    decimalsOf(r.fromChainId, r.fromToken), decimalsOf(r.toChainId, r.toToken), r.feePpm,
    u128('fixedFee', r.fixedFee), u128('destinationGasFee', r.destinationGasFee), u128('minAmount', r.minAmount),
    u128('maxAmount', r.maxAmount), u128('nativeFee', r.nativeFee),
  ];
}
