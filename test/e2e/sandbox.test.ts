/**
 * Quotes of the real app (in process) executed on real local EVM chains (anvil, sandbox/devnet.ts): the
 * transactionRequest is signed and sent as it is by a funded test wallet, and the receiver must get exactly
 * estimate.toAmount (the core's integer math, reproduced by the Solidity pools, router, fee collector and bridge).
 * One route per pool kind (V2, V3, Curve with 2 and 3 coins), a route through the genuine Uniswap contracts (its
 * SwapRouter and Router02, on pools their factories created: deploy.ts), native in / out through WETH, an integrator
 * fee, a bridge-only transfer completed by the relayer, and swap → bridge → destination swap.
 * Each test starts from the seeded state (evm_snapshot / evm_revert), since quotes price the snapshot's state.
 */
import request from 'supertest';
import type express from 'express';
import { Interface, type TransactionReceipt } from 'ethers';
import { startDevnet, type Devnet } from '../../sandbox/devnet';
import { approveIfNeeded, balanceOf, replayRevert, sendTransactionRequest, type WireTransactionRequest } from '../../sandbox/execute';
import { waitForReceipt } from '../../sandbox/rpc';
import { makeTestApp } from '../support/app';
import { devnetErrors, revertAfterEach } from '../support/devnet';
import { NATIVE } from '../support/fixtures';
import { BRIDGE_FACETS, bridgeFacetAbi, routerInterface } from '../../src/core/transactions/abi';

jest.setTimeout(60_000);

interface Quote {
  action: { fromChainId: number; toChainId: number; fromAmount: string; fromToken: { address: string }; toToken: { address: string } };
  estimate: { toAmount: string; toAmountMin: string; approvalAddress: string; data?: { gasRefuel?: { toAmount: string; toAmountMin: string } } };
  includedSteps: { type: string; tool: string }[];
  transactionRequest: WireTransactionRequest;
}

let devnet: Devnet;
let app: express.Express;
let routerI: Interface;
let errorsI: Interface;

beforeAll(async () => {
  // A fresh router (no balances, no approvals yet): the quoted gas limits must cover first-time storage writes.
  const [d, t] = await Promise.all([startDevnet({ wallets: 2, warmRouter: false }), makeTestApp()]);
  devnet = d;
  app = t.app;
  // the router's bridge facets are dispatched by its fallback: the service's ABI names them
  routerI = routerInterface(Object.keys(BRIDGE_FACETS));
  errorsI = devnetErrors(devnet);
}, 90_000);

afterAll(async () => {
  await devnet?.stop();
});

revertAfterEach(() => devnet);

async function getQuote(query: Record<string, string>, wallet: string, path = '/v1/quote'): Promise<Quote> {
  const res = await request(app).get(path).query({ ...query, fromAddress: wallet });
  if (res.status !== 200) throw new Error(`quote ${JSON.stringify(query)}: ${res.status} ${JSON.stringify(res.body).slice(0, 400)}`);
  return res.body as Quote;
}

const SELECTORS: Record<string, string> = {
  '0x38ed1739': 'v2', // swapExactTokensForTokens
  '0xc04b8d59': 'v3', // exactInput
  '0x3df02124': 'curve', // exchange(int128,int128,uint256,uint256)
  '0xd0e30db0': 'wrap',
  '0x2e1a7d4d': 'unwrap',
};

/** The kinds of the SwapData of a router call (source side), from its call data. */
function hopKinds(data: string): string[] {
  const call = routerI.parseTransaction({ data })!;
  const fee = new Interface(devnet.artifacts.FeeCollector.abi as string[]);
  const feeSelectors = new Set(['collectTokenFees', 'collectNativeFees'].map((f) => fee.getFunction(f)!.selector));
  return ((call.args.swapData ?? []) as { callData: string }[]).map((s) => {
    const selector = s.callData.slice(0, 10);
    return feeSelectors.has(selector) ? 'fee' : SELECTORS[selector] ?? selector;
  });
}

/** The contract each SwapData of a router call (source side) calls. */
function hopTargets(data: string): string[] {
  return ((routerI.parseTransaction({ data })!.args.swapData ?? []) as { callTo: string }[]).map((s) => s.callTo);
}

interface Executed {
  quote: Quote;
  receipt: TransactionReceipt;
  received: bigint;
  spent: bigint;
  /** Native coin of the destination chain the receiver got (cross-chain only). */
  nativeReceived: bigint;
}

