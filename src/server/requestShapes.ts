/**
 * What the HTTP layer knows of each operation's request, worked out once from the contract: the query
 * parameters it declares (and which are lists), its path parameters, its body's schema. It decides what a request
 * is sent to openapi-backend with (unknownParameters.ts) and where a field named by an error is (httpErrors.ts).
 */
import type { Request } from 'express';
import type { OpenAPIBackend } from 'openapi-backend';
import type { DeclaredFields } from './httpErrors';
import { bodySchema, declaredQuery, queryParameterNames, removeUndeclaredFields, type QueryParameterNames, type SchemaLike } from './unknownParameters';

export interface RequestShape {
  readonly query: QueryParameterNames;
  /** Query parameters declared as arrays (of scalars): repeated keys are joined for openapi-backend to split. */
  readonly arrays: ReadonlySet<string>;
  readonly body: SchemaLike | undefined;
  /** The names it declares, for locating the fields named by its errors. */
  readonly fields: DeclaredFields;
}

/** Each operation's request shape, by operationId. */
export function collectRequestShapes(api: OpenAPIBackend): Map<string, RequestShape> {
  const result = new Map<string, RequestShape>();
  for (const operation of api.router.getOperations()) {
    if (!operation.operationId) continue;
    const query = queryParameterNames(operation);
    const arrays = new Set<string>();
    const path = new Set<string>();
    for (const parameter of operation.parameters ?? []) {
      const p = parameter as { in?: string; name?: string; schema?: { type?: string } };
      if (p.in === 'query' && p.schema?.type === 'array' && p.name && !query.indexedObjects.has(p.name)) arrays.add(p.name);
      if (p.in === 'path' && p.name) path.add(p.name);
    }
    const body = bodySchema(operation);
    result.set(operation.operationId, { query, arrays, body, fields: { query: query.declared, path, body } });
  }
  return result;
}

/**
 * The request as its operation declares it (unknownParameters.ts): undeclared query parameters and body fields
 * left out and returned as `ignored` (body fields as JSON pointers); list parameters accepted both comma-joined
 * and as repeated keys (repeated values of a parameter declared as an array are joined, so that openapi-backend
 * splits them), and an empty value of a list parameter (`chains=`) as the empty list, which is how the form
 * style writes one (openapi-backend would read one empty item). A request that matches no operation is passed
 * on as it is (openapi-backend answers 404 or 405).
 */
export function declaredRequest(api: OpenAPIBackend, req: Request, shapes: ReadonlyMap<string, RequestShape>): { query: Record<string, unknown>; ignored: string[] } {
  const raw = req.query as Record<string, unknown>;
  const operation = api.router.matchOperation({ method: req.method, path: req.path, headers: {}, query: {} });
  const shape = operation?.operationId ? shapes.get(operation.operationId) : undefined;
  if (!shape) return { query: raw, ignored: [] };
  const { query, ignored } = declaredQuery(raw, shape.query);
  const joined = Object.values(query).some((value) => Array.isArray(value) || value === '') ? { ...query } : query;
  for (const [name, value] of Object.entries(joined)) {
    if (!shape.arrays.has(name)) continue;
    if (Array.isArray(value)) joined[name] = value.join(',');
    else if (value === '') joined[name] = [];
  }
  if (shape.body && typeof req.body === 'object' && req.body !== null) ignored.push(...removeUndeclaredFields(req.body, shape.body));
  return { query: joined, ignored };
}
