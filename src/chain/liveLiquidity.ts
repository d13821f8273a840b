/**
 * Pool state of the connected chains, kept current block by block (chain mode).
 *
 * start(): every snapshot pool of each connected chain is read at the chain's head (batched, all chains in
 * parallel), then each chain's head is followed: every pollIntervalMs one JSON-RPC batch asks for the latest block
 * and for the block last read (its hash tells a reorganisation or an evm_revert apart from new blocks) and, with
 * gasPrice "chain", eth_gasPrice; on new blocks, eth_getLogs over the pools' addresses for the state-changing
 * events (V2 Sync, V3 Swap, Curve TokenExchange) of the new range names the touched pools, which are read again
 * in one batch at the new head. Any change builds a new LiquiditySnapshot (untouched pools, bridges and gas kept
 * as they are) and a new RoutingGraph, handed to `target.replace`: quotes never wait for a chain.
 *
 * A chain that does not answer is logged (first failure, then at most every 30 s) and retried with a growing
 * delay; its pools keep the last state read (or the snapshot's). A pool without a contract at its address keeps
 * the snapshot's state and is logged once.
 */
import type { Logger } from 'pino';
import type { Catalog } from '../core/catalog/catalog';
import type { Token } from '../core/entities';
import type { ChainGas, LiquiditySnapshot, PoolState } from '../core/liquidity/snapshot';
import { PPM } from '../core/math/rational';
import { RoutingGraph } from '../core/routing/graph';
import { catalogAtPrices, marketPrices, type PriceRule } from '../core/liquidity/marketPrices';
import { inBlockRanges, type FactoryLog, type PoolDiscovery, type TokenLookup } from './poolDiscovery';
import { readTokenMetadata } from './tokenMetadata';
import { readPools, sameState, STATE_CHANGE_TOPICS, type JsonRpcSender, type PoolReadOutcome } from './poolReader';

export interface LiveChain {
  readonly chainId: number;
  readonly rpc: JsonRpcSender;
  /** "chain": the quotes use eth_gasPrice (updated when it moves by 10 % or more); "snapshot": the embedded price. */
  readonly gasPrice: 'chain' | 'snapshot';
  /** At start, the factories' creation logs are read from this block to the head (chainsConfig.ts discoverFromBlock). */
  readonly discoverFromBlock?: number;
}

export interface LiveLiquidityOptions {
  /** The reference catalog: its tokens, and the prices of the coins no pool prices. */
  readonly catalog: Catalog;
  /** Token prices from the followed chains' pools under this rule (marketPrices.ts); undefined: the reference table. */
  readonly prices?: PriceRule;
  /** Pools that are genuine Uniswap contracts, read through their real interface (poolReader.ts); default none. */
  readonly genuine?: (pool: PoolState) => boolean;
  /** Factories whose new pools join the graph as they are created (poolDiscovery.ts); default none. */
  readonly discovery?: PoolDiscovery;
  /**
   * The exchange routers a swap through a chain's pools calls (routers.json, those on the chain): a router without a
   * contract on the chain takes its pools out of the graph, as a pool without one is (nothing could swap through
   * them); checked at every full read. Default: none checked.
   */
  readonly exchangeRouters?: (chainId: number) => readonly ExchangeRouterOnChain[];
  /** The embedded snapshot: the pools to follow, and everything that is not read from the chains. */
  readonly base: LiquiditySnapshot;
  /** Receives every new graph (LiquidityState of the dependencies). */
  readonly target: { readonly graph: RoutingGraph; replace(graph: RoutingGraph): void };
  readonly chains: readonly LiveChain[];
  readonly pollIntervalMs: number;
  readonly logger: Logger;
  /** Chains whose chain id was already checked (startChainMode); the others are checked on first contact. */
  readonly verified?: ReadonlySet<number>;
}

/** An exchange's swap router for a pool kind (stableswap pools are called directly and have none). */
export interface ExchangeRouterOnChain {
  readonly exchange: string;
  readonly kind: string;
  readonly address: string;
}

