import { loadCatalog } from '../../../src/files/catalog';
import { DEFAULT_DATA_DIR } from '../../../src/config';
import type { RouteFinder } from '../../../src/core/routing/finder';
import { buildRouteRequest, type RouteParameters } from '../../../src/core/routing/request';
import type { RouteRequest, RouteSearchResult } from '../../../src/core/routing/route';
import { findRoutes, routeRequestKey } from '../../../src/usecases/routeSearchCache';

const catalog = loadCatalog(DEFAULT_DATA_DIR);
const WALLET = '0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea9';
const base: RouteParameters = { fromChain: 'arb', toChain: 'opt', fromToken: 'USDC', toToken: 'USDC', amount: '1000000000', mode: 'exactIn', fromAddress: WALLET };
const build = (p: Partial<RouteParameters> = {}) => buildRouteRequest(catalog, { ...base, ...p });

/** A route finder that counts its searches and answers a new (empty) result object each time. */
function countingFinder(): RouteFinder & { calls: RouteRequest[] } {
  const calls: RouteRequest[] = [];
  return {
    calls,
    find(request: RouteRequest): RouteSearchResult {
      calls.push(request);
      return { routes: [], unavailable: { filteredOut: [{ overallPath: `search ${calls.length}`, reason: 'test' }], failed: [] } };
    },
  } as unknown as RouteFinder & { calls: RouteRequest[] };
}

describe('route search cache (route searches by normalised request, per route finder)', () => {
  it('answers the same search from the cache, results without a route included', () => {
    const finder = countingFinder();
    const first = findRoutes(finder, build());
    expect(first.routes).toHaveLength(0);
    expect(findRoutes(finder, build())).toBe(first);
    expect(finder.calls).toHaveLength(1);
  });

  it('takes a token written as a symbol or as its address for the same search', () => {
    const finder = countingFinder();
    const usdcOnArb = catalog.findToken(42161, 'USDC')!;
    findRoutes(finder, build({ fromChain: 'arb', fromToken: 'USDC' }));
    findRoutes(finder, build({ fromChain: '42161', fromToken: usdcOnArb.address.toLowerCase() }));
    expect(finder.calls).toHaveLength(1);
  });

  it('searches again when anything of the request differs', () => {
    const finder = countingFinder();
    findRoutes(finder, build());
    findRoutes(finder, build({ amount: '1000000001' }));
    findRoutes(finder, build({ toAddress: '0x0000000000000000000000000000000000000001' }));
    findRoutes(finder, build({ order: 'FASTEST' }));
    findRoutes(finder, build({ bridges: { deny: ['across'] } }));
    findRoutes(finder, build({ maxRoutes: 5 }));
    findRoutes(finder, build({ fromAmountForGas: '1000' }));
    findRoutes(finder, build({ slippage: 0.01 }));
    expect(finder.calls).toHaveLength(8);
    // amounts are not mistaken for strings of the same digits
    expect(routeRequestKey(build({ amount: '5' }))).not.toBe(routeRequestKey({ ...build(), amount: '5' } as unknown as RouteRequest));
    // a big integer below the top level is written the same way (and does not throw)
    const nested = (value: unknown) => routeRequestKey({ ...build(), bridges: { allow: [value] } } as unknown as RouteRequest);
    expect(nested(7n)).toContain('"7n"');
    expect(nested(7n)).not.toBe(nested('7'));
  });

  it('keeps one cache per route finder: a replaced graph (new finder) misses', () => {
    const before = countingFinder();
    const after = countingFinder();
    const a = findRoutes(before, build());
    const b = findRoutes(after, build());
    expect(b).not.toBe(a);
    expect(before.calls).toHaveLength(1);
    expect(after.calls).toHaveLength(1);
    expect(findRoutes(before, build())).toBe(a);
  });

  it('never caches a search with a timing strategy (it depends on how long it ran)', () => {
    const finder = countingFinder();
    const timed = build({ timingStrategies: ['minWaitTime-600-4-300'] });
    findRoutes(finder, timed);
    findRoutes(finder, timed);
    expect(finder.calls).toHaveLength(2);
  });

  it('does not cache a request the finder refuses', () => {
    let calls = 0;
    const refusing = {
      find: () => {
        calls++;
        throw new Error('refused');
      },
    } as unknown as RouteFinder;
    expect(() => findRoutes(refusing, build())).toThrow('refused');
    expect(() => findRoutes(refusing, build())).toThrow('refused');
    expect(calls).toBe(2);
  });
});
