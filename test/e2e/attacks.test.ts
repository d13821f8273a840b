/**
 * Issue 32's attacks on the router, its call executor and the bridge endpoint, tried on the sandbox's chains
 * (sandbox/devnet.ts: Ethereum and Arbitrum, the contracts deployed as deploy:contracts deploys them) from the
 * attacker's side: a fresh key holding only gas, against a victim (devnet test wallet 0) with unlimited approvals of
 * USDC, WETH and DAI to the router and to the endpoint. Every attack must leave the attacker with nothing that was
 * not theirs: its transaction reverts (with the contract's own error, asserted), or it succeeds and moves nothing
 * in the attacker's favour. After each test the invariant of attackSupport.ts (ledgerDifferences) is checked on
 * both chains: nobody but the attacker has less of USDC, WETH, DAI (and the test's own tokens) or of the native
 * coin, the router and the call executor hold exactly what they held, no service contract has an allowance to
 * anyone, and the victim's allowances are intact. Legitimate movements of a test (a bridge release) are named.
 *
 * Each test starts from the seeded state (evm_snapshot / evm_revert); the test-only tokens (contracts/test:
 * FeeOnTransferToken, NoReturnToken, ReentrantToken) are deployed by the tests that use them.
 */
import { AbiCoder, getAddress, Interface, Wallet, ZeroAddress, type JsonRpcProvider, type Log } from 'ethers';
import { startDevnet, type Devnet, type DevnetChain } from '../../sandbox/devnet';
import { batchEthCall, devAccountKey, waitForReceipt } from '../../sandbox/rpc';
import type { Completion } from '../../sandbox/relayerCompletions';
import {
  encodeBridgeCall, encodeCollectTokenFees, encodeSwapAndCall, encodeSwapAndCompleteBridgeTokens, encodeSwapAndCompleteBridgeTokensWithCalls,
  encodeSwapTokensGeneric, encodeV2Swap, encodeWrap, type BridgeData, type BridgeSpecificData, type ContractCallData, type SwapData,
} from '../../src/core/transactions/calldata';
import { routerInterface } from '../../src/core/transactions/abi';
import {
  attempt, decodeRevert, deploy, erc20, errorInterface, eventsOf, ledgerDifferences, MAX_UINT256, mustSend, NATIVE, newAttacker, readLedger,
  revertDataOf, transferId, type Attempt, type Expected, type Ledger, type Watch,
} from './attackSupport';

jest.setTimeout(30_000);

const ETHEREUM = 1;
const ARBITRUM = 42161;
const CHAINS = [ETHEREUM, ARBITRUM] as const;
const E18 = 10n ** 18n;
const USDC_UNIT = 10n ** 6n;

interface ChainInfo {
  readonly chain: DevnetChain;
  readonly provider: JsonRpcProvider;
  readonly router: string;
  readonly executor: string;
  readonly endpoint: string;
  readonly feeCollector: string;
  readonly permit2Proxy: string;
  readonly usdc: string;
  readonly weth: string;
  readonly dai: string;
  /** An allowlisted V2 router (swapExactTokensForTokens) with a USDC/WETH pair. */
  readonly v2Router: string;
  readonly victim: Wallet;
  readonly donor: Wallet;
  readonly admin: Wallet;
  readonly relayer: Wallet;
}

let devnet: Devnet;
let errors: Interface;
let routerI: Interface;
let facetsI: Interface;
let endpointI: Interface;
let executorI: Interface;
const info = new Map<number, ChainInfo>();
const on = (chainId: number): ChainInfo => info.get(chainId)!;

beforeAll(async () => {
  // pools as created (not warmed: no attack depends on it, and the start is a few seconds shorter)
  devnet = await startDevnet({ chains: [...CHAINS], wallets: 2, warmPools: false });
  errors = errorInterface(devnet);
  routerI = new Interface(devnet.artifacts.Router.abi as never);
  facetsI = routerInterface(['across']);
  endpointI = new Interface(devnet.artifacts.BridgeEndpoint.abi as never);
  executorI = new Interface(devnet.artifacts.CallExecutor.abi as never);
  expect(new Wallet(devAccountKey(0)).address).toBe(devnet.admin);
  expect(new Wallet(devAccountKey(1)).address).toBe(devnet.relayerAddress);
  await Promise.all(CHAINS.map(async (chainId) => {
    const chain = devnet.chain(chainId);
    const { provider, deployment } = chain;
    const read = async (fn: string) => routerI.decodeFunctionResult(fn, await provider.call({ to: deployment.router, data: routerI.encodeFunctionData(fn) }))[0] as string;
    const token = (symbol: string) => {
      const t = [...deployment.tokens.values()].find((x) => x.symbol === symbol);
      if (!t) throw new Error(`no ${symbol} on chain ${chainId}`);
      return getAddress(t.address);
    };
    const usdc = token('USDC');
    const weth = token('WETH');
    const pair = deployment.pools.find((p) => p.kind === 'constantProduct' && p.tokens.some((t) => getAddress(t) === usdc) && p.tokens.some((t) => getAddress(t) === weth));
    const v2 = pair && deployment.exchangeRouters.find((r) => r.exchange === pair.exchange && r.kind === 'constantProduct');
    const v2Router = v2 ? getAddress(v2.address) : ZeroAddress;
    const c: ChainInfo = {
      chain, provider, router: deployment.router, executor: getAddress(await read('callExecutor')), endpoint: deployment.bridgeEndpoint,
      feeCollector: deployment.feeCollector, permit2Proxy: getAddress(await read('permit2Proxy')), usdc, weth, dai: token('DAI'), v2Router,
      victim: devnet.wallet(chainId, 0), donor: devnet.wallet(chainId, 1),
      admin: new Wallet(devAccountKey(0), provider), relayer: new Wallet(devAccountKey(1), provider),
    };
    info.set(chainId, c);
    // the victim: unlimited approvals of USDC, WETH and DAI to the router and to the bridge endpoint
    for (const t of [usdc, weth, c.dai]) {
      for (const spender of [c.router, c.endpoint]) {
        await mustSend(c.victim, errors, { to: t, data: erc20.encodeFunctionData('approve', [spender, MAX_UINT256]) }, `victim's approval on ${chainId}`);
      }
    }
  }));
  // the Ethereum V2 swap the attacks use must be allowlisted (else they would prove nothing)
  const e = on(ETHEREUM);
  expect(e.v2Router).not.toBe(ZeroAddress);
  const allowed = routerI.decodeFunctionResult('allowedCalls', await e.provider.call({ to: e.router, data: routerI.encodeFunctionData('allowedCalls', [e.v2Router, '0x38ed1739']) }))[0];
  expect(allowed).toBe(true);
}, 120_000);

afterAll(async () => {
  await devnet?.stop();
});

let restore: (() => Promise<void>) | undefined;
let relayerStopped = false;
beforeEach(async () => {
  restore = await devnet.checkpoint();
});
afterEach(async () => {
  await restore?.();
  restore = undefined;
  if (relayerStopped) {
    relayerStopped = false;
    await devnet.relayer!.start();
  }
});

// ------------------------------------------------------------------------------------------------------ helpers

type Attacker = Awaited<ReturnType<typeof newAttacker>>;

const swap = (s: Partial<SwapData> & Pick<SwapData, 'callTo' | 'callData'>): SwapData => ({
  approveTo: s.callTo, sendingAssetId: NATIVE, receivingAssetId: NATIVE, fromAmount: 0n, requiresDeposit: false, ...s,
});

/** transferFrom(victim → attacker) of the victim's USDC, as a SwapData. */
const stealSwap = (c: ChainInfo, attacker: string, amount = 1_000n * USDC_UNIT, sendingAssetId = c.usdc): SwapData => swap({
  callTo: c.usdc, sendingAssetId, receivingAssetId: c.usdc, callData: erc20.encodeFunctionData('transferFrom', [c.victim.address, attacker, amount]),
});

const bridgeData = (b: Partial<BridgeData> & Pick<BridgeData, 'receiver' | 'minAmount'>): BridgeData => ({
  transactionId: transferId(), bridge: 'across', integrator: 'attacker', referrer: ZeroAddress, sendingAssetId: NATIVE,
  destinationChainId: BigInt(ARBITRUM), hasSourceSwaps: false, hasDestinationCall: false, ...b,
});

const specific = (d: Partial<BridgeSpecificData> & Pick<BridgeSpecificData, 'receiverOnDestination'>): BridgeSpecificData => ({
  nonEVMReceiver: '0x', destinationMinAmount: 0n, destinationCallData: '0x', ...d,
});

const generic = (receiver: string, swapData: SwapData[], minAmountOut = 0n) => encodeSwapTokensGeneric({
  transactionId: transferId(), integrator: 'attacker', referrer: '', receiver, minAmountOut, swapData,
});

/** A DepositRequest tuple for BridgeEndpoint.deposit. */
function depositRequest(r: {
  token: string; amount: bigint; receiverOnDestination: string; receiver: string; refundTo: string; transactionId?: string; destinationCallData?: string;
  destinationChainId?: number; bridge?: string;
}): unknown[] {
  return [
    r.bridge ?? 'across', r.transactionId ?? transferId(), r.token, r.amount, BigInt(r.destinationChainId ?? ARBITRUM), r.receiverOnDestination, r.receiver, '0x', 0n,
    r.destinationCallData ?? '0x', r.refundTo,
  ];
}

