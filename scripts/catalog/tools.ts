/** Expands the hand-maintained tool table into the catalog's tool list, restricted to catalog chains. */
import { compareNumbers, compareStrings, sortedUnique } from './format';
import {
  POOL_KINDS, type CatalogBridge, type CatalogChain, type CatalogExchange, type CatalogToken, type ToolTable,
} from './types';

export interface CatalogTools {
  bridges: CatalogBridge[];
  exchanges: CatalogExchange[];
}

/** Bridge pairs: every ordered pair of distinct catalog chains the bridge is deployed on, kept when both
 *  chains hold at least one token of a coinKey the bridge moves. */
export function buildTools(table: ToolTable, chains: CatalogChain[], tokens: CatalogToken[]): CatalogTools {
  const chainIds = new Set(chains.map((c) => c.id));
  const coinKeysByChain = new Map<number, Set<string>>();
  for (const token of tokens) {
    const set = coinKeysByChain.get(token.chainId) ?? new Set<string>();
    set.add(token.coinKey);
    coinKeysByChain.set(token.chainId, set);
  }
  const catalogCoinKeys = new Set(tokens.map((t) => t.coinKey));
  const holdsAny = (chainId: number, coinKeys: string[]) =>
    coinKeys.some((key) => coinKeysByChain.get(chainId)?.has(key));

  const bridges: CatalogBridge[] = [];
  for (const source of table.bridges) {
    const onChains = sortedUnique(source.chains.filter((id) => chainIds.has(id)));
    const moved = sortedUnique(source.tokens.filter((key) => catalogCoinKeys.has(key)));
    const supportedChains: CatalogBridge['supportedChains'] = [];
    for (const fromChainId of onChains) {
      for (const toChainId of onChains) {
        if (fromChainId !== toChainId && holdsAny(fromChainId, moved) && holdsAny(toChainId, moved)) {
          supportedChains.push({ fromChainId, toChainId });
        }
      }
    }
    if (!supportedChains.length) continue;
    bridges.push({ key: source.key, name: source.name, logoURI: source.logoURI, supportedChains, tokens: moved });
  }

  const exchanges: CatalogExchange[] = [];
  for (const source of table.exchanges) {
    const supportedChains = sortedUnique(source.chains.filter((id) => chainIds.has(id)));
    if (!supportedChains.length) continue;
    const kinds = POOL_KINDS.filter((kind) => source.kinds.includes(kind));
    exchanges.push({ key: source.key, name: source.name, logoURI: source.logoURI, supportedChains, kinds });
  }

  checkPoolKindCoverage(chains, exchanges);
  const byKey = (a: { key: string }, b: { key: string }) => compareStrings(a.key, b.key);
  return { bridges: bridges.sort(byKey), exchanges: exchanges.sort(byKey) };
}

/** The routing snapshot builds pools of every kind on every EVM chain: each needs an exchange per kind. */
function checkPoolKindCoverage(chains: CatalogChain[], exchanges: CatalogExchange[]): void {
  for (const chain of [...chains].sort((a, b) => compareNumbers(a.id, b.id))) {
    if (chain.chainType !== 'EVM') continue;
    for (const kind of POOL_KINDS) {
      if (!exchanges.some((e) => e.supportedChains.includes(chain.id) && e.kinds.includes(kind))) {
        throw new Error(`chain ${chain.id} (${chain.key}) has no ${kind} exchange in data/sources/tools.json`);
      }
    }
  }
}
