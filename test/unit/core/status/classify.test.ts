import { Interface } from 'ethers';
import type { Token } from '../../../../src/core/entities';
import {
  chainNotConnected, chainStoppedAnswering, classifyTransfer, notFound, notMined,
  type Settled, type StatusContext, type TransferFacts, type TransferStep,
} from '../../../../src/core/status/classify';
import type {
  ContractEvents, DepositEvent, MinedTransaction, RefundEvent, ReleaseEvent, StatusChain, SwapEvent, TransactionCost,
} from '../../../../src/core/status/ports';
import type { TransferStatus } from '../../../../src/core/status/transferStatus';

// ------------------------------------------------------------------ a tiny hand-made world
//   chain 1: source, 3 confirmations, bridge endpoint;   chain 10: destination, bridge endpoint;
//   chain 56: connected, no bridge endpoint;             chain 137: not connected.

const CHAINS: Record<number, StatusChain> = {
  1: { chainId: 1, confirmations: 3, hasBridgeEndpoint: true },
  10: { chainId: 10, confirmations: 1, hasBridgeEndpoint: true },
  56: { chainId: 56, confirmations: 5, hasBridgeEndpoint: false },
};

const token = (chainId: number, address: string, symbol: string, decimals: number, coinKey = symbol): Token => ({
  chainId, address, symbol, decimals, name: symbol, coinKey, priceUSD: '1', tags: [],
});

const ZERO = '0x0000000000000000000000000000000000000000';
const USDC_1 = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const WETH_1 = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2';
const USDC_10 = '0x0b2c639c533813f4aa9d7837caf62653d097ff85';
const DAI_10 = '0xda10009cbd5d07dd0cecc66161fc93d7c9000da1';
const UNKNOWN_TOKEN = '0x00000000000000000000000000000000000000ee';

const TOKENS = new Map<string, Token>([
  [`1:${ZERO}`, token(1, ZERO, 'ETH', 18)],
  [`1:${USDC_1}`, token(1, '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', 'USDC', 6)],
  [`1:${WETH_1}`, token(1, '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2', 'WETH', 18)],
  [`10:${ZERO}`, token(10, ZERO, 'ETH', 18)],
  [`10:${USDC_10}`, token(10, '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85', 'USDC', 6)],
  [`10:${DAI_10}`, token(10, '0xDA10009cBd5D07dd0CeCc66161FC93D7c9000da1', 'DAI', 18)],
]);
const tokenOf = (chainId: number, address: string) => TOKENS.get(`${chainId}:${address.toLowerCase()}`)!;

const UNISWAP_ROUTER = '0x00000000000000000000000000000000000000a1';
const CURVE_POOL_10 = '0x00000000000000000000000000000000000000c1';
const UNKNOWN_TARGET = '0x00000000000000000000000000000000000000ff';
const EXCHANGES = new Map<string, string>([[`1:${UNISWAP_ROUTER}`, 'uniswap'], [`10:${CURVE_POOL_10}`, 'curve']]);

const context: StatusContext = {
  chain: (chainId) => CHAINS[chainId],
  token: (chainId, address) => TOKENS.get(`${chainId}:${address.toLowerCase()}`),
  nativeToken: (chainId) => TOKENS.get(`${chainId}:${ZERO}`),
  exchangeOf: (chainId, address) => EXCHANGES.get(`${chainId}:${address.toLowerCase()}`),
};

const SENDER = '0x1111111111111111111111111111111111111111';
const RECEIVER = '0x2222222222222222222222222222222222222222';
const TX_HASH = `0x${'ab'.repeat(32)}`;
const RELEASE_HASH = `0x${'cd'.repeat(32)}`;
const REFUND_HASH = `0x${'ef'.repeat(32)}`;
const TRANSFER_ID = `0x${'12'.repeat(16)}${'0'.repeat(32)}`;

const COST: TransactionCost = { gasPrice: 20_000_000_000n, gasUsed: 150_000n, value: 0n, timestamp: 1_700_000_000 };
const NO_EVENTS: ContractEvents = { swaps: [], deposits: [], releases: [], fees: [] };

