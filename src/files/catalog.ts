/** The embedded catalog read from a data folder (chains.json, tokens.json, tools.json, and markets.json when present). */
import fs from 'node:fs';
import path from 'node:path';
import { CatalogDataError, type Catalog, type CatalogOptions } from '../core/catalog/catalog';
import { catalogFromDocuments } from '../core/catalog/documents';
import { readDocument } from './jsonFile';

export function loadCatalog(dataDir: string, options?: CatalogOptions): Catalog {
  const read = (name: string) => readDocument(dataDir, name, (message) => new CatalogDataError(message));
  return catalogFromDocuments({
    chains: read('chains.json'),
    tokens: read('tokens.json'),
    tools: read('tools.json'),
    markets: fs.existsSync(path.join(dataDir, 'markets.json')) ? read('markets.json') : undefined,
  }, options);
}
