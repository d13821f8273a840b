/**
 * Chain mode's Solana entries (CHAINS_FILE names a Solana chain with rpcUrl only): the service checks at start that the
 * URL serves the chain it is named for and advertises it (src/chain/catalog.ts); then it reads, every poll interval,
 * the cluster's latest blockhash (commitment confirmed) and recent prioritization fees, which the transactions sent
 * from Solana take (cluster(): SvmClusterState; quotes never wait for a chain). Until the first read, and when reads
 * fail for longer than a blockhash lives (STALE_AFTER_MS), cluster() is undefined and the transactions fall back to
 * the embedded data's placeholder blockhash and fixed prices.
 *
 * The check, as eth_chainId's on EVM chains (mode.ts): getGenesisHash must answer the chain's genesis hash
 * (src/core/chains/solana/cluster.ts; another hash stops the start-up, a configuration error) and getHealth "ok".
 * A node that does not answer (or is not healthy) does not stop the start: it is logged (first failure, then at most
 * every 30 s) and asked again, with a growing delay up to 2 s, until it answers; a wrong genesis hash then is logged
 * and the node is no longer asked. stop() clears the pending retry (no timer left) and waits for a read in flight.
 */
import { createSolanaRpc } from '@solana/kit';
import type { Logger } from 'pino';
import { genesisHashOf } from '../core/chains/solana/cluster';
import type { Catalog } from '../core/catalog/catalog';
import { familyOf } from '../core/chains/families';
import type { SvmClusterState } from '../core/transactions/context';
import type { ChainsConfig } from '../chainsConfig';
import type { ChainLiquidityStatus } from './liveLiquidity';

export interface SolanaNodeEntry {
  readonly chainId: number;
  readonly rpcUrl: string;
}

export class GenesisHashMismatchError extends Error {
  constructor(readonly chainId: number, readonly expected: string, readonly answered: string) {
    super(`chain ${chainId}: the RPC answers genesis hash ${answered}, not ${expected}`);
    this.name = 'GenesisHashMismatchError';
  }
}

/** getGenesisHash (against the chain's known hash, when there is one) then getHealth of the node at `url`, each within `timeoutMs`. */
export async function checkSolanaNode(url: string, chainId: number, timeoutMs: number): Promise<void> {
  const rpc = createSolanaRpc(url);
  const answered = await rpc.getGenesisHash().send({ abortSignal: AbortSignal.timeout(timeoutMs) });
  const expected = genesisHashOf(chainId);
  if (expected !== undefined && answered !== expected) throw new GenesisHashMismatchError(chainId, expected, answered);
  const health = await rpc.getHealth().send({ abortSignal: AbortSignal.timeout(timeoutMs) });
  if (health !== 'ok') throw new Error(`getHealth answered ${JSON.stringify(health)}`);
}

const ERROR_LOG_INTERVAL_MS = 30_000;
/** A blockhash is valid for 150 blocks (about 60 s); one older than this is not offered. */
const STALE_AFTER_MS = 45_000;
const MAX_RETRY_DELAY_MS = 2000;

interface Node {
  readonly entry: SolanaNodeEntry;
  state: ChainLiquidityStatus['state'];
  cluster?: SvmClusterState;
  readAt?: number;
  refreshes: number;
  lastError?: { message: string; at: string };
  lastLoggedAt?: number;
  delayMs: number;
  timer?: NodeJS.Timeout;
  /** The read or check a timer started, until it settles (stop() waits for it). */
  inFlight?: Promise<unknown>;
}

/** The CHAINS_FILE entries the service checks and reads as Solana nodes (rpcCheck solanaGenesisHash). */
export function solanaNodeEntries(chains: ChainsConfig | undefined, catalog: Catalog): SolanaNodeEntry[] {
  return (chains?.chains ?? []).flatMap((c) => {
    const chain = catalog.getChain(c.chainId);
    return chain && familyOf(chain).rpcCheck === 'solanaGenesisHash' ? [{ chainId: c.chainId, rpcUrl: c.rpcUrl }] : [];
  });
}

export class SolanaNodes {
  private readonly nodes: Node[];
  private stopped = false;

  private logger: Logger | undefined;

  constructor(entries: readonly SolanaNodeEntry[], private readonly options: { timeoutMs: number; retryMs: number }) {
    this.nodes = entries.map((entry) => ({ entry, state: 'connecting', delayMs: options.retryMs, refreshes: 0 }));
  }

  /** What the chain's node said last (blockhash, prioritization fees); undefined before the first read or when stale. */
  cluster(chainId: number): SvmClusterState | undefined {
    const n = this.nodes.find((x) => x.entry.chainId === chainId);
    if (!n?.cluster || n.readAt === undefined || Date.now() - n.readAt > STALE_AFTER_MS) return undefined;
    return n.cluster;
  }

