import { hashApiKey } from '../../../src/core/access/keys';
import { liftBlocks, block } from '../../../src/persistence/blocks';
import { DatabaseKeyStore } from '../../../src/persistence/databaseKeyStore';
import { ConflictError, IntegratorBlockedError, InvalidValueError, NotFoundError } from '../../../src/persistence/errors';
import { keyEvents } from '../../../src/persistence/keyEvents';
import {
  blockKey,
  createKey,
  getKey,
  listKeys,
  renameKey,
  revokeKey,
  rotateKey,
  setKeyAllowlist,
  setKeyIntegrators,
  setKeyPerMinute,
  unblockKey,
} from '../../../src/persistence/keys';
import { registerIntegrator } from '../../../src/persistence/integrators';
import { databaseEngines, emptyTables } from '../../support/postgres';

const T0 = new Date('2025-01-01T00:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const by = { actor: 'cli:ops', now: T0 };
const HOUR = 3_600_000;

describe.each(databaseEngines())('keys on $name', (engine) => {
  beforeAll(() => engine.start(), 120_000);
  afterAll(() => engine.stop());
  beforeEach(() => emptyTables(engine.shared()));
  const db = () => engine.shared().db;

  it('create stores only the SHA-256 and shows the key once; the store authenticates it', async () => {
    const { key, view } = await createKey(db(), { name: 'acme backend', perMinute: 500, ipAllowlist: ['203.0.113.0/24', '2001:db8::/32'], integrators: ['acme'] }, by);
    expect(key).toMatch(/^svc_[A-Za-z0-9_-]{43}$/);
    expect(view).toEqual({
      id: expect.stringMatching(/^key_[0-9a-f]{12}$/),
      name: 'acme backend',
      createdAt: T0.toISOString(),
      perMinute: 500,
      ipAllowlist: ['203.0.113.0/24', '2001:db8::/32'],
      integrators: ['acme'],
    });
    const row = await db().selectFrom('api_keys').selectAll().executeTakeFirstOrThrow();
    expect(row.sha256).toBe(hashApiKey(key));
    expect(JSON.stringify(row)).not.toContain(key);

    const store = new DatabaseKeyStore(db(), { clock: () => T0.getTime() });
    const known = await store.authenticate(key);
    expect(known?.record).toEqual({ ...view, sha256: hashApiKey(key) });
    expect(known?.allowlist?.has('203.0.113.9')).toBe(true);
    expect(known?.allowlist?.has('198.51.100.1')).toBe(false);
    expect(await store.authenticate('svc_not-a-key')).toBeUndefined();
    expect((await store.list()).map((k) => k.record.id)).toEqual([view.id]);
    expect(await keyEvents(db(), view.id)).toEqual([
      { id: expect.any(Number), keyId: view.id, type: 'created', at: T0.toISOString(), actor: 'cli:ops', detail: { name: 'acme backend', perMinute: 500, ipAllowlist: ['203.0.113.0/24', '2001:db8::/32'], integrators: ['acme'] } },
    ]);
  });

  it('20 keys created at once are all distinct and all authenticate', async () => {
    const issued = await Promise.all(Array.from({ length: 20 }, (_, i) => createKey(db(), { name: `k${i}` }, by)));
    expect(new Set(issued.map((k) => k.view.id)).size).toBe(20);
    expect(new Set(issued.map((k) => k.key)).size).toBe(20);
    const store = new DatabaseKeyStore(db());
    const found = await Promise.all(issued.map((k) => store.authenticate(k.key)));
    expect(found.map((k) => k?.record.id)).toEqual(issued.map((k) => k.view.id));
    expect(await listKeys(db())).toHaveLength(20);
  });

  it('ids are unique; invalid settings are refused with the key file rules and nothing is written', async () => {
    await createKey(db(), { id: 'key_a', name: 'a' }, by);
    await expect(createKey(db(), { id: 'key_a', name: 'b' }, by)).rejects.toThrow(new ConflictError('a key with id "key_a" exists already'));
    await expect(createKey(db(), { name: 'c', perMinute: 0 }, by)).rejects.toThrow(/perMinute must be an integer from 1 to 1000000/);
    await expect(createKey(db(), { name: 'd', ipAllowlist: ['somewhere'] }, by)).rejects.toThrow(/"somewhere" is not an IP address/);
    await expect(createKey(db(), { name: 'e', integrators: ['no spaces'] }, by)).rejects.toThrow(InvalidValueError);
    await expect(createKey(db(), { id: 'bad id', name: 'f' }, by)).rejects.toThrow(/id must match/);
    await expect(createKey(db(), { name: 'g', integratorId: 'nobody' }, by)).rejects.toThrow(new NotFoundError('no integrator "nobody" (register it first)'));
    expect((await listKeys(db())).map((k) => k.id)).toEqual(['key_a']);
  });

  it('a key of an integrator may name that integrator only, unless its list says otherwise', async () => {
    await registerIntegrator(db(), { integratorId: 'acme', feeWallet: '0x552008c0F6870C2f77e5cC1d2Eb9bdff03E30Ea9' });
    const { key, view } = await createKey(db(), { name: 'acme', integratorId: 'acme' }, by);
    expect(view).toMatchObject({ integratorId: 'acme', integrators: ['acme'] });
    expect((await new DatabaseKeyStore(db()).authenticate(key))?.record.integrators).toEqual(['acme']);
    expect(await setKeyIntegrators(db(), view.id, ['acme', 'acme-eu'], by)).toMatchObject({ integrators: ['acme', 'acme-eu'] });
    expect(await listKeys(db(), { integratorId: 'acme' })).toHaveLength(1);
    expect(await listKeys(db(), { integratorId: 'other' })).toHaveLength(0);
  });

  it('rename, allowlist, limit and integrators change the key and each leaves an event', async () => {
    const { view } = await createKey(db(), { name: 'a' }, by);
    await renameKey(db(), view.id, 'acme', { actor: 'cli:ops', now: at(1000) });
    await setKeyAllowlist(db(), view.id, ['198.51.100.0/24'], { actor: 'cli:ops', now: at(2000) });
    await setKeyPerMinute(db(), view.id, 250, { actor: 'cli:ops', now: at(3000) });
    await setKeyIntegrators(db(), view.id, ['acme'], { actor: 'cli:ops', now: at(4000) });
    expect(await getKey(db(), view.id)).toEqual({ id: view.id, name: 'acme', createdAt: T0.toISOString(), ipAllowlist: ['198.51.100.0/24'], perMinute: 250, integrators: ['acme'] });
    await setKeyAllowlist(db(), view.id, null, { actor: 'cli:ops', now: at(5000) });
    await setKeyPerMinute(db(), view.id, null, { actor: 'cli:ops', now: at(6000) });
    expect(await getKey(db(), view.id)).toEqual({ id: view.id, name: 'acme', createdAt: T0.toISOString(), integrators: ['acme'] });
    const events = await keyEvents(db(), view.id);
    expect(events.map((e) => [e.type, e.at])).toEqual([
      ['created', T0.toISOString()],
      ['renamed', at(1000).toISOString()],
      ['allowlist-changed', at(2000).toISOString()],
      ['limit-changed', at(3000).toISOString()],
      ['integrators-changed', at(4000).toISOString()],
      ['allowlist-changed', at(5000).toISOString()],
      ['limit-changed', at(6000).toISOString()],
    ]);
    expect(events[1]!.detail).toEqual({ from: 'a', to: 'acme' });
    expect(events[2]!.detail).toEqual({ from: null, to: ['198.51.100.0/24'] });
    await expect(setKeyAllowlist(db(), view.id, ['nowhere'], by)).rejects.toThrow(/"nowhere" is not an IP address/);
    await expect(renameKey(db(), 'key_missing', 'x', by)).rejects.toThrow(NotFoundError);
  });

  it('rotation: a new key with the same settings; the old one works until the grace period ends, then never', async () => {
    let now = T0.getTime();
    const store = new DatabaseKeyStore(db(), { clock: () => now });
    const old = await createKey(db(), { name: 'acme', perMinute: 300, ipAllowlist: ['203.0.113.0/24'] }, by);
    expect(await store.authenticate(old.key)).toBeDefined();

    const rotation = await rotateKey(db(), old.view.id, 24 * HOUR, { actor: 'cli:ops', now: at(HOUR) });
    expect(rotation.key).not.toBe(old.key);
    expect(rotation.view).toEqual({ id: expect.stringMatching(/^key_/), name: 'acme', perMinute: 300, ipAllowlist: ['203.0.113.0/24'], createdAt: at(HOUR).toISOString() });
    expect(rotation.previous).toMatchObject({ id: old.view.id, expiresAt: at(25 * HOUR).toISOString(), rotatedTo: rotation.view.id });

    now = at(25 * HOUR).getTime() - 1;
    expect((await store.authenticate(old.key))?.record.id).toBe(old.view.id); // the last millisecond of its grace period
    expect((await store.authenticate(rotation.key))?.record.id).toBe(rotation.view.id);
    now = at(25 * HOUR).getTime();
    expect(await store.authenticate(old.key)).toBeUndefined(); // the remembered answer knows the expiry too
    now += 5000;
    expect(await store.authenticate(old.key)).toBeUndefined(); // and the database says so
    expect((await store.list()).map((k) => k.record.id)).toEqual([rotation.view.id]);
    expect((await listKeys(db(), { now: new Date(now) })).map((k) => k.id)).toEqual([rotation.view.id]);
    expect((await listKeys(db(), { now: new Date(now), all: true })).map((k) => k.id)).toEqual([old.view.id, rotation.view.id]);

    await expect(rotateKey(db(), old.view.id, HOUR, { actor: 'x', now: new Date(now) })).rejects.toThrow(ConflictError);
    expect((await keyEvents(db(), old.view.id)).map((e) => e.type)).toEqual(['created', 'rotated']);
    expect((await keyEvents(db(), rotation.view.id))[0]).toMatchObject({ type: 'created', detail: { rotatedFrom: old.view.id } });
    await expect(rotateKey(db(), rotation.view.id, -1, by)).rejects.toThrow(InvalidValueError);
  });

  it('a rotation with no grace period ends the old key at once', async () => {
    let now = T0.getTime();
    const store = new DatabaseKeyStore(db(), { clock: () => now });
    const old = await createKey(db(), { name: 'a' }, by);
    await rotateKey(db(), old.view.id, 0, { actor: 'x', now: at(10) });
    now = at(10).getTime();
    expect(await store.authenticate(old.key)).toBeUndefined();
  });

  it('revoke: the key never authenticates again, within the remembered answers\' second; it stays listed with all', async () => {
    let now = T0.getTime();
    const store = new DatabaseKeyStore(db(), { clock: () => now, ttlMs: 1000 });
    const { key, view } = await createKey(db(), { name: 'a' }, by);
    expect(await store.authenticate(key)).toBeDefined();
    const revoked = await revokeKey(db(), view.id, { actor: 'cli:ops', now: at(10), reason: 'leaked' });
    expect(revoked.revokedAt).toBe(at(10).toISOString());
    now += 999;
    expect(await store.authenticate(key)).toBeDefined(); // remembered for up to a second
    now += 1;
    expect(await store.authenticate(key)).toBeUndefined();
    expect(await listKeys(db())).toEqual([]);
    expect(await listKeys(db(), { all: true })).toEqual([expect.objectContaining({ id: view.id, revokedAt: at(10).toISOString() })]);
    await expect(revokeKey(db(), view.id, by)).rejects.toThrow(/is revoked/);
    await expect(rotateKey(db(), view.id, HOUR, by)).rejects.toThrow(/is revoked/);
    await expect(revokeKey(db(), 'key_missing', by)).rejects.toThrow(new NotFoundError('no key with id "key_missing"'));
    expect((await keyEvents(db(), view.id)).at(-1)).toMatchObject({ type: 'revoked', detail: { reason: 'leaked' } });
  });

  it('block and unblock: manual and automatic blocks show on the key; unblock lifts both; a blocked key is not rotated', async () => {
    const store = (clock: number) => new DatabaseKeyStore(db(), { clock: () => clock });
    const { key, view } = await createKey(db(), { name: 'a' }, by);
    await blockKey(db(), view.id, { actor: 'cli:ops', now: at(1000), reason: 'abuse' });
    expect((await store(at(2000).getTime()).authenticate(key))?.record).toMatchObject({ blocked: true, blockedReason: 'abuse' });
    expect(await getKey(db(), view.id, at(2000))).toMatchObject({ blocked: true, blockedReason: 'abuse' });
    await expect(rotateKey(db(), view.id, HOUR, { actor: 'x', now: at(2000) })).rejects.toThrow(/is blocked/);

    await block(db(), { subject: { kind: 'key', id: view.id }, rule: 'sustained-429', reason: '429 for 10 minutes', actor: 'detector', now: at(3000), until: at(HOUR) });
    expect(await getKey(db(), view.id, at(4000))).toMatchObject({ blocked: true, blockedReason: '429 for 10 minutes' });
    const lifted = await unblockKey(db(), view.id, { actor: 'cli:ops', now: at(5000) });
    expect(lifted.map((b) => b.rule)).toEqual(['sustained-429', 'manual']);
    const after = (await store(at(6000).getTime()).authenticate(key))?.record;
    expect(after?.blocked).toBeUndefined();
    expect(await unblockKey(db(), view.id, by)).toEqual([]);
    await expect(unblockKey(db(), 'key_missing', by)).rejects.toThrow(NotFoundError);
    await expect(blockKey(db(), 'key_missing', by)).rejects.toThrow(NotFoundError);
    expect((await keyEvents(db(), view.id)).map((e) => `${e.type}:${e.actor}`)).toEqual(['created:cli:ops', 'blocked:cli:ops', 'blocked:detector', 'unblocked:cli:ops']);
  });

  it('a block is not escaped by making a new key: the integrator gets none while a key of it is blocked, however the key is made', async () => {
    const WALLET = '0x552008c0F6870C2f77e5cC1d2Eb9bdff03E30Ea9';
    await registerIntegrator(db(), { integratorId: 'acme', feeWallet: WALLET });
    await registerIntegrator(db(), { integratorId: 'other', feeWallet: WALLET });
    const blocked = await createKey(db(), { name: 'blocked', integratorId: 'acme' }, by);
    await block(db(), { subject: { kind: 'key', id: blocked.view.id }, rule: 'sustained-429', reason: '429 for 10 minutes', actor: 'detector', now: T0, until: at(HOUR) });
    await blockKey(db(), blocked.view.id, { actor: 'cli:ops', now: at(1000), reason: 'abuse', until: at(4 * HOUR) });

    // the partner's way (a key that belongs to it) and the operator's (`npm run keys -- create --integrator acme`)
    const later = { actor: 'x', now: at(2000) };
    for (const input of [{ name: 'escape', integratorId: 'acme' }, { name: 'escape', integrators: ['acme'] }, { name: 'escape', integrators: ['other', 'acme'] }]) {
      const refused = await createKey(db(), input, later).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(IntegratorBlockedError);
      // the block that lasts longest is named, with its end
      expect((refused as IntegratorBlockedError).message).toBe(`integrator "acme" has a blocked key (${blocked.view.id}, manual: abuse) until ${at(4 * HOUR).toISOString()}: no new key is made for it while the block lasts`);
      expect((refused as IntegratorBlockedError).retryAfterSeconds(at(2000).getTime())).toBe(4 * 3600 - 2);
    }
    expect(await listKeys(db(), { integratorId: 'acme', now: at(2000) })).toHaveLength(1); // nothing was written
    // another integrator, and keys for no integrator, are not concerned
    expect((await createKey(db(), { name: 'fine', integratorId: 'other' }, later)).view.integratorId).toBe('other');
    expect((await createKey(db(), { name: 'ops' }, later)).view.integrators).toBeUndefined();

    // a block until lifted has no end to wait for; once lifted, or once every block has ended, keys are made again
    await blockKey(db(), blocked.view.id, { actor: 'cli:ops', now: at(3000), reason: 'until we talk' });
    const indefinite = (await createKey(db(), { name: 'escape', integratorId: 'acme' }, { actor: 'x', now: at(4000) }).catch((error: unknown) => error)) as IntegratorBlockedError;
    expect(indefinite.message).toMatch(/\(key_[0-9a-f]+, manual: until we talk\) until an operator lifts it/);
    expect(indefinite.retryAfterSeconds(at(4000).getTime())).toBeUndefined();
    await unblockKey(db(), blocked.view.id, { actor: 'cli:ops', now: at(5000) });
    expect((await createKey(db(), { name: 'again', integratorId: 'acme' }, { actor: 'x', now: at(6000) })).view.integratorId).toBe('acme');
  });

  it('the cap of working keys holds for 40 creations at the same moment: exactly 20 made, 20 refused with a ConflictError', async () => {
    const WALLET = '0x552008c0F6870C2f77e5cC1d2Eb9bdff03E30Ea9';
    await registerIntegrator(db(), { integratorId: 'acme', feeWallet: WALLET });
    // two pools on PostgreSQL (transactions truly side by side, on up to 20 connections); PGlite's single one queues them
    const second = await engine.secondConnection();
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, k) => createKey((k % 2 === 0 ? engine.shared() : second).db, { name: `k${k}`, integratorId: 'acme' }, by, { maxWorkingKeys: 20 })),
    );
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(20);
    expect(refused).toHaveLength(20);
    for (const r of refused) {
      expect(r.reason).toBeInstanceOf(ConflictError);
      expect((r.reason as Error).message).toBe('integrator "acme" has 20 working keys, the most it may have (20): revoke one first');
    }
    expect(await listKeys(db(), { integratorId: 'acme', now: T0 })).toHaveLength(20);
    // a revoked key no longer counts
    const [first] = await listKeys(db(), { integratorId: 'acme', now: T0 });
    await revokeKey(db(), first!.id, by);
    await createKey(db(), { name: 'replacement', integratorId: 'acme' }, by, { maxWorkingKeys: 20 });
    await expect(createKey(db(), { name: 'one too many', integratorId: 'acme' }, by, { maxWorkingKeys: 20 })).rejects.toThrow(ConflictError);
    await expect(createKey(db(), { name: 'nobody', integratorId: 'nobody' }, by, { maxWorkingKeys: 20 })).rejects.toThrow(new NotFoundError('no integrator "nobody" (register it first)'));
  });

  it('a name with control characters, bidirectional overrides or isolates is refused, naming the field and the rule', async () => {
    const view = (await createKey(db(), { name: 'fine' }, by)).view;
    for (const name of ['yek\u202Eproduction', 'a\u2066b', 'a\u200Fb', 'a\u061Cb', 'a\u0085b', 'a\u009Bb', 'a\u0007b', 'line\nbreak']) {
      await expect(createKey(db(), { name }, by)).rejects.toThrow(InvalidValueError);
      await expect(createKey(db(), { name }, by)).rejects.toThrow(/^name must hold no control characters \(C0, C1\), bidirectional overrides or isolates .*; it holds U\+[0-9A-F]{4}$/);
      await expect(renameKey(db(), view.id, name, by)).rejects.toThrow(InvalidValueError);
    }
    await expect(createKey(db(), { name: 'yek\u202Eproduction' }, by)).rejects.toThrow(/it holds U\+202E$/);
    expect(await listKeys(db())).toHaveLength(1);
    expect((await renameKey(db(), view.id, 'émoji 🔑 ok', by)).name).toBe('émoji 🔑 ok'); // other characters are fine
  });

  it('a block that ends lets the key in again by itself', async () => {
    const { key, view } = await createKey(db(), { name: 'a' }, by);
    await block(db(), { subject: { kind: 'key', id: view.id }, rule: 'expensive-share', reason: 'r', actor: 'detector', now: T0, until: at(HOUR) });
    expect((await new DatabaseKeyStore(db(), { clock: () => at(HOUR - 1).getTime() }).authenticate(key))?.record.blocked).toBe(true);
    expect((await new DatabaseKeyStore(db(), { clock: () => at(HOUR).getTime() }).authenticate(key))?.record.blocked).toBeUndefined();
    await liftBlocks(db(), { kind: 'key', id: view.id }, { actor: 'x', now: at(HOUR) }); // nothing in force: nothing lifted
    expect((await keyEvents(db(), view.id)).map((e) => e.type)).toEqual(['created', 'blocked']);
  });
});
