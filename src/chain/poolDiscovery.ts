/**
 * Pools found from their factories: a source of pools beside the embedded snapshot (chain mode). The factories of
 * routers.json (`exchangeRouters[].factory`: Uniswap V2 and V3, and the Uniswap V2 forks, each on the chains of its
 * entry's `chainIds` or on every chain without them) announce every pool they create — V2
 * `PairCreated(token0, token1, pair, n)`, V3 `PoolCreated(token0, token1, fee, tickSpacing, pool)` — and the follower
 * (liveLiquidity.ts, through liveDiscovery.ts) asks for those logs with the pools' own on every new block. A pool of two catalog tokens that
 * the data does not know becomes a pool of the graph, its state then read from the chain like any other
 * (poolReader.ts): new pools appear in quotes without a restart. A pool of a catalog token and a token outside the
 * catalog is taken as well once that token's metadata is read from its contract (tokenMetadata.ts: it joins the
 * catalog as an unverified token, liveDiscovery.ts); a pool of two tokens outside the catalog is left out.
 *
 * At start, the factories are also asked where the pools of the catalog's token pairs are (`getPair`, and `getPool`
 * per fee tier): pools that exist on the chain and that the snapshot does not have join the graph the same way. With
 * a chain's `discoverFromBlock` (CHAINS_FILE), their creation logs since that block are read at start as well
 * (liveDiscovery.ts scanCreations), which also finds pools at fee tiers routers.json does not list.
 */
import { getAddress, Interface } from 'ethers';
import type { Catalog } from '../core/catalog/catalog';
import { isListedOnly, type Token } from '../core/entities';
import { exchangeRouterOn, type RouterDeployments } from '../core/catalog/routers';
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
  /** The chains the factory is on; absent: every chain. */
  readonly chainIds?: readonly number[];
}

/** One question to a factory at start: where the pool of a catalog pair (and fee tier) is. */
export interface FactoryLookup {
  readonly factory: string;
  readonly data: string;
  /** The pool, from the factory's answer (an address); undefined when it has none (the zero address). */
  pool(answer: string): PoolState | undefined;
}