export interface ChainLiquidityStatus {
  readonly chainId: number;
  /** connecting: not read yet; following: initial read done, head followed; rejected: wrong chain id (not retried). */
  readonly state: 'connecting' | 'following' | 'rejected';
  readonly lastBlock?: number;
  /** When the chain was last read at its head (Unix ms): every poll that reads the head moves it, new block or not. */
  readonly lastBlockAt?: number;
  /** Pools whose state comes from the chain. */
  readonly poolsRead: number;
  readonly poolsMissing: number;
  readonly poolsFailed: number;
  /** Pool re-reads after events, and the duration of the last refresh (head seen → graph replaced). */
  readonly refreshes: number;
  readonly lastRefreshMs?: number;
  readonly initialReadMs?: number;
  readonly gasPriceWei?: string;
  readonly lastError?: { readonly message: string; readonly at: string };
}

/** Beyond this many blocks since the last read, the chain's pools are all read again instead of asking for logs. */
const MAX_LOG_RANGE = 1000;
/** Blocks per eth_getLogs range when the factories' creation logs are read from a configured block (halved when refused). */
const LOG_SCAN_BLOCKS = 10_000;

/**
 * Tokens outside the catalog taken per chain (pools of a catalog token and such a token): the bound of what a chain
 * whose factories created pools of countless tokens (mainnet) adds to the catalog; the rest are left out, logged.
 */
export const MAX_DISCOVERED_TOKENS_PER_CHAIN = 2000;

/** Addresses per eth_getLogs filter. */
const LOG_ADDRESS_CHUNK = 500;
const ERROR_LOG_INTERVAL_MS = 30_000;
const MAX_RETRY_DELAY_MS = 2000;
/** eth_gasPrice replaces the price in use only when it moved by this fraction (in ppm) or more. */
const GAS_PRICE_STEP_PPM = 100_000n;

interface Block {
  readonly number: number;
  readonly hash: string;
}

interface Tracker {
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

export class ChainIdMismatchError extends Error {
  constructor(readonly chainId: number, readonly answered: bigint) {
    super(`chain ${chainId}: its RPC answers chain id ${answered}, not ${chainId}`);
    this.name = 'ChainIdMismatchError';
  }
}

/** eth_chainId of a chain, checked against the configured id (ChainIdMismatchError when it differs). */
export async function verifyChainId(rpc: JsonRpcSender, chainId: number): Promise<void> {
  const answered = BigInt((await rpc.send('eth_chainId', [])) as string);
  if (answered !== BigInt(chainId)) throw new ChainIdMismatchError(chainId, answered);
}

export class LiveLiquidity {
  private readonly trackers: Tracker[];
  private readonly current = new Map<string, PoolState>();
  private readonly basePools: ReadonlyMap<string, PoolState>;
  private readonly gas: Map<number, ChainGas>;
  /** Chains whose pools or gas changed since the last graph was published. */
  private touched = new Set<number>();
  /** The graph published last. */
  private published: RoutingGraph | undefined;
  /** Pools created by the factories after the snapshot, in the order found. */
  private readonly discovered: PoolState[] = [];
  private stopped = false;
  /** Coins no qualifying pool prices, as last logged. */
  private unpriced = '';
  /** Tokens outside the catalog found with the factories' pools (`chainId:address` lower-cased → token), in the order found. */
  private readonly tokens = new Map<string, Token>();
  /** Tokens whose metadata could not be read (not asked again), and the chains whose bound of tokens was logged. */
  private readonly refusedTokens = new Set<string>();
  private readonly fullChains = new Set<number>();
  /** The reference catalog with the tokens found (rebuilt when a token is found). */
  private reference: Catalog;
  /** A token of a followed chain: the catalog's, or one found with a factory's pool. */
  private readonly tokenOf: TokenLookup = (chainId, address) =>
    this.options.catalog.findToken(chainId, address) ?? this.tokens.get(`${chainId}:${address.toLowerCase()}`);

