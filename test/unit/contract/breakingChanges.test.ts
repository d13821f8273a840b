/**
 * The breaking-change gate (contract-tests/breakingChanges.ts): fixtures made from the released contract by one
 * change each, judged against a changelog; and the current contract against the released one, as CI judges it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { compareVersions, gate, SDK_CALLERS } from '../../../contract-tests/breakingChanges';
import { changelogSection } from '../../../contract-tests/changelog';
import { loadYaml } from '../../../contract-tests/diff';

const ROOT = path.join(__dirname, '..', '..', '..');
const RELEASED = path.join(ROOT, 'contract-tests', 'released', 'openapi.yaml');
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = any;

const released = (): Doc => loadYaml(RELEASED);
const releasedVersion = (): string => released().info.version;
const [major, minor] = releasedVersion().split('.').map(Number);
const nextMinor = `${major}.${minor + 1}.0`;
const nextMajor = `${major + 1}.0.0`;

/** One change to the released contract, its version set to `version`. */
function fixture(change: (doc: Doc) => void, version = nextMinor): Doc {
  const doc = released();
  change(doc);
  doc.info.version = version;
  return doc;
}

const removeResponseField = (doc: Doc) => {
  // optional in the schema, read by integrators all the same
  expect(doc.components.schemas.Estimate.required).not.toContain('toAmountUSD');
  delete doc.components.schemas.Estimate.properties.toAmountUSD;
};
const newRequiredParameter = (doc: Doc) => {
  doc.paths['/v1/quote'].get.parameters.push({ name: 'referrer', in: 'query', required: true, schema: { type: 'string' } });
};
const narrowEnum = (doc: Doc) => {
  doc.components.schemas.ChainType.enum = doc.components.schemas.ChainType.enum.filter((t: string) => t !== 'TVM');
};
const additive = (doc: Doc) => {
  doc.paths['/v1/quote'].get.parameters.push({ name: 'referrer', in: 'query', required: false, schema: { type: 'string' } });
  doc.components.schemas.Estimate.properties.estimatedAt = { type: 'integer', description: 'Unix time of the estimate' };
  doc.paths['/v1/quote/history'] = { get: { operationId: 'getQuoteHistory', responses: { '200': { description: 'ok' } } } };
};

const changelogFor = (version: string, body = '### Added\n- things\n') => `# Contract changelog\n\n## ${version} (unreleased)\n\n${body}\n## ${releasedVersion()}\n`;

