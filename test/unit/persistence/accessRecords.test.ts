/**
 * The usage recorder (src/persistence/accessRecords.ts): outcomes counted in memory per subject, operation and minute,
 * added to the database by flush; a flush the database refuses keeps its counts for the next one, and later flushes
 * still run (the usage of an outage is neither lost nor counted twice).
 */
import { sql } from 'kysely';
import type { AccessOutcome } from '../../../src/core/access/access';
import { UsageRecorder } from '../../../src/persistence/accessRecords';
import { databaseEngines, emptyTables } from '../../support/postgres';

const T0 = Date.UTC(2026, 10, 26, 12, 0, 0);
const outcome = (at: number, extra: Partial<AccessOutcome> = {}): AccessOutcome => ({
  at, operationId: 'getQuote', limit: 'quote', subject: { kind: 'client', clientId: '198.51.100.7' }, clientId: '198.51.100.7', outcome: 'admitted', ...extra,
});

describe.each(databaseEngines())('the usage recorder on $name', (engine) => {
  beforeAll(() => engine.start(), 120_000);
  afterAll(() => engine.stop());
  beforeEach(() => emptyTables(engine.shared()));
  const db = () => engine.shared().db;
  const totals = async () => {
    const rows = await db().selectFrom('usage_minutes').select(['operation_id', 'minute', 'requests', 'refused_429']).orderBy('minute').execute();
    return rows.map((r) => ({ operationId: r.operation_id, minute: new Date(r.minute).getTime() - T0, requests: Number(r.requests), refused429: Number(r.refused_429) }));
  };

  it('adds the counts of each minute to the database, a second flush adding to the first', async () => {
    const recorder = new UsageRecorder(db());
    recorder.record(outcome(T0 + 1_000));
    recorder.record(outcome(T0 + 2_000, { outcome: 'rate-limited' }));
    recorder.record(outcome(T0 + 61_000));
    await recorder.flush();
    recorder.record(outcome(T0 + 3_000));
    await recorder.flush();
    expect(await totals()).toEqual([
      { operationId: 'getQuote', minute: 0, requests: 3, refused429: 1 },
      { operationId: 'getQuote', minute: 60_000, requests: 1, refused429: 0 },
    ]);
  });

  it('keeps what a failed flush did not write for the next flush, which still runs', async () => {
    const errors: string[] = [];
    const recorder = new UsageRecorder(db(), { onError: (e) => errors.push(e.message) });
    recorder.record(outcome(T0 + 1_000));
    recorder.record(outcome(T0 + 2_000, { outcome: 'rate-limited' }));
    // the database refuses the writes: the table is away
    await sql`ALTER TABLE usage_minutes RENAME TO usage_minutes_away`.execute(db());
    await expect(recorder.flush()).rejects.toThrow();
    recorder.record(outcome(T0 + 3_000)); // counted during the outage
    await expect(recorder.flush()).rejects.toThrow();
    await sql`ALTER TABLE usage_minutes_away RENAME TO usage_minutes`.execute(db());
    await recorder.flush();
    expect(await totals()).toEqual([{ operationId: 'getQuote', minute: 0, requests: 3, refused429: 1 }]);
    // nothing left over: another flush adds nothing
    await recorder.flush();
    expect(await totals()).toEqual([{ operationId: 'getQuote', minute: 0, requests: 3, refused429: 1 }]);
    expect(errors).toEqual([]);
  });

  it('writes a flush in one transaction: a key×client write that fails leaves the usage unwritten too, for the retry', async () => {
    const recorder = new UsageRecorder(db());
    recorder.record(outcome(T0 + 1_000, { keyId: 'key_unknown', subject: { kind: 'key', keyId: 'key_unknown' } }));
    await sql`ALTER TABLE key_client_minutes RENAME TO key_client_minutes_away`.execute(db());
    await expect(recorder.flush()).rejects.toThrow();
    expect(await totals()).toEqual([]);
    await sql`ALTER TABLE key_client_minutes_away RENAME TO key_client_minutes`.execute(db());
    await recorder.flush();
    expect(await totals()).toEqual([{ operationId: 'getQuote', minute: 0, requests: 1, refused429: 0 }]);
  });
});