  constructor(private readonly options: LiveLiquidityOptions) {
    this.reference = options.catalog;
    this.basePools = new Map(options.base.pools.map((p) => [p.id, p]));
    this.gas = new Map(options.base.gas);
    this.trackers = options.chains.map((chain) => {
      const pools = options.base.pools.filter((p) => p.chainId === chain.chainId);
      const byAddress = new Map<string, PoolState[]>();
      for (const p of pools) byAddress.set(p.address.toLowerCase(), [...(byAddress.get(p.address.toLowerCase()) ?? []), p]);
      return {
        chain, pools, byAddress, verified: options.verified?.has(chain.chainId) ?? false, rejected: false,
        read: new Set(), missing: new Set(), routerless: new Set(), failed: new Set(), refreshes: 0,
      };
    });
  }

  /** Reads every pool of every chain once (chains that fail are retried by the polls), then follows the heads. */
  async start(): Promise<void> {
    const changed = await Promise.all(this.trackers.map((t) => this.guard(t, () => this.initialRead(t))));
    if (changed.some(Boolean)) this.publish();
    for (const t of this.trackers) this.schedule(t);
  }

  /** Stops polling; resolves when no read is in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.trackers) clearTimeout(t.timer);
    await Promise.all(this.trackers.map((t) => t.running));
  }

  status(): ChainLiquidityStatus[] {
    return this.trackers.map((t) => ({
      chainId: t.chain.chainId,
      state: t.rejected ? 'rejected' : t.last ? 'following' : 'connecting',
      ...(t.last ? { lastBlock: t.last.number } : {}),
      ...(t.lastBlockAt !== undefined ? { lastBlockAt: t.lastBlockAt } : {}),
      poolsRead: t.read.size,
      poolsMissing: t.missing.size,
      poolsFailed: t.failed.size,
      refreshes: t.refreshes,
      ...(t.lastRefreshMs !== undefined ? { lastRefreshMs: t.lastRefreshMs } : {}),
      ...(t.initialReadMs !== undefined ? { initialReadMs: t.initialReadMs } : {}),
      ...(t.gasPriceWei !== undefined ? { gasPriceWei: t.gasPriceWei.toString() } : {}),
      ...(t.error ? { lastError: { message: t.error.message, at: new Date(t.error.at).toISOString() } } : {}),
    }));
  }

  private schedule(t: Tracker): void {
    if (this.stopped || t.rejected) return;
    const delay = t.error ? Math.min(MAX_RETRY_DELAY_MS, this.options.pollIntervalMs * 2 ** Math.min(t.error.streak, 6)) : this.options.pollIntervalMs;
    t.timer = setTimeout(() => {
      t.running = this.poll(t).finally(() => {
        t.running = undefined;
        this.schedule(t);
      });
    }, delay);
    t.timer.unref();
  }

  private async poll(t: Tracker): Promise<void> {
    const started = performance.now();
    const changed = await this.guard(t, () => (t.last ? this.follow(t) : this.initialRead(t)));
    if (changed && !this.stopped) {
      this.publish();
      t.lastRefreshMs = Math.round(performance.now() - started);
    }
  }

  /** Runs one step of a chain; a failure is recorded and logged (rate-limited), never thrown. */
  private async guard(t: Tracker, step: () => Promise<boolean>): Promise<boolean> {
    try {
      if (!t.verified) {
        await verifyChainId(t.chain.rpc, t.chain.chainId);
        t.verified = true;
      }
      const changed = await step();
      t.lastBlockAt = Date.now(); // every step reads the head
      if (t.error) {
        this.options.logger.info({ chainId: t.chain.chainId, failures: t.error.streak }, `chain ${t.chain.chainId} answers again`);
        t.error = undefined;
      }
      return changed;
    } catch (error) {
      if (this.stopped) return false;
      if (error instanceof ChainIdMismatchError) {
        t.rejected = true;
        this.options.logger.error({ chainId: t.chain.chainId }, `${error.message}: not followed, its pools stay on the snapshot`);
      }
      this.noteError(t, error);
      return false;
    }
  }

