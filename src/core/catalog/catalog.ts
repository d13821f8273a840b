import { familyOf } from '../chains/families';
import type { ChainFamily } from '../chains/family';
import { isListedOnly, type BridgeTool, type Chain, type ChainTypeFilter, type ExchangeTool, type MarketFigures, type RetiredTool, type Token, type TokenFilter } from '../entities';

export class CatalogDataError extends Error {
  constructor(message: string) {
    super(`catalog data: ${message}`);
    this.name = 'CatalogDataError';
  }
}

export interface CatalogData {
  readonly chains: readonly Chain[];
  /** The tokens (no tags: none), copied and frozen by the catalog; a token already frozen whole is kept as it is. */
  readonly tokens: readonly (Omit<Token, 'tags'> & { readonly tags?: readonly string[] })[];
  readonly bridges: readonly BridgeTool[];
  readonly exchanges: readonly ExchangeTool[];
  /** Tools that no longer run, which tool lists may still name (none when the data lists none). */
  readonly retired?: readonly RetiredTool[];
  /** Reference market figures by coinKey (none when the data has no markets file). */
  readonly markets?: Readonly<Record<string, MarketFigures>>;
}

/**
 * How the catalog reads a token's address: by default its chain family's own parseAddress; a composition root may
 * give one that answers exactly the same, faster (src/core/chains/eip55.ts: the EIP-55 form from a WebAssembly
 * Keccak, for the thousands of addresses a catalog checks when it is built).
 */
export interface CatalogOptions {
  readonly parseAddress?: (family: ChainFamily, text: string) => string | undefined;
}

/** The tags of a token that has none (most listed tokens): one frozen array for all. */
const NO_TAGS: readonly string[] = Object.freeze([]);

/** The default reader: the chain family's own (one function for every catalog, so that copies compare equal). */
const familyParseAddress = (family: ChainFamily, text: string): string | undefined => family.parseAddress(text);

/**
 * The read-only catalog of chains, tokens and tools. Built once from data, identifiers normalised on
 * the way in (lower-cased addresses and keys for lookup); values are returned as published
 * (checksummed EVM addresses). Nothing mutates it after construction.
 */
export class Catalog {
  readonly chains: readonly Chain[];
  readonly bridges: readonly BridgeTool[];
  readonly exchanges: readonly ExchangeTool[];
  readonly retired: readonly RetiredTool[];
  private readonly chainsById = new Map<number, Chain>();
  private readonly chainsByKey = new Map<string, Chain>();
  /** Each chain's tokens, and their indexes by lookup key of the address and by upper-case symbol. */
  private readonly tokensByChain = new Map<number, { readonly list: Token[]; readonly byAddress: Map<string, Token>; readonly bySymbol: Map<string, Token> }>();
  private readonly markets: ReadonlyMap<string, MarketFigures>;
  private readonly parseAddress: NonNullable<CatalogOptions['parseAddress']>;

  constructor(data: CatalogData, private readonly options: CatalogOptions = {}) {
    this.parseAddress = options.parseAddress ?? familyParseAddress;
    this.chains = deepFreeze([...data.chains].sort((a, b) => a.id - b.id));
    for (const chain of this.chains) {
      if (this.chainsById.has(chain.id)) throw new CatalogDataError(`duplicate chain id ${chain.id}`);
      if (this.chainsByKey.has(chain.key.toLowerCase())) throw new CatalogDataError(`duplicate chain key ${chain.key}`);
      this.chainsById.set(chain.id, chain);
      this.chainsByKey.set(chain.key.toLowerCase(), chain);
    }
    // a catalog's copies (withPrices, withChains, ...) share the tokens they keep, which are frozen whole
    for (const token of data.tokens) this.addToken(isFrozenToken(token) ? token : Object.freeze({ ...token, tags: token.tags?.length ? Object.freeze([...token.tags]) : NO_TAGS }));
    for (const { list } of this.tokensByChain.values()) list.sort(compareTokens);
    this.bridges = deepFreeze([...data.bridges]);
    this.exchanges = deepFreeze([...data.exchanges]);
    this.retired = deepFreeze([...(data.retired ?? [])]);
    for (const tool of this.retired) {
      const running = tool.kind === 'bridge' ? this.bridges : this.exchanges;
      if (running.some((t) => t.key === tool.key)) throw new CatalogDataError(`${tool.kind} ${tool.key} is listed as running and as retired`);
    }
    this.markets = new Map(Object.entries(data.markets ?? {}).map(([coinKey, figures]) => [coinKey, deepFreeze({ ...figures })]));
  }

  /** The same catalog with each chain replaced by what `change` makes of it (tokens, tools and markets as they are). */
  withChains(change: (chain: Chain) => Chain): Catalog {
    return new Catalog({
      chains: this.chains.map(change),
      tokens: this.chains.flatMap((chain) => this.tokensOf(chain.id)),
      bridges: this.bridges,
      exchanges: this.exchanges,
      retired: this.retired,
      markets: Object.fromEntries(this.markets),
    }, this.options);
  }

