/**
 * Transfer tracking from receipts and events (GET /v1/status, GET /v1/gas/status) on the connected chains.
 *
 * A reference is a transaction hash (sending or receiving), a transfer id (BridgeData.transactionId) or a step id
 * (UUID, whose transfer id is transactionIdOf(stepId)). What the chains tell:
 * - the router's LiFiGenericSwapCompleted (same-chain swap) or LiFiSwappedGeneric (same-chain contract call):
 *   DONE COMPLETED, sending and receiving are the same transaction;
 * - the bridge endpoint's Deposited (with the router's LiFiTransferStarted) on the source chain: the transfer is
 *   under way until the destination endpoint's Released for (source chain, deposit id) → DONE COMPLETED (PARTIAL
 *   when a destination call failed and the bridged token was paid instead), or the source endpoint's Refunded →
 *   DONE REFUNDED. The last Deposited of a transaction is its main transfer; earlier ones (a router call nested
 *   in the swaps) are gas refuel legs;
 * - a reverted transaction of the router: FAILED, with the reason replayed at the parent block (failure.ts);
 * - a transaction without any event of the service's contracts: INVALID; a transfer of another bridge than the
 *   `bridge` asked for: INVALID;
 * - a hash known but not mined yet, or mined with fewer confirmations than configured: PENDING
 *   WAIT_SOURCE_CONFIRMATIONS; a chain that does not answer: PENDING CHAIN_NOT_AVAILABLE (never an error).
 * Final answers (DONE, FAILED, INVALID) never change and are kept in a small cache.
 */
import { Interface, LogDescription, zeroPadValue, toBeHex, type Log, type TransactionReceipt, type TransactionResponse } from 'ethers';
import { LRUCache } from 'lru-cache';
import type { Catalog } from '../catalog/catalog';
import type { Token } from '../catalog/types';
import { ROUTER_ABI, FEE_COLLECTOR_ABI, routerInterface } from '../transactions/abi';
import { transactionIdOf } from '../transactions/ids';
import { diagnoseRevert } from './failure';
import type {
  CollectedFee, GasRefillStatus, IncludedStep, StatusQuery, TrackedChain, TrackedChains, TransferStatus, TransferTransaction,
} from './types';

const DEPOSIT_REQUEST = 'tuple(string bridge, bytes32 transactionId, address token, uint256 amount, uint256 destinationChainId, address receiverOnDestination, address receiver, bytes nonEVMReceiver, uint256 destinationMinAmount, bytes destinationCallData, address refundTo)';

/** The bridge endpoint's events (contracts/router/BridgeEndpoint.sol). */
export const BRIDGE_ENDPOINT_EVENTS = new Interface([
  `event Deposited(uint256 indexed depositId, bytes32 indexed transactionId, ${DEPOSIT_REQUEST} request)`,
  'event Released(uint256 indexed fromChainId, uint256 indexed depositId, bytes32 indexed transactionId, address token, uint256 amount, address paidTo, bool destinationCall, bool destinationCallSucceeded)',
  'event Refunded(uint256 indexed depositId, address token, uint256 amount, address to)',
]);
const ROUTER_EVENTS = new Interface(ROUTER_ABI as string[]);
const FEE_EVENTS = new Interface(FEE_COLLECTOR_ABI as string[]);
const TOPIC = {
  deposited: BRIDGE_ENDPOINT_EVENTS.getEvent('Deposited')!.topicHash,
  released: BRIDGE_ENDPOINT_EVENTS.getEvent('Released')!.topicHash,
  refunded: BRIDGE_ENDPOINT_EVENTS.getEvent('Refunded')!.topicHash,
  swapCompleted: ROUTER_EVENTS.getEvent('LiFiGenericSwapCompleted')!.topicHash,
  swappedGeneric: ROUTER_EVENTS.getEvent('LiFiSwappedGeneric')!.topicHash,
};

const HASH = /^0x[0-9a-fA-F]{64}$/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** Blocks searched backwards from the head for events of a transfer whose start block is not known. */
export const DEFAULT_LOOKBACK_BLOCKS = 100_000;

export interface TrackerOptions {
  /** The exchange (tool key) a swap's callTo belongs to: exchange routers and pools (undefined: unknown). */
  readonly exchangeOf?: (chainId: number, address: string) => string | undefined;
  readonly lookbackBlocks?: number;
}

class ChainUnavailable extends Error {
  constructor(readonly chainId: number, cause: unknown) {
    super(`chain ${chainId} did not answer: ${(cause as Error)?.message ?? String(cause)}`);
  }
}

