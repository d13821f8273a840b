/**
 * When a failed webhook delivery is tried again: soon at first (a receiver restarting, a lost answer), then further
 * apart (a receiver down for hours), then never: ten retries over about 22 hours, eleven attempts in all.
 *
 * Optional jitter spreads the retries of many deliveries that failed together (a receiver's outage) so that they do
 * not all come back in the same second; it is a pure function of a random number the caller draws, so that the
 * schedule stays testable.
 */

/** The delay before retry n (index n - 1): 10 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 6 h, 8 h. */
export const RETRY_DELAYS_MS: readonly number[] = [10, 30, 120, 600, 1800, 3600, 7200, 14_400, 21_600, 28_800].map((s) => s * 1000);

/** Attempts of one delivery in all: the first and its retries. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** How far jitter moves a delay, either way: ±10 % keeps the schedule increasing (consecutive steps differ by ⅓ or more). */
const JITTER = 0.1;

/**
 * The delay before the next attempt of a delivery that has failed `attempt` times (1 after the first attempt
 * failed), or undefined when it is to be given up. With `random` (a number in [0, 1), e.g. Math.random()), the delay
 * is moved by up to ±10 %, proportionally; without it, it is the schedule's own. Throws a RangeError for an
 * `attempt` that is not a positive integer or a `random` outside [0, 1).
 */
export function nextAttemptDelayMs(attempt: number, random?: number): number | undefined {
  if (!Number.isSafeInteger(attempt) || attempt < 1) throw new RangeError(`attempt counts the failed attempts, from 1 (got ${attempt})`);
  if (random !== undefined && !(random >= 0 && random < 1)) throw new RangeError(`random must be in [0, 1) (got ${random})`);
  const base = RETRY_DELAYS_MS[attempt - 1];
  if (base === undefined) return undefined;
  if (random === undefined) return base;
  return Math.round(base * (1 - JITTER + 2 * JITTER * random));
}
