/**
 * Integrator fees end to end in chain mode: the app reads the fee collectors of a devnet (Arbitrum and Base on
 * anvil) through CHAINS_FILE, with a seeded fee ledger (FEE_LEDGER_FILE) whose integrator has a devnet test wallet
 * as fee wallet. A quote with an integrator fee is executed; the fee shows on GET /v1/integrators/{id} exactly as
 * quoted (feeCosts), booked under the fee wallet; the fee wallet sends the transactionRequest of
 * GET /v1/integrators/{id}/withdraw/{chainId} and receives exactly the balance, which then reads 0.
 * Every HTTP answer is checked against openapi.yaml.
 */
import request from 'supertest';
import { Wallet } from 'ethers';
import { startDevnet, type Devnet } from '../../sandbox/devnet';
import { approveIfNeeded, balanceOf, sendTransactionRequest, type WireTransactionRequest } from '../../sandbox/execute';
import { devAccountKey } from '../../sandbox/rpc';
import { chainsFileOf } from '../../sandbox/service';
import { feeCollectorInterface } from '../../src/core/transactions/abi';
import { integratorAccount } from '../../src/core/transactions/ids';
import { useContract, useTestApp } from '../support/app';
import { expectInvalidRequest } from '../support/contract';
import { useScratchDir } from '../support/files';
import { ARB_USDC, OP_USDC } from '../support/fixtures';

jest.setTimeout(60_000);

const INTEGRATOR = 'e2e-dapp';
const NEWCOMER = 'e2e-newcomer';
/** In the ledger without a fee wallet: its fees are booked at integratorAccount(id). */
const WALLETLESS = 'e2e-walletless';
/** Test wallet 1 of the devnet (anvil dev account 3): the integrator's fee wallet. Wallet 0 sends the transfers. */
const FEE_WALLET = new Wallet(devAccountKey(3)).address;
const SEEDED_ARB_USDC = 2_500_000n;

interface WireBalance { token: { address: string; symbol: string }; amount: string; amountUsd: string }
interface WireIntegrator { integratorId: string; feeBalances: { chainId: number; tokenBalances: WireBalance[] }[] }

const files = useScratchDir('fees-e2e-');
let devnet: Devnet;
let ledgerFile: string;
beforeAll(async () => {
  ledgerFile = files.writeJson('ledger.json', {
    schemaVersion: 1,
    integrators: [{
      integratorId: INTEGRATOR,
      feeWallet: FEE_WALLET,
      balances: {
        42161: [{ token: ARB_USDC, symbol: 'USDC', amount: String(SEEDED_ARB_USDC) }], // seeded on the devnet too
        10: [{ token: OP_USDC, symbol: 'USDC', amount: '53120000' }], // Optimism: not connected
      },
    }, { integratorId: WALLETLESS, balances: {} }],
  });
  devnet = await startDevnet({ chains: [42161, 8453], wallets: 2, relayer: false, ledgerFile });
}, 90_000);
const t = useTestApp(() => ({ env: { CHAINS_FILE: files.writeJson('chains.json', chainsFileOf(devnet, { gasPrice: 'chain' })), FEE_LEDGER_FILE: ledgerFile } }));
const contract = useContract();
// after the app's afterAll (hooks run in the order declared): its chain connections close before the chains stop
afterAll(async () => {
  await devnet?.stop();
});

