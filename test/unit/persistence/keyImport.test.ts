import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serializeKeyDocument, type KeyDocument } from '../../../src/core/access/keyFile';
import { hashApiKey } from '../../../src/core/access/keys';
import { activeBlocks } from '../../../src/persistence/blocks';
import { keyEvents } from '../../../src/persistence/keyEvents';
import { importKeyDocument, importKeyFile } from '../../../src/persistence/keyImport';
import { DatabaseKeyStore } from '../../../src/persistence/databaseKeyStore';
import { listKeys } from '../../../src/persistence/keys';
import { databaseEngines, emptyTables } from '../../support/postgres';

const NOW = new Date('2025-06-01T00:00:00Z');
const document: KeyDocument = {
  keys: [
    { id: 'key_1a2b3c4d5e6f', name: 'acme', sha256: hashApiKey('svc_acme'), createdAt: '2025-01-01T00:00:00.000Z', perMinute: 500, ipAllowlist: ['203.0.113.0/24'], integrators: ['acme'] },
    { id: 'key_blocked', name: 'bad', sha256: hashApiKey('svc_bad'), blocked: true, blockedReason: 'abuse' },
    { id: 'legacy.id-1', sha256: hashApiKey('svc_legacy') },
  ],
};

describe.each(databaseEngines())('key document import on $name', (engine) => {
  beforeAll(() => engine.start(), 120_000);
  afterAll(() => engine.stop());
  beforeEach(() => emptyTables(engine.shared()));
  const db = () => engine.shared().db;

  it('imports once: keys keep ids, hashes, settings, creation times and manual blocks', async () => {
    const text = serializeKeyDocument(document);
    const result = await importKeyDocument(db(), { text, source: 'keys.json', now: NOW });
    expect(result).toEqual({ imported: true, source: 'keys.json', contentSha256: expect.stringMatching(/^[0-9a-f]{64}$/), added: ['key_1a2b3c4d5e6f', 'key_blocked', 'legacy.id-1'], skipped: [] });
    expect(await listKeys(db(), { now: NOW })).toEqual([
      { id: 'key_1a2b3c4d5e6f', name: 'acme', createdAt: '2025-01-01T00:00:00.000Z', perMinute: 500, ipAllowlist: ['203.0.113.0/24'], integrators: ['acme'] },
      { id: 'key_blocked', name: 'bad', createdAt: NOW.toISOString(), blocked: true, blockedReason: 'abuse' },
      { id: 'legacy.id-1', createdAt: NOW.toISOString() },
    ]);
    const store = new DatabaseKeyStore(db(), { clock: () => NOW.getTime() });
    expect((await store.authenticate('svc_acme'))?.record).toEqual({ ...document.keys[0] });
    expect((await store.authenticate('svc_bad'))?.record).toMatchObject({ blocked: true, blockedReason: 'abuse' });
    expect(await activeBlocks(db(), { kind: 'key', id: 'key_blocked' }, NOW)).toEqual([expect.objectContaining({ rule: 'manual', createdBy: 'import' })]);
    expect((await keyEvents(db(), 'key_blocked')).map((e) => e.type)).toEqual(['imported', 'blocked']);

    // the next start: nothing happens, nothing is duplicated
    expect(await importKeyDocument(db(), { text, source: 'keys.json', now: NOW })).toMatchObject({ imported: false, added: [], skipped: [] });
    expect(await listKeys(db(), { now: NOW })).toHaveLength(3);
    expect(await activeBlocks(db(), { kind: 'key', id: 'key_blocked' }, NOW)).toHaveLength(1);
    const imports = await db().selectFrom('key_imports').selectAll().execute();
    expect(imports).toEqual([expect.objectContaining({ source: 'keys.json', key_count: 3, content_sha256: result.contentSha256 })]);
  });

  it('a changed document adds only its new keys; the database keeps what it holds', async () => {
    await importKeyDocument(db(), { text: serializeKeyDocument(document), source: 'keys.json', now: NOW });
    const changed: KeyDocument = {
      keys: [
        { ...document.keys[0]!, name: 'renamed in the file', perMinute: 1 },
        { id: 'key_other_id', sha256: document.keys[2]!.sha256 }, // a known hash under a new id
        { id: 'key_new', sha256: hashApiKey('svc_new'), name: 'new' },
      ],
    };
    const result = await importKeyDocument(db(), { text: serializeKeyDocument(changed), source: 'keys.json', now: NOW });
    expect(result).toMatchObject({ imported: true, added: ['key_new'], skipped: ['key_1a2b3c4d5e6f', 'key_other_id'] });
    expect((await listKeys(db(), { now: NOW })).map((k) => `${k.id}:${k.name ?? ''}:${k.perMinute ?? ''}`)).toEqual([
      'key_1a2b3c4d5e6f:acme:500',
      'key_blocked:bad:',
      'key_new:new:', // created at NOW as legacy.id-1 was: then by id
      'legacy.id-1::',
    ]);
  });

  it('two instances importing the same document at the same moment import it once', async () => {
    const other = await engine.secondConnection();
    const text = serializeKeyDocument(document);
    const results = await Promise.all([importKeyDocument(engine.shared().db, { text, source: 'a', now: NOW }), importKeyDocument(other.db, { text, source: 'b', now: NOW })]);
    expect(results.map((r) => r.imported).sort()).toEqual([false, true]);
    expect(await listKeys(db(), { now: NOW })).toHaveLength(3);
  });

  it('an invalid document imports nothing; a file is read from its path', async () => {
    await expect(importKeyDocument(db(), { text: '{"keys":[{"id":"x"}]}', source: 'API_KEYS' })).rejects.toThrow(/API_KEYS: invalid API key document/);
    expect(await db().selectFrom('key_imports').selectAll().execute()).toEqual([]);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'key-import-'));
    try {
      const file = path.join(dir, 'keys.json');
      fs.writeFileSync(file, serializeKeyDocument(document));
      expect(await importKeyFile(db(), file, { now: NOW })).toMatchObject({ imported: true, source: file, added: ['key_1a2b3c4d5e6f', 'key_blocked', 'legacy.id-1'] });
      await expect(importKeyFile(db(), path.join(dir, 'missing.json'))).rejects.toThrow(/cannot read the API key file/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
