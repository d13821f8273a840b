/** The service's contract deployments read from the catalog folder (routers.json). */
import path from 'node:path';
import { CatalogDataError, type Catalog } from '../core/catalog/catalog';
import { RouterDeployments, validateRouters } from '../core/catalog/routers';
import { readJsonFile } from './jsonFile';

export const ROUTERS_FILE = 'routers.json';

/** Reads and validates routers.json; with a catalog, also requires a deployment on every EVM chain of it. */
export function loadRouters(dataDir: string, catalog?: Catalog): RouterDeployments {
  const file = path.join(dataDir, ROUTERS_FILE);
  return new RouterDeployments(validateRouters(readJsonFile(file, (message) => new CatalogDataError(message)), file, catalog));
}