function minedTx(over: Omit<Partial<MinedTransaction>, 'events'> & { events?: Partial<ContractEvents> } = {}): MinedTransaction {
  const { events, ...rest } = over;
  return {
    chainId: 1, hash: TX_HASH, blockNumber: 1000, reverted: false, gasUsed: COST.gasUsed,
    from: SENDER, to: '0x00000000000000000000000000000000000000d1', input: '0x', gasLimit: 300_000n,
    cost: COST, callsRouter: true, call: { swapTargets: [] }, confirmations: 10,
    ...rest,
    events: { ...NO_EVENTS, ...events },
  };
}

const swapEvent = (over: Partial<SwapEvent> = {}): SwapEvent => ({
  event: 'LiFiGenericSwapCompleted', transactionId: TRANSFER_ID, integrator: 'acme', receiver: RECEIVER,
  fromToken: USDC_1, toToken: WETH_1, fromAmount: 7_000_000n, toAmount: 2_000_000_000_000_000n,
  ...over,
});

const deposit = (over: Partial<DepositEvent> = {}): DepositEvent => ({
  depositId: 42n, bridge: 'across', transactionId: TRANSFER_ID, token: USDC_1, amount: 1_000_000_000n,
  destinationChainId: 10, receiver: RECEIVER, hasDestinationCall: false,
  ...over,
});

const releaseEvent = (over: Partial<ReleaseEvent> = {}): ReleaseEvent => ({
  fromChainId: 1, depositId: 42n, transactionId: TRANSFER_ID, token: USDC_10, amount: 999_000_000n,
  destinationCall: false, destinationCallSucceeded: false,
  ...over,
});

const RELEASE_COST: TransactionCost = { gasPrice: 1_000_000n, gasUsed: 90_000n, value: 0n, timestamp: 1_700_000_300 };
const released = (event: ReleaseEvent, settlement: Partial<Settled<ReleaseEvent>['settlement']> = {}): Settled<ReleaseEvent> => ({
  txHash: RELEASE_HASH, blockNumber: 555, event,
  settlement: { cost: RELEASE_COST, destinationSwapTargets: [], ...settlement },
});

const statusOf = (step: TransferStep): TransferStatus => {
  if (step.need) throw new Error(`expected a status, got need ${JSON.stringify(step.need, (_, v) => (typeof v === 'bigint' ? `${v}n` : v))}`);
  return step.status;
};
const classify = (facts: TransferFacts, query: { bridge?: string } = {}) => classifyTransfer(facts, query, context);

/** The gas fields of a transaction on chain 1 of COST, worked out by hand: 20 gwei × 150k = 3e15 wei. */
const SOURCE_GAS = {
  chainId: 1, txHash: TX_HASH, block: 1000, gasPrice: 20_000_000_000n, gasUsed: 150_000n,
  gasAmount: 3_000_000_000_000_000n, value: 0n, gasToken: tokenOf(1, ZERO), timestamp: 1_700_000_000,
};

// ------------------------------------------------------------------ same-chain swaps

