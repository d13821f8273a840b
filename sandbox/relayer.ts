/**
 * The sandbox bridge's relayer: watches every chain's bridge endpoint for Deposited events (eth_getLogs polled
 * every few ms), releases each deposit on its destination chain (BridgeEndpoint.release, which applies the
 * route's fee model and runs the destination call), and refunds the deposit on the source chain when the release
 * is impossible (destination chain not running, unknown route, amount out of limits, below the minimum...).
 */
import { Interface, type JsonRpcProvider, type Log } from 'ethers';
import { UnlockedSender, waitForReceipt } from './rpc';

export interface RelayerChain {
  readonly chainId: number;
  readonly provider: JsonRpcProvider;
  readonly endpoint: string;
}

export type Completion =
  | {
      readonly kind: 'released';
      readonly transactionId: string;
      readonly fromChainId: number;
      readonly toChainId: number;
      readonly depositId: bigint;
      readonly token: string;
      /** What the bridge paid on the destination (in the received token's units). */
      readonly amount: bigint;
      readonly paidTo: string;
      readonly destinationCall: boolean;
      readonly destinationCallSucceeded: boolean;
      readonly depositTx: string;
      readonly releaseTx: string;
    }
  | {
      readonly kind: 'refunded';
      readonly transactionId: string;
      readonly fromChainId: number;
      readonly toChainId: number;
      readonly depositId: bigint;
      readonly reason: string;
      readonly depositTx: string;
      readonly refundTx: string;
    };

export class Relayer {
  private readonly iface: Interface;
  private readonly chains = new Map<number, RelayerChain & { sender: UnlockedSender; nextBlock: number }>();
  private readonly completions = new Map<string, Completion[]>();
  /** Deposits seen and not handled yet, in order, each with the time its release is due. */
  private queue: { dueAt: number; fromChainId: number; log: Log }[] = [];
  private readonly waiters = new Map<string, { count: number; resolve: (c: Completion[]) => void }[]>();
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private stopped = false;
  private lastError: Error | undefined;

  constructor(
    endpointAbi: readonly unknown[],
    chains: readonly RelayerChain[],
    readonly relayerAddress: string,
    private readonly options: {
      readonly intervalMs?: number;
      readonly log?: (line: string) => void;
      /** How long a deposit waits before its release (the bridge's modelled duration, scaled; default none). */
      readonly delayMs?: (deposit: { bridge: string; fromChainId: number; toChainId: number; token: string }) => number;
    } = {},
  ) {
    this.iface = new Interface(endpointAbi as string[]);
    for (const c of chains) this.chains.set(c.chainId, { ...c, sender: new UnlockedSender(c.provider, relayerAddress), nextBlock: 0 });
  }

  /** Watches from the current blocks on; after stop(), start() resumes where it stopped (deposits made meanwhile are relayed). */
  async start(): Promise<void> {
    for (const c of this.chains.values()) if (c.nextBlock === 0) c.nextBlock = (await c.provider.getBlockNumber()) + 1;
    this.stopped = false;
    this.schedule();
  }

