/**
 * Contract-call quotes of the real app (POST /v1/quote/contractCalls and the deprecated POST /v1/quote/contractCall)
 * executed on real local EVM chains (anvil, sandbox/devnet.ts): the transactionRequest is signed and sent as it is,
 * the relayer completes the bridge and runs the destination call, and the target's recorded effect is checked
 * against the quote: a vault (contracts/test/TestVault.sol, deployed here) credits the beneficiary exactly each call's
 * amount, the sender gets exactly estimate.toAmount less what the calls take, failing calls pay their fallback
 * receiver, and the router and its call executor keep nothing. Every HTTP answer is validated against openapi.yaml.
 * Each test starts from the seeded state (evm_snapshot / evm_revert), since quotes price the snapshot's state.
 */
import request from 'supertest';
import type express from 'express';
import { getAddress, Interface, type JsonRpcProvider, type Log, type TransactionReceipt } from 'ethers';
import { startDevnet, type Devnet } from '../../sandbox/devnet';
import { approveIfNeeded, balanceOf, replayRevert, sendTransactionRequest, type WireTransactionRequest } from '../../sandbox/execute';
import { waitForReceipt } from '../../sandbox/rpc';
import { makeTestApp } from '../support/app';
import { contractValidator, type ContractValidator } from '../support/contract';
import { devnetErrors, revertAfterEach } from '../support/devnet';
import { NATIVE } from '../support/fixtures';
import type { Json } from '../support/wire';
import { BRIDGE_FACETS, curvePoolInterface, routerInterface, v2RouterInterface, v3RouterInterface } from '../../src/core/transactions/abi';
import { encodeCurveExchange, encodeV2Swap, encodeV3ExactInput } from '../../src/core/transactions/calldata';

jest.setTimeout(60_000);

const ARBITRUM = 42161;
const BASE = 8453;
/** Who the vault credits, and who gets the tokens of failed calls (addresses with no history on the devnet). */
const BENEFICIARY = getAddress('0x000000000000000000000000000000000000beef');
const OTHER_BENEFICIARY = getAddress('0x000000000000000000000000000000000000cafe');
const FALLBACK = getAddress('0x000000000000000000000000000000000000fa11');
const OTHER_FALLBACK = getAddress('0x000000000000000000000000000000000000fa12');

interface Step {
  id: string;
  action: { fromChainId: number; toChainId: number; fromAmount: string; fromAddress: string; fromToken: { address: string }; toToken: { address: string } };
  estimate: { toAmount: string; toAmountMin: string; approvalAddress: string; data: { contractCalls: { count: number; fromAmount: string; remainderReceiver: string } } };
  includedSteps: { type: string; tool: string; action: Json; estimate: Json }[];
  transactionRequest: WireTransactionRequest;
}

let devnet: Devnet;
let app: express.Express;
let contract: ContractValidator;
let routerI: Interface;
let errorsI: Interface;
let vaultI: Interface;
/** The vault deployed on each chain. */
const vaults = new Map<number, string>();

beforeAll(async () => {
  // A fresh router (no balances, no approvals yet): the quoted gas limits must cover first-time storage writes.
  const [d, t, c] = await Promise.all([startDevnet({ chains: [ARBITRUM, BASE], wallets: 1, warmRouter: false }), makeTestApp(), contractValidator()]);
  devnet = d;
  app = t.app;
  contract = c;
  routerI = routerInterface(Object.keys(BRIDGE_FACETS));
  errorsI = devnetErrors(devnet);
  vaultI = new Interface(devnet.artifacts.TestVault.abi as never);
  // the integrator's target, deployed like any contract (a creation transaction), before the checkpoints
  await Promise.all([ARBITRUM, BASE].map(async (chainId) => {
    const { provider } = devnet.chain(chainId);
    const hash = (await provider.send('eth_sendTransaction', [{ from: devnet.admin, data: devnet.artifacts.TestVault.bytecode, gas: '0x200000' }])) as string;
    const receipt = await waitForReceipt(provider, hash);
    if (receipt.status !== 1 || !receipt.contractAddress) throw new Error(`TestVault deployment failed on chain ${chainId}`);
    vaults.set(chainId, receipt.contractAddress);
  }));
}, 90_000);

afterAll(async () => {
  await devnet?.stop();
});

revertAfterEach(() => devnet);

