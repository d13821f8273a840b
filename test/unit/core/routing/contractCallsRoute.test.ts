/**
 * The route rules of contract calls: how much the search asks for (exact output guaranteed after slippage), the
 * route without swaps (the integrator fee inverted exactly), how the calls' gas is counted and bounded, the
 * estimate of a call's output and the quote's id.
 */
import { DEFAULT_DATA_DIR, DEFAULT_SNAPSHOT_DIR } from '../../../../src/config';
import { loadCatalog } from '../../../../src/files/catalog';
import { loadSnapshot } from '../../../../src/files/snapshot';
import { applySlippageFloor, fractionToPpm, takeFee } from '../../../../src/core/math/amounts';
import {
  CONTRACT_CALL_OVERHEAD_GAS,
  MAX_CONTRACT_CALLS_GAS,
  TRANSACTION_GAS_CAP,
  contractCallsGas,
  contractCallsRouteId,
  contractCallsSearch,
  estimateCallOutput,
  firstOverrun,
  fitsInOneTransaction,
  isSameToken,
  sameTokenRoutes,
  type ContractCall,
} from '../../../../src/core/routing/contractCallsRoute';
import { RoutingGraph } from '../../../../src/core/routing/graph';
import { buildRouteRequest, type RouteParameters } from '../../../../src/core/routing/request';

const catalog = loadCatalog(DEFAULT_DATA_DIR);
const graph = new RoutingGraph(catalog, loadSnapshot(DEFAULT_SNAPSHOT_DIR, catalog));
const tokenOf = (chainId: number, ref: string) => catalog.findToken(chainId, ref)!;

const transfer = (extra: Partial<RouteParameters> = {}) =>
  buildRouteRequest(catalog, { fromChain: 42161, toChain: 8453, fromToken: 'USDC', toToken: 'USDC', amount: '10000000', mode: 'exactOut', ...extra });

describe('the search', () => {
  it('exact output asks for the smallest amount whose slippage floor still covers toAmount', () => {
    for (const slippage of [0.0005, 0.001, 0.005, 0.03, 0.5, 0.999999]) {
      const ppm = fractionToPpm(slippage, 'up');
      for (const amount of [1n, 7n, 999n, 9_985_000n, 10n ** 18n + 3n]) {
        const x = contractCallsSearch(transfer({ slippage }), 'exactOut', amount, 0n).amount;
        expect(applySlippageFloor(x, ppm)).toBeGreaterThanOrEqual(amount);
        expect(applySlippageFloor(x - 1n, ppm)).toBeLessThan(amount);
      }
    }
    expect(contractCallsSearch(transfer({ slippage: 0.005 }), 'exactOut', 9_985_000n, 0n).amount).toBe(10_035_176n); // ceil(9985000 / 0.995)
  });

  it('prices the calls\' gas in, allows no second transaction, and asks for 5 routes from fromAmount, 1 for toAmount', () => {
    const exactIn = contractCallsSearch(transfer({ mode: 'exactIn', allowSwitchChain: true }), 'exactIn', 10_000_000n, 340_000n);
    expect(exactIn).toMatchObject({ amount: 10_000_000n, contractCallsGas: 340_000n, allowDestinationCall: true, allowSwitchChain: false, maxRoutes: 5 });
    expect(contractCallsSearch(transfer(), 'exactOut', 10_000_000n, 340_000n).maxRoutes).toBe(1);
  });

  it('the same token on one chain: nothing to swap, nothing can slip', () => {
    const same = transfer({ toChain: 42161, slippage: 0.03 });
    expect(isSameToken(same)).toBe(true);
    expect(isSameToken(transfer())).toBe(false);
    const request = contractCallsSearch(same, 'exactOut', 10_000_000n, 340_000n);
    expect(request.slippage).toBe(0);
    expect(request.amount).toBe(10_000_000n);
  });
});

