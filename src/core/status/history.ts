/**
 * The transfer history (GET /v1/analytics/transfers and its paged and summary forms): what the service's index of
 * transfers answers (src/persistence/transfers.ts, filled by src/chain/transferIndexer.ts). A port: the use cases
 * read it, the composition root provides it when the service has a database.
 */
import type { TransferStatus } from './transferStatus';

export interface TransferFilter {
  /** Transfers sent from or to this address (compared in lower case). */
  readonly wallet?: string;
  readonly integrator?: string;
  readonly status?: 'PENDING' | 'DONE' | 'FAILED';
  /** Sent at or after (inclusive), before or at (inclusive). */
  readonly from?: Date;
  readonly to?: Date;
}

/** Where a page ends: the last row's start and sequence number (opaque to clients: pageCursor.ts). */
export interface PagePosition {
  readonly startedAt: number;
  readonly seq: string;
}

export interface TransferPage {
  readonly transfers: readonly TransferStatus[];
  /** Where the next page starts; undefined on the last page. */
  readonly next?: PagePosition;
}

export interface SummaryGroup<K> {
  readonly key: K;
  readonly count: number;
  /** Sum of the sent amounts' USD values that are known (display only). */
  readonly volumeUsd: number;
}

export interface TransferSummary {
  readonly count: number;
  readonly volumeUsd: number;
  readonly byStatus: readonly SummaryGroup<string>[];
  readonly byChain: readonly SummaryGroup<number>[];
  readonly byTool: readonly SummaryGroup<string>[];
}

export interface TransferHistory {
  /** Transfers matching `filter`, newest first, `limit` at most, after `after` (a previous page's `next`). */
  list(filter: TransferFilter, page: { readonly limit: number; readonly after?: PagePosition }): Promise<TransferPage>;
  summary(filter: TransferFilter): Promise<TransferSummary>;
  /** The transfer of a sending transaction hash or a transfer id, if indexed. */
  find(ref: string): Promise<TransferStatus | undefined>;
  /**
   * Keeps a failed transfer that a status request read on the chains: a reverted transaction emits no event, so the
   * indexer, which follows the router's events, never finds it (the ecosystem's clients ask for the status of every
   * transaction they send, so a failed one is known as soon as its sender looks).
   */
  rememberFailed(status: TransferStatus): Promise<void>;
}

/**
 * A sending transaction as the index keys it: a hex hash lower-cased (its case means nothing), any other reference as
 * it is (a Solana signature is base58, whose case is part of it: lower-cased it names no transaction).
 */
export function transactionKey(ref: string): string {
  return /^0x[0-9a-fA-F]*$/.test(ref) ? ref.toLowerCase() : ref;
}

/** A page cursor as clients see it: opaque text (base64url of the position). */
export function encodeCursor(position: PagePosition): string {
  return Buffer.from(`${position.startedAt}.${position.seq}`, 'utf8').toString('base64url');
}

/** The position of a cursor encodeCursor made; undefined for anything else. */
export function decodeCursor(cursor: string): PagePosition | undefined {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(cursor)) return undefined;
  const match = /^(\d{1,16})\.(\d{1,19})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return match ? { startedAt: Number(match[1]), seq: match[2]! } : undefined;
}