const deposit = (token: string, amount: bigint, beneficiary: string) => vaultI.encodeFunctionData('deposit', [token, amount, beneficiary]);

/**
 * One call of a contract-calls quote: `amount` of `token` handed to the vault on `chainId` with a deposit of all of
 * it for `beneficiary` (`extra` adds fields, or replaces them: a fallback receiver, other call data).
 */
const vaultCall = (chainId: number, token: string, amount: bigint, beneficiary: string, extra: Json = {}) => ({
  fromAmount: amount.toString(), fromTokenAddress: token, toContractAddress: vaults.get(chainId), toContractCallData: deposit(token, amount, beneficiary), toContractGasLimit: '120000', ...extra,
});

async function vaultBalance(chainId: number, token: string, beneficiary: string): Promise<bigint> {
  const { provider } = devnet.chain(chainId);
  const data = await provider.call({ to: vaults.get(chainId)!, data: vaultI.encodeFunctionData('balanceOf', [token, beneficiary]) });
  return vaultI.decodeFunctionResult('balanceOf', data)[0] as bigint;
}

async function callExecutorOf(provider: JsonRpcProvider, router: string): Promise<string> {
  const i = new Interface(devnet.artifacts.Router.abi as never);
  return i.decodeFunctionResult('callExecutor', await provider.call({ to: router, data: i.encodeFunctionData('callExecutor') }))[0] as string;
}