function expectRevert(a: Attempt, name: string, args?: readonly unknown[]): void {
  expect({ reverted: a.reverted, error: a.error }).toEqual({ reverted: true, error: name });
  if (args) expect((a.errorArgs ?? []).map(String)).toEqual(args.map(String));
}

async function balance(chainId: number, token: string, holder: string): Promise<bigint> {
  const { provider } = on(chainId);
  if (token === NATIVE) return provider.getBalance(holder);
  return erc20.decodeFunctionResult('balanceOf', await provider.call({ to: token, data: erc20.encodeFunctionData('balanceOf', [holder]) }))[0] as bigint;
}

async function allowance(chainId: number, token: string, owner: string, spender: string): Promise<bigint> {
  const { provider } = on(chainId);
  return erc20.decodeFunctionResult('allowance', await provider.call({ to: token, data: erc20.encodeFunctionData('allowance', [owner, spender]) }))[0] as bigint;
}

async function endpointRead(chainId: number, fn: string, args: unknown[]) {
  const c = on(chainId);
  return endpointI.decodeFunctionResult(fn, await c.provider.call({ to: c.endpoint, data: endpointI.encodeFunctionData(fn, args) }));
}

/** Gives `to` some of `token` (a transfer from the donor, devnet wallet 1), or of the native coin (anvil_setBalance adds it). */
async function give(chainId: number, token: string, to: string, amount: bigint): Promise<void> {
  const c = on(chainId);
  if (token === NATIVE) {
    await c.provider.send('anvil_setBalance', [to, `0x${((await c.provider.getBalance(to)) + amount).toString(16)}`]);
    return;
  }
  await mustSend(c.donor, errors, { to: token, data: erc20.encodeFunctionData('transfer', [to, amount]) }, `giving ${token} to ${to}`);
}

/**
 * Reads the ledger of both chains now (before the attack); `check` reads it again and expects no difference but
 * the `expected` ones. `tokens` adds tokens of a chain to USDC, WETH and DAI.
 */
async function protect(attacker: Attacker, tokens: Partial<Record<number, string[]>> = {}) {
  const watches = CHAINS.map((chainId): Watch => {
    const c = on(chainId);
    const spenders: Record<string, string> = {
      attacker: attacker.address, router: c.router, executor: c.executor, endpoint: c.endpoint, feeCollector: c.feeCollector, victim: c.victim.address,
      // the tokens themselves: the old endpoint approved a destination call's target before calling it
      usdc: c.usdc, weth: c.weth, dai: c.dai,
    };
    if (c.v2Router !== ZeroAddress) spenders.v2Router = c.v2Router;
    if (c.permit2Proxy !== ZeroAddress) spenders.permit2Proxy = c.permit2Proxy;
    return {
      chain: c.chain,
      tokens: [c.usdc, c.weth, c.dai, ...(tokens[chainId] ?? [])],
      holders: { victim: c.victim.address, router: c.router, executor: c.executor, endpoint: c.endpoint, feeCollector: c.feeCollector },
      exact: ['router', 'executor'],
      owners: { router: c.router, executor: c.executor, endpoint: c.endpoint },
      spenders,
      kept: [{ owner: c.victim.address, spender: c.router }, { owner: c.victim.address, spender: c.endpoint }],
    };
  });
  const before: Ledger[] = await Promise.all(watches.map(readLedger));
  return {
    async check(expected: Partial<Record<number, Expected[]>> = {}): Promise<void> {
      const after = await Promise.all(watches.map(readLedger));
      const problems = watches.flatMap((w, k) => ledgerDifferences(w, before[k], after[k], expected[w.chain.chainId] ?? []));
      expect(problems).toEqual([]);
    },
  };
}

/** The Deposited event of a receipt: its deposit id and credited request. */
function deposited(logs: readonly Log[], chainId: number) {
  const e = eventsOf(logs, on(chainId).endpoint, endpointI).find((x) => x.name === 'Deposited');
  if (!e) throw new Error('no Deposited event');
  return { depositId: e.args.depositId as bigint, amount: e.args.request.amount as bigint, transactionId: (e.args.transactionId as string).toLowerCase() };
}

/** Waits for the relayer's outcome; for a release, also until the source marked it released (the relayer's last step). */
async function completion(transactionId: string, fromChainId = ETHEREUM): Promise<Completion> {
  const c = await devnet.relayer!.waitFor(transactionId, 20_000);
  if (c.kind === 'released') {
    for (let k = 0; k < 500; k++) {
      const [, status] = await endpointRead(fromChainId, 'deposits', [c.depositId]);
      if (Number(status) === 3) return c;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`deposit ${c.depositId} was released but not marked released on chain ${fromChainId}`);
  }
  return c;
}

/** Stops the relayer (until the end of the test) and waits until it is idle. */
async function stopRelayer(): Promise<void> {
  relayerStopped = true;
  devnet.relayer!.stop();
  await devnet.relayer!.resync(); // stopped, it only waits for a poll in flight and forgets what it saw
}

// ------------------------------------------------------------------------------------------------------ the tests

describe('the deployment', () => {
  test('no standing approval: the router, its executor and the endpoint allow no one anything, of any catalog token', async () => {
    for (const chainId of CHAINS) {
      const c = on(chainId);
      const tokens = [...c.chain.deployment.tokens.values()].map((t) => getAddress(t.address));
      const spenders = [c.router, c.executor, c.endpoint, c.feeCollector, ...c.chain.deployment.exchangeRouters.map((r) => getAddress(r.address))];
      const owners = [c.router, c.executor, c.endpoint];
      const reads = owners.flatMap((owner) => spenders.filter((spender) => spender !== owner).flatMap((spender) => tokens.map((t) => ({
        to: t, data: erc20.encodeFunctionData('allowance', [owner, spender]), what: `${chainId} ${t} ${owner} → ${spender}`,
      }))));
      const results = await batchEthCall(c.chain.url, reads);
      const nonZero = reads.filter((_, k) => !results[k].ok || BigInt((results[k] as { data: string }).data) !== 0n).map((r) => r.what);
      expect(nonZero).toEqual([]);
      // the executor holds nothing between transactions
      for (const t of tokens) expect(await balance(chainId, t, c.executor)).toBe(0n);
      expect(await balance(chainId, NATIVE, c.executor)).toBe(0n);
    }
  });
});

describe('1. a SwapData moving the victim\'s tokens (transferFrom(victim, attacker))', () => {
  test('through swapTokensGeneric: CallNotAllowed', async () => {
    const c = on(ETHEREUM);
    const attacker = await newAttacker(devnet, CHAINS);
    const guard = await protect(attacker);
    const a = await attempt(attacker.on(ETHEREUM), errors, { to: c.router, data: generic(attacker.address, [stealSwap(c, attacker.address)]) });
    expectRevert(a, 'CallNotAllowed', [c.usdc, '0x23b872dd']);
    expect(await balance(ETHEREUM, c.usdc, attacker.address)).toBe(0n);
    await guard.check();
  });

  test('through swapAndCall\'s swaps: CallNotAllowed', async () => {
    const c = on(ETHEREUM);
    const attacker = await newAttacker(devnet, CHAINS);
    const guard = await protect(attacker);
    const data = encodeSwapAndCall({
      transactionId: transferId(), integrator: 'attacker', referrer: '', receiver: attacker.address, sendingAssetId: NATIVE, fromAmount: 1n, minAmountOut: 0n,
      swapData: [stealSwap(c, attacker.address, 1_000n * USDC_UNIT, NATIVE)], calls: [],
    });
    const a = await attempt(attacker.on(ETHEREUM), errors, { to: c.router, data, value: 1n });
    expectRevert(a, 'CallNotAllowed', [c.usdc, '0x23b872dd']);
    await guard.check();
  });

  test('through swapAndCompleteBridgeTokens: CallNotAllowed', async () => {
    const c = on(ARBITRUM);
    const attacker = await newAttacker(devnet, CHAINS);
    const guard = await protect(attacker);
    const data = encodeSwapAndCompleteBridgeTokens({
      transactionId: transferId(), swapData: [stealSwap(c, attacker.address)], transferredAssetId: c.usdc, receiver: attacker.address, minAmountOut: 0n,
    });
    const a = await attempt(attacker.on(ARBITRUM), errors, { to: c.router, data });
    expectRevert(a, 'CallNotAllowed', [c.usdc, '0x23b872dd']);
    await guard.check();
  });

  test('through swapAndCompleteBridgeTokensWithCalls (runSwapsForCalls): the swaps are undone, nothing moves', async () => {
    const c = on(ARBITRUM);
    const attacker = await newAttacker(devnet, CHAINS);
    const guard = await protect(attacker);
    // its output declared WETH: had the swaps run, the completion would name WETH
    const steal = { ...stealSwap(c, attacker.address), receivingAssetId: c.weth };
    const data = encodeSwapAndCompleteBridgeTokensWithCalls({
      transactionId: transferId(), swapData: [steal], transferredAssetId: c.usdc, receiver: attacker.address, minAmountOut: 0n, calls: [],
    });
    const a = await attempt(attacker.on(ARBITRUM), errors, { to: c.router, data });
    // the failed swaps fall back to paying the receiver the bridged funds: the caller's (none)
    expect(a.reverted).toBe(false);
    const events = eventsOf(a.receipt.logs, c.router, facetsI);
    expect(events.filter((e) => e.name === 'LiFiSwappedGeneric')).toEqual([]);
    const done = events.filter((e) => e.name === 'LiFiTransferCompleted');
    expect(done.map((e) => [e.args.receivingAssetId, e.args.amount])).toEqual([[c.usdc, 0n]]);
    expect(await balance(ARBITRUM, c.usdc, attacker.address)).toBe(0n);
    await guard.check();
  });

  test('as the side swaps of swapAndStartBridgeTokensViaAcross (hasSourceSwaps false), and as its source swaps: CallNotAllowed', async () => {
    const c = on(ETHEREUM);
    const attacker = await newAttacker(devnet, CHAINS);
    const guard = await protect(attacker);
    const amount = E18 / 100n;
    for (const hasSourceSwaps of [false, true]) {
      const data = encodeBridgeCall(
        bridgeData({ receiver: attacker.address, minAmount: amount, hasSourceSwaps }),
        [stealSwap(c, attacker.address, 1_000n * USDC_UNIT, NATIVE)],
        specific({ receiverOnDestination: attacker.address }),
      );
      const a = await attempt(attacker.on(ETHEREUM), errors, { to: c.router, data, value: amount });
      expectRevert(a, 'CallNotAllowed', [c.usdc, '0x23b872dd']);
    }
    await guard.check();
  });

  test('runSwapsForCalls called directly: NotSelf', async () => {
    const c = on(ETHEREUM);
    const attacker = await newAttacker(devnet, CHAINS);
    const guard = await protect(attacker);
    const s = stealSwap(c, attacker.address);
    const ledger = [Array(16).fill(ZeroAddress), Array(16).fill(0n), 0n, attacker.address, attacker.address];
    const data = routerI.encodeFunctionData('runSwapsForCalls', [
      [[s.callTo, s.approveTo, s.sendingAssetId, s.receivingAssetId, s.fromAmount, s.callData, s.requiresDeposit]], ledger, c.usdc, 0n, 0n,
    ]);
    expectRevert(await attempt(attacker.on(ETHEREUM), errors, { to: c.router, data }), 'NotSelf');
    await guard.check();
  });
});