/** Approves when needed, sends the quote's transaction as is, waits for the relayer when it bridges. */
async function execute(query: Record<string, string>, path = '/v1/quote', walletIndex = 0): Promise<Executed> {
  const fromChainId = Number(query.fromChain);
  const wallet = devnet.wallet(fromChainId, walletIndex);
  const quote = await getQuote(query, wallet.address, path);
  const { action } = quote;
  expect(action.fromChainId).toBe(fromChainId);
  const from = devnet.chain(action.fromChainId);
  const to = devnet.chain(action.toChainId);
  await approveIfNeeded(wallet, action.fromToken.address, quote.estimate.approvalAddress, BigInt(action.fromAmount));
  const fromBefore = await balanceOf(from.provider, action.fromToken.address, wallet.address);
  const toBefore = await balanceOf(to.provider, action.toToken.address, wallet.address);
  const routerBefore = await balanceOf(from.provider, action.fromToken.address, quote.transactionRequest.to);
  const nativeBefore = await to.provider.getBalance(wallet.address);
  const receipt = await sendTransactionRequest(wallet, quote.transactionRequest);
  if (receipt.status !== 1) {
    throw new Error(`transaction reverted (gas used ${receipt.gasUsed} of ${BigInt(quote.transactionRequest.gasLimit)}): ${await replayRevert(from.provider, receipt, errorsI)}`);
  }
  const gasPaid = receipt.gasUsed * receipt.gasPrice;
  if (action.fromChainId !== action.toChainId) {
    const started = receipt.logs
      .filter((l) => l.address.toLowerCase() === quote.transactionRequest.to.toLowerCase())
      .map((l) => routerI.parseLog(l))
      .filter((e) => e?.name === 'LiFiTransferStarted');
    expect(started.length).toBeGreaterThan(0);
    // a gas refuel leg is a second transfer with the same transactionId
    const completions = await devnet.relayer!.waitForAll(started[0]!.args.bridgeData.transactionId as string, started.length);
    for (const completion of completions) {
      if (completion.kind !== 'released') throw new Error(`the bridge refunded: ${completion.reason}`);
      if (completion.destinationCall) expect(completion.destinationCallSucceeded).toBe(true);
    }
  }
  const fromAfter = await balanceOf(from.provider, action.fromToken.address, wallet.address);
  const toAfter = await balanceOf(to.provider, action.toToken.address, wallet.address);
  // the native coin also pays the gas on its chain
  const spent = fromBefore - fromAfter - (action.fromToken.address === NATIVE ? gasPaid : 0n);
  const received = toAfter - toBefore + (action.toToken.address === NATIVE && action.toChainId === action.fromChainId ? gasPaid : 0n);
  // the router keeps nothing of the input
  expect(await balanceOf(from.provider, action.fromToken.address, quote.transactionRequest.to)).toBe(routerBefore);
  const nativeReceived = action.toChainId !== action.fromChainId ? (await to.provider.getBalance(wallet.address)) - nativeBefore : 0n;
  return { quote, receipt, received, spent, nativeReceived };
}

function expectExact(e: Executed): void {
  expect(e.spent).toBe(BigInt(e.quote.action.fromAmount));
  expect(e.received).toBe(BigInt(e.quote.estimate.toAmount));
  expect(e.received >= BigInt(e.quote.estimate.toAmountMin)).toBe(true);
  expect(e.receipt.gasUsed <= BigInt(e.quote.transactionRequest.gasLimit)).toBe(true);
}

