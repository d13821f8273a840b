/** Shapes of the hand table data/sources/liquidity.json and of the generated routing snapshot
 *  (data/snapshot/{pools,bridges,chains}.json). The routing core reads only the generated files. */
import type { PoolKind } from '../catalog/types';

export type { PoolKind };

// ---- hand table (data/sources/liquidity.json) ----

export interface ChainParams {
  chainId: number;
  name: string;
  /** Multiplier applied to the Ethereum-scale depths of `pairs` and `stableswap` (and to pool-based bridge caps). */
  depthScale: string;
  /** EVM chains: gas price in gwei (decimal string). */
  gasPriceGwei?: string;
  /** Non-EVM chains: fee of one source transaction in whole native coins (decimal string). */
  txFee?: string;
  blockTimeSeconds: number;
  finalitySeconds: number;
  /** USD cost of a relayer's fill transaction on this chain as a destination (destination gas of intent bridges). */
  fillCostUSD: string;
  /** EVM chains: coinKey of the wrapped native token (the `NATIVE` role of `pairs`). */
  wrappedNative?: string;
  /** EVM chains: exchange preference, first = slot 0 of each pool kind; exchanges not listed follow by key. */
  exchangeOrder?: string[];
}

export interface ProfileSlot {
  kind: 'constantProduct' | 'concentrated';
  /** Index into the chain's exchanges that run this kind, in exchangeOrder; the slot is skipped when absent. */
  slot: number;
  /** Fee tier; constant-product slots without one use the exchange's default V2 fee. */
  feePpm?: number;
  weight: number;
}

export interface PairTemplate {
  /** Two coinKeys; `NATIVE` is the chain's wrapped native token. */
  tokens: [string, string];
  /** Total USD value locked over all pools of the pair at Ethereum scale. */
  depthUSD: string;
  profile: string;
}

export interface BandParams {
  halfWidthTicks: number;
  weight: number;
}

export interface StablePoolParams {
  depthUSD: string;
  amp: number;
  feeE10: number;
}

/** A value chosen per route: `from[sourceChainId]`, else `to[destinationChainId]`, else `default`. */
export interface PerRoute<T> {
  default: T;
  from?: Record<string, T>;
  to?: Record<string, T>;
}

export interface BridgeParams {
  key: string;
  mechanism: string;
  /** Basis points by coinKey (`default` for the others). */
  feeBps: Record<string, number>;
  /** Overrides of feeBps by source chain id. */
  feeBpsFrom?: Record<string, Record<string, number>>;
  fixedFeeUSD: string;
  /** Destination gas = factor × fillCostUSD of the destination chain ("0": none). */
  destinationGasFactor: string;
  /** Message/protocol fee paid as transaction value in the source chain's native coin. */
  nativeFeeUSD: PerRoute<string>;
  /** A minimum the bridge documents, in USD ("0": none; the minimum is then the smallest amount that delivers
   *  something after the fees). */
  minUSD: string;
  /** Overrides of minUSD by source chain id, then coinKey (`default` for the others). */
  minUSDFrom?: Record<string, Record<string, string>>;
  maxUSD: Record<string, string>;
  /** Pool-based bridges: the cap shrinks with the smaller depthScale of the two chains. */
  maxScalesWithDepth: boolean;
  durationSeconds: PerRoute<number>;
  gasUnits: PerRoute<number>;
}

export interface LiquidityTable {
  note: string;
  chains: ChainParams[];
  constantProductFeePpm: Record<string, number>;
  pairs: PairTemplate[];
  profiles: Record<string, ProfileSlot[]>;
  concentratedBands: Record<string, { tickSpacing: number; bands: BandParams[] }>;
  stableswap: {
    /** Stablecoin coinKeys that make the base pool (first three present) and the pair pool (first two). */
    mainCoinKeys: string[];
    basePool: StablePoolParams;
    pairPool: StablePoolParams;
    minorPool: StablePoolParams;
    /** Largest deterministic deviation of one balance from the balanced pool, parts per million. */
    imbalancePpm: number;
  };
  bridges: BridgeParams[];
}

// ---- generated snapshot ----

interface PoolBase {
  id: string;
  chainId: number;
  exchange: string;
  kind: PoolKind;
  address: string;
  tokens: string[];
  feePpm: number;
}

export interface ConstantProductPool extends PoolBase {
  kind: 'constantProduct';
  reserves: [string, string];
}

export interface ConcentratedPool extends PoolBase {
  kind: 'concentrated';
  tickSpacing: number;
  sqrtPriceX96: string;
  tick: number;
  liquidity: string;
  ticks: Array<[number, string]>;
}

export interface StableswapPool extends PoolBase {
  kind: 'stableswap';
  amp: number;
  feeE10: number;
  balances: string[];
}

export type SnapshotPool = ConstantProductPool | ConcentratedPool | StableswapPool;

export interface PoolsFile {
  schemaVersion: number;
  asOf: string;
  pools: SnapshotPool[];
}

export interface BridgeRoute {
  bridge: string;
  fromChainId: number;
  toChainId: number;
  coinKey: string;
  fromToken: string;
  toToken: string;
  feePpm: number;
  fixedFee: string;
  destinationGasFee: string;
  minAmount: string;
  maxAmount: string;
  durationSeconds: number;
  gasUnits: number;
  nativeFee: string;
  mechanism: string;
}

export interface BridgesFile {
  schemaVersion: number;
  asOf: string;
  routes: BridgeRoute[];
}

export interface SnapshotChain {
  chainId: number;
  gasPriceWei: string;
  nativePriceUSD: string;
  blockTimeSeconds: number;
  finalitySeconds: number;
  /** Non-EVM chains only: fee of one source transaction in raw units of the native coin. */
  txFee?: string;
}

export interface ChainsFile {
  schemaVersion: number;
  asOf: string;
  chains: SnapshotChain[];
}
