import type { Token } from '../../../../src/core/entities';
import type { StatusContext } from '../../../../src/core/status/classify';
import { classifyGasRefill, GAS_NOT_CONNECTED, gasRefillNotMined, type GasRefillFacts, type GasRefillStep } from '../../../../src/core/status/gasRefill';
import type { DepositEvent, Emitted, Receipt, RefundEvent, ReleaseEvent, StatusChain } from '../../../../src/core/status/ports';
import type { GasRefillStatus } from '../../../../src/core/status/transferStatus';

// chain 1 and chain 10: ETH chains with bridge endpoints; chain 56: BNB chain with an endpoint;
// chain 100: connected without an endpoint; chain 137: not connected.
const CHAINS: Record<number, StatusChain> = {
  1: { chainId: 1, confirmations: 3, hasBridgeEndpoint: true },
  10: { chainId: 10, confirmations: 1, hasBridgeEndpoint: true },
  56: { chainId: 56, confirmations: 1, hasBridgeEndpoint: true },
  100: { chainId: 100, confirmations: 1, hasBridgeEndpoint: false },
};

const ZERO = '0x0000000000000000000000000000000000000000';
const USDC_1 = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const USDC_10 = '0x0b2c639c533813f4aa9d7837caf62653d097ff85';
const WETH_10 = '0x4200000000000000000000000000000000000006';

const token = (chainId: number, address: string, symbol: string, coinKey = symbol): Token => ({
  chainId, address, symbol, decimals: 18, name: symbol, coinKey, priceUSD: '1', tags: [],
});
const TOKENS = new Map<string, Token>([
  [`1:${ZERO}`, token(1, ZERO, 'ETH')],
  [`1:${USDC_1}`, token(1, USDC_1, 'USDC')],
  [`10:${ZERO}`, token(10, ZERO, 'ETH')],
  [`10:${USDC_10}`, token(10, USDC_10, 'USDC')],
  [`10:${WETH_10}`, token(10, WETH_10, 'WETH', 'WETH')],
  [`56:${ZERO}`, token(56, ZERO, 'BNB')],
]);
const tokenOf = (chainId: number, address: string) => TOKENS.get(`${chainId}:${address}`)!;

const context: StatusContext = {
  chain: (chainId) => CHAINS[chainId],
  token: (chainId, address) => TOKENS.get(`${chainId}:${address.toLowerCase()}`),
  nativeToken: (chainId) => TOKENS.get(`${chainId}:${ZERO}`),
  exchangeOf: () => undefined,
};

const TX_HASH = `0x${'a1'.repeat(32)}`;
const RELEASE_HASH = `0x${'b2'.repeat(32)}`;
const REFUND_HASH = `0x${'c3'.repeat(32)}`;
const RECEIVER = '0x2222222222222222222222222222222222222222';

const deposit = (over: Partial<DepositEvent> = {}): DepositEvent => ({
  depositId: 9n, bridge: 'relay', transactionId: `0x${'00'.repeat(32)}`, token: ZERO, amount: 5_000_000_000_000_000n,
  destinationChainId: 10, receiver: RECEIVER, hasDestinationCall: false,
  ...over,
});

const receipt = (deposits: DepositEvent[], over: Partial<Receipt> = {}): Receipt => ({
  chainId: 1, hash: TX_HASH, blockNumber: 2000, reverted: false, gasUsed: 1n,
  events: { swaps: [], deposits, releases: [], fees: [] },
  ...over,
});

const release = (over: Partial<ReleaseEvent> = {}): Emitted<ReleaseEvent> => ({
  txHash: RELEASE_HASH, blockNumber: 777,
  event: {
    fromChainId: 1, depositId: 9n, transactionId: `0x${'00'.repeat(32)}`, token: ZERO, amount: 4_900_000_000_000_000n,
    destinationCall: false, destinationCallSucceeded: false, ...over,
  },
});

const refund: Emitted<RefundEvent> = { txHash: REFUND_HASH, blockNumber: 2100, event: { token: ZERO, amount: 5_000_000_000_000_000n, to: RECEIVER } };

const statusOf = (step: GasRefillStep): GasRefillStatus => {
  if (step.need) throw new Error(`expected a status, got need ${step.need.kind}`);
  return step.status;
};
/** Classified with the sending transaction confirmed (chain 1 needs 3), unless the facts say otherwise. */
const classify = (facts: GasRefillFacts) => classifyGasRefill({ confirmations: 3, ...facts }, context);

