/**
 * The destination call of a transfer sent from Solana, whose memo carries its destination swaps as hops
 * (src/core/routing/solanaDeposit.ts: per hop the pool, or for a wrap the wrapped native token's contract, the
 * token it gives and the amount it takes, the hop's estimate as an EVM transaction's destination call carries it).
 *
 * destinationCallOfMemo: the call the bridge makes on the destination chain for such a memo, as an EVM
 *   transaction's destination call makes it (build.ts): swapAndCompleteBridgeTokens(transactionId, swapData, bridged
 *   token, receiver, minAmountOut) on the destination router, each hop encoded for its pool kind (hopSwapData).
 *   A hop's own minimum is 0 except the last one's, the memo's minimum: the router checks what arrives in the end.
 *
 * The relayer (sandbox/relayer.ts) encodes the release of a Solana deposit with it, from the same data the service
 * quoted on, so that what a Solana sender signed is the call the destination runs.
 */
import { getAddress } from 'ethers';
import type { Chain, Token } from '../entities';
import type { BridgeMemo } from '../chains/solana/memo';
import type { PoolState } from '../liquidity/snapshot';
import { encodeSwapAndCompleteBridgeTokens } from './calldata';
import type { TransactionContext } from './context';
import { hopSwapData } from './swapData';

export interface DestinationCall {
  /** The destination router (the bridge pays it and calls it). */
  readonly router: string;
  /** swapAndCompleteBridgeTokens(...) */
  readonly data: string;
}

/**
 * The destination call of a memo with hops, on the memo's destination chain, for the token the bridge releases
 * there (`bridgedToken`, an address of that chain). Throws when the memo names a pool or token the data does not
 * know, or a chain without the service's router: the relayer then refunds.
 */
export function destinationCallOfMemo(ctx: TransactionContext, memo: BridgeMemo, bridgedToken: string): DestinationCall {
  const chain = ctx.graph.catalog.getChain(memo.destinationChainId);
  if (!chain) throw new Error(`chain ${memo.destinationChainId} is not in the catalog`);
  const router = ctx.routers.routerOf(chain.id);
  if (!router) throw new Error(`routers.json has no router on chain ${chain.id}`);
  const hops = memo.hops ?? [];
  if (hops.length === 0) throw new Error('the memo has no destination swaps');
  if (!/^0x[0-9a-fA-F]{40}$/.test(memo.receiver)) throw new Error(`the receiver ${memo.receiver} is not an address of ${chain.name}`);
  let from = tokenOf(ctx, chain, bridgedToken);
  const swapData = hops.map((hop, k) => {
    const to = tokenOf(ctx, chain, hop.tokenOut);
    const pool = poolAt(ctx, chain, hop.pool);
    if (!pool && wrappedTokenOf(ctx, chain.id, from, to).address.toLowerCase() !== hop.pool.toLowerCase()) {
      throw new Error(`${hop.pool} is neither a pool of ${chain.name} nor its wrapped native token`);
    }
    const minOut = k === hops.length - 1 ? memo.minAmountOut : 0n;
    const swap = hopSwapData(ctx, chain, router, { pool, fromToken: from, toToken: to, fromAmount: hop.amountIn, minOut }, false);
    from = to;
    return swap;
  });
  const data = encodeSwapAndCompleteBridgeTokens({
    transactionId: memo.transferId,
    swapData,
    transferredAssetId: tokenOf(ctx, chain, bridgedToken).address,
    receiver: getAddress(memo.receiver),
    minAmountOut: memo.minAmountOut,
  });
  return { router, data };
}

function tokenOf(ctx: TransactionContext, chain: Chain, address: string): Token {
  const token = ctx.graph.catalog.findToken(chain.id, address);
  if (!token) throw new Error(`${address} is not a token of ${chain.name} in the catalog`);
  return token;
}

function poolAt(ctx: TransactionContext, chain: Chain, address: string): PoolState | undefined {
  const wanted = address.toLowerCase();
  return ctx.graph.pools.find((p) => p.chainId === chain.id && p.address.toLowerCase() === wanted);
}

/** The wrapped native token a wrap (native → wrapped) or unwrap (wrapped → native) calls. */
function wrappedTokenOf(ctx: TransactionContext, chainId: number, from: Token, to: Token): Token {
  const wrapped = ctx.graph.wrappedNativeOf(chainId);
  if (wrapped === undefined) throw new Error(`chain ${chainId} has no wrapped native token`);
  const key = (t: Token) => ctx.graph.catalog.addressKey(chainId, t.address);
  const token = key(from) === wrapped ? from : key(to) === wrapped ? to : undefined;
  if (!token) throw new Error(`${from.symbol}→${to.symbol} is no wrap or unwrap on chain ${chainId}`);
  return token;
}
