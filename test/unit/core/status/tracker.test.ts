import { Interface } from 'ethers';
import { DEFAULT_DATA_DIR } from '../../../../src/config';
import { loadCatalog } from '../../../../src/files/catalog';
import type {
  ContractEvents, DepositEvent, Emitted, MinedTransaction, PendingTransaction, Receipt, RefundEvent, ReleaseEvent, Replay,
  Settlement, StatusChain, TransferReads,
} from '../../../../src/core/status/ports';
import { TransferTracker } from '../../../../src/core/status/tracker';
import { transactionIdOf } from '../../../../src/core/transactions/ids';

const catalog = loadCatalog(DEFAULT_DATA_DIR);
const tokenOf = (chainId: number, symbol: string) => catalog.findToken(chainId, symbol)!;
const addressOf = (chainId: number, symbol: string) => tokenOf(chainId, symbol).address.toLowerCase();

// ------------------------------------------------------------------ a fake of the chain reads, over in-memory data

const key = (...parts: unknown[]) => parts.map(String).join(':');

/** TransferReads over hand-made transactions; logs every read; a chain in `failing` throws on every read. */
class FakeReads implements TransferReads {
  readonly log: string[] = [];
  readonly failing = new Set<number>();
  /** Reads (method names) that throw whatever the chain. */
  readonly failingReads = new Set<string>();
  private readonly mined = new Map<string, MinedTransaction>();
  private readonly extraReceipts = new Map<string, Receipt>();
  private readonly pendings = new Map<string, PendingTransaction>();
  private readonly transfers = new Map<string, string>();
  private readonly deposits = new Map<string, string>();
  private readonly refunds = new Map<string, Emitted<RefundEvent>>();
  private readonly releases = new Map<string, Emitted<ReleaseEvent>>();
  private readonly settlements = new Map<string, Settlement>();
  private readonly replays = new Map<string, Replay>();

  constructor(readonly chains: readonly StatusChain[]) {}

  addMined(tx: MinedTransaction): this {
    this.mined.set(key(tx.chainId, tx.hash), tx);
    return this;
  }
  addReceipt(receipt: Receipt): this {
    this.extraReceipts.set(key(receipt.chainId, receipt.hash), receipt);
    return this;
  }
  addPending(chainId: number, hash: string, tx: PendingTransaction): this {
    this.pendings.set(key(chainId, hash), tx);
    return this;
  }
  addTransfer(chainId: number, transferId: string, hash: string): this {
    this.transfers.set(key(chainId, transferId), hash);
    return this;
  }
  addDeposit(chainId: number, depositId: bigint, hash: string): this {
    this.deposits.set(key(chainId, depositId), hash);
    return this;
  }
  addRefund(chainId: number, depositId: bigint, refund: Emitted<RefundEvent>): this {
    this.refunds.set(key(chainId, depositId), refund);
    return this;
  }
  addRelease(chainId: number, fromChainId: number, depositId: bigint, release: Emitted<ReleaseEvent>): this {
    this.releases.set(key(chainId, fromChainId, depositId), release);
    return this;
  }
  addSettlement(chainId: number, hash: string, settlement: Settlement): this {
    this.settlements.set(key(chainId, hash), settlement);
    return this;
  }
  addReplay(chainId: number, hash: string, replay: Replay): this {
    this.replays.set(key(chainId, hash), replay);
    return this;
  }

  private touch(method: string, chainId: number, ...args: unknown[]): void {
    this.log.push([method, chainId, ...args].map(String).join(' '));
    if (this.failing.has(chainId) || this.failingReads.has(method)) throw new Error(`connection refused`);
  }

