/** JSON-RPC helpers for the local anvil chains (settings from /work/shared/reference/local-chains.md). */
import { HDNodeWallet, JsonRpcApiProvider, JsonRpcProvider, Mnemonic, Network, type Provider, type TransactionReceipt } from 'ethers';

/** anvil's default mnemonic: its dev accounts are unlocked and funded (--balance). */
export const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk';

/** The private key of anvil dev account `index` (m/44'/60'/0'/0/index). */
export function devAccountKey(index: number): string {
  return HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase(ANVIL_MNEMONIC), `m/44'/60'/0'/0/${index}`).privateKey;
}

/** A provider that never caches, never batches, never re-detects the network (see local-chains.md pitfalls 2–4) and polls often. */
export function makeProvider(url: string, chainId: number): JsonRpcProvider {
  // pollingInterval: a transaction's wait() polls for its receipt this often (ethers' default, 4 s, is for real chains).
  // The network is a plain one of the chain id, not ethers' named network: that of Polygon (137) carries a plugin that
  // asks Polygon's gas station on the internet for getFeeData, which a devnet has nothing to do with.
  const network = new Network(`sandbox-${chainId}`, chainId);
  return new JsonRpcProvider(url, network, { staticNetwork: network, cacheTimeout: -1, batchMaxCount: 1, pollingInterval: 20 });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** waitForReceipt's limits (the positional form `waitForReceipt(provider, hash, timeoutMs, intervalMs)` still works). */
export interface WaitForReceiptOptions {
  /** Give up after this long (default 20 s: anvil mines at once; a real chain needs more). */
  readonly timeoutMs?: number;
  /** Between two eth_getTransactionReceipt (default 5 ms: anvil; a real chain's RPC wants a second or more). */
  readonly intervalMs?: number;
  /** The chain, for the timeout's message (default: the provider's network, when it knows it). */
  readonly chainId?: number | bigint;
}

/** No receipt for `hash` on `chainId` within `timeoutMs`. */
export class ReceiptTimeoutError extends Error {
  constructor(readonly hash: string, readonly chainId: string, readonly timeoutMs: number) {
    super(`transaction ${hash} on chain ${chainId}: no receipt after ${timeoutMs} ms`);
    this.name = 'ReceiptTimeoutError';
  }
}

/** The provider's chain id without asking the node when it is known already (static network), else asked for 1 s at most. */
async function chainIdOf(provider: Provider, known: number | bigint | undefined): Promise<string> {
  if (known !== undefined) return String(known);
  if (provider instanceof JsonRpcApiProvider) {
    try {
      return String(provider._network.chainId);
    } catch {
      /* not detected yet */
    }
  }
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      provider.getNetwork().then((n) => String(n.chainId), () => 'unknown'),
      new Promise<string>((resolve) => {
        timer = setTimeout(() => resolve('unknown'), 1000);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Polls eth_getTransactionReceipt every `intervalMs` until the receipt is there (anvil answers the hash before the
 * block is visible, and ethers' tx.wait() then falls back to block polling, which can start after the block that
 * holds the transaction and, with automine, wait for a block that never comes: pitfall 1). Any provider (a
 * signer's `provider` too). Throws a ReceiptTimeoutError naming the hash and the chain id after `timeoutMs`, also
 * when the node stops answering mid-request.
 */
export async function waitForReceipt(provider: Provider, hash: string, options?: WaitForReceiptOptions): Promise<TransactionReceipt>;
export async function waitForReceipt(provider: Provider, hash: string, timeoutMs?: number, intervalMs?: number): Promise<TransactionReceipt>;
export async function waitForReceipt(provider: Provider, hash: string, limits?: number | WaitForReceiptOptions, interval?: number): Promise<TransactionReceipt> {
  const o: WaitForReceiptOptions = typeof limits === 'object' ? limits : { timeoutMs: limits, intervalMs: interval };
  const timeoutMs = o.timeoutMs ?? 20_000;
  const intervalMs = o.intervalMs ?? 5;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = deadline - Date.now();
    let timer: NodeJS.Timeout | undefined;
    const poll = provider.getTransactionReceipt(hash);
    const receipt = await Promise.race([
      poll,
      new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), Math.max(left, 0));
      }),
    ]).finally(() => clearTimeout(timer));
    if (receipt === 'timeout') {
      poll.catch(() => undefined); // a request the node never answers (its late failure is of no interest)
      throw new ReceiptTimeoutError(hash, await chainIdOf(provider, o.chainId), timeoutMs);
    }
    if (receipt) return receipt;
    if (Date.now() >= deadline) throw new ReceiptTimeoutError(hash, await chainIdOf(provider, o.chainId), timeoutMs);
    await sleep(Math.min(intervalMs, deadline - Date.now()));
  }
}

export interface SendOptions {
  readonly to: string;
  readonly data?: string;
  readonly value?: bigint;
  readonly gas?: bigint;
}

/**
 * Sends transactions from an unlocked dev account with eth_sendTransaction and explicit nonces, so that many can
 * be in flight at once (anvil queues future nonces until the gaps fill).
 */
