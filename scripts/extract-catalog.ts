/**
 * Generates the embedded catalog data (data/catalog/{chains,tokens,tools,markets}.json) from
 *   - @lifi/data-types (Apache-2.0): chain facts, coin and wrapped-token addresses and decimals,
 *   - the published token lists on npm (scripts/catalog/tokenLists.ts): the tokens beyond the curated coins,
 *   - data/sources/prices.json, tools.json and markets.json (hand-maintained),
 * and cross-checks the EVM chains against viem/chains (MIT). The service reads only the generated files.
 *
 *   npx tsx scripts/extract-catalog.ts           write the files
 *   npx tsx scripts/extract-catalog.ts --check   exit 1 when the committed files differ from a fresh build
 *
 * Output is deterministic: fixed key order, sorted lists, 2-space JSON, trailing newline.
 */
import { resolve } from 'node:path';
import { getAddress } from 'ethers';
import { buildChain, selectChains } from './catalog/chains';
import { SCHEMA_VERSION, STABLECOIN_COIN_KEYS } from './catalog/config';
import { runScript, toJsonText, writeGenerated } from './catalog/format';
import { loadSources } from './catalog/sources';
import { buildChainTokens, compareTokens } from './catalog/tokens';
import { buildTools } from './catalog/tools';
import type { CatalogSources, ChainsFile, MarketsFile, TokensFile, ToolsFile } from './catalog/types';
import { mergeTokenLists, readTokenLists, type Refusal, type TokenListSource } from './catalog/tokenLists';
import { readUpstream, type Upstream } from './catalog/upstream';

export const REPO_ROOT = resolve(__dirname, '..');
export const CHAINS_FILE = 'data/catalog/chains.json';
export const TOKENS_FILE = 'data/catalog/tokens.json';
export const TOOLS_FILE = 'data/catalog/tools.json';
export const MARKETS_FILE = 'data/catalog/markets.json';

export interface BuildCatalogInput {
  sources?: CatalogSources;
  upstream?: Upstream;
  lists?: TokenListSource[];
}

export interface BuiltCatalog {
  chains: ChainsFile;
  tokens: TokensFile;
  tools: ToolsFile;
  markets: MarketsFile;
  /** Listed tokens left out, and why (printed by the CLI). */
  refused: Refusal[];
}

/** The catalog as objects. Reads the source tables from the repository unless they are given. */
export function buildCatalogData(input: BuildCatalogInput = {}): BuiltCatalog {
  const sources = input.sources ?? loadSources(REPO_ROOT);
  const upstream = input.upstream ?? readUpstream();
  const asOf = sources.prices.asOf;

  const selected = selectChains(upstream.chains);
  const tokensByChain = selected.map((chain) =>
    buildChainTokens(chain.id, chain.chainType === 'EVM', upstream, sources.prices));
  const chains = selected.map((chain, i) => buildChain(chain, tokensByChain[i]));
  const curated = tokensByChain.flat();
  const chainTypes = new Map(chains.map((c) => [c.id, c.chainType]));
  const listed = mergeTokenLists(curated, input.lists ?? readTokenLists(), chains.map((c) => c.id), {
    normalise: (chainId, address) => normaliseListedAddress(chainTypes.get(chainId)!, address),
    nativeAddress: (chainId) => chains.find((c) => c.id === chainId)?.nativeToken.address,
    prices: sources.prices.prices,
    stablecoinKeys: STABLECOIN_COIN_KEYS,
  });
  const tokens = [...curated, ...listed.tokens].sort(compareTokens);
  const tools = buildTools(sources.tools, chains, tokens);

  return {
    chains: { schemaVersion: SCHEMA_VERSION, asOf, chains },
    tokens: { schemaVersion: SCHEMA_VERSION, asOf, tokens },
    tools: { schemaVersion: SCHEMA_VERSION, asOf, bridges: tools.bridges, exchanges: tools.exchanges, retired: sources.tools.retired ?? [] },
    markets: { schemaVersion: SCHEMA_VERSION, asOf: sources.markets.asOf, markets: sortedMarkets(sources.markets.markets) },
    refused: listed.refused,
  };
}

/** A listed token's address in the catalog's form: EIP-55 on EVM chains (a mixed-case address must already be its
 *  checksum: a wrong one is a damaged entry, not a case to repair), base58 on Solana and Tron. */
export function normaliseListedAddress(chainType: string, address: string): string {
  if (chainType === 'EVM') {
    if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw new Error(`not an EVM address: ${address}`);
    const mixed = address.slice(2) !== address.slice(2).toLowerCase() && address.slice(2) !== address.slice(2).toUpperCase();
    const checksummed = getAddress(address.toLowerCase());
    if (mixed && checksummed !== address) throw new Error(`${address} is not its EIP-55 checksum ${checksummed}`);
    return checksummed;
  }
  if (chainType === 'SVM' || chainType === 'TVM') {
    if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(address)) throw new Error(`not a base58 address: ${address}`);
    return address;
  }
  throw new Error(`listed tokens of ${chainType} chains are not read`);
}