interface Deposit {
  readonly depositId: bigint;
  readonly bridge: string;
  readonly transactionId: string;
  readonly token: string;
  readonly amount: bigint;
  readonly destinationChainId: number;
  readonly receiver: string;
  readonly hasDestinationCall: boolean;
}

interface Found {
  readonly chain: TrackedChain;
  readonly receipt: TransactionReceipt;
}

export class TransferTracker {
  private readonly final = new LRUCache<string, TransferStatus>({ max: 10_000 });
  private readonly routerIface: Interface;

  constructor(
    private readonly chains: TrackedChains | undefined,
    private readonly catalog: Catalog,
    private readonly options: TrackerOptions = {},
  ) {
    this.routerIface = routerInterface(catalog.listTools().bridges.map((b) => b.key));
  }

  /** The status of a transfer (see the module comment). Never throws for a chain that does not answer. */
  async status(query: StatusQuery): Promise<TransferStatus> {
    const key = `${query.ref.toLowerCase()}|${query.bridge ?? ''}`;
    const cached = this.final.get(key);
    if (cached) return cached;
    const result = await this.lookUp(query);
    if (result.status === 'DONE' || result.status === 'FAILED' || result.status === 'INVALID') this.final.set(key, result);
    return result;
  }

  private async lookUp(query: StatusQuery): Promise<TransferStatus> {
    if (!this.chains || this.chains.chains.length === 0) {
      return { status: 'NOT_FOUND', substatusMessage: 'This instance is not connected to any chain (chain mode is off), so it cannot see transactions.' };
    }
    for (const id of [query.fromChainId, query.toChainId]) {
      if (id !== undefined && !this.chains.chain(id)) {
        return {
          status: 'PENDING', substatus: 'CHAIN_NOT_AVAILABLE',
          substatusMessage: `Chain ${id} is not connected to this instance; its transactions cannot be read.`,
        };
      }
    }
    // fromChain / toChain are searched first; the other connected chains only when those do not know the hash
    const phases = this.phases(query);
    const candidates = phases.flat();
    const unavailable = new Set<number>();

    if (UUID.test(query.ref)) return this.byTransferId(transactionIdOf(query.ref), query, candidates, unavailable);
    if (!HASH.test(query.ref)) {
      return { status: 'NOT_FOUND', substatusMessage: 'Only EVM transfers are tracked: the reference is not an EVM transaction hash, transfer id or step id.' };
    }
    const hash = query.ref.toLowerCase();
    for (const phase of phases) {
      const receipts = await Promise.all(phase.map((chain) => this.try(chain, unavailable, () => chain.provider.getTransactionReceipt(hash))));
      const k = receipts.findIndex((r) => r);
      if (k >= 0) return this.analyse({ chain: phase[k], receipt: receipts[k]! }, query);
    }

    const pending = await Promise.all(candidates.map((chain) => this.try(chain, unavailable, () => chain.provider.getTransaction(hash))));
    const p = pending.findIndex((t) => t);
    if (p >= 0) {
      const tx = pending[p]!;
      return {
        status: 'PENDING', substatus: 'WAIT_SOURCE_CONFIRMATIONS',
        substatusMessage: 'The transaction is known but not mined yet.',
        fromAddress: tx.from,
        sending: { chainId: candidates[p].chainId, txHash: hash, value: tx.value },
      };
    }
    return this.byTransferId(hash, query, candidates, unavailable);
  }

  /** The chains to search, in phases: the ones named by the query, then the others. */
  private phases(query: StatusQuery): TrackedChain[][] {
    const all = this.chains!.chains;
    const named = [...new Set([query.fromChainId, query.toChainId].filter((id): id is number => id !== undefined))].map((id) => this.chains!.chain(id)!);
    if (named.length === 0) return [[...all]];
    const others = all.filter((c) => !named.includes(c));
    return others.length > 0 ? [named, others] : [named];
  }

  /** Runs a read on a chain; a chain that fails is recorded as unavailable and the read answers undefined. */
  private async try<T>(chain: TrackedChain, unavailable: Set<number>, read: () => Promise<T | null>): Promise<T | undefined> {
    try {
      return (await read()) ?? undefined;
    } catch {
      unavailable.add(chain.chainId);
      return undefined;
    }
  }

