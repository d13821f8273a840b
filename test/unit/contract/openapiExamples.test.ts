/**
 * Checks the API contract (openapi.yaml) against itself:
 * - every parameter, request body and response example validates against its own schema
 *   (ajv, draft-07, after converting the OpenAPI 3.0 dialect: boolean exclusiveMaximum/Minimum,
 *   nullable; local `#/...` refs are resolved against the whole document);
 * - every operation has an operationId, summary, description, tags, a 429 and the standard
 *   error responses, and every response declares the rate-limit headers;
 * - every parameter and every response carries an example.
 * A negative case proves that the checker can fail.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import yaml from 'js-yaml';

const parseYaml = (text: string): unknown => yaml.load(text);
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const SPEC_PATH = join(__dirname, '..', '..', '..', 'openapi.yaml');
const DOC_ID = 'openapi.json';
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];
const RATE_LIMIT_HEADERS = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'];

const EXPECTED_OPERATIONS: Record<string, string> = {
  'GET /v1/tokens': 'getTokens',
  'GET /v1/token': 'getToken',
  'GET /v1/quote': 'getQuote',
  'GET /v1/quote/toAmount': 'getQuoteToAmount',
  'GET /v1/relayer/quote': 'getRelayerQuote',
  'GET /v1/relayer/status/{taskId}': 'getRelayerStatus',
  'POST /v1/relayer/relay': 'relayTransaction',
  'POST /v1/advanced/relay': 'relayAdvanced',
  'POST /v1/quote/contractCalls': 'postContractCallsQuote',
  'POST /v1/quote/contractCall': 'postContractCallQuote',
  'GET /v1/status': 'getStatus',
  'GET /v1/status/stream': 'getStatusStream',
  'GET /v1/analytics/transfers': 'getAnalyticsTransfers',
  'GET /v2/analytics/transfers': 'getAnalyticsTransfersPage',
  'GET /v1/analytics/transfers/summary': 'getAnalyticsTransfersSummary',
  'GET /v1/integrators/{integratorId}': 'getIntegrator',
  'GET /v1/integrators/{integratorId}/withdraw/{chainId}': 'getIntegratorWithdrawal',
  'POST /v1/advanced/possibilities': 'postPossibilities',
  'POST /v1/advanced/routes': 'postRoutes',
  'POST /v1/advanced/stepTransaction': 'postStepTransaction',
  'GET /v1/gas/suggestion/{chain}': 'getGasSuggestion',
  'GET /v1/gas/prices': 'getGasPrices',
  'GET /v1/gas/prices/{chainId}': 'getGasPrice',
  'GET /v1/gas/status': 'getGasStatus',
  'GET /v1/calldata/parse': 'parseCallData',
  'GET /v1/keys/test': 'testApiKey',
  'GET /v1/chains': 'getChains',
  'GET /v1/tools': 'getTools',
  'GET /v1/connections': 'getConnections',
};

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function loadSpec(): JsonObject {
  const doc: unknown = parseYaml(readFileSync(SPEC_PATH, 'utf8'));
  if (!isObject(doc)) throw new Error('openapi.yaml is not a mapping');
  return doc;
}

/** Follows a local `#/a/b` reference (JSON pointer) inside the document. */
function resolvePointer(doc: JsonObject, ref: string): Json {
  if (!ref.startsWith('#/')) throw new Error(`only local refs are supported: ${ref}`);
  let node: Json = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isObject(node) && key in node) node = node[key];
    else throw new Error(`unresolved ref ${ref}`);
  }
  return node;
}

/** Resolves a (chain of) `$ref` on a non-schema object (parameter, response, body, header). */
function deref(doc: JsonObject, node: Json): JsonObject {
  let current = node;
  for (let hops = 0; isObject(current) && typeof current.$ref === 'string'; hops += 1) {
    if (hops > 10) throw new Error(`ref cycle at ${current.$ref}`);
    current = resolvePointer(doc, current.$ref);
  }
  if (!isObject(current)) throw new Error('expected an object');
  return current;
}

/**
 * Converts OpenAPI 3.0 schema dialect to JSON Schema draft-07 (deep copy):
 * boolean exclusiveMaximum/exclusiveMinimum become numeric, `nullable: true` adds "null" to the
 * type, local refs are made absolute to the document registered in ajv. Example values are
 * copied untouched.
 */
function toDraft07(node: Json): Json {
  if (Array.isArray(node)) return node.map(toDraft07);
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'example' || key === 'examples') out[key] = value;
    else if (key === '$ref' && typeof value === 'string' && value.startsWith('#/')) out[key] = DOC_ID + value;
    else out[key] = toDraft07(value);
  }
  if (out.exclusiveMaximum === true && typeof out.maximum === 'number') {
    out.exclusiveMaximum = out.maximum;
    delete out.maximum;
  } else if (out.exclusiveMaximum === false) delete out.exclusiveMaximum;
  if (out.exclusiveMinimum === true && typeof out.minimum === 'number') {
    out.exclusiveMinimum = out.minimum;
    delete out.minimum;
  } else if (out.exclusiveMinimum === false) delete out.exclusiveMinimum;
  if (out.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    else if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
    delete out.nullable;
  }
  return out;
}

