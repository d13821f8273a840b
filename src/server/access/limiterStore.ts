import type { LimitDecision } from '../../core/access/slidingWindow';

export type { LimitDecision };

/** Where the rolling-window counters live: in this process, or in Redis shared by every instance. */
export interface LimiterStore {
  /** Counts one request against `bucket` if it has room, atomically, and says what the headers must say. */
  consume(bucket: string, limit: number, windowMs: number): Promise<LimitDecision>;
  /** The same, decided at once, for a store that can (in memory): asked instead of `consume` when present. */
  consumeNow?(bucket: string, limit: number, windowMs: number): LimitDecision;
  /** Resolves when the store answers (readiness: src/server/operations.ts); rejects saying why not. */
  ping(): Promise<void>;
  /** Releases connections and timers. */
  close(): Promise<void>;
}
