import fs from 'node:fs';
import yaml from 'js-yaml';
import type { Document } from 'openapi-backend';

/** Reads the authoritative contract (openapi.yaml). */
export function loadContract(openapiPath: string): Document {
  const parsed = yaml.load(fs.readFileSync(openapiPath, 'utf8'));
  if (!parsed || typeof parsed !== 'object' || !('openapi' in parsed)) {
    throw new Error(`${openapiPath} is not an OpenAPI document`);
  }
  return parsed as Document;
}