async function quote(body: Json, path = '/v1/quote/contractCalls'): Promise<Step> {
  const res = await request(app).post(path).send(body);
  contract.expectResponse(path.endsWith('contractCalls') ? 'postContractCallsQuote' : 'postContractCallQuote', res);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body).slice(0, 600)}`);
  return res.body as Step;
}

/** The router's events in logs (other contracts' logs skipped). */
function routerEvents(logs: readonly Log[], router: string) {
  return logs.filter((l) => l.address.toLowerCase() === router.toLowerCase()).map((l) => routerI.parseLog(l)!).filter(Boolean);
}

interface Executed {
  receipt: TransactionReceipt;
  /** The receipt of the bridge release on the destination chain (cross chain), where the calls ran. */
  callsReceipt: TransactionReceipt;
  /** What the sender spent of fromToken (gas excluded) and got of toToken (on the destination chain). */
  spent: bigint;
  received: bigint;
}

/**
 * POST /v1/quote/contractCalls for the test wallet: USDC on `fromChain` into `toToken` on `toChain`, exactly as much
 * as the calls take (toAmount), then the calls.
 */
function callsQuote(fromChain: number, toChain: number, toToken: string, calls: { fromAmount: string }[], extra: Json = {}): Promise<Step> {
  const toAmount = calls.reduce((sum, c) => sum + BigInt(c.fromAmount), 0n);
  return quote({ fromChain, toChain, fromToken: 'USDC', toToken, fromAddress: devnet.wallet(fromChain).address, toAmount: toAmount.toString(), contractCalls: calls, ...extra });
}

/** Approves when needed, sends the quote's transaction as is, waits for the relayer when it bridges. */
async function execute(step: Step, expectCallSucceeded = true): Promise<Executed> {
  const { action } = step;
  const wallet = devnet.wallet(action.fromChainId);
  expect(action.fromAddress.toLowerCase()).toBe(wallet.address.toLowerCase());
  const from = devnet.chain(action.fromChainId);
  const to = devnet.chain(action.toChainId);
  await approveIfNeeded(wallet, action.fromToken.address, step.estimate.approvalAddress, BigInt(action.fromAmount));
  const fromBefore = await balanceOf(from.provider, action.fromToken.address, wallet.address);
  const toBefore = await balanceOf(to.provider, action.toToken.address, wallet.address);
  const receipt = await sendTransactionRequest(wallet, step.transactionRequest);
  if (receipt.status !== 1) {
    throw new Error(`transaction reverted (gas used ${receipt.gasUsed} of ${BigInt(step.transactionRequest.gasLimit)}): ${await replayRevert(from.provider, receipt, errorsI)}`);
  }
  expect(receipt.gasUsed <= BigInt(step.transactionRequest.gasLimit)).toBe(true);
  let callsReceipt = receipt;
  if (action.fromChainId !== action.toChainId) {
    const started = routerEvents(receipt.logs, step.transactionRequest.to).filter((e) => e.name === 'LiFiTransferStarted');
    expect(started).toHaveLength(1);
    const completion = await devnet.relayer!.waitFor(started[0].args.bridgeData.transactionId as string);
    if (completion.kind !== 'released') throw new Error(`the bridge refunded: ${completion.reason}`);
    expect(completion.destinationCall).toBe(true);
    expect(completion.destinationCallSucceeded).toBe(expectCallSucceeded);
    callsReceipt = await waitForReceipt(to.provider, completion.releaseTx);
  }
  const gasPaid = receipt.gasUsed * receipt.gasPrice;
  const fromAfter = await balanceOf(from.provider, action.fromToken.address, wallet.address);
  const toAfter = await balanceOf(to.provider, action.toToken.address, wallet.address);
  const sameChainNative = (token: string) => token === NATIVE && action.fromChainId === action.toChainId;
  // the native coin also pays the gas on its chain
  const spent = fromBefore - fromAfter - (action.fromToken.address === NATIVE ? gasPaid : 0n);
  const received = toAfter - toBefore + (sameChainNative(action.toToken.address) ? gasPaid : 0n);
  return { receipt, callsReceipt, spent, received };
}

/** The custom steps' amounts: what each call takes, and the vault's estimate of what it records. */
function customSteps(step: Step) {
  return step.includedSteps.filter((s) => s.type === 'custom');
}

/** The sender paid exactly fromAmount and got exactly what the route delivered above what the calls took (`calls`). */
function expectSenderSettled(e: Executed, step: Step, calls: bigint): void {
  expect(e.spent).toBe(BigInt(step.action.fromAmount));
  expect(e.received).toBe(BigInt(step.estimate.toAmount) - calls);
}

/** The vault on `chainId` credited `beneficiary` exactly what the call's custom step says it takes and yields: `amount`. */
async function expectDeposited(chainId: number, token: string, custom: Step['includedSteps'][number], amount: bigint): Promise<void> {
  expect(await vaultBalance(chainId, token, BENEFICIARY)).toBe(BigInt(custom.estimate.toAmount));
  expect(BigInt(custom.estimate.toAmount)).toBe(amount);
}

/** Neither the router nor its call executor keeps anything of the calls' token on the chain where they ran. */
async function expectNothingKept(step: Step, token: string, routerBefore: bigint): Promise<void> {
  const { provider, deployment } = devnet.chain(step.action.toChainId);
  expect(await balanceOf(provider, token, deployment.router)).toBe(routerBefore);
  expect(await balanceOf(provider, token, await callExecutorOf(provider, deployment.router))).toBe(0n);
}

describe('contract calls execute on chain', () => {
  test('same chain: USDC → WETH on Arbitrum, then a vault deposit of the swapped WETH (swapAndCall)', async () => {
    const weth = await quoteToken(ARBITRUM, 'WETH');
    const amount = 10_000_000_000_000_000n; // 0.01 WETH into the vault
    const step = await callsQuote(ARBITRUM, ARBITRUM, 'WETH', [vaultCall(ARBITRUM, weth, amount, BENEFICIARY)]);
    expect(routerI.parseTransaction({ data: step.transactionRequest.data })!.name).toBe('swapAndCall');
    const [custom] = customSteps(step);
    expect(BigInt(custom.estimate.fromAmount)).toBe(amount);
    const routerBefore = await balanceOf(devnet.chain(ARBITRUM).provider, weth, step.transactionRequest.to);

    const e = await execute(step);
    await expectDeposited(ARBITRUM, weth, custom, amount);
    expectSenderSettled(e, step, amount);
    await expectNothingKept(step, weth, routerBefore);
    const events = routerEvents(e.receipt.logs, step.transactionRequest.to);
    expect(events.map((x) => x.name)).toEqual(['LiFiSwappedGeneric', 'ContractCallExecuted', 'LiFiGenericSwapCompleted']);
    expect(events[1].args.success).toBe(true);
    expect(events[1].args.amount).toBe(amount);
    expect(events[2].args.toAmount).toBe(BigInt(step.estimate.toAmount));
    expect(events[2].args.fromAmount).toBe(BigInt(step.action.fromAmount));
  });

  test('cross chain: USDC Arbitrum → Base, swapped to WETH on Base, then the vault deposit in the destination call', async () => {
    const weth = await quoteToken(BASE, 'WETH');
    const amount = 10_000_000_000_000_000n;
    const step = await callsQuote(ARBITRUM, BASE, 'WETH', [vaultCall(BASE, weth, amount, BENEFICIARY)]);
    const types = step.includedSteps.map((s) => s.type);
    expect(types.slice(types.indexOf('cross'))).toEqual(['cross', 'swap', 'custom']);
    const [custom] = customSteps(step);
    const base = devnet.chain(BASE);
    const routerBefore = await balanceOf(base.provider, weth, base.deployment.router);
    const bridged = step.includedSteps.find((s) => s.type === 'cross')!.action.toToken.address as string;
    const routerBridgedBefore = await balanceOf(base.provider, bridged, base.deployment.router);

    const e = await execute(step);
    await expectDeposited(BASE, weth, custom, amount);
    expectSenderSettled(e, step, amount);
    await expectNothingKept(step, weth, routerBefore);
    // the destination swap's and calls' gas fee went back to the bridge executor
    expect(await balanceOf(base.provider, bridged, base.deployment.router)).toBe(routerBridgedBefore);
    const events = routerEvents(e.callsReceipt.logs, base.deployment.router);
    expect(events.map((x) => x.name)).toEqual(['LiFiSwappedGeneric', 'ContractCallExecuted', 'LiFiTransferCompleted']);
    expect(events[1].args.success).toBe(true);
    const completed = events[2].args;
    expect(completed.transactionId).toBe(`0x${step.id.replace(/-/g, '')}${'0'.repeat(32)}`);
    expect(completed.receivingAssetId.toLowerCase()).toBe(weth.toLowerCase());
    expect(completed.amount).toBe(BigInt(step.estimate.toAmount));
  });

  test('a call that reverts pays its fallback receiver and the next calls still run; what a call leaves goes to its fallback receiver', async () => {
    const weth = await quoteToken(ARBITRUM, 'WETH');
    const failing = 3_000_000_000_000_000n;
    const partial = 4_000_000_000_000_000n;
    const unused = 1_000_000_000_000_000n; // the vault pulls less than the call was handed
    const full = 2_000_000_000_000_000n;
    const step = await callsQuote(ARBITRUM, ARBITRUM, 'WETH', [
      // the vault refuses the zero beneficiary
      vaultCall(ARBITRUM, weth, failing, NATIVE, { toFallbackAddress: FALLBACK }),
      vaultCall(ARBITRUM, weth, partial, OTHER_BENEFICIARY, { toFallbackAddress: OTHER_FALLBACK, toContractCallData: deposit(weth, partial - unused, OTHER_BENEFICIARY) }),
      vaultCall(ARBITRUM, weth, full, BENEFICIARY),
    ]);
    const routerBefore = await balanceOf(devnet.chain(ARBITRUM).provider, weth, step.transactionRequest.to);
    const { provider } = devnet.chain(ARBITRUM);

    const e = await execute(step);
    expect(await balanceOf(provider, weth, FALLBACK)).toBe(failing);
    expect(await balanceOf(provider, weth, OTHER_FALLBACK)).toBe(unused);
    expect(await vaultBalance(ARBITRUM, weth, OTHER_BENEFICIARY)).toBe(partial - unused);
    expect(await vaultBalance(ARBITRUM, weth, BENEFICIARY)).toBe(full);
    // the third call's fallback is the sender; it gets exactly the remainder above the calls
    expectSenderSettled(e, step, failing + partial + full);
    await expectNothingKept(step, weth, routerBefore);
    const executed = routerEvents(e.receipt.logs, step.transactionRequest.to).filter((x) => x.name === 'ContractCallExecuted');
    expect(executed.map((x) => [Number(x.args.index), x.args.success, x.args.amount])).toEqual([[0, false, failing], [1, true, partial], [2, true, full]]);
  });

  test('cross chain: a reverting destination call pays its fallback receiver on the destination chain', async () => {
    const weth = await quoteToken(BASE, 'WETH');
    const amount = 10_000_000_000_000_000n;
    const step = await callsQuote(ARBITRUM, BASE, 'WETH', [vaultCall(BASE, weth, amount, NATIVE, { toFallbackAddress: FALLBACK })]);
    const base = devnet.chain(BASE);
    const routerBefore = await balanceOf(base.provider, weth, base.deployment.router);

    const e = await execute(step);
    expect(await balanceOf(base.provider, weth, FALLBACK)).toBe(amount);
    expect(await vaultBalance(BASE, weth, NATIVE)).toBe(0n);
    expect(e.received).toBe(BigInt(step.estimate.toAmount) - amount);
    await expectNothingKept(step, weth, routerBefore);
    const events = routerEvents(e.callsReceipt.logs, base.deployment.router);
    expect(events.map((x) => x.name)).toEqual(['LiFiSwappedGeneric', 'ContractCallExecuted', 'LiFiTransferCompleted']);
    expect(events[1].args.success).toBe(false);
    expect(events[2].args.amount).toBe(BigInt(step.estimate.toAmount));
  });

  test('cross chain: when the destination swap fails (the pool moved), the receiver gets the bridged token and no call runs', async () => {
    const wallet = devnet.wallet(ARBITRUM);
    const weth = await quoteToken(BASE, 'WETH');
    const amount = 10_000_000_000_000_000n;
    const step = await callsQuote(ARBITRUM, BASE, 'WETH', [vaultCall(BASE, weth, amount, BENEFICIARY)], { slippage: 0.001 });
    const cross = step.includedSteps.find((s) => s.type === 'cross')!;
    const bridged = cross.action.toToken.address as string;
    const base = devnet.chain(BASE);
    // someone trades through the destination swap's pools in the same direction, far beyond the slippage
    await tradeAhead(BASE, destinationSwaps(step.transactionRequest.data)[0]);
    const bridgedBefore = await balanceOf(base.provider, bridged, wallet.address);
    const routerBefore = await balanceOf(base.provider, bridged, base.deployment.router);

    const e = await execute(step);
    expect(e.received).toBe(0n); // no WETH
    expect(await vaultBalance(BASE, weth, BENEFICIARY)).toBe(0n);
    // the whole bridged amount (the destination call's gas fee included) goes to the receiver
    expect((await balanceOf(base.provider, bridged, wallet.address)) - bridgedBefore).toBe(BigInt(cross.estimate.toAmount));
    expect(await balanceOf(base.provider, bridged, base.deployment.router)).toBe(routerBefore);
    const events = routerEvents(e.callsReceipt.logs, base.deployment.router);
    expect(events.map((x) => x.name)).toEqual(['LiFiTransferCompleted']);
    expect(events[0].args.receivingAssetId.toLowerCase()).toBe(bridged.toLowerCase());
    expect(events[0].args.amount).toBe(BigInt(cross.estimate.toAmount));
  });

  // Without destination swaps nothing tells the destination router how much of the bridged token the quote left
  // for the calls: it delivers all it received, so the destination call's gas fee (charged in the quote, and kept by
  // the bridge executor when swaps run) reaches the sender on top of the estimate. Pinned until the call data says it.
  test('cross chain without a destination swap: USDC Arbitrum → USDC Base into the vault; the sender also gets the destination call gas fee', async () => {
    const usdc = await quoteToken(BASE, 'USDC');
    const amount = 25_000_000n;
    const step = await callsQuote(ARBITRUM, BASE, 'USDC', [vaultCall(BASE, usdc, amount, BENEFICIARY)]);
    expect(step.includedSteps.map((s) => s.type)).toEqual(['cross', 'custom']);
    const callFee = BigInt((step.includedSteps[0].estimate.feeCosts as { name: string; amount: string }[]).find((f) => f.name === 'Destination call gas')!.amount);
    expect(callFee).toBeGreaterThan(0n);
    const base = devnet.chain(BASE);
    const routerBefore = await balanceOf(base.provider, usdc, base.deployment.router);

    const e = await execute(step);
    expect(await vaultBalance(BASE, usdc, BENEFICIARY)).toBe(amount);
    expect(e.spent).toBe(BigInt(step.action.fromAmount));
    expect(e.received).toBe(BigInt(step.estimate.toAmount) - amount + callFee);
    await expectNothingKept(step, usdc, routerBefore);
    const completed = routerEvents(e.callsReceipt.logs, base.deployment.router).find((x) => x.name === 'LiFiTransferCompleted')!;
    expect(completed.args.amount).toBe(BigInt(step.estimate.toAmount) + callFee);
  });

  test('deprecated POST /v1/quote/contractCall: USDC → ETH on Base, the native coin sent as the call\'s value', async () => {
    const wallet = devnet.wallet(BASE);
    const amount = 5_000_000_000_000_000n;
    const step = await quote({
      fromChain: BASE, toChain: BASE, fromToken: 'USDC', toToken: 'ETH', fromAddress: wallet.address, toAmount: amount.toString(),
      toContractAddress: vaults.get(BASE), toContractCallData: deposit(NATIVE, amount, BENEFICIARY), toContractGasLimit: '120000',
    }, '/v1/quote/contractCall');
    const [custom] = customSteps(step);
    const { provider, deployment } = devnet.chain(BASE);
    const routerBefore = await provider.getBalance(deployment.router);

    const e = await execute(step);
    await expectDeposited(BASE, NATIVE, custom, amount);
    expectSenderSettled(e, step, amount);
    await expectNothingKept(step, NATIVE, routerBefore);
  });
});

/** A token's address on a chain, from GET /v1/token (validated like every answer). */
async function quoteToken(chainId: number, symbol: string): Promise<string> {
  const res = await request(app).get('/v1/token').query({ chain: String(chainId), token: symbol });
  contract.expectResponse('getToken', res);
  expect(res.status).toBe(200);
  return res.body.address as string;
}

interface SwapDataArgs { callTo: string; approveTo: string; sendingAssetId: string; fromAmount: bigint; callData: string }

/** The destination SwapData of a bridge transaction with a destination call (swapAndCompleteBridgeTokensWithCalls). */
function destinationSwaps(data: string): SwapDataArgs[] {
  const bridge = routerI.parseTransaction({ data })!;
  const completion = routerI.parseTransaction({ data: bridge.args.data.destinationCallData as string })!;
  expect(completion.name).toBe('swapAndCompleteBridgeTokensWithCalls');
  return completion.args.swapData as SwapDataArgs[];
}

/**
 * Runs the same swap as `swap` from the test wallet, without a minimum and as large as the pool takes (a quarter
 * of the wallet's balance, or a 4th, 16th... of that when the pool's liquidity window would be exhausted): the
 * pool's price moves far beyond the quote's slippage.
 */
async function tradeAhead(chainId: number, swap: SwapDataArgs): Promise<void> {
  const wallet = devnet.wallet(chainId);
  const { provider } = devnet.chain(chainId);
  const encode = (amount: bigint): string => {
    const selector = swap.callData.slice(0, 10);
    if (selector === v3RouterInterface.getFunction('exactInput')!.selector) {
      const params = v3RouterInterface.decodeFunctionData('exactInput', swap.callData)[0];
      return encodeV3ExactInput(params.path as string, wallet.address, amount, 0n);
    }
    if (selector === v2RouterInterface.getFunction('swapExactTokensForTokens')!.selector) {
      const args = v2RouterInterface.decodeFunctionData('swapExactTokensForTokens', swap.callData);
      return encodeV2Swap(amount, 0n, args.path as string[], wallet.address);
    }
    if (selector === curvePoolInterface.getFunction('exchange(int128,int128,uint256,uint256)')!.selector) {
      const args = curvePoolInterface.decodeFunctionData('exchange(int128,int128,uint256,uint256)', swap.callData);
      return encodeCurveExchange(Number(args[0]), Number(args[1]), amount, 0n);
    }
    throw new Error(`unexpected destination swap ${selector}`);
  };
  let amount = (await balanceOf(provider, swap.sendingAssetId, wallet.address)) / 4n;
  await approveIfNeeded(wallet, swap.sendingAssetId, swap.approveTo, amount);
  while (amount > swap.fromAmount) {
    const fits = await provider.call({ from: wallet.address, to: swap.callTo, data: encode(amount) }).then(() => true, () => false);
    if (fits) break;
    amount /= 4n;
  }
  const receipt = await sendTransactionRequest(wallet, {
    chainId, to: swap.callTo, data: encode(amount), value: '0', gasLimit: '3000000', gasPrice: ((await provider.getFeeData()).gasPrice ?? 1n).toString(),
  });
  if (receipt.status !== 1) throw new Error(`the trade ahead reverted: ${await replayRevert(provider, receipt, errorsI)}`);
}
