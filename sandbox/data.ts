/**
 * The raw data files the sandbox seeds the chains from (the same files the service quotes on): the catalog
 * (tokens, routers.json), the liquidity snapshot (pools, bridge routes) and the integrators' fee ledger.
 * Read as plain JSON on purpose: the sandbox does not reuse the routing core, so that executing a quote checks it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { getAddress, getCreateAddress, keccak256, dataSlice, toUtf8Bytes } from 'ethers';

export const PROJECT_ROOT = path.resolve(__dirname, '..');
export const DEFAULT_CATALOG_DIR = path.join(PROJECT_ROOT, 'data', 'catalog');
export const DEFAULT_SNAPSHOT_DIR = path.join(PROJECT_ROOT, 'data', 'snapshot');
export const DEFAULT_LEDGER_FILE = path.join(PROJECT_ROOT, 'data', 'integrators', 'ledger.json');

export interface RawToken {
  readonly chainId: number;
  readonly address: string;
  readonly symbol: string;
  readonly decimals: number;
  readonly name: string;
  /** "0": no price (a listed-only token, src/core/entities.ts isListedOnly) */
  readonly priceUSD: string;
}

export interface RawChain {
  readonly id: number;
  readonly key: string;
  readonly chainType: string;
  readonly nativeToken: RawToken;
  /** Where clients look for Multicall3 on the chain (the canonical 0xcA11…CA11, or the chain's own deployment). */
  readonly multicallAddress?: string;
}

interface RawPoolBase {
  readonly id: string;
  readonly chainId: number;
  readonly exchange: string;
  readonly address: string;
  readonly tokens: readonly string[];
  readonly feePpm: number;
}
export type RawPool =
  | (RawPoolBase & { readonly kind: 'constantProduct'; readonly reserves: readonly string[] })
  | (RawPoolBase & {
      readonly kind: 'concentrated';
      readonly tickSpacing: number;
      readonly sqrtPriceX96: string;
      readonly tick: number;
      readonly liquidity: string;
      readonly ticks: readonly (readonly [number, string])[];
    })
  | (RawPoolBase & { readonly kind: 'stableswap'; readonly amp: number; readonly feeE10: number; readonly balances: readonly string[] });

export interface RawBridgeRoute {
  readonly bridge: string;
  readonly fromChainId: number;
  readonly toChainId: number;
  readonly fromToken: string;
  readonly toToken: string;
  readonly feePpm: number;
  readonly fixedFee: string;
  readonly destinationGasFee: string;
  readonly minAmount: string;
  readonly maxAmount: string;
  readonly nativeFee: string;
  readonly durationSeconds?: number;
}

export interface RoutersJson {
  readonly chains: readonly { readonly chainId: number; readonly router: string; readonly feeCollector: string }[];
  readonly exchangeRouters: readonly RawExchangeRouter[];
}

export interface RawExchangeRouter {
  readonly exchange: string;
  readonly kind: 'constantProduct' | 'concentrated';
  readonly address: string;
  /** The factory that creates the exchange's pools of this kind (CREATE2 with its init code hash). */
  readonly factory?: { readonly address: string; readonly initCodeHash: string };
  /** A V2 factory's one fee (ppm). */
  readonly feePpm?: number;
  /** A V3 factory's fee tiers (ppm) and their tick spacings. */
  readonly feeTiers?: Readonly<Record<string, number>>;
  /**
   * The genuine contracts these are (a label): the sandbox then runs the published contracts (sandbox/uniswap.ts) and
   * creates the exchange's pools through them, instead of placing the project's models.
   */
  readonly genuine?: string;
  /** The chains where the exchange has these contracts; absent: every chain. */
  readonly chainIds?: readonly number[];
  /** Uniswap's SwapRouter built for `factory`, which deploy:contracts deploys where `address` has no contract. */
  readonly deployable?: 'uniswapV3SwapRouter';
}

export interface LedgerJson {
  readonly integrators: readonly {
    readonly integratorId: string;
    readonly feeWallet?: string;
    readonly balances: Readonly<Record<string, readonly { readonly token: string; readonly amount: string }[]>>;
  }[];
}