describe('2. approveTo = the attacker, with an allowlisted callTo', () => {
  test('swapTokensGeneric, swapAndCall and a bridge\'s side swap: SpenderNotAllowed, no allowance to the attacker', async () => {
    const c = on(ETHEREUM);
    const attacker = await newAttacker(devnet, CHAINS);
    const guard = await protect(attacker);
    const wallet = attacker.on(ETHEREUM);
    for (const token of [c.usdc, c.dai, c.weth]) {
      const s = swap({
        callTo: c.v2Router, approveTo: attacker.address, sendingAssetId: token, receivingAssetId: c.weth, fromAmount: 1n,
        callData: encodeV2Swap(1n, 0n, [token, token === c.weth ? c.usdc : c.weth], attacker.address),
      });
      expectRevert(await attempt(wallet, errors, { to: c.router, data: generic(attacker.address, [s]) }), 'SpenderNotAllowed', [attacker.address]);
    }
    // the victim as the spender (so that a later transferFrom by anyone...): refused as well
    const toVictim = swap({ callTo: c.v2Router, approveTo: c.victim.address, sendingAssetId: c.usdc, receivingAssetId: c.weth, fromAmount: 1n, callData: encodeV2Swap(1n, 0n, [c.usdc, c.weth], attacker.address) });
    expectRevert(await attempt(wallet, errors, { to: c.router, data: generic(attacker.address, [toVictim]) }), 'SpenderNotAllowed', [c.victim.address]);
    // swapAndCall: its first swap takes the native coin
    const native = swap({ callTo: c.weth, approveTo: attacker.address, sendingAssetId: NATIVE, receivingAssetId: c.weth, fromAmount: 1n, callData: encodeWrap() });
    const call = encodeSwapAndCall({
      transactionId: transferId(), integrator: 'attacker', referrer: '', receiver: attacker.address, sendingAssetId: NATIVE, fromAmount: 1n, minAmountOut: 0n, swapData: [native], calls: [],
    });
    expectRevert(await attempt(wallet, errors, { to: c.router, data: call, value: 1n }), 'SpenderNotAllowed', [attacker.address]);
    // a bridge's side swap
    const amount = E18 / 100n;
    const side = swap({ callTo: c.v2Router, approveTo: attacker.address, sendingAssetId: c.usdc, receivingAssetId: c.weth, fromAmount: 0n, callData: encodeV2Swap(0n, 0n, [c.usdc, c.weth], attacker.address) });
    const bridge = encodeBridgeCall(bridgeData({ receiver: attacker.address, minAmount: amount }), [side], specific({ receiverOnDestination: attacker.address }));
    expectRevert(await attempt(wallet, errors, { to: c.router, data: bridge, value: amount }), 'SpenderNotAllowed', [attacker.address]);
    // a callTo of the attacker's choosing is refused before its approveTo
    const own = swap({ callTo: attacker.address, sendingAssetId: c.usdc, receivingAssetId: c.usdc, callData: '0x12345678' });
    expectRevert(await attempt(wallet, errors, { to: c.router, data: generic(attacker.address, [own]) }), 'CallNotAllowed', [attacker.address, '0x12345678']);
    for (const token of [c.usdc, c.dai, c.weth]) {
      expect(await allowance(ETHEREUM, token, c.router, attacker.address)).toBe(0n);
      expect(await allowance(ETHEREUM, token, c.executor, attacker.address)).toBe(0n);
    }
    await guard.check();
  });
});

describe('3. what the router holds is no one\'s', () => {
  /** 1 ETH, 1,000 USDC and 1 WETH in the router (from the donor), before the attack. */
  async function fillRouter(c: ChainInfo): Promise<void> {
    await give(ETHEREUM, NATIVE, c.router, E18);
    await give(ETHEREUM, c.usdc, c.router, 1_000n * USDC_UNIT);
    await give(ETHEREUM, c.weth, c.router, E18);
  }

  test('WETH.deposit with the router\'s ETH, then WETH.transfer to the attacker: CallNotAllowed (transfer is never allowed)', async () => {
    const c = on(ETHEREUM);
    await fillRouter(c);
    const attacker = await newAttacker(devnet, CHAINS);
    const guard = await protect(attacker);
    const wallet = attacker.on(ETHEREUM);
    const wrap = swap({ callTo: c.weth, sendingAssetId: NATIVE, receivingAssetId: c.weth, fromAmount: E18, callData: encodeWrap() });
    const send = swap({ callTo: c.weth, sendingAssetId: c.weth, receivingAssetId: c.weth, fromAmount: E18, callData: erc20.encodeFunctionData('transfer', [attacker.address, E18]) });
    expectRevert(await attempt(wallet, errors, { to: c.router, data: generic(attacker.address, [wrap, send]) }), 'CallNotAllowed', [c.weth, '0xa9059cbb']);
    // the wrap alone, its WETH paid to the attacker as the swap's output: the router's ETH went down
    const routerEth = await balance(ETHEREUM, NATIVE, c.router);
    expectRevert(await attempt(wallet, errors, { to: c.router, data: generic(attacker.address, [wrap]) }), 'BalanceDecreased', [NATIVE, routerEth, routerEth - E18]);
    await guard.check();
  });

  test('a swap of the router\'s USDC (no deposit) paying the attacker through an allowlisted exchange: BalanceDecreased', async () => {
    const c = on(ETHEREUM);
    await fillRouter(c);
    const attacker = await newAttacker(devnet, CHAINS);
    const guard = await protect(attacker);
    const held = await balance(ETHEREUM, c.usdc, c.router);
    const s = swap({
      callTo: c.v2Router, sendingAssetId: c.usdc, receivingAssetId: c.weth, fromAmount: held, callData: encodeV2Swap(held, 0n, [c.usdc, c.weth], attacker.address),
    });
    expectRevert(await attempt(attacker.on(ETHEREUM), errors, { to: c.router, data: generic(attacker.address, [s]) }), 'BalanceDecreased', [c.usdc, held, 0n]);
    expect(await balance(ETHEREUM, c.weth, attacker.address)).toBe(0n);
    await guard.check();
  });

  test('a nested bridge leg (SwapData calling the router) carrying the router\'s USDC: BalanceDecreased', async () => {
    const c = on(ETHEREUM);
    await fillRouter(c);
    const attacker = await newAttacker(devnet, CHAINS);
    const guard = await protect(attacker);
    const held = await balance(ETHEREUM, c.usdc, c.router);
    const amount = 500n * USDC_UNIT;
    const leg = encodeBridgeCall(bridgeData({ sendingAssetId: c.usdc, receiver: attacker.address, minAmount: amount }), [], specific({ receiverOnDestination: attacker.address }));
    const s = swap({ callTo: c.router, sendingAssetId: c.usdc, receivingAssetId: NATIVE, fromAmount: amount, callData: leg });
    expectRevert(await attempt(attacker.on(ETHEREUM), errors, { to: c.router, data: generic(attacker.address, [s]) }), 'BalanceDecreased', [c.usdc, held, held - amount]);
    await guard.check();
  });

  test('native coin sent with an ERC-20 swap comes back to the sender; the router\'s ETH is unchanged', async () => {
    const c = on(ETHEREUM);
    await fillRouter(c);
    const attacker = await newAttacker(devnet, CHAINS);
    const wallet = attacker.on(ETHEREUM);
    // the attacker's own WETH (wrapped from its gas money) for an ordinary WETH → USDC swap
    const amount = E18 / 10n;
    await mustSend(wallet, errors, { to: c.weth, data: encodeWrap(), value: amount }, 'wrap');
    await mustSend(wallet, errors, { to: c.weth, data: erc20.encodeFunctionData('approve', [c.router, amount]) }, 'approve');
    const guard = await protect(attacker);
    const ethBefore = await balance(ETHEREUM, NATIVE, attacker.address);
    const s = swap({
      callTo: c.v2Router, sendingAssetId: c.weth, receivingAssetId: c.usdc, fromAmount: amount, requiresDeposit: true,
      callData: encodeV2Swap(amount, 0n, [c.weth, c.usdc], c.router),
    });
    const a = await attempt(wallet, errors, { to: c.router, data: generic(attacker.address, [s]), value: E18 / 2n });
    expect(a.reverted).toBe(false);
    const gas = a.receipt.gasUsed * a.receipt.gasPrice;
    expect(await balance(ETHEREUM, NATIVE, attacker.address)).toBe(ethBefore - gas);
    expect(await balance(ETHEREUM, c.usdc, attacker.address)).toBeGreaterThan(0n);
    await guard.check();
  });

  test('native coin sent beyond a WETH bridge deposit (no native fee on the route) comes back to the sender', async () => {
    const c = on(ETHEREUM);
    const d = on(ARBITRUM);
    await fillRouter(c);
    const attacker = await newAttacker(devnet, CHAINS);
    const wallet = attacker.on(ETHEREUM);
    const amount = E18 / 100n;
    await mustSend(wallet, errors, { to: c.weth, data: encodeWrap(), value: amount }, 'wrap');
    await mustSend(wallet, errors, { to: c.weth, data: erc20.encodeFunctionData('approve', [c.router, amount]) }, 'approve');
    const guard = await protect(attacker);
    const ethBefore = await balance(ETHEREUM, NATIVE, attacker.address);
    const b = bridgeData({ sendingAssetId: c.weth, receiver: attacker.address, minAmount: amount });
    const data = encodeBridgeCall(b, [], specific({ receiverOnDestination: attacker.address }));
    const a = await attempt(wallet, errors, { to: c.router, data, value: E18 / 3n });
    expect(a.reverted).toBe(false);
    expect(await balance(ETHEREUM, NATIVE, attacker.address)).toBe(ethBefore - a.receipt.gasUsed * a.receipt.gasPrice);
    const done = await completion(b.transactionId);
    if (done.kind !== 'released') throw new Error(`refunded: ${done.reason}`);
    expect(await balance(ARBITRUM, d.weth, attacker.address)).toBe(done.amount);
    await guard.check({
      [ETHEREUM]: [{ holder: 'endpoint', token: c.weth, delta: amount }],
      [ARBITRUM]: [{ holder: 'endpoint', token: d.weth, delta: -done.amount }],
    });
  });
});

