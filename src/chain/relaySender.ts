/**
 * The relayer of gasless steps on one EVM chain: it sends the tasks of the task store (src/core/relay/tasks.ts) from
 * the service's hot wallet and follows them to a receipt.
 *
 * - Nonces come from the store (allocateNonce: the larger of the recorded and the node's pending count, then counted
 *   up atomically), so instances sharing one database and one wallet never give two transactions one nonce.
 * - A transaction is signed, recorded as an attempt, and only then broadcast: after a crash the task is `sent` with the
 *   attempt's hash, and the next look finds its receipt or sends a replacement.
 * - A sent task is looked at again every `recheckAfterMs` for its receipt; one not mined after `resendAfterMs` is sent again under the same nonce with fees raised by at least 12.5 %
 *   (nodes refuse a replacement that pays less than 10 % more) and never below the chain's current ones.
 * - A task whose permit deadline passed before it was mined still holds its nonce, which every later transaction of
 *   the wallet waits for: it is replaced by a transfer of nothing to the relayer itself, and the task fails.
 * - A nonce below a waiting task's that no sent task holds and the chain has not used (the chain dropped a mined
 *   transaction in a reorganisation, a node lost one it had accepted, an instance died between taking a nonce and
 *   recording it) would hold that task and every later one forever: when the task is due for a replacement, each
 *   such nonce is taken by a transfer of nothing first (at most MAX_GAP_FILLS per look).
 * - Below the balance floor the relayer sends nothing new (the relay operation refuses new tasks with 503 then).
 * Tasks are claimed with a lease, so a task is handled by one instance at a time, and by another when its holder died.
 */
import { Transaction, type Provider, type Wallet } from 'ethers';
import type { Logger } from 'pino';
import type { RelayTask, RelayTaskStore } from '../core/relay/tasks';

export interface RelaySenderOptions {
  readonly chainId: number;
  /** The relayer's hot wallet, connected to the chain's provider. */
  readonly wallet: Wallet;
  readonly store: RelayTaskStore;
  /** This instance's name in the leases (unique per process). */
  readonly instance: string;
  /** Below this balance (wei) nothing new is sent. */
  readonly balanceFloorWei: bigint;
  readonly logger: Logger;
  /** How long a claimed task is this instance's (default 30 s). */
  readonly leaseMs?: number;
  /** How long a sent transaction may stay unmined before it is replaced (default 15 s). */
  readonly resendAfterMs?: number;
  /** How soon a sent transaction is looked at again for its receipt (default 1 s). */
  readonly recheckAfterMs?: number;
  /** Tasks claimed at once (default 10). */
  readonly batch?: number;
  /** How often the store is looked at (default 1000 ms). */
  readonly pollIntervalMs?: number;
  readonly clock?: () => number;
}

/** The least raise of a replacement's fees (ppm): 12.5 %, above the 10 % nodes require. */
const REPLACEMENT_BUMP_PPM = 1_125_000n;
const PPM = 1_000_000n;
/** The gas of the transfer of nothing that takes an expired task's nonce, or a nonce no task holds. */
const CANCEL_GAS = 21_000n;
/** The most nonces of a gap taken at one look (a store far ahead of the chain is closed over several looks). */
const MAX_GAP_FILLS = 16;

interface Fees {
  readonly maxFeePerGas: bigint;
  readonly maxPriorityFeePerGas: bigint;
}

export class RelaySender {
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;
  private stopped = false;

  constructor(private readonly options: RelaySenderOptions) {}

  get address(): string {
    return this.options.wallet.address;
  }

  private get provider(): Provider {
    return this.options.wallet.provider!;
  }

  private now(): Date {
    return new Date((this.options.clock ?? Date.now)());
  }

  /** Whether the relayer holds at least its floor (the relay operation asks before it accepts a task). */
  async aboveFloor(): Promise<boolean> {
    return (await this.provider.getBalance(this.address)) >= this.options.balanceFloorWei;
  }

  /** Handles the tasks that need the relayer now; how many were looked at. */
  async runOnce(): Promise<number> {
    const { store, chainId, instance } = this.options;
    const recheck = Math.min(this.options.recheckAfterMs ?? 1000, this.resendAfterMs);
    const tasks = await store.claim(chainId, instance, this.now(), this.options.leaseMs ?? 30_000, recheck, this.options.batch ?? 10);
    for (const task of tasks) {
      try {
        await this.handle(task);
      } catch (error) {
        this.options.logger.warn({ err: error, taskId: task.taskId, chainId }, 'relay task not handled; it is tried again');
      } finally {
        await store.release(task.taskId, instance).catch(() => undefined);
      }
    }
    return tasks.length;
  }