describe('same-chain quotes execute exactly', () => {
  test('constant product (V2): WETH → LINK on Ethereum through sushiswap', async () => {
    const e = await execute({ fromChain: '1', toChain: '1', fromToken: 'WETH', toToken: 'LINK', fromAmount: '1000000000000000000', allowExchanges: 'sushiswap' });
    expect(hopKinds(e.quote.transactionRequest.data)).toEqual(['v2']);
    expectExact(e);
  });

  test('concentrated (V3): USDC → WETH on Arbitrum through sushiswap', async () => {
    const e = await execute({ fromChain: '42161', toChain: '42161', fromToken: 'USDC', toToken: 'WETH', fromAmount: '25000000000', allowExchanges: 'sushiswap' });
    expect(hopKinds(e.quote.transactionRequest.data)).toEqual(['v3']);
    expectExact(e);
  });

  test('genuine Uniswap V3 then V2 (SwapRouter.exactInput, Router02.swapExactTokensForTokens): USDC → LINK on Ethereum', async () => {
    const e = await execute({ fromChain: '1', toChain: '1', fromToken: 'USDC', toToken: 'LINK', fromAmount: '1000000000', allowExchanges: 'uniswap' });
    const uniswap = devnet.chain(1).deployment.uniswap!.addresses;
    expect(hopKinds(e.quote.transactionRequest.data)).toEqual(['v3', 'v2']);
    expect(hopTargets(e.quote.transactionRequest.data)).toEqual([uniswap.swapRouter, uniswap.v2Router02]);
    expectExact(e);
  });

  test('stableswap (Curve, 3 coins): USDC → USDT on Ethereum', async () => {
    const e = await execute({ fromChain: '1', toChain: '1', fromToken: 'USDC', toToken: 'USDT', fromAmount: '1000000000', allowExchanges: 'curve' });
    expect(hopKinds(e.quote.transactionRequest.data)).toEqual(['curve']);
    expectExact(e);
  });

  test('stableswap (Curve, 2 coins, 6 → 18 decimals) with an integrator fee: USDC → USDe on Ethereum', async () => {
    const e = await execute({ fromChain: '1', toChain: '1', fromToken: 'USDC', toToken: 'USDe', fromAmount: '5000000000', allowExchanges: 'curve', integrator: 'example-dapp', fee: '0.003' });
    expect(hopKinds(e.quote.transactionRequest.data)).toEqual(['fee', 'curve']);
    expectExact(e);
  });

  test('native in: ETH → USDC on Base (WETH deposit, then the pools)', async () => {
    const e = await execute({ fromChain: '8453', toChain: '8453', fromToken: 'ETH', toToken: 'USDC', fromAmount: '1000000000000000000' });
    expect(hopKinds(e.quote.transactionRequest.data)[0]).toBe('wrap');
    expectExact(e);
  });

  test('native out: USDC → ETH on Base (the pools, then WETH withdraw)', async () => {
    const e = await execute({ fromChain: '8453', toChain: '8453', fromToken: 'USDC', toToken: 'ETH', fromAmount: '1000000000' });
    expect(hopKinds(e.quote.transactionRequest.data).at(-1)).toBe('unwrap');
    expectExact(e);
  });
});

describe('split routes', () => {
  test('ERC-20 split between two paths with an integrator fee: USDC → WETH on Ethereum (the fee SwapData deposits all of it)', async () => {
    const e = await execute({ fromChain: '1', toChain: '1', fromToken: 'USDC', toToken: 'WETH', fromAmount: '500000000000', integrator: 'example-dapp', fee: '0.003' });
    expect(hopKinds(e.quote.transactionRequest.data)).toEqual(['fee', 'v3', 'curve', 'v3']);
    expectExact(e);
  });

  // Without a fee step, the first SwapData of each parallel path pulls that path's share of the funds.
  test('ERC-20 split between two paths without a fee: USDC → WETH on Ethereum', async () => {
    const e = await execute({ fromChain: '1', toChain: '1', fromToken: 'USDC', toToken: 'WETH', fromAmount: '500000000000' });
    expect(hopKinds(e.quote.transactionRequest.data)).toEqual(['v3', 'curve', 'v3']);
    expectExact(e);
  });
});

describe('exact output', () => {
  test('/v1/quote/toAmount: 1 WETH for USDC on Ethereum', async () => {
    const e = await execute({ fromChain: '1', toChain: '1', fromToken: 'USDC', toToken: 'WETH', toAmount: '1000000000000000000' }, '/v1/quote/toAmount');
    expect(e.received >= 1_000_000_000_000_000_000n).toBe(true);
    expectExact(e);
  });
});

describe('cross-chain quotes execute exactly, completed by the relayer', () => {
  test('gas refuel (fromAmountForGas): USDC Base → Arbitrum, part of it delivered as ETH in the same transaction', async () => {
    const e = await execute({ fromChain: '8453', toChain: '42161', fromToken: 'USDC', toToken: 'USDC', fromAmount: '1000000000', fromAmountForGas: '10000000' });
    expectExact(e);
    const refuel = e.quote.estimate.data?.gasRefuel;
    expect(refuel).toBeDefined();
    expect(e.nativeReceived).toBe(BigInt(refuel!.toAmount));
  });

  test('bridge only: USDC Base → Arbitrum', async () => {
    const e = await execute({ fromChain: '8453', toChain: '42161', fromToken: 'USDC', toToken: 'USDC', fromAmount: '1000000000' });
    expect(e.quote.includedSteps.map((s) => s.type)).toEqual(['cross']);
    expectExact(e);
  });

  test('bridge only with a proportional and a destination gas fee: USDC Base → Arbitrum via across', async () => {
    const e = await execute({ fromChain: '8453', toChain: '42161', fromToken: 'USDC', toToken: 'USDC', fromAmount: '1000000000', allowBridges: 'across' });
    expect(e.received < BigInt(e.quote.action.fromAmount)).toBe(true);
    expectExact(e);
  });

  test('fee, swap, bridge and destination swap: WETH Arbitrum → DAI Base', async () => {
    const e = await execute({ fromChain: '42161', toChain: '8453', fromToken: 'WETH', toToken: 'DAI', fromAmount: '1000000000000000000', integrator: 'example-dapp', fee: '0.002' });
    expect(e.quote.includedSteps.map((s) => s.type)).toEqual(['protocol', 'swap', 'cross', 'swap']);
    expectExact(e);
  });
});