describe('4. the bridge endpoint\'s destination call', () => {
  /** A deposit of the attacker's own 5 USDC (given by the donor) straight into the Ethereum endpoint. */
  async function depositUsdc(attacker: Attacker, receiverOnDestination: string, destinationCallData: string) {
    const c = on(ETHEREUM);
    const wallet = attacker.on(ETHEREUM);
    const amount = 5n * USDC_UNIT;
    await mustSend(wallet, errors, { to: c.usdc, data: erc20.encodeFunctionData('approve', [c.endpoint, amount]) }, 'approve');
    const request = depositRequest({ token: c.usdc, amount, receiverOnDestination, receiver: attacker.address, refundTo: attacker.address, destinationCallData });
    const a = await attempt(wallet, errors, { to: c.endpoint, data: endpointI.encodeFunctionData('deposit', [request]) });
    expect(a.reverted).toBe(false);
    return deposited(a.receipt.logs, ETHEREUM);
  }

  async function expectRefunded(transactionId: string, reason: RegExp): Promise<void> {
    const done = await completion(transactionId);
    expect(done.kind).toBe('refunded');
    if (done.kind === 'refunded') expect(done.reason).toMatch(reason);
  }

  test('deposited straight into the endpoint: a call of USDC.transfer(attacker, the endpoint\'s balance) on the destination is refused, the deposit refunded', async () => {
    const c = on(ETHEREUM);
    const d = on(ARBITRUM);
    const attacker = await newAttacker(devnet, CHAINS);
    await give(ETHEREUM, c.usdc, attacker.address, 10n * USDC_UNIT);
    const guard = await protect(attacker);
    const held = await balance(ARBITRUM, d.usdc, d.endpoint);
    const { transactionId } = await depositUsdc(attacker, d.usdc, erc20.encodeFunctionData('transfer', [attacker.address, held]));
    await expectRefunded(transactionId, /DestinationCallNotAllowed/);
    expect(await balance(ARBITRUM, d.usdc, d.endpoint)).toBe(held);
    expect(await balance(ARBITRUM, d.usdc, attacker.address)).toBe(0n);
    expect(await balance(ETHEREUM, c.usdc, attacker.address)).toBe(10n * USDC_UNIT);
    await guard.check();
  });

  test('deposited straight into the endpoint: WETH.transferFrom(router, attacker, …) and a call to an address without code are refused, refunded', async () => {
    const c = on(ETHEREUM);
    const d = on(ARBITRUM);
    const attacker = await newAttacker(devnet, CHAINS);
    await give(ETHEREUM, c.usdc, attacker.address, 10n * USDC_UNIT);
    await give(ARBITRUM, d.weth, d.router, E18);
    const guard = await protect(attacker);
    const first = await depositUsdc(attacker, d.weth, erc20.encodeFunctionData('transferFrom', [d.router, attacker.address, E18]));
    await expectRefunded(first.transactionId, /DestinationCallNotAllowed/);
    const nobody = Wallet.createRandom().address;
    const call = encodeSwapAndCompleteBridgeTokens({ transactionId: transferId(), swapData: [], transferredAssetId: d.usdc, receiver: attacker.address, minAmountOut: 0n });
    const second = await depositUsdc(attacker, nobody, call);
    await expectRefunded(second.transactionId, /DestinationCallNotAllowed/);
    expect(await balance(ARBITRUM, d.usdc, nobody)).toBe(0n);
    expect(await allowance(ARBITRUM, d.usdc, d.endpoint, nobody)).toBe(0n);
    expect(await balance(ETHEREUM, c.usdc, attacker.address)).toBe(10n * USDC_UNIT);
    await guard.check();
  });

  test('through the router\'s startBridgeTokensViaAcross (native coin): a destination USDC.transfer is refused, refunded to the attacker', async () => {
    const c = on(ETHEREUM);
    const d = on(ARBITRUM);
    const attacker = await newAttacker(devnet, CHAINS);
    const guard = await protect(attacker);
    const wallet = attacker.on(ETHEREUM);
    const held = await balance(ARBITRUM, d.usdc, d.endpoint);
    const amount = E18 / 100n;
    const b = bridgeData({ receiver: attacker.address, minAmount: amount, hasDestinationCall: true });
    const data = encodeBridgeCall(b, [], specific({ receiverOnDestination: d.usdc, destinationCallData: erc20.encodeFunctionData('transfer', [attacker.address, held]) }));
    const ethBefore = await balance(ETHEREUM, NATIVE, attacker.address);
    const a = await attempt(wallet, errors, { to: c.router, data, value: amount });
    expect(a.reverted).toBe(false);
    await expectRefunded(b.transactionId, /DestinationCallNotAllowed/);
    // the refund went to the caller (the router's refund address), and only what was deposited
    expect(await balance(ETHEREUM, NATIVE, attacker.address)).toBe(ethBefore - a.receipt.gasUsed * a.receipt.gasPrice);
    expect(await balance(ARBITRUM, d.usdc, d.endpoint)).toBe(held);
    await guard.check();
  });

  test('through the router with USDC: a destination call of DAI.transferFrom(router, attacker, …) is refused, refunded', async () => {
    const c = on(ETHEREUM);
    const d = on(ARBITRUM);
    const attacker = await newAttacker(devnet, CHAINS);
    await give(ETHEREUM, c.usdc, attacker.address, 10n * USDC_UNIT);
    await give(ARBITRUM, d.dai, d.router, 100n * E18);
    const guard = await protect(attacker);
    const wallet = attacker.on(ETHEREUM);
    const amount = 5n * USDC_UNIT;
    await mustSend(wallet, errors, { to: c.usdc, data: erc20.encodeFunctionData('approve', [c.router, amount]) }, 'approve');
    const b = bridgeData({ sendingAssetId: c.usdc, receiver: attacker.address, minAmount: amount, hasDestinationCall: true });
    const data = encodeBridgeCall(b, [], specific({ receiverOnDestination: d.dai, destinationCallData: erc20.encodeFunctionData('transferFrom', [d.router, attacker.address, 100n * E18]) }));
    expect((await attempt(wallet, errors, { to: c.router, data })).reverted).toBe(false);
    await expectRefunded(b.transactionId, /DestinationCallNotAllowed/);
    expect(await balance(ETHEREUM, c.usdc, attacker.address)).toBe(10n * USDC_UNIT);
    expect(await balance(ARBITRUM, d.dai, attacker.address)).toBe(0n);
    await guard.check();
  });

  test('a destination call to the router naming another token (WETH) takes nothing of the endpoint\'s WETH; the endpoint keeps the USDC', async () => {
    const c = on(ETHEREUM);
    const d = on(ARBITRUM);
    const attacker = await newAttacker(devnet, CHAINS);
    await give(ETHEREUM, c.usdc, attacker.address, 10n * USDC_UNIT);
    const guard = await protect(attacker);
    const call = encodeSwapAndCompleteBridgeTokens({ transactionId: transferId(), swapData: [], transferredAssetId: d.weth, receiver: attacker.address, minAmountOut: 0n });
    const { transactionId } = await depositUsdc(attacker, d.router, call);
    const done = await completion(transactionId);
    if (done.kind !== 'released') throw new Error(`refunded: ${done.reason}`);
    expect(done.destinationCallSucceeded).toBe(true);
    expect(await balance(ARBITRUM, d.weth, attacker.address)).toBe(0n);
    expect(await balance(ARBITRUM, d.usdc, attacker.address)).toBe(0n);
    // the attacker's own 5 USDC stay escrowed on Ethereum; Arbitrum's endpoint paid nothing out
    await guard.check({ [ETHEREUM]: [{ holder: 'endpoint', token: c.usdc, delta: 5n * USDC_UNIT }], [ARBITRUM]: [{ holder: 'endpoint', token: d.usdc, delta: 0n }] });
  });

  test('a destination call to the router whose swap is transferFrom(victim, attacker): the call fails, the receiver gets only the bridged amount', async () => {
    const c = on(ETHEREUM);
    const d = on(ARBITRUM);
    const attacker = await newAttacker(devnet, CHAINS);
    await give(ETHEREUM, c.usdc, attacker.address, 10n * USDC_UNIT);
    const guard = await protect(attacker);
    const call = encodeSwapAndCompleteBridgeTokens({ transactionId: transferId(), swapData: [stealSwap(d, attacker.address)], transferredAssetId: d.usdc, receiver: attacker.address, minAmountOut: 0n });
    const { transactionId } = await depositUsdc(attacker, d.router, call);
    const done = await completion(transactionId);
    if (done.kind !== 'released') throw new Error(`refunded: ${done.reason}`);
    expect(done.destinationCallSucceeded).toBe(false);
    expect(await balance(ARBITRUM, d.usdc, attacker.address)).toBe(done.amount);
    expect(done.amount).toBeLessThan(5n * USDC_UNIT);
    await guard.check({ [ETHEREUM]: [{ holder: 'endpoint', token: c.usdc, delta: 5n * USDC_UNIT }], [ARBITRUM]: [{ holder: 'endpoint', token: d.usdc, delta: -done.amount }] });
  });

  test('the victim\'s allowance to the endpoint is not usable: a deposit pulls from its caller only', async () => {
    const c = on(ETHEREUM);
    const attacker = await newAttacker(devnet, CHAINS);
    const guard = await protect(attacker);
    const request = depositRequest({ token: c.usdc, amount: 1_000n * USDC_UNIT, receiverOnDestination: attacker.address, receiver: attacker.address, refundTo: attacker.address });
    const a = await attempt(attacker.on(ETHEREUM), errors, { to: c.endpoint, data: endpointI.encodeFunctionData('deposit', [request]) });
    expectRevert(a, 'InsufficientAllowance', [attacker.address, c.endpoint, 0n, 1_000n * USDC_UNIT]);
    await guard.check();
  });
});