export class UnlockedSender {
  private nonce: number | undefined;

  constructor(readonly provider: JsonRpcProvider, readonly from: string) {}

  /** Reads the nonce from the chain again on the next send (after evm_revert). */
  reset(): void {
    this.nonce = undefined;
  }

  async send(tx: SendOptions): Promise<string> {
    if (this.nonce === undefined) this.nonce = await this.provider.getTransactionCount(this.from, 'pending');
    const nonce = this.nonce++;
    return (await this.provider.send('eth_sendTransaction', [
      {
        from: this.from,
        to: tx.to,
        data: tx.data ?? '0x',
        value: `0x${(tx.value ?? 0n).toString(16)}`,
        gas: `0x${(tx.gas ?? 5_000_000n).toString(16)}`,
        nonce: `0x${nonce.toString(16)}`,
      },
    ])) as string;
  }

  /**
   * Sends every transaction and mines them together: automine off, all sent in one JSON-RPC batch (explicit
   * nonces), one evm_mine (the devnet has no block gas limit), automine back on, the receipts read in one batch;
   * throws if one reverted.
   */
  async sendAll(txs: readonly (SendOptions & { readonly label?: string })[]): Promise<void> {
    if (txs.length === 0) return;
    if (this.nonce === undefined) this.nonce = await this.provider.getTransactionCount(this.from, 'pending');
    const url = this.provider._getConnection().url;
    const first = this.nonce;
    this.nonce += txs.length;
    await this.provider.send('evm_setAutomine', [false]);
    let hashes: string[];
    try {
      hashes = (await rpcBatch(url, txs.map((tx, k) => ['eth_sendTransaction', [{
        from: this.from,
        to: tx.to,
        data: tx.data ?? '0x',
        value: `0x${(tx.value ?? 0n).toString(16)}`,
        gas: `0x${(tx.gas ?? 5_000_000n).toString(16)}`,
        nonce: `0x${(first + k).toString(16)}`,
      }]]))) as string[];
      await this.provider.send('evm_mine', []);
    } finally {
      await this.provider.send('evm_setAutomine', [true]);
    }
    const receipts = (await rpcBatch(url, hashes.map((h) => ['eth_getTransactionReceipt', [h]]))) as ({ status: string } | null)[];
    receipts.forEach((r, k) => {
      if (!r) throw new Error(`transaction ${txs[k].label ?? k} (${hashes[k]}) was not mined on chain ${this.provider._network.chainId}`);
      if (r.status !== '0x1') throw new Error(`transaction ${txs[k].label ?? k} (${hashes[k]}) reverted on chain ${this.provider._network.chainId}`);
    });
  }
}

/** JSON-RPC requests in batches; throws on the first error answer. Results in request order. */
export async function rpcBatch(url: string, requests: readonly (readonly [string, readonly unknown[]])[], batchSize = 500): Promise<unknown[]> {
  const results: unknown[] = [];
  for (let k = 0; k < requests.length; k += batchSize) {
    const chunk = requests.slice(k, k + batchSize);
    const body = chunk.map(([method, params], n) => ({ jsonrpc: '2.0', id: n, method, params }));
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`JSON-RPC batch: HTTP ${response.status} from ${url}`);
    const answers = (await response.json()) as { id: number; result?: unknown; error?: { message: string } }[];
    if (!Array.isArray(answers)) throw new Error(`JSON-RPC batch of ${chunk.length} (${chunk[0][0]}…) refused by ${url}: ${JSON.stringify(answers).slice(0, 300)}`);
    const byId = new Map(answers.map((a) => [a.id, a]));
    chunk.forEach(([method], n) => {
      const a = byId.get(n);
      if (!a) throw new Error(`JSON-RPC batch: no answer to ${method}`);
      if (a.error) throw new Error(`${method}: ${a.error.message}`);
      results.push(a.result);
    });
  }
  return results;
}

export type CallResult = { readonly ok: true; readonly data: string } | { readonly ok: false; readonly error: string; readonly data?: string };

/** Many eth_call in JSON-RPC batches (about 10,000 calls a second on anvil, against ~400 one at a time). */
export async function batchEthCall(url: string, calls: readonly { readonly to: string; readonly data: string }[], batchSize = 200): Promise<CallResult[]> {
  const results: CallResult[] = [];
  for (let k = 0; k < calls.length; k += batchSize) {
    const chunk = calls.slice(k, k + batchSize);
    const body = chunk.map((c, n) => ({ jsonrpc: '2.0', id: n, method: 'eth_call', params: [{ to: c.to, data: c.data }, 'latest'] }));
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`eth_call batch: HTTP ${response.status} from ${url}`);
    const answers = (await response.json()) as { id: number; result?: string; error?: { message: string; data?: string } }[];
    const byId = new Map(answers.map((a) => [a.id, a]));
    chunk.forEach((_, n) => {
      const a = byId.get(n);
      if (!a) results.push({ ok: false, error: 'no answer' });
      else if (a.error) results.push({ ok: false, error: a.error.message, data: a.error.data });
      else results.push({ ok: true, data: a.result! });
    });
  }
  return results;
}
