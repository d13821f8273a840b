import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serializeKeyDocument } from '../../../src/core/access/keyFile';
import { hashApiKey, type ApiKeyRecord } from '../../../src/core/access/keys';
import { FileKeyStore } from '../../../src/files/keyStore';

const KEY_A = 'svc_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const KEY_B = 'svc_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
const recordA: ApiKeyRecord = { id: 'key_a', name: 'A', sha256: hashApiKey(KEY_A) };
const recordB: ApiKeyRecord = { id: 'key_b', sha256: hashApiKey(KEY_B), perMinute: 500 };

describe('FileKeyStore', () => {
  it('re-reads a changed file, keeps the previous keys when the new version is broken', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keys-'));
    const file = path.join(dir, 'keys.json');
    fs.writeFileSync(file, serializeKeyDocument({ keys: [recordA] }));
    let now = 0;
    const errors: string[] = [];
    const store = new FileKeyStore(file, { clock: () => now, recheckMs: 1000, onReloadError: (e) => errors.push(e.message) });
    expect((await store.authenticate(KEY_A))?.record.blocked).toBeUndefined();
    fs.writeFileSync(file, serializeKeyDocument({ keys: [{ ...recordA, blocked: true }, recordB] }));
    now = 999;
    expect(await store.authenticate(KEY_B)).toBeUndefined(); // not looked at yet
    now = 1000;
    expect((await store.authenticate(KEY_A))?.record.blocked).toBe(true);
    expect((await store.authenticate(KEY_B))?.record.id).toBe('key_b');
    fs.writeFileSync(file, '{ broken');
    now = 2000;
    expect((await store.authenticate(KEY_B))?.record.id).toBe('key_b');
    now = 3000;
    await store.authenticate(KEY_B);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/not valid JSON/);
    expect(() => new FileKeyStore(path.join(dir, 'missing.json'))).toThrow(/cannot read the API key file/);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