interface Operation {
  label: string;
  path: string;
  method: string;
  op: JsonObject;
  parameters: JsonObject[];
}

function listOperations(doc: JsonObject): Operation[] {
  const ops: Operation[] = [];
  const paths = isObject(doc.paths) ? doc.paths : {};
  for (const [path, rawItem] of Object.entries(paths)) {
    const item = deref(doc, rawItem);
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const own = Array.isArray(op.parameters) ? op.parameters : [];
      const parameters = [...shared, ...own].map((p) => deref(doc, p));
      ops.push({ label: `${method.toUpperCase()} ${path}`, path, method, op, parameters });
    }
  }
  return ops;
}

function responsesOf(doc: JsonObject, op: JsonObject): [string, JsonObject][] {
  const responses = isObject(op.responses) ? op.responses : {};
  return Object.entries(responses).map(([status, r]) => [status, deref(doc, r)]);
}

/** Validates every example of the document against its schema; returns one line per problem. */
function collectExampleProblems(doc: JsonObject): string[] {
  const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && Math.abs(n) <= 2 ** 31 });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
  ajv.addFormat('float', { type: 'number', validate: () => true });
  ajv.addFormat('double', { type: 'number', validate: () => true });
  const converted = toDraft07(doc);
  if (!isObject(converted)) throw new Error('conversion failed');
  ajv.addSchema(converted, DOC_ID);

  const problems: string[] = [];
  const check = (where: string, schema: Json | undefined, example: Json | undefined): void => {
    if (schema === undefined) {
      problems.push(`${where}: no schema`);
      return;
    }
    if (example === undefined) {
      problems.push(`${where}: no example`);
      return;
    }
    const schemaObject = toDraft07(schema);
    if (!isObject(schemaObject)) {
      problems.push(`${where}: schema is not an object`);
      return;
    }
    let validate: ValidateFunction;
    try {
      validate = ajv.compile(schemaObject);
    } catch (err) {
      problems.push(`${where}: schema does not compile: ${(err as Error).message}`);
      return;
    }
    if (!validate(example)) {
      for (const e of validate.errors ?? []) problems.push(`${where}: ${e.instancePath || '/'} ${e.message ?? ''}`);
    }
  };

  for (const { label, op, parameters } of listOperations(doc)) {
    for (const p of parameters) if (p['x-refused'] !== true) check(`${label} parameter ${String(p.name)}`, p.schema, p.example);
    if (op.requestBody !== undefined) {
      const body = deref(doc, op.requestBody);
      const content = isObject(body.content) ? body.content : {};
      for (const [mediaType, media] of Object.entries(content)) {
        if (isObject(media)) check(`${label} request body ${mediaType}`, media.schema, media.example);
      }
    }
    for (const [status, response] of responsesOf(doc, op)) {
      const content = isObject(response.content) ? response.content : {};
      for (const [mediaType, media] of Object.entries(content)) {
        if (!isObject(media)) continue;
        if (media.example !== undefined || !isObject(media.examples)) check(`${label} ${status} ${mediaType}`, media.schema, media.example);
        // named examples (the staging mock's scenarios): each one's value
        for (const [name, example] of Object.entries(isObject(media.examples) ? media.examples : {})) {
          check(`${label} ${status} ${mediaType} example ${name}`, media.schema, deref(doc, example).value);
        }
      }
      const headers = isObject(response.headers) ? response.headers : {};
      for (const [name, rawHeader] of Object.entries(headers)) {
        const header = deref(doc, rawHeader);
        if (header.example !== undefined) check(`${label} ${status} header ${name}`, header.schema, header.example);
      }
    }
  }
  const schemas = isObject(doc.components) && isObject(doc.components.schemas) ? doc.components.schemas : {};
  for (const [name, schema] of Object.entries(schemas)) {
    if (isObject(schema) && schema.example !== undefined) check(`schema ${name}`, schema, schema.example);
  }
  return problems;
}