  private async byTransferId(id: string, query: StatusQuery, candidates: TrackedChain[], unavailable: Set<number>): Promise<TransferStatus> {
    const padded = id.toLowerCase();
    const found = await Promise.all(candidates.map((chain) => this.try(chain, unavailable, async () => {
      const reads: Promise<Log[]>[] = [this.recentLogs(chain, chain.router, [[TOPIC.swapCompleted, TOPIC.swappedGeneric], padded])];
      if (chain.bridgeEndpoint) {
        reads.push(this.recentLogs(chain, chain.bridgeEndpoint, [TOPIC.deposited, null, padded]));
        reads.push(this.recentLogs(chain, chain.bridgeEndpoint, [TOPIC.released, null, null, padded]));
      }
      const [swaps, deposits = [], releases = []] = await Promise.all(reads);
      const log = swaps[0] ?? deposits[0] ?? releases[0];
      return log ? { chain, hash: log.transactionHash } : null;
    })));
    const hit = found.find((f) => f);
    if (hit) {
      const receipt = await this.try(hit.chain, unavailable, () => hit.chain.provider.getTransactionReceipt(hit.hash));
      if (receipt) return this.analyse({ chain: hit.chain, receipt }, query);
    }
    if (unavailable.size > 0) {
      const ids = [...unavailable].sort((a, b) => a - b);
      return {
        status: 'PENDING', substatus: 'CHAIN_NOT_AVAILABLE',
        substatusMessage: `Not found on the chains that answered; chain ${ids.join(', ')} did not answer, ask again later.`,
      };
    }
    return { status: 'NOT_FOUND', substatusMessage: 'No transaction or transfer with this reference on the connected chains (it may not be mined yet).' };
  }

  private async analyse(found: Found, query: StatusQuery): Promise<TransferStatus> {
    try {
      return await this.analyseOrThrow(found, query);
    } catch (error) {
      if (error instanceof ChainUnavailable) {
        return { status: 'PENDING', substatus: 'CHAIN_NOT_AVAILABLE', substatusMessage: `${error.message}; ask again later.` };
      }
      throw error;
    }
  }

  private async read<T>(chain: TrackedChain, read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (error) {
      throw new ChainUnavailable(chain.chainId, error);
    }
  }

  /** Logs of `address` over the lookback window before the chain's head. */
  private async recentLogs(chain: TrackedChain, address: string, topics: (string | string[] | null)[]): Promise<Log[]> {
    const head = await chain.provider.getBlockNumber();
    return chain.provider.getLogs({ address, topics, fromBlock: Math.max(0, head - (this.options.lookbackBlocks ?? DEFAULT_LOOKBACK_BLOCKS)), toBlock: head });
  }

  /** The destination endpoint's Released of a deposit (source chain, deposit id). */
  private releasesOf(destination: TrackedChain, sourceChainId: number, depositId: bigint): Promise<Log[]> {
    return this.recentLogs(destination, destination.bridgeEndpoint!, [TOPIC.released, uint256Topic(BigInt(sourceChainId)), uint256Topic(depositId)]);
  }

  /** The source endpoint's Refunded of a deposit, from the deposit's block on. */
  private refundsOf(source: TrackedChain, depositId: bigint, fromBlock: number): Promise<Log[]> {
    return source.provider.getLogs({ address: source.bridgeEndpoint, fromBlock, toBlock: 'latest', topics: [TOPIC.refunded, uint256Topic(depositId)] });
  }

