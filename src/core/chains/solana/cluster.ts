/**
 * The Solana clusters the catalog's SVM chains stand for, by the hash of their genesis block: what an RPC node's
 * getGenesisHash answers, so that chain mode checks a CHAINS_FILE URL serves the chain it is named for (as eth_chainId
 * does on EVM chains). The sandbox's Solana chain answers mainnet-beta's, as its anvil chains keep their real ids.
 */

/** Mainnet-beta's genesis hash. */
export const SOLANA_MAINNET_GENESIS_HASH = '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d';

/** Genesis hash by the catalog's chain id (Solana: 1151111081099710). */
const GENESIS_HASHES: ReadonlyMap<number, string> = new Map([[1151111081099710, SOLANA_MAINNET_GENESIS_HASH]]);

/** The genesis hash of an SVM chain of the catalog, or undefined when it is not known (the check is then left out). */
export function genesisHashOf(chainId: number): string | undefined {
  return GENESIS_HASHES.get(chainId);
}
