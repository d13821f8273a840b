/** Checks the committed catalog data (data/catalog/*.json) and that the extraction script still produces
 *  it byte for byte. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getAddress } from 'ethers';
import { buildCatalog, CHAINS_FILE, REPO_ROOT, TOKENS_FILE, TOOLS_FILE, MARKETS_FILE } from '../../../scripts/extract-catalog';
import type { ChainsFile, TokensFile, ToolsFile } from '../../../scripts/catalog/types';

const readText = (path: string) => readFileSync(join(REPO_ROOT, path), 'utf8');
const chainsFile = JSON.parse(readText(CHAINS_FILE)) as ChainsFile;
const tokensFile = JSON.parse(readText(TOKENS_FILE)) as TokensFile;
const toolsFile = JSON.parse(readText(TOOLS_FILE)) as ToolsFile;
const { chains } = chainsFile;
const { tokens } = tokensFile;
const chainById = new Map(chains.map((c) => [c.id, c]));
const isEvm = (chainId: number) => chainById.get(chainId)?.chainType === 'EVM';
const POOL_KINDS = ['constantProduct', 'concentrated', 'stableswap'];

const REQUIRED_EVM: Array<[number, string]> = [
  [1, 'eth'], [10, 'opt'], [56, 'bsc'], [100, 'dai'], [137, 'pol'], [8453, 'bas'], [42161, 'arb'],
  [43114, 'ava'], [59144, 'lna'], [324, 'era'], [534352, 'scl'],
];
const REQUIRED_NON_EVM: Array<[number, string, string]> = [
  [1151111081099710, 'sol', 'SVM'], [20000000000001, 'btc', 'UTXO'], [9270000000000000, 'sui', 'MVM'],
  [728126428, 'trx', 'TVM'],
];

function findToken(chainId: number, symbol: string) {
  const token = tokens.find((t) => t.chainId === chainId && t.symbol === symbol);
  if (!token) throw new Error(`no ${symbol} on ${chainId}`);
  return token;
}

describe('catalog chains', () => {
  it('has at least 12 EVM chains, including the required ones with their ids and keys', () => {
    expect(chains.filter((c) => c.chainType === 'EVM').length).toBeGreaterThanOrEqual(12);
    for (const [id, key] of REQUIRED_EVM) {
      expect({ id, key, chainType: chainById.get(id)?.chainType }).toEqual({ id, key, chainType: 'EVM' });
    }
  });

  it('has the four non-EVM chains with their ids, keys and chain types', () => {
    for (const [id, key, chainType] of REQUIRED_NON_EVM) {
      const chain = chainById.get(id);
      expect({ id, key: chain?.key, chainType: chain?.chainType }).toEqual({ id, key, chainType });
    }
  });

  it('is sorted by id, with unique ids and keys', () => {
    expect(chains.map((c) => c.id)).toEqual([...chains.map((c) => c.id)].sort((a, b) => a - b));
    expect(new Set(chains.map((c) => c.id)).size).toBe(chains.length);
    expect(new Set(chains.map((c) => c.key)).size).toBe(chains.length);
  });

  it('gives every chain its native token, identical to its entry in tokens.json', () => {
    for (const chain of chains) {
      const entry = tokens.find((t) => t.chainId === chain.id && t.address === chain.nativeToken.address);
      expect(entry).toEqual(chain.nativeToken);
      expect(chain.nativeToken.coinKey).toBe(chain.coin);
      if (chain.chainType === 'EVM') {
        expect(chain.nativeToken.address).toBe('0x0000000000000000000000000000000000000000');
        expect(chain.multicallAddress && getAddress(chain.multicallAddress)).toBe(chain.multicallAddress);
        expect(chain.metamask.chainId).toBe(`0x${chain.id.toString(16)}`);
      }
    }
  });
});

describe('catalog tokens', () => {
  it('has at least 150 tokens, sorted by chainId, symbol, address', () => {
    expect(tokens.length).toBeGreaterThanOrEqual(150);
    const key = (t: (typeof tokens)[number]) => [t.chainId, t.symbol, t.address] as const;
    for (let i = 1; i < tokens.length; i += 1) {
      const [a, b] = [key(tokens[i - 1]), key(tokens[i])];
      const order = a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0) || (a[2] < b[2] ? -1 : 1);
      expect(order).toBeLessThan(0);
    }
  });

  it('uses EIP-55 checksummed addresses on EVM chains', () => {
    const bad = tokens.filter((t) => isEvm(t.chainId) && getAddress(t.address) !== t.address);
    expect(bad).toEqual([]);
  });

  it('has integer decimals in 0..36, a catalog chain, a price or "0" (none known) and a tag list', () => {
    for (const t of tokens) {
      expect(Number.isInteger(t.decimals) && t.decimals >= 0 && t.decimals <= 36).toBe(true);
      expect(chainById.has(t.chainId)).toBe(true);
      expect(t.priceUSD).toMatch(/^(0|[1-9][0-9]*)(\.[0-9]+)?$/);
      expect(t.tags.every((tag) => tag === 'stablecoin')).toBe(true);
    }
    // a token without a price is one the published lists add and the price table does not know: never a native
    // coin, a stablecoin or a coin the bridges move
    const unpriced = tokens.filter((t) => t.priceUSD === '0');
    expect(unpriced.length).toBeGreaterThan(1000);
    const bridged = new Set(toolsFile.bridges.flatMap((b) => b.tokens));
    for (const t of unpriced) {
      expect(t.tags).toEqual([]);
      expect(bridged.has(t.coinKey)).toBe(false);
      expect(chains.some((c) => c.nativeToken.address === t.address && c.id === t.chainId)).toBe(false);
    }
  });

  it('lists at least 100 tokens on every major EVM chain the published lists cover', () => {
    for (const chainId of [1, 10, 56, 130, 137, 8453, 42161, 43114]) {
      expect(tokens.filter((t) => t.chainId === chainId).length).toBeGreaterThanOrEqual(100);
    }
    expect(tokens.filter((t) => t.chainId === 1151111081099710).length).toBeGreaterThanOrEqual(100);
  });

  it('knows the well-known tokens integrators ask for, priced where the price table knows their coin', () => {
    expect(findToken(1, 'PEPE')).toMatchObject({ address: '0x6982508145454Ce325dDbE47a25d4ec3d2311933', decimals: 18, coinKey: 'PEPE', priceUSD: '0.0000068' });
    // the Arbitrum PEPE is the Uniswap list's bridged copy of Ethereum's: the same coin, the same price
    expect(findToken(42161, 'PEPE')).toMatchObject({ address: '0x35E6A59F786d9266c7961eA28c7b768B33959cbB', coinKey: 'PEPE' });
    expect(findToken(10, 'OP')).toMatchObject({ address: '0x4200000000000000000000000000000000000042', decimals: 18, priceUSD: '0.36' });
    expect(findToken(1, 'wstETH')).toMatchObject({ address: '0x7f39C581F595B53c5cb19bD0b3f8dA6c935E2Ca0', decimals: 18 });
    // Jupiter on Solana is listed (Uniswap's Solana list) but not priced: its coinKey is its own, not Ethereum's JUP
    expect(findToken(1151111081099710, 'JUP')).toMatchObject({ address: 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN', priceUSD: '0', coinKey: '1151111081099710:JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN' });
    // Aave's deposit tokens (the Aave token list): listed, unpriced (a deposit token is not its underlying coin)
    expect(findToken(10, 'aOptUSDCn')).toMatchObject({ address: '0x38d693cE1dF5AaDF7bC62595A37D667aD57922e5', decimals: 6, priceUSD: '0', coinKey: 'aOptUSDCn' });
    expect(findToken(43114, 'aAvaUSDC')).toMatchObject({ address: '0x625E7708f30cA75bfd92586e17077590C60eb4cD', decimals: 6, priceUSD: '0' });
  });

  it('tags only USD-priced tokens as stablecoins', () => {
    for (const t of tokens.filter((x) => x.tags.includes('stablecoin'))) {
      expect(Math.abs(Number(t.priceUSD) - 1)).toBeLessThan(0.05);
    }
    expect(findToken(1, 'USDC').tags).toEqual(['stablecoin']);
    expect(findToken(1, 'WETH').tags).toEqual([]);
    expect(findToken(1, 'EURC').tags).toEqual([]);
  });

  it('has no duplicate (chainId, address) or (chainId, symbol)', () => {
    const addresses = tokens.map((t) => `${t.chainId}:${isEvm(t.chainId) ? t.address.toLowerCase() : t.address}`);
    const symbols = tokens.map((t) => `${t.chainId}:${t.symbol}`);
    expect(new Set(addresses).size).toBe(tokens.length);
    expect(new Set(symbols).size).toBe(tokens.length);
  });

  it('matches known real-world facts', () => {
    expect(findToken(42161, 'USDC')).toMatchObject({ address: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831', decimals: 6 });
    // EIP-55 form of 0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48 (note the lower-case "c1d19D")
    expect(findToken(1, 'USDC')).toMatchObject({ address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', decimals: 6 });
    expect(findToken(8453, 'WETH').address).toBe('0x4200000000000000000000000000000000000006');
    expect(findToken(1, 'USDT')).toMatchObject({ address: '0xdAC17F958D2ee523a2206206994597C13D831ec7', decimals: 6 });
    expect(findToken(1, 'WBTC').decimals).toBe(8);
    expect(findToken(56, 'USDC').decimals).toBe(18); // Binance-peg USDC has 18 decimals
    expect(findToken(1151111081099710, 'USDC').address).toBe('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v');
    expect(findToken(728126428, 'USDT').address).toBe('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t');
  });
});

describe('catalog tools', () => {
  const catalogCoinKeys = new Set(tokens.map((t) => t.coinKey));

  it('has an exchange of every pool kind on every EVM chain', () => {
    for (const chain of chains.filter((c) => c.chainType === 'EVM')) {
      for (const kind of POOL_KINDS) {
        const found = toolsFile.exchanges.some((e) => e.supportedChains.includes(chain.id) && e.kinds.includes(kind as never));
        expect({ chain: chain.key, kind, found }).toEqual({ chain: chain.key, kind, found: true });
      }
    }
  });

  it('lets cctp move USDC only', () => {
    expect(toolsFile.bridges.find((b) => b.key === 'cctp')?.tokens).toEqual(['USDC']);
  });

  it('has the required bridges and exchanges', () => {
    const bridgeKeys = toolsFile.bridges.map((b) => b.key);
    for (const key of ['across', 'stargate', 'cctp', 'hop', 'relay', 'mayan', 'debridge', 'arbitrum', 'optimism',
      'base', 'polygon', 'linea', 'scroll', 'zksync', 'gnosis']) expect(bridgeKeys).toContain(key);
    const exchangeKeys = toolsFile.exchanges.map((e) => e.key);
    for (const key of ['uniswap', 'sushiswap', 'pancakeswap', 'curve', 'aerodrome', 'velodrome', 'quickswap',
      'traderjoe', 'syncswap']) expect(exchangeKeys).toContain(key);
  });

  it('only pairs distinct catalog chains that hold a token the bridge moves', () => {
    for (const bridge of toolsFile.bridges) {
      expect(bridge.tokens.every((k) => catalogCoinKeys.has(k))).toBe(true);
      const seen = new Set<string>();
      for (const { fromChainId, toChainId } of bridge.supportedChains) {
        expect(chainById.has(fromChainId) && chainById.has(toChainId) && fromChainId !== toChainId).toBe(true);
        for (const id of [fromChainId, toChainId]) {
          expect(tokens.some((t) => t.chainId === id && bridge.tokens.includes(t.coinKey))).toBe(true);
        }
        seen.add(`${fromChainId}>${toChainId}`);
      }
      expect(seen.size).toBe(bridge.supportedChains.length);
    }
  });

  it('keeps canonical rollup bridges between Ethereum and their own chain', () => {
    const own: Record<string, number> = {
      arbitrum: 42161, optimism: 10, base: 8453, polygon: 137, linea: 59144, scroll: 534352, zksync: 324, gnosis: 100,
    };
    for (const [key, chainId] of Object.entries(own)) {
      expect(toolsFile.bridges.find((b) => b.key === key)?.supportedChains).toEqual([
        { fromChainId: 1, toChainId: chainId }, { fromChainId: chainId, toChainId: 1 },
      ]);
    }
  });

  it('only names catalog chains for exchanges', () => {
    for (const exchange of toolsFile.exchanges) {
      expect(exchange.supportedChains.every((id) => chainById.has(id))).toBe(true);
    }
  });
});

describe('extraction script', () => {
  it('reproduces the committed files byte for byte', () => {
    const built = buildCatalog();
    expect(Object.keys(built).sort()).toEqual([CHAINS_FILE, TOKENS_FILE, TOOLS_FILE, MARKETS_FILE].sort());
    for (const [path, text] of Object.entries(built)) {
      expect({ path, same: text === readText(path) }).toEqual({ path, same: true });
    }
  });

  it('is deterministic across runs', () => {
    expect(buildCatalog()).toEqual(buildCatalog());
  });
});
