/**
 * The errors of the repositories, by what the caller did wrong, so that the CLI and the portal can answer each
 * (usage error, 404, 409, 400) without reading messages.
 */

/** Something named does not exist (a key id, an integrator id). */
export class NotFoundError extends Error {
  override readonly name = 'NotFoundError';
}

/** The change contradicts the stored state: the id is taken, the key is already revoked... */
export class ConflictError extends Error {
  override readonly name = 'ConflictError';
}

/**
 * The integrator has a key with a block in force, so no key is made for it until the block ends or is lifted: a
 * block is not escaped by making a new key (nor by rotating one: keys.ts). `until` is the end of the longest block
 * (absent: a block until lifted), `rule` and `reason` that block's; the message names them.
 */
export class IntegratorBlockedError extends Error {
  override readonly name = 'IntegratorBlockedError';
  constructor(
    readonly integratorId: string,
    readonly block: { readonly keyId: string; readonly rule: string; readonly reason: string; readonly until?: string },
  ) {
    const why = block.reason ? `${block.rule}: ${block.reason}` : block.rule;
    const until = block.until === undefined ? 'until an operator lifts it' : `until ${block.until}`;
    super(`integrator "${integratorId}" has a blocked key (${block.keyId}, ${why}) ${until}: no new key is made for it while the block lasts`);
  }

  /** Whole seconds from `now` to the block's end (at least 1), or undefined for a block until lifted. */
  retryAfterSeconds(now: number): number | undefined {
    return this.block.until === undefined ? undefined : Math.max(1, Math.ceil((Date.parse(this.block.until) - now) / 1000));
  }
}

/** A value is invalid (an allowlist entry, a limit, an address); the message names it. */
export class InvalidValueError extends Error {
  override readonly name = 'InvalidValueError';
}

/** PostgreSQL's SQLSTATE of a unique or primary key violation (both engines report it as `code`). */
const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';

export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  return sqlState(error) === UNIQUE_VIOLATION && (constraint === undefined || (error as { constraint?: string }).constraint === constraint);
}

export function isForeignKeyViolation(error: unknown): boolean {
  return sqlState(error) === FOREIGN_KEY_VIOLATION;
}

/**
 * Errors of a database that stopped answering after it opened (a PostgreSQL server stopped, restarted or out of
 * connections; the network to it down; the embedded PGlite closed or its thread ended), as pg, PGlite and Node
 * report them, recognised here for both engines: connection exceptions (SQLSTATE class 08),
 * operator intervention (57P01–57P03), too many connections (53300), refused or broken sockets, a terminated
 * connection, a pool that cannot connect in time. The callers answer 503 with Retry-After for these, not 500.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = sqlState(error);
  if (code !== undefined && (code.startsWith('08') || UNAVAILABLE_CODES.has(code))) return true;
  const message = error instanceof Error ? error.message : '';
  // PostgreSQL's client and pool; PGlite's thread (src/persistence/pgliteThread.ts) and PGlite itself once closed;
  // Kysely once the database was closed under it
  return /Connection terminated|connection (?:is )?(?:closed|ended)|Client has encountered a connection error|timeout exceeded when trying to connect|Cannot use a pool after calling end|the database is closed|the database thread ended|PGlite is closed|driver has already been destroyed/i.test(message);
}

const UNAVAILABLE_CODES: ReadonlySet<string> = new Set([
  '57P01', '57P02', '57P03', '53300', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND',
]);

function sqlState(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code?.toString() : undefined;
}