  private async analyseOrThrow({ chain, receipt }: Found, query: StatusQuery): Promise<TransferStatus> {
    const [tx, block, head] = await this.read(chain, () => Promise.all([
      chain.provider.getTransaction(receipt.hash),
      chain.provider.getBlock(receipt.blockNumber),
      chain.provider.getBlockNumber(),
    ]));
    if (!tx) throw new ChainUnavailable(chain.chainId, new Error(`transaction ${receipt.hash} has a receipt but no body`));
    const base = this.transaction(chain.chainId, receipt, tx, block?.timestamp);
    const router = chain.router.toLowerCase();
    const isOurs = (tx.to ?? '').toLowerCase() === router;

    if (receipt.status === 0) {
      if (!isOurs) return invalid(`Transaction ${receipt.hash} on chain ${chain.chainId} is not a call of this service's router (it reverted anyway).`);
      const call = this.decodeCall(tx.data);
      const outOfGas = receipt.gasUsed >= tx.gasLimit;
      let diagnosis;
      try {
        await chain.provider.call({ from: tx.from, to: tx.to, data: tx.data, value: tx.value, gasLimit: tx.gasLimit, blockTag: receipt.blockNumber - 1 });
        diagnosis = outOfGas ? diagnoseRevert(undefined, true) : { substatus: 'UNKNOWN_FAILED_ERROR' as const, message: 'The transaction reverted, but replaying it on the state before its block succeeds: something else in its block changed the state it depended on.' };
      } catch (error) {
        diagnosis = diagnoseRevert(error, outOfGas);
      }
      return {
        status: 'FAILED', substatus: diagnosis.substatus, substatusMessage: diagnosis.message,
        ...(call.transactionId ? { transactionId: call.transactionId } : {}),
        ...(call.bridge ? { tool: call.bridge } : {}),
        fromAddress: tx.from,
        ...(call.integrator !== undefined ? { integrator: call.integrator } : {}),
        sending: { ...base, ...this.amountOf(chain.chainId, call.sent) },
      };
    }

    const logs = receipt.logs;
    const routerLogs = parseLogs(logs, router, ROUTER_EVENTS);
    const endpointLogs = chain.bridgeEndpoint ? parseLogs(logs, chain.bridgeEndpoint.toLowerCase(), BRIDGE_ENDPOINT_EVENTS) : [];
    const fees = this.fees(chain.chainId, parseLogs(logs, chain.feeCollector.toLowerCase(), FEE_EVENTS));

    const released = endpointLogs.find((l) => l.name === 'Released');
    const deposits = endpointLogs.filter((l) => l.name === 'Deposited').map(depositOf);
    if (deposits.length === 0 && released) return this.fromReceivingSide(chain, receipt, released, query);

    const swap = routerLogs.find((l) => l.name === 'LiFiGenericSwapCompleted') ?? routerLogs.find((l) => l.name === 'LiFiSwappedGeneric');
    if (deposits.length === 0 && swap) {
      const fromToken = swap.args.fromAssetId as string;
      const toToken = swap.args.toAssetId as string;
      const fromAmount = swap.args.fromAmount as bigint;
      const toAmount = swap.args.toAmount as bigint;
      const call = this.decodeCall(tx.data);
      const tool = this.swapTool(chain.chainId, call.swapTargets) ?? 'router';
      const step: IncludedStep = { tool, fromAmount, toAmount, ...tokenField('fromToken', this.token(chain.chainId, fromToken)), ...tokenField('toToken', this.token(chain.chainId, toToken)) };
      const receiver = swap.name === 'LiFiGenericSwapCompleted' ? (swap.args.receiver as string) : tx.from;
      return {
        status: 'DONE', substatus: 'COMPLETED', substatusMessage: 'The transfer is complete.',
        transactionId: (swap.args.transactionId as string).toLowerCase(),
        tool, fromAddress: tx.from, toAddress: receiver, integrator: swap.args.integrator as string, fees: withFractions(fees, fromAmount),
        sending: { ...base, ...this.amountOf(chain.chainId, { token: fromToken, amount: fromAmount }), includedSteps: [step] },
        receiving: { ...base, ...this.amountOf(chain.chainId, { token: toToken, amount: toAmount }) },
      };
    }
    if (deposits.length === 0) {
      return invalid(`Transaction ${receipt.hash} on chain ${chain.chainId} is not a transfer of this service (no event of its router or bridge endpoint).`);
    }
    return this.bridgeTransfer(chain, receipt, tx, base, deposits[deposits.length - 1], fees, head, query);
  }

