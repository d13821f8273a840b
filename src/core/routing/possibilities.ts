/**
 * The deprecated `POST /v1/advanced/possibilities`: the bridge routes and exchanges usable under the chain and
 * tool filters of its body, and the tokens they move or trade, from the graph's reachability (connections.ts).
 */
import type { Catalog } from '../catalog/catalog';
import type { Chain, RetiredTool, Token } from '../entities';
import { DomainError, InvalidRequestError } from '../errors';
import type { BridgeRoute } from '../liquidity/snapshot';
import { bridgeOut } from '../math/bridge';
import { graphCache, reachability, tokensIn } from './connections';
import type { RoutingGraph } from './graph';
import { toolPolicy, type ToolPolicy, type ToolSelection } from './tools';
import { usableTools } from './usableTools';

export interface PossibilitiesQuery {
  /** Chain ids; absent or empty: every chain. */
  readonly chains?: readonly number[];
  readonly bridges?: ToolSelection;
  readonly exchanges?: ToolSelection;
}

export interface BridgeDefinition {
  readonly tool: string;
  readonly fromChainId: number;
  readonly fromToken: Token;
  readonly toChainId: number;
  readonly toToken: Token;
  /** Raw units of the source token. */
  readonly maximumTransfer: bigint;
  readonly minimumTransfer: bigint;
  /** Proportional fee, parts per million. */
  readonly swapFeePpm: bigint;
  /** Total fee (fixed + proportional + destination gas) at minimumTransfer and at maximumTransfer, source-token units. */
  readonly swapFeeMinimum: bigint;
  readonly swapFeeMaximum: bigint;
}

export interface ExchangeDefinition {
  readonly tool: string;
  /** Ascending. */
  readonly chains: readonly number[];
}

export interface Possibilities {
  readonly chains: readonly Chain[];
  /** Tokens that a listed bridge moves or a listed exchange (or a wrap) trades on the chains, by chain id then symbol. */
  readonly tokens: readonly Token[];
  /** By fromChainId, toChainId, tool, then token symbols. */
  readonly bridges: readonly BridgeDefinition[];
  /** In catalog order. */
  readonly exchanges: readonly ExchangeDefinition[];
}

export function findPossibilities(graph: RoutingGraph, query: PossibilitiesQuery): Possibilities {
  const { catalog } = graph;
  const cache = graphCache(graph);
  const chains = query.chains && query.chains.length > 0
    ? [...new Map(query.chains.map((id, i) => [id, bodyChain(catalog, id, i)])).values()].sort((a, b) => a.id - b.id)
    : [...catalog.chains];
  const wanted = new Set(chains.map((c) => c.id));
  const bridges = bodyPolicy('bridge', query.bridges, cache.bridgeKeys, catalog.retired);
  const exchanges = bodyPolicy('exchange', query.exchanges, cache.exchangeKeys, catalog.retired);

  const { exchangeChains, bridgePairs } = usableTools(graph);
  const definitions: BridgeDefinition[] = graph.bridgeRoutes
    .filter((r) => wanted.has(r.fromChainId) && wanted.has(r.toChainId) && bridges.allows(r.bridge) && bridgePairs.get(r.bridge)?.has(`${r.fromChainId}:${r.toChainId}`))
    .map((r) => ({
      tool: r.bridge,
      fromChainId: r.fromChainId,
      fromToken: graph.token(r.fromChainId, r.fromToken),
      toChainId: r.toChainId,
      toToken: graph.token(r.toChainId, r.toToken),
      maximumTransfer: r.maxAmount,
      minimumTransfer: r.minAmount,
      swapFeePpm: r.feePpm,
      swapFeeMinimum: bridgeFee(r, r.minAmount),
      swapFeeMaximum: bridgeFee(r, r.maxAmount),
    }))
    .sort(compareDefinitions);

  const exchangeDefinitions: ExchangeDefinition[] = catalog.exchanges
    .filter((e) => exchanges.allows(e.key))
    .map((e) => ({ tool: e.key, chains: [...new Set(e.supportedChains)].filter((id) => wanted.has(id) && exchangeChains.get(e.key)?.has(id)).sort((a, b) => a - b) }))
    .filter((e) => e.chains.length > 0);

  const reach = reachability(graph, exchanges);
  const usable = new Map<number, Set<string>>(chains.map((c) => [c.id, new Set<string>()]));
  for (const chain of chains) {
    for (const [token, reachable] of reach(chain.id)) if (reachable.size > 1) usable.get(chain.id)!.add(token);
  }
  for (const d of definitions) {
    usable.get(d.fromChainId)!.add(catalog.addressKey(d.fromChainId, d.fromToken.address));
    usable.get(d.toChainId)!.add(catalog.addressKey(d.toChainId, d.toToken.address));
  }
  const tokens = chains.flatMap((c) => tokensIn(catalog, c.id, usable.get(c.id)!));
  return { chains, tokens, bridges: definitions, exchanges: exchangeDefinitions };
}

/** What the bridge keeps of `amount` (source-token units): its fees by bridgeOut, all of it when they exceed it (limits aside). */
export function bridgeFee(route: Pick<BridgeRoute, 'fixedFee' | 'feePpm' | 'destinationGasFee'>, amount: bigint): bigint {
  const quote = bridgeOut(amount, { ...route, minAmount: 0n });
  return quote.ok ? quote.amountIn - quote.amountOut : amount;
}

function compareDefinitions(a: BridgeDefinition, b: BridgeDefinition): number {
  return a.fromChainId - b.fromChainId
    || a.toChainId - b.toChainId
    || compareText(a.tool, b.tool)
    || compareText(a.fromToken.symbol, b.fromToken.symbol)
    || compareText(a.toToken.symbol, b.toToken.symbol)
    || compareText(a.fromToken.address, b.fromToken.address)
    || compareText(a.toToken.address, b.toToken.address);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function bodyChain(catalog: Catalog, id: number, index: number): Chain {
  const chain = catalog.getChain(id);
  if (!chain) {
    const message = `body field /chains/${index}: ${id} is not a supported chain id; GET /v1/chains lists the supported chains`;
    throw new InvalidRequestError(message, { issues: [{ name: `/chains/${index}`, rule: 'supportedChain', message }] });
  }
  return chain;
}

/** toolPolicy, with its errors naming the body fields (/bridges/allow...) instead of the query parameters. */
function bodyPolicy(kind: 'bridge' | 'exchange', selection: ToolSelection | undefined, known: readonly string[], retired: readonly RetiredTool[]): ToolPolicy {
  try {
    return toolPolicy(kind, selection ?? {}, known, retired);
  } catch (error) {
    if (!(error instanceof InvalidRequestError)) throw error;
    const plural = kind === 'bridge' ? 'Bridges' : 'Exchanges';
    const rename = (text: string) => text.replace(new RegExp(`\\b(allow|deny|prefer)${plural}\\b`, 'g'), (_, list: string) => `body field /${kind}s/${list}`);
    const details = (error as DomainError).details as { issues?: { name: string; message: string }[] } | undefined;
    throw new InvalidRequestError(rename(error.message), {
      issues: (details?.issues ?? []).map((issue) => ({
        ...issue,
        name: issue.name.replace(new RegExp(`^(allow|deny|prefer)${plural}$`), (_, list: string) => `/${kind}s/${list}`),
        message: rename(issue.message),
      })),
    });
  }
}
