/** Reads and checks the two hand-maintained source tables in data/sources/. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isPositiveDecimalString } from './format';
import { POOL_KINDS, type CatalogSources, type MarketTable, type PriceTable, type ToolTable } from './types';

export const PRICES_SOURCE = 'data/sources/prices.json';
export const TOOLS_SOURCE = 'data/sources/tools.json';
export const MARKETS_SOURCE = 'data/sources/markets.json';

export function loadSources(repoRoot: string): CatalogSources {
  const prices = JSON.parse(readFileSync(join(repoRoot, PRICES_SOURCE), 'utf8')) as PriceTable;
  const tools = JSON.parse(readFileSync(join(repoRoot, TOOLS_SOURCE), 'utf8')) as ToolTable;
  const markets = JSON.parse(readFileSync(join(repoRoot, MARKETS_SOURCE), 'utf8')) as MarketTable;
  checkSources({ prices, tools, markets });
  return { prices, tools, markets };
}

/** Throws with a message naming the file and the entry at the first malformed entry. */
export function checkSources({ prices, tools, markets }: CatalogSources): void {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(prices.asOf)) throw new Error(`${PRICES_SOURCE}: asOf must be YYYY-MM-DD`);
  for (const [coinKey, figures] of Object.entries(markets.markets)) {
    if (!Object.prototype.hasOwnProperty.call(prices.prices, coinKey)) throw new Error(`${MARKETS_SOURCE}: ${coinKey} has no price in ${PRICES_SOURCE}`);
    for (const name of ['marketCapUSD', 'volumeUSD24H', 'fdvUSD'] as const) {
      if (!Number.isSafeInteger(figures[name]) || figures[name] < 0) throw new Error(`${MARKETS_SOURCE}: ${name} of ${coinKey} must be a whole number of USD`);
    }
  }
  for (const [coinKey, price] of Object.entries(prices.prices)) {
    if (!isPositiveDecimalString(price)) {
      throw new Error(`${PRICES_SOURCE}: price of ${coinKey} must be a positive decimal string, got ${price}`);
    }
  }
  const seen = new Set<string>();
  for (const tool of [...tools.bridges, ...tools.exchanges]) {
    if (seen.has(tool.key)) throw new Error(`${TOOLS_SOURCE}: duplicate tool key ${tool.key}`);
    seen.add(tool.key);
    if (!/^[a-z0-9]+$/i.test(tool.key) || !tool.name || !tool.logoURI) {
      throw new Error(`${TOOLS_SOURCE}: tool ${tool.key} needs a simple key, a name and a logoURI`);
    }
    if (!Array.isArray(tool.chains) || tool.chains.some((id) => !Number.isInteger(id) || id <= 0)) {
      throw new Error(`${TOOLS_SOURCE}: tool ${tool.key} chains must be positive integer chain ids`);
    }
  }
  for (const bridge of tools.bridges) {
    if (bridge.chains.length < 2) throw new Error(`${TOOLS_SOURCE}: bridge ${bridge.key} needs two chains`);
    if (!bridge.tokens.length) throw new Error(`${TOOLS_SOURCE}: bridge ${bridge.key} moves no token`);
  }
  for (const exchange of tools.exchanges) {
    const bad = exchange.kinds.filter((kind) => !(POOL_KINDS as readonly string[]).includes(kind));
    if (!exchange.kinds.length || bad.length) {
      throw new Error(`${TOOLS_SOURCE}: exchange ${exchange.key} kinds must be among ${POOL_KINDS.join(', ')}`);
    }
  }
}