  private async bridgeTransfer(
    chain: TrackedChain, receipt: TransactionReceipt, tx: TransactionResponse, base: TransferTransaction,
    deposit: Deposit, fees: CollectedFee[], head: number, query: StatusQuery,
  ): Promise<TransferStatus> {
    if (query.bridge && query.bridge !== deposit.bridge) {
      return invalid(`Transaction ${receipt.hash} is a transfer via ${deposit.bridge}, not via ${query.bridge}.`);
    }
    const call = this.decodeCall(tx.data);
    const sentAmount = call.sent ?? { token: deposit.token, amount: deposit.amount };
    const sourceSteps: IncludedStep[] = [];
    if (call.hasSourceSwaps && sentAmount.token.toLowerCase() !== deposit.token.toLowerCase()) {
      sourceSteps.push({
        tool: this.swapTool(chain.chainId, call.swapTargets) ?? 'router', fromAmount: sentAmount.amount, toAmount: deposit.amount,
        ...tokenField('fromToken', this.token(chain.chainId, sentAmount.token)), ...tokenField('toToken', this.token(chain.chainId, deposit.token)),
      });
    }
    const common = {
      transactionId: deposit.transactionId, tool: deposit.bridge, fromAddress: tx.from, toAddress: deposit.receiver,
      ...(call.integrator !== undefined ? { integrator: call.integrator } : {}),
      fees: withFractions(fees, sentAmount.amount),
    };
    const sending: TransferTransaction = { ...base, ...this.amountOf(chain.chainId, sentAmount), includedSteps: sourceSteps };
    const waiting = { chainId: deposit.destinationChainId };
    if (head - receipt.blockNumber + 1 < chain.confirmations) {
      return {
        status: 'PENDING', substatus: 'WAIT_SOURCE_CONFIRMATIONS', ...common, sending, receiving: waiting,
        substatusMessage: `The sending transaction has ${head - receipt.blockNumber + 1} of ${chain.confirmations} confirmations.`,
      };
    }
    if (!chain.bridgeEndpoint) {
      return {
        status: 'PENDING', substatus: 'BRIDGE_NOT_AVAILABLE', ...common, sending, receiving: waiting,
        substatusMessage: `No bridge endpoint is configured on chain ${chain.chainId}; the bridge's side of the transfer cannot be read.`,
      };
    }
    // a refund happens on the source chain, also when the destination chain is out of reach
    const refunds = await this.read(chain, () => this.refundsOf(chain, deposit.depositId, receipt.blockNumber));
    if (refunds.length > 0) {
      const refund = BRIDGE_ENDPOINT_EVENTS.parseLog(refunds[0])!;
      const [refundReceipt, refundTx, refundBlock] = await this.read(chain, () => Promise.all([
        chain.provider.getTransactionReceipt(refunds[0].transactionHash),
        chain.provider.getTransaction(refunds[0].transactionHash),
        chain.provider.getBlock(refunds[0].blockNumber),
      ]));
      return {
        status: 'DONE', substatus: 'REFUNDED', ...common, sending,
        substatusMessage: `The bridge could not deliver on chain ${deposit.destinationChainId} and refunded ${refund.args.amount} to ${refund.args.to} on chain ${chain.chainId}.`,
        receiving: {
          ...(refundReceipt && refundTx ? this.transaction(chain.chainId, refundReceipt, refundTx, refundBlock?.timestamp) : { chainId: chain.chainId, txHash: refunds[0].transactionHash }),
          ...this.amountOf(chain.chainId, { token: refund.args.token as string, amount: refund.args.amount as bigint }),
        },
      };
    }
    const destination = this.chains!.chain(deposit.destinationChainId);
    if (!destination) {
      return {
        status: 'PENDING', substatus: 'CHAIN_NOT_AVAILABLE', ...common, sending, receiving: waiting,
        substatusMessage: `The destination chain ${deposit.destinationChainId} is not connected to this instance; the receiving transaction cannot be read.`,
      };
    }
    if (!destination.bridgeEndpoint) {
      return {
        status: 'PENDING', substatus: 'BRIDGE_NOT_AVAILABLE', ...common, sending, receiving: waiting,
        substatusMessage: `No bridge endpoint is configured on chain ${destination.chainId}; the bridge's side of the transfer cannot be read.`,
      };
    }
    const releases = await this.read(destination, () => this.releasesOf(destination, chain.chainId, deposit.depositId));
    if (releases.length === 0) {
      return {
        status: 'PENDING', substatus: 'WAIT_DESTINATION_TRANSACTION', ...common, sending, receiving: waiting,
        substatusMessage: `The bridge has the funds; waiting for the receiving transaction on chain ${deposit.destinationChainId}.`,
      };
    }
    const received = await this.receiving(destination, releases[0], deposit, chain.chainId);
    return {
      status: 'DONE', substatus: received.partial ? 'PARTIAL' : 'COMPLETED', ...common,
      substatusMessage: received.partial
        ? 'The destination call failed: the bridged token was paid to the receiver instead of the requested token.'
        : 'The transfer is complete.',
      sending: { ...sending, includedSteps: [...sourceSteps, received.bridgeStep] },
      receiving: received.transaction,
    };
  }

  /** The receiving side of a transfer from its Released log on the destination chain. */
  private async receiving(destination: TrackedChain, releaseLog: Log, deposit: Deposit, sourceChainId: number) {
    const release = BRIDGE_ENDPOINT_EVENTS.parseLog(releaseLog)!;
    const [receipt, tx, block] = await this.read(destination, () => Promise.all([
      destination.provider.getTransactionReceipt(releaseLog.transactionHash),
      destination.provider.getTransaction(releaseLog.transactionHash),
      destination.provider.getBlock(releaseLog.blockNumber),
    ]));
    const releasedToken = release.args.token as string;
    const releasedAmount = release.args.amount as bigint;
    const bridgeStep: IncludedStep = {
      tool: deposit.bridge, fromAmount: deposit.amount, toAmount: releasedAmount, bridgedAmount: deposit.amount,
      ...tokenField('fromToken', this.token(sourceChainId, deposit.token)), ...tokenField('toToken', this.token(destination.chainId, releasedToken)),
    };
    const hadCall = release.args.destinationCall as boolean;
    const callOk = release.args.destinationCallSucceeded as boolean;
    let final = { token: releasedToken, amount: releasedAmount };
    const steps: IncludedStep[] = [];
    if (receipt && hadCall && callOk) {
      const completed = parseLogs(receipt.logs, destination.router.toLowerCase(), ROUTER_EVENTS).find((l) => l.name === 'LiFiTransferCompleted');
      if (completed) {
        final = { token: completed.args.receivingAssetId as string, amount: completed.args.amount as bigint };
        if (final.token.toLowerCase() !== releasedToken.toLowerCase()) {
          const call = tx ? this.decodeCall(this.innerDestinationCall(tx.data) ?? '0x') : undefined;
          steps.push({
            tool: (call && this.swapTool(destination.chainId, call.swapTargets)) ?? 'router', fromAmount: releasedAmount, toAmount: final.amount,
            ...tokenField('fromToken', this.token(destination.chainId, releasedToken)), ...tokenField('toToken', this.token(destination.chainId, final.token)),
          });
        }
      }
    }
    const transaction: TransferTransaction = {
      ...(receipt && tx ? this.transaction(destination.chainId, receipt, tx, block?.timestamp) : { chainId: destination.chainId, txHash: releaseLog.transactionHash }),
      ...this.amountOf(destination.chainId, final),
      includedSteps: steps,
    };
    return { transaction, bridgeStep, partial: hadCall && !callOk };
  }

