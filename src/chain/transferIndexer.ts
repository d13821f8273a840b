/**
 * The transfer indexer: follows the router of every connected EVM chain into the transfer index of the database
 * (src/persistence/transfers.ts), so that the service remembers every transfer (GET /v1/analytics/transfers, and
 * /v1/status for transfers it knows). Chains of other families are followed by their own readers, polled here with
 * the EVM chains under the same leases (TransferFollower: the bridge escrow of a Solana chain,
 * src/chain/solanaTransferIndexer.ts).
 *
 * Each poll, per chain, this instance takes (or renews) the chain's lease in the database: one instance indexes a
 * chain at a time, and another takes over when the holder's lease runs out (it stopped or died). It then reads the
 * router's transfer-starting events (LiFiTransferStarted for a bridge, LiFiGenericSwapCompleted and
 * LiFiSwappedGeneric on one chain) from the chain's cursor to the head, in block ranges that halve when the node
 * refuses one (inBlockRanges, as chain mode's pool discovery reads), and asks the transfer tracker (the same
 * classification as GET /v1/status) for the status of each transaction found, whatever it is: the index holds the
 * answers /v1/status gives. Transfers not final yet are read again every poll, a batch at a time, until they are.
 * The rows of a range and the cursor's move are written in one transaction, only while the lease holds.
 *
 * Reorganisations: the cursor keeps the hash of the last block read, as chain mode's head following does; when the
 * chain no longer has that block (another hash at its height, or a shorter chain), the transfers of the last
 * REORG_DEPTH blocks are forgotten and those blocks read again, so a transfer of an orphaned block disappears and one
 * that the new blocks hold appears.
 */
import { Interface, type JsonRpcProvider } from 'ethers';
import type { Logger } from 'pino';
import type { Kysely } from 'kysely';
import { ROUTER_ABI } from '../core/transactions/abi';
import type { TransferTracker } from '../core/status/tracker';
import { transactionKey } from '../core/status/history';
import { inBlockRanges } from './poolDiscovery';
import type { Schema } from '../persistence/schema';
import {
  asChainWriter, claimChain, forgetFromBlock, LeaseLostError, moveCursor, releaseChain, saveTransfer, unsettledTransfers, type ChainCursor,
} from '../persistence/transfers';

const ROUTER_EVENTS = new Interface(ROUTER_ABI as string[]);
/** The router's events that start a transfer: a bridge's, a same-chain swap's, a same-chain contract call's. */
const STARTING_TOPICS = ['LiFiTransferStarted', 'LiFiGenericSwapCompleted', 'LiFiSwappedGeneric'].map((name) => ROUTER_EVENTS.getEvent(name)!.topicHash);
/** Blocks read again after a reorganisation (deeper ones are not expected on the chains served). */
export const REORG_DEPTH = 64;
/** Blocks per eth_getLogs range, at most (halved when a node refuses a range). */
const LOG_RANGE_BLOCKS = 2000;
/** Blocks read per chain and poll, at most (the next poll goes on from there). */
const MAX_BLOCKS_PER_POLL = 20_000;
/** Unsettled transfers read again per chain and poll, at most. */
export const UNSETTLED_BATCH = 50;
/** Transfers whose status is read at the same time, at most (each is a few JSON-RPC calls). */
const STATUS_CONCURRENCY = 10;

/** `read` of every item, STATUS_CONCURRENCY at a time, in order. */
export async function inBatches<T, R>(items: readonly T[], read: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += STATUS_CONCURRENCY) {
    results.push(...(await Promise.all(items.slice(start, start + STATUS_CONCURRENCY).map(read))));
  }
  return results;
}

export interface IndexedChain {
  readonly chainId: number;
  readonly provider: JsonRpcProvider;
  readonly router: string;
  /**
   * The first block to read the first time the chain is indexed (the router's deployment, or later: chains file
   * `indexFromBlock`); undefined: the head at that time (transfers from then on).
   */
  readonly startBlock?: number;
}

/**
 * A chain of another family that the indexer polls with the EVM chains (each poll, one after the other; a failure
 * logged and skipped as theirs), and whose lease it gives up on stop(): the Solana chains' escrows
 * (solanaTransferIndexer.ts). Its poll writes as the EVM chains' do, under the chain's lease (claimChain,
 * asChainWriter, moveCursor).
 */
