/**
 * The portal's own small limit on sign-in attempts (nonces asked, signed messages presented), per client address
 * and minute, so that one client cannot flood the nonce store or make the server check signatures without end.
 * The portal is outside /v1, so the API's rate limits do not apply to it. Counters live in a bounded LRU.
 */
import { LRUCache } from 'lru-cache';

/** Sign-in attempts a client address may make per minute (nonces and sign-ins each). */
export const SIGN_IN_ATTEMPTS_PER_MINUTE = 30;
const WINDOW_MS = 60_000;

export interface AttemptLimiterOptions {
  readonly perMinute?: number;
  /** The most client addresses counted at once. */
  readonly max?: number;
  readonly clock?: () => number;
}

/** A fixed one-minute window per client: `attempt` says whether one more is allowed, and when to retry if not. */
export class AttemptLimiter {
  private readonly windows: LRUCache<string, { start: number; count: number }>;
  readonly perMinute: number;
  private readonly clock: () => number;

  constructor(options: AttemptLimiterOptions = {}) {
    this.perMinute = options.perMinute ?? SIGN_IN_ATTEMPTS_PER_MINUTE;
    this.clock = options.clock ?? Date.now;
    this.windows = new LRUCache({ max: options.max ?? 10_000 });
  }

  /** Counts an attempt of `client`: allowed, or refused with the seconds until its window ends. */
  attempt(client: string): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
    const now = this.clock();
    let window = this.windows.get(client);
    if (!window || now - window.start >= WINDOW_MS) {
      window = { start: now, count: 0 };
      this.windows.set(client, window);
    }
    if (window.count >= this.perMinute) return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((window.start + WINDOW_MS - now) / 1000)) };
    window.count += 1;
    return { allowed: true };
  }
}
