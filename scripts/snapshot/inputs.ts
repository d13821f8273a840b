/** Reads the inputs of the snapshot (the generated catalog and the hand table) and indexes them per chain. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVM_NATIVE_ADDRESS } from '../catalog/config';
import {
  POOL_KINDS,
  type CatalogChain, type CatalogToken, type ChainsFile as CatalogChainsFile, type TokensFile, type ToolsFile,
} from '../catalog/types';
import type { ChainParams, LiquidityTable, PoolKind } from './types';
import { compareStrings, parseDecimal, type Rational } from './units';

export const LIQUIDITY_SOURCE = 'data/sources/liquidity.json';
/** The deployment's exchange routers and the factories of the exchanges addressed by them. */
export const ROUTERS_FILE = 'data/catalog/routers.json';
export const CATALOG_FILES = {
  chains: 'data/catalog/chains.json',
  tokens: 'data/catalog/tokens.json',
  tools: 'data/catalog/tools.json',
} as const;

/**
 * An exchange whose pools its factory creates (routers.json `exchangeRouters[].factory`): their addresses follow from
 * the factory (CREATE2), and a V2 factory has one fee (`feePpm`), a V3 factory its fee tiers.
 */
export interface ExchangeFactory {
  readonly exchange: string;
  readonly kind: 'constantProduct' | 'concentrated';
  readonly factory: { readonly address: string; readonly initCodeHash: string };
  readonly feePpm?: number;
  readonly feeTiers?: Readonly<Record<string, number>>;
  /** The chains the factory is on; absent: every chain. */
  readonly chainIds?: readonly number[];
}

export interface SnapshotInputs {
  asOf: string;
  chains: CatalogChain[];
  tokens: CatalogToken[];
  tools: ToolsFile;
  liquidity: LiquidityTable;
  /** Exchanges addressed by their factories (none: every pool at its model address). */
  factories?: readonly ExchangeFactory[];
}

export interface ChainContext {
  chain: CatalogChain;
  params: ChainParams;
  isEvm: boolean;
  depthScale: Rational;
  /** Every catalog token of the chain by coinKey (coinKeys are unique per chain). */
  tokenByCoinKey: Map<string, CatalogToken>;
  /** EVM: exchanges that run each pool kind on this chain, in the chain's exchange order. */
  exchangesByKind: Record<PoolKind, string[]>;
  /** The factory of an exchange's pools of a kind, when they are addressed by it (routers.json). */
  factoryOf(exchange: string, kind: PoolKind): ExchangeFactory | undefined;
}

export function loadInputs(repoRoot: string): SnapshotInputs {
  const read = <T>(path: string): T => JSON.parse(readFileSync(join(repoRoot, path), 'utf8')) as T;
  const chains = read<CatalogChainsFile>(CATALOG_FILES.chains);
  const tokens = read<TokensFile>(CATALOG_FILES.tokens);
  const tools = read<ToolsFile>(CATALOG_FILES.tools);
  const liquidity = read<LiquidityTable>(LIQUIDITY_SOURCE);
  if (chains.asOf !== tokens.asOf || tokens.asOf !== tools.asOf) throw new Error('catalog files disagree on asOf');
  const routers = read<{ exchangeRouters: (Omit<ExchangeFactory, 'factory'> & { factory?: ExchangeFactory['factory'] })[] }>(ROUTERS_FILE);
  const factories = routers.exchangeRouters.filter((r): r is ExchangeFactory => r.factory !== undefined);
  return { asOf: tokens.asOf, chains: chains.chains, tokens: tokens.tokens, tools, liquidity, factories };
}

export function isNativeAddress(token: CatalogToken): boolean {
  return token.address === EVM_NATIVE_ADDRESS;
}

/** One context per catalog chain, in catalog order (by id). Throws when the hand table misses a chain. */
export function buildContexts(inputs: SnapshotInputs): ChainContext[] {
  const paramsById = new Map(inputs.liquidity.chains.map((p) => [p.chainId, p]));
  return inputs.chains.map((chain) => {
    const params = paramsById.get(chain.id);
    if (!params) throw new Error(`${LIQUIDITY_SOURCE}: no entry for chain ${chain.id} (${chain.key})`);
    const isEvm = chain.chainType === 'EVM';
    const tokenByCoinKey = new Map<string, CatalogToken>();
    for (const token of inputs.tokens.filter((t) => t.chainId === chain.id)) {
      if (tokenByCoinKey.has(token.coinKey)) throw new Error(`chain ${chain.id}: two tokens of coinKey ${token.coinKey}`);
      tokenByCoinKey.set(token.coinKey, token);
    }
    const exchangesByKind = {} as Record<PoolKind, string[]>;
    for (const kind of POOL_KINDS) exchangesByKind[kind] = isEvm ? orderedExchanges(inputs, chain.id, kind, params) : [];
    if (isEvm) checkEvmParams(chain, params, tokenByCoinKey, exchangesByKind);
    const factoryOf = (exchange: string, kind: PoolKind) => inputs.factories?.find((f) => f.exchange === exchange && f.kind === kind);
    return { chain, params, isEvm, depthScale: parseDecimal(params.depthScale), tokenByCoinKey, exchangesByKind, factoryOf };
  });
}

function orderedExchanges(inputs: SnapshotInputs, chainId: number, kind: PoolKind, params: ChainParams): string[] {
  const eligible = inputs.tools.exchanges
    .filter((e) => e.supportedChains.includes(chainId) && e.kinds.includes(kind))
    .map((e) => e.key);
  const order = params.exchangeOrder ?? [];
  for (const key of order) {
    if (!inputs.tools.exchanges.some((e) => e.key === key && e.supportedChains.includes(chainId))) {
      throw new Error(`${LIQUIDITY_SOURCE}: chain ${chainId} lists exchange ${key}, which does not run there`);
    }
  }
  const rank = (key: string) => (order.includes(key) ? order.indexOf(key) : order.length);
  return eligible.sort((a, b) => rank(a) - rank(b) || compareStrings(a, b));
}

function checkEvmParams(
  chain: CatalogChain, params: ChainParams, tokens: Map<string, CatalogToken>, byKind: Record<PoolKind, string[]>,
): void {
  const where = `${LIQUIDITY_SOURCE}: chain ${chain.id}`;
  if (!params.gasPriceGwei) throw new Error(`${where} needs gasPriceGwei`);
  const wrapped = params.wrappedNative ? tokens.get(params.wrappedNative) : undefined;
  if (!wrapped || isNativeAddress(wrapped)) throw new Error(`${where}: wrappedNative must be an ERC-20 of the chain`);
  for (const kind of POOL_KINDS) {
    if (!byKind[kind].length) throw new Error(`${where}: no ${kind} exchange in data/catalog/tools.json`);
  }
}