export interface TransferFollower {
  readonly chainId: number;
  poll(indexer: IndexerContext): Promise<ChainPoll>;
}

/** What a follower's poll works with: the indexer's database, tracker, name in the leases, lease length and clock. */
export interface IndexerContext {
  readonly db: Kysely<Schema>;
  readonly tracker: Pick<TransferTracker, 'status'>;
  readonly holder: string;
  readonly leaseMs: number;
  readonly logger: Logger;
  now(): Date;
}

export interface TransferIndexerOptions {
  readonly db: Kysely<Schema>;
  readonly chains: readonly IndexedChain[];
  /** The chains of other families (default none). */
  readonly followers?: readonly TransferFollower[];
  readonly tracker: Pick<TransferTracker, 'status'>;
  /** This instance's name in the leases (unique per process). */
  readonly holder: string;
  readonly logger: Logger;
  readonly pollIntervalMs?: number;
  /** How long a lease lasts without renewal (default 30 s; several polls). */
  readonly leaseMs?: number;
  readonly clock?: () => number;
}

/** What one poll of a chain did. */
export interface ChainPoll {
  readonly chainId: number;
  /** false: another instance holds the chain's lease. */
  readonly leased: boolean;
  /** The blocks read (a Solana chain: the slots). */
  readonly fromBlock?: number;
  readonly toBlock?: number;
  /** Transactions whose transfers were saved (new or again). */
  readonly saved: number;
  /** Unsettled transfers read again. */
  readonly refreshed: number;
  /** Transfers forgotten because their blocks were replaced. */
  readonly forgotten: number;
}

export class TransferIndexer {
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;
  private stopped = false;
  /** When each chain's failure was last logged (unix ms). */
  private readonly lastLogged = new Map<number, number>();

  constructor(private readonly options: TransferIndexerOptions) {}

  private now(): Date {
    return new Date((this.options.clock ?? Date.now)());
  }

  /** What the followers' polls work with. */
  private get context(): IndexerContext {
    const { db, tracker, holder, logger } = this.options;
    return { db, tracker, holder, logger, leaseMs: this.options.leaseMs ?? 30_000, now: () => this.now() };
  }

  /** Polls every chain now (one after the other: the EVM chains, then the followers'); what each poll did. A chain that fails is logged and skipped. */
  async pollAll(): Promise<ChainPoll[]> {
    const polls: ChainPoll[] = [];
    const chains = [
      ...this.options.chains.map((chain) => ({ chainId: chain.chainId, poll: () => this.poll(chain) })),
      ...(this.options.followers ?? []).map((follower) => ({ chainId: follower.chainId, poll: () => follower.poll(this.context) })),
    ];
    for (const { chainId, poll } of chains) {
      try {
        polls.push(await poll());
      } catch (error) {
        if (error instanceof LeaseLostError) {
          polls.push({ chainId, leased: false, saved: 0, refreshed: 0, forgotten: 0 });
          continue;
        }
        // a chain (or the database) that does not answer: logged at its first failure, then at most every 30 s
        const now = Date.now();
        if (now - (this.lastLogged.get(chainId) ?? 0) >= 30_000) {
          this.lastLogged.set(chainId, now);
          this.options.logger.warn({ chainId, err: { message: (error as Error).message } }, `indexer: chain ${chainId} not read: ${(error as Error).message}`);
        }
      }
    }
    return polls;
  }

