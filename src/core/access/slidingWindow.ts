/**
 * The rolling window: a sliding-window log. Each admitted request is remembered with its time for
 * one window; a request is admitted while fewer than `limit` requests are remembered. Nothing is
 * smoothed or estimated, so a two-hour window of 12000 can be used all at once or spread, and the
 * headers are exact:
 *   ratelimit-limit     = limit
 *   ratelimit-remaining = limit − requests in the window (after this one, if admitted)
 *   ratelimit-reset     = seconds until the oldest remembered request leaves the window, rounded up
 *                         (when a slot frees; at most the window: 7200 or 60)
 * so that (limit − remaining) / ((7200 − reset) / 60) is the average rate, per minute, since the
 * oldest request still counted: the spec's formula. A refused request is not remembered, and its
 * Retry-After equals its ratelimit-reset.
 */

/** What a limiter store returns for one request. */
export interface LimitDecision {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Seconds until the oldest counted request leaves the window (1 to windowMs/1000). */
  readonly resetSeconds: number;
  /** When refused: seconds until a request would be admitted (= resetSeconds). */
  readonly retryAfterSeconds?: number;
}

/** Builds the decision from the state of the window after the request was (or was not) counted. */
export function decide(allowed: boolean, limit: number, windowMs: number, now: number, count: number, oldest: number | undefined): LimitDecision {
  const resetMs = oldest === undefined ? windowMs : Math.min(windowMs, Math.max(0, oldest + windowMs - now));
  const resetSeconds = Math.max(1, Math.ceil(resetMs / 1000));
  const remaining = Math.max(0, limit - count);
  return allowed ? { allowed, limit, remaining, resetSeconds } : { allowed, limit, remaining, resetSeconds, retryAfterSeconds: resetSeconds };
}

/**
 * The log of one counter: timestamps (ms) in a growable ring buffer, oldest first. A timestamp t
 * counts while now < t + windowMs. Memory is 8 bytes per counted request, at most `limit` of them.
 */
export class SlidingLog {
  private buffer: Float64Array;
  private head = 0;
  private size = 0;

  constructor(initialCapacity = 8) {
    this.buffer = new Float64Array(Math.max(1, initialCapacity));
  }

  get count(): number {
    return this.size;
  }

  /** Approximate memory held, in bytes (for the bounded cache). */
  get bytes(): number {
    return this.buffer.byteLength + 64;
  }

  /** Counts the request at `now` if the window has room. */
  consume(now: number, limit: number, windowMs: number): LimitDecision {
    this.expire(now, windowMs);
    const allowed = this.size < limit;
    if (allowed) this.push(now);
    return decide(allowed, limit, windowMs, now, this.size, this.oldest());
  }

  /** Drops the timestamps that have left the window. */
  expire(now: number, windowMs: number): void {
    while (this.size > 0 && this.buffer[this.head]! + windowMs <= now) {
      this.head = (this.head + 1) % this.buffer.length;
      this.size -= 1;
    }
  }

  oldest(): number | undefined {
    return this.size > 0 ? this.buffer[this.head] : undefined;
  }

  private push(now: number): void {
    if (this.size === this.buffer.length) this.grow();
    this.buffer[(this.head + this.size) % this.buffer.length] = now;
    this.size += 1;
  }

  private grow(): void {
    const next = new Float64Array(this.buffer.length * 2);
    for (let i = 0; i < this.size; i += 1) next[i] = this.buffer[(this.head + i) % this.buffer.length]!;
    this.buffer = next;
    this.head = 0;
  }
}
