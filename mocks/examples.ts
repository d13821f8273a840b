/**
 * The contract's answer examples are real answers of the service: `npm run mock:examples` sends every scenario of
 * mocks/scenarios.ts to the service (in process, on the embedded data), records the transfer states on the sandbox
 * devnet (mocks/devnetScenarios.ts), and writes each answer into openapi.yaml as a
 * named example (`components/examples/<operationId>.<name>`, referenced from the answer's `examples` under the
 * scenario's name, the first one the default), with the request that produced it (`x-request`) so that anyone can
 * send it again. test/http/mockScenarios.test.ts sends every example's `x-request` again and compares.
 *
 * openapi.yaml is edited with the `yaml` library's document model, which keeps its comments and layout: only the
 * examples change.
 */
import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import request from 'supertest';
import YAML, { isMap, isScalar, type Document, type YAMLMap } from 'yaml';
import { handlers } from '../handlers';
import { loadConfig } from '../src/config';
import { hashApiKey } from '../src/core/access/keys';
import { createApp } from '../src/server/app';
import { buildAccessControl } from '../src/server/access/build';
import { buildDependencies, type Dependencies } from '../src/server/dependencies';
import { openDatabase, type Database } from '../src/persistence/database';
import { databaseHistory } from '../src/persistence/transfers';
import type { HandlerTable } from '../src/server/operation';
import { recordDevnetScenarios } from './devnetScenarios';
import { recordRelayerScenarios } from './relayerScenarios';
import { MOCK_KEYS, SCENARIOS, type RecordedAnswer, type RecordedRequest, type Scenario, type ScenarioRequest, type ScenarioService } from './scenarios';

const ROOT = path.resolve(__dirname, '..');
export const OPENAPI = path.join(ROOT, 'openapi.yaml');

/** The services that answer the scenarios, each made on first use; `close` ends them. */
export class ScenarioServices {
  private readonly made = new Map<ScenarioService, Promise<{ app: Parameters<typeof request>[0]; dependencies: Dependencies; closeDatabase: () => Promise<void> }>>();

  app(kind: ScenarioService = 'service') {
    let made = this.made.get(kind);
    if (!made) {
      made = make(kind);
      this.made.set(kind, made);
    }
    return made.then((m) => m.app);
  }

  async close(): Promise<void> {
    for (const made of this.made.values()) {
      const { dependencies, closeDatabase } = await made;
      dependencies.chains?.close();
      await dependencies.access.close();
      await closeDatabase();
    }
  }
}

async function make(kind: ScenarioService) {
  const keys = {
    keys: [
      { id: 'mock-valid', name: 'Staging mock example key', sha256: hashApiKey(MOCK_KEYS.valid), integrators: ['example-dapp'] },
      { id: 'mock-blocked', sha256: hashApiKey(MOCK_KEYS.blocked), blocked: true, blockedReason: 'abuse of the quote endpoints' },
      { id: 'mock-limited', sha256: hashApiKey(MOCK_KEYS.limited), perMinute: 1 },
    ],
  };
  const config = loadConfig({ LOG_LEVEL: 'silent', API_KEYS: JSON.stringify(keys), ...(kind === 'limits' ? {} : { RATE_LIMIT_OVERRIDE: '1000000' }) });
  // keysDown: the key store's database did not open, so a presented key cannot be checked
  const access = kind === 'keysDown' ? buildAccessControl(config, { logger: pino({ level: 'silent' }), database: Promise.reject(new Error('the database server is not reachable')) }) : undefined;
  // the transfer index on a database of its own, in memory, opened on first use (empty: nothing is indexed on the
  // embedded data)
  let database: Promise<Database> | undefined;
  const history = databaseHistory(async () => (await (database ??= openDatabase({ dir: 'memory://' }))).db);
  const dependencies = buildDependencies(config, { history, ...(access ? { access } : {}) });
  const table: Record<string, HandlerTable[string]> = { ...handlers };
  if (kind === 'failing') {
    table.getChains = () => {
      throw new Error('the catalog store did not answer');
    };
  }
  if (kind === 'partial') delete table.getGasPrices;
  const app = await createApp(dependencies, config, { handlers: table, logger: pino({ level: 'silent' }) });
  return { app, dependencies, closeDatabase: async () => (database ? (await database).close() : undefined) };
}

