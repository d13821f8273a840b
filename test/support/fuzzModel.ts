/**
 * What the fuzz suite knows about the contract: every operation with its parameters, their examples
 * (a valid-looking starting point that the arbitraries then break), and an oracle that judges a
 * request against openapi.yaml on its own (a second openapi-backend instance, configured like the
 * server's validator), so that the suite knows when a 4xx is owed before any handler runs.
 */
import querystring from 'node:querystring';
import { loadContract } from '../../src/server/contract';
import { createOpenApiBackend } from '../../src/server/openapiBackend';

export interface ParamModel {
  readonly name: string;
  readonly in: 'query' | 'path' | 'header';
  readonly required: boolean;
  readonly isArray: boolean;
  /** The example as it travels (arrays comma-joined). */
  readonly example: string;
}

export interface OperationModel {
  readonly operationId: string;
  readonly method: string;
  readonly pathTemplate: string;
  readonly params: readonly ParamModel[];
  /** The JSON example of the request body, when the operation has one. */
  readonly bodyExample?: unknown;
  readonly bodyRequired: boolean;
  /** The operation's security does not allow an anonymous caller. */
  readonly keyRequired: boolean;
  /** Its 200 answer is an event stream (text/event-stream), which does not end while its subject is under way. */
  readonly eventStream: boolean;
}

interface RawParameter {
  name: string;
  in: string;
  required?: boolean;
  example?: unknown;
  'x-refused'?: boolean;
  schema?: { type?: string; $ref?: string; example?: unknown; enum?: unknown[]; default?: unknown; items?: { example?: unknown; enum?: unknown[] } };
}

type Document = {
  security?: Record<string, unknown>[];
  paths: Record<string, Record<string, { operationId: string; security?: Record<string, unknown>[]; parameters?: ({ $ref: string } | RawParameter)[]; requestBody?: { required?: boolean; content: Record<string, { example?: unknown }> }; responses?: Record<string, { content?: Record<string, unknown> }> }>>;
  components: { parameters: Record<string, RawParameter> };
};

export function contractOperations(openapiPath: string): OperationModel[] {
  const document = loadContract(openapiPath) as unknown as Document;
  const operations: OperationModel[] = [];
  for (const [pathTemplate, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const params = (operation.parameters ?? []).map((entry) => ('$ref' in entry ? document.components.parameters[entry.$ref.split('/').pop()!]! : entry));
      const json = operation.requestBody?.content['application/json'];
      operations.push({
        operationId: operation.operationId,
        method: method.toUpperCase(),
        pathTemplate,
        params: params
          .filter((p) => p.in === 'query' || p.in === 'path' || p.in === 'header')
          // a list of objects travels in qs's indexed form (name[0][field]=…), which this model does not write;
          // test/http/unknownParameters.test.ts sends it
          .filter((p) => !isObjectList(p, document))
          // declared so that the ecosystem's requests validate, refused by this service whenever present
          .filter((p) => p['x-refused'] !== true)
          .map((p) => ({
            name: p.name,
            in: p.in as ParamModel['in'],
            required: p.required === true,
            // as the server sees it once openapi-backend resolved the schema (ToolSelectorList, PoolIdList are refs)
            isArray: isList(p, document),
            example: exampleOf(p),
          })),
        ...(json ? { bodyExample: json.example ?? {} } : {}),
        bodyRequired: operation.requestBody?.required === true,
        keyRequired: !(operation.security ?? document.security ?? []).some((requirement) => Object.keys(requirement).length === 0),
        eventStream: operation.responses?.['200']?.content?.['text/event-stream'] !== undefined,
      });
    }
  }
  return operations;
}

type ParameterSchema = { type?: string; $ref?: string; items?: ParameterSchema };

function schemaResolver(document: { components: object }): (schema: ParameterSchema | undefined) => ParameterSchema | undefined {
  const schemas = (document.components as { schemas?: Record<string, ParameterSchema> }).schemas ?? {};
  const resolve = (schema: ParameterSchema | undefined): ParameterSchema | undefined => (schema?.$ref ? resolve(schemas[schema.$ref.split('/').pop()!]) : schema);
  return resolve;
}

function isList(p: RawParameter, document: { components: object }): boolean {
  return schemaResolver(document)(p.schema as ParameterSchema | undefined)?.type === 'array';
}

function isObjectList(p: RawParameter, document: { components: object }): boolean {
  const resolve = schemaResolver(document);
  const schema = resolve(p.schema as ParameterSchema | undefined);
  return schema?.type === 'array' && resolve(schema.items)?.type === 'object';
}

