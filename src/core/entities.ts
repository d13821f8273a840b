/** Domain types of the read-only catalog. Independent of the wire format (src/generated). */

export const CHAIN_TYPES = ['EVM', 'SVM', 'UTXO', 'MVM', 'TVM'] as const;
export type ChainType = (typeof CHAIN_TYPES)[number];
/** Chain types a request filters by: any type name (one no chain has, such as the ecosystem's `STL`, matches none). */
export type ChainTypeFilter = readonly string[];

export interface Token {
  readonly chainId: number;
  /** Checksummed (EIP-55) for EVM chains; as published for other chains. */
  readonly address: string;
  readonly symbol: string;
  readonly decimals: number;
  readonly name: string;
  readonly coinKey: string;
  readonly logoURI?: string;
  /** Reference USD price as a decimal string; "0" for a token without a price (`hasPrice`). */
  readonly priceUSD: string;
  readonly tags: readonly string[];
  /**
   * `unverified`: a token the service found on a chain (a factory's pool of it, chain mode), not one of the catalog's
   * data. Its symbol and name are what its contract says: it is found by address only (never by symbol), priced only
   * by its own pools, and never prices another coin (marketPrices.ts). Absent for the catalog's own tokens.
   */
  readonly verificationStatus?: 'unverified';
}

/** Whether a token has a USD price (a discovered token that no pool prices has none: priceUSD "0"). */
export function hasPrice(token: Pick<Token, 'priceUSD'>): boolean {
  return /[1-9]/.test(token.priceUSD);
}

/**
 * A catalog token the published token lists add without a price (data/README.md, "Listed tokens"): listed and found,
 * but no pool or bridge route of the embedded data holds it. The parts of the service that act per token on a chain
 * leave these out — the factories' start-up lookups (every pair of tokens: quadratic in ~1,000 listed tokens), the
 * Solana escrow's followed token accounts, the sandbox's deployed tokens — where pools of them would be found only by
 * their creation events. A discovered token (unverified) is not one: it came from a pool.
 */
export function isListedOnly(token: Pick<Token, 'priceUSD' | 'verificationStatus'>): boolean {
  return !hasPrice(token) && token.verificationStatus !== 'unverified';
}

export interface ChainMetamask {
  readonly chainId: string;
  readonly chainName: string;
  readonly nativeCurrency: { readonly name: string; readonly symbol: string; readonly decimals: number };
  readonly rpcUrls: readonly string[];
  readonly blockExplorerUrls: readonly string[];
}

export interface Chain {
  readonly id: number;
  readonly key: string;
  readonly name: string;
  readonly chainType: ChainType;
  readonly coin: string;
  readonly mainnet: boolean;
  readonly logoURI?: string;
  readonly multicallAddress?: string;
  readonly nativeToken: Token;
  readonly metamask: ChainMetamask;
}

export interface BridgeTool {
  readonly key: string;
  readonly name: string;
  readonly logoURI?: string;
  readonly supportedChains: readonly { readonly fromChainId: number; readonly toChainId: number }[];
  /** coinKeys of the assets the bridge moves. */
  readonly tokens: readonly string[];
}

export interface ExchangeTool {
  readonly key: string;
  readonly name: string;
  readonly logoURI?: string;
  readonly supportedChains: readonly number[];
  readonly kinds: readonly string[];
}

/**
 * A tool the ecosystem's clients may still name that no longer carries transfers (a bridge shut down or replaced):
 * named in a tool list, it is left out rather than refused as unknown, so that a client written when it ran keeps
 * working with the other tools it names.
 */
export interface RetiredTool {
  readonly key: string;
  readonly kind: 'bridge' | 'exchange';
  readonly name: string;
  /** Since when, and what became of it. */
  readonly note: string;
}

export interface TokenFilter {
  /** Chain ids (already resolved); an empty list restricts nothing, as every filter list here. */
  readonly chainIds?: readonly number[];
  readonly tags?: readonly string[];
  readonly chainTypes?: ChainTypeFilter;
  /** Minimum price in USD (inclusive). */
  readonly minPriceUSD?: number;
  /** Only tokens whose symbol or name contains this text (any case), or whose address is this address. */
  readonly search?: string;
  /** Each chain's list largest first by this figure (tokens without it last); catalog order otherwise. */
  readonly orderBy?: TokenOrder;
  /** At most this many tokens per chain, after filtering and ordering. */
  readonly limit?: number;
}

export const TOKEN_ORDERS = ['marketCapUSD', 'priceUSD', 'volumeUSD24H', 'fdvUSD'] as const;
export type TokenOrder = (typeof TOKEN_ORDERS)[number];

/** Reference market figures of a coin (all chains), in whole USD: fixed with the embedded data, not live. */
export interface MarketFigures {
  readonly marketCapUSD: number;
  readonly volumeUSD24H: number;
  readonly fdvUSD: number;
}