  /**
   * The same catalog with the coins of `prices` (coinKey → decimal USD price) at those prices, on every chain and as
   * chains' native coins; a price numerically equal to the one held keeps its text. This catalog itself when no price
   * changes.
   */
  withPrices(prices: ReadonlyMap<string, string>): Catalog {
    const changed = (held: { coinKey: string; priceUSD: string }) => {
      const price = prices.get(held.coinKey);
      return price !== undefined && Number(price) !== Number(held.priceUSD) ? price : undefined;
    };
    const tokens = this.chains.flatMap((chain) => this.tokensOf(chain.id));
    if (!tokens.some(changed) && !this.chains.some((c) => changed(c.nativeToken))) return this;
    const repriced = <T extends { coinKey: string; priceUSD: string }>(held: T): T => {
      const price = changed(held);
      return price === undefined ? held : { ...held, priceUSD: price };
    };
    return new Catalog({
      chains: this.chains.map((chain) => (changed(chain.nativeToken) ? { ...chain, nativeToken: repriced(chain.nativeToken) } : chain)),
      tokens: tokens.map(repriced),
      bridges: this.bridges,
      exchanges: this.exchanges,
      retired: this.retired,
      markets: Object.fromEntries(this.markets),
    }, this.options);
  }

  /**
   * The same catalog with exactly `discovered` as its discovered (unverified) tokens, beside the data's own: this
   * catalog itself when it holds those already (by address, whatever their prices). A discovered token at the address
   * of a token of the data is an error.
   */
  withDiscoveredTokens(discovered: readonly Token[]): Catalog {
    const held = this.chains.flatMap((chain) => this.tokensOf(chain.id));
    const heldDiscovered = new Set(held.filter((t) => t.verificationStatus === 'unverified').map((t) => `${t.chainId}:${this.addressKey(t.chainId, t.address)}`));
    const wanted = new Set(discovered.map((t) => `${t.chainId}:${this.addressKey(t.chainId, t.address)}`));
    if (wanted.size === heldDiscovered.size && [...wanted].every((key) => heldDiscovered.has(key))) return this;
    for (const token of discovered) {
      if (token.verificationStatus !== 'unverified') throw new CatalogDataError(`discovered token ${token.address} on chain ${token.chainId} is not marked unverified`);
    }
    return new Catalog({
      chains: this.chains,
      tokens: [...held.filter((t) => t.verificationStatus !== 'unverified'), ...discovered],
      bridges: this.bridges,
      exchanges: this.exchanges,
      retired: this.retired,
      markets: Object.fromEntries(this.markets),
    }, this.options);
  }

  /** The reference market figures of a token's coin, if the data has them. */
  marketOf(token: Token): MarketFigures | undefined {
    return this.markets.get(token.coinKey);
  }

  private addToken(token: Token): void {
    const chain = this.chainsById.get(token.chainId);
    if (!chain) throw new CatalogDataError(`token ${token.symbol} names unknown chain ${token.chainId}`);
    const family = familyOf(chain);
    if (family.tokensAreAddresses && this.parseAddress(family, token.address) !== token.address) {
      throw new CatalogDataError(`token ${token.symbol} on ${chain.key} has an address that is not in its normal form (${family.addressRule}): ${token.address}`);
    }
    let tokens = this.tokensByChain.get(token.chainId);
    if (!tokens) this.tokensByChain.set(token.chainId, (tokens = { list: [], byAddress: new Map(), bySymbol: new Map() }));
    const addressKey = family.lookupKey(token.address);
    if (tokens.byAddress.has(addressKey)) throw new CatalogDataError(`duplicate token ${token.chainId}:${addressKey}`);
    tokens.byAddress.set(addressKey, token);
    // a discovered token's symbol is whatever its contract says (another token's, often): found by address only
    if (token.verificationStatus !== 'unverified') {
      const symbolKey = token.symbol.toUpperCase();
      if (tokens.bySymbol.has(symbolKey)) throw new CatalogDataError(`duplicate symbol ${token.chainId}:${symbolKey}`);
      tokens.bySymbol.set(symbolKey, token);
    }
    tokens.list.push(token);
  }

  /** Resolves a chain by numeric id (number or decimal string) or by key, case-insensitively. */
  resolveChain(ref: string | number): Chain | undefined {
    if (typeof ref === 'number') return this.chainsById.get(ref);
    const trimmed = ref.trim();
    if (/^[0-9]+$/.test(trimmed)) return this.chainsById.get(Number(trimmed));
    return this.chainsByKey.get(trimmed.toLowerCase());
  }

  getChain(id: number): Chain | undefined {
    return this.chainsById.get(id);
  }

  listChains(chainTypes?: ChainTypeFilter): readonly Chain[] {
    if (!chainTypes || chainTypes.length === 0) return this.chains;
    return this.chains.filter((c) => chainTypes.includes(c.chainType));
  }