/**
 * The executor holds 1,000 USDC someone left in it (sent by mistake, or what a contract call's target gave the
 * executor rather than the beneficiary, e.g. receipt tokens minted to msg.sender). The design says it holds nothing
 * between transactions: what it holds is no one's, and no attacker may take it.
 */
describe('5. the call executor', () => {
  const STRAY = 1_000n * USDC_UNIT;

  test('a SwapData calling the executor\'s execute or swap: CallNotAllowed; the admin cannot allow it (TargetNeverAllowed)', async () => {
    const c = on(ETHEREUM);
    await give(ETHEREUM, c.usdc, c.executor, STRAY);
    const attacker = await newAttacker(devnet, CHAINS);
    const guard = await protect(attacker);
    const wallet = attacker.on(ETHEREUM);
    const take = [c.usdc, attacker.address, c.usdc, 0n, erc20.encodeFunctionData('transfer', [attacker.address, STRAY]), 100_000n, attacker.address];
    const execute = executorI.encodeFunctionData('execute', [take]);
    const swapCall = executorI.encodeFunctionData('swap', [[c.usdc, c.usdc, c.usdc, c.usdc, 0n, erc20.encodeFunctionData('transfer', [attacker.address, STRAY]), false]]);
    for (const callData of [execute, swapCall]) {
      const s = swap({ callTo: c.executor, sendingAssetId: c.usdc, receivingAssetId: c.usdc, callData });
      expectRevert(await attempt(wallet, errors, { to: c.router, data: generic(attacker.address, [s]) }), 'CallNotAllowed', [c.executor, callData.slice(0, 10)]);
    }
    // the admin cannot put the executor (nor the router, nor the endpoint) on the allowlist
    for (const target of [c.executor, c.router, c.endpoint]) {
      const data = routerI.encodeFunctionData('setAllowedCalls', [[target], [swapCall.slice(0, 10)], true]);
      expectRevert(await attempt(c.admin, errors, { to: c.router, data }), 'TargetNeverAllowed', [target]);
    }
    // nor the executor's execute selector on any target
    const data = routerI.encodeFunctionData('setAllowedCalls', [[c.weth], [execute.slice(0, 10)], true]);
    expectRevert(await attempt(c.admin, errors, { to: c.router, data }), 'SelectorNeverAllowed', [execute.slice(0, 10)]);
    expect(await balance(ETHEREUM, c.usdc, c.executor)).toBe(STRAY);
    await guard.check();
  });

  test('CallExecutor.execute and swap called directly by the attacker: NotRouter', async () => {
    const c = on(ETHEREUM);
    await give(ETHEREUM, c.usdc, c.executor, STRAY);
    const attacker = await newAttacker(devnet, CHAINS);
    const guard = await protect(attacker);
    const wallet = attacker.on(ETHEREUM);
    const execute = executorI.encodeFunctionData('execute', [[c.usdc, attacker.address, c.usdc, 0n, erc20.encodeFunctionData('transfer', [attacker.address, STRAY]), 100_000n, attacker.address]]);
    const swapCall = executorI.encodeFunctionData('swap', [[c.usdc, attacker.address, c.usdc, c.usdc, 0n, erc20.encodeFunctionData('transfer', [attacker.address, STRAY]), false]]);
    expectRevert(await attempt(wallet, errors, { to: c.executor, data: execute }), 'NotRouter');
    expectRevert(await attempt(wallet, errors, { to: c.executor, data: swapCall }), 'NotRouter');
    expect(await balance(ETHEREUM, c.usdc, c.executor)).toBe(STRAY);
    await guard.check();
  });

  test('a no-op allowlisted swap (WETH.deposit() of 0) declaring the executor\'s token as its output does not sweep the executor\'s 1,000 USDC to the attacker', async () => {
    const c = on(ETHEREUM);
    await give(ETHEREUM, c.usdc, c.executor, STRAY);
    const attacker = await newAttacker(devnet, CHAINS);
    const guard = await protect(attacker);
    const s = swap({ callTo: c.weth, sendingAssetId: c.usdc, receivingAssetId: c.usdc, fromAmount: 0n, callData: encodeWrap() });
    await attempt(attacker.on(ETHEREUM), errors, { to: c.router, data: generic(attacker.address, [s]) });
    expect(await balance(ETHEREUM, c.usdc, attacker.address)).toBe(0n);
    expect(await balance(ETHEREUM, c.usdc, c.executor)).toBe(STRAY);
    await guard.check();
  });

  test('a contract call (swapAndCall) of USDC.transfer(attacker, …) made by the executor does not take the executor\'s 1,000 USDC', async () => {
    const c = on(ETHEREUM);
    await give(ETHEREUM, c.usdc, c.executor, STRAY);
    const attacker = await newAttacker(devnet, CHAINS);
    const guard = await protect(attacker);
    const call: ContractCallData = {
      target: c.usdc, approveTo: attacker.address, sendingAssetId: NATIVE, amount: 0n, callData: erc20.encodeFunctionData('transfer', [attacker.address, STRAY]),
      gasLimit: 100_000n, fallbackReceiver: attacker.address,
    };
    const data = encodeSwapAndCall({
      transactionId: transferId(), integrator: 'attacker', referrer: '', receiver: attacker.address, sendingAssetId: NATIVE, fromAmount: 1n, minAmountOut: 0n, swapData: [], calls: [call],
    });
    await attempt(attacker.on(ETHEREUM), errors, { to: c.router, data, value: 1n });
    expect(await balance(ETHEREUM, c.usdc, attacker.address)).toBe(0n);
    expect(await balance(ETHEREUM, c.usdc, c.executor)).toBe(STRAY);
    await guard.check();
  });

  test('a contract call paying with its own asset (USDC.transfer, USDC handed over) cannot spend more than it was handed: CallOverspent', async () => {
    const c = on(ETHEREUM);
    await give(ETHEREUM, c.usdc, c.executor, STRAY);
    const attacker = await newAttacker(devnet, CHAINS);
    const wallet = attacker.on(ETHEREUM);
    await give(ETHEREUM, c.usdc, attacker.address, 1_000_000n);
    await mustSend(wallet, errors, { to: c.usdc, data: erc20.encodeFunctionData('approve', [c.router, 1_000_000n]) }, 'approve');
    const guard = await protect(attacker, { [ETHEREUM]: [c.usdc] });
    // the attacker hands over 1 USDC and has the executor transfer that plus the executor's 1,000
    const call: ContractCallData = {
      target: c.usdc, approveTo: attacker.address, sendingAssetId: c.usdc, amount: 1_000_000n,
      callData: erc20.encodeFunctionData('transfer', [attacker.address, STRAY + 1_000_000n]), gasLimit: 100_000n, fallbackReceiver: attacker.address,
    };
    const data = encodeSwapAndCall({
      transactionId: transferId(), integrator: 'attacker', referrer: '', receiver: attacker.address, sendingAssetId: c.usdc, fromAmount: 1_000_000n, minAmountOut: 0n, swapData: [], calls: [call],
    });
    expectRevert(await attempt(wallet, errors, { to: c.router, data }), 'CallOverspent');
    expect(await balance(ETHEREUM, c.usdc, c.executor)).toBe(STRAY);
    await guard.check();
  });

  test('a contract call of USDC.approve(attacker, max) made by the executor leaves no allowance to the attacker', async () => {
    const c = on(ETHEREUM);
    await give(ETHEREUM, c.usdc, c.executor, STRAY);
    const attacker = await newAttacker(devnet, CHAINS);
    const guard = await protect(attacker);
    const wallet = attacker.on(ETHEREUM);
    const call: ContractCallData = {
      target: c.usdc, approveTo: attacker.address, sendingAssetId: NATIVE, amount: 0n, callData: erc20.encodeFunctionData('approve', [attacker.address, MAX_UINT256]),
      gasLimit: 100_000n, fallbackReceiver: attacker.address,
    };
    const data = encodeSwapAndCall({
      transactionId: transferId(), integrator: 'attacker', referrer: '', receiver: attacker.address, sendingAssetId: NATIVE, fromAmount: 1n, minAmountOut: 0n, swapData: [], calls: [call],
    });
    await attempt(wallet, errors, { to: c.router, data, value: 1n });
    expect(await allowance(ETHEREUM, c.usdc, c.executor, attacker.address)).toBe(0n);
    // and with it, the attacker cannot take the executor's USDC
    await attempt(wallet, errors, { to: c.usdc, data: erc20.encodeFunctionData('transferFrom', [c.executor, attacker.address, STRAY]) });
    expect(await balance(ETHEREUM, c.usdc, attacker.address)).toBe(0n);
    await guard.check();
  });
});

