/**
 * A chain that chain mode follows (liveLiquidity.ts): its connection and settings (LiveChain), and what is known of
 * it while it is followed (Tracker: its pools, the block last read, the pools read, missing or failed, its failures,
 * its timer).
 */
import type { PoolState } from '../core/liquidity/snapshot';
import type { JsonRpcSender } from './poolReader';

export interface LiveChain {
  readonly chainId: number;
  readonly rpc: JsonRpcSender;
  /** "chain": the quotes use eth_gasPrice (updated when it moves by 10 % or more); "snapshot": the embedded price. */
  readonly gasPrice: 'chain' | 'snapshot';
  /** At start, the factories' creation logs are read from this block to the head (chainsConfig.ts discoverFromBlock). */
  readonly discoverFromBlock?: number;
}

export interface Block {
  readonly number: number;
  readonly hash: string;
}

export interface Tracker {
  readonly chain: LiveChain;
  /** The chain's pools: the snapshot's, then those its factories created since (discovered). */
  readonly pools: PoolState[];
  readonly byAddress: Map<string, PoolState[]>;
  verified: boolean;
  rejected: boolean;
  last?: Block;
  /** When the head was last read (Unix ms). */
  lastBlockAt?: number;
  read: Set<string>;
  missing: Set<string>;
  /** The `exchange:kind` routers without a contract on the chain, as last read: their pools are not quoted. */
  routerless: Set<string>;
  /** Pools whose contract answered unlike a pool of their kind (read again when an event touches them). */
  failed: Set<string>;
  refreshes: number;
  lastRefreshMs?: number;
  initialReadMs?: number;
  gasPriceWei?: bigint;
  error?: { message: string; at: number; streak: number; loggedAt: number; unlogged: number };
  timer?: NodeJS.Timeout;
  running?: Promise<void>;
}

/** A chain not read yet, with the snapshot's pools on it; `verified`: its chain id was checked already. */
export function newTracker(chain: LiveChain, snapshotPools: readonly PoolState[], verified: boolean): Tracker {
  const pools = snapshotPools.filter((p) => p.chainId === chain.chainId);
  const byAddress = new Map<string, PoolState[]>();
  for (const p of pools) byAddress.set(p.address.toLowerCase(), [...(byAddress.get(p.address.toLowerCase()) ?? []), p]);
  return {
    chain, pools, byAddress, verified, rejected: false,
    read: new Set(), missing: new Set(), routerless: new Set(), failed: new Set(), refreshes: 0,
  };
}
