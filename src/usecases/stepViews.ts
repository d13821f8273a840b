/**
 * What a quoted route's steps say beyond the route itself, decided here once so that the wire converters only
 * format: each step's id (derived from the route id, so the same request on the same data gives the same ids),
 * the address to approve for each step's token, the least amount a gas refuel delivers.
 */
import { createHash } from 'node:crypto';
import type { Chain, Token } from '../core/entities';
import type { RouterDeployments } from '../core/catalog/routers';
import type { Catalog } from '../core/catalog/catalog';
import type { PlannedStep, Route, RouteTransaction } from '../core/routing/route';
import { approvalAddressOf, refuelToAmountMin } from '../core/transactions/build';

export interface IncludedStepView {
  readonly id: string;
  readonly step: PlannedStep;
  readonly approvalAddress: string;
}

/** One transaction of a route, as a step of type lifi. */
export interface StepView {
  readonly id: string;
  readonly route: Route;
  readonly index: number;
  readonly transaction: RouteTransaction;
  readonly approvalAddress: string;
  readonly included: readonly IncludedStepView[];
  /** The part of fromAmount routed to the destination's native coin (first transaction only). */
  readonly refuel?: { readonly fromAmount: bigint; readonly toAmount: bigint; readonly toAmountMin: bigint; readonly token: Token };
}

/** What the views read: the catalog (chains) and the router deployments (approval addresses). */
export interface ViewContext {
  readonly catalog: Catalog;
  readonly routers: RouterDeployments;
}

/** A deterministic UUID for a sub-step: derived from its parent's id and its position. */
export function childStepId(parent: string, index: number): string {
  const hex = createHash('sha256').update(`${parent}/${index}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The id of the step of a route's transaction `index` (the route id for the first). */
export function transactionStepId(route: Route, index: number): string {
  return index === 0 ? route.id : childStepId(route.id, 1000 + index);
}

export function approvalAddress(context: ViewContext, chainId: number, token: Token): string {
  const chain: Chain | undefined = context.catalog.getChain(chainId);
  if (!chain) throw new Error(`chain ${chainId} is not in the catalog`);
  return approvalAddressOf(context.routers, chain, token);
}

export function stepView(context: ViewContext, route: Route, index: number): StepView {
  const transaction = route.transactions[index];
  if (!transaction) throw new Error(`route ${route.id} has no transaction ${index}`);
  const id = transactionStepId(route, index);
  const refuelMin = index === 0 ? refuelToAmountMin(route) : undefined;
  return {
    id,
    route,
    index,
    transaction,
    approvalAddress: approvalAddress(context, transaction.chainId, transaction.fromToken),
    included: transaction.steps.map((step, k) => ({ id: childStepId(id, k), step, approvalAddress: approvalAddress(context, step.fromChainId, step.fromToken) })),
    ...(route.gasRefuel && refuelMin !== undefined
      ? { refuel: { fromAmount: route.gasRefuel.fromAmount, toAmount: route.gasRefuel.toAmount, toAmountMin: refuelMin, token: route.gasRefuel.token } }
      : {}),
  };
}