  start(): void {
    const tick = () => {
      if (this.stopped) return;
      this.running = this.runOnce()
        .catch((error: unknown) => this.options.logger.warn({ err: error, chainId: this.options.chainId }, 'relay tasks not read'))
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(tick, this.options.pollIntervalMs ?? 1000);
        });
    };
    tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private async handle(task: RelayTask): Promise<void> {
    const { store } = this.options;
    if (task.state === 'queued') {
      if (this.expired(task)) return store.markFailed(task.taskId, 'the permit\'s deadline passed before the relayer could send it', this.now());
      if (!(await this.aboveFloor())) {
        this.options.logger.warn({ chainId: this.options.chainId, relayer: this.address }, 'relayer below its balance floor: nothing new is sent');
        return;
      }
      const nonce = await store.allocateNonce(this.options.chainId, this.address, BigInt(await this.provider.getTransactionCount(this.address, 'pending')));
      return this.send(task, nonce, await this.currentFees(), false);
    }
    // sent: mined meanwhile (any of its attempts), or to be replaced under its nonce
    for (const attempt of task.attempts) {
      const receipt = await this.provider.getTransactionReceipt(attempt.txHash);
      if (receipt) return store.markMined(task.taskId, attempt.txHash, receipt.status === 1, this.now(), { used: receipt.gasUsed, costWei: receipt.gasUsed * receipt.gasPrice });
    }
    const last = task.attempts[0]!;
    // not mined yet: replaced only once it has waited resendAfterMs (its deadline passed: at once)
    if (this.now().getTime() - last.sentAt.getTime() < this.resendAfterMs && !this.expired(task)) return;
    const nonce = task.relayerNonce!;
    const mined = BigInt(await this.provider.getTransactionCount(this.address, 'latest'));
    if (mined > nonce) {
      // the nonce was taken by a transaction none of the attempts is (its receipt may also still be coming): fail
      // only once that is certain, at the next look, so a receipt arriving late still counts
      if (task.attempts.some((a) => this.now().getTime() - a.sentAt.getTime() < 2 * this.resendAfterMs)) return;
      return store.markFailed(task.taskId, `the relayer's nonce ${nonce} was used by another transaction`, this.now());
    }
    const current = await this.currentFees();
    if (mined < nonce) await this.fillGap(mined, nonce, current);
    const fees = { maxFeePerGas: max(current.maxFeePerGas, bumped(last.maxFeePerGas)), maxPriorityFeePerGas: max(current.maxPriorityFeePerGas, bumped(last.maxPriorityFeePerGas)) };
    return this.send(task, nonce, fees, this.expired(task));
  }

  /**
   * Takes the nonces from `from` (the chain's count of the relayer's mined transactions) up to `to` that no sent task
   * holds with transfers of nothing. Such a nonce was allocated before `to` and so before a transaction that has waited
   * resendAfterMs: no instance is still about to use it. One already taken in the node's pool (a cancel pending) is
   * refused as an underpriced replacement, which changes nothing.
   */
  private async fillGap(from: bigint, to: bigint, fees: Fees): Promise<void> {
    const { wallet, chainId, store, logger } = this.options;
    const held = new Set(await store.sentNonces(chainId, this.address, from, to));
    const free: bigint[] = [];
    for (let nonce = from; nonce < to && free.length < MAX_GAP_FILLS; nonce++) if (!held.has(nonce)) free.push(nonce);
    if (free.length === 0) return;
    logger.warn({ chainId, relayer: this.address, nonces: free.map(String), waiting: String(to) }, 'relayer nonces that no transaction holds: taken by transfers of nothing, so that later transactions are mined');
    for (const nonce of free) {
      const signed = await wallet.signTransaction({ type: 2, chainId, nonce: Number(nonce), ...fees, to: this.address, data: '0x', value: 0n, gasLimit: CANCEL_GAS });
      await this.provider.broadcastTransaction(signed).catch((error: unknown) => logger.warn({ err: error, chainId, nonce: String(nonce) }, 'a transfer of nothing for a free nonce was not accepted by the node'));
    }
  }

  /** Signs, records, then broadcasts; `cancel` sends nothing to the relayer itself under the task's nonce. */
  private async send(task: RelayTask, nonce: bigint, fees: Fees, cancel: boolean): Promise<void> {
    const { wallet, chainId, store } = this.options;
    const signed = await wallet.signTransaction({
      type: 2, chainId, nonce: Number(nonce), ...fees,
      ...(cancel ? { to: this.address, data: '0x', value: 0n, gasLimit: CANCEL_GAS } : { to: task.to, data: task.data, value: 0n, gasLimit: task.gasLimit }),
    });
    const txHash = Transaction.from(signed).hash!;
    await store.recordAttempt(task.taskId, this.address, nonce, { txHash, ...fees, sentAt: this.now() }, this.now());
    try {
      await this.provider.broadcastTransaction(signed);
    } catch (error) {
      // recorded already: the next look finds it mined, or replaces it (a node that refused it keeps nothing)
      this.options.logger.warn({ err: error, taskId: task.taskId, txHash, nonce: String(nonce) }, 'relay transaction not accepted by the node');
    }
    if (cancel) await store.markFailed(task.taskId, 'the permit\'s deadline passed before the transaction was mined; its nonce was taken by a transfer of nothing', this.now());
  }

  private get resendAfterMs(): number {
    return this.options.resendAfterMs ?? 15_000;
  }

  private expired(task: RelayTask): boolean {
    return task.deadline * 1000n <= BigInt(this.now().getTime());
  }

  private async currentFees(): Promise<Fees> {
    const data = await this.provider.getFeeData();
    const priority = data.maxPriorityFeePerGas ?? 0n;
    const maxFee = data.maxFeePerGas ?? data.gasPrice ?? 0n;
    return { maxFeePerGas: max(maxFee, priority), maxPriorityFeePerGas: priority };
  }
}

/** A fee raised by REPLACEMENT_BUMP_PPM, rounded up, and by at least one wei (a fee of 0 stays no replacement). */
function bumped(fee: bigint): bigint {
  return max((fee * REPLACEMENT_BUMP_PPM + PPM - 1n) / PPM, fee + 1n);
}

function max(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}