  /**
   * Checks every node once; returns the messages of wrong genesis hashes (the caller stops the start-up on them).
   * Nodes that do not answer are logged and asked again in the background.
   */
  async start(logger: Logger): Promise<string[]> {
    this.logger = logger;
    this.stopped = false;
    const outcomes = await Promise.all(this.nodes.map((n) => this.check(n)));
    return outcomes.flatMap((o) => (o instanceof GenesisHashMismatchError ? [o.message] : []));
  }

  /** Per node: `connecting` (not answered yet), `following` (answered the check; blockhash and fees read), `rejected` (wrong genesis hash). */
  status(): ChainLiquidityStatus[] {
    return this.nodes.map((n) => ({
      chainId: n.entry.chainId, state: n.state, poolsRead: 0, poolsMissing: 0, poolsFailed: 0, refreshes: n.refreshes,
      ...(n.lastError ? { lastError: { ...n.lastError } } : {}),
    }));
  }

  /** No read starts any more; resolves once the reads in flight have settled (the node is asked nothing after). */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const n of this.nodes) if (n.timer) clearTimeout(n.timer);
    await Promise.all(this.nodes.map((n) => n.inFlight?.catch(() => undefined)));
  }

  /** Reads the cluster's blockhash and recent fees, then again after the poll interval (until stop()). */
  private async read(n: Node): Promise<void> {
    const { chainId, rpcUrl } = n.entry;
    try {
      const rpc = createSolanaRpc(rpcUrl);
      const signal = () => AbortSignal.timeout(this.options.timeoutMs);
      const [{ value: latest }, fees] = await Promise.all([
        rpc.getLatestBlockhash({ commitment: 'confirmed' }).send({ abortSignal: signal() }),
        rpc.getRecentPrioritizationFees().send({ abortSignal: signal() }),
      ]);
      n.cluster = {
        blockhash: latest.blockhash,
        lastValidBlockHeight: BigInt(latest.lastValidBlockHeight),
        recentPrioritizationFees: fees.map((f) => BigInt(f.prioritizationFee)),
      };
      n.readAt = Date.now();
      n.refreshes += 1;
    } catch (error) {
      const message = ((error as Error)?.message ?? String(error)).split('\n')[0].slice(0, 200);
      n.lastError = { message, at: new Date().toISOString() };
      const now = Date.now();
      if (n.lastLoggedAt === undefined || now - n.lastLoggedAt >= ERROR_LOG_INTERVAL_MS) {
        n.lastLoggedAt = now;
        this.logger?.warn({ chainId, rpcUrl }, `chain ${chainId} (${rpcUrl}): reading its blockhash failed (${message}); asked again`);
      }
    }
    if (this.stopped) return;
    n.timer = setTimeout(() => {
      n.timer = undefined;
      n.inFlight = this.read(n);
    }, this.options.retryMs);
  }

  /** One check of a node; schedules the next one when it does not answer. Returns the mismatch, if any. */
  private async check(n: Node): Promise<GenesisHashMismatchError | undefined> {
    const { chainId, rpcUrl } = n.entry;
    const logger = this.logger!;
    try {
      await checkSolanaNode(rpcUrl, chainId, this.options.timeoutMs);
      if (this.stopped) return undefined;
      if (n.lastError) logger.info({ chainId, rpcUrl }, `chain ${chainId} (${rpcUrl}) answers now: its RPC is the chain's`);
      n.state = 'following';
      delete n.lastError;
      await this.read(n);
      return undefined;
    } catch (error) {
      if (this.stopped) return undefined;
      const message = ((error as Error)?.message ?? String(error)).split('\n')[0].slice(0, 200);
      n.lastError = { message, at: new Date().toISOString() };
      if (error instanceof GenesisHashMismatchError) {
        n.state = 'rejected';
        // at start the caller stops the start-up; later the node is no longer asked
        logger.error({ chainId, rpcUrl }, `CHAINS_FILE names the wrong RPC for chain ${chainId}: ${message}`);
        return error;
      }
      const now = Date.now();
      if (n.lastLoggedAt === undefined || now - n.lastLoggedAt >= ERROR_LOG_INTERVAL_MS) {
        n.lastLoggedAt = now;
        logger.warn({ chainId, rpcUrl }, `chain ${chainId} (${rpcUrl}) does not answer (${message}): advertised all the same, asked again until it does`);
      }
      n.timer = setTimeout(() => {
        n.timer = undefined;
        n.inFlight = this.check(n);
      }, n.delayMs);
      n.delayMs = Math.min(n.delayMs * 2, MAX_RETRY_DELAY_MS);
      return undefined;
    }
  }
}
