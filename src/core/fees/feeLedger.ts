/** Domain types of integrators' collected fees. Amounts are bigint raw units (the token's smallest unit). */
import type { Token } from '../entities';

/** Fees collected for an integrator in one token on one chain and not withdrawn yet. */
export interface FeeBalance {
  readonly chainId: number;
  readonly token: Token;
  readonly amount: bigint;
}

export interface IntegratorFees {
  readonly integratorId: string;
  /** The address the integrator withdraws from (`from` of a withdrawal), when the ledger records one. */
  readonly feeWallet?: string;
  /** Non-zero balances only, each (chain, token) once. */
  readonly balances: readonly FeeBalance[];
  /**
   * Chains whose figures could not be read fresh from their fee collector (chain unreachable, call failed):
   * their balances are the last ones read, else the seeded ledger's (src/chain/feeLedger.ts). Absent or empty
   * when every figure is current (always so for the seeded ledger alone).
   */
  readonly fallbackChains?: readonly number[];
}

/**
 * Where collected fees are read from: the seeded local ledger (data/integrators/ledger.json, or FEE_LEDGER_FILE),
 * or the fee collector contracts (getTokenBalance) of the connected chains in chain mode (src/chain/feeLedger.ts).
 */
export interface FeeLedger {
  /** The integrator's fees, or undefined when the ledger does not know the integrator. Never rejects. */
  integrator(integratorId: string): Promise<IntegratorFees | undefined>;
  /**
   * The integrator's registered fee wallet, when the ledger records one (synchronous: transactions are built
   * with it). The service books the integrator's fees under it, so that the integrator can withdraw them.
   */
  feeWallet(integratorId: string): string | undefined;
  /**
   * Every id the ledger knows, with or without a fee wallet (synchronous): ids the operator vouches for, which a
   * request may book a fee for (src/core/fees/booking.ts) and nobody else registers in the portal.
   */
  readonly integratorIds: readonly string[];
}
