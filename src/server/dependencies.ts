import type { Config } from '../config';
import { loadCatalog } from '../core/catalog/load';
import type { Catalog } from '../core/catalog/catalog';
import { buildAccessControl } from './access/build';
import type { AccessControl } from './access/middleware';

/** Everything the handlers need, built once by the composition root; each part can be overridden by tests. */
export interface Dependencies {
  readonly catalog: Catalog;
  /** API keys and rate limits (src/server/access); close() it on shutdown (it may hold a Redis connection). */
  readonly access: AccessControl;
}

export function buildDependencies(config: Config, overrides: Partial<Dependencies> = {}): Dependencies {
  return {
    catalog: overrides.catalog ?? loadCatalog(config.dataDir),
    access: overrides.access ?? buildAccessControl(config),
  };
}