  async receipt(chainId: number, hash: string): Promise<Receipt | null> {
    this.touch('receipt', chainId, hash);
    return this.mined.get(key(chainId, hash)) ?? this.extraReceipts.get(key(chainId, hash)) ?? null;
  }
  async transaction(receipt: Receipt): Promise<MinedTransaction> {
    this.touch('transaction', receipt.chainId, receipt.hash);
    const tx = this.mined.get(key(receipt.chainId, receipt.hash));
    if (!tx) throw new Error('no body');
    return tx;
  }
  async pending(chainId: number, hash: string): Promise<PendingTransaction | null> {
    this.touch('pending', chainId, hash);
    return this.pendings.get(key(chainId, hash)) ?? null;
  }
  async transferTransaction(chainId: number, transferId: string): Promise<string | null> {
    this.touch('transferTransaction', chainId, transferId);
    return this.transfers.get(key(chainId, transferId)) ?? null;
  }
  async depositTransaction(chainId: number, depositId: bigint): Promise<string | null> {
    this.touch('depositTransaction', chainId, depositId);
    return this.deposits.get(key(chainId, depositId)) ?? null;
  }
  async refund(chainId: number, depositId: bigint, fromBlock: number): Promise<Emitted<RefundEvent> | null> {
    this.touch('refund', chainId, depositId, fromBlock);
    return this.refunds.get(key(chainId, depositId)) ?? null;
  }
  async release(chainId: number, fromChainId: number, depositId: bigint): Promise<Emitted<ReleaseEvent> | null> {
    this.touch('release', chainId, fromChainId, depositId);
    return this.releases.get(key(chainId, fromChainId, depositId)) ?? null;
  }
  async releaseOfTransfer(chainId: number, fromChainId: number, transferId: string): Promise<Emitted<ReleaseEvent> | null> {
    this.touch('releaseOfTransfer', chainId, fromChainId, transferId);
    return [...this.releases.entries()].find(([k, r]) => k.startsWith(key(chainId, fromChainId, '')) && r.event.transactionId === transferId)?.[1] ?? null;
  }
  async settlement(chainId: number, hash: string, blockNumber: number): Promise<Settlement> {
    this.touch('settlement', chainId, hash, blockNumber);
    return this.settlements.get(key(chainId, hash)) ?? { destinationSwapTargets: [] };
  }
  async replay(transaction: MinedTransaction): Promise<Replay> {
    this.log.push(`replay ${transaction.chainId} ${transaction.hash}`); // never throws
    return this.replays.get(key(transaction.chainId, transaction.hash)) ?? { reverted: true, revert: {} };
  }
}

// ------------------------------------------------------------------ hand-made transactions

const CHAINS: StatusChain[] = [
  { chainId: 1, confirmations: 3, hasBridgeEndpoint: true },
  { chainId: 10, confirmations: 1, hasBridgeEndpoint: true },
  { chainId: 56, confirmations: 2, hasBridgeEndpoint: true },
];

const SENDER = '0x1111111111111111111111111111111111111111';
const RECEIVER = '0x2222222222222222222222222222222222222222';
const hashOf = (byte: string) => `0x${byte.repeat(32)}`;
const SWAP_HASH = hashOf('a1');
const SOURCE_HASH = hashOf('b2');
const RELEASE_HASH = hashOf('c3');
const REFUND_HASH = hashOf('d4');
const UNKNOWN_HASH = hashOf('e5');
const STEP_ID = '0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0';
/** transactionIdOf(STEP_ID), by hand: the UUID's 32 hex digits followed by 32 zeros. */
const STEP_TRANSFER_ID = '0x0f1e2d3c4b5a49688776a5b4c3d2e1f000000000000000000000000000000000';
const TRANSFER_ID = hashOf('7f');
const UNISWAP_ROUTER = '0x00000000000000000000000000000000000000a1';
const CURVE_POOL_10 = '0x00000000000000000000000000000000000000c1';
const exchangeOf = (chainId: number, address: string) =>
  chainId === 1 && address === UNISWAP_ROUTER ? 'uniswap' : chainId === 10 && address === CURVE_POOL_10 ? 'curve' : undefined;

const EMPTY: ContractEvents = { swaps: [], deposits: [], releases: [], fees: [] };

