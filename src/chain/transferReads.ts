/**
 * The chain reads of transfer tracking (TransferReads, src/core/status/ports.ts) over JSON-RPC: receipts decoded
 * into the events of the service's contracts on each chain (router, fee collector, bridge endpoint), transaction
 * bodies and block times, event searches by transfer id or deposit id, and the replay of a reverted call.
 *
 * The bridge endpoint's ABI is the compiled contract's (bridgeEndpoint.abi.json, checked against
 * contracts/router/BridgeEndpoint.sol by test/unit/chain/transferReads.test.ts); the router's and the fee
 * collector's are the ones the transactions are built with (src/core/transactions/abi.ts).
 */
import { MULTICALL3 } from './relaying';
import { Interface, LogDescription, toBeHex, zeroPadValue, type Log, type TransactionReceipt } from 'ethers';
import { NON_EVM_ADDRESS, ROUTER_ABI, FEE_COLLECTOR_ABI, multicall3Interface, permit2ProxyInterface, routerInterface } from '../core/transactions/abi';
import type {
  ContractEvents, DepositEvent, Emitted, MinedTransaction, PendingTransaction, Receipt, RefundEvent, ReleaseEvent, Replay,
  Revert, RouterCall, Settlement, StatusChain, TransactionCost, TransferReads,
} from '../core/status/ports';
import bridgeEndpointAbi from './bridgeEndpoint.abi.json';
import type { ChainConnection, ChainConnections } from './rpc';

const BRIDGE_ENDPOINT = new Interface(bridgeEndpointAbi);
const ROUTER_EVENTS = new Interface(ROUTER_ABI as string[]);
const FEE_EVENTS = new Interface(FEE_COLLECTOR_ABI as string[]);
const TOPIC = {
  deposited: BRIDGE_ENDPOINT.getEvent('Deposited')!.topicHash,
  released: BRIDGE_ENDPOINT.getEvent('Released')!.topicHash,
  refunded: BRIDGE_ENDPOINT.getEvent('Refunded')!.topicHash,
  swapCompleted: ROUTER_EVENTS.getEvent('LiFiGenericSwapCompleted')!.topicHash,
  swappedGeneric: ROUTER_EVENTS.getEvent('LiFiSwappedGeneric')!.topicHash,
};


/** The router call data of a transaction to the Permit2 proxy (undefined for any other call data). */
export function routerCallOfProxyCall(data: string): string | undefined {
  return proxyCallOf(data)?.routerCall;
}

/** A call of the Permit2 proxy: the router call it makes, and the signer it pulls from (a relayed witness permit's). */
function proxyCallOf(data: string): { routerCall: string; signer?: string } | undefined {
  try {
    const parsed = permit2ProxyInterface.parseTransaction({ data });
    if (!parsed) return undefined;
    const routerCall = parsed.args.diamondCalldata as string;
    return parsed.name === 'callDiamondWithPermit2Witness' ? { routerCall, signer: parsed.args.signer as string } : { routerCall };
  } catch {
    return undefined;
  }
}

/**
 * A router call made through the Permit2 proxy: sent to the proxy (by the user, or by the service's relayer for a
 * gasless step), or inside a relayer's Multicall3 `aggregate3` after the token's permit (src/core/relay/relayCall.ts).
 * The transfer's sender is then the permit's signer, not the relayer that sent the transaction.
 */
export function proxiedRouterCall(proxy: string | undefined, to: string | null, data: string): { routerCall: string; signer?: string } | undefined {
  if (!proxy || !to) return undefined;
  if (to.toLowerCase() === proxy.toLowerCase()) return proxyCallOf(data);
  if (to.toLowerCase() !== MULTICALL3.toLowerCase()) return undefined;
  try {
    const parsed = multicall3Interface.parseTransaction({ data });
    const calls = (parsed?.args[0] ?? []) as { target: string; callData: string }[];
    const call = calls.find((c) => c.target.toLowerCase() === proxy.toLowerCase());
    return call ? proxyCallOf(call.callData) : undefined;
  } catch {
    return undefined;
  }
}


