/**
 * `npm run contract:chains [-- --check]`: writes the catalog's chains into openapi.yaml, as the pattern of
 * `ChainIdOrKey` (every chain query and path parameter): the ids and keys of data/catalog/chains.json
 * (src/core/catalog/chainRefPattern.ts). Run it after `npm run data:catalog` changes the chains; a chain added widens
 * the contract, a chain removed narrows it (the breaking-change gate says so). test/unit/data/contractChains.test.ts
 * checks that the two agree.
 */
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { chainRefPattern, type ChainRefOf } from '../src/core/catalog/chainRefPattern';
import { runScript, writeGenerated } from './catalog/format';

const ROOT = path.resolve(__dirname, '..');
const CONTRACT = 'openapi.yaml';
export const CHAIN_SCHEMA = ['components', 'schemas', 'ChainIdOrKey', 'pattern'];

export function catalogChainPattern(root = ROOT): string {
  const { chains } = JSON.parse(fs.readFileSync(path.join(root, 'data', 'catalog', 'chains.json'), 'utf8')) as { chains: ChainRefOf[] };
  return chainRefPattern(chains);
}

/** openapi.yaml with the catalog's chain pattern (its comments and layout kept). */
export function withChainPattern(contract: string, pattern: string): string {
  const doc = YAML.parseDocument(contract);
  if (!doc.hasIn(CHAIN_SCHEMA)) throw new Error(`${CONTRACT} has no ${CHAIN_SCHEMA.slice(0, -1).join('.')} with a pattern`);
  doc.setIn(CHAIN_SCHEMA, pattern);
  return doc.toString({ lineWidth: 0 });
}

if (require.main === module) {
  runScript((argv) => {
    const contract = fs.readFileSync(path.join(ROOT, CONTRACT), 'utf8');
    const stale = writeGenerated(ROOT, { [CONTRACT]: withChainPattern(contract, catalogChainPattern()) }, argv.includes('--check'), 'npm run contract:chains');
    return stale > 0 ? 1 : 0;
  });
}
