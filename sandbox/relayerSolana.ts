/**
 * The relayer's side toward Solana (relayer.ts): what it needs of the sandbox's Solana chain (SolanaRelayConfig), and
 * the release of an EVM deposit on Solana, priced with its bridge route's fee model and paid by the bridge escrow.
 */
import { address, getBase58Decoder, type KeyPairSigner } from '@solana/kit';
import { bridgeOut } from '../src/core/math/bridge';
import { formatReleaseMemo } from '../src/core/chains/solana/memo';
import type { TransactionContext } from '../src/core/transactions/context';
import { tokenDecimals, type SandboxData } from './data';
import type { Completion, DepositBase } from './relayerCompletions';
import { SOL_ADDRESS, SOLANA_CHAIN_ID, type EscrowMint, type SolanaAsset, type SolanaEscrow } from './solana/bridge';

/** What the relayer needs of the sandbox's Solana chain (Relayer.addSolana). */
export interface SolanaRelayConfig {
  /** The chain's JSON-RPC URL. */
  readonly url: string;
  /** The bridge escrow's keypair (devnet.bridgeEscrow.signer): it signs releases and refunds, and pays their fees. */
  readonly escrow: KeyPairSigner;
  /** The catalog's SPL mints the escrow holds (its token accounts are watched for deposits). */
  readonly mints: readonly EscrowMint[];
  /** Bridge routes and token decimals (EVM → Solana fee model). */
  readonly data: SandboxData;
  /** Graph and routers of the data the service quotes on: the destination call of a memo with hops. */
  readonly context: () => TransactionContext;
  /** Solana is polled at most this often (default 50 ms). */
  readonly intervalMs?: number;
}

/**
 * EVM → Solana: what arrives by the route's fee model, paid by the escrow to nonEVMReceiver with the release memo;
 * undefined once released (its completion given to `complete`, a line to `log`), or why it cannot be.
 */
export async function releaseOnSolana(
  config: SolanaRelayConfig,
  escrow: SolanaEscrow,
  base: DepositBase,
  r: { bridge: string; token: string; amount: bigint; nonEVMReceiver: string; destinationMinAmount: bigint; destinationCallData: string },
  complete: (c: Completion) => void,
  log?: (line: string) => void,
): Promise<string | undefined> {
  const receiverBytes = Buffer.from(r.nonEVMReceiver.slice(2), 'hex');
  if (receiverBytes.length !== 32) return `the receiver on Solana must be a 32-byte public key, not ${r.nonEVMReceiver}`;
  if (r.destinationCallData !== '0x') return 'the bridge runs no destination call on Solana';
  const route = config.data.bridges.find((b) => b.bridge === r.bridge && b.fromChainId === base.fromChainId && b.toChainId === SOLANA_CHAIN_ID
    && b.fromToken.toLowerCase() === r.token.toLowerCase());
  if (!route) return `unknown route ${r.bridge} ${base.fromChainId}→${SOLANA_CHAIN_ID} for ${r.token}`;
  const maxAmount = BigInt(route.maxAmount);
  const quote = bridgeOut(r.amount, {
    fixedFee: BigInt(route.fixedFee), feePpm: BigInt(route.feePpm), destinationGasFee: BigInt(route.destinationGasFee),
    minAmount: BigInt(route.minAmount), ...(maxAmount === 0n ? {} : { maxAmount }), // 0: no upper limit, as the endpoint reads it
  });
  if (!quote.ok) return `${quote.reason} (limit ${quote.limit}) on ${r.bridge} ${base.fromChainId}→${SOLANA_CHAIN_ID}`;
  const out = rescale(quote.amountOut, tokenDecimals(config.data, base.fromChainId, route.fromToken), tokenDecimals(config.data, SOLANA_CHAIN_ID, route.toToken));
  if (out === 0n) return `FEES_HIGHER_THAN_AMOUNT on ${r.bridge} ${base.fromChainId}→${SOLANA_CHAIN_ID}: nothing left in the Solana token's decimals`;
  if (out < r.destinationMinAmount) return `below the destination minimum: ${out} < ${r.destinationMinAmount}`;
  let asset: SolanaAsset;
  if (route.toToken === SOL_ADDRESS) asset = { kind: 'native' };
  else {
    const mint = escrow.mint(route.toToken);
    if (!mint) return `the escrow holds no ${route.toToken}`;
    asset = { kind: 'spl', mint: address(mint.address), decimals: mint.decimals };
  }
  const receiver = getBase58Decoder().decode(receiverBytes);
  let signature: string;
  try {
    signature = await escrow.pay(receiver, asset, out, formatReleaseMemo({ transferId: base.transactionId, sourceChainId: base.fromChainId, depositId: base.depositId }));
  } catch (error) {
    return `release on Solana failed: ${(error as Error).message}`;
  }
  complete({
    kind: 'released', ...base, token: route.toToken, amount: out, paidTo: receiver, destinationCall: false, destinationCallSucceeded: false, releaseTx: signature,
  });
  log?.(`relayer: released ${base.fromChainId}→${SOLANA_CHAIN_ID} #${base.depositId} (${out} of ${route.toToken} to ${receiver}: ${signature})`);
  return undefined;
}

/** An amount in `from` decimals in `to` decimals, rounding down (as BridgeEndpoint._bridgeOut). */
function rescale(amount: bigint, from: number, to: number): bigint {
  if (to > from) return amount * 10n ** BigInt(to - from);
  if (from > to) return amount / 10n ** BigInt(from - to);
  return amount;
}
