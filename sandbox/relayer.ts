/**
 * The sandbox bridge's relayer: watches every chain's bridge endpoint for Deposited events (eth_getLogs polled
 * every few ms), releases each deposit on its destination chain (BridgeEndpoint.release, which applies the
 * route's fee model and runs the destination call), and refunds the deposit on the source chain when the release
 * is impossible (destination chain not running, unknown route, amount out of limits, below the minimum...).
 *
 * With the sandbox's Solana chain attached (addSolana), both directions between Solana and the EVM chains:
 * - Solana → EVM: the deposits into the bridge escrow (solana/bridge.ts reads them: amount, mint, sender, memo) are
 *   released on the memo's destination chain with BridgeEndpoint.release: fromChainId 1151111081099710, depositId
 *   uint256(keccak256(signature)), fromToken the mint's foreign token id (solana/bridge.ts: the route deploy.ts
 *   configured for it applies), receiverOnDestination the receiver (or, when the memo has hops, the destination router,
 *   with the swapAndCompleteBridgeTokens call of destinationCallOfMemo). When the release would revert (unknown route,
 *   amount out of limits, below the minimum, chain not running), or the deposit cannot be read as a transfer (no
 *   bridge memo, malformed memo, several assets in one transaction), the escrow pays the deposit back to its sender on
 *   Solana with the memo `xchain:refund:v1:<transferId>:<deposit signature>` (transferId: the memo's, or
 *   0x00…00 when the deposit names none).
 * - EVM → Solana: a Deposited event whose destination is Solana is priced with its bridge route's fee model
 *   (src/core/math/bridge.ts on data/snapshot/bridges.json, rescaled to the Solana token's decimals, rounding down, as
 *   BridgeEndpoint.release does) and checked against destinationMinAmount; the escrow pays nonEVMReceiver (the
 *   32-byte public key) the route's toToken (the SPL mint, or lamports for SOL) with the memo
 *   `xchain:release:v1:<transferId>:<source chain id>:<deposit id>`. When it cannot (unknown route, limits, minimum,
 *   a destination call, a receiver that is not 32 bytes, the payment refused), the deposit is refunded on the EVM
 *   chain as for EVM destinations.
 *
 * The outcomes and their waiters are kept in relayerCompletions.ts; the release on Solana is relayerSolana.ts's.
 */
import { getAddress, Interface, type JsonRpcProvider, type Log } from 'ethers';
import { formatRefundMemo } from '../src/core/chains/solana/memo';
import { destinationCallOfMemo } from '../src/core/transactions/destinationCall';
import { Completions, type Completion, type DepositBase } from './relayerCompletions';
import { releaseOnSolana, type SolanaRelayConfig } from './relayerSolana';
import { UnlockedSender, waitForReceipt } from './rpc';
import { assetAddress, foreignTokenId, SOLANA_CHAIN_ID, solanaDepositId, SolanaEscrow, type SolanaDeposit } from './solana/bridge';

export interface RelayerChain {
  readonly chainId: number;
  readonly provider: JsonRpcProvider;
  readonly endpoint: string;
}

type QueueItem =
  | { readonly dueAt: number; readonly kind: 'evm'; readonly fromChainId: number; readonly log: Log }
  | { readonly dueAt: number; readonly kind: 'solana'; readonly deposit: SolanaDeposit };

export class Relayer {
  private readonly iface: Interface;
  private readonly chains = new Map<number, RelayerChain & { sender: UnlockedSender; nextBlock: number }>();
  private readonly completions = new Completions();
  /** Deposits seen and not handled yet, in order, each with the time its release is due. */
  private queue: QueueItem[] = [];
  private solana: { config: SolanaRelayConfig; escrow: SolanaEscrow; lastPoll: number; lastError?: string } | undefined;
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

