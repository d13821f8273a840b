import { MINUTE_MS, TWO_HOURS_MS } from '../../../../src/core/access/policy';
import { decide, SlidingLog } from '../../../../src/core/access/slidingWindow';
import { MemoryLimiterStore } from '../../../../src/server/access/memoryStore';

/** Average requests per minute from the headers, the spec's formula. */
function averagePerMinute(limit: number, remaining: number, reset: number): number {
  return (limit - remaining) / ((7200 - reset) / 60);
}

describe('sliding-window log (fake clock)', () => {
  it('per-minute window: exact remaining and reset values up to and across the edge', () => {
    const log = new SlidingLog();
    const t0 = 1_000_000;
    expect(log.consume(t0, 3, MINUTE_MS)).toEqual({ allowed: true, limit: 3, remaining: 2, resetSeconds: 60 });
    expect(log.consume(t0 + 10_500, 3, MINUTE_MS)).toEqual({ allowed: true, limit: 3, remaining: 1, resetSeconds: 50 }); // 49.5 s, rounded up
    expect(log.consume(t0 + 20_000, 3, MINUTE_MS)).toEqual({ allowed: true, limit: 3, remaining: 0, resetSeconds: 40 });
    expect(log.consume(t0 + 30_000, 3, MINUTE_MS)).toEqual({ allowed: false, limit: 3, remaining: 0, resetSeconds: 30, retryAfterSeconds: 30 });
    // one millisecond before the oldest request leaves the window: still refused, reset rounds up to 1
    expect(log.consume(t0 + 59_999, 3, MINUTE_MS)).toEqual({ allowed: false, limit: 3, remaining: 0, resetSeconds: 1, retryAfterSeconds: 1 });
    // at the edge the oldest request (t0) is gone: admitted; the next oldest (t0+10.5 s) leaves in 10.5 s -> 11
    expect(log.consume(t0 + 60_000, 3, MINUTE_MS)).toEqual({ allowed: true, limit: 3, remaining: 0, resetSeconds: 11 });
    expect(log.consume(t0 + 70_499, 3, MINUTE_MS)).toMatchObject({ allowed: false, resetSeconds: 1 });
    expect(log.consume(t0 + 70_500, 3, MINUTE_MS)).toMatchObject({ allowed: true, remaining: 0, resetSeconds: 10 });
    // refused requests were not counted
    expect(log.count).toBe(3);
  });

  it('an idle window starts afresh: a full window later everything has left', () => {
    const log = new SlidingLog();
    for (let i = 0; i < 5; i += 1) log.consume(i * 1000, 5, MINUTE_MS);
    expect(log.consume(5000, 5, MINUTE_MS).allowed).toBe(false);
    expect(log.consume(4000 + MINUTE_MS, 5, MINUTE_MS)).toEqual({ allowed: true, limit: 5, remaining: 4, resetSeconds: 60 });
  });

  it('two-hour window used all at once: 12000 admitted at one instant, the next refused for 7200 s', () => {
    const log = new SlidingLog();
    const t0 = 5_000_000;
    let last = log.consume(t0, 12_000, TWO_HOURS_MS);
    for (let i = 1; i < 12_000; i += 1) last = log.consume(t0, 12_000, TWO_HOURS_MS);
    expect(last).toEqual({ allowed: true, limit: 12_000, remaining: 0, resetSeconds: 7200 });
    expect(log.consume(t0 + 1, 12_000, TWO_HOURS_MS)).toEqual({ allowed: false, limit: 12_000, remaining: 0, resetSeconds: 7200, retryAfterSeconds: 7200 });
    expect(log.consume(t0 + 3_600_000, 12_000, TWO_HOURS_MS)).toMatchObject({ allowed: false, resetSeconds: 3600 });
    // all of them leave together: the whole window is free again
    expect(log.consume(t0 + TWO_HOURS_MS, 12_000, TWO_HOURS_MS)).toEqual({ allowed: true, limit: 12_000, remaining: 11_999, resetSeconds: 7200 });
  });

  it('two-hour window spread: rolling, each request frees its slot exactly two hours after it was made', () => {
    const log = new SlidingLog();
    const t0 = 0;
    // 75 requests, one a minute
    for (let i = 0; i < 75; i += 1) expect(log.consume(t0 + i * MINUTE_MS, 75, TWO_HOURS_MS).allowed).toBe(true);
    const full = log.consume(t0 + 75 * MINUTE_MS, 75, TWO_HOURS_MS);
    // oldest at t0 leaves at 120 min: 45 min = 2700 s from now
    expect(full).toEqual({ allowed: false, limit: 75, remaining: 0, resetSeconds: 2700, retryAfterSeconds: 2700 });
    // at 120 min, one slot (the request of minute 0) is free
    expect(log.consume(t0 + 120 * MINUTE_MS, 75, TWO_HOURS_MS)).toEqual({ allowed: true, limit: 75, remaining: 0, resetSeconds: 60 });
    expect(log.consume(t0 + 120 * MINUTE_MS + 1, 75, TWO_HOURS_MS)).toMatchObject({ allowed: false, resetSeconds: 60 });
    // at 150 min the requests of minutes 1..30 have left too: 30 more slots; 29 of them used now
    for (let i = 0; i < 29; i += 1) log.consume(t0 + 150 * MINUTE_MS, 75, TWO_HOURS_MS);
    expect(log.consume(t0 + 150 * MINUTE_MS, 75, TWO_HOURS_MS)).toEqual({ allowed: true, limit: 75, remaining: 0, resetSeconds: 60 });
    expect(log.consume(t0 + 150 * MINUTE_MS, 75, TWO_HOURS_MS).allowed).toBe(false);
  });

  it('headers satisfy the spec formula: average per minute since the oldest counted request', () => {
    const log = new SlidingLog();
    // 100 requests per minute for 30 minutes, evenly spaced (600 ms apart)
    let decision = log.consume(0, 12_000, TWO_HOURS_MS);
    for (let i = 1; i < 3000; i += 1) decision = log.consume(i * 600, 12_000, TWO_HOURS_MS);
    const now = 2999 * 600;
    expect(decision.remaining).toBe(9000);
    expect(decision.resetSeconds).toBe(Math.ceil((TWO_HOURS_MS - now) / 1000));
    // 3000 requests over 29.99 minutes since the first
    expect(averagePerMinute(decision.limit, decision.remaining, decision.resetSeconds)).toBeCloseTo(3000 / ((now - 200) / 60_000), 0);
    expect(averagePerMinute(decision.limit, decision.remaining, decision.resetSeconds)).toBeGreaterThanOrEqual(100);
    expect(averagePerMinute(decision.limit, decision.remaining, decision.resetSeconds)).toBeLessThan(100.1);
  });

  it('decide bounds reset to 1..window and remaining at 0', () => {
    expect(decide(true, 10, MINUTE_MS, 1000, 1, 1000)).toEqual({ allowed: true, limit: 10, remaining: 9, resetSeconds: 60 });
    expect(decide(false, 10, MINUTE_MS, 1000, 12, 0)).toEqual({ allowed: false, limit: 10, remaining: 0, resetSeconds: 59, retryAfterSeconds: 59 });
    expect(decide(false, 10, MINUTE_MS, 1000, 0, undefined)).toMatchObject({ resetSeconds: 60 });
  });

  it('the ring buffer keeps order across growth and wrap-around', () => {
    const log = new SlidingLog(2);
    for (let i = 0; i < 1000; i += 1) {
      const d = log.consume(i * 100, 50, 5000);
      expect(d.allowed).toBe(true);
      expect(log.count).toBe(Math.min(i + 1, 50));
      expect(log.oldest()).toBe(Math.max(0, i - 49) * 100);
    }
    expect(log.bytes).toBeLessThanOrEqual(64 * 8 + 64);
  });
});

