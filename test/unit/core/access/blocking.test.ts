import { BLOCKING_DEFAULTS, blockMinutes, blocksToMake, type UsageWindow } from '../../../../src/core/access/blocking';

const none = { active: () => false, earlierBlocks: () => 0 };
const empty: UsageWindow = { subjects: [], totalExpensive: 0, keysByAddress: [], foreignAddressesByKey: [] };

describe('automatic blocking rules', () => {
  it('sustained 429: 10 of the last 15 minutes blocks; 9 does not; a caller at 90 % of its limits has no 429 at all', () => {
    const usage = (minutesWith429: number): UsageWindow => ({ ...empty, subjects: [{ subject: { kind: 'key', id: 'key_a' }, minutesWith429, expensive: 0, expensive429: 0 }] });
    expect(blocksToMake(usage(10), BLOCKING_DEFAULTS, none)).toEqual([
      { subject: { kind: 'key', id: 'key_a' }, rule: 'sustained-429', reason: 'persistently exceeding its limits: refused with 429 in 10 of the last 15 minutes', minutes: 15 },
    ]);
    expect(blocksToMake(usage(9), BLOCKING_DEFAULTS, none)).toEqual([]);
    // 90 % of its limits: every request admitted, even taking every route search of the service
    const wellBehaved: UsageWindow = { ...empty, subjects: [{ subject: { kind: 'key', id: 'key_busy' }, minutesWith429: 0, expensive: 10_800, expensive429: 0 }], totalExpensive: 10_800 };
    expect(blocksToMake(wellBehaved, BLOCKING_DEFAULTS, none)).toEqual([]);
  });

  it('several keys from one address: blocked when it also runs into limits', () => {
    const usage = (keyIds: string[], refused429: boolean): UsageWindow => ({ ...empty, keysByAddress: [{ clientId: '203.0.113.7', keyIds, refused429 }] });
    expect(blocksToMake(usage(['a', 'b', 'c'], true), BLOCKING_DEFAULTS, none)).toMatchObject([{ subject: { kind: 'client', id: '203.0.113.7' }, rule: 'keys-per-address' }]);
    expect(blocksToMake(usage(['a', 'b', 'c'], false), BLOCKING_DEFAULTS, none)).toEqual([]);
    expect(blocksToMake(usage(['a', 'b', 'b'], true), BLOCKING_DEFAULTS, none)).toEqual([]);
  });

  it('one key spread over addresses outside its allowlist: the foreign addresses are blocked, never the key', () => {
    const usage: UsageWindow = { ...empty, foreignAddressesByKey: [{ keyId: 'key_f', clientIds: ['198.51.100.1', '198.51.100.2', '2001:db8:1::/64'] }] };
    const made = blocksToMake(usage, BLOCKING_DEFAULTS, none);
    expect(made.map((b) => b.subject)).toEqual([{ kind: 'client', id: '198.51.100.1' }, { kind: 'client', id: '198.51.100.2' }, { kind: 'client', id: '2001:db8:1::/64' }]);
    for (const b of made) expect(b).toMatchObject({ rule: 'key-spread', reason: 'using API key key_f outside its allowlist: the key was presented from 3 addresses outside its allowlist in the last 15 minutes' });
    expect(blocksToMake({ ...usage, foreignAddressesByKey: [{ keyId: 'key_f', clientIds: ['198.51.100.1', '198.51.100.2'] }] }, BLOCKING_DEFAULTS, none)).toEqual([]);
  });

  it('a sustained share of the most expensive requests, past the limits', () => {
    const usage = (expensive: number, total: number, expensive429: number): UsageWindow => ({
      ...empty, totalExpensive: total, subjects: [{ subject: { kind: 'client', id: '192.0.2.1' }, minutesWith429: 2, expensive, expensive429 }],
    });
    expect(blocksToMake(usage(2000, 4000, 1), BLOCKING_DEFAULTS, none)).toMatchObject([{ rule: 'expensive-share', reason: expect.stringContaining('50 % of all route searches') }]);
    expect(blocksToMake(usage(1999, 2000, 1), BLOCKING_DEFAULTS, none)).toEqual([]);
    expect(blocksToMake(usage(2000, 4001, 1), BLOCKING_DEFAULTS, none)).toEqual([]);
    expect(blocksToMake(usage(2000, 2000, 0), BLOCKING_DEFAULTS, none)).toEqual([]);
  });

  it('one block per subject; an active block is not made again; the duration grows with earlier blocks', () => {
    const usage: UsageWindow = {
      subjects: [{ subject: { kind: 'client', id: 'c' }, minutesWith429: 15, expensive: 5000, expensive429: 10 }],
      totalExpensive: 5000, keysByAddress: [{ clientId: 'c', keyIds: ['a', 'b', 'c'], refused429: true }], foreignAddressesByKey: [],
    };
    expect(blocksToMake(usage, BLOCKING_DEFAULTS, none)).toMatchObject([{ rule: 'sustained-429', minutes: 15 }]);
    expect(blocksToMake(usage, BLOCKING_DEFAULTS, { active: () => true, earlierBlocks: () => 0 })).toEqual([]);
    expect(blocksToMake(usage, BLOCKING_DEFAULTS, { active: () => false, earlierBlocks: () => 2 })).toMatchObject([{ minutes: 240 }]);
    expect([0, 1, 2, 3, 4, 9].map((n) => blockMinutes(n, BLOCKING_DEFAULTS))).toEqual([15, 60, 240, 960, 1440, 1440]);
  });
});
