/**
 * The transactions the service builds book an integrator's fees where the integrator can withdraw them: under
 * the fee wallet of the ledger (FEE_LEDGER_FILE here), integratorAccount(id) for an id the ledger does not know.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../../../src/config';
import { buildRouteRequest } from '../../../../src/core/routing/request';
import { feeCollectorInterface, routerInterface } from '../../../../src/core/transactions/abi';
import { buildTransaction } from '../../../../src/core/transactions/build';
import { integratorAccount } from '../../../../src/core/transactions/ids';
import { buildDependencies, type Dependencies } from '../../../../src/server/dependencies';

const FEE_WALLET = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
let deps: Dependencies;
let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fees-booking-'));
  const file = path.join(dir, 'ledger.json');
  fs.writeFileSync(file, JSON.stringify({ schemaVersion: 1, integrators: [{ integratorId: 'walleted', feeWallet: FEE_WALLET, balances: {} }] }));
  deps = buildDependencies(loadConfig({ LOG_LEVEL: 'silent', FEE_LEDGER_FILE: file }));
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The `integrator` argument of the fee collection call inside a quote's router transaction. */
function bookedUnder(integrator: string, fromToken: string): { function: string; integrator: string } {
  const request = buildRouteRequest(deps.catalog, {
    fromChain: 42161, toChain: 42161, fromToken, toToken: 'WETH', amount: fromToken === 'ETH' ? '1000000000000000000' : '1000000000', mode: 'exactIn',
    fromAddress: '0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea9', integrator, fee: 0.003,
  });
  const route = deps.finder.find(request).routes[0];
  const tx = buildTransaction(deps, route, 0, '00000000-0000-4000-8000-000000000001')!;
  const call = routerInterface([]).parseTransaction({ data: tx.data, value: tx.value })!;
  const fee = (call.args.swapData as { callData: string }[])
    .map((s) => feeCollectorInterface.parseTransaction({ data: s.callData }))
    .find((p) => p?.name === 'collectTokenFees' || p?.name === 'collectNativeFees')!;
  return { function: fee.name, integrator: String(fee.args.integrator) };
}

describe('the booking address of built transactions', () => {
  it('is the fee wallet of the ledger (ERC-20 and native fees)', () => {
    expect(deps.integratorAddress('walleted')).toBe(FEE_WALLET);
    expect(bookedUnder('walleted', 'USDC')).toEqual({ function: 'collectTokenFees', integrator: FEE_WALLET });
    expect(bookedUnder('walleted', 'ETH')).toEqual({ function: 'collectNativeFees', integrator: FEE_WALLET });
  });

  it('is integratorAccount(id) for an integrator the ledger does not know', () => {
    expect(deps.integratorAddress('elsewhere')).toBeUndefined();
    expect(bookedUnder('elsewhere', 'USDC')).toEqual({ function: 'collectTokenFees', integrator: integratorAccount('elsewhere') });
  });
});