describe('breaking changes fail the gate with a report of what breaks and for whom', () => {
  test('a removed response field (optional or not)', () => {
    const verdict = gate(released(), fixture(removeResponseField), changelogFor(nextMinor));
    expect(verdict.ok).toBe(false);
    expect(verdict.report).toContain('BREAKING:');
    expect(verdict.report).toMatch(/GET \/v1\/quote {2}\(called by the ecosystem SDK's getQuote\)\n {4}- response 200 field estimate\.toAmountUSD: field removed; breaks integrators that read it/);
    expect(verdict.report).toContain("POST /v1/advanced/routes  (called by the ecosystem SDK's getRoutes)");
    expect(verdict.report).toContain('response 200 field routes[].steps[].estimate.toAmountUSD');
    expect(verdict.report).toContain(`a breaking change needs a new major version (${nextMajor})`);
  });

  test('a new required parameter', () => {
    const verdict = gate(released(), fixture(newRequiredParameter), changelogFor(nextMinor));
    expect(verdict.ok).toBe(false);
    expect(verdict.changes.filter((c) => c.breaking)).toEqual([
      { operation: 'GET /v1/quote', side: 'request', where: 'query parameter referrer', what: 'added (required)', breaking: true },
    ]);
    expect(verdict.report).toContain('- query parameter referrer: added (required); breaks integrators that send it');
  });

  test('a narrowed enum of a request parameter', () => {
    const verdict = gate(released(), fixture(narrowEnum), changelogFor(nextMinor));
    expect(verdict.ok).toBe(false);
    const broken = verdict.changes.filter((c) => c.breaking).map((c) => `${c.operation} ${c.where}: ${c.what}`);
    expect(broken).toEqual(expect.arrayContaining([
      'GET /v1/chains query parameter chainTypes: allowed value removed ("TVM")',
      'GET /v1/tokens query parameter chainTypes: allowed value removed ("TVM")',
      'GET /v1/connections query parameter chainTypes: allowed value removed ("TVM")',
    ]));
    // fewer chain types in an answer is no break for its readers
    expect(verdict.changes).toContainEqual(expect.objectContaining({ operation: 'GET /v1/chains', side: 'response', breaking: false }));
  });

  test('a breaking change passes only with a new major version and a changelog naming every operation it breaks', () => {
    const body = '### Breaking\n- `GET /v1/quote`: the query parameter `referrer` is required\n';
    expect(gate(released(), fixture(newRequiredParameter, nextMajor), changelogFor(nextMajor, body)).ok).toBe(true);
    // the major version without the changelog entry, and the entry under a minor version, both fail
    const unannounced = gate(released(), fixture(newRequiredParameter, nextMajor), changelogFor(nextMajor));
    expect(unannounced.ok).toBe(false);
    expect(unannounced.report).toContain(`CHANGELOG.md's "## ${nextMajor}" does not name 1 breaking change(s)`);
    expect(unannounced.report).toContain('- `GET /v1/quote`: query parameter `referrer` added (required)');
    expect(gate(released(), fixture(newRequiredParameter, nextMinor), changelogFor(nextMinor, body)).ok).toBe(false);
    // an entry naming another operation does not cover this one
    const elsewhere = '### Breaking\n- `GET /v1/quote/toAmount`: something else\n';
    expect(gate(released(), fixture(newRequiredParameter, nextMajor), changelogFor(nextMajor, elsewhere)).ok).toBe(false);
  });
});

test('a beta operation may break in a minor version, announced in the changelog (each place it breaks)', () => {
  const removeBetaField = (doc: Doc) => {
    const op = doc.paths['/v1/calldata/parse'].get;
    expect(op['x-beta']).toBe(true);
    op.parameters = op.parameters.filter((p: Doc) => p.$ref || p.name !== 'chainId');
    op.parameters.push({ name: 'format', in: 'query', required: true, schema: { type: 'string' } });
  };
  const body = '### Breaking\n- `GET /v1/calldata/parse` (beta): the query parameter `format` is required, the query parameter `chainId` removed\n';
  expect(gate(released(), fixture(removeBetaField), changelogFor(nextMinor, body)).ok).toBe(true);
  expect(gate(released(), fixture(removeBetaField), changelogFor(nextMinor)).ok).toBe(false);
  // the operation named for one of its breaks does not cover the other
  const formatOnly = gate(released(), fixture(removeBetaField), changelogFor(nextMinor, '### Breaking\n- `GET /v1/calldata/parse` (beta): the query parameter `format` is required\n'));
  expect(formatOnly.ok).toBe(false);
  expect(formatOnly.report).toContain('- `GET /v1/calldata/parse`: query parameter `chainId` removed');
});

test('error answers shared through components/responses are judged as answers: a bound added passes, a field removed fails', () => {
  const boundAdded = gate(released(), fixture((doc) => {
    doc.components.schemas.Error.properties.requestId.maxLength = 64;
  }), changelogFor(nextMinor));
  expect(boundAdded.changes.length).toBeGreaterThan(0);
  expect(boundAdded.changes.filter((c) => c.breaking)).toEqual([]);
  expect(boundAdded.ok).toBe(true);
  const fieldRemoved = gate(released(), fixture((doc) => {
    delete doc.components.schemas.Error.properties.requestId;
  }), changelogFor(nextMinor));
  expect(fieldRemoved.ok).toBe(false);
  expect(fieldRemoved.changes).toContainEqual(expect.objectContaining({ operation: 'GET /v1/quote', where: 'response 500 field requestId', breaking: true }));
  const headerAdded = gate(released(), fixture((doc) => {
    doc.components.responses.BadRequest.headers['x-request-id'] = { schema: { type: 'string' } };
  }), changelogFor(nextMinor));
  expect(headerAdded.ok).toBe(true);
  const headerRemoved = gate(released(), fixture((doc) => {
    delete doc.components.responses.BadRequest.headers['ratelimit-limit'];
  }), changelogFor(nextMinor));
  expect(headerRemoved.ok).toBe(false);
  expect(headerRemoved.changes).toContainEqual(expect.objectContaining({ operation: 'GET /v1/quote', where: 'response 400 header ratelimit-limit', breaking: true }));
  const codeWidened = gate(released(), fixture((doc) => {
    const code = doc.components.schemas.Error.properties.code;
    expect(Array.isArray(code.enum)).toBe(true);
    code.enum.push(1999);
  }), changelogFor(nextMinor));
  expect(codeWidened.ok).toBe(false);
});

test('a request parameter narrowed to what the service refused anyway passes in a minor version when the changelog names it', () => {
  const narrowChain = (doc: Doc) => {
    // bodies keep the generic chain text (as openapi.yaml's ChainIdOrKeyText)
    doc.components.schemas.ChainRef.oneOf[1] = { ...doc.components.schemas.ChainIdOrKey };
    doc.components.schemas.ChainIdOrKey.pattern = '^(0*(1|10|42161)|[aA][rR][bB]|[eE][tT][hH]|[oO][pP][tT])$';
  };
  const part = (text: string) => changelogFor(nextMinor, `### Narrowed to what the service already refused\n${text}\n`);
  const everyOperation = 'GET /v1/tokens, GET /v1/token, GET /v1/quote, GET /v1/quote/toAmount, GET /v1/status, GET /v1/integrators/{integratorId}/withdraw/{chainId}, GET /v1/gas/suggestion/{chain}, GET /v1/gas/prices/{chainId}, GET /v1/calldata/parse, GET /v1/tools, GET /v1/connections';
  const named = gate(released(), fixture(narrowChain), part(`- \`chain\`, \`chains\`, \`chainId\`, \`fromChain\`, \`toChain\`: the catalog's chains. Operations: ${everyOperation}.`));
  expect(named.report).toContain('Narrowed to what the service already refused');
  expect(named.report).toContain('GET /v1/token: query parameter chain: pattern changed');
  expect(named.ok).toBe(true);
  // a parameter or an operation the entry does not name is still a breaking change
  const noToChain = gate(released(), fixture(narrowChain), part(`- \`chain\`, \`chains\`, \`chainId\`, \`fromChain\`. Operations: ${everyOperation}.`));
  expect(noToChain.ok).toBe(false);
  expect(noToChain.changes.filter((c) => c.breaking && !c.acknowledged).map((c) => c.where)).toEqual(expect.arrayContaining(['query parameter toChain']));
  const noQuote = gate(released(), fixture(narrowChain), part(`- \`chain\`, \`chains\`, \`chainId\`, \`fromChain\`, \`toChain\`. Operations: ${everyOperation.replace('GET /v1/quote, ', '')}.`));
  expect(noQuote.ok).toBe(false);
  expect(noQuote.report).toMatch(/BREAKING:\n {2}GET \/v1\/quote {2}/);
  // an answer narrowed or widened is no request the service refused
  const answer = gate(released(), fixture((doc) => {
    delete doc.components.schemas.Estimate.properties.toAmountUSD;
  }), part('- `toAmountUSD` of GET /v1/quote'));
  expect(answer.ok).toBe(false);
});

describe('additive changes pass', () => {
  test('a new optional parameter, a new response field and a new operation, with a new version and its changelog section', () => {
    const verdict = gate(released(), fixture(additive), changelogFor(nextMinor));
    expect(verdict.report).toContain('Gate: passed.');
    expect(verdict.ok).toBe(true);
    expect(verdict.changes.every((c) => !c.breaking)).toBe(true);
    expect(verdict.report).toContain('- query parameter referrer: added');
    expect(verdict.report).toContain('GET /v1/quote/history');
  });

  test('but not unversioned or without a changelog section', () => {
    const sameVersion = gate(released(), fixture(additive, releasedVersion()), changelogFor(releasedVersion()));
    expect(sameVersion.ok).toBe(false);
    expect(sameVersion.report).toContain(`info.version is still ${releasedVersion()}`);
    const noSection = gate(released(), fixture(additive), changelogFor('9.9.9'));
    expect(noSection.ok).toBe(false);
    expect(noSection.report).toContain(`CHANGELOG.md has no section "## ${nextMinor}"`);
  });

  test('descriptions and examples change freely', () => {
    const doc = released();
    doc.paths['/v1/quote'].get.description = 'Reworded.';
    expect(gate(released(), doc, '').ok).toBe(true);
  });
});

test('the current contract passes against the released one, with CHANGELOG.md', () => {
  const verdict = gate(released(), loadYaml(path.join(ROOT, 'openapi.yaml')), fs.readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8'));
  if (!verdict.ok) throw new Error(verdict.report);
  expect(compareVersions(verdict.current, verdict.released)).toBeGreaterThanOrEqual(0);
  if (verdict.changes.length > 0) expect(compareVersions(verdict.current, verdict.released)).toBeGreaterThan(0);
});

test("CHANGELOG.md has a section for the current and the released version", () => {
  const changelog = fs.readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8');
  const current = loadYaml(path.join(ROOT, 'openapi.yaml')) as Doc;
  expect(changelogSection(changelog, current.info.version)).toBeDefined();
  expect(changelogSection(changelog, releasedVersion())).toBeDefined();
  expect(changelogSection(changelog, '0.0.1')).toBeUndefined();
});

test("the SDK callers named in the report are the SDK's own (its actions' source)", () => {
  const actions = path.join(ROOT, 'node_modules', '@lifi', 'sdk', 'dist', 'esm', 'actions');
  for (const [operation, callers] of Object.entries(SDK_CALLERS)) {
    const route = operation.split(' ')[1].replace(/^\/v1\//, '').replace(/\{[^}]+\}$/, '');
    for (const caller of callers.filter((c) => c.startsWith('get'))) {
      const source = fs.readFileSync(path.join(actions, `${caller}.js`), 'utf8');
      expect({ operation, caller, calls: source.includes(`"${route}"`) || source.includes(`/${route}`) }).toEqual({ operation, caller, calls: true });
    }
  }
});
