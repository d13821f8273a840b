import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseKeyDocument } from '../../../src/core/access/keyFile';
import { hashApiKey } from '../../../src/core/access/keys';
import { StaticKeyStore } from '../../../src/core/access/keyStore';
import { runKeysCommand } from '../../../scripts/keys';

let dir: string;
let file: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keys-cli-'));
  file = path.join(dir, 'keys.json');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function run(...argv: string[]): { code: number; out: string; err: string } {
  let out = '';
  let err = '';
  const code = runKeysCommand(argv, { env: { API_KEYS_FILE: file }, stdout: (t) => void (out += t), stderr: (t) => void (err += t), now: () => new Date('2025-01-01T00:00:00Z') });
  return { code, out, err };
}

const keys = () => parseKeyDocument(fs.readFileSync(file, 'utf8'), file).keys;

describe('npm run keys', () => {
  it('create prints the key once, on stdout alone, and stores only its SHA-256', () => {
    const created = run('create', '--name', 'acme backend', '--per-minute', '500', '--ip', '203.0.113.0/24', '--ip', '2001:db8::/32', '--integrator', 'acme');
    expect(created.code).toBe(0);
    const key = created.out.trim();
    expect(key).toMatch(/^svc_[A-Za-z0-9_-]{43}$/);
    expect(created.err).toMatch(/^Created API key key_[0-9a-f]{12} \(acme backend\) in .*: 500 requests per minute, 60000 per two hours/);
    expect(created.err).not.toContain(key);
    const text = fs.readFileSync(file, 'utf8');
    expect(text).not.toContain(key);
    expect(keys()).toEqual([
      { id: expect.stringMatching(/^key_/), name: 'acme backend', sha256: hashApiKey(key), createdAt: '2025-01-01T00:00:00.000Z', perMinute: 500, ipAllowlist: ['203.0.113.0/24', '2001:db8::/32'], integrators: ['acme'] },
    ]);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(new StaticKeyStore(keys()).authenticate(key)?.record.name).toBe('acme backend');
  });

  it('create --json for scripts; ids are unique; invalid settings are refused and nothing is written', () => {
    const first = JSON.parse(run('create', '--name', 'a', '--id', 'key_a', '--json').out);
    expect(first).toEqual({ id: 'key_a', key: expect.stringMatching(/^svc_/) });
    const again = run('create', '--name', 'b', '--id', 'key_a');
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/keys\[1\]\.id "key_a" is used twice/);
    expect(run('create', '--name', 'c', '--per-minute', 'lots').err).toMatch(/perMinute must be an integer/);
    expect(run('create', '--name', 'd', '--ip', 'somewhere').err).toMatch(/"somewhere" is not an IP address/);
    expect(keys().map((k) => k.id)).toEqual(['key_a']);
  });

  it('list shows ids, names, limits and state, never hashes', () => {
    run('create', '--name', 'a', '--id', 'key_a');
    run('create', '--name', 'b', '--id', 'key_b', '--per-minute', '250');
    run('block', 'key_b', '--reason', 'abuse');
    const listed = run('list');
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(/key_a\s+a\s+100\/min\s+active/);
    expect(listed.out).toMatch(/key_b\s+b\s+250\/min\s+BLOCKED \(abuse\)/);
    const json = JSON.parse(run('list', '--json').out);
    expect(json[1]).toEqual({ id: 'key_b', name: 'b', createdAt: '2025-01-01T00:00:00.000Z', perMinute: 250, blocked: true, blockedReason: 'abuse', limits: { perMinute: 250, twoHourWindow: 30_000 } });
    expect(JSON.stringify(json)).not.toMatch(/sha256|[0-9a-f]{64}/);
  });

  it('block, unblock and revoke', () => {
    run('create', '--name', 'a', '--id', 'key_a');
    expect(run('block', 'key_a').code).toBe(0);
    expect(keys()[0]).toMatchObject({ blocked: true });
    expect(run('unblock', 'key_a').err).toMatch(/API key key_a unblocked/);
    expect(keys()[0]!.blocked).toBeUndefined();
    expect(run('revoke', 'key_a').code).toBe(0);
    expect(keys()).toEqual([]);
    const missing = run('revoke', 'key_a');
    expect(missing).toMatchObject({ code: 1, err: expect.stringMatching(/no key with id "key_a"/) });
  });

  it('usage errors exit 2 with the usage', () => {
    expect(run()).toMatchObject({ code: 2, err: expect.stringMatching(/no command given[\s\S]*usage: npm run keys/) });
    expect(run('frobnicate')).toMatchObject({ code: 2, err: expect.stringMatching(/unknown command "frobnicate"/) });
    expect(run('create')).toMatchObject({ code: 2, err: expect.stringMatching(/create needs --name/) });
    expect(run('block')).toMatchObject({ code: 2, err: expect.stringMatching(/block needs the key id/) });
    expect(run('list', '--bogus').code).toBe(2);
    expect(run('list')).toMatchObject({ code: 1, err: expect.stringMatching(/does not exist/) });
    const noFile = runKeysCommand(['list'], { env: {}, stdout: () => undefined, stderr: () => undefined });
    expect(noFile).toBe(2);
  });
});
