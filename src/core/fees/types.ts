/** Domain types of integrators' collected fees. Amounts are bigint raw units (the token's smallest unit). */
import type { Token } from '../catalog/types';

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
}

/**
 * Where collected fees are read from: the seeded local ledger today (data/integrators/ledger.json),
 * the fee collector contract (getTokenBalance) when chains are connected.
 */
export interface FeeLedger {
  /** The integrator's fees, or undefined when the ledger does not know the integrator. */
  integrator(integratorId: string): IntegratorFees | undefined;
}