/** Blocks searched backwards from the head for events of a transfer whose start block is not known. */
export const DEFAULT_LOOKBACK_BLOCKS = 100_000;

export class ChainTransferReads implements TransferReads {
  readonly chains: readonly StatusChain[];
  private readonly routerCalls: Interface;

  /** `bridgeKeys`: the catalog's bridges, whose router functions a sending transaction may call. */
  constructor(private readonly connections: ChainConnections, bridgeKeys: readonly string[], private readonly lookbackBlocks = DEFAULT_LOOKBACK_BLOCKS) {
    this.routerCalls = routerInterface(bridgeKeys);
    this.chains = connections.chains.map((c) => ({ chainId: c.chainId, confirmations: c.confirmations, hasBridgeEndpoint: c.bridgeEndpoint !== undefined }));
  }

  async receipt(chainId: number, hash: string): Promise<Receipt | null> {
    const chain = this.connection(chainId);
    const receipt = await chain.provider.getTransactionReceipt(hash);
    return receipt ? receiptOf(chain, receipt) : null;
  }

  async transaction(receipt: Receipt): Promise<MinedTransaction> {
    const chain = this.connection(receipt.chainId);
    const [tx, block, head] = await Promise.all([
      chain.provider.getTransaction(receipt.hash),
      chain.provider.getBlock(receipt.blockNumber),
      chain.provider.getBlockNumber(),
    ]);
    if (!tx) throw new Error(`transaction ${receipt.hash} has a receipt but no body`);
    // sent through the Permit2 proxy: a router call made with a permit, read as the router call it carries
    const proxied = proxiedRouterCall(chain.permit2Proxy, tx.to, tx.data);
    const routerCall = proxied?.routerCall;
    return {
      ...receipt,
      from: proxied?.signer ?? tx.from,
      ...(tx.to ? { to: tx.to } : {}),
      input: tx.data,
      gasLimit: tx.gasLimit,
      cost: { gasPrice: receipt.gasPrice ?? tx.gasPrice ?? 0n, gasUsed: receipt.gasUsed, value: tx.value, ...(block ? { timestamp: block.timestamp } : {}) },
      callsRouter: (tx.to ?? '').toLowerCase() === chain.router.toLowerCase() || routerCall !== undefined,
      call: this.decodeCall(routerCall ?? tx.data),
      confirmations: head - receipt.blockNumber + 1,
    };
  }

  async pending(chainId: number, hash: string): Promise<PendingTransaction | null> {
    const tx = await this.connection(chainId).provider.getTransaction(hash);
    return tx ? { from: tx.from, value: tx.value } : null;
  }

  async transferTransaction(chainId: number, transferId: string): Promise<string | null> {
    const chain = this.connection(chainId);
    const reads: Promise<Log[]>[] = [this.recentLogs(chain, chain.router, [[TOPIC.swapCompleted, TOPIC.swappedGeneric], transferId])];
    if (chain.bridgeEndpoint) {
      reads.push(this.recentLogs(chain, chain.bridgeEndpoint, [TOPIC.deposited, null, transferId]));
      reads.push(this.recentLogs(chain, chain.bridgeEndpoint, [TOPIC.released, null, null, transferId]));
    }
    const [swaps, deposits = [], releases = []] = await Promise.all(reads);
    return (swaps[0] ?? deposits[0] ?? releases[0])?.transactionHash ?? null;
  }

  async depositTransaction(chainId: number, depositId: bigint): Promise<string | null> {
    const chain = this.connection(chainId);
    if (!chain.bridgeEndpoint) return null;
    const logs = await this.recentLogs(chain, chain.bridgeEndpoint, [TOPIC.deposited, uint256Topic(depositId)]);
    return logs[0]?.transactionHash ?? null;
  }

