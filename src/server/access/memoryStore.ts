import { LRUCache } from 'lru-cache';
import { SlidingLog } from '../../core/access/slidingWindow';
import type { LimitDecision, LimiterStore } from './limiterStore';

export interface MemoryStoreOptions {
  /** Upper bound of the memory held by counters, in bytes (default 64 MiB). */
  readonly maxBytes?: number;
  /** Milliseconds since the epoch; tests inject a fake clock. */
  readonly clock?: () => number;
}

export const DEFAULT_MEMORY_BYTES = 64 * 1024 * 1024;

/**
 * Counters in this process, bounded: an LRU cache sized by the bytes of each sliding log (8 bytes per
 * counted request). When full, the least recently used counters are dropped (their clients start
 * afresh), so a flood of new client addresses cannot exhaust memory. A log is also dropped a window
 * after its last admitted request, when it can only be empty.
 * consume() runs synchronously, so concurrent requests are counted exactly.
 */
export class MemoryLimiterStore implements LimiterStore {
  private readonly logs: LRUCache<string, SlidingLog>;
  private readonly clock: () => number;

  constructor(options: MemoryStoreOptions = {}) {
    this.clock = options.clock ?? Date.now;
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
    const log = this.logs.get(bucket) ?? new SlidingLog();
    const before = log.bytes;
    const decision = log.consume(now, limit, windowMs);
    // re-insert when counted (new TTL: one window from now) or when the log's size changed
    if (decision.allowed || log.bytes !== before || !this.logs.has(bucket)) {
      this.logs.set(bucket, log, { ttl: windowMs });
    }
    return decision;
  }

  /** Bytes currently held (for tests and metrics). */
  get bytes(): number {
    return this.logs.calculatedSize;
  }

  get counters(): number {
    return this.logs.size;
  }

  close(): Promise<void> {
    this.logs.clear();
    return Promise.resolve();
  }
}
