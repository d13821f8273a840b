/**
 * `npm run contract:release`: releases the contract as it is now. Runs the breaking-change gate, then copies
 * openapi.yaml to contract-tests/released/openapi.yaml (the baseline of the next comparisons) and dates the
 * version's CHANGELOG.md section ("## 2.0.0 (unreleased)" → "## 2.0.0 (2026-11-26)"). Commit both files.
 */
import fs from 'node:fs';
import path from 'node:path';
import { compareVersions, gate } from './breakingChanges';
import { changelogSection } from './changelog';
import { loadYaml } from './diff';

const ROOT = path.resolve(__dirname, '..');
const CURRENT = path.join(ROOT, 'openapi.yaml');
const RELEASED = path.join(ROOT, 'contract-tests', 'released', 'openapi.yaml');
const CHANGELOG = path.join(ROOT, 'CHANGELOG.md');

function main(): number {
  const released = loadYaml(RELEASED);
  const current = loadYaml(CURRENT);
  const changelog = fs.readFileSync(CHANGELOG, 'utf8');
  const verdict = gate(released, current, changelog);
  process.stdout.write(`${verdict.report}\n`);
  if (!verdict.ok) return 1;
  if (compareVersions(verdict.current, verdict.released) <= 0) {
    process.stdout.write(`contract:release: ${verdict.current} is already released\n`);
    return 1;
  }
  if (!changelogSection(changelog, verdict.current)) {
    process.stdout.write(`contract:release: CHANGELOG.md has no section for ${verdict.current}\n`);
    return 1;
  }
  const today = new Date().toISOString().slice(0, 10);
  fs.writeFileSync(CHANGELOG, changelog.replace(new RegExp(`^## ${verdict.current.replace(/\./g, '\\.')} \\(unreleased\\)`, 'm'), `## ${verdict.current} (${today})`));
  fs.copyFileSync(CURRENT, RELEASED);
  process.stdout.write(`contract:release: ${verdict.current} released (contract-tests/released/openapi.yaml, CHANGELOG.md): commit both\n`);
  return 0;
}

process.exitCode = main();