/** Sends one request to a service and reads its answer. */
export async function send(services: ScenarioServices, req: RecordedRequest): Promise<{ status: number; body: unknown; headers: Record<string, string> }> {
  const app = await services.app(req.service);
  const one = async (r: ScenarioRequest) => {
    const agent = request(app);
    let call = r.method === 'GET' ? agent.get(r.url) : agent.post(r.url);
    for (const [name, value] of Object.entries(r.headers ?? {})) call = call.set(name, value);
    return r.body === undefined ? call : call.send(r.body as object);
  };
  for (const earlier of req.before ?? []) await one(earlier);
  const res = await one(req);
  return { status: res.status, body: res.body, headers: res.headers as Record<string, string> };
}

/** Every scenario's answer, in order (requests made from earlier answers see them). */
export async function recordScenarios(services: ScenarioServices, scenarios: readonly Scenario[] = SCENARIOS): Promise<RecordedAnswer[]> {
  const answers = new Map<string, unknown>();
  const recorded: RecordedAnswer[] = [];
  for (const scenario of scenarios) {
    const made = typeof scenario.request === 'function' ? scenario.request(answers) : scenario.request;
    const req: RecordedRequest = { ...made, ...(scenario.service && scenario.service !== 'service' ? { service: scenario.service } : {}), ...(scenario.before ? { before: scenario.before } : {}) };
    const { status, body } = await send(services, req);
    if (status !== scenario.status) {
      throw new Error(`scenario ${scenario.operationId}/${scenario.name}: the service answered ${status}, not ${scenario.status}: ${JSON.stringify(body).slice(0, 400)}`);
    }
    if (!answers.has(scenario.name)) answers.set(scenario.name, body);
    recorded.push({ scenario, request: req, status, body });
  }
  return recorded;
}

/** The answers in order, each scenario marked `default` moved ahead of the others of its operation and status. */
function defaultsFirst(recorded: readonly RecordedAnswer[]): RecordedAnswer[] {
  const key = (a: RecordedAnswer) => `${a.scenario.operationId} ${a.status}`;
  const defaults = new Map(recorded.filter((a) => a.scenario.default).map((a) => [key(a), a]));
  const out: RecordedAnswer[] = [];
  for (const answer of recorded) {
    const first = defaults.get(key(answer));
    if (first && !out.includes(first)) out.push(first);
    if (!out.includes(answer)) out.push(answer);
  }
  return out;
}

/** `components/examples` name of a scenario's example. */
export const exampleId = (s: Scenario) => `${s.operationId}.${s.name}`;

const METHODS = ['get', 'post', 'put', 'delete', 'patch'];

