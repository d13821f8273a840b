/**
 * Where the fee collector books an integrator's fees: under its registered fee wallet, so that the integrator
 * withdraws them itself (the fee collector pays msg.sender its own balance); for an integrator without one, under
 * integratorAccount(id) (src/core/transactions/ids.ts), an address derived from the id that nobody holds a key for.
 * Transactions the service builds pass this address to collectTokenFees / collectNativeFees, and balances are
 * read at it (getTokenBalance(bookingAddress, token)).
 */
import { InvalidRequestError } from '../errors';
import { integratorAccount } from '../transactions/ids';
import type { FeeLedger } from './feeLedger';

export function bookingAddress(ledger: Pick<FeeLedger, 'feeWallet'>, integratorId: string): string {
  return ledger.feeWallet(integratorId) ?? integratorAccount(integratorId);
}

/** Who a fee can be booked for: the integrators with a fee wallet (registered, or in the ledger), and the ledger's ids. */
export interface FeeOwners {
  /** The integrator's fee wallet: registered in the portal (the database), else the fee ledger's; undefined: none. */
  readonly integratorAddress: (integratorId: string) => string | undefined;
  readonly feeLedger: Pick<FeeLedger, 'integratorIds'>;
}

/**
 * A fee is booked only for an integrator that has an owner: registered (in the partner portal, with the wallet that
 * receives its fees) or known to the fee ledger. Otherwise a fee would pile up under an id that nobody holds, and
 * whoever registered that id first would collect the fees that follow: a fee stream to hijack. A request with a fee
 * for any other id is refused (InvalidRequestError naming the integrator field); requests without a fee may
 * name any integrator (the ecosystem's SDK and widget send one with every request).
 */
export function requireFeeOwner(
  owners: FeeOwners,
  request: { readonly fee?: number; readonly integrator?: string },
  field: { readonly name: string; readonly label?: string } = { name: 'integrator' },
): void {
  const { name, label = name } = field;
  const { fee, integrator } = request;
  if (fee === undefined || !(fee > 0) || integrator === undefined || integrator === '') return;
  if (owners.integratorAddress(integrator) !== undefined || owners.feeLedger.integratorIds.includes(integrator)) return;
  const message = `${label} "${integrator}" is not a registered integrator, and a fee is booked only for one: register it in the partner portal (/portal), signing in with the wallet that is to receive its fees, or send no fee`;
  throw new InvalidRequestError(message, { issues: [{ name, rule: 'registeredIntegrator', message }] });
}