  private noteError(t: Tracker, error: unknown): void {
    const message = ((error as Error)?.message ?? String(error)).split('\n')[0].slice(0, 300);
    const now = Date.now();
    const e = t.error ?? { message, at: now, streak: 0, loggedAt: 0, unlogged: 0 };
    Object.assign(e, { message, at: now, streak: e.streak + 1 });
    t.error = e;
    if (e.streak === 1 || now - e.loggedAt >= ERROR_LOG_INTERVAL_MS) {
      this.options.logger.warn(
        { chainId: t.chain.chainId, failures: e.streak, suppressed: e.unlogged, lastBlock: t.last?.number },
        `chain ${t.chain.chainId} does not answer (${message}); quoting from its last known state, retrying`,
      );
      e.loggedAt = now;
      e.unlogged = 0;
    } else e.unlogged++;
  }

  /** Every pool of the chain at its head (initial read, after a reorganisation, after a long outage). */
  private async initialRead(t: Tracker): Promise<boolean> {
    const started = performance.now();
    const [head, gasPrice] = await Promise.all([this.block(t, 'latest'), this.gasPrice(t)]);
    if (!head) throw new Error('no latest block');
    // first read: the factories say where the catalog pairs' pools are; those the snapshot lacks are read with the rest
    if (t.initialReadMs === undefined) {
      this.adopt(t, await this.lookUpPools(t, head.number));
      if (t.chain.discoverFromBlock !== undefined) this.adopt(t, await this.scanCreations(t, t.chain.discoverFromBlock, head.number));
    }
    const outcomes = await readPools(t.chain.rpc, t.pools, { blockTag: head.number, ticks: true, genuine: this.options.genuine });
    const routersChanged = await this.checkExchangeRouters(t, head.number);
    const changed = this.apply(t, outcomes) || this.applyGasPrice(t, gasPrice) || routersChanged;
    t.last = head;
    if (t.initialReadMs === undefined) {
      t.initialReadMs = Math.round(performance.now() - started);
      this.options.logger.info(
        { chainId: t.chain.chainId, block: head.number, pools: t.read.size, missing: t.missing.size, failed: t.failed.size, ms: t.initialReadMs },
        `chain ${t.chain.chainId}: ${t.read.size} pools read at block ${head.number} in ${t.initialReadMs} ms`,
      );
    }
    return changed;
  }

  /** New blocks since the last read: the pools their events touched read again. */
  private async follow(t: Tracker): Promise<boolean> {
    const last = t.last!;
    const [head, seen, gasPrice] = await Promise.all([this.block(t, 'latest'), this.block(t, last.number), this.gasPrice(t)]);
    if (!head) throw new Error('no latest block');
    const gasChanged = this.applyGasPrice(t, gasPrice);
    if (!seen || seen.hash !== last.hash || head.number < last.number || head.number - last.number > MAX_LOG_RANGE) {
      if (!seen || seen.hash !== last.hash) this.options.logger.info({ chainId: t.chain.chainId, block: last.number }, `chain ${t.chain.chainId}: block ${last.number} replaced; reading every pool again`);
      return (await this.initialRead(t)) || gasChanged;
    }
    if (head.number === last.number) return gasChanged;
    const touched = new Set<string>();
    const { addresses, created } = await this.touchedAddresses(t, last.number + 1, head.number);
    for (const address of addresses) {
      for (const p of t.byAddress.get(address) ?? []) if (!t.missing.has(p.id)) touched.add(p.id);
    }
    let changed = gasChanged;
    // pools the factories created: read at the head, then followed as the others (their creation is a change)
    const fresh = created.filter((p) => !t.byAddress.has(p.address.toLowerCase()) && !this.basePools.has(p.id) && !this.current.has(p.id));
    if (fresh.length > 0) {
      const outcomes = await readPools(t.chain.rpc, fresh, { blockTag: head.number, ticks: true, genuine: this.options.genuine });
      const read = outcomes.filter((o) => o.kind === 'read');
      this.adopt(t, read.map((o) => o.pool));
      changed = this.apply(t, read) || changed;
    }
    if (touched.size > 0) {
      const pools = t.pools.filter((p) => touched.has(p.id)).map((p) => this.current.get(p.id) ?? p);
      const outcomes = await readPools(t.chain.rpc, pools, { blockTag: head.number, ticks: false, genuine: this.options.genuine });
      changed = this.apply(t, outcomes) || changed;
      t.refreshes++;
    }
    t.last = head;
    return changed;
  }