async function integrator(id: string): Promise<WireIntegrator> {
  const res = await request(t.app).get(`/v1/integrators/${id}`);
  contract.expectResponse('getIntegrator', res);
  if (res.status !== 200) throw new Error(`GET /v1/integrators/${id}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as WireIntegrator;
}

const balancesOn = (report: WireIntegrator, chainId: number) =>
  report.feeBalances.find((c) => c.chainId === chainId)!.tokenBalances.map((b) => [b.token.address, b.amount]);

async function quote(query: Record<string, string>, from: string) {
  const res = await request(t.app).get('/v1/quote').query({ ...query, fromAddress: from });
  contract.expectResponse('getQuote', res);
  if (res.status !== 200) throw new Error(`quote: ${res.status} ${JSON.stringify(res.body).slice(0, 400)}`);
  return res.body as {
    action: { fromAmount: string; fromToken: { address: string } };
    estimate: { approvalAddress: string; feeCosts: { name: string; amount: string; token: { address: string } }[] };
    transactionRequest: WireTransactionRequest;
  };
}

/** Executes a quote from test wallet 0 on Arbitrum; the integrator fee it quoted (USDC) and the FeesCollected log. */
async function executeWithFee(integratorId: string) {
  const wallet = devnet.wallet(42161, 0);
  const q = await quote({ fromChain: '42161', toChain: '42161', fromToken: 'USDC', toToken: 'WETH', fromAmount: '1000000000', integrator: integratorId, fee: '0.003' }, wallet.address);
  const fees = q.estimate.feeCosts.filter((f) => f.name === 'Integrator fee');
  expect(fees).toHaveLength(1);
  expect(fees[0].token.address).toBe(ARB_USDC);
  const fee = BigInt(fees[0].amount);
  expect(fee).toBe(3_000_000n); // 0.3 % of 1,000 USDC
  await approveIfNeeded(wallet, q.action.fromToken.address, q.estimate.approvalAddress, BigInt(q.action.fromAmount));
  const receipt = await sendTransactionRequest(wallet, q.transactionRequest);
  expect(receipt.status).toBe(1);
  const collected = receipt.logs
    .filter((l) => l.address.toLowerCase() === devnet.chain(42161).deployment.feeCollector.toLowerCase())
    .map((l) => feeCollectorInterface.parseLog(l))
    .filter((e) => e?.name === 'FeesCollected');
  expect(collected).toHaveLength(1);
  return { fee, booking: String(collected[0]!.args.integrator), booked: collected[0]!.args.integratorFee as bigint };
}

test('fees accrue under the fee wallet, show on GET /v1/integrators/{id} and are withdrawn with the withdraw transactionRequest', async () => {
  const { provider, deployment } = devnet.chain(42161);

  // the seeded balance, read from the chain; Optimism (not connected) keeps the seeded figures, Base has none
  const start = await integrator(INTEGRATOR);
  expect(start.integratorId).toBe(INTEGRATOR);
  expect(balancesOn(start, 42161)).toEqual([[ARB_USDC, String(SEEDED_ARB_USDC)]]);
  expect(balancesOn(start, 10)).toEqual([[OP_USDC, '53120000']]);
  expect(balancesOn(start, 8453)).toEqual([]);

  // a quote with an integrator fee, executed: the fee is booked under the fee wallet, exactly as quoted
  const { fee, booking, booked } = await executeWithFee(INTEGRATOR);
  expect(booking).toBe(FEE_WALLET);
  expect(booked).toBe(fee);
  const accrued = await integrator(INTEGRATOR);
  expect(balancesOn(accrued, 42161)).toEqual([[ARB_USDC, String(SEEDED_ARB_USDC + fee)]]);
  expect(balancesOn(accrued, 10)).toEqual([[OP_USDC, '53120000']]);

  // the withdrawal, sent by the fee wallet as it is
  const res = await request(t.app).get(`/v1/integrators/${INTEGRATOR}/withdraw/42161`);
  contract.expectResponse('getIntegratorWithdrawal', res);
  expect(res.status).toBe(200);
  const tx = res.body.transactionRequest as WireTransactionRequest;
  expect(tx).toMatchObject({ chainId: 42161, to: deployment.feeCollector, from: FEE_WALLET, value: '0x0' });
  expect(feeCollectorInterface.parseTransaction({ data: tx.data })!.name).toBe('withdrawIntegratorFees');
  const before = await balanceOf(provider, ARB_USDC, FEE_WALLET);
  const receipt = await sendTransactionRequest(devnet.wallet(42161, 1), tx);
  expect(receipt.status).toBe(1);
  expect(receipt.gasUsed <= BigInt(tx.gasLimit)).toBe(true);
  expect((await balanceOf(provider, ARB_USDC, FEE_WALLET)) - before).toBe(SEEDED_ARB_USDC + fee);

  // nothing left on Arbitrum, and nothing to withdraw again
  const after = await integrator(INTEGRATOR);
  expect(balancesOn(after, 42161)).toEqual([]);
  expect(balancesOn(after, 10)).toEqual([[OP_USDC, '53120000']]);
  const again = await request(t.app).get(`/v1/integrators/${INTEGRATOR}/withdraw/42161`);
  expectInvalidRequest(contract, 'getIntegratorWithdrawal', again, /no collected fees on Arbitrum/);
});

test('a fee for an id nobody registered is refused (no fee stream to hijack); one the ledger knows without a fee wallet is booked at integratorAccount(id)', async () => {
  const refused = await request(t.app).get('/v1/quote').query({ fromChain: '42161', toChain: '42161', fromToken: 'USDC', toToken: 'WETH', fromAmount: '1000000000', fromAddress: devnet.wallet(42161, 0).address, integrator: NEWCOMER, fee: '0.003' });
  expectInvalidRequest(contract, 'getQuote', refused, /integrator "e2e-newcomer" is not a registered integrator.*register it in the partner portal \(\/portal\)/);
  const unknown = await request(t.app).get(`/v1/integrators/${NEWCOMER}`);
  contract.expectResponse('getIntegrator', unknown);
  expect(unknown.status).toBe(404);
  expect(unknown.body.code).toBe(1003);

  const { fee, booking } = await executeWithFee(WALLETLESS);
  expect(booking).toBe(integratorAccount(WALLETLESS));
  const report = await integrator(WALLETLESS);
  expect(balancesOn(report, 42161)).toEqual([[ARB_USDC, String(fee)]]);
  expect(report.feeBalances.filter((c) => c.tokenBalances.length > 0)).toHaveLength(1);
  // nobody holds its key: the withdrawal names no sender
  const res = await request(t.app).get(`/v1/integrators/${WALLETLESS}/withdraw/arb`);
  contract.expectResponse('getIntegratorWithdrawal', res);
  expect(res.status).toBe(200);
  expect(res.body.transactionRequest).not.toHaveProperty('from');
});
