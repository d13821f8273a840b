/**
 * A sent transaction's receipt, waited for as the sandbox waits (sandbox/rpc.ts waitForReceipt: the receipt polled,
 * with a time limit) instead of ethers' `tx.wait()`, whose block polling can start after the block that holds the
 * transaction and then wait for a block that never comes (automine: no block without a transaction), until the test's
 * own timeout; fails on a reverted transaction, as `tx.wait()` does.
 */
import type { TransactionReceipt, TransactionResponse } from 'ethers';
import { waitForReceipt } from '../../sandbox/rpc';

export async function mined(sending: TransactionResponse | Promise<TransactionResponse>): Promise<TransactionReceipt> {
  const tx = await sending;
  const receipt = await waitForReceipt(tx.provider, tx.hash);
  if (receipt.status !== 1) throw new Error(`transaction ${tx.hash} reverted (status ${receipt.status})`);
  return receipt;
}
