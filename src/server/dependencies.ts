import type { Config } from '../config';
import { loadCatalog } from '../core/catalog/load';
import type { Catalog } from '../core/catalog/catalog';

/** Everything the handlers need, built once by the composition root; each part can be overridden by tests. */
export interface Dependencies {
  readonly catalog: Catalog;
}

export function buildDependencies(config: Config, overrides: Partial<Dependencies> = {}): Dependencies {
  return {
    catalog: overrides.catalog ?? loadCatalog(config.dataDir),
  };
}