  /** Finds a token on a chain by address (any case on EVM) or by symbol (any case). */
  findToken(chainId: number, ref: string): Token | undefined {
    const chain = this.chainsById.get(chainId);
    if (!chain) return undefined;
    const trimmed = ref.trim();
    return (
      this.tokensByChain.get(chainId)?.byAddress.get(familyOf(chain).lookupKey(trimmed)) ??
      this.tokensByChain.get(chainId)?.bySymbol.get(trimmed.toUpperCase())
    );
  }

  /** The normalised form of an address on a chain, used as an identifier: lower-cased on EVM, as-is elsewhere. */
  addressKey(chainId: number, address: string): string {
    const chain = this.chainsById.get(chainId);
    return chain ? familyOf(chain).lookupKey(address.trim()) : address.trim();
  }

  /** The chain's wrapped native token (WETH for ETH): the catalog token named W + the native symbol (never a discovered one). */
  wrappedNativeOf(chainId: number): Token | undefined {
    const chain = this.chainsById.get(chainId);
    return chain && this.tokensByChain.get(chainId)?.bySymbol.get(`W${chain.nativeToken.symbol.toUpperCase()}`);
  }

  tokensOf(chainId: number): readonly Token[] {
    return this.tokensByChain.get(chainId)?.list ?? [];
  }

  /** Tokens matching every given filter, grouped by chain id in ascending chain order. */
  listTokens(filter: TokenFilter = {}): Map<number, Token[]> {
    const result = new Map<number, Token[]>();
    const wantedTags = filter.tags?.map((t) => t.toLowerCase());
    for (const chain of this.chains) {
      if (filter.chainIds && filter.chainIds.length > 0 && !filter.chainIds.includes(chain.id)) continue;
      if (filter.chainTypes && filter.chainTypes.length > 0 && !filter.chainTypes.includes(chain.chainType)) continue;
      const matches = filter.search === undefined ? undefined : searchMatcher(chain, filter.search);
      let tokens = this.tokensOf(chain.id).filter(
        (t) =>
          // a listed token of unknown price (priceUSD "0") is not known to be below any minimum: listed, and says so
          (filter.minPriceUSD === undefined || Number(t.priceUSD) >= filter.minPriceUSD || isListedOnly(t)) &&
          (!wantedTags || wantedTags.length === 0 || wantedTags.every((tag) => t.tags.includes(tag))) &&
          (!matches || matches(t)),
      );
      if (filter.orderBy) tokens = this.ordered(tokens, filter.orderBy);
      if (filter.limit !== undefined) tokens = tokens.slice(0, filter.limit);
      if (tokens.length > 0) result.set(chain.id, tokens);
    }
    return result;
  }

  /** Largest first by the figure (a stable sort: ties keep catalog order); tokens without the figure last. */
  private ordered(tokens: Token[], orderBy: NonNullable<TokenFilter['orderBy']>): Token[] {
    const figure = (t: Token): number | undefined => (orderBy === 'priceUSD' ? Number(t.priceUSD) : this.markets.get(t.coinKey)?.[orderBy]);
    return tokens
      .map((token) => ({ token, value: figure(token) }))
      .sort((a, b) => (a.value === undefined ? (b.value === undefined ? 0 : 1) : b.value === undefined ? -1 : b.value - a.value))
      .map(({ token }) => token);
  }

  /** Tools restricted to the given chains: exchanges on them, bridge connections that start or end on them. */
  listTools(chainIds?: readonly number[]): { bridges: BridgeTool[]; exchanges: ExchangeTool[] } {
    if (!chainIds || chainIds.length === 0) return { bridges: [...this.bridges], exchanges: [...this.exchanges] };
    const wanted = new Set(chainIds);
    const bridges = this.bridges
      .map((b) => ({ ...b, supportedChains: b.supportedChains.filter((p) => wanted.has(p.fromChainId) || wanted.has(p.toChainId)) }))
      .filter((b) => b.supportedChains.length > 0);
    const exchanges = this.exchanges
      .map((e) => ({ ...e, supportedChains: e.supportedChains.filter((id) => wanted.has(id)) }))
      .filter((e) => e.supportedChains.length > 0);
    return { bridges, exchanges };
  }
}

/** A token search: the address itself (compared as the chain compares addresses), or text in the symbol or name. */
function searchMatcher(chain: Chain, search: string): (token: Token) => boolean {
  const text = search.trim().toLowerCase();
  const { lookupKey } = familyOf(chain);
  const address = lookupKey(search.trim());
  return (token) => lookupKey(token.address) === address || token.symbol.toLowerCase().includes(text) || token.name.toLowerCase().includes(text);
}

function compareTokens(a: Token, b: Token): number {
  return a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : a.address < b.address ? -1 : a.address > b.address ? 1 : 0;
}

function isFrozenToken(token: CatalogData['tokens'][number]): token is Token {
  return Object.isFrozen(token) && token.tags !== undefined && Object.isFrozen(token.tags);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value as object)) deepFreeze(inner);
  }
  return value;
}
