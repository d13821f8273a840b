/**
 * The liquidity snapshot made from its documents (data/snapshot's pools.json, bridges.json and chains.json, read by
 * src/files/snapshot.ts): big integers from their decimal strings, every token checked against the catalog.
 */
import type { Catalog } from '../catalog/catalog';
import type { DataDocument } from '../catalog/documents';
import { ratesForDecimals } from '../math/stableswap';
import type { BridgeRoute, ChainGas, LiquiditySnapshot, PoolState } from './snapshot';

export class SnapshotDataError extends Error {
  constructor(message: string) {
    super(`liquidity snapshot: ${message}`);
    this.name = 'SnapshotDataError';
  }
}

/* Wire shapes of data/snapshot/*.json (decimal strings for big integers). */
interface RawPool {
  id: string; chainId: number; exchange: string; kind: string; address: string; tokens: string[]; feePpm?: number;
  reserves?: string[]; tickSpacing?: number; sqrtPriceX96?: string; tick?: number; liquidity?: string;
  ticks?: [number, string][]; amp?: number; feeE10?: number; balances?: string[];
}
interface RawBridgeRoute {
  bridge: string; fromChainId: number; toChainId: number; coinKey: string; fromToken: string; toToken: string;
  feePpm: number; fixedFee: string; destinationGasFee: string; minAmount: string; maxAmount: string;
  durationSeconds: number; gasUnits: number; nativeFee: string; mechanism: string;
}
interface RawChainGas { chainId: number; gasPriceWei: string; nativePriceUSD: string; blockTimeSeconds: number; finalitySeconds: number }

export interface SnapshotDocuments {
  readonly pools: DataDocument;
  readonly bridges: DataDocument;
  readonly chains: DataDocument;
}

/** The snapshot of the documents, checking every token against the catalog. */
export function snapshotFromDocuments(documents: SnapshotDocuments, catalog: Catalog): LiquiditySnapshot {
  const pools = documents.pools.json as { asOf: string; pools: RawPool[] };
  const bridges = (documents.bridges.json as { routes: RawBridgeRoute[] }).routes;
  const chains = (documents.chains.json as { chains: RawChainGas[] }).chains;
  // a bridge's parameters recur in every route of it (thousands): one bigint per decimal text (bigints are immutable)
  const bigints = new Map<string | number, bigint>();
  const big = (text: string | number): bigint => bigints.get(text) ?? bigints.set(text, BigInt(text)).get(text)!;
  // each (chain, address) is checked once: the same tokens recur in thousands of pools and bridge routes
  const checked = new Map<number, Map<string, { decimals: number; key: string }>>();
  const token = (chainId: number, address: string, where: string) => {
    const onChain = checked.get(chainId) ?? checked.set(chainId, new Map()).get(chainId)!;
    const known = onChain.get(address);
    if (known) return known;
    const found = catalog.findToken(chainId, address);
    const key = catalog.addressKey(chainId, address);
    if (!found || catalog.addressKey(chainId, found.address) !== key) {
      throw new SnapshotDataError(`${where} names token ${address} that is not in the catalog of chain ${chainId}`);
    }
    const facts = { decimals: found.decimals, key };
    onChain.set(address, facts);
    return facts;
  };
  return {
    asOf: pools.asOf,
    pools: pools.pools.map((raw) => toPool(raw, (a) => token(raw.chainId, a, `pool ${raw.id}`), big)),
    bridges: bridges.map((raw): BridgeRoute => ({
      bridge: raw.bridge,
      fromChainId: raw.fromChainId,
      toChainId: raw.toChainId,
      coinKey: raw.coinKey,
      fromToken: token(raw.fromChainId, raw.fromToken, `bridge ${raw.bridge}`).key,
      toToken: token(raw.toChainId, raw.toToken, `bridge ${raw.bridge}`).key,
      feePpm: big(raw.feePpm),
      fixedFee: big(raw.fixedFee),
      destinationGasFee: big(raw.destinationGasFee),
      minAmount: big(raw.minAmount),
      maxAmount: big(raw.maxAmount),
      durationSeconds: raw.durationSeconds,
      gasUnits: big(raw.gasUnits),
      nativeFee: big(raw.nativeFee),
      mechanism: raw.mechanism,
    })),
    gas: new Map(
      chains.map((raw): [number, ChainGas] => [
        raw.chainId,
        { ...raw, gasPriceWei: BigInt(raw.gasPriceWei), nativePriceUSD: Number(raw.nativePriceUSD) },
      ]),
    ),
  };
}

/** `tokenOf`: the checked token's decimals and lookup key. */
function toPool(raw: RawPool, tokenOf: (address: string) => { decimals: number; key: string }, big: (text: string | number) => bigint): PoolState {
  const base = {
    id: raw.id,
    chainId: raw.chainId,
    exchange: raw.exchange,
    address: raw.address,
    tokens: raw.tokens.map((t) => tokenOf(t).key),
  };
  switch (raw.kind) {
    case 'constantProduct':
      return { ...base, kind: 'constantProduct', feePpm: big(need(raw, 'feePpm')), reserves: need(raw, 'reserves').map(BigInt) };
    case 'concentrated':
      return {
        ...base,
        kind: 'concentrated',
        feePpm: big(need(raw, 'feePpm')),
        v3: {
          sqrtPriceX96: BigInt(need(raw, 'sqrtPriceX96')),
          tick: need(raw, 'tick'),
          liquidity: BigInt(need(raw, 'liquidity')),
          feePpm: big(need(raw, 'feePpm')),
          tickSpacing: need(raw, 'tickSpacing'),
          ticks: need(raw, 'ticks').map(([tick, net]) => [tick, BigInt(net)] as const),
        },
      };
    case 'stableswap':
      return {
        ...base,
        kind: 'stableswap',
        amp: big(need(raw, 'amp')),
        feeE10: big(need(raw, 'feeE10')),
        balances: need(raw, 'balances').map(BigInt),
        rates: ratesForDecimals(raw.tokens.map((t) => tokenOf(t).decimals)),
      };
    default:
      throw new SnapshotDataError(`pool ${raw.id} has unknown kind ${raw.kind}`);
  }
}

function need<K extends keyof RawPool>(raw: RawPool, key: K): NonNullable<RawPool[K]> {
  const value = raw[key];
  if (value === undefined || value === null) throw new SnapshotDataError(`pool ${raw.id} (${raw.kind}) lacks ${String(key)}`);
  return value as NonNullable<RawPool[K]>;
}
