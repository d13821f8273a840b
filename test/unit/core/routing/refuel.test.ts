import { DEFAULT_DATA_DIR, DEFAULT_SNAPSHOT_DIR } from '../../../../src/config';
import { loadCatalog } from '../../../../src/files/catalog';
import { loadSnapshot } from '../../../../src/files/snapshot';
import { RouteFinder } from '../../../../src/core/routing/finder';
import { RoutingGraph } from '../../../../src/core/routing/graph';
import { buildRouteRequest, type RouteParameters } from '../../../../src/core/routing/request';

const catalog = loadCatalog(DEFAULT_DATA_DIR);
const finder = new RouteFinder(new RoutingGraph(catalog, loadSnapshot(DEFAULT_SNAPSHOT_DIR, catalog)));
const base: RouteParameters = { fromChain: 'arb', toChain: 'opt', fromToken: 'USDC', toToken: 'USDC', amount: '100000000', mode: 'exactIn' };

describe('fromAmountForGas (destination gas refuel)', () => {
  it('routes the gas part to the native coin and the rest as asked, in one transaction', () => {
    const withGas = finder.find(buildRouteRequest(catalog, { ...base, fromAmountForGas: '5000000' })).routes[0];
    const rest = finder.find(buildRouteRequest(catalog, { ...base, amount: '95000000' })).routes[0];
    const gasOnly = finder.find(buildRouteRequest(catalog, { ...base, amount: '5000000', toToken: 'ETH' })).routes[0];
    expect(withGas.fromAmount).toBe(100_000_000n);
    // The main transfer is exactly the 95 USDC transfer; the refuel is exactly the 5 USDC → ETH transfer.
    expect(withGas.toAmount).toBe(rest.toAmount);
    expect(withGas.gasRefuel).toMatchObject({ fromAmount: 5_000_000n, toAmount: gasOnly.toAmount });
    expect(withGas.gasRefuel!.token.symbol).toBe('ETH');
    expect(withGas.transactions).toHaveLength(1);
    expect(withGas.transactions[0].steps.length).toBe(rest.transactions[0].steps.length + gasOnly.transactions[0].steps.length);
    expect(withGas.transactions[0].gasCost.estimate).toBe(rest.transactions[0].gasCost.estimate + gasOnly.transactions[0].gasCost.estimate);
  });

  it('says why when the gas part alone cannot be routed', () => {
    // one raw unit of USDC for gas over Across alone: below its minimum (the relayer's gas on OP Mainnet) whether it
    // carries USDC or ETH (CCTP and Stargate, with no minimum, would carry it: issue 35)
    const result = finder.find(buildRouteRequest(catalog, { ...base, fromAmountForGas: '1', bridges: { allow: ['across'] } }));
    expect(result.routes).toEqual([]);
    expect(result.unavailable.failed.length + result.unavailable.filteredOut.length).toBeGreaterThan(0);
    expect(result.unavailable.failed[0].overallPath).toMatch(/^gas refuel /);
  });

  it.each([
    [{ fromAmountForGas: '100000000' }, /less than fromAmount/],
    [{ fromAmountForGas: '0' }, /greater than 0/],
    [{ toChain: 'arb', toToken: 'WETH', fromAmountForGas: '1000' }, /needs a cross-chain transfer/],
    [{ mode: 'exactOut' as const, fromAmountForGas: '1000' }, /exact fromAmount only/],
  ])('refuses %o', (patch, message) => {
    expect(() => buildRouteRequest(catalog, { ...base, ...patch })).toThrow(message);
  });
});
