/**
 * Builds the transaction of one transaction of a route: a call of the service's router on the sending
 * chain, encoded with ethers.
 *
 * - Same chain: swapTokensGeneric(transactionId, integrator, referrer, receiver, minAmountOut = toAmountMin, swapData).
 * - Bridge: startBridgeTokensVia<B>(bridgeData, data), or swapAndStartBridgeTokensVia<B>(bridgeData, swapData, data)
 *   when something runs before the bridge (integrator fee collection, source swaps). BridgeData.minAmount is the
 *   least amount of sendingAssetId handed to the bridge (the exact amount without source swaps, the swaps' output
 *   floored by the slippage with them); data.destinationMinAmount is the step's toAmountMin on the destination.
 *   Destination swaps run in data.destinationCallData = swapAndCompleteBridgeTokens(transactionId, swapData,
 *   bridged token, receiver, toAmountMin) on the destination router, which the bridge pays.
 * - swapData: [fee collection] + one SwapData per hop, in route order, each encoded for its pool kind's own
 *   interface (swapData.ts: V2 router swapExactTokensForTokens, V3 router exactInput, Curve pool exchange, WETH
 *   deposit / withdraw); the first one pulls the user's funds (requiresDeposit). Every hop pays the router
 *   (recipient = router), which checks the final minimum and pays the receiver. A hop's fromAmount is the
 *   estimate's amount for that hop; its own minimum is the hop's estimated output floored by the slippage.
 * - A destination gas refuel (fromAmountForGas) is a second leg inside the same transaction: one more SwapData,
 *   after the main leg's own, whose callTo is the router itself and whose callData is the refuel leg's own router
 *   call (its swaps, bridge and destination swap to the native coin; minimum = its output floored by the slippage).
 * - Contract calls (POST /v1/quote/contractCalls, the `calls` argument): on one chain the transaction is
 *   swapAndCall(transactionId, integrator, referrer, receiver, sendingAssetId = fromToken, fromAmount, minAmountOut =
 *   toAmountMin, swapData, calls), the router pulling fromAmount itself (no SwapData requires a deposit); across
 *   chains the destination call is always present (hasDestinationCall, paid to the destination router), as
 *   swapAndCompleteBridgeTokensWithCalls(transactionId, destination swaps, bridged token, receiver, toAmountMin, calls).
 *   See abi.ts for the router's semantics.
 * - value = the native coin sent (native input) + native fees paid on top; gasLimit = the estimate's limit
 *   (estimate + 25 %); gasPrice = the snapshot's gas price of the chain.
 */
import { getAddress } from 'ethers';
import type { Chain, Token } from '../entities';
import type { RouterDeployments } from '../catalog/routers';
import type { FamilyAddress } from '../chains/family';
import { familyOf } from '../chains/families';
import { applySlippageFloor, fractionToPpm } from '../math/amounts';
import { BoundedMemo } from '../memo';
import type { RoutingGraph } from '../routing/graph';
import type { PlannedStep, Route, RouteTransaction } from '../routing/route';
import { NON_EVM_ADDRESS } from './abi';
import {
  encodeBridgeCall,
  encodeSwapAndCall,
  encodeSwapAndCompleteBridgeTokens,
  encodeSwapAndCompleteBridgeTokensWithCalls,
  encodeSwapTokensGeneric,
  type BridgeData,
  type BridgeSpecificData,
  type ContractCallData,
  type SwapData,
} from './calldata';
import type { EvmTransactionRequest, TransactionContext } from './context';
import { isEvmAddress, transactionIdOf, zeroAddressOf, ZERO_ADDRESS } from './ids';
import { PARAMETER_NAMES, stepAddresses, type ParameterNames } from './requestAddresses';
import { isNative, stepSwapData } from './swapData';

/** The address to approve `token` to on `chain`: the router for ERC-20 tokens, the chain's zero address otherwise. */
export function approvalAddressOf(routers: RouterDeployments, chain: Chain, token: Token): string {
  const router = routers.routerOf(chain.id);
  if (!familyOf(chain).approvals || !router || isNative(chain, token)) return zeroAddressOf(chain);
  return router;
}

/**
 * The transaction of `route.transactions[index]`, for the step `stepId`; undefined when its chain is not an
 * EVM chain (those transactions are not built yet). Throws InvalidRequestError when an address does not fit
 * its chain (fromAddress on the sending chain, toAddress on the receiving one), naming the field as `names`
 * says. `calls`: contract calls that run after the route's swaps (on the destination chain across chains), in order.
 */
