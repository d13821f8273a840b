/**
 * A token's own EIP-2612 `Permit` for Permit2, signed by a user who holds no native coin: the witness permit
 * (permitWitness.ts) needs the user's allowance to Permit2, an approval the user could only send with gas. Where the
 * token implements EIP-2612 (`permit(owner, spender, value, deadline, v, r, s)`), the relayed step also asks for
 * this message, and the relayer submits it in the same transaction as the witness permit (relayCall.ts), so that
 * the user signs twice and sends nothing.
 *
 * The typed data is written as the ecosystem's clients receive it (@lifi/types TypedData, primaryType `Permit`,
 * which the SDK signs in its EthereumCheckPermitsTask): integers as decimal strings.
 */
import { getAddress, isHexString, Signature, verifyTypedData } from 'ethers';
import { uint } from './check';

export const EIP2612_PERMIT_TYPES = {
  Permit: [
    { name: 'owner', type: 'address' },
    { name: 'spender', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
  ],
} as const;

/** What the token's permit is made of: its EIP-712 domain (name and version as the token declares them) and the message. */
export interface TokenPermit {
  readonly chainId: number;
  readonly token: string;
  /** The token's EIP-712 domain name and version (its `name()`, and `version()` or "1"). */
  readonly name: string;
  readonly version: string;
  readonly owner: string;
  /** Permit2: the spender the permit approves. */
  readonly spender: string;
  readonly value: bigint;
  /** The owner's current nonce at the token (`nonces(owner)`). */
  readonly nonce: bigint;
  /** Unix seconds. */
  readonly deadline: bigint;
}

export interface TokenPermitTypedData {
  readonly primaryType: 'Permit';
  readonly domain: { readonly name: string; readonly version: string; readonly chainId: number; readonly verifyingContract: string };
  readonly types: typeof EIP2612_PERMIT_TYPES;
  readonly message: { readonly owner: string; readonly spender: string; readonly value: string; readonly nonce: string; readonly deadline: string };
}

export function tokenPermitTypedData(permit: TokenPermit): TokenPermitTypedData {
  return {
    primaryType: 'Permit',
    domain: { name: permit.name, version: permit.version, chainId: permit.chainId, verifyingContract: getAddress(permit.token) },
    types: EIP2612_PERMIT_TYPES,
    message: {
      owner: getAddress(permit.owner),
      spender: getAddress(permit.spender),
      value: permit.value.toString(),
      nonce: permit.nonce.toString(),
      deadline: permit.deadline.toString(),
    },
  };
}

/** The permit as the token's `permit(owner, spender, value, deadline, v, r, s)` takes it. */
export interface SignedTokenPermit {
  readonly token: string;
  readonly owner: string;
  readonly spender: string;
  readonly value: bigint;
  readonly deadline: bigint;
  readonly v: number;
  readonly r: string;
  readonly s: string;
}

export type TokenPermitCheck =
  | { readonly ok: true; readonly permit: SignedTokenPermit }
  | { readonly ok: false; readonly field: string; readonly message: string };

/**
 * Checks a signed `Permit` (one element of the step's typedData, `at` its JSON pointer) against the permit the service
 * asks for: its signature must cover the expected message at the signed deadline — owner, Permit2 as spender, at
 * least the step's amount, the owner's current nonce at the token, the token's domain — and come from the owner;
 * the deadline must leave `minRemainingSeconds` from `now`.
 */
export function checkSignedTokenPermit(
  signed: unknown, expected: Omit<TokenPermit, 'deadline'>, now: bigint, minRemainingSeconds: bigint, at: string,
): TokenPermitCheck {
  const refuse = (field: string, message: string): TokenPermitCheck => ({ ok: false, field: `${at}${field}`, message });
  if (typeof signed !== 'object' || signed === null) return refuse('', 'must be a signed typed data object');
  const { signature, message } = signed as { signature?: unknown; message?: unknown };
  if (typeof signature !== 'string' || !isHexString(signature, 65)) return refuse('/signature', 'must be a 65-byte signature (0x and 130 hex digits)');
  if (typeof message !== 'object' || message === null) return refuse('/message', 'must hold owner, spender, value, nonce and deadline');
  const m = message as Record<string, unknown>;
  const value = uint(m.value);
  if (value === undefined || value < expected.value) return refuse('/message/value', `must be at least the step's fromAmount ${expected.value}`);
  const deadline = uint(m.deadline);
  if (deadline === undefined) return refuse('/message/deadline', 'must be an unsigned integer (unix seconds)');
  if (deadline < now + minRemainingSeconds) return refuse('/message/deadline', `has passed or leaves less than ${minRemainingSeconds} s to send the transaction; ask for a new quote`);
  const asked = tokenPermitTypedData({ ...expected, value, deadline });
  let signer: string;
  try {
    signer = verifyTypedData(asked.domain, EIP2612_PERMIT_TYPES as never, asked.message, signature);
  } catch {
    return refuse('/signature', 'is not a valid signature of this message');
  }
  if (signer !== getAddress(expected.owner)) {
    return refuse('/signature', `is not the permit asked for, signed by the step's fromAddress ${getAddress(expected.owner)} (owner, Permit2 as spender, the owner's current nonce ${expected.nonce} at the token, the token's domain)`);
  }
  const { v, r, s } = Signature.from(signature);
  return { ok: true, permit: { token: getAddress(expected.token), owner: signer, spender: getAddress(expected.spender), value, deadline, v, r, s } };
}