function minedTx(over: Omit<Partial<MinedTransaction>, 'events'> & { events?: Partial<ContractEvents> }): MinedTransaction {
  const { events, ...rest } = over;
  return {
    chainId: 1, hash: SWAP_HASH, blockNumber: 100, reverted: false, gasUsed: 100_000n,
    from: SENDER, to: '0x00000000000000000000000000000000000000d1', input: '0x', gasLimit: 500_000n,
    cost: { gasPrice: 10n, gasUsed: 100_000n, value: 0n, timestamp: 1_700_000_000 },
    callsRouter: true, call: { swapTargets: [UNISWAP_ROUTER] }, confirmations: 20,
    ...rest,
    events: { ...EMPTY, ...events },
  };
}

/** A same-chain USDC → WETH swap on `chainId`. */
const swapTx = (chainId: number, hash = SWAP_HASH, transactionId = TRANSFER_ID) => minedTx({
  chainId, hash,
  events: {
    swaps: [{
      event: 'LiFiGenericSwapCompleted', transactionId, integrator: 'acme', receiver: RECEIVER,
      fromToken: addressOf(chainId, 'USDC'), toToken: addressOf(chainId, 'WETH'), fromAmount: 3_250_000_000n, toAmount: 990_000_000_000_000_000n,
    }],
  },
});

const DEPOSIT: DepositEvent = {
  depositId: 42n, bridge: 'across', transactionId: TRANSFER_ID, token: addressOf(1, 'USDC'), amount: 1_000_000_000n,
  destinationChainId: 10, receiver: RECEIVER, hasDestinationCall: true,
};
const sourceTx = (over: Partial<MinedTransaction> = {}) => minedTx({
  hash: SOURCE_HASH, blockNumber: 500, call: { transactionId: TRANSFER_ID, bridge: 'across', integrator: 'acme', swapTargets: [] },
  events: { deposits: [DEPOSIT] }, ...over,
});
const RELEASE: Emitted<ReleaseEvent> = {
  txHash: RELEASE_HASH, blockNumber: 900,
  event: {
    fromChainId: 1, depositId: 42n, transactionId: TRANSFER_ID, token: addressOf(10, 'USDC'), amount: 999_000_000n,
    destinationCall: true, destinationCallSucceeded: true,
  },
};
const receivingTx = () => minedTx({ chainId: 10, hash: RELEASE_HASH, blockNumber: 900, events: { releases: [RELEASE.event] } });
const SETTLEMENT: Settlement = {
  cost: { gasPrice: 2n, gasUsed: 80_000n, value: 0n, timestamp: 1_700_000_600 },
  completed: { token: addressOf(10, 'DAI'), amount: 998_000_000_000_000_000_000n },
  destinationSwapTargets: [CURVE_POOL_10],
};

/** A bridge transfer 1 → 10: deposit, no refund, a release with a destination swap into DAI. */
const bridgeWorld = () => new FakeReads(CHAINS)
  .addMined(sourceTx())
  .addMined(receivingTx())
  .addDeposit(1, 42n, SOURCE_HASH)
  .addRelease(10, 1, 42n, RELEASE)
  .addSettlement(10, RELEASE_HASH, SETTLEMENT);

const tracker = (reads: FakeReads | undefined) => new TransferTracker(reads, catalog, { exchangeOf });

// ------------------------------------------------------------------ tests

describe('TransferTracker: before any read', () => {
  it('without chain reads (chain mode off) every reference is NOT_FOUND "not connected"', async () => {
    const status = await tracker(undefined).status({ ref: SWAP_HASH });
    expect(status.status).toBe('NOT_FOUND');
    expect(status.substatusMessage).toMatch(/not connected to any chain/);
    const none = new FakeReads([]);
    expect((await tracker(none).status({ ref: SWAP_HASH })).substatusMessage).toMatch(/not connected/);
    expect(none.log).toEqual([]);
  });

  it('a reference that is neither a hash nor a UUID → NOT_FOUND without reading anything', async () => {
    const reads = new FakeReads(CHAINS);
    const status = await tracker(reads).status({ ref: '0x1234' });
    expect(status.status).toBe('NOT_FOUND');
    expect(status.substatusMessage).toMatch(/Only EVM and Solana transfers are tracked/);
    expect(reads.log).toEqual([]);
  });

  it('a fromChainId or toChainId that is not connected → PENDING CHAIN_NOT_AVAILABLE naming it', async () => {
    const reads = new FakeReads(CHAINS).addMined(swapTx(1));
    for (const query of [{ fromChainId: 137 }, { fromChainId: 1, toChainId: 137 }]) {
      const status = await tracker(reads).status({ ref: SWAP_HASH, ...query });
      expect(status).toEqual({ status: 'PENDING', substatus: 'CHAIN_NOT_AVAILABLE', substatusMessage: 'Chain 137 is not connected to this instance; its transactions cannot be read.' });
    }
    expect(reads.log).toEqual([]);
  });
});