describe('classifyTransfer: same-chain swap', () => {
  it('LiFiGenericSwapCompleted → DONE COMPLETED with the amounts, tool, receiver, fees and gas read from the events', () => {
    const tx = minedTx({
      call: { swapTargets: [UNKNOWN_TARGET, UNISWAP_ROUTER] },
      events: { swaps: [swapEvent()], fees: [{ token: USDC_1, integratorFee: 1_000n, serviceFee: 0n }] },
    });
    const status = statusOf(classify({ tx }));
    expect(status.status).toBe('DONE');
    expect(status.substatus).toBe('COMPLETED');
    expect(status.transactionId).toBe(TRANSFER_ID);
    // the first swap target the exchanges know gives the tool
    expect(status.tool).toBe('uniswap');
    expect(status.fromAddress).toBe(SENDER);
    expect(status.toAddress).toBe(RECEIVER);
    expect(status.integrator).toBe('acme');
    // 1000 / 7_000_000 = 0.000142857… → 6 decimals, rounded down: 0.000142
    expect(status.fees).toEqual([{ token: tokenOf(1, USDC_1), tokenAddress: USDC_1, integratorFee: 1_000n, serviceFee: 0n, fraction: 0.000142 }]);
    const step = { tool: 'uniswap', fromAmount: 7_000_000n, toAmount: 2_000_000_000_000_000n, fromToken: tokenOf(1, USDC_1), toToken: tokenOf(1, WETH_1) };
    expect(status.sending).toEqual({ ...SOURCE_GAS, amount: 7_000_000n, token: tokenOf(1, USDC_1), includedSteps: [step] });
    // sending and receiving are the same transaction; as on a bridge transfer's DONE, the receiving side lists its
    // own steps (none: they are all the sending transaction's)
    expect(status.receiving).toEqual({ ...SOURCE_GAS, amount: 2_000_000_000_000_000n, token: tokenOf(1, WETH_1), includedSteps: [] });
  });

  it('fee fractions add the integrator and the service fee over the swapped amount', () => {
    const tx = minedTx({
      events: {
        swaps: [swapEvent({ fromAmount: 3_000_000n })],
        fees: [{ token: USDC_1, integratorFee: 7_000n, serviceFee: 2_000n }, { token: UNKNOWN_TOKEN, integratorFee: 1_500_000n, serviceFee: 0n }],
      },
    });
    const fees = statusOf(classify({ tx })).fees!;
    // (7000 + 2000) / 3_000_000 = 0.003; 1_500_000 / 3_000_000 = 0.5; an unknown token is named by its address only
    expect(fees).toEqual([
      { token: tokenOf(1, USDC_1), tokenAddress: USDC_1, integratorFee: 7_000n, serviceFee: 2_000n, fraction: 0.003 },
      { tokenAddress: UNKNOWN_TOKEN, integratorFee: 1_500_000n, serviceFee: 0n, fraction: 0.5 },
    ]);
  });

  it('a zero swapped amount leaves the fee fractions at 0', () => {
    const tx = minedTx({ events: { swaps: [swapEvent({ fromAmount: 0n })], fees: [{ token: USDC_1, integratorFee: 5n, serviceFee: 5n }] } });
    expect(statusOf(classify({ tx })).fees![0].fraction).toBe(0);
  });

  it('LiFiSwappedGeneric (a contract call): the receiver is the sender; an unknown exchange is "router"; unknown tokens by address', () => {
    const tx = minedTx({
      cost: { gasPrice: 1n, gasUsed: 2n, value: 5n }, // no block time
      call: { swapTargets: [UNKNOWN_TARGET] },
      events: { swaps: [swapEvent({ event: 'LiFiSwappedGeneric', integrator: '', receiver: undefined, toToken: UNKNOWN_TOKEN, toAmount: 77n })] },
    });
    const status = statusOf(classify({ tx }));
    expect(status).toMatchObject({ status: 'DONE', substatus: 'COMPLETED', tool: 'router', fromAddress: SENDER, toAddress: SENDER });
    expect(status.receiving).toEqual({ chainId: 1, txHash: TX_HASH, block: 1000, gasPrice: 1n, gasUsed: 2n, gasAmount: 2n, value: 5n, gasToken: tokenOf(1, ZERO), amount: 77n, tokenAddress: UNKNOWN_TOKEN, includedSteps: [] });
    // no integrator named: none in the answer (not an empty one)
    expect(status).not.toHaveProperty('integrator');
    expect(status.sending!.includedSteps).toEqual([{ tool: 'router', fromAmount: 7_000_000n, toAmount: 77n, fromToken: tokenOf(1, USDC_1) }]);
    expect(status.sending).not.toHaveProperty('timestamp');
  });

  it('prefers LiFiGenericSwapCompleted over an earlier LiFiSwappedGeneric', () => {
    const tx = minedTx({
      events: { swaps: [swapEvent({ event: 'LiFiSwappedGeneric', receiver: undefined, fromAmount: 1n }), swapEvent({ fromAmount: 9n })] },
    });
    const status = statusOf(classify({ tx }));
    expect(status.toAddress).toBe(RECEIVER);
    expect(status.sending!.amount).toBe(9n);
  });
});

// ------------------------------------------------------------------ reverted transactions

const errors = new Interface([
  'error InsufficientAllowance(address owner, address spender, uint256 allowance, uint256 needed)',
  'error Error(string)',
]);

