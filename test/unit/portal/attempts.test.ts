import { AttemptLimiter, SIGN_IN_ATTEMPTS_PER_MINUTE } from '../../../src/portal/attempts';

test('allows `perMinute` attempts per client and minute, then says when to retry', () => {
  const clock = { now: 0 };
  const limiter = new AttemptLimiter({ perMinute: 2, clock: () => clock.now });
  expect(limiter.attempt('a')).toEqual({ allowed: true });
  expect(limiter.attempt('a')).toEqual({ allowed: true });
  expect(limiter.attempt('b')).toEqual({ allowed: true }); // each client its own count
  clock.now = 15_000;
  expect(limiter.attempt('a')).toEqual({ allowed: false, retryAfterSeconds: 45 });
  clock.now = 60_000;
  expect(limiter.attempt('a')).toEqual({ allowed: true });
});

test('defaults to 30 a minute', () => {
  const limiter = new AttemptLimiter({ clock: () => 0 });
  expect(limiter.perMinute).toBe(SIGN_IN_ATTEMPTS_PER_MINUTE);
  for (let i = 0; i < 30; i += 1) expect(limiter.attempt('a').allowed).toBe(true);
  expect(limiter.attempt('a').allowed).toBe(false);
});
