/**
 * Transfers tracked end to end: the real app in chain mode (CHAINS_FILE naming the devnet's chains, router, fee
 * collector and bridge endpoint) quotes over HTTP, a test wallet approves and sends the transactionRequest as it
 * is, and GET /v1/status is polled until the transfer is DONE or FAILED. Received amounts come from the chains'
 * events and must equal the quote's estimate (nothing else trades in between: each test starts from the seeded
 * state). Every answer is validated against openapi.yaml.
 */
import request from 'supertest';
import { Interface } from 'ethers';
import { startDevnet, type Devnet } from '../../sandbox/devnet';
import { approveIfNeeded, balanceOf, sendTransactionRequest, type WireTransactionRequest } from '../../sandbox/execute';
import { chainsFileOf } from '../../sandbox/service';
import { makeTestApp, useContract, useTestApp } from '../support/app';
import { revertAfterEach } from '../support/devnet';
import { useScratchDir } from '../support/files';
import { transactionIdOf } from '../../src/core/transactions/ids';

jest.setTimeout(60_000);

interface Quote {
  id: string;
  tool: string;
  action: { fromChainId: number; toChainId: number; fromAmount: string; fromToken: { address: string; symbol: string }; toToken: { address: string; symbol: string } };
  estimate: { toAmount: string; toAmountMin: string; approvalAddress: string; data?: { gasRefuel?: { toAmount: string } } };
  transactionRequest: WireTransactionRequest;
}

let devnet: Devnet;
beforeAll(async () => {
  devnet = await startDevnet({ wallets: 2 });
}, 90_000);
const files = useScratchDir('status-e2e-');
const t = useTestApp(() => ({ env: { CHAINS_FILE: files.writeJson('chains.json', chainsFileOf(devnet)) } }));
const contract = useContract();
// after the app's afterAll (hooks run in the order declared): its chain connections close before the chains stop
afterAll(async () => {
  await devnet?.stop();
});

revertAfterEach(() => devnet);