  /** A pool of a followed chain without a contract at its address, or whose exchange router has none. */
  private missing(pool: PoolState): boolean {
    return this.trackers.some((t) => t.chain.chainId === pool.chainId && (t.missing.has(pool.id) || t.routerless.has(`${pool.exchange}:${pool.kind}`)));
  }

  /**
   * Which of the chain's exchange routers have no contract at `block` (eth_getCode); true when that changed. A change
   * is logged with the pools it takes out of the graph (or brings back).
   */
  private async checkExchangeRouters(t: Tracker, block: number): Promise<boolean> {
    // the routers of the chain's pools' exchanges, and of its factories' (whose new pools join later)
    const used = new Set([
      ...t.pools.map((p) => `${p.exchange}:${p.kind}`),
      ...(this.options.discovery?.factoriesOn(t.chain.chainId) ?? []).map((f) => `${f.exchange}:${f.kind}`),
    ]);
    const routers = (this.options.exchangeRouters?.(t.chain.chainId) ?? []).filter((r) => used.has(`${r.exchange}:${r.kind}`));
    if (routers.length === 0 && t.routerless.size === 0) return false;
    const tag = `0x${block.toString(16)}`;
    const codes = await Promise.all(routers.map((r) => t.chain.rpc.send('eth_getCode', [r.address, tag]) as Promise<string>));
    const routerless = new Set(routers.filter((_, k) => codes[k] === '0x').map((r) => `${r.exchange}:${r.kind}`));
    const gone = [...routerless].filter((key) => !t.routerless.has(key));
    const back = [...t.routerless].filter((key) => !routerless.has(key));
    if (gone.length === 0 && back.length === 0) return false;
    const poolsOf = (key: string) => t.pools.filter((p) => `${p.exchange}:${p.kind}` === key).length;
    for (const key of gone) {
      const r = routers.find((x) => `${x.exchange}:${x.kind}` === key)!;
      this.options.logger.warn({ chainId: t.chain.chainId, exchange: r.exchange, kind: r.kind, address: r.address }, `chain ${t.chain.chainId}: no contract at ${r.exchange}'s ${r.kind} router ${r.address}; its ${poolsOf(key)} pools are not quoted`);
    }
    for (const key of back) this.options.logger.info({ chainId: t.chain.chainId, router: key }, `chain ${t.chain.chainId}: ${key} router has a contract again; its ${poolsOf(key)} pools are quoted`);
    t.routerless = routerless;
    this.touched.add(t.chain.chainId);
    return true;
  }

  /** The pools of the catalog pairs the factories know at `block` and the chain's pools do not include. */
  private async lookUpPools(t: Tracker, block: number): Promise<PoolState[]> {
    const lookups = this.options.discovery?.lookups(t.chain.chainId) ?? [];
    const tag = `0x${block.toString(16)}`;
    const answers = await Promise.allSettled(lookups.map((l) => t.chain.rpc.send('eth_call', [{ to: l.factory, data: l.data }, tag]) as Promise<string>));
    const found: PoolState[] = [];
    answers.forEach((answer, k) => {
      if (answer.status !== 'fulfilled' || answer.value === '0x') return; // no factory there (or it reverted)
      const pool = lookups[k].pool(answer.value);
      if (pool && !t.byAddress.has(pool.address.toLowerCase()) && !this.basePools.has(pool.id)) found.push(pool);
    });
    return found;
  }

