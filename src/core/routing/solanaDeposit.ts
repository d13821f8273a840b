/**
 * A route's transaction from Solana as a bridge deposit (src/core/chains/solana/deposit.ts): what it deposits, through which bridge, and the
 * memo that tells the relayer where the transfer goes, read from the route's planned steps. Shared by the route's
 * pricing (its gas cost in lamports, before any transaction exists) and the transaction builder
 * (src/core/transactions/svmDeposit.ts), so that a quote's gas cost is the fee of the transaction it returns.
 *
 * A deposit carries one bridge and the swaps of its destination call (memo hops); nothing runs before the bridge on
 * Solana (no integrator fee collection, source swap, refuel leg or contract call: the request refuses those, and a
 * route holding one is an internal error here). The escrow holds a token account for every catalog mint
 * (routers.json, `bridgeEscrows`), so a deposit never creates one.
 */
import type { Catalog } from '../catalog/catalog';
import type { Chain, Token } from '../entities';
import type { PlannedStep } from './route';
import { familyOf } from '../chains/families';
import { depositCost, type DepositCost, type DepositToken } from '../chains/solana/deposit';
import type { SvmPriorityFeeLevel } from '../chains/solana/fees';
import { formatBridgeMemo, type BridgeMemo, type MemoHop } from '../chains/solana/memo';

export interface RouteDeposit {
  readonly bridge: string;
  readonly token: DepositToken;
  /** What the bridge takes: the cross step's fromAmount. */
  readonly amount: bigint;
  readonly destinationChainId: number;
  /** The destination call's swaps (none: the receiver is paid what the bridge releases). */
  readonly hops: readonly MemoHop[];
}

/** The priority fee level when a request names none. */
export const DEFAULT_PRIORITY_FEE_LEVEL: SvmPriorityFeeLevel = 'NORMAL';

/** Same length as any transfer id: the memo's length, and so the deposit's compute budget, do not depend on its value. */
const ANY_TRANSFER_ID = `0x${'0'.repeat(64)}`;

/** The deposit of a transaction's steps sent from `chain` (the first step a bridge, then its destination swaps). */
export function routeDepositOf(catalog: Catalog, chain: Chain, steps: readonly PlannedStep[]): RouteDeposit {
  const [cross, ...after] = steps;
  if (!cross || cross.type !== 'cross' || !cross.bridge) {
    throw new Error(`a transaction from ${chain.name} must start with its bridge, not ${cross ? `${cross.type} ${cross.tool}` : 'nothing'}`);
  }
  const hops = after.map((step): MemoHop => {
    if (step.type !== 'swap' || step.fromChainId !== cross.toChainId) throw new Error(`after the bridge, a deposit from ${chain.name} carries destination swaps only, not ${step.type} ${step.tool}`);
    return { pool: (step.poolAddress ?? wrappedTokenOf(catalog, step).address).toLowerCase(), tokenOut: step.toToken.address.toLowerCase(), amountIn: step.fromAmount };
  });
  const native = cross.fromToken.address === chain.nativeToken.address;
  return {
    bridge: cross.bridge.bridge,
    token: native ? { kind: 'native' } : { kind: 'spl', mint: cross.fromToken.address, decimals: cross.fromToken.decimals },
    amount: cross.fromAmount,
    destinationChainId: cross.toChainId,
    hops,
  };
}

/** The memo of a deposit for a transfer id, receiver (as receiverBytes gives it) and minimum received. */
export function depositMemo(deposit: RouteDeposit, transferId: string, receiver: string, minAmountOut: bigint): BridgeMemo {
  return {
    bridge: deposit.bridge,
    transferId,
    destinationChainId: deposit.destinationChainId,
    receiver,
    minAmountOut,
    ...(deposit.hops.length > 0 ? { hops: deposit.hops } : {}),
  };
}

/**
 * What the deposit costs: its compute budget and fees (deposit.ts, depositCost) for the memo it will carry. Without a
 * receiver yet (a route search without toAddress), the destination family's zero address stands for it: every
 * receiver of a family has the same length.
 */
export function routeDepositCost(
  catalog: Catalog, deposit: RouteDeposit, receiver: string | undefined, minAmountOut: bigint,
  priorityFeeLevel: SvmPriorityFeeLevel, recentPrioritizationFees?: readonly bigint[],
): DepositCost {
  const memo = formatBridgeMemo(depositMemo(deposit, ANY_TRANSFER_ID, receiver ?? anyReceiver(catalog, deposit.destinationChainId), minAmountOut));
  return depositCost({
    token: deposit.token.kind,
    createsTokenAccount: false,
    memoBytes: new TextEncoder().encode(memo).length,
    priorityFeeLevel,
    ...(recentPrioritizationFees !== undefined ? { recentPrioritizationFees } : {}),
  });
}

function anyReceiver(catalog: Catalog, chainId: number): string {
  const chain = catalog.getChain(chainId);
  if (!chain) throw new Error(`chain ${chainId} is not in the catalog`);
  const family = familyOf(chain);
  const zero = family.parseAddress(family.zeroAddress);
  if (zero === undefined) throw new Error(`the zero address of ${family.label} is not one of its addresses`);
  return family.receiverBytes(zero);
}

/** The wrapped native token a destination wrap or unwrap calls (the step's token that is not the native coin). */
function wrappedTokenOf(catalog: Catalog, step: PlannedStep): Token {
  const chain = catalog.getChain(step.fromChainId);
  const native = chain?.nativeToken.address.toLowerCase();
  const token = step.fromToken.address.toLowerCase() === native ? step.toToken : step.toToken.address.toLowerCase() === native ? step.fromToken : undefined;
  if (!token) throw new Error(`destination swap ${step.fromToken.symbol}→${step.toToken.symbol} has no pool and is no wrap`);
  return token;
}