describe('TransferTracker: finding the transaction', () => {
  it('reads the named chains first, and the others only when those do not know the hash', async () => {
    const reads = new FakeReads(CHAINS).addMined(swapTx(56));
    const status = await tracker(reads).status({ ref: SWAP_HASH, fromChainId: 10 });
    expect(status.status).toBe('DONE');
    expect(reads.log).toEqual([`receipt 10 ${SWAP_HASH}`, `receipt 1 ${SWAP_HASH}`, `receipt 56 ${SWAP_HASH}`, `transaction 56 ${SWAP_HASH}`]);
  });

  it('a hash found on a named chain reads no other chain', async () => {
    const reads = new FakeReads(CHAINS).addMined(swapTx(10));
    const status = await tracker(reads).status({ ref: SWAP_HASH, fromChainId: 56, toChainId: 10 });
    expect(status).toMatchObject({ status: 'DONE', substatus: 'COMPLETED', tool: 'router' });
    expect(reads.log).toEqual([`receipt 56 ${SWAP_HASH}`, `receipt 10 ${SWAP_HASH}`, `transaction 10 ${SWAP_HASH}`]);
  });

  it('without named chains all are read at once; the hash is lower-cased; tokens are the catalog\'s', async () => {
    const reads = new FakeReads(CHAINS).addMined(swapTx(1));
    const status = await tracker(reads).status({ ref: SWAP_HASH.toUpperCase().replace('0X', '0x') });
    expect(reads.log.slice(0, 3)).toEqual([`receipt 1 ${SWAP_HASH}`, `receipt 10 ${SWAP_HASH}`, `receipt 56 ${SWAP_HASH}`]);
    expect(status).toMatchObject({ status: 'DONE', substatus: 'COMPLETED', transactionId: TRANSFER_ID, tool: 'uniswap', toAddress: RECEIVER });
    expect(status.sending!.token).toBe(tokenOf(1, 'USDC'));
    expect(status.receiving!.token).toBe(tokenOf(1, 'WETH'));
    expect(status.sending!.gasToken).toBe(catalog.getChain(1)!.nativeToken);
    // 10 wei × 100_000 gas
    expect(status.sending!.gasAmount).toBe(1_000_000n);
  });

  it('a hash known but not mined yet → PENDING WAIT_SOURCE_CONFIRMATIONS, and it is not cached', async () => {
    const reads = new FakeReads(CHAINS).addPending(10, UNKNOWN_HASH, { from: SENDER, value: 7n });
    const t = tracker(reads);
    const status = await t.status({ ref: UNKNOWN_HASH });
    expect(status).toEqual({
      status: 'PENDING', substatus: 'WAIT_SOURCE_CONFIRMATIONS', substatusMessage: 'The transaction is known but not mined yet.',
      fromAddress: SENDER, sending: { chainId: 10, txHash: UNKNOWN_HASH, value: 7n },
    });
    const reads1 = reads.log.length;
    expect(reads.log).toContain(`pending 10 ${UNKNOWN_HASH}`);
    await t.status({ ref: UNKNOWN_HASH });
    expect(reads.log.length).toBe(2 * reads1);
  });

  it('a step id (UUID) is looked up by its transfer id, transactionIdOf(stepId)', async () => {
    expect(transactionIdOf(STEP_ID)).toBe(STEP_TRANSFER_ID);
    const reads = new FakeReads(CHAINS).addMined(swapTx(10, SWAP_HASH, STEP_TRANSFER_ID)).addTransfer(10, STEP_TRANSFER_ID, SWAP_HASH);
    const status = await tracker(reads).status({ ref: STEP_ID.toUpperCase() });
    expect(status).toMatchObject({ status: 'DONE', transactionId: STEP_TRANSFER_ID });
    expect(reads.log).toEqual([
      `transferTransaction 1 ${STEP_TRANSFER_ID}`, `transferTransaction 10 ${STEP_TRANSFER_ID}`, `transferTransaction 56 ${STEP_TRANSFER_ID}`,
      `receipt 10 ${SWAP_HASH}`, `transaction 10 ${SWAP_HASH}`,
    ]);
  });

  it('a transfer id (0x + 64 hex) that is no transaction hash is looked up as a transfer id after the hash reads', async () => {
    const reads = new FakeReads(CHAINS).addMined(swapTx(1)).addTransfer(1, TRANSFER_ID, SWAP_HASH);
    const status = await tracker(reads).status({ ref: TRANSFER_ID });
    expect(status).toMatchObject({ status: 'DONE', transactionId: TRANSFER_ID });
    expect(reads.log.filter((l) => l.startsWith('receipt'))).toEqual([
      `receipt 1 ${TRANSFER_ID}`, `receipt 10 ${TRANSFER_ID}`, `receipt 56 ${TRANSFER_ID}`, `receipt 1 ${SWAP_HASH}`,
    ]);
    expect(reads.log.filter((l) => l.startsWith('pending'))).toHaveLength(3);
  });

  it('unknown everywhere → NOT_FOUND', async () => {
    const status = await tracker(new FakeReads(CHAINS)).status({ ref: UNKNOWN_HASH });
    expect(status.status).toBe('NOT_FOUND');
  });

  it('a chain whose reads throw → PENDING CHAIN_NOT_AVAILABLE naming it, never a throw', async () => {
    const reads = new FakeReads(CHAINS);
    reads.failing.add(10);
    const status = await tracker(reads).status({ ref: UNKNOWN_HASH });
    expect(status).toEqual({
      status: 'PENDING', substatus: 'CHAIN_NOT_AVAILABLE',
      substatusMessage: 'Not found on the chains that answered; chain 10 did not answer, ask again later.',
    });
  });

  it('a chain that does not answer does not hide a transaction another chain has', async () => {
    const reads = new FakeReads(CHAINS).addMined(swapTx(1));
    reads.failing.add(56);
    expect((await tracker(reads).status({ ref: SWAP_HASH })).status).toBe('DONE');
  });

  it('a receipt whose body cannot be read → PENDING CHAIN_NOT_AVAILABLE with the chain\'s error', async () => {
    const reads = new FakeReads(CHAINS).addMined(swapTx(1));
    reads.failingReads.add('transaction');
    const status = await tracker(reads).status({ ref: SWAP_HASH });
    expect(status).toEqual({ status: 'PENDING', substatus: 'CHAIN_NOT_AVAILABLE', substatusMessage: 'chain 1 did not answer: connection refused; ask again later.' });
  });
});