describe('6. release and refund are exclusive', () => {
  /** The attacker's own 0.01 ETH deposited straight into Ethereum's endpoint for Arbitrum (relayer stopped). */
  async function depositEth(attacker: Attacker) {
    const c = on(ETHEREUM);
    const amount = E18 / 100n;
    const request = depositRequest({ token: NATIVE, amount, receiverOnDestination: attacker.address, receiver: attacker.address, refundTo: attacker.address });
    const a = await attempt(attacker.on(ETHEREUM), errors, { to: c.endpoint, data: endpointI.encodeFunctionData('deposit', [request]), value: amount });
    expect(a.reverted).toBe(false);
    const d = deposited(a.receipt.logs, ETHEREUM);
    const releaseRequest = [BigInt(ETHEREUM), d.depositId, 'across', d.transactionId, NATIVE, d.amount, attacker.address, attacker.address, 0n, '0x'];
    return { ...d, releaseRequest };
  }

  test('as the relayer: released and marked released → refund reverts (NotPending); cancelled → release reverts (AlreadyReleased)', async () => {
    await stopRelayer();
    const c = on(ETHEREUM);
    const d = on(ARBITRUM);
    const attacker = await newAttacker(devnet, CHAINS);
    const guard = await protect(attacker);
    const released = await depositEth(attacker);
    const release = (r: unknown[]) => ({ to: d.endpoint, data: endpointI.encodeFunctionData('release', [r]) });
    const source = (fn: string, args: unknown[]) => ({ to: c.endpoint, data: endpointI.encodeFunctionData(fn, args) });
    const destination = (fn: string, args: unknown[]) => ({ to: d.endpoint, data: endpointI.encodeFunctionData(fn, args) });
    const r = await mustSend(d.relayer, errors, release(released.releaseRequest), 'release');
    const out = eventsOf(r.logs, d.endpoint, endpointI).find((e) => e.name === 'Released')!.args.amount as bigint;
    await mustSend(c.relayer, errors, source('markReleased', [released.depositId]), 'markReleased');
    expectRevert(await attempt(c.relayer, errors, source('refund', [released.depositId])), 'NotPending');
    expectRevert(await attempt(d.relayer, errors, destination('cancel', [BigInt(ETHEREUM), released.depositId])), 'AlreadyReleased');
    expectRevert(await attempt(d.relayer, errors, release(released.releaseRequest)), 'AlreadyReleased');

    const cancelled = await depositEth(attacker);
    await mustSend(d.relayer, errors, destination('cancel', [BigInt(ETHEREUM), cancelled.depositId]), 'cancel');
    expectRevert(await attempt(d.relayer, errors, release(cancelled.releaseRequest)), 'AlreadyReleased');
    await mustSend(c.relayer, errors, source('refund', [cancelled.depositId]), 'refund');
    expectRevert(await attempt(c.relayer, errors, source('refund', [cancelled.depositId])), 'NotPending');
    expectRevert(await attempt(c.relayer, errors, source('markReleased', [cancelled.depositId])), 'NotPending');
    // one deposit released (escrowed on Ethereum, paid on Arbitrum), the other refunded
    await guard.check({
      [ETHEREUM]: [{ holder: 'endpoint', token: NATIVE, delta: released.amount }],
      [ARBITRUM]: [{ holder: 'endpoint', token: NATIVE, delta: -out }],
    });
  });

  test('release, refund, cancel and markReleased by anyone but the relayer: NotRelayer; the admin functions: NotAdmin', async () => {
    await stopRelayer();
    const c = on(ETHEREUM);
    const d = on(ARBITRUM);
    const attacker = await newAttacker(devnet, CHAINS);
    const pending = await depositEth(attacker); // a pending deposit of its own, which it would like back and released
    const guard = await protect(attacker);
    const wallet = attacker.on(ETHEREUM);
    const onArbitrum = attacker.on(ARBITRUM);
    const forged = [BigInt(ETHEREUM), 999n, 'across', transferId(), c.usdc, 1_000_000n * USDC_UNIT, attacker.address, attacker.address, 0n, '0x'];
    for (const [w, x, fn, args] of [
      [onArbitrum, d, 'release', [pending.releaseRequest]],
      [onArbitrum, d, 'release', [forged]],
      [wallet, c, 'refund', [pending.depositId]],
      [onArbitrum, d, 'cancel', [BigInt(ETHEREUM), pending.depositId]],
      [wallet, c, 'markReleased', [pending.depositId]],
    ] as const) {
      expectRevert(await attempt(w, errors, { to: x.endpoint, data: endpointI.encodeFunctionData(fn, args as unknown as unknown[]) }), 'NotRelayer');
    }
    // nor may any other user, nor the admin, act as the relayer
    for (const other of [c.donor, c.admin]) {
      expectRevert(await attempt(other, errors, { to: c.endpoint, data: endpointI.encodeFunctionData('refund', [pending.depositId]) }), 'NotRelayer');
    }
    expectRevert(await attempt(wallet, errors, { to: c.endpoint, data: endpointI.encodeFunctionData('setRouter', [attacker.address]) }), 'NotAdmin');
    const route = ['across', BigInt(ETHEREUM), BigInt(ARBITRUM), c.usdc, d.usdc, 6, 6, 0, 0n, 0n, 0n, 0n, 0n];
    expectRevert(await attempt(wallet, errors, { to: c.endpoint, data: endpointI.encodeFunctionData('setRoutes', [[route]]) }), 'NotAdmin');
    const [, status] = await endpointRead(ETHEREUM, 'deposits', [pending.depositId]);
    expect(Number(status)).toBe(1);
    expect((await endpointRead(ARBITRUM, 'released', [BigInt(ETHEREUM), pending.depositId]))[0]).toBe(false);
    await guard.check();
  });
});

