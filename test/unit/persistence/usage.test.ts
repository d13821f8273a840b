import { InvalidValueError } from '../../../src/persistence/errors';
import type { Subject } from '../../../src/persistence/schema';
import { deleteUsageBefore, recordKeyClients, recordUsage, usageByOperation, usageSeries, usageWindow, type UsageIncrement } from '../../../src/persistence/usage';
import { databaseEngines, emptyTables } from '../../support/postgres';

const T0 = new Date('2025-01-01T00:00:00Z');
const MINUTE = 60_000;
const at = (ms: number) => new Date(T0.getTime() + ms);
const key: Subject = { kind: 'key', id: 'key_a' };
const zero = { requests: 0, refused401: 0, refused403: 0, refused429: 0 };

describe.each(databaseEngines())('usage on $name', (engine) => {
  beforeAll(() => engine.start(), 120_000);
  afterAll(() => engine.stop());
  beforeEach(() => emptyTables(engine.shared()));
  const db = () => engine.shared().db;

  it('record adds to the counters of the minute; a series answers every step, zeros included', async () => {
    await recordUsage(db(), [
      { subject: key, operationId: 'getQuote', at: at(5_000), requests: 3 },
      { subject: key, operationId: 'getQuote', at: at(59_999), requests: 2, refused429: 1 },
      { subject: key, operationId: 'getRoutes', at: at(MINUTE), requests: 4, refused403: 4 },
      { subject: key, operationId: 'getQuote', at: at(4 * MINUTE), requests: 1, refused401: 1 },
      { subject: { kind: 'client', id: '198.51.100.7' }, operationId: 'getQuote', at: T0, requests: 100 },
    ]);
    await recordUsage(db(), [{ subject: key, operationId: 'getQuote', at: at(30_000), requests: 10 }]);
    expect(await usageSeries(db(), { subject: key, from: T0, to: at(5 * MINUTE) })).toEqual([
      { at: T0.toISOString(), requests: 15, refused401: 0, refused403: 0, refused429: 1 },
      { at: at(MINUTE).toISOString(), requests: 4, refused401: 0, refused403: 4, refused429: 0 },
      { at: at(2 * MINUTE).toISOString(), ...zero },
      { at: at(3 * MINUTE).toISOString(), ...zero },
      { at: at(4 * MINUTE).toISOString(), requests: 1, refused401: 1, refused403: 0, refused429: 0 },
    ]);
    expect(await usageSeries(db(), { subject: key, from: at(20_000), to: at(5 * MINUTE), stepMinutes: 2 })).toEqual([
      { at: T0.toISOString(), requests: 19, refused401: 0, refused403: 4, refused429: 1 },
      { at: at(2 * MINUTE).toISOString(), ...zero },
      { at: at(4 * MINUTE).toISOString(), requests: 1, refused401: 1, refused403: 0, refused429: 0 },
    ]);
    expect(await usageSeries(db(), { subject: key, from: T0, to: at(2 * MINUTE), operationId: 'getRoutes' })).toEqual([
      { at: T0.toISOString(), ...zero },
      { at: at(MINUTE).toISOString(), requests: 4, refused401: 0, refused403: 4, refused429: 0 },
    ]);
    expect(await usageByOperation(db(), { subject: key, from: T0, to: at(10 * MINUTE) })).toEqual([
      { operationId: 'getQuote', requests: 16, refused401: 1, refused403: 0, refused429: 1 },
      { operationId: 'getRoutes', requests: 4, refused401: 0, refused403: 4, refused429: 0 },
    ]);
  });

  it('increments from two connections at the same time lose no count', async () => {
    const other = await engine.secondConnection();
    const batch = (n: number): UsageIncrement[] =>
      Array.from({ length: 50 }, (_, i) => ({ subject: key, operationId: i % 2 ? 'getQuote' : 'getRoutes', at: at((i % 3) * MINUTE), requests: n, refused429: 1 }));
    await Promise.all(Array.from({ length: 10 }, (_, i) => recordUsage((i % 2 ? other : engine.shared()).db, batch(i + 1))));
    const points = await usageSeries(db(), { subject: key, from: T0, to: at(3 * MINUTE) });
    // each batch: 50 increments of n requests; batches n = 1..10
    expect(points.reduce((sum, p) => sum + p.requests, 0)).toBe(50 * 55);
    expect(points.reduce((sum, p) => sum + p.refused429, 0)).toBe(500);
  });

  it('the window the blocking rules read: 429 minutes, route searches, keys per address, addresses outside an allowlist', async () => {
    const client = (id: string): Subject => ({ kind: 'client', id });
    await recordUsage(db(), [
      // key_a: refused with 429 in minutes 0, 1 and 3, mostly on route searches
      { subject: key, operationId: 'getQuote', at: at(0), requests: 10, refused429: 4 },
      { subject: key, operationId: 'getQuote', at: at(MINUTE), requests: 10, refused429: 1 },
      { subject: key, operationId: 'getChains', at: at(3 * MINUTE), requests: 5, refused429: 5 },
      { subject: key, operationId: 'getChains', at: at(20 * MINUTE), requests: 5, refused429: 5 }, // outside the window
      // a client without 429: not listed, but its route searches count in the total
      { subject: client('198.51.100.7'), operationId: 'getRoutes', at: at(0), requests: 30 },
      { subject: client('203.0.113.9'), operationId: 'getTools', at: at(2 * MINUTE), requests: 1, refused429: 1 },
    ]);
    await recordKeyClients(db(), [
      // 198.51.100.7 presents three keys and is refused with 429 on one
      { keyId: 'key_a', clientId: '198.51.100.7', at: at(0), requests: 5, refused429: 1 },
      { keyId: 'key_b', clientId: '198.51.100.7', at: at(MINUTE), requests: 5 },
      { keyId: 'key_c', clientId: '198.51.100.7', at: at(2 * MINUTE), requests: 5 },
      // 203.0.113.9 presents two keys, never refused with 429: not listed
      { keyId: 'key_a', clientId: '203.0.113.9', at: at(0), requests: 1 },
      { keyId: 'key_b', clientId: '203.0.113.9', at: at(0), requests: 1 },
      // key_b is used from two addresses outside its allowlist
      { keyId: 'key_b', clientId: '192.0.2.1', at: at(0), outsideAllowlist: 2 },
      { keyId: 'key_b', clientId: '192.0.2.2', at: at(MINUTE), outsideAllowlist: 1 },
      { keyId: 'key_b', clientId: '192.0.2.2', at: at(MINUTE), outsideAllowlist: 1 },
    ]);
    expect(await usageWindow(db(), { from: T0, to: at(15 * MINUTE), expensiveOperations: ['getQuote', 'getRoutes'] })).toEqual({
      subjects: [
        { subject: client('203.0.113.9'), minutesWith429: 1, expensive: 0, expensive429: 0 },
        { subject: key, minutesWith429: 3, expensive: 20, expensive429: 5 },
      ],
      totalExpensive: 50,
      keysByAddress: [{ clientId: '198.51.100.7', keyIds: ['key_a', 'key_b', 'key_c'], refused429: true }],
      foreignAddressesByKey: [{ keyId: 'key_b', clientIds: ['192.0.2.1', '192.0.2.2'] }],
    });
    expect(await usageWindow(db(), { from: at(30 * MINUTE), to: at(45 * MINUTE), expensiveOperations: ['getQuote'] })).toEqual({ subjects: [], totalExpensive: 0, keysByAddress: [], foreignAddressesByKey: [] });
    await expect(usageWindow(db(), { from: T0, to: at(MINUTE), expensiveOperations: [] })).rejects.toThrow(InvalidValueError);
    expect(await deleteUsageBefore(db(), at(60 * MINUTE))).toBe(6 + 7);
  });

  it('large batches, retention and bad input', async () => {
    const many: UsageIncrement[] = Array.from({ length: 2500 }, (_, i) => ({ subject: { kind: 'client', id: `10.0.${Math.floor(i / 250)}.${i % 250}` }, operationId: 'getChains', at: T0, requests: 1 }));
    await recordUsage(db(), many);
    await recordUsage(db(), [{ subject: key, operationId: 'getQuote', at: at(10 * MINUTE), requests: 1 }]);
    expect(await deleteUsageBefore(db(), at(MINUTE))).toBe(2500);
    expect(await usageSeries(db(), { subject: key, from: at(10 * MINUTE), to: at(11 * MINUTE) })).toEqual([{ at: at(10 * MINUTE).toISOString(), requests: 1, refused401: 0, refused403: 0, refused429: 0 }]);
    await expect(recordUsage(db(), [{ subject: key, operationId: 'x', at: T0, requests: -1 }])).rejects.toThrow(InvalidValueError);
    await expect(usageSeries(db(), { subject: key, from: T0, to: at(MINUTE), stepMinutes: 0 })).rejects.toThrow(InvalidValueError);
    await expect(usageSeries(db(), { subject: key, from: at(MINUTE), to: T0 })).rejects.toThrow(/end after it starts/);
    await expect(usageSeries(db(), { subject: key, from: T0, to: at(20_000 * MINUTE) })).rejects.toThrow(/at most 10000 points/);
    await recordUsage(db(), []);
  });
});