async function quote(query: Record<string, string>, walletIndex = 0, route = '/v1/quote'): Promise<Quote> {
  const wallet = devnet.wallet(Number(query.fromChain), walletIndex);
  const res = await request(t.app).get(route).query({ ...query, fromAddress: wallet.address });
  if (res.status !== 200) throw new Error(`quote ${JSON.stringify(query)}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  return res.body as Quote;
}

async function send(q: Quote, { approve = true, walletIndex = 0 } = {}) {
  const wallet = devnet.wallet(q.action.fromChainId, walletIndex);
  if (approve) await approveIfNeeded(wallet, q.action.fromToken.address, q.estimate.approvalAddress, BigInt(q.action.fromAmount));
  return sendTransactionRequest(wallet, q.transactionRequest);
}

async function status(query: Record<string, string>) {
  const res = await request(t.app).get('/v1/status').query(query);
  contract.expectResponse('getStatus', res);
  expect(res.status).toBe(200);
  return res.body;
}

/** Polls GET /v1/status every 50 ms until the transfer is DONE or FAILED (what an integrator's client does). */
async function pollUntilFinal(query: Record<string, string>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  const seen: string[] = [];
  for (;;) {
    const body = await status(query);
    const state = `${body.status}${body.substatus ? ` ${body.substatus}` : ''}`;
    if (seen[seen.length - 1] !== state) seen.push(state);
    if (body.status === 'DONE' || body.status === 'FAILED') return { body, seen };
    if (Date.now() > deadline) throw new Error(`still ${state} after ${timeoutMs} ms: ${JSON.stringify(body).slice(0, 400)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function expectReceivedAsQuoted(body: { receiving: { amount: string; token: { address: string } } }, q: Quote): void {
  expect(body.receiving.token.address.toLowerCase()).toBe(q.action.toToken.address.toLowerCase());
  expect(BigInt(body.receiving.amount)).toBe(BigInt(q.estimate.toAmount));
  expect(BigInt(body.receiving.amount) >= BigInt(q.estimate.toAmountMin)).toBe(true);
}

describe('same-chain swaps', () => {
  test.each([
    ['constant product (V2)', { fromChain: '1', toChain: '1', fromToken: 'WETH', toToken: 'LINK', fromAmount: '1000000000000000000' }],
    ['concentrated (V3)', { fromChain: '42161', toChain: '42161', fromToken: 'USDC', toToken: 'WETH', fromAmount: '2500000000' }],
    ['stableswap (Curve)', { fromChain: '1', toChain: '1', fromToken: 'USDC', toToken: 'USDT', fromAmount: '10000000000' }],
  ])('%s: DONE COMPLETED by sending hash, transfer id and step id', async (_kind, query) => {
    const q = await quote(query);
    const receipt = await send(q);
    expect(receipt.status).toBe(1);
    const { body } = await pollUntilFinal({ txHash: receipt.hash });
    expect(body).toMatchObject({ status: 'DONE', substatus: 'COMPLETED', transactionId: transactionIdOf(q.id), fromAddress: devnet.wallet(1).address });
    expectReceivedAsQuoted(body, q);
    expect(body.sending).toMatchObject({ txHash: receipt.hash, chainId: q.action.fromChainId, amount: q.action.fromAmount, gasUsed: receipt.gasUsed.toString() });
    expect(body.sending.txLink).toMatch(new RegExp(`/tx/${receipt.hash}$`));
    expect(body.sending.includedSteps[0]).toMatchObject({ fromAmount: q.action.fromAmount, toAmount: q.estimate.toAmount });
    expect(await status({ txHash: transactionIdOf(q.id) })).toEqual(body);
    expect(await status({ txHash: q.id, fromChain: String(q.action.fromChainId) })).toEqual(body);
  });

  test('/v1/quote/toAmount: receives at least toAmount, exactly the estimate', async () => {
    const q = await quote({ fromChain: '1', toChain: '1', fromToken: 'USDC', toToken: 'WETH', toAmount: '1000000000000000000' }, 0, '/v1/quote/toAmount');
    const receipt = await send(q);
    const { body } = await pollUntilFinal({ txHash: receipt.hash, fromChain: 'eth' });
    expect(body.status).toBe('DONE');
    expectReceivedAsQuoted(body, q);
    expect(BigInt(body.receiving.amount) >= 10n ** 18n).toBe(true);
  });
});

describe('cross-chain transfers', () => {
  test('bridge only: PENDING WAIT_DESTINATION_TRANSACTION while the relayer is stopped, then DONE; the receiving hash finds it too', async () => {
    const q = await quote({ fromChain: '8453', toChain: '42161', fromToken: 'USDC', toToken: 'USDC', fromAmount: '1000000000' });
    devnet.relayer!.stop();
    const receipt = await send(q);
    const pending = await status({ txHash: receipt.hash });
    expect(pending).toMatchObject({ status: 'PENDING', substatus: 'WAIT_DESTINATION_TRANSACTION', tool: q.tool, receiving: { chainId: 42161 } });
    await devnet.relayer!.start();
    const { body } = await pollUntilFinal({ txHash: receipt.hash, fromChain: '8453' });
    expect(body).toMatchObject({ status: 'DONE', substatus: 'COMPLETED', tool: q.tool });
    expectReceivedAsQuoted(body, q);
    expect(body.receiving.chainId).toBe(42161);
    const bridgeStep = body.sending.includedSteps.find((s: { tool: string }) => s.tool === q.tool);
    expect(bridgeStep).toMatchObject({ fromAmount: q.action.fromAmount, toAmount: q.estimate.toAmount });
    // the PENDING answer listed the same step, estimated by the bridge's model (as quoted), as the DONE answer does
    expect(pending.sending.includedSteps).toEqual(body.sending.includedSteps);
    expect(await status({ txHash: body.receiving.txHash })).toEqual(body);
    // fromChain names the source: the receiving hash is still found on the other chains
    expect(await status({ txHash: body.receiving.txHash, fromChain: '8453' })).toEqual(body);
    const other = q.tool === 'across' ? 'stargate' : 'across';
    const wrongBridge = await status({ txHash: receipt.hash, bridge: other });
    expect(wrongBridge.status).toBe('INVALID');
    expect(wrongBridge.substatusMessage).toMatch(new RegExp(`via ${q.tool}, not via ${other}`));
  });

  test('fee, swap, bridge and destination swap: WETH Arbitrum → DAI Base', async () => {
    const q = await quote({ fromChain: '42161', toChain: '8453', fromToken: 'WETH', toToken: 'DAI', fromAmount: '1000000000000000000', integrator: 'acme', fee: '0.003' }); // a fee: an integrator of the ledger
    const receipt = await send(q);
    const { body } = await pollUntilFinal({ txHash: receipt.hash });
    expect(body).toMatchObject({ status: 'DONE', substatus: 'COMPLETED', metadata: { integrator: 'acme' } });
    expectReceivedAsQuoted(body, q);
    expect(body.sending.amount).toBe(q.action.fromAmount);
    expect(body.feeCosts).toHaveLength(1);
    expect(body.receiving.includedSteps.length).toBe(1);
    expect(body.receiving.includedSteps[0].toAmount).toBe(q.estimate.toAmount);
  });

  test('gas refuel: /v1/status DONE for the transfer, /v1/gas/status DONE with the native coin delivered', async () => {
    const q = await quote({ fromChain: '8453', toChain: '42161', fromToken: 'USDC', toToken: 'USDC', fromAmount: '1000000000', fromAmountForGas: '10000000' });
    const receipt = await send(q);
    const { body } = await pollUntilFinal({ txHash: receipt.hash });
    expect(body.status).toBe('DONE');
    expectReceivedAsQuoted(body, q);
    let gas;
    for (let k = 0; k < 200; k++) {
      const res = await request(t.app).get('/v1/gas/status').query({ txHash: receipt.hash });
      contract.expectResponse('getGasStatus', res);
      gas = res.body;
      if (gas.status === 'DONE') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(gas).toMatchObject({ status: 'DONE', sending: { txHash: receipt.hash, chainId: 8453 }, receiving: { chainId: 42161, token: { symbol: 'ETH' } } });
    expect(gas.receiving.amount).toBe(q.estimate.data!.gasRefuel!.toAmount);
  });

  test('a transfer to a chain the devnet does not run: DONE REFUNDED on the source chain', async () => {
    const q = await quote({ fromChain: '8453', toChain: '10', fromToken: 'USDC', toToken: 'USDC', fromAmount: '1000000000' });
    const receipt = await send(q);
    const { body, seen } = await pollUntilFinal({ txHash: receipt.hash });
    expect(seen[0]).toMatch(/^(PENDING CHAIN_NOT_AVAILABLE|DONE REFUNDED)$/);
    expect(body).toMatchObject({ status: 'DONE', substatus: 'REFUNDED', receiving: { chainId: 8453, amount: q.action.fromAmount } });
  });
});

describe('contract calls', () => {
  const ERC20 = new Interface(['function transfer(address to, uint256 amount) returns (bool)']);
  const PAYEE = '0x00000000000000000000000000000000000C0FFE';

  test.each([
    ['same chain (swapAndCall)', '42161', '42161'],
    ['cross chain (destination call)', '42161', '8453'],
  ])('%s: the call pays a payee in WETH; DONE COMPLETED with the swapped amount', async (_kind, fromChain, toChain) => {
    const wallet = devnet.wallet(Number(fromChain));
    const tokens = await request(t.app).get('/v1/token').query({ chain: toChain, token: 'WETH' });
    const weth = tokens.body.address as string;
    const amount = 10_000_000_000_000_000n;
    const res = await request(t.app).post('/v1/quote/contractCalls').send({
      fromChain: Number(fromChain), toChain: Number(toChain), fromToken: 'USDC', toToken: 'WETH', fromAddress: wallet.address, toAmount: amount.toString(),
      contractCalls: [{ fromAmount: amount.toString(), fromTokenAddress: weth, toContractAddress: weth, toContractCallData: ERC20.encodeFunctionData('transfer', [PAYEE, amount]), toContractGasLimit: '100000' }],
    });
    contract.expectResponse('postContractCallsQuote', res);
    expect(res.status).toBe(200);
    const q = res.body as Quote;
    const receipt = await send(q);
    expect(receipt.status).toBe(1);
    const { body } = await pollUntilFinal({ txHash: receipt.hash });
    expect(body).toMatchObject({ status: 'DONE', substatus: 'COMPLETED', receiving: { chainId: Number(toChain), amount: q.estimate.toAmount } });
    expect(body.receiving.token.address.toLowerCase()).toBe(weth.toLowerCase());
    const { provider } = devnet.chain(Number(toChain));
    expect(await balanceOf(provider, weth, PAYEE)).toBe(amount);
  });
});

describe('confirmations', () => {
  test('a chain configured with 3 confirmations: PENDING WAIT_SOURCE_CONFIRMATIONS until two more blocks', async () => {
    const file = files.writeJson('chains-confirmations.json', chainsFileOf(devnet, { confirmations: { 8453: 3 } }));
    const slow = await makeTestApp({ env: { CHAINS_FILE: file } });
    try {
      devnet.relayer!.stop();
      const q = await quote({ fromChain: '8453', toChain: '42161', fromToken: 'USDC', toToken: 'USDC', fromAmount: '1000000000' });
      const receipt = await send(q);
      const first = await request(slow.app).get('/v1/status').query({ txHash: receipt.hash });
      contract.expectResponse('getStatus', first);
      expect(first.body).toMatchObject({ status: 'PENDING', substatus: 'WAIT_SOURCE_CONFIRMATIONS' });
      expect(first.body.substatusMessage).toMatch(/1 of 3 confirmations/);
      await devnet.chain(8453).provider.send('anvil_mine', ['0x2']);
      const later = await request(slow.app).get('/v1/status').query({ txHash: receipt.hash });
      expect(later.body).toMatchObject({ status: 'PENDING', substatus: 'WAIT_DESTINATION_TRANSACTION' });
      await devnet.relayer!.start();
    } finally {
      slow.dependencies.chains?.close();
    }
  });
});

describe('failures and foreign references', () => {
  test('a transaction sent without the approval: FAILED INSUFFICIENT_ALLOWANCE', async () => {
    const q = await quote({ fromChain: '1', toChain: '1', fromToken: 'USDC', toToken: 'WETH', fromAmount: '1000000000' }, 1);
    const receipt = await send(q, { approve: false, walletIndex: 1 });
    expect(receipt.status).toBe(0);
    const body = await status({ txHash: receipt.hash });
    expect(body).toMatchObject({ status: 'FAILED', substatus: 'INSUFFICIENT_ALLOWANCE', transactionId: transactionIdOf(q.id) });
    expect(body.substatusMessage).toMatch(/approve/);
  });

  test('a price moved beyond the slippage before the transaction ran: FAILED SLIPPAGE_EXCEEDED', async () => {
    const query = { fromChain: '1', toChain: '1', fromToken: 'USDC', toToken: 'WETH', fromAmount: '1000000000', slippage: '0.001' };
    const first = await quote(query, 0);
    const mover = await quote({ ...query, fromAmount: '2000000000000', slippage: '0.5' }, 1);
    expect((await send(mover, { walletIndex: 1 })).status).toBe(1);
    const receipt = await send(first);
    expect(receipt.status).toBe(0);
    const body = await status({ txHash: receipt.hash });
    expect(body).toMatchObject({ status: 'FAILED', substatus: 'SLIPPAGE_EXCEEDED' });
  });

  test('an approval is not a transfer of the service: INVALID; an unknown hash: NOT_FOUND', async () => {
    const q = await quote({ fromChain: '1', toChain: '1', fromToken: 'USDC', toToken: 'WETH', fromAmount: '1000000000' });
    const approval = await approveIfNeeded(devnet.wallet(1), q.action.fromToken.address, q.estimate.approvalAddress, 1n);
    expect(approval).toBeDefined();
    expect((await status({ txHash: approval!.hash })).status).toBe('INVALID');
    expect(await status({ txHash: `0x${'ab'.repeat(32)}` })).toMatchObject({ status: 'NOT_FOUND' });
  });
});
