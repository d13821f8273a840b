/**
 * Typed client of the routing API: openapi-fetch over the `paths` that `npm run codegen` generates from
 * openapi.yaml (src/generated/openapi.ts), so paths, parameters, bodies and answers are checked by
 * the TypeScript compiler against the contract.
 *
 * ```ts
 * import { createRoutingClient } from 'xchain-router/client';
 * const api = createRoutingClient({ baseUrl: 'http://localhost:8080', apiKey: process.env.ROUTING_API_KEY });
 * const { data, error, response } = await api.GET('/v1/token', { params: { query: { chain: 'arb', token: 'USDC' } } });
 * if (error) console.error(response.status, error.code, error.message); // the contract's Error body
 * else console.log(data.address, data.decimals);
 * ```
 *
 * List parameters are sent comma-joined (`chains=arb,opt`), as the contract declares them
 * (`style: form, explode: false`). The key goes in `x-svc-api-key`; keys are server-side secrets, so
 * the client refuses one when it runs in a browser page.
 */
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, operations, paths } from '../src/generated/openapi';

export type { components, operations, paths };

/** The contract's error body: `{message, code, errors?, requestId?}`. */
export type ApiError = components['schemas']['Error'];

export type RoutingClient = Client<paths, 'application/json'>;

export interface RoutingClientOptions {
  /** Where the service is, e.g. `http://localhost:8080` (no `/v1`: the paths carry it). */
  readonly baseUrl: string;
  /** Sent as `x-svc-api-key`; server-side code only. */
  readonly apiKey?: string;
  /** Extra headers on every request (e.g. `x-request-id`). */
  readonly headers?: Record<string, string>;
  /** A fetch implementation (default: the global fetch). */
  readonly fetch?: ClientOptions['fetch'];
}

export const API_KEY_HEADER = 'x-svc-api-key';

export function createRoutingClient(options: RoutingClientOptions): RoutingClient {
  if (options.apiKey !== undefined && typeof (globalThis as { document?: unknown }).document !== 'undefined') {
    throw new Error('createRoutingClient: API keys are server-side secrets; do not use one in browser code (the service refuses x-svc-api-key from browsers of other origins)');
  }
  if (options.apiKey !== undefined && !/^[\x21-\x7e]+$/.test(options.apiKey)) {
    throw new Error('createRoutingClient: apiKey must be printable ASCII without spaces');
  }
  let baseUrl: URL;
  try {
    baseUrl = new URL(options.baseUrl);
  } catch {
    throw new Error(`createRoutingClient: baseUrl must be an absolute URL (got "${options.baseUrl}")`);
  }
  return createClient<paths, 'application/json'>({
    baseUrl: baseUrl.href.replace(/\/+$/, ''),
    headers: { ...options.headers, ...(options.apiKey !== undefined ? { [API_KEY_HEADER]: options.apiKey } : {}) },
    querySerializer: { array: { style: 'form', explode: false } },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
