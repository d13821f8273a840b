/**
 * `npm run contract:diff`: the breaking-change gate (contract-tests/breakingChanges.ts) on openapi.yaml against
 * the released contract, with CHANGELOG.md. Prints the report; exits 1 when the change may not land.
 *   --released <file>  compare with another released contract (default contract-tests/released/openapi.yaml)
 *   --current <file>   check another contract than openapi.yaml
 */
import fs from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { gate } from './breakingChanges';

const ROOT = path.resolve(__dirname, '..');

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  return at >= 0 && process.argv[at + 1] ? path.resolve(process.argv[at + 1]) : path.join(ROOT, fallback);
}

export function loadYaml(file: string): Record<string, unknown> {
  return yaml.load(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
}

if (require.main === module) {
  const released = loadYaml(option('--released', 'contract-tests/released/openapi.yaml'));
  const current = loadYaml(option('--current', 'openapi.yaml'));
  const verdict = gate(released, current, fs.readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8'));
  process.stdout.write(`${verdict.report}\n`);
  process.exitCode = verdict.ok ? 0 : 1;
}
