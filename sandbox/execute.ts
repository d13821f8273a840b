/**
 * Executing the service's answers on the devnet: approvals, signing and sending a transactionRequest exactly as
 * the service returned it (legacy transaction with its gasPrice and gasLimit), balances.
 */
import { Contract, Interface, Transaction, type JsonRpcProvider, type TransactionReceipt, type Wallet } from 'ethers';
import { isNative } from './data';
import { waitForReceipt } from './rpc';

const ERC20 = new Interface([
  'function approve(address spender, uint256 amount) returns (bool)',
  'function allowance(address owner, address spender) view returns (uint256)',
  'function balanceOf(address owner) view returns (uint256)',
]);

/** The transactionRequest of a quote step, as the service writes it. */
export interface WireTransactionRequest {
  readonly chainId: number;
  readonly to: string;
  readonly from?: string;
  readonly data: string;
  readonly value: string;
  readonly gasLimit: string;
  readonly gasPrice: string;
}

export async function balanceOf(provider: JsonRpcProvider, token: string, owner: string): Promise<bigint> {
  if (isNative(token)) return provider.getBalance(owner);
  return (await new Contract(token, ERC20, provider).balanceOf(owner)) as bigint;
}

/** Signs and sends a transaction with an explicit nonce, then polls for its receipt (pitfall 1 of local-chains.md). */
export async function signAndSend(
  wallet: Wallet,
  tx: { to: string; data: string; value?: bigint; gasLimit: bigint; gasPrice: bigint; chainId: number },
): Promise<TransactionReceipt> {
  const provider = wallet.provider as JsonRpcProvider;
  const nonce = await provider.getTransactionCount(wallet.address, 'pending');
  const signed = await wallet.signTransaction(Transaction.from({
    type: 0, chainId: tx.chainId, nonce, to: tx.to, data: tx.data, value: tx.value ?? 0n, gasLimit: tx.gasLimit, gasPrice: tx.gasPrice,
  }));
  const hash = (await provider.send('eth_sendRawTransaction', [signed])) as string;
  return waitForReceipt(provider, hash);
}

/** Approves `spender` for `amount` of `token` unless the allowance already covers it. */
export async function approveIfNeeded(wallet: Wallet, token: string, spender: string, amount: bigint): Promise<TransactionReceipt | undefined> {
  if (isNative(token) || /^0x0{40}$/i.test(spender)) return undefined;
  const provider = wallet.provider as JsonRpcProvider;
  const allowance = (await new Contract(token, ERC20, provider).allowance(wallet.address, spender)) as bigint;
  if (allowance >= amount) return undefined;
  const network = await provider.getNetwork();
  const receipt = await signAndSend(wallet, {
    to: token, data: ERC20.encodeFunctionData('approve', [spender, amount]), gasLimit: 100_000n,
    gasPrice: (await provider.getFeeData()).gasPrice ?? 1n, chainId: Number(network.chainId),
  });
  if (receipt.status !== 1) throw new Error(`approve of ${token} for ${spender} reverted`);
  return receipt;
}

/** Sends a quote's transactionRequest as it is (to, data, value, gasLimit, gasPrice, chainId), from `wallet`. */
export async function sendTransactionRequest(wallet: Wallet, request: WireTransactionRequest): Promise<TransactionReceipt> {
  if (request.from && request.from.toLowerCase() !== wallet.address.toLowerCase()) {
    throw new Error(`transactionRequest.from ${request.from} is not the wallet ${wallet.address}`);
  }
  return signAndSend(wallet, {
    to: request.to,
    data: request.data,
    value: BigInt(request.value),
    gasLimit: BigInt(request.gasLimit),
    gasPrice: BigInt(request.gasPrice),
    chainId: Number(request.chainId),
  });
}

/** The revert data of a failed transaction, replayed as a call at the block before it (for error messages). */
export async function replayRevert(provider: JsonRpcProvider, receipt: TransactionReceipt, iface?: Interface): Promise<string> {
  const tx = await provider.getTransaction(receipt.hash);
  if (!tx) return 'unknown transaction';
  try {
    await provider.call({ from: tx.from, to: tx.to, data: tx.data, value: tx.value, gasLimit: tx.gasLimit, blockTag: receipt.blockNumber - 1 });
    return `no revert when replayed (gas used ${receipt.gasUsed} of ${tx.gasLimit}: out of gas?)`;
  } catch (error) {
    const e = error as { data?: string; shortMessage?: string; message?: string };
    if (iface && typeof e.data === 'string') {
      try {
        const parsed = iface.parseError(e.data);
        if (parsed) return `${parsed.name}(${parsed.args.map(String).join(', ')})`;
      } catch {
        /* not decodable */
      }
    }
    return `${e.shortMessage ?? e.message ?? String(error)}${e.data ? ` data=${e.data}` : ''}`;
  }
}
