import { AddressSet } from './ipAddress';
import { KEY_ID_PATTERN, SHA256_PATTERN, type ApiKeyRecord } from './keys';

/**
 * The key document, in API_KEYS_FILE or inline in API_KEYS:
 *   { "keys": [ { "id": "key_1a2b3c4d5e6f", "name": "acme", "sha256": "<64 hex>", "perMinute": 500,
 *                 "ipAllowlist": ["203.0.113.0/24"], "integrators": ["acme"], "blocked": false } ] }
 * Unknown fields are refused, so that a misspelt "perMinute" cannot silently fall back to the default.
 */
export interface KeyDocument {
  keys: ApiKeyRecord[];
}

const FIELDS = new Set(['id', 'name', 'sha256', 'createdAt', 'ipAllowlist', 'integrators', 'perMinute', 'blocked', 'blockedReason']);
/** Upper bound of a key's per-minute limit (memory follows the requests really made: 8 bytes each per window). */
export const MAX_PER_MINUTE = 1_000_000;
/** The contract's IntegratorString. */
export const INTEGRATOR_ID_PATTERN = /^[a-zA-Z0-9._-]{1,64}$/;

export class KeyDocumentError extends Error {
  constructor(source: string, readonly problems: string[]) {
    super(`${source}: invalid API key document:\n  - ${problems.join('\n  - ')}`);
    this.name = 'KeyDocumentError';
  }
}

/** Parses and validates a key document, collecting every problem; `source` names it in messages. */
export function parseKeyDocument(text: string, source: string): KeyDocument {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new KeyDocumentError(source, [`not valid JSON (${(error as Error).message})`]);
  }
  if (!isObject(parsed) || !Array.isArray(parsed.keys)) {
    throw new KeyDocumentError(source, ['expected an object {"keys": [...]}']);
  }
  const problems: string[] = [];
  const keys: ApiKeyRecord[] = [];
  const ids = new Set<string>();
  const hashes = new Set<string>();
  parsed.keys.forEach((entry: unknown, index: number) => {
    const where = `keys[${index}]`;
    if (!isObject(entry)) {
      problems.push(`${where} must be an object`);
      return;
    }
    const before = problems.length;
    for (const field of Object.keys(entry)) {
      if (!FIELDS.has(field)) problems.push(`${where} has an unknown field "${field}"`);
    }
    const { id, name, sha256, createdAt, ipAllowlist, integrators, perMinute, blocked, blockedReason } = entry;
    if (typeof id !== 'string' || !KEY_ID_PATTERN.test(id)) {
      problems.push(`${where}.id must match ${KEY_ID_PATTERN.source}`);
    } else if (ids.has(id)) {
      problems.push(`${where}.id "${id}" is used twice`);
    } else {
      ids.add(id);
    }
    if (typeof sha256 !== 'string' || !SHA256_PATTERN.test(sha256)) {
      problems.push(`${where}.sha256 must be 64 lower-case hex digits (the SHA-256 of the key, never the key)`);
    } else if (hashes.has(sha256)) {
      problems.push(`${where}.sha256 is the hash of another key too`);
    } else {
      hashes.add(sha256);
    }
    if (name !== undefined && typeof name !== 'string') problems.push(`${where}.name must be a string`);
    if (createdAt !== undefined && typeof createdAt !== 'string') problems.push(`${where}.createdAt must be a string`);
    if (blockedReason !== undefined && typeof blockedReason !== 'string') problems.push(`${where}.blockedReason must be a string`);
    if (blocked !== undefined && typeof blocked !== 'boolean') problems.push(`${where}.blocked must be true or false`);
    if (perMinute !== undefined && (!Number.isInteger(perMinute) || (perMinute as number) < 1 || (perMinute as number) > MAX_PER_MINUTE)) {
      problems.push(`${where}.perMinute must be an integer from 1 to ${MAX_PER_MINUTE}`);
    }
    if (ipAllowlist !== undefined) {
      if (!isStringArray(ipAllowlist) || ipAllowlist.length === 0) {
        problems.push(`${where}.ipAllowlist must be a non-empty array of addresses or CIDR ranges`);
      } else {
        try {
          new AddressSet(ipAllowlist);
        } catch (error) {
          problems.push(`${where}.ipAllowlist: ${(error as Error).message}`);
        }
      }
    }
    if (integrators !== undefined && (!isStringArray(integrators) || integrators.length === 0 || integrators.some((i) => !INTEGRATOR_ID_PATTERN.test(i)))) {
      problems.push(`${where}.integrators must be a non-empty array of integrator ids (${INTEGRATOR_ID_PATTERN.source})`);
    }
    if (problems.length > before) return;
    keys.push(entry as unknown as ApiKeyRecord);
  });
  if (problems.length > 0) throw new KeyDocumentError(source, problems);
  return { keys };
}

/** Stable, readable serialisation (two-space JSON, trailing newline). */
export function serializeKeyDocument(document: KeyDocument): string {
  return `${JSON.stringify({ keys: document.keys }, null, 2)}\n`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}
