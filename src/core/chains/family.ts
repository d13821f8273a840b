/**
 * A chain family: everything the service needs to know about one kind of chain (EVM, SVM, UTXO, MVM, TVM), in one
 * module behind this interface, so that the rest of the core asks the family instead of branching on `chainType`
 * (families.ts, familyOf).
 */
import type { ChainType } from '../entities';

/**
 * An address of a family, in its normal form (EVM: EIP-55 checksummed; Solana: base58 of 32 bytes; ...). Branded
 * with its family, so that an address of one family cannot be handed where another's is wanted.
 */
export type FamilyAddress<T extends ChainType = ChainType> = string & { readonly __family: T };

/**
 * Whether the service can build the transaction of a step that sends from a chain of the family, how, or why not:
 * `evmRouterCall`, a call of the service's router (src/core/transactions/build.ts); `svmBridgeDeposit`, a Solana
 * transaction depositing into the bridge's escrow with a memo (src/core/transactions/svmDeposit.ts), which carries
 * no integrator fee collection, source swap, refuel leg or contract call.
 */
export type Sending =
  | { readonly supported: true; readonly transaction: 'evmRouterCall' | 'svmBridgeDeposit' }
  | { readonly supported: false; readonly reason: string };

export interface ChainFamily<T extends ChainType = ChainType> {
  readonly type: T;
  /** The family as people name it ("EVM", "Solana (SVM)"...). */
  readonly label: string;
  /** `text` in the family's normal form, or undefined when it is not an address of the family. */
  parseAddress(text: string): FamilyAddress<T> | undefined;
  /** What an address of the family looks like, for the message that refuses one. */
  readonly addressRule: string;
  /** The address that stands for "no approval needed" (and for "none"): the family's zero address. */
  readonly zeroAddress: string;
  /** Whether a contract moves a token only after the owner approved it (ERC-20 allowances). */
  readonly approvals: boolean;
  /** The receiver as the bytes a bridge call on an EVM chain carries for a receiver of this family (0x hex). */
  receiverBytes(address: FamilyAddress<T>): string;
  readonly sending: Sending;
  /**
   * The service's own contracts (router, fee collector, bridge endpoint: Solidity) and the EVM JSON-RPC, gas in wei,
   * refuels and contract calls work on chains of this family.
   */
  readonly evmContracts: boolean;
  /**
   * Chain mode (CHAINS_FILE): how the service checks at start that an entry's RPC URL serves a chain of this family.
   * `evmChainId`: eth_chainId answers the chain id (and the service reads the chain: pools, status, fees);
   * `solanaGenesisHash`: getGenesisHash answers the chain's genesis hash (solana/cluster.ts) and getHealth "ok" (the
   * URL is advertised, nothing is read yet); undefined: the service speaks to no node of the family (an entry is
   * only advertised).
   */
  readonly rpcCheck: 'evmChainId' | 'solanaGenesisHash' | undefined;
  /** The key an address is looked up by in the catalog: EVM hex in any case is one address. */
  lookupKey(text: string): string;
  /** The catalog's token addresses on chains of this family are addresses of it, in normal form (checked at load). */
  readonly tokensAreAddresses: boolean;
}