/** The generated files' contents, keyed by their path relative to the repository root. */
export function buildCatalog(input: BuildCatalogInput = {}): Record<string, string> {
  return renderCatalog(buildCatalogData(input));
}

export function renderCatalog(data: BuiltCatalog): Record<string, string> {
  return {
    [CHAINS_FILE]: toJsonText(data.chains),
    [TOKENS_FILE]: toJsonText(data.tokens),
    [TOOLS_FILE]: toJsonText(data.tools),
    [MARKETS_FILE]: toJsonText(data.markets),
  };
}

/** The market figures by coinKey in code-unit order, each with its keys in a fixed order. */
function sortedMarkets(markets: MarketsFile['markets']): MarketsFile['markets'] {
  return Object.fromEntries(
    Object.keys(markets)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .map((key) => [key, { marketCapUSD: markets[key].marketCapUSD, volumeUSD24H: markets[key].volumeUSD24H, fdvUSD: markets[key].fdvUSD }]),
  );
}

/** Compares the EVM chains with viem's chain definitions; returns problems found (empty when all agree). */
function crossCheckWithViem(chains: ChainsFile): { checked: number; errors: string[]; warnings: string[] } {
  // A plain require keeps tsc from type-checking viem's dependency `ox`, which ships .ts sources needing DOM
  // types; the values are all we need. Loaded here only, so that buildCatalog() (and its test) stays fast.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const viemChains = require('viem/chains') as Record<string, unknown>;
  const byId = new Map<number, { nativeCurrency: { decimals: number }; contracts?: { multicall3?: { address: string } } }>();
  for (const value of Object.values(viemChains)) {
    const c = value as { id?: unknown; testnet?: boolean; nativeCurrency?: { decimals: number } };
    if (typeof c?.id === 'number' && c.nativeCurrency && !c.testnet && !byId.has(c.id)) byId.set(c.id, c as never);
  }
  const errors: string[] = [];
  const warnings: string[] = [];
  let checked = 0;
  for (const chain of chains.chains.filter((c) => c.chainType === 'EVM')) {
    const viemChain = byId.get(chain.id);
    if (!viemChain) {
      warnings.push(`chain ${chain.id} (${chain.key}) is not defined in viem/chains`);
      continue;
    }
    checked += 1;
    if (viemChain.nativeCurrency.decimals !== chain.nativeToken.decimals) {
      errors.push(`chain ${chain.id}: native decimals ${chain.nativeToken.decimals}, viem says `
        + `${viemChain.nativeCurrency.decimals}`);
    }
    const multicall3 = viemChain.contracts?.multicall3?.address;
    if (multicall3 && multicall3.toLowerCase() !== chain.multicallAddress?.toLowerCase()) {
      warnings.push(`chain ${chain.id}: multicall ${chain.multicallAddress}, viem says ${multicall3}`);
    }
  }
  return { checked, errors, warnings };
}

function main(argv: string[]): number {
  const check = argv.includes('--check');
  const data = buildCatalogData();
  const files = renderCatalog(data);
  const { checked, errors, warnings } = crossCheckWithViem(data.chains);
  for (const warning of warnings) console.warn(`warning: ${warning}`);
  console.log(`viem/chains cross-check: ${checked} EVM chains compared, ${errors.length} errors, `
    + `${warnings.length} warnings`);
  if (errors.length) {
    for (const error of errors) console.error(`error: ${error}`);
    return 1;
  }
  const stale = writeGenerated(REPO_ROOT, files, check, 'npx tsx scripts/extract-catalog.ts');
  const refusedBy = new Map<string, number>();
  for (const r of data.refused) refusedBy.set(r.rule, (refusedBy.get(r.rule) ?? 0) + 1);
  for (const r of data.refused.filter((r) => r.rule !== 'symbol taken')) console.log(`left out: ${r.symbol} ${r.address} on ${r.chainId} (${r.list}): ${r.reason}`);
  console.log(`listed tokens left out: ${[...refusedBy].map(([rule, count]) => `${count} (${rule})`).join(', ') || 'none'}`);
  const bridgePairs = data.tools.bridges.reduce((n, b) => n + b.supportedChains.length, 0);
  console.log(`${data.chains.chains.length} chains, ${data.tokens.tokens.length} tokens, `
    + `${data.tools.bridges.length} bridges (${bridgePairs} chain pairs), ${data.tools.exchanges.length} exchanges`
    + (check && !stale ? '; files on disk are up to date' : ''));
  return stale ? 1 : 0;
}

if (require.main === module) runScript(main);