function exampleOf(p: RawParameter): string {
  const value = p.example ?? p.schema?.example ?? p.schema?.default ?? p.schema?.enum?.[0] ?? p.schema?.items?.example ?? p.schema?.items?.enum?.[0];
  if (Array.isArray(value)) return value.map(String).join(',');
  if (value !== undefined) return String(value);
  switch (p.schema?.type) {
    case 'integer':
    case 'number':
      return '1';
    case 'boolean':
      return 'true';
    default:
      return 'x';
  }
}

export interface WireRequest {
  method: string;
  /** Path and query exactly as sent (percent-encoded). */
  url: string;
  headers: Record<string, string>;
  /** Raw body text, when one is sent. */
  body?: string;
}

export type Verdict = 'valid' | 'invalid' | 'unknown';

export interface Oracle {
  /** Whether the request, as the server receives it, satisfies the contract of the operation. */
  judge(operation: OperationModel, request: WireRequest): Verdict;
}

export async function contractOracle(openapiPath: string): Promise<Oracle> {
  // the server's own backend (validation, coercion, formats), without the server around it
  const api = createOpenApiBackend(loadContract(openapiPath));
  await api.init();
  const arrays = new Map<string, Set<string>>();
  const declared = new Map<string, Set<string>>();
  for (const operation of contractOperations(openapiPath)) {
    arrays.set(operation.operationId, new Set(operation.params.filter((p) => p.isArray && p.in === 'query').map((p) => p.name)));
    declared.set(operation.operationId, new Set(operation.params.filter((p) => p.in === 'query').map((p) => p.name)));
  }
  return {
    judge(operation, request) {
      const [path, rawQuery = ''] = splitUrl(request.url);
      // the server's query parser ('simple': node's querystring), repeated list parameters joined, an empty list
      // parameter (`chains=`) the empty list
      const query: Record<string, string | string[]> = { ...querystring.parse(rawQuery) } as Record<string, string | string[]>;
      // a parameter the operation does not declare is ignored (the contract's "Parameters the service does not know");
      // a list of objects sent in indexed form (name[0][field]) is the server's to judge
      for (const name of Object.keys(query)) {
        if (/^[A-Za-z0-9_]+\[\d+\]\[/.test(name) && declared.get(operation.operationId)?.has(name.slice(0, name.indexOf('[')))) return 'unknown';
        if (!declared.get(operation.operationId)?.has(name)) delete query[name];
      }
      for (const [name, value] of Object.entries(query)) {
        if (!arrays.get(operation.operationId)?.has(name)) continue;
        if (Array.isArray(value)) query[name] = value.join(',');
        else if (value === '') query[name] = [];
      }
      let body: unknown;
      const encoding = (request.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
      if (request.body !== undefined && encoding !== 'identity') return 'unknown'; // what the server decodes is its business
      // a JSON body in another charset than UTF-8 is refused before any operation (415, src/server/jsonBody.ts)
      const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(request.headers['content-type'] ?? '')?.[1]?.toLowerCase();
      if (request.body !== undefined && charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') return 'unknown';
      if (request.body !== undefined && /^application\/json(;|$)/i.test(request.headers['content-type'] ?? '')) {
        const text = request.body;
        if (text.trim() === '' || text.charCodeAt(0) === 0xfeff) return 'unknown';
        if (!/^[\x20\x09\x0a\x0d]*[[{]/.test(text)) return 'invalid'; // the JSON parser is strict: an object or an array
        try {
          body = JSON.parse(text);
        } catch {
          return 'invalid';
        }
      } else if (request.body !== undefined) {
        return 'unknown'; // not parsed as JSON by the server: answered as a missing body or refused by type
      }
      const operationForPath = api.router.matchOperation({ method: request.method.toLowerCase(), path, headers: {}, query: {} });
      if (!operationForPath || operationForPath.operationId !== operation.operationId) return 'unknown';
      try {
        const result = api.validateRequest({ method: request.method.toLowerCase(), path, query, headers: { ...request.headers }, body }, operation.operationId);
        return result.valid ? 'valid' : 'invalid';
      } catch (error) {
        if (error instanceof RangeError) return 'unknown'; // too deep for the validator's recursion
        throw error;
      }
    },
  };
}

export function splitUrl(url: string): [string, string?] {
  const index = url.indexOf('?');
  return index < 0 ? [url] : [url.slice(0, index), url.slice(index + 1)];
}

/** Percent-encodes every byte of the UTF-8 text except the unreserved characters. */
export function encode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
