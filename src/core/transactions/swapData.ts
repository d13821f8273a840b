/**
 * The SwapData of a route's steps, as the router runs them: an integrator's fee collection (the fee collector's
 * collectTokenFees / collectNativeFees), and each swap hop encoded for its pool kind's own interface (V2 router
 * swapExactTokensForTokens, V3 router exactInput, Curve pool exchange, WETH deposit / withdraw). Every hop pays the
 * router (recipient = router); a hop's fromAmount is the estimate's amount for that hop, its own minimum the hop's
 * estimated output floored by the slippage.
 */
import type { Chain, Token } from '../entities';
import { applySlippageFloor } from '../math/amounts';
import type { PoolState } from '../liquidity/snapshot';
import type { PlannedStep, Route } from '../routing/route';
import {
  encodeCollectNativeFees,
  encodeCollectTokenFees,
  encodeCurveExchange,
  encodeUnwrap,
  encodeV2Swap,
  encodeV3ExactInput,
  encodeWrap,
  packV3Path,
  type SwapData,
} from './calldata';
import type { TransactionContext } from './context';
import { integratorAccount } from './ids';

/** Whether `token` is `chain`'s native coin. */
export function isNative(chain: Chain, token: Token): boolean {
  return token.chainId === chain.id && token.address.toLowerCase() === chain.nativeToken.address.toLowerCase();
}

/** A step of a route (fee collection or swap) as SwapData; `first`: it pulls the user's funds (requiresDeposit). */
export function stepSwapData(ctx: TransactionContext, route: Route, chain: Chain, router: string, step: PlannedStep, slippagePpm: bigint, first: boolean): SwapData {
  const { graph, routers } = ctx;
  const sending = step.fromToken.address;
  const base = { sendingAssetId: sending, receivingAssetId: step.toToken.address, fromAmount: step.fromAmount, requiresDeposit: first };

  if (step.type === 'protocol' && step.tool === 'feeCollection') {
    const feeCollector = routers.feeCollectorOf(chain.id);
    if (!feeCollector) throw new Error(`routers.json has no fee collector on chain ${chain.id}`);
    const serviceFee = step.serviceFee ?? 0n;
    const integratorFee = step.fromAmount - step.toAmount - serviceFee;
    const id = route.request.integrator ?? '';
    const integrator = ctx.integratorAddress?.(id) ?? integratorAccount(id);
    const callData = isNative(chain, step.fromToken)
      ? encodeCollectNativeFees(integratorFee, serviceFee, integrator)
      : encodeCollectTokenFees(sending, integratorFee, serviceFee, integrator);
    return { ...base, callTo: feeCollector, approveTo: feeCollector, callData };
  }
  if (step.type !== 'swap') throw new Error(`cannot encode a ${step.type} step (${step.tool}) as a swap`);
  const pool = step.poolId === undefined ? undefined : graph.poolById(step.poolId);
  if (step.poolId !== undefined && !pool) throw new Error(`pool ${step.poolId} is not in the snapshot`);
  return hopSwapData(ctx, chain, router, { pool, fromToken: step.fromToken, toToken: step.toToken, fromAmount: step.fromAmount, minOut: applySlippageFloor(step.toAmount, slippagePpm) }, first);
}

/** A swap of a route, or of a destination call rebuilt from a Solana memo (destinationCall.ts). */
export interface Hop {
  /** Absent: a wrap or unwrap of the native coin. */
  readonly pool: PoolState | undefined;
  readonly fromToken: Token;
  readonly toToken: Token;
  readonly fromAmount: bigint;
  /** The least output the hop accepts. */
  readonly minOut: bigint;
}

/** One hop as SwapData, encoded for its pool kind's own interface; every hop pays `router`. */
export function hopSwapData(ctx: TransactionContext, chain: Chain, router: string, hop: Hop, first: boolean): SwapData {
  const { graph, routers } = ctx;
  const sending = hop.fromToken.address;
  const receiving = hop.toToken.address;
  const base = { sendingAssetId: sending, receivingAssetId: receiving, fromAmount: hop.fromAmount, requiresDeposit: first };
  const { pool, minOut } = hop;
  if (pool === undefined) {
    // wrap / unwrap of the native coin with the wrapped token's deposit() / withdraw(amount)
    if (isNative(chain, hop.fromToken)) return { ...base, callTo: receiving, approveTo: receiving, callData: encodeWrap() };
    if (isNative(chain, hop.toToken)) return { ...base, callTo: sending, approveTo: sending, callData: encodeUnwrap(hop.fromAmount) };
    throw new Error(`swap ${hop.fromToken.symbol}→${hop.toToken.symbol} has no pool and is no wrap`);
  }
  switch (pool.kind) {
    case 'constantProduct': {
      const exchangeRouter = routers.exchangeRouter(pool.exchange, 'constantProduct', chain.id);
      if (!exchangeRouter) throw new Error(`routers.json has no constantProduct router for exchange ${pool.exchange}`);
      return { ...base, callTo: exchangeRouter.address, approveTo: exchangeRouter.address, callData: encodeV2Swap(hop.fromAmount, minOut, [sending, receiving], router) };
    }
    case 'concentrated': {
      const exchangeRouter = routers.exchangeRouter(pool.exchange, 'concentrated', chain.id);
      if (!exchangeRouter) throw new Error(`routers.json has no concentrated router for exchange ${pool.exchange}`);
      const path = packV3Path([sending, receiving], [pool.feePpm]);
      return { ...base, callTo: exchangeRouter.address, approveTo: exchangeRouter.address, callData: encodeV3ExactInput(path, router, hop.fromAmount, minOut) };
    }
    case 'stableswap': {
      const key = (t: Token) => graph.catalog.addressKey(chain.id, t.address);
      const i = pool.tokens.indexOf(key(hop.fromToken));
      const j = pool.tokens.indexOf(key(hop.toToken));
      if (i < 0 || j < 0) throw new Error(`pool ${pool.id} does not hold ${hop.fromToken.symbol} and ${hop.toToken.symbol}`);
      return { ...base, callTo: pool.address, approveTo: pool.address, callData: encodeCurveExchange(i, j, hop.fromAmount, minOut) };
    }
  }
}