  /**
   * Forgets everything seen and watches from the current blocks on: needed after evm_revert (block numbers,
   * deposit ids and transaction ids come back).
   */
  async resync(): Promise<void> {
    const wasRunning = !this.stopped;
    this.stop();
    while (this.running) await new Promise((resolve) => setTimeout(resolve, 2));
    this.completions.clear();
    this.queue = [];
    for (const c of this.chains.values()) {
      c.sender.reset();
      c.nextBlock = 0;
    }
    if (wasRunning) await this.start();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /**
   * The outcomes of the first `count` transfers with this transactionId (BridgeData.transactionId; a gas refuel
   * leg shares its transfer's id), once relayed.
   */
  waitForAll(transactionId: string, count: number, timeoutMs = 20_000): Promise<Completion[]> {
    const id = transactionId.toLowerCase();
    const done = this.completions.get(id) ?? [];
    if (done.length >= count) return Promise.resolve(done.slice(0, count));
    return new Promise<Completion[]>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`transfer ${transactionId} not relayed within ${timeoutMs} ms${this.lastError ? ` (last relayer error: ${this.lastError.message})` : ''}`)), timeoutMs);
      const list = this.waiters.get(id) ?? [];
      list.push({ count, resolve: (c) => {
        clearTimeout(timer);
        resolve(c);
      } });
      this.waiters.set(id, list);
    });
  }

  /** The outcome of the (first) transfer with this transactionId, once relayed. */
  async waitFor(transactionId: string, timeoutMs = 20_000): Promise<Completion> {
    return (await this.waitForAll(transactionId, 1, timeoutMs))[0];
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.tick(), this.options.intervalMs ?? 10);
  }

  private async tick(): Promise<void> {
    if (this.running || this.stopped) return;
    this.running = true;
    try {
      for (const c of this.chains.values()) await this.poll(c);
      while (this.queue.length > 0 && !this.stopped) {
        const k = this.queue.findIndex((q) => q.dueAt <= Date.now());
        if (k < 0) break;
        const [item] = this.queue.splice(k, 1);
        await this.handle(item.fromChainId, item.log);
      }
    } catch (error) {
      this.lastError = error as Error;
      // a poll cut short by stop() (providers destroyed, anvil gone) is not worth a line
      if (!this.stopped) this.options.log?.(`relayer: ${(error as Error).message}`);
    } finally {
      this.running = false;
      this.schedule();
    }
  }

  private async poll(c: RelayerChain & { nextBlock: number }): Promise<void> {
    const latest = await c.provider.getBlockNumber();
    if (latest < c.nextBlock) return;
    const logs = await c.provider.getLogs({
      address: c.endpoint,
      topics: [this.iface.getEvent('Deposited')!.topicHash],
      fromBlock: c.nextBlock,
      toBlock: latest,
    });
    c.nextBlock = latest + 1;
    for (const log of logs) {
      const r = this.iface.parseLog(log)!.args.request;
      const delay = this.options.delayMs?.({ bridge: r.bridge as string, fromChainId: c.chainId, toChainId: Number(r.destinationChainId as bigint), token: r.token as string }) ?? 0;
      this.queue.push({ dueAt: Date.now() + delay, fromChainId: c.chainId, log });
    }
  }

  private async handle(fromChainId: number, log: Log): Promise<void> {
    const parsed = this.iface.parseLog(log)!;
    const depositId = parsed.args.depositId as bigint;
    const r = parsed.args.request;
    const transactionId = (r.transactionId as string).toLowerCase();
    const toChainId = Number(r.destinationChainId as bigint);
    const source = this.chains.get(fromChainId)!;
    const destination = this.chains.get(toChainId);
    const base = { transactionId, fromChainId, toChainId, depositId, depositTx: log.transactionHash };

    let reason: string | undefined;
    if (!destination) reason = `destination chain ${toChainId} is not running`;
    else {
      const data = this.iface.encodeFunctionData('release', [[
        BigInt(fromChainId), depositId, r.bridge, r.transactionId, r.token, r.amount, r.receiverOnDestination, r.receiver,
        r.destinationMinAmount, r.destinationCallData,
      ]]);
      try {
        await destination.provider.call({ from: this.relayerAddress, to: destination.endpoint, data });
      } catch (error) {
        reason = `release would revert: ${describeRevert(error, this.iface)}`;
      }
      if (!reason) {
        const hash = await destination.sender.send({ to: destination.endpoint, data, gas: 15_000_000n });
        const receipt = await waitForReceipt(destination.provider, hash);
        if (receipt.status === 1) {
          const released = receipt.logs
            .filter((l) => l.address.toLowerCase() === destination.endpoint.toLowerCase())
            .map((l) => this.iface.parseLog(l))
            .find((e) => e?.name === 'Released')!;
          this.complete({
            kind: 'released', ...base,
            token: released.args.token as string,
            amount: released.args.amount as bigint,
            paidTo: released.args.paidTo as string,
            destinationCall: released.args.destinationCall as boolean,
            destinationCallSucceeded: released.args.destinationCallSucceeded as boolean,
            releaseTx: hash,
          });
          this.options.log?.(`relayer: released ${fromChainId}→${toChainId} #${depositId} (${released.args.amount} to ${released.args.paidTo})`);
          return;
        }
        reason = `release transaction ${hash} reverted`;
      }
    }
    const hash = await source.sender.send({ to: source.endpoint, data: this.iface.encodeFunctionData('refund', [depositId]) });
    const receipt = await waitForReceipt(source.provider, hash);
    if (receipt.status !== 1) throw new Error(`refund of deposit ${depositId} on chain ${fromChainId} reverted (${hash})`);
    this.options.log?.(`relayer: refunded ${fromChainId}→${toChainId} #${depositId}: ${reason}`);
    this.complete({ kind: 'refunded', ...base, reason: reason!, refundTx: hash });
  }

  private complete(c: Completion): void {
    const list = this.completions.get(c.transactionId) ?? [];
    list.push(c);
    this.completions.set(c.transactionId, list);
    const waiting = this.waiters.get(c.transactionId) ?? [];
    const still = waiting.filter((w) => {
      if (list.length < w.count) return true;
      w.resolve(list.slice(0, w.count));
      return false;
    });
    if (still.length > 0) this.waiters.set(c.transactionId, still);
    else this.waiters.delete(c.transactionId);
  }
}

/** A revert's custom error or reason, decoded with the endpoint's ABI when possible. */
export function describeRevert(error: unknown, iface?: Interface): string {
  const e = error as { data?: string; info?: { error?: { data?: string } }; shortMessage?: string; message?: string };
  const data = e.data ?? e.info?.error?.data;
  if (typeof data === 'string' && data.length >= 10 && iface) {
    try {
      const parsed = iface.parseError(data);
      if (parsed) return `${parsed.name}(${parsed.args.map(String).join(', ')})`;
    } catch {
      /* not one of ours */
    }
  }
  return e.shortMessage ?? e.message ?? String(error);
}
