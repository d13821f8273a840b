import fs from 'node:fs';
import path from 'node:path';
import { Catalog, CatalogDataError } from './catalog';
import { CHAIN_TYPES, type BridgeTool, type Chain, type ExchangeTool, type MarketFigures, type Token } from '../entities';
import { readJsonFile } from '../jsonFile';

const SCHEMA_VERSION = 1;

/** Loads the embedded catalog (chains.json, tokens.json, tools.json, and markets.json when present) from a data folder. */
export function loadCatalog(dataDir: string): Catalog {
  const chains = readDataFile<{ chains: Chain[] }>(dataDir, 'chains.json').chains;
  const tokens = readDataFile<{ tokens: Token[] }>(dataDir, 'tokens.json').tokens;
  const tools = readDataFile<{ bridges: BridgeTool[]; exchanges: ExchangeTool[] }>(dataDir, 'tools.json');
  const markets = fs.existsSync(path.join(dataDir, 'markets.json')) ? readDataFile<{ markets: Record<string, MarketFigures> }>(dataDir, 'markets.json').markets : undefined;
  for (const chain of chains) {
    if (!CHAIN_TYPES.includes(chain.chainType)) {
      throw new CatalogDataError(`chain ${chain.key} has unknown chainType ${String(chain.chainType)}`);
    }
  }
  return new Catalog({
    chains,
    tokens: tokens.map((t) => ({ ...t, tags: t.tags ?? [] })),
    bridges: tools.bridges,
    exchanges: tools.exchanges,
    markets,
  });
}

function readDataFile<T>(dataDir: string, name: string): T {
  const file = path.join(dataDir, name);
  const parsed = readJsonFile(file, (message) => new CatalogDataError(message));
  const version = (parsed as { schemaVersion?: unknown }).schemaVersion;
  if (version !== SCHEMA_VERSION) {
    throw new CatalogDataError(`${file} has schemaVersion ${String(version)}, this build reads ${SCHEMA_VERSION}`);
  }
  return parsed as T;
}
