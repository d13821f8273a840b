import { LRUCache } from 'lru-cache';
import { SlidingLog } from '../../core/access/slidingWindow';
import type { LimitDecision, LimiterStore } from './limiterStore';

export interface MemoryStoreOptions {
  /** Upper bound of the memory held by counters, in bytes (default 64 MiB). */
  readonly maxBytes?: number;
  /** Milliseconds since the epoch; tests inject a fake clock. */
  readonly clock?: () => number;
  /** Counters kept outside the bounded cache, never evicted (default: API keys' counters, "k:..."). */
  readonly pinned?: (bucket: string) => boolean;
}

export const DEFAULT_MEMORY_BYTES = 64 * 1024 * 1024;

/**
 * Counters in this process. Per-client counters live in an LRU cache bounded in bytes (8 bytes per
 * counted request): when full, the least recently used are dropped (those clients start afresh), so
 * a flood of client addresses cannot exhaust memory; a log is also dropped a window after its last
 * admitted request, when it can only be empty. API keys' counters are bounded by the key file
 * (number of keys x their limits) and are kept apart, never evicted.
 * consume() runs synchronously, so concurrent requests are counted exactly.
 */
export class MemoryLimiterStore implements LimiterStore {
  private readonly logs: LRUCache<string, SlidingLog>;
  private readonly pinnedLogs = new Map<string, SlidingLog>();
  private readonly isPinned: (bucket: string) => boolean;
  private readonly clock: () => number;

  constructor(options: MemoryStoreOptions = {}) {
    this.clock = options.clock ?? Date.now;
    this.isPinned = options.pinned ?? ((bucket) => bucket.startsWith('k:'));
    this.logs = new LRUCache<string, SlidingLog>({
      maxSize: options.maxBytes ?? DEFAULT_MEMORY_BYTES,
      sizeCalculation: (log) => log.bytes,
      perf: { now: () => this.clock() },
    });
  }

  consume(bucket: string, limit: number, windowMs: number): Promise<LimitDecision> {
    return Promise.resolve(this.consumeNow(bucket, limit, windowMs));
  }

  consumeNow(bucket: string, limit: number, windowMs: number): LimitDecision {
    const now = this.clock();
    if (this.isPinned(bucket)) {
      let pinned = this.pinnedLogs.get(bucket);
      if (!pinned) this.pinnedLogs.set(bucket, (pinned = new SlidingLog()));
      return pinned.consume(now, limit, windowMs);
    }
    // reading a log starts its TTL (one window) again, so that it is dropped a window after its last request
    const known = this.logs.get(bucket, { updateAgeOnGet: true });
    const log = known ?? new SlidingLog();
    const before = log.bytes;
    const decision = log.consume(now, limit, windowMs);
    // inserted when new, and again when its size changed (the cache is bounded in bytes)
    if (known === undefined || log.bytes !== before) this.logs.set(bucket, log, { ttl: windowMs });
    return decision;
  }

  /** Bytes held by the per-client counters (for tests and metrics). */
  get bytes(): number {
    return this.logs.calculatedSize;
  }

  /** Number of per-client counters. */
  get counters(): number {
    return this.logs.size;
  }

  /** Always answers: the counters are in this process. */
  ping(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.logs.clear();
    this.pinnedLogs.clear();
    return Promise.resolve();
  }
}
