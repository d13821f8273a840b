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
 *
 * Here: following the chains' heads (LiveLiquidity). The state quoted on and the graphs built from it are
 * liveGraph.ts's; the pools and tokens the factories create, liveDiscovery.ts's; what is known of each followed
 * chain, chainTracker.ts's.
 */
import type { Logger } from 'pino';
import type { Catalog } from '../core/catalog/catalog';
import type { LiquiditySnapshot, PoolState } from '../core/liquidity/snapshot';
import type { PriceRule } from '../core/liquidity/marketPrices';
import { newTracker, type Block, type LiveChain, type Tracker } from './chainTracker';
import { LiveDiscovery } from './liveDiscovery';
import { LiveGraph, type GraphTarget } from './liveGraph';
import type { PoolDiscovery } from './poolDiscovery';
import { readPools, type JsonRpcSender } from './poolReader';

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
  readonly target: GraphTarget;
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
const ERROR_LOG_INTERVAL_MS = 30_000;
const MAX_RETRY_DELAY_MS = 2000;

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
  /** The pools' and gas prices' state, and the graphs built from it. */
  private readonly graph: LiveGraph;
  /** The pools and tokens the factories create. */
  private readonly discovery: LiveDiscovery;
  private stopped = false;

  constructor(private readonly options: LiveLiquidityOptions) {
    this.trackers = options.chains.map((chain) => newTracker(chain, options.base.pools, options.verified?.has(chain.chainId) ?? false));
    this.graph = new LiveGraph(options, this.trackers);
    this.discovery = new LiveDiscovery(options, this.graph);
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
      this.graph.adopt(t, await this.discovery.lookUpPools(t, head.number));
      if (t.chain.discoverFromBlock !== undefined) this.graph.adopt(t, await this.discovery.scanCreations(t, t.chain.discoverFromBlock, head.number));
    }
    const outcomes = await readPools(t.chain.rpc, t.pools, { blockTag: head.number, ticks: true, genuine: this.options.genuine });
    const routersChanged = await this.checkExchangeRouters(t, head.number);
    const changed = this.graph.apply(t, outcomes) || this.graph.applyGasPrice(t, gasPrice) || routersChanged;
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
    const gasChanged = this.graph.applyGasPrice(t, gasPrice);
    if (!seen || seen.hash !== last.hash || head.number < last.number || head.number - last.number > MAX_LOG_RANGE) {
      if (!seen || seen.hash !== last.hash) this.options.logger.info({ chainId: t.chain.chainId, block: last.number }, `chain ${t.chain.chainId}: block ${last.number} replaced; reading every pool again`);
      return (await this.initialRead(t)) || gasChanged;
    }
    if (head.number === last.number) return gasChanged;
    const touched = new Set<string>();
    const { addresses, created } = await this.discovery.touchedAddresses(t, last.number + 1, head.number);
    for (const address of addresses) {
      for (const p of t.byAddress.get(address) ?? []) if (!t.missing.has(p.id)) touched.add(p.id);
    }
    let changed = gasChanged;
    // pools the factories created: read at the head, then followed as the others (their creation is a change)
    const fresh = created.filter((p) => !t.byAddress.has(p.address.toLowerCase()) && !this.graph.isBase(p.id) && !this.graph.isRead(p.id));
    if (fresh.length > 0) {
      const outcomes = await readPools(t.chain.rpc, fresh, { blockTag: head.number, ticks: true, genuine: this.options.genuine });
      const read = outcomes.filter((o) => o.kind === 'read');
      this.graph.adopt(t, read.map((o) => o.pool));
      changed = this.graph.apply(t, read) || changed;
    }
    if (touched.size > 0) {
      const pools = t.pools.filter((p) => touched.has(p.id)).map((p) => this.graph.stateOf(p));
      const outcomes = await readPools(t.chain.rpc, pools, { blockTag: head.number, ticks: false, genuine: this.options.genuine });
      changed = this.graph.apply(t, outcomes) || changed;
      t.refreshes++;
    }
    t.last = head;
    return changed;
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
    this.graph.touch(t.chain.chainId);
    return true;
  }

  private async block(t: Tracker, tag: number | 'latest'): Promise<Block | undefined> {
    const raw = (await t.chain.rpc.send('eth_getBlockByNumber', [tag === 'latest' ? tag : `0x${tag.toString(16)}`, false])) as { number: string; hash: string } | null;
    return raw ? { number: Number(raw.number), hash: raw.hash } : undefined;
  }

  private async gasPrice(t: Tracker): Promise<bigint | undefined> {
    return t.chain.gasPrice === 'chain' ? BigInt((await t.chain.rpc.send('eth_gasPrice', [])) as string) : undefined;
  }

  /** A new graph from the current state, with the tokens found so far (LiveGraph.publish). */
  private publish(): void {
    this.graph.publish(this.discovery);
  }
}