describe('openapi.yaml', () => {
  const doc = loadSpec();
  const operations = listOperations(doc);

  it('is OpenAPI 3.0.3, with a semantic version, and the local service and the Prism mock as servers', () => {
    expect(doc.openapi).toBe('3.0.3');
    // which version is right is the breaking-change gate's question (test/unit/contract/breakingChanges.test.ts)
    expect(isObject(doc.info) && doc.info.version).toMatch(/^\d+\.\d+\.\d+$/);
    const servers = Array.isArray(doc.servers) ? doc.servers.map((s) => (isObject(s) ? s.url : null)) : [];
    expect(servers).toEqual(['http://localhost:8080', 'http://localhost:4010']);
  });

  it('describes exactly the operations of the spec, with their operationIds', () => {
    const actual = Object.fromEntries(operations.map((o) => [o.label, o.op.operationId]));
    expect(actual).toEqual(EXPECTED_OPERATIONS);
  });

  it.each(operations.map((o) => [o.label, o] as const))('%s: operationId, summary, description, tags', (_label, o) => {
    expect(typeof o.op.operationId).toBe('string');
    expect(o.op.operationId).toMatch(/^[a-z][a-zA-Z0-9]*$/);
    expect(typeof o.op.summary).toBe('string');
    expect(typeof o.op.description).toBe('string');
    expect(Array.isArray(o.op.tags) && o.op.tags.length).toBeGreaterThan(0);
  });

  it.each(operations.map((o) => [o.label, o] as const))(
    '%s: standard error responses and rate-limit headers on every response',
    (_label, o) => {
      const responses = responsesOf(doc, o.op);
      const statuses = responses.map(([status]) => status);
      const required = ['401', '403', '429', '500', '501'];
      if (o.parameters.length > 0 || o.op.requestBody !== undefined) required.push('400');
      expect(statuses).toEqual(expect.arrayContaining(required));
      expect(statuses.some((s) => /^2\d\d$/.test(s))).toBe(true);
      for (const [status, response] of responses) {
        const headers = Object.keys(isObject(response.headers) ? response.headers : {}).map((h) => h.toLowerCase());
        expect({ status, headers }).toEqual({ status, headers: expect.arrayContaining(RATE_LIMIT_HEADERS) });
        if (status === '429') expect(headers).toContain('retry-after');
        const content = isObject(response.content) ? response.content : {};
        // 204 No Content has none (HTTP forbids a body); every other answer has a body and an example of it
        expect(Object.keys(content).length > 0).toBe(status !== '204');
        for (const media of Object.values(content)) {
          expect(isObject(media) && (media.example !== undefined || (isObject(media.examples) && Object.keys(media.examples).length > 0))).toBe(true);
        }
      }
    },
  );

  it('uses an optional key on public operations and a required key on /v1/keys/test and an integrator\'s summary, in either key header', () => {
    const keyOnly = new Set(['/v1/keys/test', '/v1/analytics/transfers/summary']);
    for (const o of operations) {
      const key = [{ ApiKeyAuth: [] }, { LifiApiKeyAuth: [] }];
      const expected = keyOnly.has(o.path) ? key : [{}, ...key];
      expect({ op: o.label, security: o.op.security }).toEqual({ op: o.label, security: expected });
    }
  });

  it('gives every parameter an example', () => {
    const missing = operations.flatMap((o) =>
      // a parameter the service refuses whenever it is present (x-refused) has no example request to show
      o.parameters.filter((p) => p.example === undefined && p['x-refused'] !== true).map((p) => `${o.label} ${String(p.name)}`),
    );
    expect(missing).toEqual([]);
  });

  it('sends list query parameters comma-joined (style form, explode false); lists of objects indexed, as the SDK sends them', () => {
    const wrong = operations.flatMap((o) =>
      o.parameters
        .filter((p) => p.in === 'query')
        .filter((p) => {
          const schema = isObject(p.schema) ? deref(doc, p.schema) : {};
          const items = isObject(schema.items) ? deref(doc, schema.items) : {};
          if (schema.type === 'array' && items.type === 'object') return p.style !== undefined || !/\[0\]\[/.test(String(p.description));
          return schema.type === 'array' && !(p.style === 'form' && p.explode === false);
        })
        .map((p) => `${o.label} ${String(p.name)}`),
    );
    expect(wrong).toEqual([]);
  });

  it('has every example valid against its own schema', () => {
    expect(collectExampleProblems(doc)).toEqual([]);
  });

  it('reports wrong examples (the check can fail)', () => {
    const broken = loadSpec();
    const tokenParam = resolvePointer(broken, '#/paths/~1v1~1token/get/parameters/0');
    if (!isObject(tokenParam)) throw new Error('unexpected document shape');
    tokenParam.example = 42161; // a number where the schema wants a string
    const tokenExample = resolvePointer(broken, '#/components/examples/getToken.usdcOnArbitrum');
    if (!isObject(tokenExample) || !isObject(tokenExample.value)) throw new Error('unexpected document shape');
    tokenExample.value.decimals = 'six';
    const fee = resolvePointer(broken, '#/components/parameters/Fee');
    if (!isObject(fee)) throw new Error('unexpected document shape');
    fee.example = 1; // fee must be strictly below 1 (exclusiveMaximum)
    const problems = collectExampleProblems(broken);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^GET \/v1\/token parameter chain: \/ must be string/),
        expect.stringMatching(/^GET \/v1\/token 200 application\/json example usdcOnArbitrum: \/decimals must be integer/),
        expect.stringMatching(/^GET \/v1\/quote parameter fee: \/ must be < 1/),
      ]),
    );
  });
});
