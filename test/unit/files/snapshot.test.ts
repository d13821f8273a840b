import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_DATA_DIR, DEFAULT_SNAPSHOT_DIR } from '../../../src/config';
import { SnapshotDataError } from '../../../src/core/liquidity/documents';
import { loadCatalog } from '../../../src/files/catalog';
import { loadSnapshot } from '../../../src/files/snapshot';

const catalog = loadCatalog(DEFAULT_DATA_DIR);
const readJson = (name: string) => JSON.parse(fs.readFileSync(path.join(DEFAULT_SNAPSHOT_DIR, name), 'utf8'));

test('the embedded snapshot is read with its big integers as bigints, every pool and route kept', () => {
  const snapshot = loadSnapshot(DEFAULT_SNAPSHOT_DIR, catalog);
  const pools = readJson('pools.json') as { asOf: string; pools: { id: string; reserves?: string[] }[] };
  expect(snapshot.asOf).toBe(pools.asOf);
  expect(snapshot.pools.map((p) => p.id)).toEqual(pools.pools.map((p) => p.id));
  expect(snapshot.bridges).toHaveLength((readJson('bridges.json') as { routes: unknown[] }).routes.length);
  const raw = pools.pools.find((p) => p.reserves)!;
  const pool = snapshot.pools.find((p) => p.id === raw.id)!;
  expect(pool.kind === 'constantProduct' && pool.reserves).toEqual(raw.reserves!.map(BigInt));
});

test.each([
  ['a missing file', (dir: string) => fs.rmSync(path.join(dir, 'bridges.json')), /cannot read .*bridges\.json/],
  ['a pool of a token the catalog does not know', (dir: string) => {
    const pools = readJson('pools.json') as { pools: { tokens: string[] }[] };
    pools.pools[0]!.tokens[0] = '0x000000000000000000000000000000000000dEaD';
    fs.writeFileSync(path.join(dir, 'pools.json'), JSON.stringify(pools));
  }, /names token 0x000000000000000000000000000000000000dEaD that is not in the catalog/],
])('%s is a SnapshotDataError', (_name, damage, message) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'snapshot-'));
  try {
    for (const name of fs.readdirSync(DEFAULT_SNAPSHOT_DIR)) fs.copyFileSync(path.join(DEFAULT_SNAPSHOT_DIR, name), path.join(dir, name));
    damage(dir);
    expect(() => loadSnapshot(dir, catalog)).toThrow(SnapshotDataError);
    expect(() => loadSnapshot(dir, catalog)).toThrow(message);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
