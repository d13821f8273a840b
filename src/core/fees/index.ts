/** Integrators' collected fees: the ledger (seeded locally), balance reports and withdrawal transactions. */
export * from './feeLedger';
export * from './ledger';
export * from './booking';
export * from './balances';
export * from './withdrawal';