describe('7. administration', () => {
  test('the constructors set the admin; there is no initialize to call', async () => {
    const c = on(ETHEREUM);
    const attacker = await newAttacker(devnet, CHAINS);
    const guard = await protect(attacker);
    const wallet = attacker.on(ETHEREUM);
    const adminOf = async (address: string) => new Interface(['function admin() view returns (address)']).decodeFunctionResult('admin', await c.provider.call({ to: address, data: '0xf851a440' }))[0] as string;
    const initialize = new Interface(['function initialize(address,address)']).encodeFunctionData('initialize', [attacker.address, attacker.address]);
    for (const target of [c.router, c.endpoint, c.feeCollector]) {
      expect(await adminOf(target)).toBe(devnet.admin);
      const a = await attempt(wallet, errors, { to: target, data: initialize });
      expect(a.reverted).toBe(true);
      if (target === c.router) expectRevert(a, 'UnknownFacet', [initialize.slice(0, 10)]);
      expect(await adminOf(target)).toBe(devnet.admin);
    }
    expect((await endpointRead(ETHEREUM, 'relayer', []))[0]).toBe(devnet.relayerAddress);
    await guard.check();
  });

  test('the router\'s admin functions refuse anyone but the admin: NotAdmin', async () => {
    const c = on(ETHEREUM);
    const attacker = await newAttacker(devnet, CHAINS);
    const guard = await protect(attacker);
    const wallet = attacker.on(ETHEREUM);
    for (const [fn, args] of [
      ['setAllowedCalls', [[c.usdc], ['0x23b872dd'], true]],
      ['setAllowedCalls', [[c.v2Router], ['0x38ed1739'], false]],
      ['transferAdmin', [attacker.address]],
      ['setBridgeEndpoint', [attacker.address]],
      ['setPermit2Proxy', [attacker.address]],
    ] as const) {
      expectRevert(await attempt(wallet, errors, { to: c.router, data: routerI.encodeFunctionData(fn, args as unknown as unknown[]) }), 'NotAdmin');
    }
    const feeI = new Interface(devnet.artifacts.FeeCollector.abi as never);
    expectRevert(await attempt(wallet, errors, { to: c.feeCollector, data: feeI.encodeFunctionData('seedBalances', [[attacker.address], [c.usdc], [1_000_000n * USDC_UNIT]]) }), 'NotAdmin');
    await guard.check();
  });

  test('the admin cannot allow a token-moving selector (SelectorNeverAllowed) nor the service\'s own contracts or an address without code (TargetNeverAllowed)', async () => {
    const c = on(ETHEREUM);
    const attacker = await newAttacker(devnet, CHAINS);
    const guard = await protect(attacker);
    const selector = (signature: string) => new Interface([`function ${signature}`]).getFunction(signature.slice(0, signature.indexOf('(')))!.selector;
    const forbidden = [
      'transfer(address,uint256)', 'transferFrom(address,address,uint256)', 'approve(address,uint256)',
      'permit(address,address,uint256,uint256,uint8,bytes32,bytes32)', 'increaseAllowance(address,uint256)',
    ].map(selector);
    for (const token of [c.usdc, c.weth, c.dai]) {
      for (const s of forbidden) {
        const data = routerI.encodeFunctionData('setAllowedCalls', [[token], [s], true]);
        expectRevert(await attempt(c.admin, errors, { to: c.router, data }), 'SelectorNeverAllowed', [s]);
      }
    }
    for (const target of [c.router, c.executor, c.endpoint, attacker.address, ...(c.permit2Proxy !== ZeroAddress ? [c.permit2Proxy] : [])]) {
      const data = routerI.encodeFunctionData('setAllowedCalls', [[target], ['0x38ed1739'], true]);
      expectRevert(await attempt(c.admin, errors, { to: c.router, data }), 'TargetNeverAllowed', [target]);
    }
    await guard.check();
  });

  test('Router, FeeCollector and BridgeEndpoint cannot be deployed with a zero admin (nor the endpoint with a zero relayer)', async () => {
    const c = on(ETHEREUM);
    const attacker = await newAttacker(devnet, CHAINS);
    const guard = await protect(attacker);
    const wallet = attacker.on(ETHEREUM);
    const cases: [string, unknown[], string][] = [
      ['Router', [ZeroAddress, c.endpoint], 'ZeroAdmin'],
      ['FeeCollector', [ZeroAddress, attacker.address], 'ZeroAdmin'],
      ['BridgeEndpoint', [ZeroAddress, attacker.address], 'ZeroAddress'],
      ['BridgeEndpoint', [attacker.address, ZeroAddress], 'ZeroAddress'],
    ];
    for (const [name, args, error] of cases) {
      const artifact = devnet.artifacts[name];
      const data = artifact.bytecode + AbiCoder.defaultAbiCoder().encode(
        (new Interface(artifact.abi as never).deploy.inputs).map((i) => i.type), args,
      ).slice(2);
      let revert: string | undefined;
      try {
        await c.provider.call({ from: attacker.address, data });
      } catch (e) {
        revert = revertDataOf(e);
      }
      expect(decodeRevert(errors, revert)?.name).toBe(error);
      const sent = await wallet.sendTransaction({ data, gasLimit: 8_000_000n });
      expect((await waitForReceipt(c.provider, sent.hash)).status).toBe(0);
    }
    // with a real admin they deploy, and their admin is that one (the constructor's, not the first caller's)
    const router = await deploy(wallet, devnet, 'Router', [attacker.address, c.endpoint]);
    expect(routerI.decodeFunctionResult('admin', await c.provider.call({ to: router, data: routerI.encodeFunctionData('admin') }))[0]).toBe(attacker.address);
    await guard.check();
  });
});