  /** A receiving hash: the transfer is read from its source side (the Deposited of the Released's deposit id). */
  private async fromReceivingSide(chain: TrackedChain, receipt: TransactionReceipt, released: LogDescription, query: StatusQuery): Promise<TransferStatus> {
    const sourceId = Number(released.args.fromChainId as bigint);
    const source = this.chains!.chain(sourceId);
    if (!source?.bridgeEndpoint) {
      return {
        status: 'PENDING', substatus: 'CHAIN_NOT_AVAILABLE', transactionId: (released.args.transactionId as string).toLowerCase(),
        substatusMessage: `This is the receiving transaction of a transfer from chain ${sourceId}, which is not connected to this instance.`,
        receiving: { chainId: chain.chainId, txHash: receipt.hash },
      };
    }
    const logs = await this.read(source, () => this.recentLogs(source, source.bridgeEndpoint!, [TOPIC.deposited, uint256Topic(released.args.depositId as bigint)]));
    if (logs.length === 0) return invalid(`Transaction ${receipt.hash} releases deposit ${released.args.depositId} of chain ${sourceId}, which that chain's bridge endpoint does not know.`);
    const sourceReceipt = await this.read(source, () => source.provider.getTransactionReceipt(logs[0].transactionHash));
    if (!sourceReceipt) throw new ChainUnavailable(sourceId, new Error('deposit transaction without receipt'));
    return this.analyseOrThrow({ chain: source, receipt: sourceReceipt }, query);
  }

