/** Per-chain gas and timing: gas price (gwei in the hand table → wei), the native coin's catalog price, block time
 *  and source finality. Non-EVM chains have gasPriceWei "0" and a flat `txFee` per source transaction in raw
 *  units of their native coin. */
import type { ChainContext } from './inputs';
import type { SnapshotChain } from './types';
import { scaleDecimal } from './units';

export function buildChainEntry(ctx: ChainContext): SnapshotChain {
  const { chain, params } = ctx;
  const base = {
    chainId: chain.id,
    gasPriceWei: '0',
    nativePriceUSD: chain.nativeToken.priceUSD,
    blockTimeSeconds: params.blockTimeSeconds,
    finalitySeconds: params.finalitySeconds,
  };
  if (ctx.isEvm) {
    const wei = scaleDecimal(params.gasPriceGwei!, 9);
    if (wei <= 0n) throw new Error(`chain ${chain.id}: gas price must be positive`);
    return { ...base, gasPriceWei: wei.toString() };
  }
  if (!params.txFee) throw new Error(`liquidity.json: non-EVM chain ${chain.id} needs txFee`);
  return { ...base, txFee: scaleDecimal(params.txFee, chain.nativeToken.decimals).toString() };
}