describe('TransferTracker: the cache of final answers', () => {
  it('a DONE answer is cached: asking again reads nothing (any case of the reference)', async () => {
    const reads = new FakeReads(CHAINS).addMined(swapTx(1));
    const t = tracker(reads);
    const first = await t.status({ ref: SWAP_HASH });
    expect(first.status).toBe('DONE');
    const count = reads.log.length;
    expect(count).toBeGreaterThan(0);
    expect(await t.status({ ref: SWAP_HASH })).toBe(first);
    expect(await t.status({ ref: SWAP_HASH.toUpperCase().replace('0X', '0x') })).toBe(first);
    expect(reads.log.length).toBe(count);
    // the bridge asked for is part of the key
    await t.status({ ref: SWAP_HASH, bridge: 'across' });
    expect(reads.log.length).toBeGreaterThan(count);
  });

  it('INVALID and FAILED answers are cached too', async () => {
    const reads = new FakeReads(CHAINS)
      .addMined(minedTx({ hash: UNKNOWN_HASH }))
      .addMined(minedTx({ hash: SWAP_HASH, reverted: true }));
    const t = tracker(reads);
    expect((await t.status({ ref: UNKNOWN_HASH })).status).toBe('INVALID');
    expect((await t.status({ ref: SWAP_HASH })).status).toBe('FAILED');
    const count = reads.log.length;
    await t.status({ ref: UNKNOWN_HASH });
    await t.status({ ref: SWAP_HASH });
    expect(reads.log.length).toBe(count);
  });

  it('a PENDING bridge transfer is not cached: it is read again, and DONE once the release is there', async () => {
    const reads = new FakeReads(CHAINS).addMined(sourceTx());
    const t = tracker(reads);
    const pending = await t.status({ ref: SOURCE_HASH, fromChainId: 1 });
    expect(pending.substatus).toBe('WAIT_DESTINATION_TRANSACTION');
    const count = reads.log.length;
    reads.addRelease(10, 1, 42n, RELEASE).addSettlement(10, RELEASE_HASH, SETTLEMENT);
    const done = await t.status({ ref: SOURCE_HASH, fromChainId: 1 });
    expect(reads.log.length).toBeGreaterThan(count);
    expect(done.status).toBe('DONE');
  });
});