  /**
   * The pools the factories created from block `from` to `to` (their PairCreated / PoolCreated logs) that the chain's
   * pools do not include: eth_getLogs over ranges of LOG_SCAN_BLOCKS blocks, a range halved when the node refuses it
   * (nodes bound a range by blocks or by results), down to one block; a single block the node refuses stops the start.
   */
  private async scanCreations(t: Tracker, from: number, to: number): Promise<PoolState[]> {
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
        if (!t.byAddress.has(pool.address.toLowerCase()) && !this.basePools.has(pool.id)) found.set(pool.address.toLowerCase(), pool);
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

  /** Pools found on the chain join its pools (read and followed from now on) and the graph. */
  private adopt(t: Tracker, pools: readonly PoolState[]): void {
    for (const pool of pools) {
      if (t.byAddress.has(pool.address.toLowerCase())) continue;
      t.pools.push(pool);
      t.byAddress.set(pool.address.toLowerCase(), [pool]);
      this.discovered.push(pool);
      this.options.logger.info({ chainId: t.chain.chainId, pool: pool.id, address: pool.address }, `chain ${t.chain.chainId}: pool ${pool.id} found at ${pool.address}`);
    }
  }

  /**
   * The pools whose state the blocks changed (by their addresses), and the pools the factories created in them: one
   * eth_getLogs per chunk of addresses (pools and factories), the state topics and the creation topics together.
   */
  private async touchedAddresses(t: Tracker, fromBlock: number, toBlock: number): Promise<{ addresses: Set<string>; created: PoolState[] }> {
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
    let wanted = discovery.unknownTokens(chainId, logs).filter((a) => !this.tokens.has(key(a)) && !this.refusedTokens.has(key(a)));
    if (wanted.length === 0) return;
    const room = MAX_DISCOVERED_TOKENS_PER_CHAIN - [...this.tokens.values()].filter((token) => token.chainId === chainId).length;
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
        this.tokens.set(key(outcome.token.address), outcome.token);
        found = true;
        this.options.logger.info({ chainId, token: outcome.token.address, symbol: outcome.token.symbol, decimals: outcome.token.decimals }, `chain ${chainId}: token ${outcome.token.symbol} (${outcome.token.address}) found with a factory's pool: unverified, priced by its pools only`);
      } else {
        this.refusedTokens.add(key(outcome.address));
        this.options.logger.warn({ chainId, token: outcome.address, reason: outcome.reason }, `chain ${chainId}: token ${outcome.address} left out (${outcome.reason}); its pools are not quoted`);
      }
    }
    if (found) this.reference = this.options.catalog.withDiscoveredTokens([...this.tokens.values()]);
  }

  private async block(t: Tracker, tag: number | 'latest'): Promise<Block | undefined> {
    const raw = (await t.chain.rpc.send('eth_getBlockByNumber', [tag === 'latest' ? tag : `0x${tag.toString(16)}`, false])) as { number: string; hash: string } | null;
    return raw ? { number: Number(raw.number), hash: raw.hash } : undefined;
  }

  private async gasPrice(t: Tracker): Promise<bigint | undefined> {
    return t.chain.gasPrice === 'chain' ? BigInt((await t.chain.rpc.send('eth_gasPrice', [])) as string) : undefined;
  }

  private applyGasPrice(t: Tracker, wei: bigint | undefined): boolean {
    if (wei === undefined || wei <= 0n) return false;
    t.gasPriceWei = wei;
    const gas = this.gas.get(t.chain.chainId);
    if (!gas) return false;
    const moved = wei > gas.gasPriceWei ? wei - gas.gasPriceWei : gas.gasPriceWei - wei;
    if (moved * PPM < gas.gasPriceWei * GAS_PRICE_STEP_PPM) return false;
    this.gas.set(t.chain.chainId, { ...gas, gasPriceWei: wei, updatedAt: Date.now() });
    this.touched.add(t.chain.chainId);
    return true;
  }

