/**
 * Chain mode's Solana entries (CHAINS_FILE names a Solana chain with rpcUrl only): the service reads nothing from them
 * yet, it checks at start that the URL serves the chain it is named for and advertises it (src/chain/catalog.ts).
 *
 * The check, as eth_chainId's on EVM chains (mode.ts): getGenesisHash must answer the chain's genesis hash
 * (src/core/chains/solana/cluster.ts; another hash stops the start-up, a configuration error) and getHealth "ok".
 * A node that does not answer (or is not healthy) does not stop the start: it is logged (first failure, then at most
 * every 30 s) and asked again, with a growing delay up to 2 s, until it answers; a wrong genesis hash then is logged
 * and the node is no longer asked. stop() clears the pending retry (no timer left).
 */
import { createSolanaRpc } from '@solana/kit';
import type { Logger } from 'pino';
import { genesisHashOf } from '../core/chains/solana/cluster';
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
const MAX_RETRY_DELAY_MS = 2000;

interface Node {
  readonly entry: SolanaNodeEntry;
  state: ChainLiquidityStatus['state'];
  lastError?: { message: string; at: string };
  lastLoggedAt?: number;
  delayMs: number;
  timer?: NodeJS.Timeout;
}

export class SolanaNodes {
  private readonly nodes: Node[];
  private stopped = false;

  constructor(entries: readonly SolanaNodeEntry[], private readonly options: { timeoutMs: number; retryMs: number; logger: Logger }) {
    this.nodes = entries.map((entry) => ({ entry, state: 'connecting', delayMs: options.retryMs }));
  }

  /**
   * Checks every node once; returns the messages of wrong genesis hashes (the caller stops the start-up on them).
   * Nodes that do not answer are logged and asked again in the background.
   */
  async start(): Promise<string[]> {
    const outcomes = await Promise.all(this.nodes.map((n) => this.check(n)));
    return outcomes.flatMap((o) => (o instanceof GenesisHashMismatchError ? [o.message] : []));
  }

  /** Per node: `connecting` (not answered yet), `following` (answered the check; nothing is read from it yet), `rejected` (wrong genesis hash). */
  status(): ChainLiquidityStatus[] {
    return this.nodes.map((n) => ({
      chainId: n.entry.chainId, state: n.state, poolsRead: 0, poolsMissing: 0, poolsFailed: 0, refreshes: 0,
      ...(n.lastError ? { lastError: { ...n.lastError } } : {}),
    }));
  }

  stop(): void {
    this.stopped = true;
    for (const n of this.nodes) if (n.timer) clearTimeout(n.timer);
  }

  /** One check of a node; schedules the next one when it does not answer. Returns the mismatch, if any. */
  private async check(n: Node): Promise<GenesisHashMismatchError | undefined> {
    const { chainId, rpcUrl } = n.entry;
    const { logger } = this.options;
    try {
      await checkSolanaNode(rpcUrl, chainId, this.options.timeoutMs);
      if (this.stopped) return undefined;
      if (n.lastError) logger.info({ chainId, rpcUrl }, `chain ${chainId} (${rpcUrl}) answers now: its RPC is the chain's`);
      n.state = 'following';
      delete n.lastError;
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
        void this.check(n);
      }, n.delayMs);
      n.delayMs = Math.min(n.delayMs * 2, MAX_RETRY_DELAY_MS);
      return undefined;
    }
  }
}