/** The sending side of the refuel deposit() of chain 1. */
const SENDING = { chainId: 1, txHash: TX_HASH, block: 2000, amount: 5_000_000_000_000_000n, token: tokenOf(1, ZERO) };
const NEED_SETTLED = { kind: 'settled', chainId: 1, destinationChainId: 10, depositId: 9n, fromBlock: 2000 };

describe('classifyGasRefill: which deposit is the refuel leg', () => {
  it('two deposits: the first one is the refuel (whatever it carries), the last the main transfer', () => {
    const facts = { receipt: receipt([deposit({ depositId: 3n, token: USDC_1, amount: 10n, destinationChainId: 56 }), deposit({ depositId: 4n })]) };
    expect(classify(facts)).toEqual({ need: { kind: 'settled', chainId: 1, destinationChainId: 56, depositId: 3n, fromBlock: 2000 } });
  });

  it('one deposit delivering the destination\'s native coin (ETH → chain 10) is a refuel', () => {
    expect(classify({ receipt: receipt([deposit()]) })).toEqual({ need: NEED_SETTLED });
  });

  it('one deposit of ETH to a BNB chain is not a refuel', () => {
    expect(statusOf(classify({ receipt: receipt([deposit({ destinationChainId: 56 })]) }))).toEqual({ status: 'NOT_FOUND', message: 'the transaction carries no gas refuel' });
  });

  it('one deposit of a token that is not the native coin is not a refuel', () => {
    expect(statusOf(classify({ receipt: receipt([deposit({ token: USDC_1 })]) })).status).toBe('NOT_FOUND');
  });

  it('one deposit with a destination call is not a refuel, even of the native coin', () => {
    expect(statusOf(classify({ receipt: receipt([deposit({ hasDestinationCall: true })]) })).message).toBe('the transaction carries no gas refuel');
  });

  it('no deposit at all: no refuel', () => {
    expect(statusOf(classify({ receipt: receipt([]) })).status).toBe('NOT_FOUND');
  });
});

