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

function sqlState(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code?.toString() : undefined;
}
