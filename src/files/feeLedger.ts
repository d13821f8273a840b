/** The integrators' fee ledger read from its file (FEE_LEDGER_FILE, data/integrators/ledger.json by default). */
import type { Catalog } from '../core/catalog/catalog';
import { FeeLedgerDataError, InMemoryFeeLedger, parseLedger } from '../core/fees/ledger';
import { readJsonFile } from './jsonFile';

export function loadFeeLedger(file: string, catalog: Catalog): InMemoryFeeLedger {
  const parsed = readJsonFile(file, (message) => new FeeLedgerDataError(message));
  return new InMemoryFeeLedger(parseLedger(parsed, catalog, file));
}