describe('classifyGasRefill: the refuel\'s progress', () => {
  const refuel = receipt([deposit()]);

  it('a reverted transaction → NOT_FOUND', () => {
    expect(statusOf(classify({ receipt: { ...refuel, reverted: true } }))).toEqual({ status: 'NOT_FOUND', message: 'not a gas refuel (reverted, or no bridge endpoint)' });
  });

  it('a sending chain without a bridge endpoint → NOT_FOUND', () => {
    expect(statusOf(classify({ receipt: { ...refuel, chainId: 100 } })).status).toBe('NOT_FOUND');
  });

  it('a destination chain not connected, or without an endpoint → PENDING with the sending side', () => {
    for (const [destinationChainId, message] of [[137, 'destination chain 137 not connected'], [100, 'no bridge endpoint configured on destination chain 100']] as const) {
      const facts = { receipt: receipt([deposit({ destinationChainId }), deposit({ depositId: 10n })]) };
      expect(statusOf(classify(facts))).toEqual({ status: 'PENDING', message, sending: SENDING });
    }
  });

  it('asks for the sending transaction\'s confirmations first: short of its chain\'s, PENDING whatever happened since (as the transfer\'s own status)', () => {
    expect(classifyGasRefill({ receipt: refuel }, context)).toEqual({ need: { kind: 'confirmations' } });
    const released = { release: release(), refund: null };
    expect(statusOf(classify({ receipt: refuel, confirmations: 2, settled: released }))).toEqual({
      status: 'PENDING', message: 'waiting for the source chain\'s confirmations: 2 of 3', sending: SENDING,
    });
    expect(statusOf(classify({ receipt: refuel, confirmations: 'unavailable' }))).toEqual({ status: 'PENDING', message: 'a chain did not answer', sending: SENDING });
    expect(statusOf(classify({ receipt: refuel, confirmations: 3, settled: released })).status).toBe('DONE');
  });

  it('asks for the release and the refund, then PENDING when a chain did not answer', () => {
    expect(classify({ receipt: refuel })).toEqual({ need: NEED_SETTLED });
    expect(statusOf(classify({ receipt: refuel, settled: 'unavailable' }))).toEqual({ status: 'PENDING', message: 'a chain did not answer', sending: SENDING });
  });

  it('refunded → DONE, received back on the source chain (the refund wins over a release)', () => {
    const expected = {
      status: 'DONE', message: 'refunded on the source chain', sending: SENDING,
      receiving: { chainId: 1, txHash: REFUND_HASH, block: 2100, amount: 5_000_000_000_000_000n, token: tokenOf(1, ZERO) },
    };
    expect(statusOf(classify({ receipt: refuel, settled: { release: null, refund } }))).toEqual(expected);
    expect(statusOf(classify({ receipt: refuel, settled: { release: release(), refund } }))).toEqual(expected);
  });

  it('neither released nor refunded → PENDING waiting for the destination', () => {
    expect(statusOf(classify({ receipt: refuel, settled: { release: null, refund: null } }))).toEqual({
      status: 'PENDING', message: 'waiting for the destination transaction', sending: SENDING,
    });
  });

  it('a plain release → DONE with what was released on the destination chain', () => {
    expect(statusOf(classify({ receipt: refuel, settled: { release: release(), refund: null } }))).toEqual({
      status: 'DONE', sending: SENDING,
      receiving: { chainId: 10, txHash: RELEASE_HASH, block: 777, amount: 4_900_000_000_000_000n, token: tokenOf(10, ZERO) },
    });
  });

  it('a release whose destination call succeeded → the completion is asked for, then DONE with its token and amount', () => {
    const settled = { release: release({ token: USDC_10, amount: 16_000_000n, destinationCall: true, destinationCallSucceeded: true }), refund: null };
    expect(classify({ receipt: refuel, settled })).toEqual({ need: { kind: 'completed', chainId: 10, txHash: RELEASE_HASH } });
    const done = statusOf(classify({ receipt: refuel, settled, completed: { token: WETH_10, amount: 4_800_000_000_000_000n } }));
    expect(done).toEqual({
      status: 'DONE', sending: SENDING,
      receiving: { chainId: 10, txHash: RELEASE_HASH, block: 777, amount: 4_800_000_000_000_000n, token: tokenOf(10, WETH_10) },
    });
    // no completion in the release's receipt: what was released
    expect(statusOf(classify({ receipt: refuel, settled, completed: null })).receiving).toEqual({
      chainId: 10, txHash: RELEASE_HASH, block: 777, amount: 16_000_000n, token: tokenOf(10, USDC_10),
    });
  });

  it('a release whose destination call failed needs no completion: what was released', () => {
    const settled = { release: release({ destinationCall: true, destinationCallSucceeded: false }), refund: null };
    expect(statusOf(classify({ receipt: refuel, settled })).receiving).toMatchObject({ amount: 4_900_000_000_000_000n, token: tokenOf(10, ZERO) });
  });

  it('a refuel token the catalog does not know is left without token', () => {
    const unknown = '0x00000000000000000000000000000000000000ee';
    const step = classify({ receipt: receipt([deposit({ token: unknown, destinationChainId: 10 }), deposit({ depositId: 10n })]), settled: 'unavailable' });
    expect(statusOf(step).sending).toEqual({ chainId: 1, txHash: TX_HASH, block: 2000, amount: 5_000_000_000_000_000n });
  });
});

describe('gasRefillNotMined', () => {
  it('known to a chain but not mined → PENDING on that chain', () => {
    expect(gasRefillNotMined(TX_HASH, 10, [56])).toEqual({ status: 'PENDING', message: 'not mined yet', sending: { chainId: 10, txHash: TX_HASH } });
  });

  it('unknown, some chains not answering → NOT_FOUND naming them', () => {
    expect(gasRefillNotMined(TX_HASH, undefined, [10, 1])).toEqual({ status: 'NOT_FOUND', message: 'chain 1, 10 did not answer' });
  });

  it('unknown everywhere → NOT_FOUND "unknown transaction"', () => {
    expect(gasRefillNotMined(TX_HASH, undefined, [])).toEqual({ status: 'NOT_FOUND', message: 'unknown transaction' });
  });

  it('GAS_NOT_CONNECTED is NOT_FOUND', () => {
    expect(GAS_NOT_CONNECTED).toEqual({ status: 'NOT_FOUND', message: 'not connected to any chain' });
  });
});
