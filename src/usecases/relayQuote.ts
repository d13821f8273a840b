/**
 * Gasless quotes (GET /v1/relayer/quote, and GET /v1/quote with `gasless=true` or `executionType=message`): the best
 * single-transaction route from an ERC-20 token on a chain where the service's relayer sends, priced with the
 * relayer's fee in that token (src/core/relay/fee.ts), and the messages the user signs instead of sending a
 * transaction — Permit2's witness permit binding the router call (src/core/relay/permitWitness.ts), preceded by the
 * token's EIP-2612 permit for Permit2 when the user has not approved Permit2 yet (src/core/relay/permit.ts).
 *
 * The relayer's fee depends on the route's gas, and the route on the amount left after the fee: the route is found
 * first without the fee, its gas (with the fee collection, the proxy and the permit) priced at the relayer's gas
 * price, then the route is found again with that fee taken from the sent amount.
 */
import { InvalidRequestError, NoRouteError } from '../core/errors';
import { hasPrice } from '../core/entities';
import { requireFeeOwner } from '../core/fees/booking';
import { relayerFee, RELAY_OVERHEAD_GAS } from '../core/relay/fee';
import { tokenPermitTypedData, type TokenPermitTypedData } from '../core/relay/permit';
import { permitWitnessTypedData, relayNonce, type PermitWitnessTypedData } from '../core/relay/permitWitness';
import { fractionToPpm } from '../core/math/amounts';
import { defaultSlippage } from '../core/routing/evaluate';
import { FEE_COLLECTION_GAS, ppmToFraction } from '../core/routing/pricing';
import { buildRouteRequest, type RouteParameters } from '../core/routing/request';
import type { RouteRequest } from '../core/routing/route';
import type { RelayerOnChain, Relaying } from '../core/relay/ports';
import type { Ports } from './ports';
import { noRouteMessage, quotedStep, type NoRoute, type QuotedStep } from './quote';
import { findRoutes, routeSearchObserver } from './routeSearchCache';

/** How long a relayed step's signatures are valid: time to sign both messages, little time for a stale price. */
export const RELAY_DEADLINE_SECONDS = 600n;
/** What a deadline must still leave when a step is relayed, and the most it may lie ahead. */
export const RELAY_TIMING = { minRemainingSeconds: 30n, maxRemainingSeconds: 3_600n } as const;
/** The gas of a token's EIP-2612 permit submitted in the relayer's transaction (signature check, nonce, allowance). */
export const TOKEN_PERMIT_GAS = 80_000n;

export interface RelayedQuote {
  readonly ok: true;
  /** The route's step; its transaction is the router call the relayer's transaction makes, not one for the user. */
  readonly quoted: QuotedStep;
  readonly relayFee: bigint;
  /** What the user signs, in order: the token's permit (when needed), then the witness permit. */
  readonly typedData: readonly (TokenPermitTypedData | PermitWitnessTypedData)[];
}

/** A gasless quote for `parameters` (an exact input), or why there is none. */
export async function relayerQuote(dependencies: Ports, parameters: RouteParameters): Promise<RelayedQuote | NoRoute> {
  const { relaying } = dependencies;
  const request = relayedRequest(dependencies, parameters);
  const relayer = relayerFor(relaying, request);
  const owner = request.fromAddress!;
  const amount = request.amount;

  const first = bestRoute(dependencies, request);
  if (!first.ok) return first;
  const permits = await relayer.tokenPermitState(request.fromToken.address, owner);
  const needsTokenPermit = permits.permit2Allowance < amount;
  if (needsTokenPermit && !permits.eip2612) {
    return noGasless(`${request.fromToken.symbol} has no EIP-2612 permit and ${owner} has not approved Permit2 (${relayer.permit2}) for it: approve Permit2 once, or send the transfer with a transaction`);
  }
  const route = first.route;
  const gasUnits = route.transactions[0].gasCost.estimate + (route.integratorFee > 0n ? 0n : FEE_COLLECTION_GAS) + RELAY_OVERHEAD_GAS + (needsTokenPermit ? TOKEN_PERMIT_GAS : 0n);
  const fee = relayerFee({ gasUnits, gasPriceWei: await relayer.gasPriceWei(), native: request.fromChain.nativeToken }, request.fromToken);
  if (fee === 0n && !hasPrice(request.fromToken)) return noGasless(`${request.fromToken.symbol} has no price to charge the relayer's gas in`);

  const found = await relayedStep(dependencies, { ...request, relayFee: fee });
  if (!found.ok) return found;
  const { quoted } = found;
  if (quoted.transaction.kind === 'svm') throw new Error('a relayed step reached the Solana deposit builder');
  const deadline = relaying!.now() + RELAY_DEADLINE_SECONDS;
  const witness = permitWitnessTypedData({
    chainId: relayer.chainId, permit2: relayer.permit2, proxy: relayer.proxy, router: quoted.transaction.to,
    token: request.fromToken.address, amount, nonce: relayNonce(relayer.chainId, owner, quoted.view.id, deadline), deadline,
    routerCalldata: quoted.transaction.data,
  });
  const tokenPermit = needsTokenPermit && permits.eip2612
    ? [tokenPermitTypedData({ chainId: relayer.chainId, token: request.fromToken.address, ...permits.eip2612, owner, spender: relayer.permit2, value: amount, deadline })]
    : [];
  return { ok: true, quoted, relayFee: fee, typedData: [...tokenPermit, witness] };
}

