/**
 * The only module that reads the published token lists (npm, exact versions in package.json; Token Lists format,
 * tokenlists.org). It copies what the catalog needs into plain records: the token's facts and, where the list states
 * it, the Ethereum token it is a bridged copy of (its cross-chain identity).
 */
import path from 'node:path';
import type { CatalogToken } from './types';

/** A token as a list states it (not yet checked), with the Ethereum address of the coin it is a copy of, if known. */
export interface ListedToken {
  chainId: number;
  address: string;
  symbol: string;
  name: string;
  decimals: number;
  logoURI?: string;
  /** Lower-case Ethereum address of the token this one is a bridged copy of (or its own, on Ethereum). */
  ethereumAddress?: string;
}

export interface TokenListSource {
  /** npm package and version, as the data README cites it. */
  name: string;
  version: string;
  licence: string;
  tokens: ListedToken[];
}

/** Lists use their own chain ids for non-EVM chains: Uniswap's Solana is 501000101. */
const CHAIN_ID_ALIASES: Readonly<Record<number, number>> = {
  501000101: 1151111081099710,
};

interface RawToken {
  chainId: number; address: string; symbol: string; name: string; decimals: number; logoURI?: string;
  extensions?: { bridgeInfo?: Record<string, { tokenAddress?: string }>; opTokenId?: string };
}

/** The lists in precedence order (after the curated catalog): the Uniswap default list, the Optimism list (the
 *  Superchain's own), the SushiSwap list, the QuickSwap list (Polygon), the Aave token list (the Aave markets'
 *  assets and their deposit tokens: aTokens, static aTokens, on every chain Aave runs on). */
export function readTokenLists(): TokenListSource[] {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const uniswap = require('@uniswap/default-token-list/build/uniswap-default.tokenlist.json') as { tokens: RawToken[] };
  const optimism = (require('@eth-optimism/tokenlist') as { default: { tokens: RawToken[] } }).default;
  const sushiswap = require('@sushiswap/default-token-list/build/sushiswap-default.tokenlist.json') as { tokens: RawToken[] };
  const quickswap = require('quickswap-default-token-list/build/quickswap-default.tokenlist.json') as { tokens: RawToken[] };
  // the address book exports its list only as ES module code: its JSON copy sits at the package's root
  const aave = require(path.join(path.dirname(require.resolve('@bgd-labs/aave-address-book')), '..', 'tokenlist.json')) as { tokens: RawToken[] };
  /* eslint-enable @typescript-eslint/no-require-imports */
  return [
    { name: '@uniswap/default-token-list', version: '22.21.0', licence: 'GPL-3.0-or-later', tokens: withUniswapLinks(uniswap.tokens) },
    { name: '@eth-optimism/tokenlist', version: '10.0.1757', licence: 'MIT', tokens: withOptimismLinks(optimism.tokens) },
    { name: '@sushiswap/default-token-list', version: '43.3.0', licence: 'GPL-3.0-or-later', tokens: sushiswap.tokens.map((t) => plain(t)) },
    { name: 'quickswap-default-token-list', version: '1.2.59', licence: 'GPL-3.0-or-later', tokens: quickswap.tokens.map((t) => plain(t)) },
    { name: '@bgd-labs/aave-address-book', version: '4.44.22', licence: 'MIT', tokens: aave.tokens.map((t) => plain(t)) },
  ];
}

function plain(raw: RawToken, ethereumAddress?: string): ListedToken {
  const chainId = CHAIN_ID_ALIASES[raw.chainId] ?? raw.chainId;
  const token: ListedToken = { chainId, address: raw.address, symbol: raw.symbol, name: raw.name, decimals: raw.decimals };
  if (raw.logoURI) token.logoURI = raw.logoURI;
  if (ethereumAddress) token.ethereumAddress = ethereumAddress.toLowerCase();
  return token;
}

/** Uniswap's `bridgeInfo`: an Ethereum token names its copies by chain, and a copy names its Ethereum token ("1"). */
function withUniswapLinks(tokens: RawToken[]): ListedToken[] {
  const copies = new Map<string, string>(); // "<chainId>:<lower-case address>" → Ethereum address
  for (const t of tokens.filter((t) => t.chainId === 1)) {
    for (const [chainId, info] of Object.entries(t.extensions?.bridgeInfo ?? {})) {
      if (info.tokenAddress) copies.set(`${chainId}:${info.tokenAddress.toLowerCase()}`, t.address);
    }
  }
  return tokens.map((t) => plain(t, t.chainId === 1 ? t.address
    : t.extensions?.bridgeInfo?.['1']?.tokenAddress ?? copies.get(`${t.chainId}:${t.address.toLowerCase()}`)));
}

