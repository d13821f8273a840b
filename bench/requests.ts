/**
 * The benchmark's request mix: deterministic (seeded PRNG), drawn from the embedded catalog and snapshot.
 * Tokens: those in at least one pool of their chain, plus the native coin. EVM chains only.
 * ~40 % same-chain, ~60 % cross-chain between chains that a bridge route connects (a third of those move
 * the same asset, e.g. USDC → USDC, when both chains have it). Amounts log-uniform from $10 to $1M at
 * catalog prices, exact input, default options (like GET /v1/quote: maxRoutes 1).
 */
import type { Catalog } from '../src/core/catalog/catalog';
import type { Token } from '../src/core/entities';
import type { RoutingGraph } from '../src/core/routing/graph';
import { buildRouteRequest } from '../src/core/routing/request';
import type { RouteRequest } from '../src/core/routing/route';

export interface BenchRequest {
  readonly index: number;
  readonly kind: 'same-chain' | 'cross-chain';
  readonly usd: number;
  readonly request: RouteRequest;
  /** e.g. "42161:USDC→10:WETH $1,234". */
  readonly label: string;
}

/** mulberry32: small, fast, good enough for sampling; same seed, same sequence on every platform. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Raw units of `token` worth `usd` at its catalog price (rounded down, at least 1). */
export function rawAmountForUSD(token: Token, usd: number): bigint {
  const units = usd / Number(token.priceUSD);
  const scaled = BigInt(Math.floor(units * 1e9)); // 9 significant fractional digits are plenty
  const raw = (scaled * 10n ** BigInt(token.decimals)) / 1_000_000_000n;
  return raw > 0n ? raw : 1n;
}

export function formatUSD(usd: number): string {
  return `$${usd >= 100 ? Math.round(usd).toLocaleString('en-US') : usd.toFixed(2)}`;
}

export function buildRequestMix(graph: RoutingGraph, count: number, seed: number): BenchRequest[] {
  const catalog = graph.catalog;
  const random = prng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];

  const tokensByChain = routableTokens(graph, catalog);
  const chains = [...tokensByChain.keys()].sort((a, b) => a - b);
  const pairs = [...new Set(graph.bridgeRoutes.map((r) => `${r.fromChainId}>${r.toChainId}`))]
    .map((k) => k.split('>').map(Number) as [number, number])
    .filter(([a, b]) => tokensByChain.has(a) && tokensByChain.has(b))
    .sort((x, y) => x[0] - y[0] || x[1] - y[1]);

  const requests: BenchRequest[] = [];
  for (let index = 0; index < count; index++) {
    const sameChain = random() < 0.4;
    let fromChainId: number;
    let toChainId: number;
    let fromToken: Token;
    let toToken: Token;
    if (sameChain) {
      fromChainId = toChainId = pick(chains);
      const tokens = tokensByChain.get(fromChainId)!;
      fromToken = pick(tokens);
      do toToken = pick(tokens);
      while (toToken.address === fromToken.address);
    } else {
      [fromChainId, toChainId] = pick(pairs);
      fromToken = pick(tokensByChain.get(fromChainId)!);
      const sameAsset = random() < 1 / 3 ? tokensByChain.get(toChainId)!.filter((t) => t.coinKey === fromToken.coinKey) : [];
      toToken = sameAsset.length > 0 ? sameAsset[0] : pick(tokensByChain.get(toChainId)!);
    }
    const usd = Math.exp(Math.log(10) + random() * (Math.log(1_000_000) - Math.log(10)));
    const request = buildRouteRequest(catalog, {
      fromChain: fromChainId, toChain: toChainId, fromToken: fromToken.address, toToken: toToken.address,
      amount: rawAmountForUSD(fromToken, usd).toString(), mode: 'exactIn', maxRoutes: 1,
    });
    requests.push({
      index, kind: sameChain ? 'same-chain' : 'cross-chain', usd, request,
      label: `${fromChainId}:${fromToken.symbol}→${toChainId}:${toToken.symbol} ${formatUSD(usd)}`,
    });
  }
  return requests;
}

/** Per EVM chain with pools: the tokens of its pools and its native coin, in catalog order. */
function routableTokens(graph: RoutingGraph, catalog: Catalog): Map<number, Token[]> {
  const inPools = new Map<number, Set<string>>();
  for (const pool of graph.pools) {
    const set = inPools.get(pool.chainId) ?? new Set<string>();
    for (const t of pool.tokens) set.add(t);
    inPools.set(pool.chainId, set);
  }
  const result = new Map<number, Token[]>();
  for (const chain of catalog.chains) {
    if (chain.chainType !== 'EVM') continue;
    const set = inPools.get(chain.id);
    if (!set) continue;
    const tokens = catalog.tokensOf(chain.id).filter((t) => set.has(catalog.addressKey(chain.id, t.address)) || t.address === chain.nativeToken.address);
    if (tokens.length >= 2) result.set(chain.id, tokens);
  }
  return result;
}
