import { createHash } from 'node:crypto';
import { SESSION_TTL_MS, SessionStore, sessionCookieOptions } from '../../../src/portal/sessions';

const ADDRESS = '0x1234567890AbcdEF1234567890aBcdef12345678';

describe('SessionStore', () => {
  test('a session id is 256 random bits (base64url); the session has its own CSRF token and expiry', () => {
    const sessions = new SessionStore({ clock: () => 1_000 });
    const { id, session } = sessions.create({ address: ADDRESS, chainId: 1 });
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(id, 'base64url')).toHaveLength(32);
    expect(session).toEqual({ address: ADDRESS, chainId: 1, csrfToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), createdAt: 1_000, expiresAt: 1_000 + SESSION_TTL_MS });
    const second = sessions.create({ address: ADDRESS, chainId: 1 });
    expect(second.id).not.toBe(id);
    expect(second.session.csrfToken).not.toBe(session.csrfToken);
    expect(sessions.get(id)).toBe(session);
  });

  test('the store keeps the SHA-256 of each id, never the id itself', () => {
    const sessions = new SessionStore();
    const { id } = sessions.create({ address: ADDRESS, chainId: 1 });
    const held = [...(sessions as unknown as { sessions: { keys(): Iterable<string> } }).sessions.keys()];
    expect(held).toEqual([createHash('sha256').update(id).digest('hex')]);
    expect(sessions.get(held[0])).toBeUndefined(); // what is in memory does not open the session
  });

  test('unknown, malformed, deleted and expired sessions are not found', () => {
    const clock = { now: 0 };
    const sessions = new SessionStore({ clock: () => clock.now, ttlMs: 1_000 });
    const { id } = sessions.create({ address: ADDRESS, chainId: 1 });
    expect(sessions.get(undefined)).toBeUndefined();
    expect(sessions.get('')).toBeUndefined();
    expect(sessions.get('x'.repeat(500))).toBeUndefined();
    expect(sessions.get(`${id}x`)).toBeUndefined();
    clock.now = 999;
    expect(sessions.get(id)).toBeDefined();
    clock.now = 1_000;
    expect(sessions.get(id)).toBeUndefined();
    const other = sessions.create({ address: ADDRESS, chainId: 1 });
    sessions.delete(other.id);
    expect(sessions.get(other.id)).toBeUndefined();
    sessions.delete(undefined); // harmless
  });

  test('holds at most `max` sessions, dropping the least recently used', () => {
    const sessions = new SessionStore({ max: 2 });
    const first = sessions.create({ address: ADDRESS, chainId: 1 });
    const second = sessions.create({ address: ADDRESS, chainId: 1 });
    sessions.get(first.id);
    sessions.create({ address: ADDRESS, chainId: 1 });
    expect(sessions.size).toBe(2);
    expect(sessions.get(first.id)).toBeDefined();
    expect(sessions.get(second.id)).toBeUndefined();
  });
});

test('the session cookie is HttpOnly, SameSite=Strict, Path=/portal, Secure over TLS', () => {
  expect(sessionCookieOptions(false, 5_000)).toEqual({ httpOnly: true, sameSite: 'strict', secure: false, path: '/portal', maxAge: 5_000 });
  expect(sessionCookieOptions(true, 5_000)).toMatchObject({ secure: true });
  expect(sessionCookieOptions(true, -1).maxAge).toBe(0);
});