describe('8. unusual tokens', () => {
  /** The endpoint route of a test token (admin: BridgeEndpoint.setRoutes), from Ethereum to Arbitrum, on `chainId`'s endpoint. */
  async function addRoute(chainId: number, fromToken: string, toToken: string, decimals: number): Promise<void> {
    const c = on(chainId);
    const route = ['across', BigInt(ETHEREUM), BigInt(ARBITRUM), fromToken, toToken, decimals, decimals, 0, 0n, 0n, 1n, 0n, 0n];
    await mustSend(c.admin, errors, { to: c.endpoint, data: endpointI.encodeFunctionData('setRoutes', [[route]]) }, 'setRoutes');
  }

  const mint = (token: string, to: string, amount: bigint) => ({ to: token, data: erc20.encodeFunctionData('mint', [to, amount]) });

  test('fee on transfer, straight into the endpoint: credited by what arrived (Deposited and deposits(id)); the refund returns no more', async () => {
    const c = on(ETHEREUM);
    const fot = await deploy(c.admin, devnet, 'FeeOnTransferToken', ['Fee', 'FEE', 18]);
    await addRoute(ETHEREUM, fot, ZeroAddress, 18); // no route on Arbitrum: the relayer refunds
    const attacker = await newAttacker(devnet, CHAINS);
    await mustSend(c.admin, errors, mint(fot, attacker.address, 100n * E18), 'mint');
    await mustSend(c.admin, errors, mint(fot, c.endpoint, 500n * E18), 'mint'); // other depositors' escrow
    const wallet = attacker.on(ETHEREUM);
    await mustSend(wallet, errors, { to: fot, data: erc20.encodeFunctionData('approve', [c.endpoint, MAX_UINT256]) }, 'approve');
    const guard = await protect(attacker, { [ETHEREUM]: [fot] });
    const request = depositRequest({ token: fot, amount: 100n * E18, receiverOnDestination: attacker.address, receiver: attacker.address, refundTo: attacker.address });
    const a = await attempt(wallet, errors, { to: c.endpoint, data: endpointI.encodeFunctionData('deposit', [request]) });
    expect(a.reverted).toBe(false);
    const d = deposited(a.receipt.logs, ETHEREUM);
    expect(d.amount).toBe(99n * E18);
    const [, , , credited] = await endpointRead(ETHEREUM, 'deposits', [d.depositId]);
    expect(credited).toBe(99n * E18);
    const done = await completion(d.transactionId);
    expect(done.kind).toBe('refunded');
    // the endpoint paid back what it had received (the attacker bears the token's fee twice), not the others' escrow
    expect(await balance(ETHEREUM, fot, c.endpoint)).toBe(500n * E18);
    expect(await balance(ETHEREUM, fot, attacker.address)).toBe(99n * E18 - 99n * E18 / 100n);
    await guard.check();
  });

  test('fee on transfer through the router: the executor refuses the short hand-over (HandOverShort) and the router keeps its own', async () => {
    const c = on(ETHEREUM);
    const fot = await deploy(c.admin, devnet, 'FeeOnTransferToken', ['Fee', 'FEE', 18]);
    const attacker = await newAttacker(devnet, CHAINS);
    await mustSend(c.admin, errors, mint(fot, attacker.address, 100n * E18), 'mint');
    await mustSend(c.admin, errors, mint(fot, c.router, 10n * E18), 'mint'); // what the router holds: no one's
    const wallet = attacker.on(ETHEREUM);
    await mustSend(wallet, errors, { to: fot, data: erc20.encodeFunctionData('approve', [c.router, MAX_UINT256]) }, 'approve');
    const guard = await protect(attacker, { [ETHEREUM]: [fot] });
    const fromAmount = 100n * E18;
    // the fee collector's collectTokenFees (allowlisted) as the "exchange": it pulls what it is told from the executor
    const collect = (amount: bigint) => swap({
      callTo: c.feeCollector, sendingAssetId: fot, receivingAssetId: c.weth, fromAmount, requiresDeposit: true, callData: encodeCollectTokenFees(fot, amount, 0n, attacker.address),
    });
    // the router received 99 and hands 100 to the executor (its own 10 cover the gap), which receives 99: the
    // executor refuses the short hand-over before any call
    expectRevert(await attempt(wallet, errors, { to: c.router, data: generic(attacker.address, [collect(fromAmount)]) }), 'HandOverShort', [fot, fromAmount, 99n * E18]);
    // however little the exchange takes, the hand-over is short: the router's own 10 are never spent
    expectRevert(await attempt(wallet, errors, { to: c.router, data: generic(attacker.address, [collect(99n * E18)]) }), 'HandOverShort', [fot, fromAmount, 99n * E18]);
    expect(await balance(ETHEREUM, fot, c.router)).toBe(10n * E18);
    await guard.check();
  });

  test('a token whose transfer functions return nothing (USDT-like) bridges through the router\'s startBridgeTokensViaAcross', async () => {
    const c = on(ETHEREUM);
    const d = on(ARBITRUM);
    const source = await deploy(c.admin, devnet, 'NoReturnToken', ['No return', 'NRT', 6]);
    const target = await deploy(d.admin, devnet, 'NoReturnToken', ['No return', 'NRT', 6]);
    await addRoute(ETHEREUM, source, target, 6);
    await addRoute(ARBITRUM, source, target, 6);
    const attacker = await newAttacker(devnet, CHAINS);
    await mustSend(c.admin, errors, mint(source, attacker.address, 100n * USDC_UNIT), 'mint');
    await mustSend(d.admin, errors, mint(target, d.endpoint, 1_000n * USDC_UNIT), 'mint'); // the destination's liquidity
    const wallet = attacker.on(ETHEREUM);
    await mustSend(wallet, errors, { to: source, data: erc20.encodeFunctionData('approve', [c.router, MAX_UINT256]) }, 'approve');
    const guard = await protect(attacker, { [ETHEREUM]: [source], [ARBITRUM]: [target] });
    const amount = 50n * USDC_UNIT;
    const b = bridgeData({ sendingAssetId: source, receiver: attacker.address, minAmount: amount });
    const a = await attempt(wallet, errors, { to: c.router, data: encodeBridgeCall(b, [], specific({ receiverOnDestination: attacker.address })) });
    expect(a.reverted).toBe(false);
    expect(deposited(a.receipt.logs, ETHEREUM).amount).toBe(amount);
    const done = await completion(b.transactionId);
    if (done.kind !== 'released') throw new Error(`refunded: ${done.reason}`);
    expect(done.amount).toBe(amount);
    expect(await balance(ARBITRUM, target, attacker.address)).toBe(amount);
    expect(await allowance(ETHEREUM, source, c.router, c.endpoint)).toBe(0n);
    await guard.check({
      [ETHEREUM]: [{ holder: 'endpoint', token: source, delta: amount }],
      [ARBITRUM]: [{ holder: 'endpoint', token: target, delta: -amount }],
    });
  });

  describe('a token re-entering on transferFrom', () => {
    const routerCallback = (c: ChainInfo, attacker: string) => generic(attacker, [stealSwap(c, attacker)]);

    test('re-entering the router from the router\'s own pull (swapTokensGeneric): Reentrancy', async () => {
      const c = on(ETHEREUM);
      const attacker = await newAttacker(devnet, CHAINS);
      const wallet = attacker.on(ETHEREUM);
      const rt = await deploy(wallet, devnet, 'ReentrantToken', ['Reentrant', 'RE', 18]);
      const rtI = new Interface(devnet.artifacts.ReentrantToken.abi as never);
      await mustSend(wallet, errors, mint(rt, attacker.address, 100n * E18), 'mint');
      await mustSend(wallet, errors, { to: rt, data: erc20.encodeFunctionData('approve', [c.router, MAX_UINT256]) }, 'approve');
      await mustSend(wallet, errors, { to: rt, data: rtI.encodeFunctionData('setCallback', [c.router, c.router, routerCallback(c, attacker.address), 0n]) }, 'setCallback');
      const guard = await protect(attacker, { [ETHEREUM]: [rt] });
      const s = swap({ callTo: c.weth, sendingAssetId: rt, receivingAssetId: rt, fromAmount: 10n * E18, requiresDeposit: true, callData: encodeWrap() });
      expectRevert(await attempt(wallet, errors, { to: c.router, data: generic(attacker.address, [s]) }), 'Reentrancy');
      await guard.check();
    });

    test('re-entering the router or the endpoint from the endpoint\'s pull of a deposit (through the router, and straight): Reentrancy', async () => {
      const c = on(ETHEREUM);
      const attacker = await newAttacker(devnet, CHAINS);
      const wallet = attacker.on(ETHEREUM);
      const rt = await deploy(wallet, devnet, 'ReentrantToken', ['Reentrant', 'RE', 18]);
      const rtI = new Interface(devnet.artifacts.ReentrantToken.abi as never);
      await addRoute(ETHEREUM, rt, ZeroAddress, 18);
      await mustSend(wallet, errors, mint(rt, attacker.address, 100n * E18), 'mint');
      for (const spender of [c.router, c.endpoint]) await mustSend(wallet, errors, { to: rt, data: erc20.encodeFunctionData('approve', [spender, MAX_UINT256]) }, 'approve');
      const guard = await protect(attacker, { [ETHEREUM]: [rt] });
      const count = (await endpointRead(ETHEREUM, 'depositCount', []))[0] as bigint;
      const amount = 10n * E18;
      const reenterDeposit = endpointI.encodeFunctionData('deposit', [depositRequest({ token: rt, amount, receiverOnDestination: attacker.address, receiver: attacker.address, refundTo: attacker.address })]);
      const viaRouter = encodeBridgeCall(bridgeData({ sendingAssetId: rt, receiver: attacker.address, minAmount: amount }), [], specific({ receiverOnDestination: attacker.address }));
      const straight = endpointI.encodeFunctionData('deposit', [depositRequest({ token: rt, amount, receiverOnDestination: attacker.address, receiver: attacker.address, refundTo: attacker.address })]);
      for (const [target, data] of [[c.router, routerCallback(c, attacker.address)], [c.endpoint, reenterDeposit]] as const) {
        // the callback fires on the endpoint's transferFrom only (the router's own pull is let through)
        await mustSend(wallet, errors, { to: rt, data: rtI.encodeFunctionData('setCallback', [target, c.endpoint, data, 0n]) }, 'setCallback');
        expectRevert(await attempt(wallet, errors, { to: c.router, data: viaRouter }), 'Reentrancy');
        if (target === c.endpoint) expectRevert(await attempt(wallet, errors, { to: c.endpoint, data: straight }), 'Reentrancy');
      }
      expect((await endpointRead(ETHEREUM, 'depositCount', []))[0]).toBe(count);
      await guard.check();
    });

    test('re-entering the endpoint from its release on the destination: the release is refused, the deposit refunded', async () => {
      const c = on(ETHEREUM);
      const d = on(ARBITRUM);
      const attacker = await newAttacker(devnet, CHAINS);
      const source = await deploy(c.admin, devnet, 'NoReturnToken', ['Plain', 'PL', 18]); // any token on the source
      const onArbitrum = attacker.on(ARBITRUM);
      const rt = await deploy(onArbitrum, devnet, 'ReentrantToken', ['Reentrant', 'RE', 18]);
      const rtI = new Interface(devnet.artifacts.ReentrantToken.abi as never);
      await addRoute(ETHEREUM, source, rt, 18);
      await addRoute(ARBITRUM, source, rt, 18);
      await mustSend(c.admin, errors, mint(source, attacker.address, 100n * E18), 'mint');
      await mustSend(onArbitrum, errors, mint(rt, d.endpoint, 1_000n * E18), 'mint');
      const reenter = endpointI.encodeFunctionData('deposit', [depositRequest({ token: rt, amount: 1n, receiverOnDestination: attacker.address, receiver: attacker.address, refundTo: attacker.address, destinationChainId: ETHEREUM })]);
      await mustSend(onArbitrum, errors, { to: rt, data: rtI.encodeFunctionData('setCallback', [d.endpoint, d.endpoint, reenter, 0n]) }, 'setCallback');
      const wallet = attacker.on(ETHEREUM);
      await mustSend(wallet, errors, { to: source, data: erc20.encodeFunctionData('approve', [c.endpoint, MAX_UINT256]) }, 'approve');
      const guard = await protect(attacker, { [ETHEREUM]: [source], [ARBITRUM]: [rt] });
      const request = depositRequest({ token: source, amount: 10n * E18, receiverOnDestination: attacker.address, receiver: attacker.address, refundTo: attacker.address });
      const a = await attempt(wallet, errors, { to: c.endpoint, data: endpointI.encodeFunctionData('deposit', [request]) });
      expect(a.reverted).toBe(false);
      const done = await completion(deposited(a.receipt.logs, ETHEREUM).transactionId);
      expect(done.kind).toBe('refunded');
      if (done.kind === 'refunded') expect(done.reason).toMatch(/Reentrancy/);
      expect(await balance(ARBITRUM, rt, d.endpoint)).toBe(1_000n * E18);
      await guard.check();
    });
  });
});