/** The token at an address of a chain: the catalog's, or one discovered before (undefined when neither). */
export type TokenLookup = (chainId: number, address: string) => Token | undefined;

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

  /** The factories of routers.json, each on its chains (every chain when its entry names none). */
  static fromRouters(catalog: Catalog, routers: RouterDeployments): PoolDiscovery {
    const factories = routers.allExchangeRouters.flatMap((r): PoolFactory[] =>
      r.factory ? [{
        exchange: r.exchange, kind: r.kind, address: r.factory.address,
        ...(r.feePpm !== undefined ? { feePpm: r.feePpm } : {}),
        ...(r.feeTiers !== undefined ? { feeTiers: r.feeTiers } : {}),
        ...(r.chainIds !== undefined ? { chainIds: r.chainIds } : {}),
      }] : []);
    return new PoolDiscovery(catalog, factories);
  }

  /** The addresses of the factories on a chain (lower-cased). */
  addressesOn(chainId: number): string[] {
    return this.factoriesOn(chainId).map((f) => f.address.toLowerCase());
  }

  /** The factories on a chain. */
  factoriesOn(chainId: number): PoolFactory[] {
    return this.factories.filter((f) => exchangeRouterOn(f, chainId));
  }

  /** The creation events' topics. */
  get topics(): readonly string[] {
    return [UNISWAP_FACTORY_EVENTS.getEvent('PairCreated')!.topicHash, UNISWAP_FACTORY_EVENTS.getEvent('PoolCreated')!.topicHash];
  }

  /** The questions that find the pools of every pair of the chain's catalog tokens (the native coin and the listed-only
   *  tokens left out: ~1,000 of them on Ethereum would ask for ~2.5 million pairs and fee tiers; their pools are found
   *  from the factories' creation events). */
  lookups(chainId: number): FactoryLookup[] {
    const chain = this.catalog.getChain(chainId);
    if (!chain) return [];
    const native = chain.nativeToken.address.toLowerCase();
    const tokens = this.catalog.tokensOf(chainId).filter((t) => t.address.toLowerCase() !== native && /^0x[0-9a-fA-F]{40}$/.test(t.address) && !isListedOnly(t));
    const out: FactoryLookup[] = [];
    for (let i = 0; i < tokens.length; i++) {
      for (let j = i + 1; j < tokens.length; j++) {
        const [a, b] = BigInt(tokens[i].address) < BigInt(tokens[j].address) ? [tokens[i], tokens[j]] : [tokens[j], tokens[i]];
        for (const factory of this.factoriesOn(chainId)) {
          if (factory.kind === 'constantProduct') {
            out.push({
              factory: factory.address,
              data: UNISWAP_FACTORY.encodeFunctionData('getPair', [a.address, b.address]),
              pool: (answer) => this.unreadPool(chainId, factory, a, b, addressOf(answer, 'getPair')),
            });
          } else {
            for (const [fee, tickSpacing] of Object.entries(factory.feeTiers ?? {})) {
              out.push({
                factory: factory.address,
                data: UNISWAP_FACTORY.encodeFunctionData('getPool', [a.address, b.address, Number(fee)]),
                pool: (answer) => this.unreadPool(chainId, factory, a, b, addressOf(answer, 'getPool'), BigInt(fee), tickSpacing),
              });
            }
          }
        }
      }
    }
    return out;
  }

  /**
   * A pool of the factory at `address` (none for the zero address), its state still to be read. Named as the snapshot
   * names its pools; a discovered token by its address, not the symbol it claims (another pool's, perhaps).
   */
  private unreadPool(chainId: number, factory: PoolFactory, t0: Token, t1: Token, address: string, fee?: bigint, tickSpacing?: number): PoolState | undefined {
    if (BigInt(address) === 0n) return undefined;
    const tokens = [this.catalog.addressKey(chainId, t0.address), this.catalog.addressKey(chainId, t1.address)];
    const name = (t: Token) => (t.verificationStatus === 'unverified' ? t.address : t.symbol);
    const symbols = `${name(t0)}-${name(t1)}`;
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
   * The pools these logs announce on `chainId` whose two tokens `tokenOf` knows (the catalog's, by default), as pools
   * whose state is still to be read (empty reserves; V3 at price 0 without liquidity); never a pool of two discovered
   * tokens.
   */
  poolsOf(chainId: number, logs: readonly FactoryLog[], tokenOf: TokenLookup = (id, address) => this.catalog.findToken(id, address)): PoolState[] {
    const pools: PoolState[] = [];
    for (const { factory, event } of this.creations(chainId, logs)) {
      const token0 = tokenOf(chainId, event.token0);
      const token1 = tokenOf(chainId, event.token1);
      if (!token0 || !token1 || (token0.verificationStatus === 'unverified' && token1.verificationStatus === 'unverified')) continue;
      const pool = event.pair !== undefined
        ? this.unreadPool(chainId, factory, token0, token1, event.pair)
        : this.unreadPool(chainId, factory, token0, token1, event.pool!, event.fee, event.tickSpacing);
      if (pool) pools.push(pool);
    }
    return pools;
  }

  /**
   * The tokens outside the catalog these logs announce pools of, paired with a catalog token of `chainId`
   * (checksummed addresses, each once, in the order of the logs): the tokens whose metadata discovery needs.
   */
  unknownTokens(chainId: number, logs: readonly FactoryLog[]): string[] {
    const unknown = new Set<string>();
    for (const { event } of this.creations(chainId, logs)) {
      const [known0, known1] = [this.catalog.findToken(chainId, event.token0), this.catalog.findToken(chainId, event.token1)];
      if (known0 && !known1) unknown.add(getAddress(event.token1));
      if (known1 && !known0) unknown.add(getAddress(event.token0));
    }
    return [...unknown];
  }

  /**
   * The creation events of the chain's factories' logs (other logs, logs of a factory not on the chain, and events of
   * the wrong kind for a factory, left out).
   */
  private *creations(chainId: number, logs: readonly FactoryLog[]): Generator<{ factory: PoolFactory; event: Creation }> {
    for (const log of logs) {
      const factory = this.byAddress.get(log.address.toLowerCase());
      if (!factory || !exchangeRouterOn(factory, chainId)) continue;
      let parsed;
      try {
        parsed = UNISWAP_FACTORY_EVENTS.parseLog({ topics: [...log.topics], data: log.data });
      } catch {
        continue;
      }
      if (!parsed) continue;
      const tokens = { token0: parsed.args.token0 as string, token1: parsed.args.token1 as string };
      if (parsed.name === 'PairCreated' && factory.kind === 'constantProduct') yield { factory, event: { ...tokens, pair: parsed.args.pair as string } };
      if (parsed.name === 'PoolCreated' && factory.kind === 'concentrated') {
        yield { factory, event: { ...tokens, pool: parsed.args.pool as string, fee: BigInt(parsed.args.fee as bigint), tickSpacing: Number(parsed.args.tickSpacing as bigint) } };
      }
    }
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

/** A PairCreated (pair) or PoolCreated (pool, fee, tickSpacing) event's fields. */
interface Creation {
  readonly token0: string;
  readonly token1: string;
  readonly pair?: string;
  readonly pool?: string;
  readonly fee?: bigint;
  readonly tickSpacing?: number;
}

function addressOf(answer: string, fn: 'getPair' | 'getPool'): string {
  return UNISWAP_FACTORY.decodeFunctionResult(fn, answer)[0] as string;
}