/** The Optimism list's `opTokenId`: one id for a coin on every chain it lists; the id's Ethereum token is the coin. */
function withOptimismLinks(tokens: RawToken[]): ListedToken[] {
  const onEthereum = new Map<string, string>();
  for (const t of tokens) if (t.chainId === 1 && t.extensions?.opTokenId) onEthereum.set(t.extensions.opTokenId, t.address);
  return tokens.map((t) => plain(t, t.extensions?.opTokenId ? onEthereum.get(t.extensions.opTokenId) : undefined));
}

/** Why a listed token is not in the catalog. */
export interface Refusal {
  list: string;
  chainId: number;
  address: string;
  symbol: string;
  /** The rule it breaks, in a few words (the CLI counts refusals by rule). */
  rule: 'facts' | 'address' | 'native coin' | 'decimals differ from the catalog' | 'lists disagree on decimals' | 'symbol taken';
  reason: string;
}

export interface MergeOptions {
  /** Normalises an address of `chainId` (EIP-55 on EVM chains); throws on an address of the wrong form. */
  normalise: (chainId: number, address: string) => string;
  /** The native coin's address on a chain (a list's entry for it is not a token of the catalog). */
  nativeAddress: (chainId: number) => string | undefined;
  /** Reference USD price by coinKey: a listed token is priced only by its coin's entry, else "0" (no price). */
  prices: Readonly<Record<string, string>>;
  stablecoinKeys: readonly string[];
}

export interface MergeResult {
  tokens: CatalogToken[];
  refused: Refusal[];
}

const MAX_SYMBOL = 32;
const MAX_NAME = 100;

/**
 * Adds the listed tokens of the catalog's chains to the curated tokens.
 *
 * - The curated token keeps precedence: a listed token at its address adds nothing (a list that states other
 *   decimals for it is reported as refused; the curated facts are checked against their own source).
 * - Between lists, the first list (in `lists` order) that names an address wins; when lists disagree on its
 *   decimals the token is left out (decimals decide every amount, and which list is right cannot be told here).
 * - A symbol names one token per chain (any case), as the service looks tokens up by symbol: a listed token whose
 *   symbol another token on its chain already has is left out (curated first, then list order, then address).
 * - Refused: an EVM address whose mixed case is not its EIP-55 checksum, decimals outside 0–36, an empty or
 *   over-long symbol or name, text with control characters, the native coin's address.
 * - coinKey: the listed Ethereum token a list says it is a copy of gives it its coinKey (the copy shares the coin);
 *   a listed Ethereum token's is its symbol. A curated coin's key is never given to a listed token. A token with no stated identity takes its symbol only when no other coin claims
 *   that symbol; otherwise `<chainId>:<address>`, so that it never shares a coin's price or bridge routes by name.
 * - priceUSD: the coinKey's reference price, or "0" where the catalog knows none (never a made-up value).
 */