export interface SandboxData {
  readonly chains: readonly RawChain[];
  readonly tokens: readonly RawToken[];
  readonly routers: RoutersJson;
  readonly pools: readonly RawPool[];
  readonly bridges: readonly RawBridgeRoute[];
  readonly ledger?: LedgerJson;
  /** `${chainId}:${lower-case address}` → token. */
  readonly tokenIndex: ReadonlyMap<string, RawToken>;
}

export interface DataLocations {
  readonly catalogDir?: string;
  readonly snapshotDir?: string;
  /** null: do not seed the fee ledger. */
  readonly ledgerFile?: string | null;
}

const read = <T>(file: string): T => JSON.parse(fs.readFileSync(file, 'utf8')) as T;

export function loadSandboxData(locations: DataLocations = {}): SandboxData {
  const catalogDir = locations.catalogDir ?? DEFAULT_CATALOG_DIR;
  const snapshotDir = locations.snapshotDir ?? DEFAULT_SNAPSHOT_DIR;
  const chains = read<{ chains: RawChain[] }>(path.join(catalogDir, 'chains.json')).chains;
  const tokens = read<{ tokens: RawToken[] }>(path.join(catalogDir, 'tokens.json')).tokens;
  const routers = read<RoutersJson>(path.join(catalogDir, 'routers.json'));
  const pools = read<{ pools: RawPool[] }>(path.join(snapshotDir, 'pools.json')).pools;
  const bridges = read<{ routes: RawBridgeRoute[] }>(path.join(snapshotDir, 'bridges.json')).routes;
  const ledgerFile = locations.ledgerFile === undefined ? DEFAULT_LEDGER_FILE : locations.ledgerFile;
  const ledger = ledgerFile && fs.existsSync(ledgerFile) ? read<LedgerJson>(ledgerFile) : undefined;
  const tokenIndex = new Map<string, RawToken>();
  for (const t of tokens) tokenIndex.set(tokenKey(t.chainId, t.address), t);
  return { chains, tokens, routers, pools, bridges, ledger, tokenIndex };
}

export function tokenKey(chainId: number, address: string): string {
  return `${chainId}:${address.toLowerCase()}`;
}

/** Decimals of a catalog token (an EVM chain's zero address: its native coin). */
export function tokenDecimals(data: SandboxData, chainId: number, address: string): number {
  if (isNative(address)) {
    const chain = data.chains.find((c) => c.id === chainId);
    if (!chain) throw new Error(`chain ${chainId} is not in the catalog`);
    return chain.nativeToken.decimals;
  }
  const t = data.tokenIndex.get(tokenKey(chainId, address));
  if (!t) throw new Error(`token ${address} of chain ${chainId} is not in the catalog`);
  return t.decimals;
}

/** The chain's wrapped native token: the catalog's token named `W` + the native coin's symbol (WETH, WPOL, WAVAX...). */
export function wrappedNativeOf(data: SandboxData, chainId: number): RawToken | undefined {
  const chain = data.chains.find((c) => c.id === chainId);
  if (!chain) return undefined;
  const symbol = `W${chain.nativeToken.symbol.toUpperCase()}`;
  return data.tokens.find((t) => t.chainId === chainId && !isNative(t.address) && t.symbol.toUpperCase() === symbol);
}

/** The address of a fixed label: the last 20 bytes of keccak256(label), checksummed (as routers.json's). */
export function labelAddress(label: string): string {
  return getAddress(dataSlice(keccak256(toUtf8Bytes(label)), 12));
}

/**
 * The sandbox's deployer: anvil's first dev account (the devnet's admin). Its first three transactions on each fresh
 * chain deploy the service's contracts with scripts/deploy-contracts.ts — the bridge endpoint, the router, the fee
 * collector — so they sit at the same addresses on every chain: routers.json's router and fee collector, and
 * BRIDGE_ENDPOINT_ADDRESS.
 */
export const SANDBOX_DEPLOYER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

/** The sandbox bridge endpoint, one address on every chain (the deployer's first contract). */
export const BRIDGE_ENDPOINT_ADDRESS = getCreateAddress({ from: SANDBOX_DEPLOYER, nonce: 0 });

/** The fee collector's booking address of an integrator without a fee wallet (ids.ts integratorAccount). */
export function integratorAccount(integratorId: string): string {
  return labelAddress(`xchain-router:integrator:${integratorId}`);
}

export const NATIVE = '0x0000000000000000000000000000000000000000';
export const isNative = (address: string) => /^0x0{40}$/i.test(address);
