/** Domain model of the liquidity snapshot: pools, bridge routes and per-chain gas. Amounts are bigint raw units. */
import type { ConcentratedPool } from '../math/concentrated';

export type PoolKind = 'constantProduct' | 'concentrated' | 'stableswap';

interface PoolBase {
  readonly id: string;
  readonly chainId: number;
  /** Exchange tool key (uniswap, curve...). */
  readonly exchange: string;
  /** Pool contract address (checksummed). */
  readonly address: string;
  /** Token addresses in pool order, lower-cased (identifiers normalised at the boundary). */
  readonly tokens: readonly string[];
}

export interface ConstantProductPoolState extends PoolBase {
  readonly kind: 'constantProduct';
  readonly feePpm: bigint;
  readonly reserves: readonly bigint[];
}

export interface ConcentratedPoolState extends PoolBase {
  readonly kind: 'concentrated';
  readonly feePpm: bigint;
  readonly v3: ConcentratedPool;
}

export interface StableswapPoolState extends PoolBase {
  readonly kind: 'stableswap';
  readonly amp: bigint;
  readonly feeE10: bigint;
  readonly balances: readonly bigint[];
  /** Curve RATES: 10^(36 − decimals) per coin (balances·rate/1e18 normalises to 18 decimals). */
  readonly rates: readonly bigint[];
}

export type PoolState = ConstantProductPoolState | ConcentratedPoolState | StableswapPoolState;

export interface BridgeRoute {
  readonly bridge: string;
  readonly fromChainId: number;
  readonly toChainId: number;
  readonly coinKey: string;
  /** Lower-cased token addresses. */
  readonly fromToken: string;
  readonly toToken: string;
  readonly feePpm: bigint;
  readonly fixedFee: bigint;
  readonly destinationGasFee: bigint;
  readonly minAmount: bigint;
  readonly maxAmount: bigint;
  readonly durationSeconds: number;
  readonly gasUnits: bigint;
  /** Native coin of the source chain paid on top as transaction value (messaging fee). */
  readonly nativeFee: bigint;
  readonly mechanism: string;
}

export interface ChainGas {
  readonly chainId: number;
  readonly gasPriceWei: bigint;
  readonly nativePriceUSD: number;
  readonly blockTimeSeconds: number;
  readonly finalitySeconds: number;
  /** Unix time in milliseconds when gasPriceWei was read from the chain (chain mode); absent: the snapshot's price. */
  readonly updatedAt?: number;
}

export interface LiquiditySnapshot {
  readonly asOf: string;
  readonly pools: readonly PoolState[];
  readonly bridges: readonly BridgeRoute[];
  readonly gas: ReadonlyMap<number, ChainGas>;
}