export function mergeTokenLists(curated: readonly CatalogToken[], lists: readonly TokenListSource[], chainIds: readonly number[], options: MergeOptions): MergeResult {
  const refused: Refusal[] = [];
  const key = (chainId: number, address: string) => `${chainId}:${address.toLowerCase()}`;
  const byAddress = new Map<string, CatalogToken>(curated.map((t) => [key(t.chainId, t.address), t]));
  const symbols = new Set(curated.map((t) => `${t.chainId}:${t.symbol.toUpperCase()}`));
  const wanted = new Set(chainIds);

  // 1. accepted listed tokens, first list first; each chain's in address order so that the result never depends
  //    on a list's own ordering
  const accepted: Array<{ token: ListedToken; list: string }> = [];
  const listedDecimals = new Map<string, { decimals: number; list: string }>();
  const disputed = new Set<string>();
  for (const list of lists) {
    const tokens = list.tokens.filter((t) => wanted.has(t.chainId))
      .sort((a, b) => a.chainId - b.chainId || (a.address.toLowerCase() < b.address.toLowerCase() ? -1 : a.address.toLowerCase() > b.address.toLowerCase() ? 1 : 0));
    for (const raw of tokens) {
      const refuse = (rule: Refusal['rule'], reason: string) => refused.push({ list: list.name, chainId: raw.chainId, address: raw.address, symbol: String(raw.symbol), rule, reason });
      const problem = checkFacts(raw);
      if (problem) { refuse('facts', problem); continue; }
      let address: string;
      try {
        address = options.normalise(raw.chainId, raw.address);
      } catch {
        refuse('address', 'the address is not valid on its chain (an EVM address in mixed case must be its EIP-55 checksum)');
        continue;
      }
      if (address === options.nativeAddress(raw.chainId)) { refuse('native coin', 'the native coin is not a token of the catalog'); continue; }
      const id = key(raw.chainId, address);
      const known = byAddress.get(id);
      if (known && known.decimals !== raw.decimals) {
        refuse('decimals differ from the catalog', `the catalog's ${known.symbol} at this address has ${known.decimals} decimals, the list ${raw.decimals}`);
        continue;
      }
      const earlier = listedDecimals.get(id);
      if (earlier && earlier.decimals !== raw.decimals) {
        refuse('lists disagree on decimals', `${earlier.list} gives it ${earlier.decimals} decimals, this list ${raw.decimals}: left out`);
        disputed.add(id);
        continue;
      }
      if (!earlier) listedDecimals.set(id, { decimals: raw.decimals, list: list.name });
      if (known || earlier) continue; // the curated token, or an earlier list's entry, stands
      const symbol = `${raw.chainId}:${raw.symbol.trim().toUpperCase()}`;
      if (symbols.has(symbol)) { refuse('symbol taken', `another token on chain ${raw.chainId} has the symbol ${raw.symbol.trim()}`); continue; }
      symbols.add(symbol);
      accepted.push({ token: { ...raw, address, symbol: raw.symbol.trim(), name: raw.name.trim() }, list: list.name });
    }
  }

  // lists that disagree on a token's decimals leave it out: which one is right cannot be told from here
  for (let i = accepted.length - 1; i >= 0; i -= 1) {
    if (disputed.has(key(accepted[i].token.chainId, accepted[i].token.address))) accepted.splice(i, 1);
  }

  // 2. coinKeys: the curated coins' and the Ethereum tokens' first, then the copies', then the rest's
  const coinOf = new Map<string, string>(); // Ethereum lower-case address → coinKey
  const claimed = new Map<string, string>(); // coinKey → the coin that holds it (its Ethereum address, or a curated key)
  // a curated coin is not shared with listed copies: the bridges and pools of the curated coins are modelled for the
  // tokens @lifi/data-types names (a bridged USDC is not the USDC that CCTP moves)
  for (const t of curated) claimed.set(t.coinKey, `curated:${t.coinKey}`);
  for (const { token } of accepted.filter((a) => a.token.chainId === 1)) {
    const coin = token.address.toLowerCase();
    const coinKey = claimed.has(token.symbol) ? `1:${token.address}` : token.symbol;
    claimed.set(coinKey, coin);
    coinOf.set(coin, coinKey);
  }
  const unlinkedClaims = new Map<string, number>();
  for (const { token } of accepted) {
    if (token.chainId !== 1 && !(token.ethereumAddress && coinOf.has(token.ethereumAddress))) unlinkedClaims.set(token.symbol, (unlinkedClaims.get(token.symbol) ?? 0) + 1);
  }
  const keysOnChain = new Set(curated.map((t) => `${t.chainId}|${t.coinKey}`));
  const tokens: CatalogToken[] = [];
  for (const { token } of accepted) {
    let coinKey: string;
    if (token.chainId === 1) coinKey = coinOf.get(token.address.toLowerCase())!;
    else if (token.ethereumAddress && coinOf.has(token.ethereumAddress)) coinKey = coinOf.get(token.ethereumAddress)!;
    else coinKey = !claimed.has(token.symbol) && unlinkedClaims.get(token.symbol) === 1 ? token.symbol : `${token.chainId}:${token.address}`;
    // one token of a coin per chain: a second copy on a chain (say a bridged USDC beside the native one) is its own coin
    if (keysOnChain.has(`${token.chainId}|${coinKey}`)) coinKey = `${token.chainId}:${token.address}`;
    keysOnChain.add(`${token.chainId}|${coinKey}`);
    const price = Object.prototype.hasOwnProperty.call(options.prices, coinKey) ? options.prices[coinKey] : '0';
    tokens.push({
      chainId: token.chainId,
      address: token.address,
      symbol: token.symbol,
      decimals: token.decimals,
      name: token.name,
      coinKey,
      logoURI: token.logoURI && isHttpOrIpfs(token.logoURI) ? token.logoURI : '',
      priceUSD: price,
      tags: price !== '0' && options.stablecoinKeys.includes(coinKey) ? ['stablecoin'] : [],
    });
  }
  return { tokens, refused };
}

function checkFacts(token: ListedToken): string | undefined {
  if (!Number.isInteger(token.decimals) || token.decimals < 0 || token.decimals > 36) return `decimals ${String(token.decimals)} are not an integer from 0 to 36`;
  if (typeof token.symbol !== 'string' || !token.symbol.trim() || token.symbol.trim().length > MAX_SYMBOL) return `the symbol must have 1 to ${MAX_SYMBOL} characters`;
  if (typeof token.name !== 'string' || !token.name.trim() || token.name.trim().length > MAX_NAME) return `the name must have 1 to ${MAX_NAME} characters`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(token.symbol + token.name)) return 'the symbol or name holds control characters';
  return undefined;
}

function isHttpOrIpfs(uri: string): boolean {
  try {
    const url = new URL(uri);
    return (url.protocol === 'https:' || url.protocol === 'http:' || url.protocol === 'ipfs:') && !/\s/.test(uri);
  } catch {
    return false;
  }
}
