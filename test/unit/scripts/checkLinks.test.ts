import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { anchorsOf, checkLinks, DOCUMENTS, formatBroken, slug } from '../../../scripts/checkLinks';

let root: string;

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), text);
}

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'check-links-'));
  write(
    'docs/running.md',
    [
      '# Running it',
      '',
      '## Configuration',
      '',
      '## Behind a proxy: `TRUST_PROXY`',
      '',
      '## Configuration',
      '',
      '### What 2.0.0 changes (and why)',
      '',
      '```md',
      '## Not a heading: inside a fence',
      '[not a link](missing-in-a-fence.md)',
      '```',
    ].join('\n'),
  );
  write('openapi.yaml', 'openapi: 3.0.3\n');
  write('bench/README.md', '# Bench\n\nBack to [the README](../README.md).\n');
});

afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

test('reports a broken file link and a broken anchor, each with file, line and why; good links are not reported', () => {
  write(
    'README.md',
    [
      '# Service',
      '',
      'Good: [running](docs/running.md), [its configuration](docs/running.md#configuration), the second',
      '[configuration](docs/running.md#configuration-1), [proxy](docs/running.md#behind-a-proxy-trust_proxy),',
      '[2.0.0](docs/running.md#what-200-changes-and-why), [the contract](openapi.yaml#L1), [docs](docs/),',
      '[here](#service), [bench](<bench/README.md>), ![logo](openapi.yaml "title") and [site](https://example.com/nowhere.md),',
      '[mail](mailto:ops@example.com), `[code](missing-in-code.md)`, <!-- [comment](missing-in-comment.md) -->',
      '',
      'Broken: [the deployment page](docs/deploying.md) and [metrics](docs/running.md#metrics).',
      '',
      '[ref]: docs/nowhere.md',
    ].join('\n'),
  );

  const broken = checkLinks(root, ['README.md', 'docs/*.md', 'bench/README.md', 'CHANGELOG.md']);

  expect(broken).toEqual([
    { file: 'README.md', line: 9, link: 'docs/deploying.md', why: 'no file docs/deploying.md' },
    { file: 'README.md', line: 9, link: 'docs/running.md#metrics', why: 'no heading or anchor "#metrics" in docs/running.md' },
    { file: 'README.md', line: 11, link: 'docs/nowhere.md', why: 'no file docs/nowhere.md' },
  ]);
  expect(formatBroken(broken).split('\n')[0]).toBe('README.md:9: docs/deploying.md — no file docs/deploying.md');
});

test('checks anchors within a document and in the docs folder, relative to each document', () => {
  write('README.md', '# Service\n\nSee [missing](#nothing-here).\n');
  write('docs/integrating.md', '# Integrating\n\n[Running](running.md#configuration), [up](../README.md#service), [wrong](../README.md#services).\n');

  expect(checkLinks(root, ['README.md', 'docs/*.md'])).toEqual([
    { file: 'README.md', line: 3, link: '#nothing-here', why: 'no heading or anchor "#nothing-here" in README.md' },
    { file: 'docs/integrating.md', line: 3, link: '../README.md#services', why: 'no heading or anchor "#services" in README.md' },
  ]);
});

test("GitHub's slug rules: lower case, spaces to '-', punctuation removed but '-' and '_', repeated headings numbered", () => {
  expect(slug('Operations: health, readiness, metrics')).toBe('operations-health-readiness-metrics');
  expect(slug("The service's contract addresses (catalog/routers.json)")).toBe('the-services-contract-addresses-catalogroutersjson');
  expect(slug('Where the time goes at 100×')).toBe('where-the-time-goes-at-100');
  expect(slug('snake_case and kebab-case')).toBe('snake_case-and-kebab-case');
  const anchors = anchorsOf('# A\n\n## Tests\n\n## Tests\n\nSetext\n------\n\n<a id="custom"></a>\n\n## `npm run bench:catalog`\n\n## _Emphasis_ here\n');
  expect([...anchors].sort()).toEqual(['a', 'custom', 'emphasis-here', 'npm-run-benchcatalog', 'setext', 'tests', 'tests-1'].sort());
});

test('the project documents it reads by default', () => {
  expect(DOCUMENTS).toEqual(['README.md', 'docs/*.md', 'bench/README.md', 'mocks/README.md', 'data/README.md', 'CHANGELOG.md']);
});
