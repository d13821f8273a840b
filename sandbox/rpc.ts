/** JSON-RPC helpers for the local anvil chains (settings from /work/shared/reference/local-chains.md). */
import { HDNodeWallet, JsonRpcProvider, Mnemonic, type TransactionReceipt } from 'ethers';

/** anvil's default mnemonic: its dev accounts are unlocked and funded (--balance). */
export const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk';

/** The private key of anvil dev account `index` (m/44'/60'/0'/0/index). */
export function devAccountKey(index: number): string {
  return HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase(ANVIL_MNEMONIC), `m/44'/60'/0'/0/${index}`).privateKey;
}

/** A provider that never caches, never batches and never re-detects the network (see local-chains.md pitfalls 2–4). */
export function makeProvider(url: string, chainId: number): JsonRpcProvider {
  return new JsonRpcProvider(url, chainId, { staticNetwork: true, cacheTimeout: -1, batchMaxCount: 1 });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls eth_getTransactionReceipt every `intervalMs` (anvil answers the hash before the block is visible, and
 * ethers' tx.wait() then falls back to slow block polling: pitfall 1).
 */
export async function waitForReceipt(provider: JsonRpcProvider, hash: string, timeoutMs = 20_000, intervalMs = 5): Promise<TransactionReceipt> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const receipt = await provider.getTransactionReceipt(hash);
    if (receipt) return receipt;
    if (Date.now() > deadline) throw new Error(`no receipt for ${hash} after ${timeoutMs} ms`);
    await sleep(intervalMs);
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

  /** Sends every transaction (pipelined), waits for all receipts and throws if one reverted. */
  async sendAll(txs: readonly (SendOptions & { readonly label?: string })[]): Promise<TransactionReceipt[]> {
    const hashes: string[] = [];
    for (const tx of txs) hashes.push(await this.send(tx)); // sequential sends keep the nonce order on the wire
    const receipts = await Promise.all(hashes.map((h) => waitForReceipt(this.provider, h)));
    receipts.forEach((r, k) => {
      if (r.status !== 1) throw new Error(`transaction ${txs[k].label ?? k} (${hashes[k]}) reverted on chain ${this.provider._network.chainId}`);
    });
    return receipts;
  }
}
