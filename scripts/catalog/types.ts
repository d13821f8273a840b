/** Shapes of the hand-maintained source tables (data/sources/*.json) and of the generated catalog files
 *  (data/catalog/*.json). The service reads only the generated files. */

export const POOL_KINDS = ['constantProduct', 'concentrated', 'stableswap'] as const;
export type PoolKind = (typeof POOL_KINDS)[number];

export type ChainType = 'EVM' | 'SVM' | 'UTXO' | 'MVM' | 'TVM';

// ---- sources ----

export interface PriceTable {
  asOf: string;
  note: string;
  /** coinKey -> USD price as a decimal string */
  prices: Record<string, string>;
}

export interface BridgeSource {
  key: string;
  name: string;
  logoURI: string;
  chains: number[];
  tokens: string[];
}

export interface ExchangeSource {
  key: string;
  name: string;
  logoURI: string;
  chains: number[];
  kinds: PoolKind[];
}

export interface ToolTable {
  note: string;
  bridges: BridgeSource[];
  exchanges: ExchangeSource[];
  /** Tools that no longer run, which clients may still name (copied to the catalog as they are). */
  retired?: RetiredToolSource[];
}

export interface RetiredToolSource {
  key: string;
  kind: 'bridge' | 'exchange';
  name: string;
  note: string;
}

/** Reference market figures per coinKey (whole USD). */
export interface MarketFigures {
  marketCapUSD: number;
  volumeUSD24H: number;
  fdvUSD: number;
}

export interface MarketTable {
  asOf: string;
  note: string;
  markets: Record<string, MarketFigures>;
}

export interface MarketsFile {
  schemaVersion: number;
  asOf: string;
  markets: Record<string, MarketFigures>;
}

export interface CatalogSources {
  prices: PriceTable;
  tools: ToolTable;
  markets: MarketTable;
}

// ---- generated catalog ----

export interface CatalogToken {
  chainId: number;
  address: string;
  symbol: string;
  decimals: number;
  name: string;
  coinKey: string;
  logoURI: string;
  priceUSD: string;
  tags: string[];
}

export interface CatalogChain {
  id: number;
  key: string;
  name: string;
  chainType: ChainType;
  coin: string;
  mainnet: boolean;
  logoURI: string;
  multicallAddress?: string;
  nativeToken: CatalogToken;
  metamask: {
    chainId: string;
    chainName: string;
    nativeCurrency: { name: string; symbol: string; decimals: number };
    rpcUrls: string[];
    blockExplorerUrls: string[];
  };
}

export interface CatalogBridge {
  key: string;
  name: string;
  logoURI: string;
  supportedChains: Array<{ fromChainId: number; toChainId: number }>;
  tokens: string[];
}

export interface CatalogExchange {
  key: string;
  name: string;
  logoURI: string;
  supportedChains: number[];
  kinds: PoolKind[];
}

export interface ChainsFile {
  schemaVersion: number;
  asOf: string;
  chains: CatalogChain[];
}

export interface TokensFile {
  schemaVersion: number;
  asOf: string;
  tokens: CatalogToken[];
}

export interface ToolsFile {
  schemaVersion: number;
  asOf: string;
  bridges: CatalogBridge[];
  exchanges: CatalogExchange[];
  retired: RetiredToolSource[];
}
