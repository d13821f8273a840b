import { loadConfig } from '../../../src/config';
import { buildDependencies, type Dependencies } from '../../../src/server/dependencies';
import { MAX_ROUTES, noRouteMessage, quote, searchRoutes } from '../../../src/usecases/quote';
import { childStepId, transactionStepId } from '../../../src/usecases/stepViews';

const WALLET = '0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea9';
let deps: Dependencies;
beforeAll(() => {
  deps = buildDependencies(loadConfig({ LOG_LEVEL: 'silent' }));
});

const cross = { fromChain: 'arb', toChain: 'opt', fromToken: 'USDC', toToken: 'USDC', amount: '1000000000', mode: 'exactIn' as const, fromAddress: WALLET };

describe('quote', () => {
  it('is the best single-transaction route, with its transaction to the router and ids derived from the route', async () => {
    const result = await quote(deps, cross);
    if (!result.ok) throw new Error(result.message);
    const { view, transaction } = result;
    expect(view.id).toBe(view.route.id);
    expect(view.route.containsSwitchChain).toBe(false);
    expect(view.included.map((s) => s.id)).toEqual(view.transaction.steps.map((_, k) => childStepId(view.id, k)));
    expect(transaction).toMatchObject({ chainId: 42161, to: deps.routers.routerOf(42161) });
    // the same request on the same data: the same answer
    const again = await quote(deps, cross);
    expect(again.ok && again.view.id).toBe(view.id);
  });

  it('answers no route with the first reason and how many more there are', async () => {
    // one raw unit over Across: below its minimum (its relayer's gas); CCTP would carry it (no minimum, issue 35)
    const result = await quote(deps, { ...cross, amount: '1', bridges: { allow: ['across'] } });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.message).toBe(noRouteMessage(result.unavailable));
    expect(result.message).toMatch(/^No available quotes for the requested transfer: .+/);
    expect(result.dependsOnTiming).toBe(false);
  });
});

describe('searchRoutes', () => {
  it('returns at most MAX_ROUTES routes, each with one step view per transaction', () => {
    const result = searchRoutes(deps, { ...cross, fromChain: 'bas', fromToken: 'ETH', amount: '1000000000000000000' });
    if (!result.ok) throw new Error(result.message);
    expect(result.routes.length).toBeGreaterThan(1);
    expect(result.routes.length).toBeLessThanOrEqual(MAX_ROUTES);
    for (const { route, steps } of result.routes) {
      expect(steps.map((s) => s.id)).toEqual(route.transactions.map((_, k) => transactionStepId(route, k)));
    }
  });
});

describe('step ids', () => {
  it('are UUIDs (version 4 form) derived from the parent and the position', () => {
    const id = childStepId('b7327287-2093-4437-a099-68a434254463', 2);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(childStepId('b7327287-2093-4437-a099-68a434254463', 2)).toBe(id);
    expect(childStepId('b7327287-2093-4437-a099-68a434254463', 3)).not.toBe(id);
  });
});