/**
 * The route request of a gasless quote: an exact input from fromAddress, the gasless parameters themselves left out
 * (they ask for this very answer). The ecosystem SDK asks again for a step it executes with `allowBridges: [step.tool]`,
 * whatever the tool: an exchange named there (a swap on one chain) keeps the route to that exchange.
 */
export function relayedRequest(dependencies: Ports, parameters: RouteParameters): RouteRequest {
  const exchangeKeys = new Set(dependencies.catalog.exchanges.map((e) => e.key));
  const allowed = parameters.bridges?.allow ?? [];
  const exchangesNamed = allowed.filter((key) => exchangeKeys.has(key));
  const moved: Partial<RouteParameters> = exchangesNamed.length === 0 ? {} : {
    bridges: { ...parameters.bridges, allow: allowed.filter((key) => !exchangeKeys.has(key)) },
    exchanges: { ...parameters.exchanges, allow: [...(parameters.exchanges?.allow ?? []), ...exchangesNamed] },
  };
  if (parameters.mode !== 'exactIn') invalid('toAmount', 'gaslessExactInput', 'gasless quotes are for an exact input (fromAmount): the signed permit names the amount sent');
  if (!parameters.fromAddress) invalid('fromAddress', 'required', 'fromAddress is required for a gasless quote: its owner signs the permits');
  const built = buildRouteRequest(dependencies.catalog, { ...parameters, ...moved, gasless: undefined, executionType: undefined, maxRoutes: 1 });
  requireFeeOwner(dependencies, built);
  // written out as the step shows them (action.slippage, action.toAddress, the integrator fee's percentage), so that
  // the step posted back to the relay asks for this very request, and its route and router call are these again
  return {
    ...built,
    slippage: built.slippage ?? defaultSlippage(built),
    toAddress: built.toAddress ?? built.fromAddress,
    ...(built.fee !== undefined ? { fee: Number(ppmToFraction(fractionToPpm(built.fee, 'up'))) } : {}),
  };
}

/** The relayer of the request's sending chain; refuses a chain without one and the native coin (it has no permit). */
export function relayerFor(relaying: Relaying | undefined, request: RouteRequest): RelayerOnChain {
  const relayer = relaying?.on(request.fromChain.id);
  if (!relayer) {
    throw new NoRouteError(`No available quotes for the requested transfer: gasless transfers are relayed by this service's relayer, which does not send on ${request.fromChain.name} (${request.fromChain.id}) here; send the transfer with a transaction (executionType=transaction)`, { filteredOut: [], failed: [] });
  }
  if (request.fromToken.address === request.fromChain.nativeToken.address) {
    invalid('fromToken', 'permittable', `gasless transfers send an ERC-20 token the user permits with a signature; ${request.fromToken.symbol} is ${request.fromChain.name}'s native coin, which cannot be permitted: send it with a transaction`);
  }
  return relayer;
}

/** The relayed route's step with its router call (the relayer's fee in `request.relayFee`), or why there is none. */
export async function relayedStep(dependencies: Ports, request: RouteRequest): Promise<{ readonly ok: true; readonly quoted: QuotedStep } | NoRoute> {
  const found = bestRoute(dependencies, request);
  if (!found.ok) return found;
  return { ok: true, quoted: await quotedStep(dependencies, found.route, 0) };
}

function bestRoute(dependencies: Ports, request: RouteRequest) {
  const result = findRoutes(dependencies.finder, request, routeSearchObserver(dependencies));
  const route = result.routes.find((r) => !r.containsSwitchChain);
  if (!route) return { ok: false as const, message: noRouteMessage(result.unavailable), unavailable: result.unavailable, dependsOnTiming: request.timing !== undefined };
  return { ok: true as const, route };
}

function noGasless(reason: string): NoRoute {
  return { ok: false, message: `No available quotes for the requested transfer: ${reason}`, unavailable: { filteredOut: [], failed: [] }, dependsOnTiming: false };
}

function invalid(name: string, rule: string, message: string): never {
  throw new InvalidRequestError(message, { issues: [{ name, rule, message }] });
}