describe('classifyTransfer: reverted transactions', () => {
  const revertedCall = (over: Partial<MinedTransaction> = {}) => minedTx({
    reverted: true,
    cost: { ...COST, gasUsed: 120_000n },
    gasLimit: 300_000n,
    call: { transactionId: TRANSFER_ID, bridge: 'across', integrator: 'acme', sent: { token: USDC_1, amount: 5_000_000n }, swapTargets: [], receiver: RECEIVER },
    // events of a reverted transaction are ignored
    events: { swaps: [swapEvent()] },
    ...over,
  });

  it('a reverted transaction that does not call the router is INVALID, without a replay', () => {
    const step = classify({ tx: revertedCall({ callsRouter: false }) });
    expect(statusOf(step).status).toBe('INVALID');
    expect(statusOf(step).substatusMessage).toMatch(/not a call of this service's router/);
  });

  it('a reverted router call asks for a replay first', () => {
    expect(classify({ tx: revertedCall() })).toEqual({ need: { kind: 'replay' } });
  });

  it('FAILED INSUFFICIENT_ALLOWANCE from the replay\'s custom error, with the call\'s transfer id, bridge, integrator and sent amount', () => {
    const data = errors.encodeErrorResult('InsufficientAllowance', [SENDER, RECEIVER, 0n, 5_000_000n]);
    const status = statusOf(classify({ tx: revertedCall(), replay: { reverted: true, revert: { data } } }));
    expect(status.status).toBe('FAILED');
    expect(status.substatus).toBe('INSUFFICIENT_ALLOWANCE');
    expect(status.substatusMessage).toMatch(/The contract reported InsufficientAllowance: owner 0x1{40}, spender 0x2{40}, allowance 0, needed 5000000\.$/);
    expect(status.substatusMessage).toContain('5000000');
    expect(status).toMatchObject({ transactionId: TRANSFER_ID, tool: 'across', integrator: 'acme', fromAddress: SENDER, toAddress: RECEIVER });
    expect(status.sending).toEqual({ ...SOURCE_GAS, gasUsed: 120_000n, gasAmount: 2_400_000_000_000_000n, amount: 5_000_000n, token: tokenOf(1, USDC_1) });
    expect(status.receiving).toBeUndefined();
  });

  it('FAILED with the substatus an Error(string) reason names', () => {
    const data = errors.encodeErrorResult('Error', ['ERC20: transfer amount exceeds balance']);
    const status = statusOf(classify({ tx: revertedCall(), replay: { reverted: true, revert: { data } } }));
    expect(status.substatus).toBe('INSUFFICIENT_BALANCE');
    expect(status.substatusMessage).toContain('exceeds balance');
  });

  it('OUT_OF_GAS when all the gas was used, without asking for a replay (and whatever a replay says)', () => {
    const tx = revertedCall({ cost: { ...COST, gasUsed: 300_000n }, gasLimit: 300_000n });
    const status = statusOf(classify({ tx }));
    expect(status.status).toBe('FAILED');
    expect(status.substatus).toBe('OUT_OF_GAS');
    const data = errors.encodeErrorResult('InsufficientAllowance', [SENDER, RECEIVER, 0n, 1n]);
    expect(statusOf(classify({ tx, replay: { reverted: true, revert: { data } } })).substatus).toBe('OUT_OF_GAS');
  });

  it('a replay that succeeds → FAILED UNKNOWN_FAILED_ERROR (the block changed the state)', () => {
    const status = statusOf(classify({ tx: revertedCall(), replay: { reverted: false } }));
    expect(status.status).toBe('FAILED');
    expect(status.substatus).toBe('UNKNOWN_FAILED_ERROR');
    expect(status.substatusMessage).toMatch(/replaying it on the state before its block succeeds/);
  });

  it('a failed same-chain swap names the exchange of its swaps as tool (the router when none is known)', () => {
    const swap = revertedCall({ call: { transactionId: TRANSFER_ID, sent: { token: USDC_1, amount: 5_000_000n }, swapTargets: [UNKNOWN_TARGET, UNISWAP_ROUTER] } });
    expect(statusOf(classify({ tx: swap, replay: { reverted: true, revert: {} } })).tool).toBe('uniswap');
    const unknown = revertedCall({ call: { transactionId: TRANSFER_ID, sent: { token: USDC_1, amount: 5_000_000n }, swapTargets: [UNKNOWN_TARGET] } });
    expect(statusOf(classify({ tx: unknown, replay: { reverted: true, revert: {} } })).tool).toBe('router');
  });

  it('a call without transfer id, bridge or integrator leaves them out; an unknown sent token by address', () => {
    const tx = revertedCall({ call: { sent: { token: UNKNOWN_TOKEN, amount: 3n }, swapTargets: [] } });
    const status = statusOf(classify({ tx, replay: { reverted: true, revert: {} } }));
    expect(status.substatus).toBe('UNKNOWN_FAILED_ERROR');
    expect(status).not.toHaveProperty('transactionId');
    expect(status).not.toHaveProperty('tool');
    expect(status).not.toHaveProperty('integrator');
    expect(status.sending).toMatchObject({ amount: 3n, tokenAddress: UNKNOWN_TOKEN });
    expect(status.sending).not.toHaveProperty('token');
  });
});

describe('classifyTransfer: not a transfer', () => {
  it('a mined transaction without any event of the service is INVALID', () => {
    const status = statusOf(classify({ tx: minedTx({ events: { fees: [{ token: USDC_1, integratorFee: 1n, serviceFee: 1n }] } }) }));
    expect(status.status).toBe('INVALID');
    expect(status.substatusMessage).toBe(`Transaction ${TX_HASH} on chain 1 is not a transfer of this service (no event of its router or bridge endpoint).`);
  });
});

// ------------------------------------------------------------------ bridge transfers, source side

describe('classifyTransfer: a bridge deposit', () => {
  const bridgeTx = (over: Omit<Partial<MinedTransaction>, 'events'> & { events?: Partial<ContractEvents> } = {}) => minedTx({
    call: { transactionId: TRANSFER_ID, bridge: 'across', integrator: 'acme', swapTargets: [] },
    ...over,
    events: { deposits: [deposit()], fees: [{ token: USDC_1, integratorFee: 2_500_000n, serviceFee: 500_000n }], ...over.events },
  });
  const common = {
    transactionId: TRANSFER_ID, tool: 'across', fromAddress: SENDER, toAddress: RECEIVER, integrator: 'acme',
    // (2_500_000 + 500_000) / 1_000_000_000 = 0.003
    fees: [{ token: tokenOf(1, USDC_1), tokenAddress: USDC_1, integratorFee: 2_500_000n, serviceFee: 500_000n, fraction: 0.003 }],
  };
  const sending = { ...SOURCE_GAS, amount: 1_000_000_000n, token: tokenOf(1, USDC_1), includedSteps: [] };

  it('with fewer confirmations than the chain needs → PENDING WAIT_SOURCE_CONFIRMATIONS "n of m"', () => {
    const status = statusOf(classify({ tx: bridgeTx({ confirmations: 2 }) }));
    expect(status).toEqual({
      status: 'PENDING', substatus: 'WAIT_SOURCE_CONFIRMATIONS', ...common, sending, receiving: { chainId: 10 },
      substatusMessage: 'The sending transaction has 2 of 3 confirmations.',
    });
  });

  it('exactly the configured confirmations is enough: the refund is asked for next', () => {
    expect(classify({ tx: bridgeTx({ confirmations: 3 }) })).toEqual({ need: { kind: 'refund', chainId: 1, depositId: 42n, fromBlock: 1000 } });
  });

  it('a source chain without a bridge endpoint → PENDING BRIDGE_NOT_AVAILABLE naming it', () => {
    const status = statusOf(classify({ tx: bridgeTx({ chainId: 56, confirmations: 5 }) }));
    expect(status.status).toBe('PENDING');
    expect(status.substatus).toBe('BRIDGE_NOT_AVAILABLE');
    expect(status.substatusMessage).toBe('No bridge endpoint is configured on chain 56; the bridge\'s side of the transfer cannot be read.');
    expect(status.receiving).toEqual({ chainId: 10 });
  });

  it('a refund found → DONE REFUNDED, received back on the source chain', () => {
    const refund: Settled<RefundEvent> = {
      txHash: REFUND_HASH, blockNumber: 1200, event: { token: USDC_1, amount: 999_500_000n, to: SENDER },
      settlement: { cost: { gasPrice: 10n, gasUsed: 70_000n, value: 0n, timestamp: 1_700_000_900 }, destinationSwapTargets: [] },
    };
    const status = statusOf(classify({ tx: bridgeTx(), refund }));
    expect(status).toEqual({
      status: 'DONE', substatus: 'REFUNDED', ...common, sending,
      substatusMessage: `The bridge could not deliver on chain 10 and refunded 999500000 to ${SENDER} on chain 1.`,
      receiving: {
        chainId: 1, txHash: REFUND_HASH, block: 1200, gasPrice: 10n, gasUsed: 70_000n, gasAmount: 700_000n, value: 0n,
        gasToken: tokenOf(1, ZERO), timestamp: 1_700_000_900, amount: 999_500_000n, token: tokenOf(1, USDC_1),
      },
    });
  });

  it('a refund whose transaction could not be read keeps only its hash and amount', () => {
    const refund: Settled<RefundEvent> = {
      txHash: REFUND_HASH, blockNumber: 1200, event: { token: USDC_1, amount: 5n, to: SENDER }, settlement: { destinationSwapTargets: [] },
    };
    expect(statusOf(classify({ tx: bridgeTx(), refund })).receiving).toEqual({ chainId: 1, txHash: REFUND_HASH, amount: 5n, token: tokenOf(1, USDC_1) });
  });

  it('no refund → the release on the destination chain is asked for', () => {
    expect(classify({ tx: bridgeTx(), refund: null })).toEqual({ need: { kind: 'release', chainId: 10, fromChainId: 1, depositId: 42n, transferId: TRANSFER_ID } });
  });

  it('a destination chain that is not connected → the refund is still asked for, then PENDING CHAIN_NOT_AVAILABLE', () => {
    const tx = bridgeTx({ events: { deposits: [deposit({ destinationChainId: 137 })] } });
    expect(classify({ tx })).toEqual({ need: { kind: 'refund', chainId: 1, depositId: 42n, fromBlock: 1000 } });
    const status = statusOf(classify({ tx, refund: null }));
    expect(status.status).toBe('PENDING');
    expect(status.substatus).toBe('CHAIN_NOT_AVAILABLE');
    expect(status.substatusMessage).toBe('The destination chain 137 is not connected to this instance; the receiving transaction cannot be read.');
    expect(status.receiving).toEqual({ chainId: 137 });
  });

  it('a destination chain without a bridge endpoint → PENDING BRIDGE_NOT_AVAILABLE naming the destination', () => {
    const tx = bridgeTx({ events: { deposits: [deposit({ destinationChainId: 56 })] } });
    const status = statusOf(classify({ tx, refund: null }));
    expect(status.substatus).toBe('BRIDGE_NOT_AVAILABLE');
    expect(status.substatusMessage).toMatch(/on chain 56;/);
  });

  it('no release yet → PENDING WAIT_DESTINATION_TRANSACTION', () => {
    const status = statusOf(classify({ tx: bridgeTx(), refund: null, release: null }));
    expect(status).toEqual({
      status: 'PENDING', substatus: 'WAIT_DESTINATION_TRANSACTION', ...common, sending, receiving: { chainId: 10 },
      substatusMessage: 'The bridge has the funds; waiting for the receiving transaction on chain 10.',
    });
  });

  it('a plain release → DONE COMPLETED: the bridge step joins the sending steps, the receiver gets the bridged token', () => {
    const status = statusOf(classify({ tx: bridgeTx(), refund: null, release: released(releaseEvent()) }));
    const bridgeStep = {
      tool: 'across', fromAmount: 1_000_000_000n, toAmount: 999_000_000n, bridgedAmount: 1_000_000_000n,
      fromToken: tokenOf(1, USDC_1), toToken: tokenOf(10, USDC_10),
    };
    expect(status).toEqual({
      status: 'DONE', substatus: 'COMPLETED', ...common, substatusMessage: 'The transfer is complete.',
      sending: { ...sending, includedSteps: [bridgeStep] },
      receiving: {
        chainId: 10, txHash: RELEASE_HASH, block: 555, gasPrice: 1_000_000n, gasUsed: 90_000n, gasAmount: 90_000_000_000n, value: 0n,
        gasToken: tokenOf(10, ZERO), timestamp: 1_700_000_300, amount: 999_000_000n, token: tokenOf(10, USDC_10), includedSteps: [],
      },
    });
  });

  it('a destination call that succeeded with a completion in another token → DONE COMPLETED with a destination swap step', () => {
    const release = released(releaseEvent({ destinationCall: true, destinationCallSucceeded: true }), {
      completed: { token: DAI_10, amount: 998_700_000_000_000_000_000n },
      destinationSwapTargets: [UNKNOWN_TARGET, CURVE_POOL_10],
    });
    const status = statusOf(classify({ tx: bridgeTx(), refund: null, release }));
    expect(status.substatus).toBe('COMPLETED');
    expect(status.receiving).toMatchObject({ chainId: 10, txHash: RELEASE_HASH, amount: 998_700_000_000_000_000_000n, token: tokenOf(10, DAI_10) });
    expect(status.receiving!.includedSteps).toEqual([{
      tool: 'curve', fromAmount: 999_000_000n, toAmount: 998_700_000_000_000_000_000n, fromToken: tokenOf(10, USDC_10), toToken: tokenOf(10, DAI_10),
    }]);
  });

  it('a destination call whose completion is in the bridged token adds no swap step', () => {
    const release = released(releaseEvent({ destinationCall: true, destinationCallSucceeded: true }), { completed: { token: USDC_10.toUpperCase().replace('0X', '0x'), amount: 998_000_000n } });
    const status = statusOf(classify({ tx: bridgeTx(), refund: null, release }));
    expect(status.receiving).toMatchObject({ amount: 998_000_000n, token: tokenOf(10, USDC_10), includedSteps: [] });
  });

  it('a destination call that failed → DONE PARTIAL: the bridged token was paid instead', () => {
    const release = released(releaseEvent({ destinationCall: true, destinationCallSucceeded: false }), {
      completed: { token: DAI_10, amount: 1n }, // ignored: the call failed
    });
    const status = statusOf(classify({ tx: bridgeTx(), refund: null, release }));
    expect(status.status).toBe('DONE');
    expect(status.substatus).toBe('PARTIAL');
    expect(status.substatusMessage).toMatch(/destination call failed/);
    expect(status.receiving).toMatchObject({ amount: 999_000_000n, token: tokenOf(10, USDC_10), includedSteps: [] });
  });

  it('a release whose transaction could not be read keeps only its hash and amount', () => {
    const release = released(releaseEvent(), { cost: undefined });
    const status = statusOf(classify({ tx: bridgeTx(), refund: null, release }));
    expect(status.receiving).toEqual({ chainId: 10, txHash: RELEASE_HASH, amount: 999_000_000n, token: tokenOf(10, USDC_10), includedSteps: [] });
  });

  it('source swaps before the deposit become a step of the sent token into the deposited one', () => {
    const tx = bridgeTx({
      call: { transactionId: TRANSFER_ID, bridge: 'across', hasSourceSwaps: true, sent: { token: WETH_1, amount: 310_000_000_000_000_000n }, swapTargets: [UNISWAP_ROUTER] },
    });
    const status = statusOf(classify({ tx, refund: null, release: null }));
    expect(status.sending).toMatchObject({ amount: 310_000_000_000_000_000n, token: tokenOf(1, WETH_1) });
    expect(status.sending!.includedSteps).toEqual([{
      tool: 'uniswap', fromAmount: 310_000_000_000_000_000n, toAmount: 1_000_000_000n, fromToken: tokenOf(1, WETH_1), toToken: tokenOf(1, USDC_1),
    }]);
    // no integrator in the call: none in the status; fees over the sent amount: 3_000_000 / 3.1e17 → 0
    expect(status).not.toHaveProperty('integrator');
    expect(status.fees![0].fraction).toBe(0);
  });

  it('query.bridge other than the deposit\'s → INVALID; the same bridge goes on', () => {
    const status = statusOf(classify({ tx: bridgeTx() }, { bridge: 'stargate' }));
    expect(status).toEqual({ status: 'INVALID', substatusMessage: `Transaction ${TX_HASH} is a transfer via across, not via stargate.` });
    expect(classify({ tx: bridgeTx() }, { bridge: 'across' }).need).toEqual({ kind: 'refund', chainId: 1, depositId: 42n, fromBlock: 1000 });
  });

  it('the last deposit of a transaction is its main transfer (earlier ones are refuel legs)', () => {
    const tx = bridgeTx({
      events: { deposits: [deposit({ depositId: 7n, bridge: 'relay', token: ZERO, amount: 1n }), deposit({ depositId: 8n, bridge: 'stargate' })] },
    });
    expect(classify({ tx }).need).toEqual({ kind: 'refund', chainId: 1, depositId: 8n, fromBlock: 1000 });
    expect(classify({ tx, refund: null }).need).toEqual({ kind: 'release', chainId: 10, fromChainId: 1, depositId: 8n, transferId: TRANSFER_ID });
    expect(statusOf(classify({ tx, refund: null, release: null })).tool).toBe('stargate');
    expect(statusOf(classify({ tx }, { bridge: 'relay' })).status).toBe('INVALID');
  });
});

// ------------------------------------------------------------------ receiving transactions

describe('classifyTransfer: a receiving transaction (a release without a deposit)', () => {
  const receivingTx = (release: ReleaseEvent) => minedTx({ chainId: 10, hash: RELEASE_HASH, events: { releases: [release] } });

  it('asks for the source chain\'s deposit', () => {
    expect(classify({ tx: receivingTx(releaseEvent()) })).toEqual({ need: { kind: 'sourceDeposit', chainId: 1, depositId: 42n, transferId: TRANSFER_ID } });
  });

  it('a source chain that is not connected → PENDING CHAIN_NOT_AVAILABLE', () => {
    const status = statusOf(classify({ tx: receivingTx(releaseEvent({ fromChainId: 137 })) }));
    expect(status).toEqual({
      status: 'PENDING', substatus: 'CHAIN_NOT_AVAILABLE', transactionId: TRANSFER_ID,
      substatusMessage: 'This is the receiving transaction of a transfer from chain 137, which is not connected to this instance.',
      receiving: { chainId: 10, txHash: RELEASE_HASH },
    });
  });

  it('a source chain without a bridge endpoint is treated as not connected', () => {
    expect(statusOf(classify({ tx: receivingTx(releaseEvent({ fromChainId: 56 })) })).substatus).toBe('CHAIN_NOT_AVAILABLE');
  });

  it('a deposit the source endpoint does not know → INVALID', () => {
    const status = statusOf(classify({ tx: receivingTx(releaseEvent()), unknownDeposit: true }));
    expect(status).toEqual({
      status: 'INVALID',
      substatusMessage: `Transaction ${RELEASE_HASH} releases deposit 42 of chain 1, which that chain's bridge endpoint does not know.`,
    });
  });
});

// ------------------------------------------------------------------ helpers

describe('status helpers', () => {
  it('notFound without unavailable chains → NOT_FOUND', () => {
    expect(notFound([])).toEqual({ status: 'NOT_FOUND', substatusMessage: 'No transaction or transfer with this reference on the connected chains (it may not be mined yet).' });
  });

  it('notFound with unavailable chains → PENDING CHAIN_NOT_AVAILABLE naming them in ascending order (input untouched)', () => {
    const unavailable = [137, 10, 42161];
    const status = notFound(unavailable);
    expect(status.status).toBe('PENDING');
    expect(status.substatus).toBe('CHAIN_NOT_AVAILABLE');
    expect(status.substatusMessage).toBe('Not found on the chains that answered; chain 10, 137, 42161 did not answer, ask again later.');
    expect(unavailable).toEqual([137, 10, 42161]);
  });

  it('notMined → PENDING WAIT_SOURCE_CONFIRMATIONS with the sender and the value', () => {
    expect(notMined(10, TX_HASH, { from: SENDER, value: 12n })).toEqual({
      status: 'PENDING', substatus: 'WAIT_SOURCE_CONFIRMATIONS', substatusMessage: 'The transaction is known but not mined yet.',
      fromAddress: SENDER, sending: { chainId: 10, txHash: TX_HASH, value: 12n },
    });
  });

  it('chainNotConnected names the chain', () => {
    expect(chainNotConnected(137)).toEqual({
      status: 'PENDING', substatus: 'CHAIN_NOT_AVAILABLE', substatusMessage: 'Chain 137 is not connected to this instance; its transactions cannot be read.',
    });
  });

  it('chainStoppedAnswering keeps the reason', () => {
    expect(chainStoppedAnswering('chain 10 did not answer: timeout')).toEqual({
      status: 'PENDING', substatus: 'CHAIN_NOT_AVAILABLE', substatusMessage: 'chain 10 did not answer: timeout; ask again later.',
    });
  });
});
