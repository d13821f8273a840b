/**
 * The refuel leg of a route (fromAmountForGas): part of the sent amount is routed, in the same transaction,
 * to the destination chain's native coin and delivered to the receiver alongside the transfer (how much to send
 * for it is the gas suggestion's, src/core/gas/suggester.ts).
 * The rest of the amount follows the requested route; the integrator fee applies to that rest only.
 */
import type { GasCost, Route, RouteRequest, RouteSearchResult } from './route';

/** Splits a request into the main transfer and the refuel transfer. */
export function splitRefuel(request: RouteRequest): { main: RouteRequest; refuel: RouteRequest } {
  const gas = request.fromAmountForGas!;
  return {
    main: { ...request, amount: request.amount - gas, fromAmountForGas: undefined },
    refuel: {
      ...request,
      amount: gas,
      toToken: request.toChain.nativeToken,
      fee: undefined,
      order: 'CHEAPEST',
      maxRoutes: 1,
      fromAmountForGas: undefined,
      timing: undefined,
    },
  };
}

/** Each main route carries the refuel: its steps join the first transaction, its gas and fees add up. */
export function withRefuel(request: RouteRequest, main: RouteSearchResult, refuel: Route, reId: (route: Route) => string): RouteSearchResult {
  const gasTx = refuel.transactions[0];
  const routes = main.routes.map((route) => {
    const [first, ...rest] = route.transactions;
    const gasCost: GasCost = {
      ...first.gasCost,
      estimate: first.gasCost.estimate + gasTx.gasCost.estimate,
      limit: first.gasCost.limit + gasTx.gasCost.limit,
      amount: first.gasCost.amount + gasTx.gasCost.amount,
      amountUSD: first.gasCost.amountUSD + gasTx.gasCost.amountUSD,
    };
    const merged: Route = {
      ...route,
      request,
      fromAmount: route.fromAmount + refuel.fromAmount,
      fromAmountUSD: route.fromAmountUSD + refuel.fromAmountUSD,
      gasCostUSD: route.gasCostUSD + gasTx.gasCost.amountUSD,
      extraFeesUSD: route.extraFeesUSD + refuel.extraFeesUSD,
      durationSeconds: Math.max(route.durationSeconds, refuel.durationSeconds),
      transactions: [
        {
          ...first,
          fromAmount: first.fromAmount + refuel.fromAmount,
          fromAmountUSD: first.fromAmountUSD + refuel.fromAmountUSD,
          steps: [...first.steps, ...gasTx.steps],
          feeCosts: [...first.feeCosts, ...gasTx.feeCosts],
          gasCost,
          durationSeconds: Math.max(first.durationSeconds, gasTx.durationSeconds),
        },
        ...rest,
      ],
      gasRefuel: { fromAmount: refuel.fromAmount, toAmount: refuel.toAmount, token: request.toChain.nativeToken },
      overallPath: `${route.overallPath}+gas:${refuel.overallPath}`,
    };
    return { ...merged, id: reId(merged) };
  });
  return { routes, unavailable: main.unavailable };
}
