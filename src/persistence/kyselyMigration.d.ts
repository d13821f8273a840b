/**
 * Kysely 0.29 exports its Migrator from the subpath `kysely/migration` only (package.json `exports`), which this
 * project's module resolution ("node", for CommonJS) does not read: this points the compiler at its types. Node,
 * tsx and jest resolve the subpath themselves.
 */
declare module 'kysely/migration' {
  export * from 'kysely/dist/migration/index.js';
}