  /**
   * Relays to and from the sandbox's Solana chain too, from its current transactions on (deposits to Solana seen
   * before this were refunded as to a chain not running).
   */
  async addSolana(config: SolanaRelayConfig): Promise<void> {
    const escrow = await SolanaEscrow.open(config.url, config.escrow, config.mints);
    this.solana = { config, escrow, lastPoll: 0 };
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
    await this.solana?.escrow.resync();
    if (wasRunning) await this.start();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /**
   * The outcomes of the first `count` transfers with this transactionId (BridgeData.transactionId, or a Solana
   * deposit memo's transfer id; a gas refuel leg shares its transfer's id), once relayed. A Solana deposit is also
   * found by its signature (a deposit without a memo has no transfer id of its own).
   */
  waitForAll(transactionId: string, count: number, timeoutMs = 20_000): Promise<Completion[]> {
    return this.completions.waitForAll(transactionId, count, timeoutMs, () => this.lastError);
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
      if (this.solana && Date.now() - this.solana.lastPoll >= (this.solana.config.intervalMs ?? 50)) {
        this.solana.lastPoll = Date.now();
        try {
          await this.pollSolana(this.solana.escrow);
          this.solana.lastError = undefined;
        } catch (error) {
          // a Solana RPC that does not answer holds up nothing on the EVM chains; said once until it answers again
          this.lastError = error as Error;
          if (!this.stopped && this.solana.lastError !== (error as Error).message) this.options.log?.(`relayer: solana: ${(error as Error).message}`);
          this.solana.lastError = (error as Error).message;
        }
      }
      while (this.queue.length > 0 && !this.stopped) {
        const k = this.queue.findIndex((q) => q.dueAt <= Date.now());
        if (k < 0) break;
        const [item] = this.queue.splice(k, 1);
        if (item.kind === 'evm') await this.handle(item.fromChainId, item.log);
        else await this.handleSolanaDeposit(item.deposit);
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
      this.queue.push({ dueAt: Date.now() + delay, kind: 'evm', fromChainId: c.chainId, log });
    }
  }

  private async pollSolana(escrow: SolanaEscrow): Promise<void> {
    for (const deposit of await escrow.poll()) {
      const delay = deposit.memo
        ? this.options.delayMs?.({ bridge: deposit.memo.bridge, fromChainId: SOLANA_CHAIN_ID, toChainId: deposit.memo.destinationChainId, token: assetAddress(deposit.asset) }) ?? 0
        : 0;
      this.queue.push({ dueAt: Date.now() + delay, kind: 'solana', deposit });
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
    if (toChainId === SOLANA_CHAIN_ID && this.solana) {
      reason = await releaseOnSolana(this.solana.config, this.solana.escrow, base, r, (c) => this.completions.complete(c), this.options.log);
      if (!reason) return;
    } else if (!destination) reason = `destination chain ${toChainId} is not running`;
    else {
      reason = await this.releaseOnEvm(destination, base, [
        BigInt(fromChainId), depositId, r.bridge, r.transactionId, r.token, r.amount, r.receiverOnDestination, r.receiver,
        r.destinationMinAmount, r.destinationCallData,
      ], source);
      if (!reason) return;
      // not released: cancelled on the destination first, so that it can never be released after its refund
      // (a deposit the destination has released already is not refunded: the cancellation reverts)
      await this.sendChecked(destination, 'cancel', [BigInt(fromChainId), depositId], `cancelling deposit ${depositId} of chain ${fromChainId} on chain ${toChainId}`);
    }
    const hash = await source.sender.send({ to: source.endpoint, data: this.iface.encodeFunctionData('refund', [depositId]) });
    const receipt = await waitForReceipt(source.provider, hash);
    if (receipt.status !== 1) throw new Error(`refund of deposit ${depositId} on chain ${fromChainId} reverted (${hash})`);
    this.options.log?.(`relayer: refunded ${fromChainId}→${toChainId} #${depositId}: ${reason}`);
    this.completions.complete({ kind: 'refunded', ...base, reason, refundTx: hash });
  }

  /** Sends an endpoint function as the relayer once its simulation passes; throws (naming `what`) when it would revert. */
  private async sendChecked(chain: RelayerChain & { sender: UnlockedSender }, fn: string, args: unknown[], what: string): Promise<void> {
    const data = this.iface.encodeFunctionData(fn, args);
    try {
      await chain.provider.call({ from: this.relayerAddress, to: chain.endpoint, data });
    } catch (error) {
      throw new Error(`${what}: ${describeRevert(error, this.iface)}`);
    }
    const receipt = await waitForReceipt(chain.provider, await chain.sender.send({ to: chain.endpoint, data }));
    if (receipt.status !== 1) throw new Error(`${what}: transaction ${receipt.hash} reverted`);
  }

  /**
   * Releases on an EVM chain (the ReleaseRequest tuple); undefined once released, or why it cannot be. The
   * release is simulated first: a destination call to anything but the destination router's completion entry points
   * (DestinationCallNotAllowed), an unknown route, limits or the minimum make it refused, and the deposit refunded.
   */
  private async releaseOnEvm(
    destination: RelayerChain & { sender: UnlockedSender },
    base: DepositBase,
    request: unknown[],
    /** The EVM source chain, where the release is then recorded (markReleased) before it counts as complete. */
    source?: RelayerChain & { sender: UnlockedSender },
  ): Promise<string | undefined> {
    const data = this.iface.encodeFunctionData('release', [request]);
    try {
      await destination.provider.call({ from: this.relayerAddress, to: destination.endpoint, data });
    } catch (error) {
      return `release would revert: ${describeRevert(error, this.iface)}`;
    }
    const hash = await destination.sender.send({ to: destination.endpoint, data, gas: 15_000_000n });
    const receipt = await waitForReceipt(destination.provider, hash);
    if (receipt.status !== 1) return `release transaction ${hash} reverted`;
    const released = receipt.logs
      .filter((l) => l.address.toLowerCase() === destination.endpoint.toLowerCase())
      .map((l) => this.iface.parseLog(l))
      .find((e) => e?.name === 'Released')!;
    // released: recorded on the source too, where the deposit can then no longer be refunded
    if (source) await this.sendChecked(source, 'markReleased', [base.depositId], `marking deposit ${base.depositId} of chain ${base.fromChainId} released`);
    this.completions.complete({
      kind: 'released', ...base,
      token: released.args.token as string,
      amount: released.args.amount as bigint,
      paidTo: released.args.paidTo as string,
      destinationCall: released.args.destinationCall as boolean,
      destinationCallSucceeded: released.args.destinationCallSucceeded as boolean,
      releaseTx: hash,
    });
    this.options.log?.(`relayer: released ${base.fromChainId}→${base.toChainId} #${base.depositId} (${released.args.amount} to ${released.args.paidTo})`);
    return undefined;
  }

  /** Solana → EVM: releases a deposit on its destination, or refunds it on Solana. */
  private async handleSolanaDeposit(d: SolanaDeposit): Promise<void> {
    const { config, escrow } = this.solana!;
    const memo = d.memo;
    const depositId = solanaDepositId(d.signature);
    const base = { transactionId: d.transferId, fromChainId: SOLANA_CHAIN_ID, toChainId: memo?.destinationChainId ?? 0, depositId, depositTx: d.signature };
    let reason = d.problem;
    if (!reason && memo) {
      const destination = this.chains.get(memo.destinationChainId);
      const fromToken = assetAddress(d.asset);
      const route = config.data.bridges.find((b) => b.bridge === memo.bridge && b.fromChainId === SOLANA_CHAIN_ID && b.toChainId === memo.destinationChainId && b.fromToken === fromToken);
      if (!destination) reason = `destination chain ${memo.destinationChainId} is not running`;
      else if (!/^0x[0-9a-f]{40}$/.test(memo.receiver)) reason = `the receiver ${memo.receiver} is not an EVM address`;
      else if (!route) reason = `unknown route ${memo.bridge} ${SOLANA_CHAIN_ID}→${memo.destinationChainId} for ${fromToken}`;
      else {
        const receiver = getAddress(memo.receiver);
        let receiverOnDestination = receiver;
        let callData = '0x';
        if (memo.hops) {
          try {
            const call = destinationCallOfMemo(config.context(), memo, route.toToken);
            receiverOnDestination = getAddress(call.router);
            callData = call.data;
          } catch (error) {
            reason = `the memo's destination swaps cannot be encoded: ${(error as Error).message}`;
          }
        }
        if (!reason) {
          reason = await this.releaseOnEvm(destination, base, [
            BigInt(SOLANA_CHAIN_ID), depositId, memo.bridge, memo.transferId, foreignTokenId(fromToken), d.amount, receiverOnDestination, receiver,
            memo.minAmountOut, callData,
          ]);
          if (!reason) {
            this.completions.index(d.signature, base.transactionId);
            return;
          }
          // refunded on Solana below: cancelled on the destination first, so that it can never be released after
          await this.sendChecked(destination, 'cancel', [BigInt(SOLANA_CHAIN_ID), depositId], `cancelling Solana deposit ${d.signature} on chain ${memo.destinationChainId}`);
        }
      }
    }
    const refundTx = await escrow.pay(d.sender, d.asset, d.amount, formatRefundMemo({ transferId: d.transferId, depositSignature: d.signature }));
    this.options.log?.(`relayer: refunded ${SOLANA_CHAIN_ID}→${base.toChainId} ${d.signature} (${d.amount} of ${assetAddress(d.asset)} to ${d.sender}): ${reason}`);
    this.completions.complete({ kind: 'refunded', ...base, reason: reason ?? 'not a bridge deposit', refundTx });
    this.completions.index(d.signature, base.transactionId);
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
