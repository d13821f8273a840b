/**
 * What each operation asks of its callers, from where it is declared: the rate-limit class from the operation's
 * handler (handlers/: `operation(id, fn, { limit })`), whether only keys may call it from the contract's security
 * (an operation without an anonymous `{}` requirement). The access middleware asks this per request, by the
 * operation the request's method and path match (a request that matches none: the one-minute class).
 */
import type { Request } from 'express';
import type { OpenAPIBackend } from 'openapi-backend';
import { DEFAULT_OPERATION_ACCESS, type OperationAccess } from '../../core/access/policy';
import { keyOnlyOperations } from '../hardening';
import type { HandlerTable } from '../operation';
import type { OperationAccessOf } from './middleware';

/** After `api.init()`: the operations' access, looked up per request. */
export function operationAccessOf(api: OpenAPIBackend, handlers: HandlerTable): OperationAccessOf {
  const keyOnly = keyOnlyOperations(api);
  const byOperation = new Map<string, OperationAccess>();
  for (const { operationId } of api.router.getOperations()) {
    if (!operationId) continue;
    const limit = handlers[operationId]?.limit ?? DEFAULT_OPERATION_ACCESS.limit;
    byOperation.set(operationId, Object.freeze({ operationId, limit, ...(keyOnly.has(operationId) ? { keyRequired: true } : {}) }));
  }
  return (req: Request) => {
    if (!req.path.startsWith('/v1/')) return DEFAULT_OPERATION_ACCESS;
    const operationId = api.router.matchOperation({ method: req.method.toLowerCase(), path: req.path, headers: {}, query: {} })?.operationId;
    return (operationId && byOperation.get(operationId)) || DEFAULT_OPERATION_ACCESS;
  };
}

/** The operations whose requests are route searches (the quote and routes classes): the most expensive ones. */
export function expensiveOperationsOf(handlers: HandlerTable): string[] {
  return Object.entries(handlers).filter(([, handler]) => handler.limit === 'quote' || handler.limit === 'routes').map(([operationId]) => operationId).sort();
}
