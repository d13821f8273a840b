/**
 * `npm run contract:diff`: the breaking-change gate (contract-tests/breakingChanges.ts) on openapi.yaml against
 * the released contract and against the change under review's base (contract-tests/base.ts: HEAD's openapi.yaml
 * when the working tree's differs, else HEAD's parent's), with CHANGELOG.md. Prints the report; exits 1 when the
 * change may not land, 2 when the base cannot be read.
 *   --base <git-ref>   the change under review started from this commit (CI: the merge base with the main branch)
 *   --released <file>  compare with another released contract (default contract-tests/released/openapi.yaml)
 *   --current <file>   check another contract than openapi.yaml (the base is still chosen by openapi.yaml's state)
 *   --repo <dir>       the repository to judge (default this one): its openapi.yaml, CHANGELOG.md, released contract
 */
import fs from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { chooseBase } from './base';
import { gate } from './breakingChanges';

const ROOT = path.resolve(__dirname, '..');

function value(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1] : undefined;
}

export function loadYaml(file: string): Record<string, unknown> {
  return parseYaml(fs.readFileSync(file, 'utf8'));
}

export function parseYaml(text: string): Record<string, unknown> {
  return yaml.load(text) as Record<string, unknown>;
}

function main(): number {
  const repo = path.resolve(value('--repo') ?? ROOT);
  const option = (name: string, fallback: string) => path.resolve(value(name) ?? path.join(repo, fallback));
  const released = loadYaml(option('--released', 'contract-tests/released/openapi.yaml'));
  const current = loadYaml(option('--current', 'openapi.yaml'));
  const changelog = fs.readFileSync(path.join(repo, 'CHANGELOG.md'), 'utf8');
  const choice = chooseBase(repo, { explicit: value('--base') });
  if (choice.kind === 'error') {
    process.stdout.write(`contract:diff: ${choice.reason}\n`);
    return 2;
  }
  const verdict = gate(released, current, changelog, choice.kind === 'base'
    ? { base: { doc: parseYaml(choice.text), label: choice.label, review: choice.review } }
    : { baseNote: choice.reason });
  process.stdout.write(`${verdict.report}\n`);
  return verdict.ok ? 0 : 1;
}

if (require.main === module) process.exitCode = main();
