/**
 * The pools and tokens chain mode finds beside the snapshot's (liveLiquidity.ts), from the factories
 * (poolDiscovery.ts): at a chain's first read, the pools of the catalog pairs the factories know and, with a
 * `discoverFromBlock`, those their creation logs announce since that block; then, in every new block, the pools
 * they create, asked for with the followed pools' own logs. A token outside the catalog such a pool holds is taken
 * once its metadata is read from its contract (tokenMetadata.ts): unverified, priced by its pools only.
 */
import type { Logger } from 'pino';
import type { Catalog } from '../core/catalog/catalog';
import type { Token } from '../core/entities';
import type { PoolState } from '../core/liquidity/snapshot';
import type { Tracker } from './chainTracker';
import type { FoundTokens, LiveGraph } from './liveGraph';
import { inBlockRanges, type FactoryLog, type PoolDiscovery, type TokenLookup } from './poolDiscovery';
import { STATE_CHANGE_TOPICS } from './poolReader';
import { readTokenMetadata } from './tokenMetadata';

/** Blocks per eth_getLogs range when the factories' creation logs are read from a configured block (halved when refused). */
const LOG_SCAN_BLOCKS = 10_000;

/**
 * Tokens outside the catalog taken per chain (pools of a catalog token and such a token): the bound of what a chain
 * whose factories created pools of countless tokens (mainnet) adds to the catalog; the rest are left out, logged.
 */
export const MAX_DISCOVERED_TOKENS_PER_CHAIN = 2000;

/** Addresses per eth_getLogs filter. */
const LOG_ADDRESS_CHUNK = 500;

/** What the pools and tokens are found with (LiveLiquidityOptions, liveLiquidity.ts). */
export interface LiveDiscoveryOptions {
  readonly catalog: Catalog;
  readonly discovery?: PoolDiscovery;
  readonly logger: Logger;
}

export class LiveDiscovery implements FoundTokens {
  /** Tokens outside the catalog found with the factories' pools (`chainId:address` lower-cased → token), in the order found. */
  private readonly foundTokens = new Map<string, Token>();
  /** Tokens whose metadata could not be read (not asked again), and the chains whose bound of tokens was logged. */
  private readonly refusedTokens = new Set<string>();
  private readonly fullChains = new Set<number>();
  /** The reference catalog with the tokens found (rebuilt when a token is found). */
  private referenceWithFound: Catalog;
  /** A token of a followed chain: the catalog's, or one found with a factory's pool. */
  private readonly tokenOf: TokenLookup = (chainId, address) =>
    this.options.catalog.findToken(chainId, address) ?? this.foundTokens.get(`${chainId}:${address.toLowerCase()}`);

  constructor(
    private readonly options: LiveDiscoveryOptions,
    private readonly graph: LiveGraph,
  ) {
    this.referenceWithFound = options.catalog;
  }

  /** The tokens found, in the order found. */
  get tokens(): Token[] {
    return [...this.foundTokens.values()];
  }

  /** The reference catalog with the tokens found. */
  get reference(): Catalog {
    return this.referenceWithFound;
  }

  /** The pools of the catalog pairs the factories know at `block` and the chain's pools do not include. */
  async lookUpPools(t: Tracker, block: number): Promise<PoolState[]> {
    const lookups = this.options.discovery?.lookups(t.chain.chainId) ?? [];
    const tag = `0x${block.toString(16)}`;
    const answers = await Promise.allSettled(lookups.map((l) => t.chain.rpc.send('eth_call', [{ to: l.factory, data: l.data }, tag]) as Promise<string>));
    const found: PoolState[] = [];
    answers.forEach((answer, k) => {
      if (answer.status !== 'fulfilled' || answer.value === '0x') return; // no factory there (or it reverted)
      const pool = lookups[k].pool(answer.value);
      if (pool && !t.byAddress.has(pool.address.toLowerCase()) && !this.graph.isBase(pool.id)) found.push(pool);
    });
    return found;
  }

