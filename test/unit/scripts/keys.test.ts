import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serializeKeyDocument } from '../../../src/core/access/keyFile';
import { hashApiKey } from '../../../src/core/access/keys';
import { block } from '../../../src/persistence/blocks';
import type { Database } from '../../../src/persistence/database';
import { keyEvents } from '../../../src/persistence/keyEvents';
import { DatabaseKeyStore } from '../../../src/persistence/databaseKeyStore';
import { runKeysCommand } from '../../../scripts/keys';
import { databaseEngines, emptyTables } from '../../support/postgres';

const NOW = new Date('2025-01-01T00:00:00Z');
const HOUR = 3_600_000;

interface Run {
  code: number;
  out: string;
  err: string;
}

async function runWith(io: { env?: Record<string, string>; database?: Database; now?: Date }, argv: string[]): Promise<Run> {
  let out = '';
  let err = '';
  const code = await runKeysCommand(argv, {
    env: { USER: 'ops', ...io.env },
    stdout: (t) => void (out += t),
    stderr: (t) => void (err += t),
    now: () => io.now ?? NOW,
    ...(io.database ? { database: io.database } : {}),
  });
  return { code, out, err };
}

describe.each(databaseEngines())('npm run keys on $name', (engine) => {
  let dir: string;
  beforeAll(() => engine.start(), 120_000);
  afterAll(() => engine.stop());
  beforeEach(async () => {
    await emptyTables(engine.shared());
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keys-cli-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const run = (...argv: string[]) => runWith({ database: engine.shared() }, argv);
  const db = () => engine.shared().db;
  const store = (at = NOW) => new DatabaseKeyStore(db(), { clock: () => at.getTime() });
  const rows = () => db().selectFrom('api_keys').selectAll().orderBy('created_at').orderBy('id').execute();

  it('create prints the key once, on stdout alone, and stores only its SHA-256', async () => {
    const created = await run('create', '--name', 'acme backend', '--per-minute', '500', '--ip', '203.0.113.0/24', '--ip', '2001:db8::/32', '--integrator', 'acme');
    expect(created.code).toBe(0);
    const key = created.out.trim();
    expect(key).toMatch(/^svc_[A-Za-z0-9_-]{43}$/);
    expect(created.err).toMatch(/^Created API key key_[0-9a-f]{12} \(acme backend\) in .*: 500 requests per minute, 60000 per two hours/);
    expect(created.err).not.toContain(key);
    const [row] = await rows();
    expect(row).toMatchObject({ name: 'acme backend', sha256: hashApiKey(key), per_minute: 500, ip_allowlist: ['203.0.113.0/24', '2001:db8::/32'], integrators: ['acme'] });
    expect(JSON.stringify(await rows())).not.toContain(key);
    expect((await store().authenticate(key))?.record).toMatchObject({ name: 'acme backend', createdAt: NOW.toISOString() });
    expect((await keyEvents(db(), row!.id)).map((e) => [e.type, e.actor])).toEqual([['created', 'cli:ops']]);
  });

  it('create --json for scripts; ids are unique; invalid settings are refused and nothing is written', async () => {
    const first = JSON.parse((await run('create', '--name', 'a', '--id', 'key_a', '--json')).out);
    expect(first).toEqual({ id: 'key_a', key: expect.stringMatching(/^svc_/) });
    const again = await run('create', '--name', 'b', '--id', 'key_a');
    expect(again).toMatchObject({ code: 1, err: 'keys: a key with id "key_a" exists already\n' });
    expect((await run('create', '--name', 'c', '--per-minute', 'lots')).err).toMatch(/perMinute must be an integer/);
    expect((await run('create', '--name', 'd', '--ip', 'somewhere')).err).toMatch(/"somewhere" is not an IP address/);
    expect((await rows()).map((k) => k.id)).toEqual(['key_a']);
  });

  it('list shows ids, names, limits and state, never hashes', async () => {
    await run('create', '--name', 'a', '--id', 'key_a');
    await run('create', '--name', 'b', '--id', 'key_b', '--per-minute', '250');
    await run('block', 'key_b', '--reason', 'abuse');
    const listed = await run('list');
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(/key_a\s+a\s+100\/min\s+active/);
    expect(listed.out).toMatch(/key_b\s+b\s+250\/min\s+BLOCKED \(abuse\)/);
    const json = JSON.parse((await run('list', '--json')).out);
    expect(json[1]).toEqual({ id: 'key_b', name: 'b', createdAt: '2025-01-01T00:00:00.000Z', perMinute: 250, blocked: true, blockedReason: 'abuse', limits: { perMinute: 250, twoHourWindow: 30_000 } });
    expect(JSON.stringify(json)).not.toMatch(/sha256|[0-9a-f]{64}/);
    await emptyTables(engine.shared());
    expect((await run('list')).out).toMatch(/^no keys in /);
  });

  it('block, unblock and revoke', async () => {
    const key = (await run('create', '--name', 'a', '--id', 'key_a')).out.trim();
    expect((await run('block', 'key_a')).code).toBe(0);
    expect((await store().authenticate(key))?.record).toMatchObject({ blocked: true });
    expect((await run('unblock', 'key_a')).err).toMatch(/API key key_a unblocked \(lifted: manual\)/);
    expect((await store().authenticate(key))?.record.blocked).toBeUndefined();
    expect((await run('unblock', 'key_a')).err).toBe('API key key_a was not blocked.\n');
    expect(await run('revoke', 'key_a')).toMatchObject({ code: 0, err: expect.stringMatching(/API key key_a revoked/) });
    expect(await store().authenticate(key)).toBeUndefined();
    expect(JSON.parse((await run('list', '--json')).out)).toEqual([]);
    expect(await run('revoke', 'key_a')).toMatchObject({ code: 1, err: expect.stringMatching(/key key_a is revoked/) });
    expect(await run('revoke', 'key_b')).toMatchObject({ code: 1, err: expect.stringMatching(/no key with id "key_b"/) });
    expect(await run('block', 'key_b')).toMatchObject({ code: 1, err: expect.stringMatching(/no key with id "key_b"/) });
  });

  it('rotate prints the new key once; the old one works until the grace period ends', async () => {
    const old = (await run('create', '--name', 'a', '--id', 'key_a', '--per-minute', '300')).out.trim();
    const rotated = await runWith({ database: engine.shared(), now: new Date(NOW.getTime() + HOUR) }, ['rotate', 'key_a', '--grace-hours', '2']);
    expect(rotated.code).toBe(0);
    const key = rotated.out.trim();
    expect(key).toMatch(/^svc_/);
    expect(rotated.err).toMatch(/^Rotated API key key_a: the new key is key_[0-9a-f]{12}, with the same settings\. key_a keeps working until 2025-01-01T03:00:00\.000Z \(2 hours\)/);
    expect(rotated.err).not.toContain(key);
    expect((await store(new Date(NOW.getTime() + 3 * HOUR - 1)).authenticate(old))?.record.id).toBe('key_a');
    expect(await store(new Date(NOW.getTime() + 3 * HOUR)).authenticate(old)).toBeUndefined();
    expect((await store(new Date(NOW.getTime() + 3 * HOUR)).authenticate(key))?.record).toMatchObject({ name: 'a', perMinute: 300 });
    expect((await run('list')).out).toMatch(/key_a .* expires 2025-01-01T03:00:00\.000Z \(rotated to key_/);

    const again = await run('rotate', 'key_a');
    expect(again).toMatchObject({ code: 1, err: expect.stringMatching(/key key_a was already rotated/) });
    const newId = (await rows()).find((row) => row.sha256 === hashApiKey(key))!.id;
    const json = JSON.parse((await run('rotate', newId, '--json')).out);
    expect(json).toEqual({ id: expect.stringMatching(/^key_/), key: expect.stringMatching(/^svc_/), replaces: newId, previousExpiresAt: '2025-01-02T00:00:00.000Z' });
    expect((await run('rotate', json.id, '--grace-hours', 'soon')).err).toMatch(/grace period must be from 0 to 720 hours/);
  });

  it('blocks lists the blocks in force, manual and automatic; unblock lifts a key\'s or a client address\'s', async () => {
    await run('create', '--name', 'a', '--id', 'key_a');
    await run('block', 'key_a', '--reason', 'abuse');
    await block(db(), { subject: { kind: 'client', id: '2001:db8:1:2::/64' }, rule: 'key-spread', reason: '40 keys in 10 minutes', actor: 'detector', now: NOW, until: new Date(NOW.getTime() + HOUR) });
    await block(db(), { subject: { kind: 'key', id: 'key_a' }, rule: 'sustained-429', reason: '429 for 10 minutes', actor: 'detector', now: NOW, until: new Date(NOW.getTime() + HOUR) });
    const listed = await run('blocks');
    expect(listed.out.trim().split('\n')).toEqual([
      expect.stringMatching(/^key key_a\s+sustained-429\s+until 2025-01-01T01:00:00\.000Z\s+#2\s+since 2025-01-01T00:00:00\.000Z by detector\s+\(429 for 10 minutes\)$/),
      expect.stringMatching(/^client 2001:db8:1:2::\/64\s+key-spread\s+until 2025-01-01T01:00:00\.000Z\s+#1 .*\(40 keys in 10 minutes\)$/),
      expect.stringMatching(/^key key_a\s+manual\s+until lifted\s+#1\s+since .* by cli:ops\s+\(abuse\)$/),
    ]);
    expect(JSON.parse((await run('blocks', '--json')).out)).toHaveLength(3);
    expect((await run('unblock', 'key_a')).err).toMatch(/API key key_a unblocked \(lifted: sustained-429, manual\)/);
    // an address names the client as rate limits do: an IPv6 address its /64
    expect((await run('unblock', '2001:db8:1:2::77')).err).toMatch(/client 2001:db8:1:2::\/64 unblocked \(lifted: key-spread\)/);
    expect((await run('blocks')).out).toBe('no blocks in force\n');
    expect(await run('unblock', '198.51.100.7')).toMatchObject({ code: 1, err: expect.stringMatching(/no key with id "198\.51\.100\.7", and no block in force of the client address 198\.51\.100\.7/) });
  });

  it('--file (or API_KEYS_FILE) imports a key file into the database once', async () => {
    const file = path.join(dir, 'keys.json');
    fs.writeFileSync(file, serializeKeyDocument({ keys: [{ id: 'key_old', name: 'old', sha256: hashApiKey('svc_old'), blocked: true, blockedReason: 'abuse' }] }));
    const first = await runWith({ database: engine.shared(), env: { API_KEYS_FILE: file } }, ['list']);
    expect(first.code).toBe(0);
    expect(first.err).toBe(`Imported 1 keys from ${file} into the database; this file is not imported again unless it changes.\n`);
    expect(first.out).toMatch(/key_old\s+old\s+100\/min\s+BLOCKED \(abuse\)/);
    const second = await run('list', '--file', file);
    expect(second.err).toBe('');
    expect((await rows()).map((row) => row.id)).toEqual(['key_old']);
    expect((await store().authenticate('svc_old'))?.record.id).toBe('key_old');
    expect(await run('list', '--file', path.join(dir, 'missing.json'))).toMatchObject({ code: 1, err: expect.stringMatching(/cannot read the API key file/) });
  });

  it('opens the database of the environment (DATABASE_DIR or DATABASE_URL) and closes it', async () => {
    const target = await engine.newDatabase({ reopen: true });
    const env: Record<string, string> = target.url ? { DATABASE_URL: target.url } : { DATABASE_DIR: target.dir! };
    const created = await runWith({ env }, ['create', '--name', 'by env', '--id', 'key_env']);
    expect(created.code).toBe(0);
    expect(created.err).toContain(target.url ?? target.dir!);
    const listed = await runWith({ env }, ['list']);
    expect(listed.out).toMatch(/key_env\s+by env/);
    if (target.dir) expect(fs.existsSync(path.join(target.dir, 'xchain-router.pid'))).toBe(false); // closed
    expect(await runWith({ env: { DATABASE_URL: 'postgres://x/y', DATABASE_DIR: dir } }, ['list'])).toMatchObject({ code: 1, err: expect.stringMatching(/not both/) });
  });

  it('usage errors exit 2 with the usage, before the database is opened', async () => {
    const bare = (...argv: string[]) => runWith({ env: { DATABASE_URL: 'postgres://127.0.0.1:1/none' } }, argv);
    expect(await bare()).toMatchObject({ code: 2, err: expect.stringMatching(/no command given[\s\S]*usage: npm run keys/) });
    expect(await bare('frobnicate')).toMatchObject({ code: 2, err: expect.stringMatching(/unknown command "frobnicate"/) });
    expect(await bare('create')).toMatchObject({ code: 2, err: expect.stringMatching(/create needs --name/) });
    expect(await bare('block')).toMatchObject({ code: 2, err: expect.stringMatching(/block needs the key id/) });
    expect(await bare('unblock')).toMatchObject({ code: 2, err: expect.stringMatching(/unblock needs the key id or client address/) });
    expect(await bare('rotate')).toMatchObject({ code: 2, err: expect.stringMatching(/rotate needs the key id/) });
    expect(await bare('list', 'extra')).toMatchObject({ code: 2, err: expect.stringMatching(/unexpected argument "extra"/) });
    expect((await bare('list', '--bogus')).code).toBe(2);
    expect(await bare('--help')).toMatchObject({ code: 0, out: expect.stringMatching(/rotate ID \[--grace-hours N\]/) });
    // a database that cannot be reached is a failure, not a usage error
    expect(await bare('list')).toMatchObject({ code: 1, err: expect.stringMatching(/^keys: /) });
  });
});
