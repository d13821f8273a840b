/**
 * Where the fee collector books an integrator's fees: under its registered fee wallet, so that the integrator
 * withdraws them itself (the fee collector pays msg.sender its own balance); for an integrator without one, under
 * integratorAccount(id) (src/core/transactions/ids.ts), an address derived from the id that nobody holds a key for.
 * Transactions the service builds pass this address to collectTokenFees / collectNativeFees, and balances are
 * read at it (getTokenBalance(bookingAddress, token)).
 */
import { integratorAccount } from '../transactions/ids';
import type { FeeLedger } from './feeLedger';

export function bookingAddress(ledger: Pick<FeeLedger, 'feeWallet'>, integratorId: string): string {
  return ledger.feeWallet(integratorId) ?? integratorAccount(integratorId);
}