describe('MemoryLimiterStore', () => {
  it('counts per bucket with the injected clock', async () => {
    let now = 0;
    const store = new MemoryLimiterStore({ clock: () => now });
    expect(await store.consume('a', 2, MINUTE_MS)).toMatchObject({ allowed: true, remaining: 1 });
    expect(await store.consume('a', 2, MINUTE_MS)).toMatchObject({ allowed: true, remaining: 0 });
    expect(await store.consume('a', 2, MINUTE_MS)).toMatchObject({ allowed: false, resetSeconds: 60 });
    expect(await store.consume('b', 2, MINUTE_MS)).toMatchObject({ allowed: true, remaining: 1 });
    now = 30_000;
    expect(await store.consume('a', 2, MINUTE_MS)).toMatchObject({ allowed: false, resetSeconds: 30, retryAfterSeconds: 30 });
    now = 60_000; // both requests of t=0 have left
    expect(await store.consume('a', 2, MINUTE_MS)).toMatchObject({ allowed: true, remaining: 1, resetSeconds: 60 });
  });

  it('200 concurrent requests at the edge of a limit admit exactly the limit', async () => {
    const store = new MemoryLimiterStore({ clock: () => 1000 });
    for (let i = 0; i < 60; i += 1) await store.consume('edge', 75, TWO_HOURS_MS);
    const decisions = await Promise.all(Array.from({ length: 200 }, () => store.consume('edge', 75, TWO_HOURS_MS)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(15);
    const fresh = await Promise.all(Array.from({ length: 200 }, () => store.consume('fresh', 100, MINUTE_MS)));
    expect(fresh.filter((d) => d.allowed)).toHaveLength(100);
    expect(new Set(fresh.filter((d) => d.allowed).map((d) => d.remaining)).size).toBe(100);
  });

  it('bounds its memory: old clients are evicted when the byte budget is spent', async () => {
    const store = new MemoryLimiterStore({ clock: () => 0, maxBytes: 64 * 1024 });
    for (let i = 0; i < 10_000; i += 1) await store.consume(`client-${i}`, 100, MINUTE_MS);
    expect(store.bytes).toBeLessThanOrEqual(64 * 1024);
    expect(store.counters).toBeLessThan(10_000);
    // the most recent client is still counted
    expect(await store.consume('client-9999', 100, MINUTE_MS)).toMatchObject({ remaining: 98 });
  });

  it('a counter idle for a whole window starts afresh', async () => {
    let now = 0;
    const store = new MemoryLimiterStore({ clock: () => now });
    await store.consume('x', 5, MINUTE_MS);
    expect(store.counters).toBe(1);
    now = MINUTE_MS + 1;
    expect(await store.consume('y', 5, MINUTE_MS)).toMatchObject({ remaining: 4 });
    expect(await store.consume('x', 5, MINUTE_MS)).toMatchObject({ remaining: 4, resetSeconds: 60 });
  });
});

describe('MemoryLimiterStore pinned counters', () => {
  it('keeps API keys\' counters out of the bounded cache, so a large key window is never evicted', async () => {
    const store = new MemoryLimiterStore({ clock: () => 0, maxBytes: 4096 });
    for (let i = 0; i < 2000; i += 1) expect((await store.consume('k:key_big:quote', 12_000, TWO_HOURS_MS)).allowed).toBe(true);
    for (let i = 0; i < 100; i += 1) await store.consume(`c:10.0.0.${i}:minute`, 100, MINUTE_MS);
    expect(await store.consume('k:key_big:quote', 12_000, TWO_HOURS_MS)).toMatchObject({ remaining: 9999 });
    expect(store.bytes).toBeLessThanOrEqual(4096);
  });
});
