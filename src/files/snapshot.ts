/** The embedded liquidity snapshot read from its folder (pools.json, bridges.json, chains.json). */
import type { Catalog } from '../core/catalog/catalog';
import { SnapshotDataError, snapshotFromDocuments } from '../core/liquidity/documents';
import type { LiquiditySnapshot } from '../core/liquidity/snapshot';
import { readDocument } from './jsonFile';

/** Loads the snapshot, checking every token against the catalog. */
export function loadSnapshot(snapshotDir: string, catalog: Catalog): LiquiditySnapshot {
  const read = (name: string) => readDocument(snapshotDir, name, (message) => new SnapshotDataError(message));
  return snapshotFromDocuments({ pools: read('pools.json'), bridges: read('bridges.json'), chains: read('chains.json') }, catalog);
}
