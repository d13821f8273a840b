/**
 * openapi.yaml's chain parameters (ChainIdOrKey) accept exactly the catalog's chains: the pattern written by
 * `npm run contract:chains` from data/catalog/chains.json, and the service's own lookup agrees with it.
 */
import fs from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { catalogChainPattern } from '../../../scripts/contract-chains';
import { loadConfig } from '../../../src/config';
import { buildDependencies } from '../../../src/server/dependencies';

const ROOT = path.join(__dirname, '..', '..', '..');
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const spec = yaml.load(fs.readFileSync(path.join(ROOT, 'openapi.yaml'), 'utf8')) as any;
const pattern: string = spec.components.schemas.ChainIdOrKey.pattern;

test('ChainIdOrKey lists the catalog\'s chains (else: npm run contract:chains)', () => {
  expect(pattern).toBe(catalogChainPattern());
  expect(spec.components.schemas.ChainIdOrKey['x-catalog']).toBe('chains');
});

test('what the pattern accepts is what the catalog resolves, and the other way round', async () => {
  const { catalog, access } = buildDependencies(loadConfig({ LOG_LEVEL: 'silent' }));
  try {
    const re = new RegExp(pattern);
    const refs = catalog.listChains().flatMap((c) => [String(c.id), `00${c.id}`, c.key, c.key.toUpperCase()]);
    for (const ref of [...refs, 'nochain', '99999', '4216', 'arbx', '421610']) {
      expect({ ref, contract: re.test(ref) }).toEqual({ ref, contract: catalog.resolveChain(ref) !== undefined });
    }
  } finally {
    await access.close();
  }
});