  /**
   * The pools the factories created from block `from` to `to` (their PairCreated / PoolCreated logs) that the chain's
   * pools do not include: eth_getLogs over ranges of LOG_SCAN_BLOCKS blocks, a range halved when the node refuses it
   * (nodes bound a range by blocks or by results), down to one block; a single block the node refuses stops the start.
   */
  async scanCreations(t: Tracker, from: number, to: number): Promise<PoolState[]> {
    const discovery = this.options.discovery;
    if (!discovery || discovery.addressesOn(t.chain.chainId).length === 0 || from > to) return [];
    const started = performance.now();
    const found = new Map<string, PoolState>();
    const ranges = await inBlockRanges(from, to, LOG_SCAN_BLOCKS, async (start, end) => {
      const logs = (await t.chain.rpc.send('eth_getLogs', [{
        address: discovery.addressesOn(t.chain.chainId), topics: [[...discovery.topics]], fromBlock: `0x${start.toString(16)}`, toBlock: `0x${end.toString(16)}`,
      }])) as FactoryLog[];
      await this.learnTokens(t, discovery, logs, end);
      for (const pool of discovery.poolsOf(t.chain.chainId, logs, this.tokenOf)) {
        if (!t.byAddress.has(pool.address.toLowerCase()) && !this.graph.isBase(pool.id)) found.set(pool.address.toLowerCase(), pool);
      }
    }).catch((error: Error) => {
      throw new Error(`chain ${t.chain.chainId}: the factories' creation logs could not be read: ${error.message}`);
    });
    this.options.logger.info(
      { chainId: t.chain.chainId, fromBlock: from, toBlock: to, ranges, found: found.size, ms: Math.round(performance.now() - started) },
      `chain ${t.chain.chainId}: the factories' creation logs from block ${from} to ${to} read (${ranges} ranges), ${found.size} pools not known before`,
    );
    return [...found.values()];
  }

  /**
   * The pools whose state the blocks changed (by their addresses), and the pools the factories created in them: one
   * eth_getLogs per chunk of addresses (pools and factories), the state topics and the creation topics together.
   */
  async touchedAddresses(t: Tracker, fromBlock: number, toBlock: number): Promise<{ addresses: Set<string>; created: PoolState[] }> {
    const discovery = this.options.discovery;
    const addresses = [...t.byAddress.keys(), ...(discovery?.addressesOn(t.chain.chainId) ?? [])];
    const topics = [[...new Set([...t.pools.flatMap((p) => STATE_CHANGE_TOPICS[p.kind]), ...(discovery?.topics ?? [])])]];
    const chunks: string[][] = [];
    for (let k = 0; k < addresses.length; k += LOG_ADDRESS_CHUNK) chunks.push(addresses.slice(k, k + LOG_ADDRESS_CHUNK));
    const logs = (await Promise.all(chunks.map((address) => t.chain.rpc.send('eth_getLogs', [{
      address, topics, fromBlock: `0x${fromBlock.toString(16)}`, toBlock: `0x${toBlock.toString(16)}`,
    }]) as Promise<FactoryLog[]>))).flat();
    if (discovery) await this.learnTokens(t, discovery, logs, toBlock);
    return {
      addresses: new Set(logs.map((l) => l.address.toLowerCase())),
      created: discovery ? discovery.poolsOf(t.chain.chainId, logs, this.tokenOf) : [],
    };
  }

  /**
   * The tokens outside the catalog whose pools with a catalog token these logs announce: their metadata read at
   * `block` (tokenMetadata.ts), each taken as an unverified token (up to MAX_DISCOVERED_TOKENS_PER_CHAIN per chain).
   * A token whose contract does not answer as an ERC-20 is logged once and not asked again; its pools are left out.
   */
  private async learnTokens(t: Tracker, discovery: PoolDiscovery, logs: readonly FactoryLog[], block: number): Promise<void> {
    const chainId = t.chain.chainId;
    const key = (address: string) => `${chainId}:${address.toLowerCase()}`;
    let wanted = discovery.unknownTokens(chainId, logs).filter((a) => !this.foundTokens.has(key(a)) && !this.refusedTokens.has(key(a)));
    if (wanted.length === 0) return;
    const room = MAX_DISCOVERED_TOKENS_PER_CHAIN - [...this.foundTokens.values()].filter((token) => token.chainId === chainId).length;
    if (wanted.length > room) {
      if (!this.fullChains.has(chainId)) {
        this.options.logger.warn({ chainId, bound: MAX_DISCOVERED_TOKENS_PER_CHAIN }, `chain ${chainId}: ${MAX_DISCOVERED_TOKENS_PER_CHAIN} tokens outside the catalog taken; the pools of further ones are left out`);
        this.fullChains.add(chainId);
      }
      wanted = wanted.slice(0, Math.max(0, room));
    }
    let found = false;
    for (const outcome of await readTokenMetadata(t.chain.rpc, chainId, wanted, block)) {
      if (outcome.kind === 'read') {
        this.foundTokens.set(key(outcome.token.address), outcome.token);
        found = true;
        this.options.logger.info({ chainId, token: outcome.token.address, symbol: outcome.token.symbol, decimals: outcome.token.decimals }, `chain ${chainId}: token ${outcome.token.symbol} (${outcome.token.address}) found with a factory's pool: unverified, priced by its pools only`);
      } else {
        this.refusedTokens.add(key(outcome.address));
        this.options.logger.warn({ chainId, token: outcome.address, reason: outcome.reason }, `chain ${chainId}: token ${outcome.address} left out (${outcome.reason}); its pools are not quoted`);
      }
    }
    if (found) this.referenceWithFound = this.options.catalog.withDiscoveredTokens([...this.foundTokens.values()]);
  }
}
