/**
 * A small cache of route searches, keyed by the normalised request (the RouteRequest that buildRouteRequest
 * resolved: chains, tokens, raw amounts, options). One cache per RouteFinder: the finder is read from the
 * dependencies at request time, and in chain mode a change of pool state replaces the graph and its finder,
 * so every answer found on the previous state misses and that state's cache is dropped with it.
 *
 * It holds what the response cache does not: the outcome of searches that found no route (answered 404 with
 * the reasons, recomputed on every request otherwise), the several routes of POST /v1/advanced/routes, and
 * requests written differently that resolve to the same search (a symbol instead of an address).
 * A search with a timing strategy depends on how long it ran, so it is never cached.
 */
import { LRUCache } from 'lru-cache';
import { ObjectMemo } from '../core/memo';
import type { RouteFinder } from '../core/routing/finder';
import type { RouteRequest, RouteSearchResult } from '../core/routing/route';
import type { Ports } from './ports';

/** Searches kept per route finder; a result holds its routes and the no-route reasons, a few kB to a few tens of kB. */
export const QUOTE_CACHE_ENTRIES = 2000;

/** The searches made on each route finder, dropped with it. */
const searches = new ObjectMemo<RouteFinder, LRUCache<string, RouteSearchResult>>();
const newCache = () => new LRUCache<string, RouteSearchResult>({ max: QUOTE_CACHE_ENTRIES });

/** Told how long each search the finder ran took, in seconds (an answer from this cache is no search). */
export type RouteSearchObserver = (seconds: number) => void;

/** The observer of each service's searches, by its dependencies (the HTTP app registers its metrics: src/server/app.ts). */
const observers = new WeakMap<Ports, RouteSearchObserver>();

export function observeRouteSearches(dependencies: Ports, observer: RouteSearchObserver): void {
  observers.set(dependencies, observer);
}

/** The observer registered for these dependencies, if any. */
export function routeSearchObserver(dependencies: Ports): RouteSearchObserver | undefined {
  return observers.get(dependencies);
}

/** `routes.find(request)`, answered from the cache when the same search was made on the same finder. */
export function findRoutes(routes: RouteFinder, request: RouteRequest, observe?: RouteSearchObserver): RouteSearchResult {
  if (request.timing) return search(routes, request, observe);
  const cache = searches.get(routes, newCache);
  const key = routeRequestKey(request);
  const hit = cache.get(key);
  if (hit) return hit;
  const result = search(routes, request, observe); // a request the finder refuses throws, and is not cached
  cache.set(key, result);
  return result;
}

function search(routes: RouteFinder, request: RouteRequest, observe: RouteSearchObserver | undefined): RouteSearchResult {
  if (!observe) return routes.find(request);
  const started = performance.now();
  try {
    return routes.find(request);
  } finally {
    observe((performance.now() - started) / 1000);
  }
}

/**
 * The request as a string: its tokens by chain and address (a finder's graph has one catalog, so they name the
 * catalog's token), every other field as JSON, big integers written as `<digits>n` (so that they differ from
 * strings).
 */
export function routeRequestKey(request: RouteRequest): string {
  const { fromChain: _fromChain, toChain: _toChain, fromToken, toToken, ...rest } = request;
  return `${fromToken.chainId}:${fromToken.address}.${toToken.chainId}:${toToken.address}|${optionsText(rest)}`;
}

/**
 * The other fields as JSON. Big integers sit at the top level of a RouteRequest (amounts, gas), so they are
 * written there first and the rest is serialized without a replacer (a replacer costs a call per value); a big
 * integer anywhere deeper makes JSON.stringify throw, and then the replacer does the whole object.
 */
function optionsText(fields: Record<string, unknown>): string {
  const flat: Record<string, unknown> = {};
  for (const name of Object.keys(fields)) {
    const value = fields[name];
    flat[name] = typeof value === 'bigint' ? `${value}n` : value;
  }
  try {
    return JSON.stringify(flat);
  } catch {
    return JSON.stringify(fields, (_key, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value));
  }
}
