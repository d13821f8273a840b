import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import type { Document } from 'openapi-backend';

/**
 * Reads the authoritative contract (openapi.yaml) for validation. OpenAPI 3.0 writes an exclusive bound as
 * `maximum: 1, exclusiveMaximum: true`; the JSON Schema draft that ajv (and openapi-backend's definition
 * check) speak writes it as `exclusiveMaximum: 1`. The bounds are translated here, meaning unchanged.
 */
export function loadContract(openapiPath: string): Document {
  return forValidation(readContract(openapiPath));
}

/** The contract as written: its text and the document it parses to (read and parsed once, for every use). */
export interface ContractSource {
  readonly text: string;
  readonly document: Readonly<Record<string, unknown>>;
}

export function readContract(openapiPath: string): ContractSource {
  const text = fs.readFileSync(openapiPath, 'utf8');
  const document = parsedByTheBuild(text) ?? yaml.load(text);
  if (!document || typeof document !== 'object' || !('openapi' in document)) {
    throw new Error(`${openapiPath} is not an OpenAPI document`);
  }
  return { text, document: document as Record<string, unknown> };
}

/**
 * The production build (scripts/build.mjs) writes the contract parsed, next to the service's file: contract.json,
 * `{ sha256, document }`, the document js-yaml parses openapi.yaml to and the SHA-256 of the text it parsed.
 * Parsing the YAML takes ~150 ms; reading the JSON a few. The document is taken only for the very text it was
 * parsed from (another OPENAPI_PATH, or openapi.yaml changed since the build, is parsed here); undefined otherwise,
 * and when the service runs from its sources (tsx, the tests).
 */
function parsedByTheBuild(text: string): unknown {
  if (path.extname(__filename) !== '.js') return undefined;
  let parsed: { sha256?: unknown; document?: unknown };
  try {
    parsed = JSON.parse(fs.readFileSync(path.join(__dirname, 'contract.json'), 'utf8')) as typeof parsed;
  } catch {
    return undefined; // none written (or unreadable): the YAML is parsed
  }
  return parsed.sha256 === createHash('sha256').update(text).digest('hex') ? parsed.document : undefined;
}

/** The document as openapi-backend validates with it (a copy: the source is left as written). */
export function forValidation(source: ContractSource): Document {
  return translateExclusiveBounds(source.document) as Document;
}

function translateExclusiveBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(translateExclusiveBounds);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = translateExclusiveBounds(value);
  for (const [flag, bound] of [['exclusiveMaximum', 'maximum'], ['exclusiveMinimum', 'minimum']] as const) {
    if (typeof out[flag] !== 'boolean') continue;
    if (out[flag] === true && typeof out[bound] === 'number') {
      out[flag] = out[bound];
      delete out[bound];
    } else {
      delete out[flag];
    }
  }
  return out;
}
