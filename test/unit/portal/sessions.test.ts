import { createHash } from 'node:crypto';
import { SESSION_TTL_MS, SessionStore, sessionCookieOptions } from '../../../src/portal/sessions';
import { databaseEngines, emptyTables } from '../../support/postgres';

const ADDRESS = '0x1234567890AbcdEF1234567890aBcdef12345678';
const NOW = Date.parse('2026-05-01T12:00:00.000Z');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe.each(databaseEngines())('SessionStore on $name', (engine) => {
  beforeAll(() => engine.start(), 120_000);
  afterAll(() => engine.stop());
  beforeEach(() => emptyTables(engine.shared()));
  const db = () => engine.shared().db;

  test('a session id is 256 random bits (base64url); the session has its own CSRF token and expiry', async () => {
    const sessions = new SessionStore(db(), { clock: () => NOW });
    const { id, session } = await sessions.create({ address: ADDRESS, chainId: 1 });
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(id, 'base64url')).toHaveLength(32);
    expect(session).toEqual({ address: ADDRESS, chainId: 1, csrfToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), createdAt: NOW, expiresAt: NOW + SESSION_TTL_MS });
    const second = await sessions.create({ address: ADDRESS, chainId: 42161 });
    expect(second.id).not.toBe(id);
    expect(second.session.csrfToken).not.toBe(session.csrfToken);
    expect(await sessions.get(id)).toEqual(session);
    expect(await sessions.get(second.id)).toEqual(second.session);
  });

  test('the table keeps the SHA-256 of each id, never the id itself', async () => {
    const sessions = new SessionStore(db(), { clock: () => NOW });
    const { id, session } = await sessions.create({ address: ADDRESS, chainId: 1 });
    const rows = await db().selectFrom('portal_sessions').selectAll().execute();
    expect(rows).toEqual([
      { id_hash: sha256(id), address: ADDRESS, chain_id: expect.anything(), csrf_token: session.csrfToken, created_at: new Date(NOW), expires_at: new Date(NOW + SESSION_TTL_MS) },
    ]);
    expect(Number(rows[0]!.chain_id)).toBe(1);
    expect(JSON.stringify(rows)).not.toContain(id);
    expect(await sessions.get(rows[0]!.id_hash)).toBeUndefined(); // what is stored does not open the session
  });

  test('unknown, malformed, deleted and expired sessions are not found', async () => {
    const clock = { now: NOW };
    const sessions = new SessionStore(db(), { clock: () => clock.now, ttlMs: 1_000 });
    const { id } = await sessions.create({ address: ADDRESS, chainId: 1 });
    expect(await sessions.get(undefined)).toBeUndefined();
    expect(await sessions.get('')).toBeUndefined();
    expect(await sessions.get('x'.repeat(500))).toBeUndefined();
    expect(await sessions.get(`${id}x`)).toBeUndefined();
    clock.now = NOW + 999;
    expect(await sessions.get(id)).toBeDefined();
    clock.now = NOW + 1_000;
    expect(await sessions.get(id)).toBeUndefined();
    const other = await sessions.create({ address: ADDRESS, chainId: 1 });
    await sessions.delete(other.id);
    expect(await sessions.get(other.id)).toBeUndefined();
    await sessions.delete(undefined); // harmless
    await sessions.delete(other.id);
  });

  test('a session outlives its store: another store on the database (a restart, another instance) finds it, and its sign-out', async () => {
    const first = new SessionStore(db(), { clock: () => NOW });
    const { id, session } = await first.create({ address: ADDRESS, chainId: 10 });
    const connection = await engine.secondConnection();
    const second = new SessionStore(async () => connection.db, { clock: () => NOW + 60_000 });
    expect(await second.get(id)).toEqual(session);
    await second.delete(id);
    expect(await first.get(id)).toBeUndefined();
  });

  test('a session survives closing and reopening the database', async () => {
    const target = await engine.newDatabase({ reopen: true });
    const before = await engine.open(target);
    const { id, session } = await new SessionStore(before.db, { clock: () => NOW }).create({ address: ADDRESS, chainId: 1 });
    await before.close();
    const after = await engine.open(target);
    expect(await new SessionStore(after.db, { clock: () => NOW + 1_000 }).get(id)).toEqual(session);
  });

  test('creating a session removes expired ones, a bounded batch at a time', async () => {
    const clock = { now: NOW };
    const sessions = new SessionStore(db(), { clock: () => clock.now, ttlMs: 1_000, purgeBatch: 2 });
    const old = await Promise.all([1, 2, 3].map(() => sessions.create({ address: ADDRESS, chainId: 1 })));
    clock.now += 1_000; // all three expired
    const live = await sessions.create({ address: ADDRESS, chainId: 1 });
    const held = async () => (await db().selectFrom('portal_sessions').select('id_hash').execute()).map((row) => row.id_hash).sort();
    expect(await held()).toHaveLength(2); // two of the three expired went, the new one is there
    expect(await held()).toContain(sha256(live.id));
    await sessions.create({ address: ADDRESS, chainId: 1 });
    const remaining = await held();
    expect(remaining).toHaveLength(2);
    for (const { id } of old) expect(remaining).not.toContain(sha256(id));
  });

  test('the database may come later, or not at all: its failure is the caller\'s', async () => {
    const sessions = new SessionStore(() => Promise.reject(new Error('no database')));
    expect(await sessions.get(undefined)).toBeUndefined(); // no cookie: no query
    await expect(sessions.get('a'.repeat(43))).rejects.toThrow('no database');
    await expect(sessions.create({ address: ADDRESS, chainId: 1 })).rejects.toThrow('no database');
  });
});

test('the session cookie is HttpOnly, SameSite=Strict, Path=/portal, Secure over TLS', () => {
  expect(sessionCookieOptions(false, 5_000)).toEqual({ httpOnly: true, sameSite: 'strict', secure: false, path: '/portal', maxAge: 5_000 });
  expect(sessionCookieOptions(true, 5_000)).toMatchObject({ secure: true });
  expect(sessionCookieOptions(true, -1).maxAge).toBe(0);
});
