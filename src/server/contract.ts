import fs from 'node:fs';
import yaml from 'js-yaml';
import type { Document } from 'openapi-backend';

/**
 * Reads the authoritative contract (openapi.yaml) for validation. OpenAPI 3.0 writes an exclusive bound as
 * `maximum: 1, exclusiveMaximum: true`; the JSON Schema draft that ajv (and openapi-backend's definition
 * check) speak writes it as `exclusiveMaximum: 1`. The bounds are translated here, meaning unchanged.
 */
export function loadContract(openapiPath: string): Document {
  const parsed = yaml.load(fs.readFileSync(openapiPath, 'utf8'));
  if (!parsed || typeof parsed !== 'object' || !('openapi' in parsed)) {
    throw new Error(`${openapiPath} is not an OpenAPI document`);
  }
  return translateExclusiveBounds(parsed) as Document;
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
