/**
 * The fee collection call of a built transaction: the integrator's fee and, on a relayed (gasless) route, the
 * relayer's fee as the service's fee of the same collectTokenFees call, so that the router pays both before it swaps.
 */
import { loadConfig } from '../../../../src/config';
import { buildRouteRequest } from '../../../../src/core/routing/request';
import type { RouteRequest } from '../../../../src/core/routing/route';
import { feeCollectorInterface, routerInterface } from '../../../../src/core/transactions/abi';
import { buildTransaction } from '../../../../src/core/transactions/build';
import { integratorAccount } from '../../../../src/core/transactions/ids';
import { buildDependencies, type Dependencies } from '../../../../src/server/dependencies';

let deps: Dependencies;
beforeAll(() => {
  deps = buildDependencies(loadConfig({ LOG_LEVEL: 'silent' }));
});

function feeCall(request: RouteRequest): { token: string; integratorFee: bigint; serviceFee: bigint; integrator: string; swapped: bigint } {
  const route = deps.finder.find(request).routes[0];
  const tx = buildTransaction(deps, route, 0, '00000000-0000-4000-8000-000000000001')!;
  const call = routerInterface([]).parseTransaction({ data: tx.data, value: tx.value })!;
  const swapData = call.args.swapData as { callData: string; fromAmount: bigint }[];
  const fee = feeCollectorInterface.parseTransaction({ data: swapData[0].callData })!;
  expect(fee.name).toBe('collectTokenFees');
  return { token: String(fee.args.token), integratorFee: fee.args.integratorFee as bigint, serviceFee: fee.args.serviceFee as bigint, integrator: String(fee.args.integrator), swapped: swapData[1].fromAmount };
}

const usdcToWeth = (extra: object) => buildRouteRequest(deps.catalog, {
  fromChain: 42161, toChain: 42161, fromToken: 'USDC', toToken: 'WETH', amount: '1000000000', mode: 'exactIn',
  fromAddress: '0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea9', ...extra,
});

describe('the fee collection call', () => {
  it('an integrator fee alone: collectTokenFees(token, fee, 0, integrator)', () => {
    const call = feeCall(usdcToWeth({ integrator: 'acme', fee: 0.003 }));
    expect(call).toMatchObject({ integratorFee: 3_000_000n, serviceFee: 0n, integrator: integratorAccount('acme'), swapped: 997_000_000n });
    expect(call.token.toLowerCase()).toBe(deps.catalog.findToken(42161, 'USDC')!.address.toLowerCase());
  });

  it('a relayed route: the relayer\'s fee is the service fee of the same call, after the integrator\'s', () => {
    const call = feeCall({ ...usdcToWeth({ integrator: 'acme', fee: 0.003 }), relayFee: 1_234_567n });
    expect(call).toMatchObject({ integratorFee: 3_000_000n, serviceFee: 1_234_567n, swapped: 1_000_000_000n - 3_000_000n - 1_234_567n });
  });

  it('a relayed route without an integrator fee still collects the relayer\'s fee', () => {
    const call = feeCall({ ...usdcToWeth({}), relayFee: 500_000n });
    expect(call).toMatchObject({ integratorFee: 0n, serviceFee: 500_000n, integrator: integratorAccount(''), swapped: 999_500_000n });
  });
});