  /** The gas refuel legs of a sending transaction (GET /v1/gas/status). */
  async gasStatus(txHash: string): Promise<GasRefillStatus> {
    if (!this.chains || this.chains.chains.length === 0) return { status: 'NOT_FOUND', message: 'not connected to any chain' };
    const hash = txHash.toLowerCase();
    const unavailable = new Set<number>();
    const all = this.chains.chains;
    const receipts = await Promise.all(all.map((c) => this.try(c, unavailable, () => c.provider.getTransactionReceipt(hash))));
    const k = receipts.findIndex((r) => r);
    if (k < 0) {
      const pending = await Promise.all(all.map((c) => this.try(c, unavailable, () => c.provider.getTransaction(hash))));
      const p = pending.findIndex((t) => t);
      if (p >= 0) return { status: 'PENDING', message: 'not mined yet', sending: { chainId: all[p].chainId, txHash: hash } };
      return { status: 'NOT_FOUND', message: unavailable.size > 0 ? `chain ${[...unavailable].join(', ')} did not answer` : 'unknown transaction' };
    }
    const chain = all[k];
    const receipt = receipts[k]!;
    if (receipt.status === 0 || !chain.bridgeEndpoint) return { status: 'NOT_FOUND', message: 'not a gas refuel (reverted, or no bridge endpoint)' };
    const deposits = parseLogs(receipt.logs, chain.bridgeEndpoint.toLowerCase(), BRIDGE_ENDPOINT_EVENTS).filter((l) => l.name === 'Deposited').map(depositOf);
    // The last deposit is the main transfer; those before it are refuel legs (a router call nested in the swaps).
    // A transaction with a single deposit is a refuel when it delivers the destination's native coin.
    let refuel = deposits.length >= 2 ? deposits[0] : undefined;
    if (!refuel && deposits.length === 1 && !deposits[0].hasDestinationCall) {
      const nativeCoin = this.catalog.getChain(deposits[0].destinationChainId)?.nativeToken.coinKey;
      if (nativeCoin && this.token(chain.chainId, deposits[0].token)?.coinKey === nativeCoin) refuel = deposits[0];
    }
    if (!refuel) return { status: 'NOT_FOUND', message: 'the transaction carries no gas refuel' };
    const sending = { chainId: chain.chainId, txHash: receipt.hash, block: receipt.blockNumber, amount: refuel.amount, ...tokenField('token', this.token(chain.chainId, refuel.token)) };
    const destination = this.chains.chain(refuel.destinationChainId);
    if (!destination?.bridgeEndpoint) return { status: 'PENDING', message: `destination chain ${refuel.destinationChainId} not connected`, sending };
    let releases: Log[];
    let refunds: Log[];
    try {
      [releases, refunds] = await Promise.all([this.releasesOf(destination, chain.chainId, refuel.depositId), this.refundsOf(chain, refuel.depositId, receipt.blockNumber)]);
    } catch {
      return { status: 'PENDING', message: 'a chain did not answer', sending };
    }
    if (refunds.length > 0) {
      const refund = BRIDGE_ENDPOINT_EVENTS.parseLog(refunds[0])!;
      return {
        status: 'DONE', message: 'refunded on the source chain', sending,
        receiving: { chainId: chain.chainId, txHash: refunds[0].transactionHash, block: refunds[0].blockNumber, amount: refund.args.amount as bigint, ...tokenField('token', this.token(chain.chainId, refund.args.token as string)) },
      };
    }
    if (releases.length === 0) return { status: 'PENDING', message: 'waiting for the destination transaction', sending };
    const release = BRIDGE_ENDPOINT_EVENTS.parseLog(releases[0])!;
    let final = { token: release.args.token as string, amount: release.args.amount as bigint };
    if (release.args.destinationCall && release.args.destinationCallSucceeded) {
      const r = await destination.provider.getTransactionReceipt(releases[0].transactionHash).catch(() => null);
      const completed = r ? parseLogs(r.logs, destination.router.toLowerCase(), ROUTER_EVENTS).find((l) => l.name === 'LiFiTransferCompleted') : undefined;
      if (completed) final = { token: completed.args.receivingAssetId as string, amount: completed.args.amount as bigint };
    }
    return {
      status: 'DONE', sending,
      receiving: { chainId: destination.chainId, txHash: releases[0].transactionHash, block: releases[0].blockNumber, amount: final.amount, ...tokenField('token', this.token(destination.chainId, final.token)) },
    };
  }

  // ------------------------------------------------------------------------------------------ helpers

  private transaction(chainId: number, receipt: TransactionReceipt, tx: TransactionResponse, timestamp: number | undefined): TransferTransaction {
    const gasPrice = receipt.gasPrice ?? tx.gasPrice ?? 0n;
    const native = this.catalog.getChain(chainId)?.nativeToken;
    return {
      chainId, txHash: receipt.hash, block: receipt.blockNumber,
      gasPrice, gasUsed: receipt.gasUsed, gasAmount: gasPrice * receipt.gasUsed, value: tx.value,
      ...(native ? { gasToken: native } : {}),
      ...(timestamp !== undefined ? { timestamp } : {}),
    };
  }

  private amountOf(chainId: number, sent: { token: string; amount: bigint } | undefined): Partial<TransferTransaction> {
    if (!sent) return {};
    const token = this.token(chainId, sent.token);
    return { amount: sent.amount, ...(token ? { token } : { tokenAddress: sent.token }) };
  }

  private token(chainId: number, address: string): Token | undefined {
    return this.catalog.findToken(chainId, address);
  }

  private fees(chainId: number, logs: LogDescription[]): CollectedFee[] {
    return logs.filter((l) => l.name === 'FeesCollected').map((l) => {
      const tokenAddress = l.args.token as string;
      const token = this.token(chainId, tokenAddress);
      return { tokenAddress, ...(token ? { token } : {}), integratorFee: l.args.integratorFee as bigint, serviceFee: l.args.serviceFee as bigint, fraction: 0 };
    });
  }

  private swapTool(chainId: number, targets: readonly string[]): string | undefined {
    for (const target of targets) {
      const tool = this.options.exchangeOf?.(chainId, target);
      if (tool) return tool;
    }
    return undefined;
  }

