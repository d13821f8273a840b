import { createHash, randomBytes } from 'node:crypto';

/**
 * An API key as the service knows it: never the key itself, only its SHA-256 digest.
 * Everything else is public to the operators (ids appear in logs and in rate-limit bucket names).
 */
export interface ApiKeyRecord {
  /** Stable public identifier, reported by GET /v1/keys/test and written in logs instead of the key. */
  readonly id: string;
  /** Human label (customer or purpose). */
  readonly name?: string;
  /** Lower-case hex SHA-256 of the key. */
  readonly sha256: string;
  readonly createdAt?: string;
  /** Source addresses (IPv4/IPv6 addresses or CIDR ranges) the key may be used from; absent = anywhere. */
  readonly ipAllowlist?: readonly string[];
  /** Integrator ids the key may name in `integrator`; absent = any. */
  readonly integrators?: readonly string[];
  /** Per-minute limit of this key (enterprise); absent = the default of 100. */
  readonly perMinute?: number;
  /** A blocked key is refused with 403 until unblocked. */
  readonly blocked?: boolean;
  readonly blockedReason?: string;
}

/** Keys look like `svc_` followed by 43 base64url characters (256 random bits). */
export const KEY_PREFIX = 'svc_';
export const KEY_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const SHA256_PATTERN = /^[0-9a-f]{64}$/;

export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

export function generateKeyId(): string {
  return `key_${randomBytes(6).toString('hex')}`;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/**
 * A short, non-reversible tag of a presented key for correlating log lines (48 bits of its SHA-256):
 * it says nothing about the key, and is what logs carry for keys the service does not know.
 */
export function keyFingerprint(key: string): string {
  return hashApiKey(key).slice(0, 12);
}