export function buildTransaction(
  ctx: TransactionContext, route: Route, index: number, stepId: string, names: ParameterNames = PARAMETER_NAMES,
  calls?: readonly ContractCallData[],
): EvmTransactionRequest | undefined {
  const { graph, routers } = ctx;
  const tx = route.transactions[index];
  if (!tx) throw new Error(`route ${route.id} has no transaction ${index}`);
  const chain = catalogChain(graph, tx.chainId);
  const toChain = catalogChain(graph, tx.toChainId);
  // the router's call data: routes from other families are refused before (buildRouteRequest)
  const family = familyOf(chain);
  if (!family.evmContracts) return undefined;
  const router = routers.routerOf(chain.id);
  if (!router) throw new Error(`routers.json has no router on chain ${chain.id}`);

  const { from, receiver } = stepAddresses(chain, toChain, route.request, names);
  const transactionId = transactionIdOf(stepId);
  const slippagePpm = fractionToPpm(route.slippage, 'up');
  const legContext: LegContext = {
    ctx, route, chain, toChain, router, receiver, transactionId, slippagePpm,
    integrator: route.request.integrator ?? '',
    referrer: route.request.referrer ?? '',
  };
  const { main, refuel } = splitRefuel(tx.steps, chain.id);
  const extraSwaps: SwapData[] = [];
  if (refuel.length > 0 && route.gasRefuel) {
    // The destination gas refuel (fromAmountForGas) is its own leg: a nested call of the router itself.
    const refuelCall = encodeLeg(legContext, refuel, refuelToAmountMin(route)!, []);
    extraSwaps.push({
      callTo: router,
      approveTo: router,
      sendingAssetId: tx.fromToken.address,
      receivingAssetId: tx.fromToken.address,
      fromAmount: route.gasRefuel.fromAmount,
      callData: refuelCall,
      requiresDeposit: true,
    });
  }
  const withCalls = calls ? { calls, sendingAssetId: tx.fromToken.address, fromAmount: tx.fromAmount } : undefined;
  const data = encodeLeg(legContext, main, tx.toAmountMin, extraSwaps, withCalls);

  return {
    chainId: chain.id,
    to: router,
    ...(from !== undefined ? { from: checksummed(from) } : {}),
    data,
    value: nativeValue(chain, tx),
    gasLimit: tx.gasCost.limit,
    gasPrice: tx.gasCost.price,
  };
}

/**
 * The least native coin the gas refuel delivers: its estimate floored by the step's slippage (the step's one
 * slippage applies to both legs, so a re-priced step gives the same minimum).
 */
export function refuelToAmountMin(route: Route): bigint | undefined {
  return route.gasRefuel ? applySlippageFloor(route.gasRefuel.toAmount, fractionToPpm(route.slippage, 'up')) : undefined;
}

interface LegContext {
  readonly ctx: TransactionContext;
  readonly route: Route;
  readonly chain: Chain;
  readonly toChain: Chain;
  readonly router: string;
  readonly receiver: string;
  readonly transactionId: string;
  readonly slippagePpm: bigint;
  readonly integrator: string;
  readonly referrer: string;
}

/**
 * Splits a transaction's steps into the main transfer and the gas refuel merged after it (fromAmountForGas):
 * the refuel starts at the first step after the main transfer's bridge that is not one of its destination swaps.
 */
function splitRefuel(steps: readonly PlannedStep[], sourceChainId: number): { main: readonly PlannedStep[]; refuel: readonly PlannedStep[] } {
  const cross = steps.findIndex((s) => s.type === 'cross');
  if (cross < 0) return { main: steps, refuel: [] };
  let end = cross + 1;
  while (end < steps.length && steps[end].type === 'swap' && steps[end].fromChainId !== sourceChainId) end += 1;
  return { main: steps.slice(0, end), refuel: steps.slice(end) };
}

/** Contract calls of a leg, with what swapAndCall pulls from the sender on one chain. */
interface LegCalls {
  readonly calls: readonly ContractCallData[];
  readonly sendingAssetId: string;
  readonly fromAmount: bigint;
}

/**
 * One leg (at most one bridge) as a router call: swapTokensGeneric on one chain (swapAndCall with contract
 * calls), else startBridgeTokensVia<B> / swapAndStartBridgeTokensVia<B>; `extraSwaps` run after the leg's own swaps.
 */
