/**
 * What the relay use cases (src/usecases/relay.ts, relayQuote.ts) need of the service's relayer, implemented by
 * src/chain/relaying.ts: its tasks (in the database) and, per chain where it sends, what a relayed step needs to
 * know of the chain now.
 */
import type { RelayTaskStore } from './tasks';

/** The service's relayer: its tasks (shared by the instances through the database), and the chains it sends on. */
export interface Relaying {
  readonly tasks: RelayTaskStore;
  /** The relayer on a chain; undefined where it does not send. */
  on(chainId: number): RelayerOnChain | undefined;
  /** Unix seconds now. */
  now(): bigint;
}

export interface RelayerOnChain {
  readonly chainId: number;
  /** The relayer's hot wallet. */
  readonly address: string;
  /** Uniswap's Permit2 and the service's Permit2 proxy on the chain (the witness permit's verifier and spender). */
  readonly permit2: string;
  readonly proxy: string;
  /** Multicall3, through which a token's permit and the proxy call go in one transaction. */
  readonly multicall: string;
  /** The gas price the relayer expects to pay now (wei). */
  gasPriceWei(): Promise<bigint>;
  /** What the owner's token allows Permit2, and the token's EIP-2612 domain and the owner's nonce where it has one. */
  tokenPermitState(token: string, owner: string): Promise<TokenPermitState>;
  /** Whether Permit2 has already used this nonce of the owner (a signature spent elsewhere). */
  permit2NonceUsed(owner: string, nonce: bigint): Promise<boolean>;
  /** Whether the relayer holds at least its balance floor (below it, new tasks are refused with 503). */
  aboveFloor(): Promise<boolean>;
  /**
   * The relayer's transaction run on the chain's current state without sending it (eth_call from the relayer):
   * undefined when it succeeds, else why it reverts — a task that would revert costs the relayer gas and pays no fee.
   */
  simulate(to: string, data: string, gasLimit: bigint): Promise<string | undefined>;
}

export interface TokenPermitState {
  readonly permit2Allowance: bigint;
  /** Absent: the token has no EIP-2612 permit (or its domain could not be read). */
  readonly eip2612?: { readonly name: string; readonly version: string; readonly nonce: bigint };
}