describe('the route without swaps', () => {
  it('sends the smallest amount whose rest after the integrator fee covers toAmount', () => {
    for (const fee of [0.000001, 0.0025, 0.01, 0.333333]) {
      const feePpm = fractionToPpm(fee, 'up');
      for (const net of [1n, 100n, 100_000_000n, 123_456_789n]) {
        const request = contractCallsSearch(transfer({ toChain: 42161, fee, integrator: 'acme' }), 'exactOut', net, 340_000n);
        const [route] = sameTokenRoutes(graph, request).routes;
        expect(takeFee(route.fromAmount, feePpm).rest).toBeGreaterThanOrEqual(net);
        expect(takeFee(route.fromAmount - 1n, feePpm).rest).toBeLessThan(net);
      }
    }
  });

  it('is one custom transaction with the fee collection only', () => {
    const request = contractCallsSearch(transfer({ toChain: 42161, amount: '100000000', fee: 0.01, integrator: 'acme' }), 'exactOut', 100_000_000n, 340_000n);
    const { routes, unavailable } = sameTokenRoutes(graph, request);
    expect(unavailable).toEqual({ filteredOut: [], failed: [] });
    expect(routes[0]).toMatchObject({ fromAmount: 101_010_101n, toAmount: 100_000_000n, toAmountMin: 100_000_000n, slippage: 0, tags: ['RECOMMENDED', 'CHEAPEST', 'FASTEST'] });
    expect(routes[0].transactions.map((tx) => tx.tool)).toEqual(['custom']);
    expect(routes[0].transactions[0].steps.map((s) => s.tool)).toEqual(['feeCollection']);
  });
});

describe('the calls\' gas', () => {
  it('prices each call at its gas limit plus the router overhead; the calls must fit in one transaction', () => {
    expect(contractCallsGas([300_000n, 100_000n])).toBe(400_000n + 2n * CONTRACT_CALL_OVERHEAD_GAS);
    // 2^24 / 1.25 - 1,000,000
    expect(MAX_CONTRACT_CALLS_GAS).toBe(12_421_772n);
  });

  it('fits in one transaction up to the cap less the 25 % gas-limit margin', () => {
    const most = (TRANSACTION_GAS_CAP * 4n) / 5n; // 13,421,772.8 → 13,421,772: its limit, ceil(· 1.25), is 16,777,215
    expect(fitsInOneTransaction(most)).toBe(true);
    expect(fitsInOneTransaction(most + 1n)).toBe(false);
  });

  it('firstOverrun finds the call at which the running sum exceeds what is available', () => {
    expect(firstOverrun([3n, 3n, 3n], 9n)).toBeUndefined();
    expect(firstOverrun([3n, 3n, 4n], 9n)).toBe(2);
    expect(firstOverrun([10n], 9n)).toBe(0);
    expect(firstOverrun([], 0n)).toBeUndefined();
  });
});

describe('the calls', () => {
  it('estimates a call output at reference prices, or passes the input through', () => {
    const usdc = tokenOf(8453, 'USDC');
    const weth = tokenOf(8453, 'WETH');
    expect(estimateCallOutput(3_250_000_000n, usdc, weth)).toBe(10n ** 18n); // 3250 USDC at 3250 USD/ETH
    expect(estimateCallOutput(5n, usdc, undefined)).toBe(5n);
    expect(estimateCallOutput(7n, usdc, tokenOf(8453, 'USDbC'))).toBe(7n);
  });

  it('identifies the route and its calls: other calls, another id', () => {
    const usdc = tokenOf(8453, 'USDC');
    const call: ContractCall = { index: 0, target: '0xA238Dd80C259a72e81d7e4664a9801593F98d1c5', approveTo: '0xA238Dd80C259a72e81d7e4664a9801593F98d1c5', token: usdc, amount: 1n, callData: '0x', gasLimit: 1n, fallbackReceiver: '0x552008c0F6870C2f77e5cC1d2Eb9bdff03E30Ea9' };
    const id = contractCallsRouteId('route', [call]);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(contractCallsRouteId('route', [call])).toBe(id);
    expect(contractCallsRouteId('route', [{ ...call, amount: 2n }])).not.toBe(id);
    expect(contractCallsRouteId('other', [call])).not.toBe(id);
  });
});