  async refund(chainId: number, depositId: bigint, fromBlock: number): Promise<Emitted<RefundEvent> | null> {
    const chain = this.connection(chainId);
    if (!chain.bridgeEndpoint) return null;
    const logs = await chain.provider.getLogs({ address: chain.bridgeEndpoint, fromBlock, toBlock: 'latest', topics: [TOPIC.refunded, uint256Topic(depositId)] });
    const log = logs[0];
    if (!log) return null;
    const args = BRIDGE_ENDPOINT.parseLog(log)!.args;
    return { txHash: log.transactionHash, blockNumber: log.blockNumber, event: { token: args.token as string, amount: args.amount as bigint, to: args.to as string } };
  }

  async release(chainId: number, fromChainId: number, depositId: bigint): Promise<Emitted<ReleaseEvent> | null> {
    const chain = this.connection(chainId);
    if (!chain.bridgeEndpoint) return null;
    const logs = await this.recentLogs(chain, chain.bridgeEndpoint, [TOPIC.released, uint256Topic(BigInt(fromChainId)), uint256Topic(depositId)]);
    const log = logs[0];
    if (!log) return null;
    return { txHash: log.transactionHash, blockNumber: log.blockNumber, event: releaseOf(BRIDGE_ENDPOINT.parseLog(log)!) };
  }

  async releaseOfTransfer(chainId: number, fromChainId: number, transferId: string): Promise<Emitted<ReleaseEvent> | null> {
    const chain = this.connection(chainId);
    if (!chain.bridgeEndpoint) return null;
    const logs = await this.recentLogs(chain, chain.bridgeEndpoint, [TOPIC.released, uint256Topic(BigInt(fromChainId)), null, transferId.toLowerCase()]);
    const log = logs[0];
    if (!log) return null;
    return { txHash: log.transactionHash, blockNumber: log.blockNumber, event: releaseOf(BRIDGE_ENDPOINT.parseLog(log)!) };
  }

  async settlement(chainId: number, hash: string, blockNumber: number): Promise<Settlement> {
    const chain = this.connection(chainId);
    const [receipt, tx, block] = await Promise.all([
      chain.provider.getTransactionReceipt(hash),
      chain.provider.getTransaction(hash),
      chain.provider.getBlock(blockNumber),
    ]);
    const cost: TransactionCost | undefined = receipt && tx
      ? { gasPrice: receipt.gasPrice ?? tx.gasPrice ?? 0n, gasUsed: receipt.gasUsed, value: tx.value, ...(block ? { timestamp: block.timestamp } : {}) }
      : undefined;
    const completed = receipt ? receiptOf(chain, receipt).events.completed : undefined;
    const inner = tx ? destinationCallOf(tx.data) : undefined;
    return {
      ...(cost ? { cost } : {}),
      ...(completed ? { completed } : {}),
      destinationSwapTargets: inner ? this.decodeCall(inner).swapTargets : [],
    };
  }

  async replay(tx: MinedTransaction): Promise<Replay> {
    const chain = this.connection(tx.chainId);
    try {
      await chain.provider.call({ from: tx.from, to: tx.to, data: tx.input, value: tx.cost.value, gasLimit: tx.gasLimit, blockTag: tx.blockNumber - 1 });
      return { reverted: false };
    } catch (error) {
      return { reverted: true, revert: revertOf(error) };
    }
  }

  private connection(chainId: number): ChainConnection {
    const chain = this.connections.chain(chainId);
    if (!chain) throw new Error(`chain ${chainId} is not connected`);
    return chain;
  }

  /** Logs of `address` over the lookback window before the chain's head. */
  private async recentLogs(chain: ChainConnection, address: string, topics: (string | string[] | null)[]): Promise<Log[]> {
    const head = await chain.provider.getBlockNumber();
    return chain.provider.getLogs({ address, topics, fromBlock: Math.max(0, head - this.lookbackBlocks), toBlock: head });
  }

