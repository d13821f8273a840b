/**
 * The catalog made from its documents (the embedded data's chains.json, tokens.json, tools.json and markets.json, read
 * by src/files/catalog.ts): each document's schema version and chain types checked, the values handed to Catalog.
 */
import { Catalog, CatalogDataError, type CatalogData, type CatalogOptions } from './catalog';
import { CHAIN_TYPES, type BridgeTool, type Chain, type ExchangeTool, type MarketFigures, type RetiredTool } from '../entities';

const SCHEMA_VERSION = 1;

/** A parsed JSON document and where it came from (named in errors). */
export interface DataDocument {
  readonly source: string;
  readonly json: unknown;
}

export interface CatalogDocuments {
  readonly chains: DataDocument;
  readonly tokens: DataDocument;
  readonly tools: DataDocument;
  /** The coins' reference market figures (optional). */
  readonly markets?: DataDocument;
}

/** The catalog of the documents; a document of another schema version, or a chain of an unknown type, is a CatalogDataError. */
export function catalogFromDocuments(documents: CatalogDocuments, options?: CatalogOptions): Catalog {
  const chains = versioned<{ chains: Chain[] }>(documents.chains).chains;
  const tokens = versioned<{ tokens: CatalogData['tokens'] }>(documents.tokens).tokens;
  const tools = versioned<{ bridges: BridgeTool[]; exchanges: ExchangeTool[]; retired?: RetiredTool[] }>(documents.tools);
  const markets = documents.markets ? versioned<{ markets: Record<string, MarketFigures> }>(documents.markets).markets : undefined;
  for (const chain of chains) {
    if (!CHAIN_TYPES.includes(chain.chainType)) {
      throw new CatalogDataError(`chain ${chain.key} has unknown chainType ${String(chain.chainType)}`);
    }
  }
  return new Catalog({
    chains,
    tokens,
    bridges: tools.bridges,
    exchanges: tools.exchanges,
    retired: tools.retired,
    markets,
  }, options);
}

function versioned<T>(document: DataDocument): T {
  const version = (document.json as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (version !== SCHEMA_VERSION) {
    throw new CatalogDataError(`${document.source} has schemaVersion ${String(version)}, this build reads ${SCHEMA_VERSION}`);
  }
  return document.json as T;
}
