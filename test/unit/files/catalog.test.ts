import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_DATA_DIR } from '../../../src/config';
import { CatalogDataError } from '../../../src/core/catalog/catalog';
import { loadCatalog } from '../../../src/files/catalog';

/** A copy of the embedded catalog folder, to break one file of. */
function copyOfCatalog(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-'));
  for (const name of fs.readdirSync(DEFAULT_DATA_DIR)) fs.copyFileSync(path.join(DEFAULT_DATA_DIR, name), path.join(dir, name));
  return dir;
}

test('the embedded catalog is read from its folder, markets included', () => {
  const catalog = loadCatalog(DEFAULT_DATA_DIR);
  const tokens = JSON.parse(fs.readFileSync(path.join(DEFAULT_DATA_DIR, 'tokens.json'), 'utf8')) as { tokens: { chainId: number; address: string }[] };
  const { chainId, address } = tokens.tokens[0]!;
  expect(catalog.findToken(chainId, address)?.address).toBe(address);
  const usdc = catalog.findToken(1, 'USDC');
  expect(usdc && catalog.marketOf(usdc)).toBeDefined();
});

test('without markets.json the catalog loads without market figures', () => {
  const dir = copyOfCatalog();
  try {
    fs.rmSync(path.join(dir, 'markets.json'));
    const catalog = loadCatalog(dir);
    expect(catalog.marketOf(catalog.findToken(1, 'USDC')!)).toBeUndefined();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test.each([
  ['a missing file', (dir: string) => fs.rmSync(path.join(dir, 'tokens.json')), /cannot read .*tokens\.json/],
  ['a file that is not JSON', (dir: string) => fs.writeFileSync(path.join(dir, 'chains.json'), '{ broken'), /cannot read .*chains\.json/],
  ['another schema version', (dir: string) => fs.writeFileSync(path.join(dir, 'tools.json'), JSON.stringify({ schemaVersion: 2, bridges: [], exchanges: [] })), /tools\.json has schemaVersion 2, this build reads 1/],
])('%s is a CatalogDataError naming the file', (_name, damage, message) => {
  const dir = copyOfCatalog();
  try {
    damage(dir);
    expect(() => loadCatalog(dir)).toThrow(CatalogDataError);
    expect(() => loadCatalog(dir)).toThrow(message);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
