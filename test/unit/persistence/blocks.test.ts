import { activeBlocks, block, blockCount, liftBlocks, listBlocks } from '../../../src/persistence/blocks';
import { InvalidValueError } from '../../../src/persistence/errors';
import { keyEvents } from '../../../src/persistence/keyEvents';
import { createKey } from '../../../src/persistence/keys';
import type { Subject } from '../../../src/persistence/schema';
import { databaseEngines, emptyTables } from '../../support/postgres';

const T0 = new Date('2025-01-01T00:00:00Z');
const MINUTE = 60_000;
const at = (ms: number) => new Date(T0.getTime() + ms);
const client: Subject = { kind: 'client', id: '198.51.100.7' };
/** Doubles with every repeat: 15 minutes, 30, 60... */
const growing = (since: Date) => (level: number) => new Date(since.getTime() + 15 * MINUTE * 2 ** (level - 1));

describe.each(databaseEngines())('blocks on $name', (engine) => {
  beforeAll(() => engine.start(), 120_000);
  afterAll(() => engine.stop());
  beforeEach(() => emptyTables(engine.shared()));
  const db = () => engine.shared().db;

  it('a repeat offender\'s blocks grow: the level counts the subject\'s earlier blocks', async () => {
    const first = await block(db(), { subject: client, rule: 'sustained-429', reason: '429 for 10 minutes', actor: 'detector', now: T0, until: growing(T0) });
    expect(first).toEqual({ id: expect.any(Number), subject: client, rule: 'sustained-429', reason: '429 for 10 minutes', since: T0.toISOString(), until: at(15 * MINUTE).toISOString(), level: 1, createdBy: 'detector' });
    expect(await activeBlocks(db(), client, at(15 * MINUTE - 1))).toEqual([first]);
    expect(await activeBlocks(db(), client, at(15 * MINUTE))).toEqual([]);

    const second = await block(db(), { subject: client, rule: 'sustained-429', reason: 'again', actor: 'detector', now: at(HOURS(1)), until: growing(at(HOURS(1))) });
    expect(second).toMatchObject({ level: 2, until: at(HOURS(1) + 30 * MINUTE).toISOString() });
    expect(await blockCount(db(), client)).toBe(2);
    expect(await blockCount(db(), { kind: 'client', id: '198.51.100.8' })).toBe(0);
  });

  it('blocks of one subject at the same moment get distinct levels', async () => {
    const made = await Promise.all(Array.from({ length: 5 }, () => block(db(), { subject: client, rule: 'keys-per-address', reason: 'r', actor: 'detector', now: T0 })));
    expect(made.map((b) => b.level).sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it('lift ends every block in force of the subject, manual and automatic, and keeps them in the history', async () => {
    await block(db(), { subject: client, rule: 'manual', reason: 'ops', actor: 'cli:ops', now: T0 });
    await block(db(), { subject: client, rule: 'key-spread', reason: 'many keys', actor: 'detector', now: at(MINUTE), until: at(HOURS(1)) });
    const ended = await block(db(), { subject: client, rule: 'sustained-429', reason: 'old', actor: 'detector', now: at(2 * MINUTE), until: at(3 * MINUTE) });
    const other = await block(db(), { subject: { kind: 'client', id: '2001:db8:1:2::/64' }, rule: 'expensive-share', reason: 'r', actor: 'detector', now: T0 });

    const lifted = await liftBlocks(db(), client, { actor: 'cli:ops', now: at(10 * MINUTE) });
    expect(lifted.map((b) => [b.rule, b.liftedAt, b.liftedBy])).toEqual([
      ['key-spread', at(10 * MINUTE).toISOString(), 'cli:ops'],
      ['manual', at(10 * MINUTE).toISOString(), 'cli:ops'],
    ]);
    expect(await activeBlocks(db(), client, at(10 * MINUTE))).toEqual([]);
    expect(await liftBlocks(db(), client, { actor: 'cli:ops', now: at(11 * MINUTE) })).toEqual([]);
    expect((await listBlocks(db(), { active: true, now: at(10 * MINUTE) })).map((b) => b.id)).toEqual([other.id]);
    expect((await listBlocks(db(), { active: false, now: at(10 * MINUTE) })).map((b) => b.rule)).toEqual(['sustained-429', 'key-spread', 'manual']);
    expect((await listBlocks(db(), { subject: client })).map((b) => b.id)).toContain(ended.id);
    expect(await listBlocks(db(), { limit: 1 })).toHaveLength(1);
  });

  it('a block of a key goes into the key\'s log; a block of a client address into none', async () => {
    const { view } = await createKey(db(), { name: 'a' }, { actor: 'cli:ops', now: T0 });
    await block(db(), { subject: { kind: 'key', id: view.id }, rule: 'sustained-429', reason: 'r', actor: 'detector', now: at(MINUTE), until: at(HOURS(1)) });
    await liftBlocks(db(), { kind: 'key', id: view.id }, { actor: 'cli:ops', now: at(2 * MINUTE) });
    await block(db(), { subject: client, rule: 'manual', reason: 'r', actor: 'cli:ops', now: T0 });
    expect((await keyEvents(db(), view.id)).map((e) => [e.type, e.actor, e.detail])).toEqual([
      ['created', 'cli:ops', { name: 'a' }],
      ['blocked', 'detector', { rule: 'sustained-429', reason: 'r', until: at(HOURS(1)).toISOString(), level: 1 }],
      ['unblocked', 'cli:ops', { lifted: [{ rule: 'sustained-429', since: at(MINUTE).toISOString() }] }],
    ]);
    // a key id that is no key (yet) can be blocked all the same
    await block(db(), { subject: { kind: 'key', id: 'key_unknown' }, rule: 'manual', reason: 'r', actor: 'x', now: T0 });
    expect(await activeBlocks(db(), { kind: 'key', id: 'key_unknown' }, T0)).toHaveLength(1);
  });

  it('a block must end after it starts', async () => {
    await expect(block(db(), { subject: client, rule: 'manual', reason: 'r', actor: 'x', now: T0, until: T0 })).rejects.toThrow(InvalidValueError);
    expect(await blockCount(db(), client)).toBe(0);
  });
});

function HOURS(n: number): number {
  return n * 60 * MINUTE;
}
