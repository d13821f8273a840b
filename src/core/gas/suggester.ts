/**
 * GasSuggester answers a gas suggestion request (GET /v1/gas/suggestion/{chain}): resolves the chains and tokens
 * (400s naming the parameter), suggests the chain's gas (suggestion.ts) and, with fromChain and fromToken, prices
 * the recommended amount in the fromToken with the routing core (exact output toward the chain's native coin).
 * Not to be confused with the refuel of a route (fromAmountForGas, src/core/routing/refuel.ts), which this amount
 * is meant for.
 */
import type { Catalog } from '../catalog/catalog';
import type { Chain, Token } from '../entities';
import { InvalidRequestError } from '../errors';
import type { RouteFinder } from '../routing/finder';
import type { RoutingGraph } from '../routing/graph';
import { buildRouteRequest } from '../routing/request';
import type { UnavailableRoutes } from '../routing/route';
import { chainGasSuggestion, type GasAmount, type UnavailableGasSuggestion } from './suggestion';

export interface GasSuggestionRequest {
  /** Path parameter `chain`: id or key. */
  readonly chain: string;
  /** Query parameters, given together or not at all. */
  readonly fromChain?: string;
  readonly fromToken?: string;
}

export type GasSuggestion =
  | {
      readonly available: true;
      readonly recommended: GasAmount;
      readonly limit: GasAmount;
      /** With fromChain and fromToken: the token and the amount of it that buys `recommended`. */
      readonly fromToken?: Token;
      readonly fromAmount?: bigint;
    }
  | (UnavailableGasSuggestion & {
      /** Present when the chain has a suggestion but the fromToken cannot be routed to it. */
      readonly recommended?: GasAmount;
      readonly limit?: GasAmount;
    });

export class GasSuggester {
  constructor(
    private readonly graph: RoutingGraph,
    private readonly routes: RouteFinder,
  ) {}

  suggest(request: GasSuggestionRequest): GasSuggestion {
    const catalog = this.graph.catalog;
    const chain = catalog.resolveChain(request.chain);
    if (!chain) invalid('chain', 'supportedChain', `chain "${request.chain}" is not a supported chain id or key; GET /v1/chains lists the supported chains`);
    const from = resolveFrom(catalog, request);
    const poolKinds = this.graph.pools.filter((p) => p.chainId === chain.id).map((p) => p.kind);
    const suggestion = chainGasSuggestion(chain, this.graph.gas(chain.id), poolKinds);
    if (!suggestion.available) return suggestion;
    const { recommended, limit } = suggestion;
    if (!from) return { available: true, recommended, limit };
    const native = chain.nativeToken;
    if (from.chain.id === chain.id && from.token.address === native.address) {
      return { available: true, recommended, limit, fromToken: from.token, fromAmount: recommended.amount };
    }
    const result = this.routes.find(buildRouteRequest(catalog, {
      fromChain: from.chain.id,
      toChain: chain.id,
      fromToken: from.token.address,
      toToken: native.address,
      amount: recommended.amount.toString(),
      mode: 'exactOut',
    }));
    const route = result.routes[0];
    if (!route) {
      const message = `no route delivers the recommended ${recommended.amount} ${native.symbol} on ${chain.name} (${chain.id}) from ${from.token.symbol} on ${from.chain.name} (${from.chain.id})${firstReason(result.unavailable)}`;
      return { available: false, message, recommended, limit };
    }
    return { available: true, recommended, limit, fromToken: from.token, fromAmount: route.fromAmount };
  }
}

function resolveFrom(catalog: Catalog, request: GasSuggestionRequest): { chain: Chain; token: Token } | undefined {
  const { fromChain, fromToken } = request;
  if (fromChain === undefined && fromToken === undefined) return undefined;
  if (fromChain === undefined) invalid('fromChain', 'givenWithFromToken', 'fromChain is required with fromToken: give both or neither');
  if (fromToken === undefined) invalid('fromToken', 'givenWithFromChain', 'fromToken is required with fromChain: give both or neither');
  const chain = catalog.resolveChain(fromChain);
  if (!chain) invalid('fromChain', 'supportedChain', `fromChain "${fromChain}" is not a supported chain id or key; GET /v1/chains lists the supported chains`);
  const token = catalog.findToken(chain.id, fromToken);
  if (!token) invalid('fromToken', 'knownToken', `fromToken "${fromToken}" is not a known token on ${chain.name} (${chain.id}); GET /v1/tokens?chains=${chain.key} lists them`);
  return { chain, token };
}

/** The first reason the route search gave, and how many candidates failed. */
function firstReason(unavailable: UnavailableRoutes): string {
  const failure = unavailable.failed.flatMap((f) => Object.values(f.subpaths).flat())[0];
  const reason = failure?.message ?? unavailable.filteredOut[0]?.reason;
  const candidates = unavailable.failed.length + unavailable.filteredOut.length;
  if (!reason) return '';
  return `: ${reason}${candidates > 1 ? ` (and ${candidates - 1} other candidate${candidates > 2 ? 's' : ''} failed)` : ''}`;
}

/** A 400 naming the parameter (`chain`, `fromChain`, `fromToken`); where it is, the HTTP layer says. */
function invalid(name: string, rule: string, message: string): never {
  throw new InvalidRequestError(message, { issues: [{ name, rule, message }] });
}
