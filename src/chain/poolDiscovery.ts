/**
 * Pools found from their factories: a source of pools beside the embedded snapshot (chain mode). The factories of
 * routers.json (`exchangeRouters[].factory`: Uniswap V2 and V3) announce every pool they create — V2
 * `PairCreated(token0, token1, pair, n)`, V3 `PoolCreated(token0, token1, fee, tickSpacing, pool)` — and the follower
 * (liveLiquidity.ts) asks for those logs with the pools' own on every new block. A pool of two catalog tokens that
 * the data does not know becomes a pool of the graph, its state then read from the chain like any other
 * (poolReader.ts): new pools appear in quotes without a restart. Pools of tokens outside the catalog are left out
 * (the catalog has no price, decimals or symbol for them).
 */
import { getAddress, Interface } from 'ethers';
import type { Catalog } from '../core/catalog/catalog';
import type { RouterDeployments } from '../core/catalog/routers';
import type { ConcentratedPoolState, ConstantProductPoolState, PoolState } from '../core/liquidity/snapshot';

export const UNISWAP_FACTORY_EVENTS = new Interface([
  'event PairCreated(address indexed token0, address indexed token1, address pair, uint256)',
  'event PoolCreated(address indexed token0, address indexed token1, uint24 indexed fee, int24 tickSpacing, address pool)',
]);

/** A factory the follower listens to. */
export interface PoolFactory {
  readonly exchange: string;
  readonly kind: 'constantProduct' | 'concentrated';
  readonly address: string;
  /** A V2 factory's one fee (ppm). */
  readonly feePpm?: number;
}

/** A log as eth_getLogs gives it. */
export interface FactoryLog {
  readonly address: string;
  readonly topics: readonly string[];
  readonly data: string;
}

export class PoolDiscovery {
  private readonly byAddress: ReadonlyMap<string, PoolFactory>;

  constructor(private readonly catalog: Catalog, readonly factories: readonly PoolFactory[]) {
    this.byAddress = new Map(factories.map((f) => [f.address.toLowerCase(), f]));
  }

  /** The factories of routers.json, on every chain. */
  static fromRouters(catalog: Catalog, routers: RouterDeployments): PoolDiscovery {
    const factories = routers.allExchangeRouters.flatMap((r): PoolFactory[] =>
      r.factory ? [{ exchange: r.exchange, kind: r.kind, address: r.factory.address, ...(r.feePpm !== undefined ? { feePpm: r.feePpm } : {}) }] : []);
    return new PoolDiscovery(catalog, factories);
  }

  get addresses(): readonly string[] {
    return [...this.byAddress.keys()];
  }

  /** The creation events' topics. */
  get topics(): readonly string[] {
    return [UNISWAP_FACTORY_EVENTS.getEvent('PairCreated')!.topicHash, UNISWAP_FACTORY_EVENTS.getEvent('PoolCreated')!.topicHash];
  }

  /**
   * The pools these logs announce on `chainId` whose two tokens are catalog tokens there, as pools whose state is
   * still to be read (empty reserves; V3 at price 0 without liquidity), named as the snapshot names its pools.
   */
  poolsOf(chainId: number, logs: readonly FactoryLog[]): PoolState[] {
    const pools: PoolState[] = [];
    for (const log of logs) {
      const factory = this.byAddress.get(log.address.toLowerCase());
      if (!factory) continue;
      let parsed;
      try {
        parsed = UNISWAP_FACTORY_EVENTS.parseLog({ topics: [...log.topics], data: log.data });
      } catch {
        continue;
      }
      if (!parsed) continue;
      const token0 = this.catalog.findToken(chainId, parsed.args.token0 as string);
      const token1 = this.catalog.findToken(chainId, parsed.args.token1 as string);
      if (!token0 || !token1) continue;
      const tokens = [this.catalog.addressKey(chainId, token0.address), this.catalog.addressKey(chainId, token1.address)];
      if (parsed.name === 'PairCreated' && factory.kind === 'constantProduct') {
        const feePpm = BigInt(factory.feePpm ?? 3000);
        const pool: ConstantProductPoolState = {
          id: `${chainId}:${factory.exchange}:constantProduct:${token0.symbol}-${token1.symbol}:${feePpm}`,
          chainId, exchange: factory.exchange, kind: 'constantProduct', address: getAddress(parsed.args.pair as string),
          tokens, feePpm, reserves: [0n, 0n],
        };
        pools.push(pool);
      } else if (parsed.name === 'PoolCreated' && factory.kind === 'concentrated') {
        const feePpm = BigInt(parsed.args.fee as bigint);
        const tickSpacing = Number(parsed.args.tickSpacing as bigint);
        const pool: ConcentratedPoolState = {
          id: `${chainId}:${factory.exchange}:concentrated:${token0.symbol}-${token1.symbol}:${feePpm}`,
          chainId, exchange: factory.exchange, kind: 'concentrated', address: getAddress(parsed.args.pool as string),
          tokens, feePpm,
          v3: { sqrtPriceX96: 0n, tick: 0, liquidity: 0n, feePpm, tickSpacing, ticks: [] },
        };
        pools.push(pool);
      }
    }
    return pools;
  }
}
