import { MAX_ATTEMPTS, nextAttemptDelayMs, RETRY_DELAYS_MS } from '../../../src/webhooks/backoff';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** The delays before each retry, until the schedule gives up. */
function schedule(random?: number): number[] {
  const delays: number[] = [];
  for (let attempt = 1; ; attempt += 1) {
    const delay = nextAttemptDelayMs(attempt, random);
    if (delay === undefined) return delays;
    delays.push(delay);
  }
}

test('the schedule: 10 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 6 h, 8 h, then give up', () => {
  expect(schedule()).toEqual([10 * SECOND, 30 * SECOND, 2 * MINUTE, 10 * MINUTE, 30 * MINUTE, HOUR, 2 * HOUR, 4 * HOUR, 6 * HOUR, 8 * HOUR]);
  expect(RETRY_DELAYS_MS).toEqual(schedule());
  expect(nextAttemptDelayMs(1)).toBe(10 * SECOND);
  expect(nextAttemptDelayMs(10)).toBe(8 * HOUR);
  expect(nextAttemptDelayMs(11)).toBeUndefined();
  expect(nextAttemptDelayMs(1000)).toBeUndefined();
});

test('it ends: MAX_ATTEMPTS counts the first attempt and every retry', () => {
  expect(MAX_ATTEMPTS).toBe(11);
  expect(schedule()).toHaveLength(MAX_ATTEMPTS - 1);
  expect(nextAttemptDelayMs(MAX_ATTEMPTS - 1)).toBeDefined();
  expect(nextAttemptDelayMs(MAX_ATTEMPTS)).toBeUndefined();
});

test.each([undefined, 0, 0.5, 0.999_999])('increasing and bounded, with random %p', (random) => {
  const delays = schedule(random);
  expect(delays).toHaveLength(MAX_ATTEMPTS - 1);
  for (let i = 1; i < delays.length; i += 1) expect(delays[i]!).toBeGreaterThan(delays[i - 1]!);
  for (const delay of delays) {
    expect(Number.isInteger(delay)).toBe(true);
    expect(delay).toBeGreaterThanOrEqual(9 * SECOND);
    expect(delay).toBeLessThanOrEqual(8.8 * HOUR);
  }
  // given up after about a day in all
  const total = delays.reduce((sum, d) => sum + d, 0);
  expect(total).toBeGreaterThan(19 * HOUR);
  expect(total).toBeLessThan(24 * HOUR);
});

test('jitter is a pure function of the random number given: ±10 %', () => {
  expect(nextAttemptDelayMs(1, 0)).toBe(9 * SECOND);
  expect(nextAttemptDelayMs(1, 0.5)).toBe(10 * SECOND);
  expect(nextAttemptDelayMs(1, 0.75)).toBe(10.5 * SECOND);
  expect(nextAttemptDelayMs(6, 0.25)).toBe(0.95 * HOUR);
  expect(nextAttemptDelayMs(6, 0.25)).toBe(nextAttemptDelayMs(6, 0.25));
  expect(nextAttemptDelayMs(11, 0.3)).toBeUndefined();
});

test.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('attempt %p is refused: it counts failures from 1', (attempt) => {
  expect(() => nextAttemptDelayMs(attempt)).toThrow(RangeError);
});

test.each([-0.1, 1, 2, Number.NaN])('random %p outside [0, 1) is refused', (random) => {
  expect(() => nextAttemptDelayMs(1, random)).toThrow(RangeError);
});