  /** What a router call says: transfer id, bridge, integrator, the token and amount the sender hands over. */
  private decodeCall(data: string): RouterCall {
    let parsed;
    try {
      parsed = this.routerCalls.parseTransaction({ data });
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
    // the receiver, unless it is the placeholder of a non-EVM destination
    const receiverOf = (address: string) => (address.toLowerCase() === NON_EVM_ADDRESS.toLowerCase() ? {} : { receiver: address });
    if (parsed.name === 'swapTokensGeneric') {
      const swaps = a.swapData as Swap[];
      return { transactionId: (a.transactionId as string).toLowerCase(), integrator: a.integrator as string, sent: deposited(swaps), swapTargets: targets(swaps), ...receiverOf(a.receiver as string) };
    }
    if (parsed.name === 'swapAndCall') {
      const swaps = a.swapData as Swap[];
      return {
        transactionId: (a.transactionId as string).toLowerCase(), integrator: a.integrator as string, sent: { token: a.sendingAssetId as string, amount: a.fromAmount as bigint },
        swapTargets: targets(swaps), ...receiverOf(a.receiver as string),
      };
    }
    if (parsed.name === 'swapAndCompleteBridgeTokens' || parsed.name === 'swapAndCompleteBridgeTokensWithCalls') {
      const swaps = a.swapData as Swap[];
      return { transactionId: (a.transactionId as string).toLowerCase(), swapTargets: targets(swaps) };
    }
    const b = a.bridgeData as { transactionId: string; bridge: string; integrator: string; sendingAssetId: string; receiver: string; minAmount: bigint; hasSourceSwaps: boolean };
    const swaps = (parsed.fragment.inputs.length === 3 ? a.swapData : []) as Swap[];
    const fromSwaps = b.hasSourceSwaps ? deposited(swaps) : undefined;
    let sent = fromSwaps ?? { token: b.sendingAssetId, amount: b.minAmount };
    if (!b.hasSourceSwaps) {
      // side SwapData (fee collection) deposit their own amount of the same token on top of minAmount
      const side = deposited(swaps);
      if (side && side.token.toLowerCase() === b.sendingAssetId.toLowerCase()) sent = { token: b.sendingAssetId, amount: b.minAmount + side.amount };
    }
    return { transactionId: b.transactionId.toLowerCase(), bridge: b.bridge, integrator: b.integrator, hasSourceSwaps: b.hasSourceSwaps, sent, swapTargets: targets(swaps), ...receiverOf(b.receiver) };
  }
}

/** A receipt with the events of the service's contracts on its chain. */
function receiptOf(chain: ChainConnection, receipt: TransactionReceipt): Receipt {
  const router = parseLogs(receipt.logs, chain.router, ROUTER_EVENTS);
  const endpoint = chain.bridgeEndpoint ? parseLogs(receipt.logs, chain.bridgeEndpoint, BRIDGE_ENDPOINT) : [];
  const fees = parseLogs(receipt.logs, chain.feeCollector, FEE_EVENTS).filter((l) => l.name === 'FeesCollected');
  const completed = router.find((l) => l.name === 'LiFiTransferCompleted');
  const events: ContractEvents = {
    swaps: router.filter((l) => l.name === 'LiFiGenericSwapCompleted' || l.name === 'LiFiSwappedGeneric').map((l) => ({
      event: l.name as 'LiFiGenericSwapCompleted' | 'LiFiSwappedGeneric',
      transactionId: (l.args.transactionId as string).toLowerCase(),
      integrator: l.args.integrator as string,
      ...(l.name === 'LiFiGenericSwapCompleted' ? { receiver: l.args.receiver as string } : {}),
      fromToken: l.args.fromAssetId as string,
      toToken: l.args.toAssetId as string,
      fromAmount: l.args.fromAmount as bigint,
      toAmount: l.args.toAmount as bigint,
    })),
    ...(completed ? { completed: { token: completed.args.receivingAssetId as string, amount: completed.args.amount as bigint } } : {}),
    deposits: endpoint.filter((l) => l.name === 'Deposited').map(depositOf),
    releases: endpoint.filter((l) => l.name === 'Released').map(releaseOf),
    fees: fees.map((l) => ({ token: l.args.token as string, integratorFee: l.args.integratorFee as bigint, serviceFee: l.args.serviceFee as bigint })),
  };
  return {
    chainId: chain.chainId, hash: receipt.hash, blockNumber: receipt.blockNumber, reverted: receipt.status === 0,
    gasUsed: receipt.gasUsed, ...(receipt.gasPrice !== undefined && receipt.gasPrice !== null ? { gasPrice: receipt.gasPrice } : {}), events,
  };
}

/** The logs of one contract that its interface decodes, in log order. */
function parseLogs(logs: readonly Log[], address: string, iface: Interface): LogDescription[] {
  const contract = address.toLowerCase();
  const out: LogDescription[] = [];
  for (const log of logs) {
    if (log.address.toLowerCase() !== contract) continue;
    try {
      const parsed = iface.parseLog(log);
      if (parsed) out.push(parsed);
    } catch {
      /* another event of the contract */
    }
  }
  return out;
}

function depositOf(l: LogDescription): DepositEvent {
  const r = l.args.request;
  return {
    depositId: l.args.depositId as bigint,
    bridge: r.bridge as string,
    transactionId: (r.transactionId as string).toLowerCase(),
    token: r.token as string,
    amount: r.amount as bigint,
    destinationChainId: Number(r.destinationChainId as bigint),
    receiver: r.receiver as string,
    ...((r.nonEVMReceiver as string) !== '0x' ? { nonEvmReceiver: (r.nonEVMReceiver as string).toLowerCase() } : {}),
    hasDestinationCall: (r.destinationCallData as string) !== '0x',
  };
}

function releaseOf(l: LogDescription): ReleaseEvent {
  return {
    fromChainId: Number(l.args.fromChainId as bigint),
    depositId: l.args.depositId as bigint,
    transactionId: (l.args.transactionId as string).toLowerCase(),
    token: l.args.token as string,
    amount: l.args.amount as bigint,
    destinationCall: l.args.destinationCall as boolean,
    destinationCallSucceeded: l.args.destinationCallSucceeded as boolean,
  };
}

/** The destination call inside a release transaction's call data (BridgeEndpoint.release's destinationCallData). */
function destinationCallOf(data: string): string | undefined {
  try {
    const parsed = BRIDGE_ENDPOINT.parseTransaction({ data });
    return parsed?.name === 'release' ? (parsed.args[0].destinationCallData as string) : undefined;
  } catch {
    return undefined;
  }
}

/** A uint256 event argument as an indexed topic. */
function uint256Topic(value: bigint): string {
  return zeroPadValue(toBeHex(value), 32);
}

/** What a failed eth_call says: the revert data (wherever the provider put it), the reason, the short message. */
function revertOf(error: unknown): Revert {
  const e = error as { data?: unknown; info?: { error?: { data?: unknown } }; error?: { data?: unknown }; reason?: unknown; shortMessage?: unknown } | undefined;
  let data: string | undefined;
  for (const candidate of [e?.data, e?.info?.error?.data, e?.error?.data]) {
    if (typeof candidate === 'string' && /^0x[0-9a-fA-F]*$/.test(candidate)) {
      data = candidate;
      break;
    }
    if (typeof candidate === 'object' && candidate !== null && typeof (candidate as { data?: unknown }).data === 'string') {
      data = (candidate as { data: string }).data;
      break;
    }
  }
  return {
    ...(data !== undefined ? { data } : {}),
    ...(typeof e?.reason === 'string' && e.reason ? { reason: e.reason } : {}),
    ...(typeof e?.shortMessage === 'string' && e.shortMessage !== 'execution reverted' ? { message: e.shortMessage } : {}),
  };
}
