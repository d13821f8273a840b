/**
 * The relayer's outcomes (relayer.ts): what each deposit came to (Completion), kept under its transfer id (and a
 * Solana deposit's signature), and the callers waiting for them (Relayer.waitFor, waitForAll).
 */

/**
 * The outcome of one deposit. On Solana, transactions are signatures (base58) and addresses public keys: `depositTx`
 * of a Solana deposit, `releaseTx` of a release to Solana, `refundTx` of a Solana deposit's refund; `token` and
 * `paidTo` of a release on Solana are the mint (the all-zero key for SOL) and the receiver's wallet.
 */
export type Completion =
  | {
      readonly kind: 'released';
      /** The transfer id (0x + 64 hex, lower case). */
      readonly transactionId: string;
      readonly fromChainId: number;
      readonly toChainId: number;
      /** The source endpoint's deposit id; for a Solana deposit uint256(keccak256(signature)). */
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
      /** The transfer id; 0x00…00 for a Solana deposit that names none. */
      readonly transactionId: string;
      readonly fromChainId: number;
      /** 0 when the deposit names no destination (a Solana deposit without a valid memo). */
      readonly toChainId: number;
      readonly depositId: bigint;
      readonly reason: string;
      readonly depositTx: string;
      readonly refundTx: string;
    };

/** What every completion of a deposit says of it: its transfer, its chains, its deposit id and transaction. */
export type DepositBase = { transactionId: string; fromChainId: number; toChainId: number; depositId: bigint; depositTx: string };

/** Keys of the completions: transfer ids and EVM hashes in lower case, Solana signatures as they are. */
const keyOf = (id: string): string => (/^0x/i.test(id) ? id.toLowerCase() : id);

/** The completions recorded so far, by key, and the callers waiting for a number of them. */
export class Completions {
  private readonly completions = new Map<string, Completion[]>();
  private readonly waiters = new Map<string, { count: number; resolve: (c: Completion[]) => void }[]>();

  /** Forgets every completion (the waiters keep waiting). */
  clear(): void {
    this.completions.clear();
  }

  /**
   * The first `count` completions with this transactionId (or Solana deposit signature), once recorded; rejects after
   * `timeoutMs`, naming the relayer's last error (`lastError`, read then).
   */
  waitForAll(transactionId: string, count: number, timeoutMs: number, lastError: () => Error | undefined): Promise<Completion[]> {
    const id = keyOf(transactionId);
    const done = this.completions.get(id) ?? [];
    if (done.length >= count) return Promise.resolve(done.slice(0, count));
    return new Promise<Completion[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        const error = lastError();
        reject(new Error(`transfer ${transactionId} not relayed within ${timeoutMs} ms${error ? ` (last relayer error: ${error.message})` : ''}`));
      }, timeoutMs);
      const list = this.waiters.get(id) ?? [];
      list.push({ count, resolve: (c) => {
        clearTimeout(timer);
        resolve(c);
      } });
      this.waiters.set(id, list);
    });
  }

  /** Makes a Solana deposit's completion findable by its signature too. */
  index(signature: string, transactionId: string): void {
    const done = this.completions.get(keyOf(transactionId));
    const c = done?.find((x) => x.depositTx === signature);
    if (c) this.complete(c, signature);
  }

  /** Records an outcome under its transfer id (or `key`) and wakes who waits for it. */
  complete(c: Completion, key: string = keyOf(c.transactionId)): void {
    const list = this.completions.get(key) ?? [];
    list.push(c);
    this.completions.set(key, list);
    const waiting = this.waiters.get(key) ?? [];
    const still = waiting.filter((w) => {
      if (list.length < w.count) return true;
      w.resolve(list.slice(0, w.count));
      return false;
    });
    if (still.length > 0) this.waiters.set(key, still);
    else this.waiters.delete(key);
  }
}