  /** Takes the pools read into the current state; true when one of them changed. */
  private apply(t: Tracker, outcomes: readonly PoolReadOutcome[]): boolean {
    let changed = false;
    for (const o of outcomes) {
      const id = o.pool.id;
      if (o.kind === 'read') {
        t.read.add(id);
        if (t.missing.delete(id)) {
          this.touched.add(t.chain.chainId); // back in the graph
          changed = true;
        }
        t.failed.delete(id);
        const before = this.current.get(id) ?? this.basePools.get(id);
        if (before === undefined || !sameState(before, o.pool)) {
          this.current.set(id, o.pool);
          this.touched.add(t.chain.chainId);
          changed = true;
        } else if (!this.current.has(id)) this.current.set(id, before);
      } else if (o.kind === 'missing') {
        if (!t.missing.has(id)) {
          // nothing to swap through: the pool leaves the graph (it comes back if a contract appears there)
          this.options.logger.warn({ chainId: t.chain.chainId, pool: id, address: o.pool.address }, `pool ${id}: no contract at ${o.pool.address} on chain ${t.chain.chainId}; not quoted`);
          this.touched.add(t.chain.chainId);
          changed = true;
        }
        t.missing.add(id);
        t.read.delete(id);
        t.failed.delete(id);
      } else {
        if (!t.failed.has(id)) this.options.logger.warn({ chainId: t.chain.chainId, pool: id, reason: o.reason }, `pool ${id} could not be read: ${o.reason}`);
        t.failed.add(id);
      }
    }
    return changed;
  }

  /**
   * A new snapshot from the current state, its graph handed to the target: derived from the target's graph when
   * that is the one this follower published last (or the base's), so that only the chains touched since are indexed
   * again (RoutingGraph.derive); built whole otherwise.
   */
  private publish(): void {
    const { base, catalog, target } = this.options;
    const snapshot: LiquiditySnapshot = {
      asOf: new Date().toISOString(),
      // a pool found on a chain joins the graph once its state is read (never with the empty state it was found with)
      pools: [
        ...base.pools.filter((p) => !this.missing(p)).map((p) => this.current.get(p.id) ?? p),
        ...this.discovered.filter((p) => !this.missing(p)).flatMap((p) => this.current.get(p.id) ?? []),
      ],
      bridges: base.bridges,
      gas: new Map(this.gas),
    };
    const previous = target.graph;
    const derivable = previous === this.published || (this.published === undefined && previous.snapshot === base);
    const tokens = [...this.tokens.values()];
    const priced = this.pricedCatalog(snapshot, (derivable ? previous.catalog : catalog).withDiscoveredTokens(tokens));
    const graph = derivable ? RoutingGraph.derive(previous, snapshot, this.touched, priced) : new RoutingGraph(priced, snapshot);
    this.touched = new Set();
    this.published = graph;
    target.replace(graph);
  }

  /** `current`, or a catalog at the prices the followed chains' pools now imply (when a price rule is set). */
  private pricedCatalog(snapshot: LiquiditySnapshot, current: Catalog): Catalog {
    const { prices: rule, logger } = this.options;
    const reference = this.reference;
    if (!rule) return current;
    const followed = new Set(this.trackers.filter((t) => t.last).map((t) => t.chain.chainId));
    const market = marketPrices(reference, snapshot.pools, followed, rule);
    // the catalog's coins by name; the tokens found on the chains (their own coinKeys) counted, not listed
    const discoveredCoins = new Set([...this.tokens.values()].map((token) => token.coinKey));
    const coins = market.unpriced.filter((coinKey) => !discoveredCoins.has(coinKey));
    const found = market.unpriced.length - coins.length;
    const unpriced = `${coins.join(', ')}${found > 0 ? ` (and ${found} tokens found on the chains, at no price)` : ''}`;
    if (unpriced !== this.unpriced && followed.size > 0) {
      if (unpriced) logger.info({ coins, discoveredUnpriced: found }, `no pool of at least $${rule.minDepthUSD} prices ${unpriced}: at the reference prices, still routable`);
      this.unpriced = unpriced;
    }
    return catalogAtPrices(reference, current, market.prices);
  }
}