/** Where an operation's answer of a status keeps its examples: its own media type, or the shared response's. */
function mediaOf(doc: Document, operationId: string, status: number): YAMLMap {
  const paths = doc.get('paths') as YAMLMap;
  for (const pathItem of paths.items) {
    for (const method of METHODS) {
      const op = (pathItem.value as YAMLMap).get(method) as YAMLMap | undefined;
      if (!op || op.get('operationId') !== operationId) continue;
      let response = (op.get('responses') as YAMLMap).get(String(status)) as YAMLMap | undefined;
      if (!response) throw new Error(`${operationId} declares no ${status} answer`);
      const ref = response.get('$ref');
      if (typeof ref === 'string') response = doc.getIn(ref.replace(/^#\//, '').split('/')) as YAMLMap;
      const media = response.getIn(['content', 'application/json']);
      if (!isMap(media)) throw new Error(`${operationId} ${status}: no application/json content`);
      return media;
    }
  }
  throw new Error(`no operation ${operationId} in openapi.yaml`);
}

function describeRequest(req: RecordedRequest): string {
  const body = req.body === undefined ? '' : JSON.stringify(req.body);
  const lines = [`The service's answer to \`${req.method} ${req.url}\``];
  if (body) lines.push(body.length <= 600 ? ` with the body \`${body}\`` : ' with the body in `x-request`');
  if (req.headers) lines.push(` and the headers ${Object.entries(req.headers).map(([k, v]) => `\`${k}: ${v}\``).join(', ')}`);
  const on = { keysDown: 'while its key store (the database) does not answer', service: 'on its embedded data', limits: 'under the specified rate limits, after one request of the same key', failing: 'when the handler fails unexpectedly', partial: 'in a deployment that does not implement the operation', devnet: 'in chain mode on the sandbox devnet, after the transfer was sent there' };
  lines.push(` ${on[req.service ?? 'service']} (generated by \`npm run mock:examples\`).`);
  return lines.join('');
}

/**
 * Every string of a flow collection double-quoted, keys included: JSON in effect. Plain scalars such as
 * `/v1/quote?fromChain=arb&…` are valid YAML 1.2 in flow style, but older parsers (Dredd's) stop on them.
 */
function jsonLike<T>(node: T): T {
  YAML.visit(node as Parameters<typeof YAML.visit>[0], {
    Scalar(_key, scalar) {
      if (typeof scalar.value === 'string') scalar.type = 'QUOTE_DOUBLE';
    },
  });
  return node;
}

/** openapi.yaml with the recorded answers as its answer examples (the hand-written `example`s replaced). */
export function writeExamples(contract: string, recorded: readonly RecordedAnswer[]): string {
  const doc = YAML.parseDocument(contract);
  const components = doc.get('components') as YAMLMap;
  // the examples made last time go: every one is made again
  components.delete('examples');
  const byMedia = new Map<YAMLMap, RecordedAnswer[]>();
  for (const answer of defaultsFirst(recorded)) {
    const media = mediaOf(doc, answer.scenario.operationId, answer.status);
    byMedia.set(media, [...(byMedia.get(media) ?? []), answer]);
  }
  const examples = doc.createNode({}) as YAMLMap;
  for (const answer of recorded) {
    const { request: req, scenario } = answer;
    // request and answer in flow style, one line each: the file stays readable around them, and a third the size
    const example = doc.createNode({ summary: scenario.summary, description: describeRequest(req) }) as YAMLMap;
    example.set('x-request', jsonLike(doc.createNode(req, { flow: true })));
    example.set('value', jsonLike(doc.createNode(answer.body, { flow: true })));
    examples.set(exampleId(scenario), example);
  }
  for (const [media, answers] of byMedia) {
    media.delete('example');
    const refs: Record<string, { $ref: string }> = {};
    for (const a of answers) {
      if (refs[a.scenario.name]) throw new Error(`two scenarios named ${a.scenario.name} answer the same response (${exampleId(a.scenario)})`);
      refs[a.scenario.name] = { $ref: `#/components/examples/${exampleId(a.scenario)}` };
    }
    media.set('examples', doc.createNode(refs));
  }
  components.set('examples', examples);
  // keep `examples` after the hand-written parts of components
  const entry = components.items.find((item) => isScalar(item.key) && item.key.value === 'examples');
  if (entry) components.items = [...components.items.filter((item) => item !== entry), entry];
  return doc.toString({ lineWidth: 0 });
}

export const README = path.join(ROOT, 'mocks', 'README.md');
const TABLE_START = '<!-- scenarios: written by npm run mock:examples -->';
const TABLE_END = '<!-- end of scenarios -->';

/** The scenario table of mocks/README.md: operation, scenario, status, the Prefer header that picks it, what it shows. */
export function scenarioTable(recorded: readonly RecordedAnswer[]): string {
  const rows = ['| Operation | Scenario | Answer | Choose it with | What it shows |', '|---|---|---|---|---|'];
  const seenDefault = new Set<string>();
  for (const { scenario, request: req, status } of defaultsFirst(recorded)) {
    const operation = `${req.method} ${req.url.split('?')[0]}`;
    const key = `${scenario.operationId} ${status}`;
    const isDefault = !seenDefault.has(key) && status < 300;
    seenDefault.add(key);
    const prefer = status >= 300 ? `\`Prefer: code=${status}, example=${scenario.name}\`` : `\`Prefer: example=${scenario.name}\`${isDefault ? ' (default)' : ''}`;
    rows.push(`| \`${operation}\` | \`${scenario.name}\` | ${status} | ${prefer} | ${scenario.summary.replace(/\|/g, '\\|')} |`);
  }
  return rows.join('\n');
}

/** mocks/README.md with the scenario table of these answers. */
export function writeReadme(readme: string, recorded: readonly RecordedAnswer[]): string {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`mocks/README.md needs the markers ${TABLE_START} and ${TABLE_END}`);
  return `${readme.slice(0, start + TABLE_START.length)}\n${scenarioTable(recorded)}\n${readme.slice(end)}`;
}

if (require.main === module) {
  void (async () => {
    const services = new ScenarioServices();
    try {
      const recorded = [...(await recordScenarios(services)), ...(await recordDevnetScenarios()), ...(await recordRelayerScenarios())];
      const before = fs.readFileSync(OPENAPI, 'utf8');
      const after = writeExamples(before, recorded);
      fs.writeFileSync(OPENAPI, after);
      fs.writeFileSync(README, writeReadme(fs.readFileSync(README, 'utf8'), recorded));
      process.stdout.write(`mock:examples: ${recorded.length} answers written as examples of openapi.yaml${before === after ? ' (unchanged)' : ''}\n`);
    } finally {
      await services.close();
    }
  })().catch((error: unknown) => {
    process.stderr.write(`mock:examples: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