  /** What the router call says: transfer id, bridge, integrator, the token and amount the sender hands over. */
  private decodeCall(data: string): { transactionId?: string; bridge?: string; integrator?: string; hasSourceSwaps?: boolean; sent?: { token: string; amount: bigint }; swapTargets: string[] } {
    let parsed;
    try {
      parsed = this.routerIface.parseTransaction({ data });
    } catch {
      parsed = null;
    }
    if (!parsed) return { swapTargets: [] };
    const a = parsed.args;
    type Swap = { callTo: string; sendingAssetId: string; fromAmount: bigint; requiresDeposit: boolean };
    const deposited = (swaps: readonly Swap[]) => {
      const paid = swaps.filter((s) => s.requiresDeposit);
      if (paid.length === 0) return undefined;
      return { token: paid[0].sendingAssetId, amount: paid.filter((s) => s.sendingAssetId === paid[0].sendingAssetId).reduce((t, s) => t + s.fromAmount, 0n) };
    };
    const targets = (swaps: readonly Swap[]) => swaps.map((s) => s.callTo);
    if (parsed.name === 'swapTokensGeneric') {
      const swaps = a.swapData as Swap[];
      return { transactionId: (a.transactionId as string).toLowerCase(), integrator: a.integrator as string, sent: deposited(swaps), swapTargets: targets(swaps) };
    }
    if (parsed.name === 'swapAndCall') {
      const swaps = a.swapData as Swap[];
      return { transactionId: (a.transactionId as string).toLowerCase(), integrator: a.integrator as string, sent: { token: a.sendingAssetId as string, amount: a.fromAmount as bigint }, swapTargets: targets(swaps) };
    }
    if (parsed.name === 'swapAndCompleteBridgeTokens' || parsed.name === 'swapAndCompleteBridgeTokensWithCalls') {
      const swaps = a.swapData as Swap[];
      return { transactionId: (a.transactionId as string).toLowerCase(), swapTargets: targets(swaps) };
    }
    const b = a.bridgeData as { transactionId: string; bridge: string; integrator: string; sendingAssetId: string; minAmount: bigint; hasSourceSwaps: boolean };
    const swaps = (parsed.fragment.inputs.length === 3 ? a.swapData : []) as Swap[];
    const fromSwaps = b.hasSourceSwaps ? deposited(swaps) : undefined;
    let sent = fromSwaps ?? { token: b.sendingAssetId, amount: b.minAmount };
    if (!b.hasSourceSwaps) {
      // side SwapData (fee collection) deposit their own amount of the same token on top of minAmount
      const side = deposited(swaps);
      if (side && side.token.toLowerCase() === b.sendingAssetId.toLowerCase()) sent = { token: b.sendingAssetId, amount: b.minAmount + side.amount };
    }
    return { transactionId: b.transactionId.toLowerCase(), bridge: b.bridge, integrator: b.integrator, hasSourceSwaps: b.hasSourceSwaps, sent, swapTargets: targets(swaps) };
  }

  /** The destination call inside a release transaction's call data (BridgeEndpoint.release's destinationCallData). */
  private innerDestinationCall(data: string): string | undefined {
    try {
      const parsed = RELEASE.parseTransaction({ data });
      return parsed ? (parsed.args[0].destinationCallData as string) : undefined;
    } catch {
      return undefined;
    }
  }
}

const RELEASE = new Interface([
  'function release(tuple(uint256 fromChainId, uint256 depositId, string bridge, bytes32 transactionId, address fromToken, uint256 amount, address receiverOnDestination, address receiver, uint256 destinationMinAmount, bytes destinationCallData) r) returns (uint256)',
]);

/** A uint256 event argument as an indexed topic. */
function uint256Topic(value: bigint): string {
  return zeroPadValue(toBeHex(value), 32);
}

function invalid(message: string): TransferStatus {
  return { status: 'INVALID', substatusMessage: message };
}

function parseLogs(logs: readonly Log[], address: string, iface: Interface): LogDescription[] {
  const out: LogDescription[] = [];
  for (const log of logs) {
    if (log.address.toLowerCase() !== address) continue;
    try {
      const parsed = iface.parseLog(log);
      if (parsed) out.push(parsed);
    } catch {
      /* another event of the contract */
    }
  }
  return out;
}

function depositOf(l: LogDescription): Deposit {
  const r = l.args.request;
  return {
    depositId: l.args.depositId as bigint,
    bridge: r.bridge as string,
    transactionId: (r.transactionId as string).toLowerCase(),
    token: r.token as string,
    amount: r.amount as bigint,
    destinationChainId: Number(r.destinationChainId as bigint),
    receiver: r.receiver as string,
    hasDestinationCall: (r.destinationCallData as string) !== '0x',
  };
}

function tokenField<K extends string>(key: K, token: Token | undefined): { [P in K]?: Token } {
  return (token ? { [key]: token } : {}) as { [P in K]?: Token };
}

function withFractions(fees: CollectedFee[], sent: bigint): CollectedFee[] {
  if (sent === 0n) return fees;
  // display only: the share of the sent amount, 6 significant decimals
  return fees.map((f) => ({ ...f, fraction: Number(((f.integratorFee + f.serviceFee) * 1_000_000n) / sent) / 1_000_000 }));
}