describe('what cannot complete, and the fee collector', () => {
  test('a transfer to a chain the devnet does not run is refunded by the relayer on the source chain', async () => {
    const wallet = devnet.wallet(8453);
    const quote = await getQuote({ fromChain: '8453', toChain: '10', fromToken: 'USDC', toToken: 'USDC', fromAmount: '1000000000' }, wallet.address);
    const { provider } = devnet.chain(8453);
    await approveIfNeeded(wallet, quote.action.fromToken.address, quote.estimate.approvalAddress, BigInt(quote.action.fromAmount));
    const before = await balanceOf(provider, quote.action.fromToken.address, wallet.address);
    const receipt = await sendTransactionRequest(wallet, quote.transactionRequest);
    expect(receipt.status).toBe(1);
    const started = receipt.logs.map((l) => { try { return routerI.parseLog(l); } catch { return null; } }).find((e) => e?.name === 'LiFiTransferStarted');
    const completion = await devnet.relayer!.waitFor(started!.args.bridgeData.transactionId as string);
    expect(completion.kind).toBe('refunded');
    expect(await balanceOf(provider, quote.action.fromToken.address, wallet.address)).toBe(before);
  });

  test('GET /v1/integrators/{id}/withdraw/{chainId}: the fee wallet withdraws the ledger\'s balances', async () => {
    const res = await request(app).get('/v1/integrators/example-dapp/withdraw/1');
    expect(res.status).toBe(200);
    const tx = res.body.transactionRequest as WireTransactionRequest & { from: string };
    const { provider } = devnet.chain(1);
    const ledger = devnet.data.ledger!.integrators.find((i) => i.integratorId === 'example-dapp')!;
    const entries = ledger.balances['1'];
    const before = await Promise.all(entries.map((e) => balanceOf(provider, e.token, tx.from)));
    // the fee wallet has no key here: anvil sends for it
    await provider.send('anvil_impersonateAccount', [tx.from]);
    await provider.send('anvil_setBalance', [tx.from, '0xde0b6b3a7640000']);
    const balanceStart = await provider.getBalance(tx.from);
    const hash = (await provider.send('eth_sendTransaction', [{ from: tx.from, to: tx.to, data: tx.data, value: tx.value, gas: tx.gasLimit, gasPrice: tx.gasPrice }])) as string;
    const receipt = await waitForReceipt(provider, hash);
    await provider.send('anvil_stopImpersonatingAccount', [tx.from]);
    expect(receipt.status).toBe(1);
    const after = await Promise.all(entries.map((e) => balanceOf(provider, e.token, tx.from)));
    entries.forEach((e, k) => {
      const gas = e.token === NATIVE ? receipt.gasUsed * receipt.gasPrice : 0n;
      const start = e.token === NATIVE ? balanceStart : before[k];
      expect(after[k] - start + gas).toBe(BigInt(e.amount));
    });
  });
});

test('the router answers every bridge facet of abi.ts (and every bridge of the snapshot)', async () => {
  const { provider, deployment } = devnet.chain(1);
  const keys = new Set([...Object.keys(BRIDGE_FACETS), ...devnet.data.bridges.map((b) => b.bridge)]);
  for (const key of keys) {
    const facet = new Interface(bridgeFacetAbi(key));
    const bridgeData = [`0x${'11'.repeat(32)}`, key, '', NATIVE, NATIVE, NATIVE, 1n, 10n, false, false];
    const specific = [NATIVE, '0x', 0n, '0x'];
    for (const data of [
      facet.encodeFunctionData(facet.fragments[0].format('sighash').split('(')[0], [bridgeData, specific]),
      facet.encodeFunctionData(facet.fragments[1].format('sighash').split('(')[0], [bridgeData, [], specific]),
    ]) {
      // a known facet gets past the dispatch and stops at the zero receiver
      const error = await provider.call({ to: deployment.router, data }).then(() => undefined, (e: { data?: string }) => e.data);
      expect(error ? errorsI.parseError(error)?.name : 'no revert').toBe('InvalidReceiver');
    }
  }
});

