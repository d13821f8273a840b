/** Selection rules of the catalog extraction: which chains, and the few documented exceptions to what
 *  @lifi/data-types says. Everything else comes from the package and from data/sources/*.json. */

export const SCHEMA_VERSION = 1;

/** Chains in the catalog (ids as in @lifi/data-types). */
export const CATALOG_CHAIN_IDS: readonly number[] = [
  // EVM
  1, // Ethereum
  10, // OP Mainnet
  56, // BSC
  100, // Gnosis
  130, // Unichain
  137, // Polygon
  146, // Sonic
  324, // zkSync Era
  5000, // Mantle
  8453, // Base
  34443, // Mode
  42161, // Arbitrum
  43114, // Avalanche
  59144, // Linea
  81457, // Blast
  534352, // Scroll
  // non-EVM
  1151111081099710, // Solana (SVM)
  20000000000001, // Bitcoin (UTXO)
  9270000000000000, // Sui (MVM); above Number.MAX_SAFE_INTEGER but exactly representable (even)
  728126428, // Tron (TVM)
];

/** Chain keys that differ from the package. The public API of this ecosystem and our interface notes key
 *  Tron as "trx"; @lifi/data-types 7.x calls it "trn". */
export const CHAIN_KEY_OVERRIDES: Readonly<Record<number, string>> = {
  728126428: 'trx',
};

/** Tokens left out although their coinKey is priced. */
export const EXCLUDED_TOKENS: ReadonlyArray<{ chainId: number; coinKey: string; reason: string }> = [
  { chainId: 1, coinKey: 'BNB', reason: 'legacy 2017 ERC-20 BNB, migrated to BNB Chain; not the bridged BNB' },
  {
    chainId: 1151111081099710,
    coinKey: 'WETH',
    reason: 'Allbridge-wrapped ether with thin liquidity; the Wormhole ether (coinKey ETH) is the one routed',
  },
];

/** When several coinKeys resolve to the same token address on one chain (for example coinKeys ETH and WETH
 *  both pointing at the bridged WETH on Polygon), the first coinKey of this list that is among them wins.
 *  A collision none of these resolves stops the extraction, so that new collisions are looked at. */
export const COLLISION_PREFERENCE: readonly string[] = ['WETH', 'USDT'];

/** Symbols replaced after extraction. */
export const SYMBOL_OVERRIDES: ReadonlyArray<{ chainId: number; coinKey: string; symbol: string; reason: string }> = [
  {
    chainId: 42161,
    coinKey: 'USDT',
    symbol: 'USDT',
    reason: 'the canonical Arbitrum USDT contract was upgraded in place to USDT0 (on-chain symbol "USD₮0"); '
      + 'clients look it up as USDT',
  },
];

/** coinKeys tagged "stablecoin": USD-pegged tokens only (xDAI, the Gnosis native coin, has coinKey DAI). */
export const STABLECOIN_COIN_KEYS: readonly string[] = [
  'DAI', 'USD1', 'USDB', 'USDC', 'USDCe', 'USDT', 'USDT0', 'USDe', 'WXDAI', 'axlUSDC',
];

export const EVM_NATIVE_ADDRESS = '0x0000000000000000000000000000000000000000';