  /** One poll of `chain` (see the module comment). */
  async poll(chain: IndexedChain): Promise<ChainPoll> {
    const { db, holder } = this.options;
    const { chainId, provider } = chain;
    const head = await provider.getBlock('latest');
    if (!head?.hash) throw new Error('no latest block');
    const startBlock = chain.startBlock ?? head.number;
    const cursor = await claimChain(db, chainId, holder, { now: this.now(), leaseMs: this.options.leaseMs ?? 30_000, startBlock });
    if (!cursor) return { chainId, leased: false, saved: 0, refreshed: 0, forgotten: 0 };

    // the last block read is still the chain's? (else: a reorganisation)
    let from = cursor.nextBlock;
    let forgotten = 0;
    if (cursor.lastHash !== undefined && from > 0) {
      const seen = from - 1 <= head.number ? await provider.getBlock(from - 1) : null;
      if (!seen || seen.hash !== cursor.lastHash) {
        const rewound = Math.max(chain.startBlock ?? 0, from - REORG_DEPTH);
        forgotten = await asChainWriter(db, chainId, holder, this.now(), async (trx) => {
          const count = await forgetFromBlock(trx, chainId, rewound);
          const before = rewound > 0 ? await provider.getBlock(rewound - 1) : null;
          await moveCursor(trx, chainId, { nextBlock: rewound, ...(before?.hash ? { lastHash: before.hash } : {}) });
          return count;
        });
        this.options.logger.info({ chainId, block: from - 1, rewound, forgotten }, `indexer: chain ${chainId}: block ${from - 1} was replaced; reading again from block ${rewound}`);
        from = rewound;
      }
    }

    // the transfers started in the new blocks
    let saved = 0;
    // a long way behind (a first run from an old block): a bounded stretch per poll, so the cursor moves as it goes
    const to = Math.min(head.number, from + MAX_BLOCKS_PER_POLL - 1);
    const last = to === head.number ? head : await provider.getBlock(to);
    if (!last?.hash) throw new Error(`no block ${to}`);
    if (from <= to) {
      const found = new Map<string, { blockNumber: number; blockHash: string }>();
      await inBlockRanges(from, to, LOG_RANGE_BLOCKS, async (start, end) => {
        const logs = await provider.getLogs({ address: chain.router, topics: [STARTING_TOPICS], fromBlock: start, toBlock: end });
        for (const log of logs) found.set(log.transactionHash.toLowerCase(), { blockNumber: log.blockNumber, blockHash: log.blockHash });
      });
      const statuses = await inBatches([...found], async ([txHash, at]) => ({ txHash, ...at, status: await this.options.tracker.status({ ref: txHash, fromChainId: chainId }) }));
      const next: ChainCursor = { nextBlock: to + 1, lastHash: last.hash };
      await asChainWriter(db, chainId, holder, this.now(), async (trx) => {
        for (const s of statuses) await saveTransfer(trx, { chainId, txHash: s.txHash, blockNumber: s.blockNumber, blockHash: s.blockHash, status: s.status }, this.now());
        await moveCursor(trx, chainId, next);
      });
      saved = statuses.length;
    }

    // the transfers still under way: read again
    const unsettled = await unsettledTransfers(db, chainId, UNSETTLED_BATCH);
    if (unsettled.length > 0) {
      const statuses = await inBatches(unsettled, async (u) => ({ ...u, status: await this.options.tracker.status({ ref: u.txHash, fromChainId: chainId }) }));
      // an answer that is not the transfer's own (its chain did not answer: no sending side) leaves the row as it was,
      // so that a passing failure neither hides it from its wallet's history nor pushes a state it never took
      const own = statuses.filter((s) => s.status.sending?.txHash !== undefined && transactionKey(s.status.sending.txHash) === s.txHash);
      await asChainWriter(db, chainId, holder, this.now(), async (trx) => {
        for (const s of own) await saveTransfer(trx, { chainId, txHash: s.txHash, blockNumber: s.blockNumber, blockHash: s.blockHash, status: s.status }, this.now());
      });
    }
    return { chainId, leased: true, fromBlock: from, toBlock: to, saved, refreshed: unsettled.length, forgotten };
  }

  /** Polls every pollIntervalMs (default 2 s) until stop(). */
  start(): void {
    const tick = () => {
      if (this.stopped) return;
      this.running = this.pollAll().finally(() => {
        if (!this.stopped) this.timer = setTimeout(tick, this.options.pollIntervalMs ?? 2000);
      });
    };
    tick();
  }

  /** Stops polling, waits for a poll in flight and gives the leases up. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
    for (const { chainId } of [...this.options.chains, ...(this.options.followers ?? [])]) await releaseChain(this.options.db, chainId, this.options.holder).catch(() => undefined);
  }
}