describe('TransferTracker: following a transfer through the reads the classification asks for', () => {
  it('a bridge transfer from its sending hash: refund → release → settlement → DONE COMPLETED', async () => {
    const reads = bridgeWorld();
    const status = await tracker(reads).status({ ref: SOURCE_HASH, fromChainId: 1 });
    expect(reads.log).toEqual([
      `receipt 1 ${SOURCE_HASH}`, `transaction 1 ${SOURCE_HASH}`,
      'refund 1 42 500',
      'release 10 1 42', `settlement 10 ${RELEASE_HASH} 900`,
    ]);
    expect(status).toMatchObject({ status: 'DONE', substatus: 'COMPLETED', transactionId: TRANSFER_ID, tool: 'across', toAddress: RECEIVER, integrator: 'acme' });
    expect(status.sending).toMatchObject({ chainId: 1, txHash: SOURCE_HASH, amount: 1_000_000_000n, token: tokenOf(1, 'USDC') });
    expect(status.sending!.includedSteps).toEqual([{
      tool: 'across', fromAmount: 1_000_000_000n, toAmount: 999_000_000n, bridgedAmount: 1_000_000_000n, fromToken: tokenOf(1, 'USDC'), toToken: tokenOf(10, 'USDC'),
    }]);
    expect(status.receiving).toMatchObject({
      chainId: 10, txHash: RELEASE_HASH, block: 900, gasAmount: 160_000n, amount: 998_000_000_000_000_000_000n, token: tokenOf(10, 'DAI'),
    });
    expect(status.receiving!.includedSteps).toEqual([{
      tool: 'curve', fromAmount: 999_000_000n, toAmount: 998_000_000_000_000_000_000n, fromToken: tokenOf(10, 'USDC'), toToken: tokenOf(10, 'DAI'),
    }]);
  });

  it('the same transfer from its receiving hash: read from the source deposit, same answer', async () => {
    const fromSource = await tracker(bridgeWorld()).status({ ref: SOURCE_HASH });
    const reads = bridgeWorld();
    const fromReceiving = await tracker(reads).status({ ref: RELEASE_HASH, toChainId: 10 });
    expect(fromReceiving).toEqual(fromSource);
    expect(reads.log).toEqual([
      `receipt 10 ${RELEASE_HASH}`, `transaction 10 ${RELEASE_HASH}`,
      'depositTransaction 1 42', `receipt 1 ${SOURCE_HASH}`, `transaction 1 ${SOURCE_HASH}`,
      'refund 1 42 500', 'release 10 1 42', `settlement 10 ${RELEASE_HASH} 900`,
    ]);
  });

  it('a receiving hash whose deposit the source chain does not know → INVALID', async () => {
    const reads = new FakeReads(CHAINS).addMined(receivingTx());
    const status = await tracker(reads).status({ ref: RELEASE_HASH });
    expect(status.status).toBe('INVALID');
    expect(status.substatusMessage).toMatch(/releases deposit 42 of chain 1/);
  });

  it('a refund → settlement of the refund → DONE REFUNDED', async () => {
    const reads = new FakeReads(CHAINS).addMined(sourceTx()).addRefund(1, 42n, {
      txHash: REFUND_HASH, blockNumber: 650, event: { token: addressOf(1, 'USDC'), amount: 999_900_000n, to: SENDER },
    }).addSettlement(1, REFUND_HASH, { cost: { gasPrice: 3n, gasUsed: 50_000n, value: 0n }, destinationSwapTargets: [] });
    const status = await tracker(reads).status({ ref: SOURCE_HASH });
    expect(status).toMatchObject({ status: 'DONE', substatus: 'REFUNDED' });
    expect(status.receiving).toMatchObject({ chainId: 1, txHash: REFUND_HASH, block: 650, gasAmount: 150_000n, amount: 999_900_000n, token: tokenOf(1, 'USDC') });
    expect(reads.log.slice(-2)).toEqual(['refund 1 42 500', `settlement 1 ${REFUND_HASH} 650`]);
    expect(reads.log.some((l) => l.startsWith('release'))).toBe(false);
  });

  it('a reverted router call is replayed → FAILED with the replay\'s reason', async () => {
    const data = new Interface(['error Error(string)']).encodeErrorResult('Error', ['UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT']);
    const reads = new FakeReads(CHAINS)
      .addMined(minedTx({ reverted: true, call: { transactionId: TRANSFER_ID, sent: { token: addressOf(1, 'USDC'), amount: 5n }, swapTargets: [] } }))
      .addReplay(1, SWAP_HASH, { reverted: true, revert: { data } });
    const status = await tracker(reads).status({ ref: SWAP_HASH, fromChainId: 1 });
    expect(status).toMatchObject({ status: 'FAILED', substatus: 'SLIPPAGE_EXCEEDED', transactionId: TRANSFER_ID });
    expect(status.sending).toMatchObject({ amount: 5n, token: tokenOf(1, 'USDC') });
    expect(reads.log).toEqual([`receipt 1 ${SWAP_HASH}`, `transaction 1 ${SWAP_HASH}`, `replay 1 ${SWAP_HASH}`]);
  });

  it('a bridge transfer with too few confirmations stops before reading the bridge', async () => {
    const reads = new FakeReads(CHAINS).addMined(sourceTx({ confirmations: 2 }));
    const status = await tracker(reads).status({ ref: SOURCE_HASH, fromChainId: 1 });
    expect(status).toMatchObject({ status: 'PENDING', substatus: 'WAIT_SOURCE_CONFIRMATIONS', substatusMessage: 'The sending transaction has 2 of 3 confirmations.' });
    expect(reads.log).toEqual([`receipt 1 ${SOURCE_HASH}`, `transaction 1 ${SOURCE_HASH}`]);
  });

  it('a destination chain that stops answering while the transfer is read → PENDING CHAIN_NOT_AVAILABLE naming it', async () => {
    const reads = bridgeWorld();
    reads.failing.add(10);
    const status = await tracker(reads).status({ ref: SOURCE_HASH, fromChainId: 1 });
    expect(status).toEqual({ status: 'PENDING', substatus: 'CHAIN_NOT_AVAILABLE', substatusMessage: 'chain 10 did not answer: connection refused; ask again later.' });
  });
});

