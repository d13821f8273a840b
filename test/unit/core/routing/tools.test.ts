/**
 * Tool lists naming a retired tool (src/core/routing/tools.ts): left out, the other tools kept; a list of retired
 * tools alone allows nothing and is refused; a name no tool has is refused as before. The embedded catalog's own
 * retired tools are read as the service reads them.
 */
import { DEFAULT_DATA_DIR } from '../../../../src/config';
import type { RetiredTool } from '../../../../src/core/entities';
import { Catalog, CatalogDataError } from '../../../../src/core/catalog/catalog';
import { InvalidRequestError } from '../../../../src/core/errors';
import { toolPolicy } from '../../../../src/core/routing/tools';
import { loadCatalog } from '../../../../src/files/catalog';

const KNOWN = ['across', 'cctp', 'hop'];
const RETIRED: RetiredTool[] = [
  { key: 'amarok', kind: 'bridge', name: 'Connext (Amarok)', note: 'superseded' },
  { key: 'oldswap', kind: 'exchange', name: 'Old Swap', note: 'closed' },
];
const allowed = (policy: ReturnType<typeof toolPolicy>) => KNOWN.filter((k) => policy.allows(k));

test('a retired tool in an allow list is left out, and the running tools it names are allowed', () => {
  expect(allowed(toolPolicy('bridge', { allow: ['hop', 'across', 'amarok'] }, KNOWN, RETIRED))).toEqual(['across', 'hop']);
  expect(allowed(toolPolicy('bridge', { allow: ['hop,amarok'] }, KNOWN, RETIRED))).toEqual(['hop']);
  // in a deny or prefer list it changes nothing
  expect(allowed(toolPolicy('bridge', { deny: ['amarok'] }, KNOWN, RETIRED))).toEqual(KNOWN);
  expect(toolPolicy('bridge', { prefer: ['amarok'] }, KNOWN, RETIRED).hasPreferences).toBe(false);
  expect(allowed(toolPolicy('bridge', { deny: ['amarok', 'cctp'] }, KNOWN, RETIRED))).toEqual(['across', 'hop']);
});

test('an allow list of retired tools alone is refused, naming the parameter and what became of the tool', () => {
  const refusal = (() => {
    try {
      toolPolicy('bridge', { allow: ['amarok'] }, KNOWN, RETIRED);
    } catch (error) {
      return error;
    }
    return undefined;
  })();
  expect(refusal).toBeInstanceOf(InvalidRequestError);
  expect((refusal as InvalidRequestError).message).toBe('allowBridges names only retired tools, which carry nothing any more: amarok (Connext (Amarok): superseded); GET /v1/tools lists the tools that run');
});

test('retirement is per kind, and a name no tool has is still refused (a typo would narrow the search unseen)', () => {
  // an exchange's retired key is no bridge's
  expect(() => toolPolicy('bridge', { allow: ['hop', 'oldswap'] }, KNOWN, RETIRED)).toThrow(/allowBridges names unknown tool\(s\) oldswap/);
  expect(() => toolPolicy('bridge', { allow: ['hop', 'acros'] }, KNOWN, RETIRED)).toThrow(/allowBridges names unknown tool\(s\) acros/);
  // without the catalog's retired tools, amarok is unknown like any other name
  expect(() => toolPolicy('bridge', { allow: ['hop', 'amarok'] }, KNOWN)).toThrow(/allowBridges names unknown tool\(s\) amarok/);
});

test("the embedded catalog retires Connext's amarok, which runs nowhere in it; a tool both running and retired is refused as data", () => {
  const catalog = loadCatalog(DEFAULT_DATA_DIR);
  expect(catalog.retired.map((t) => `${t.kind} ${t.key}`)).toEqual(['bridge amarok']);
  expect(catalog.bridges.map((b) => b.key)).not.toContain('amarok');
  const running = catalog.bridges[0]!;
  expect(() => new Catalog({ chains: catalog.chains, tokens: [], bridges: catalog.bridges, exchanges: catalog.exchanges, retired: [{ key: running.key, kind: 'bridge', name: running.name, note: 'x' }] }))
    .toThrow(CatalogDataError);
});