function encodeLeg(leg: LegContext, steps: readonly PlannedStep[], toAmountMin: bigint, extraSwaps: readonly SwapData[], withCalls?: LegCalls): string {
  const { ctx, route, chain, toChain, router, receiver, transactionId, slippagePpm } = leg;
  const crossAt = steps.findIndex((s) => s.type === 'cross');
  const sourceSteps = crossAt < 0 ? steps : steps.slice(0, crossAt);
  const destinationSteps = crossAt < 0 ? [] : steps.slice(crossAt + 1);
  // swapAndCall pulls the sent amount itself: none of its SwapData requires a deposit
  const deposits = !(crossAt < 0 && withCalls);
  // The first SwapData pulls the user's funds. Without a fee step (which pulls the whole amount), each
  // parallel path of a split starts with its own deposit: a path starts where the chain of tokens breaks.
  const feeFirst = sourceSteps[0]?.type === 'protocol';
  const startsPath = (k: number) => k === 0 || (!feeFirst && sourceSteps[k - 1].toToken.address !== sourceSteps[k].fromToken.address);
  const sourceSwaps = sourceSteps.map((s, k) => stepSwapData(ctx, route, chain, router, s, slippagePpm, deposits && startsPath(k)));
  if (crossAt < 0 && withCalls) {
    return encodeSwapAndCall({
      transactionId, integrator: leg.integrator, referrer: leg.referrer, receiver,
      sendingAssetId: withCalls.sendingAssetId, fromAmount: withCalls.fromAmount, minAmountOut: toAmountMin,
      swapData: [...sourceSwaps, ...extraSwaps], calls: withCalls.calls,
    });
  }
  if (crossAt < 0) {
    return encodeSwapTokensGeneric({
      transactionId, integrator: leg.integrator, referrer: leg.referrer, receiver, minAmountOut: toAmountMin,
      swapData: [...sourceSwaps, ...extraSwaps],
    });
  }
  const cross = steps[crossAt];
  const toFamily = familyOf(toChain);
  const toEvm = toFamily.evmContracts;
  const destinationRouter = toEvm ? ctx.routers.routerOf(toChain.id) : undefined;
  let destinationCallData = '0x';
  const hasDestinationCall = destinationSteps.length > 0 || withCalls !== undefined;
  if (hasDestinationCall) {
    if (!destinationRouter) throw new Error(`routers.json has no router on chain ${toChain.id} for the destination call`);
    const destinationSwaps = destinationSteps.map((s) => stepSwapData(ctx, route, toChain, destinationRouter, s, slippagePpm, false));
    const completion = { transactionId, swapData: destinationSwaps, transferredAssetId: cross.toToken.address, receiver, minAmountOut: toAmountMin };
    destinationCallData = withCalls
      ? encodeSwapAndCompleteBridgeTokensWithCalls({ ...completion, calls: withCalls.calls })
      : encodeSwapAndCompleteBridgeTokens(completion);
  }
  const swapped = sourceSteps.some((s) => s.type === 'swap' && s.poolId !== undefined);
  const bridgeData: BridgeData = {
    transactionId,
    bridge: cross.bridge?.bridge ?? cross.tool,
    integrator: leg.integrator,
    referrer: isEvmAddress(leg.referrer) ? checksummed(leg.referrer) : ZERO_ADDRESS,
    sendingAssetId: cross.fromToken.address,
    receiver: toEvm ? receiver : NON_EVM_ADDRESS,
    // the least amount handed to the bridge: exact without source swaps, the swaps' output floored by the slippage with them
    minAmount: swapped ? applySlippageFloor(cross.fromAmount, slippagePpm) : cross.fromAmount,
    destinationChainId: BigInt(toChain.id),
    hasSourceSwaps: sourceSwaps.length > 0,
    hasDestinationCall,
  };
  const specific: BridgeSpecificData = {
    receiverOnDestination: hasDestinationCall ? destinationRouter! : toEvm ? receiver : NON_EVM_ADDRESS,
    nonEVMReceiver: toEvm ? '0x' : toFamily.receiverBytes(receiver as FamilyAddress),
    destinationMinAmount: toAmountMin,
    destinationCallData,
  };
  return encodeBridgeCall(bridgeData, [...sourceSwaps, ...extraSwaps], specific);
}

/** Native coin sent with the transaction: the input when it is the native coin, plus native fees paid on top. */
export function nativeValue(chain: Chain, tx: RouteTransaction): bigint {
  let value = isNative(chain, tx.fromToken) ? tx.fromAmount : 0n;
  for (const fee of tx.feeCosts) if (!fee.included && isNative(chain, fee.token)) value += fee.amount;
  return value;
}

/** EIP-55 checksums by lower-case address: each costs a keccak, and wallets repeat. */
const checksums = new BoundedMemo<string, string>({ max: 10_000 });

function checksummed(address: string): string {
  return checksums.get(address.toLowerCase(), getAddress);
}

/** A chain of a route being built (in the catalog by construction; an internal error otherwise, not a request problem). */
function catalogChain(graph: RoutingGraph, id: number): Chain {
  const chain = graph.catalog.getChain(id);
  if (!chain) throw new Error(`chain ${id} is not in the catalog`);
  return chain;
}
