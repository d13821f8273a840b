/**
 * The addresses of a route's request as its transactions take them: the sender and the receiver checked against
 * their chains' families (stepAddresses), and the names of their fields in the messages (ParameterNames).
 */
import type { Chain } from '../entities';
import type { FamilyAddress } from '../chains/family';
import { familyOf } from '../chains/families';
import { InvalidRequestError } from '../errors';
import type { Route } from '../routing/route';

/**
 * The sender and the receiver of a route's transaction, checked: fromAddress (when given) an address of the sending
 * chain's family, the receiver (toAddress, else fromAddress) one of the receiving chain's, in its normal form.
 * Throws InvalidRequestError naming the field as `names` says.
 */
export function stepAddresses(chain: Chain, toChain: Chain, request: Route['request'], names: ParameterNames): { from: string | undefined; receiver: FamilyAddress } {
  const family = familyOf(chain);
  const label = (which: 'fromAddress' | 'toAddress') => fieldLabel(names[which]);
  const from = request.fromAddress;
  const sender = from === undefined ? undefined : family.parseAddress(from);
  if (from !== undefined && !sender) {
    invalid(names, 'fromAddress', 'addressOfChain', `${label('fromAddress')} ${from} is not an address of ${chain.name} (${chain.id}), a ${family.label} chain: it must be ${family.addressRule}`);
  }
  const to = request.toAddress ?? from;
  if (to === undefined) invalid(names, 'toAddress', 'required', `${label('toAddress')} (or ${label('fromAddress')}) is needed to build the transaction: say who receives the tokens`);
  // the receiver in its family's normal form (EVM: checksummed, any letter case accepted); the sender's when it is
  // the sender on a chain of the same family (normalising the same text again would give the same address)
  const toFamily = familyOf(toChain);
  const receiver = to === from && toFamily === family ? sender : toFamily.parseAddress(to!);
  if (receiver === undefined) {
    invalid(names, 'toAddress', 'addressOfChain', `${label('toAddress')} ${to} is not an address of ${toChain.name} (${toChain.id}), a ${toFamily.label} chain: it must be ${toFamily.addressRule}${toFamily === family ? '' : `; give ${label('toAddress')} when the two chains are of different types`}`);
  }
  return { from, receiver: receiver! };
}

/**
 * The logical names of the addresses in the operation's request, for its issues and messages: a parameter's
 * name, or a JSON pointer for a field of a body (RequestIssue). Where the field is, the HTTP layer says.
 */
export interface ParameterNames {
  readonly fromAddress: string;
  readonly toAddress: string;
}
export const PARAMETER_NAMES: ParameterNames = { fromAddress: 'fromAddress', toAddress: 'toAddress' };

/** A field as a message names it: a JSON pointer is a field of the body (as the core's other messages say). */
export function fieldLabel(name: string): string {
  return name.startsWith('/') ? `body field ${name}` : name;
}

function invalid(names: ParameterNames, which: 'fromAddress' | 'toAddress', rule: string, message: string): never {
  throw new InvalidRequestError(message, { issues: [{ name: names[which], rule, message }] });
}
