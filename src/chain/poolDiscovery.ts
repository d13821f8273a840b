/**
 * Pools found from their factories: a source of pools beside the embedded snapshot (chain mode). The factories of
 * routers.json (`exchangeRouters[].factory`: Uniswap V2 and V3) announce every pool they create — V2
 * `PairCreated(token0, token1, pair, n)`, V3 `PoolCreated(token0, token1, fee, tickSpacing, pool)` — and the follower
 * (liveLiquidity.ts) asks for those logs with the pools' own on every new block. A pool of two catalog tokens that
 * the data does not know becomes a pool of the graph, its state then read from the chain like any other
 * (poolReader.ts): new pools appear in quotes without a restart. Pools of tokens outside the catalog are left out
 * (the catalog has no price, decimals or symbol for them).
 *
 * At start, the factories are also asked where the pools of the catalog's token pairs are (`getPair`, and `getPool`
 * per fee tier): pools that exist on the chain and that the snapshot does not have join the graph the same way. With
 * a chain's `discoverFromBlock` (CHAINS_FILE), their creation logs since that block are read at start as well
 * (liveLiquidity.ts scanCreations), which also finds pools at fee tiers routers.json does not list.
 */
import { getAddress, Interface } from 'ethers';
import type { Catalog } from '../core/catalog/catalog';
import type { RouterDeployments } from '../core/catalog/routers';
import type { PoolState } from '../core/liquidity/snapshot';

export const UNISWAP_FACTORY = new Interface([
  'function getPair(address tokenA, address tokenB) view returns (address pair)',
  'function getPool(address tokenA, address tokenB, uint24 fee) view returns (address pool)',
]);

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
  /** A V3 factory's fee tiers (ppm) and their tick spacings. */
  readonly feeTiers?: Readonly<Record<string, number>>;
}

/** One question to a factory at start: where the pool of a catalog pair (and fee tier) is. */
export interface FactoryLookup {
  readonly factory: string;
  readonly data: string;
  /** The pool, from the factory's answer (an address); undefined when it has none (the zero address). */
  pool(answer: string): PoolState | undefined;
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
      r.factory ? [{
        exchange: r.exchange, kind: r.kind, address: r.factory.address,
        ...(r.feePpm !== undefined ? { feePpm: r.feePpm } : {}),
        ...(r.feeTiers !== undefined ? { feeTiers: r.feeTiers } : {}),
      }] : []);
    return new PoolDiscovery(catalog, factories);
  }

  get addresses(): readonly string[] {
    return [...this.byAddress.keys()];
  }

  /** The creation events' topics. */
  get topics(): readonly string[] {
    return [UNISWAP_FACTORY_EVENTS.getEvent('PairCreated')!.topicHash, UNISWAP_FACTORY_EVENTS.getEvent('PoolCreated')!.topicHash];
  }

  /** The questions that find the pools of every pair of the chain's catalog tokens (the native coin left out). */
  lookups(chainId: number): FactoryLookup[] {
    const chain = this.catalog.getChain(chainId);
    if (!chain) return [];
    const native = chain.nativeToken.address.toLowerCase();
    const tokens = this.catalog.tokensOf(chainId).filter((t) => t.address.toLowerCase() !== native && /^0x[0-9a-fA-F]{40}$/.test(t.address));
    const out: FactoryLookup[] = [];
    for (let i = 0; i < tokens.length; i++) {
      for (let j = i + 1; j < tokens.length; j++) {
        const [a, b] = BigInt(tokens[i].address) < BigInt(tokens[j].address) ? [tokens[i], tokens[j]] : [tokens[j], tokens[i]];
        for (const factory of this.factories) {
          if (factory.kind === 'constantProduct') {
            out.push({
              factory: factory.address,
              data: UNISWAP_FACTORY.encodeFunctionData('getPair', [a.address, b.address]),
              pool: (answer) => this.unreadPool(chainId, factory, a.address, b.address, addressOf(answer, 'getPair')),
            });
          } else {
            for (const [fee, tickSpacing] of Object.entries(factory.feeTiers ?? {})) {
              out.push({
                factory: factory.address,
                data: UNISWAP_FACTORY.encodeFunctionData('getPool', [a.address, b.address, Number(fee)]),
                pool: (answer) => this.unreadPool(chainId, factory, a.address, b.address, addressOf(answer, 'getPool'), BigInt(fee), tickSpacing),
              });
            }
          }
        }
      }
    }
    return out;
  }

  /** A pool of the factory at `address` (none for the zero address), its state still to be read. */
  private unreadPool(chainId: number, factory: PoolFactory, tokenA: string, tokenB: string, address: string, fee?: bigint, tickSpacing?: number): PoolState | undefined {
    if (BigInt(address) === 0n) return undefined;
    const [t0, t1] = [this.catalog.findToken(chainId, tokenA)!, this.catalog.findToken(chainId, tokenB)!];
    const tokens = [this.catalog.addressKey(chainId, t0.address), this.catalog.addressKey(chainId, t1.address)];
    const symbols = `${t0.symbol}-${t1.symbol}`;
    if (factory.kind === 'constantProduct') {
      const feePpm = BigInt(factory.feePpm ?? 3000);
      return { id: `${chainId}:${factory.exchange}:constantProduct:${symbols}:${feePpm}`, chainId, exchange: factory.exchange, kind: 'constantProduct', address: getAddress(address), tokens, feePpm, reserves: [0n, 0n] };
    }
    const feePpm = fee!;
    return {
      id: `${chainId}:${factory.exchange}:concentrated:${symbols}:${feePpm}`, chainId, exchange: factory.exchange, kind: 'concentrated', address: getAddress(address), tokens, feePpm,
      v3: { sqrtPriceX96: 0n, tick: 0, liquidity: 0n, feePpm, tickSpacing: tickSpacing!, ticks: [] },
    };
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
      const pool = parsed.name === 'PairCreated' && factory.kind === 'constantProduct'
        ? this.unreadPool(chainId, factory, token0.address, token1.address, parsed.args.pair as string)
        : parsed.name === 'PoolCreated' && factory.kind === 'concentrated'
          ? this.unreadPool(chainId, factory, token0.address, token1.address, parsed.args.pool as string, BigInt(parsed.args.fee as bigint), Number(parsed.args.tickSpacing as bigint))
          : undefined;
      if (pool) pools.push(pool);
    }
    return pools;
  }
}

/**
 * Calls `read` over the blocks `from`..`to` (inclusive) in consecutive ranges of at most `span` blocks; a range `read`
 * rejects is tried again halved (nodes bound eth_getLogs by blocks or by results), down to one block, whose refusal
 * ends the walk with its error. The span reached carries on to the next ranges. Resolves to the ranges read.
 */
export async function inBlockRanges(from: number, to: number, span: number, read: (start: number, end: number) => Promise<void>): Promise<number> {
  let ranges = 0;
  for (let start = from; start <= to;) {
    const end = Math.min(to, start + span - 1);
    try {
      await read(start, end);
    } catch (error) {
      if (span === 1) throw new Error(`block ${start}: ${(error as Error).message}`);
      span = Math.max(1, Math.floor(span / 2));
      continue;
    }
    ranges++;
    start = end + 1;
  }
  return ranges;
}

function addressOf(answer: string, fn: 'getPair' | 'getPool'): string {
  return UNISWAP_FACTORY.decodeFunctionResult(fn, answer)[0] as string;
}