describe('TransferTracker.gasStatus', () => {
  const GAS_HASH = hashOf('9a');
  const ETH = '0x0000000000000000000000000000000000000000';
  const refuelDeposit: DepositEvent = { ...DEPOSIT, depositId: 5n, token: ETH, amount: 3_000_000_000_000_000n, hasDestinationCall: false };
  const refuelTx = () => minedTx({ hash: GAS_HASH, blockNumber: 300, events: { deposits: [refuelDeposit] } });
  const refuelRelease = (over: Partial<ReleaseEvent> = {}): Emitted<ReleaseEvent> => ({
    txHash: RELEASE_HASH, blockNumber: 950,
    event: { ...RELEASE.event, depositId: 5n, token: ETH, amount: 2_990_000_000_000_000n, destinationCall: false, destinationCallSucceeded: false, ...over },
  });

  it('without chain reads → NOT_FOUND "not connected to any chain"', async () => {
    expect(await tracker(undefined).gasStatus(GAS_HASH)).toEqual({ status: 'NOT_FOUND', message: 'not connected to any chain' });
  });

  it('a refuel of ETH from chain 1 to chain 10, released → DONE with the catalog\'s ETH of chain 10', async () => {
    const reads = new FakeReads(CHAINS).addMined(refuelTx()).addRelease(10, 1, 5n, refuelRelease());
    const status = await tracker(reads).gasStatus(GAS_HASH.toUpperCase().replace('0X', '0x'));
    expect(status).toEqual({
      status: 'DONE',
      sending: { chainId: 1, txHash: GAS_HASH, block: 300, amount: 3_000_000_000_000_000n, token: catalog.getChain(1)!.nativeToken },
      receiving: { chainId: 10, txHash: RELEASE_HASH, block: 950, amount: 2_990_000_000_000_000n, token: catalog.getChain(10)!.nativeToken },
    });
    expect(reads.log).toEqual([
      `receipt 1 ${GAS_HASH}`, `receipt 10 ${GAS_HASH}`, `receipt 56 ${GAS_HASH}`,
      `transaction 1 ${GAS_HASH}`, // its confirmations, before anything on the destination counts
      'release 10 1 5', 'refund 1 5 300',
    ]);
  });

  it('a release that ran a destination call: its receipt\'s completion gives the token and amount', async () => {
    const reads = new FakeReads(CHAINS)
      .addMined(refuelTx())
      .addRelease(10, 1, 5n, refuelRelease({ destinationCall: true, destinationCallSucceeded: true }))
      .addReceipt({ chainId: 10, hash: RELEASE_HASH, blockNumber: 950, reverted: false, gasUsed: 1n, events: { ...EMPTY, completed: { token: addressOf(10, 'WETH'), amount: 2_980_000_000_000_000n } } });
    const status = await tracker(reads).gasStatus(GAS_HASH);
    expect(status.status).toBe('DONE');
    expect(status.receiving).toEqual({ chainId: 10, txHash: RELEASE_HASH, block: 950, amount: 2_980_000_000_000_000n, token: tokenOf(10, 'WETH') });
    expect(reads.log.at(-1)).toBe(`receipt 10 ${RELEASE_HASH}`);
  });

  it('not released yet → PENDING; a chain failing on the release read → PENDING "a chain did not answer"', async () => {
    const reads = new FakeReads(CHAINS).addMined(refuelTx());
    expect(await tracker(reads).gasStatus(GAS_HASH)).toMatchObject({ status: 'PENDING', message: 'waiting for the destination transaction' });
    reads.failingReads.add('release');
    expect(await tracker(reads).gasStatus(GAS_HASH)).toMatchObject({ status: 'PENDING', message: 'a chain did not answer' });
  });

  it('a transaction without refuel → NOT_FOUND', async () => {
    const reads = new FakeReads(CHAINS).addMined(swapTx(1, GAS_HASH));
    expect(await tracker(reads).gasStatus(GAS_HASH)).toEqual({ status: 'NOT_FOUND', message: 'the transaction carries no gas refuel' });
  });

  it('not mined: PENDING on the chain that knows it; NOT_FOUND naming a chain that did not answer; or unknown', async () => {
    const pending = new FakeReads(CHAINS).addPending(56, GAS_HASH, { from: SENDER, value: 0n });
    expect(await tracker(pending).gasStatus(GAS_HASH)).toEqual({ status: 'PENDING', message: 'not mined yet', sending: { chainId: 56, txHash: GAS_HASH } });
    const failing = new FakeReads(CHAINS);
    failing.failing.add(10);
    expect(await tracker(failing).gasStatus(GAS_HASH)).toEqual({ status: 'NOT_FOUND', message: 'chain 10 did not answer' });
    expect(await tracker(new FakeReads(CHAINS)).gasStatus(GAS_HASH)).toEqual({ status: 'NOT_FOUND', message: 'unknown transaction' });
  });
});
