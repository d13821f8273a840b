/**
 * A relayed step's signed message, checked from the attacker's side before anything is sent: it must be the witness
 * permit the service would ask for (permitWitness.ts) — Permit2's domain on the step's chain, the exact types, the
 * step's token and amount, the service's proxy as spender, the router and the hash of the router call the service
 * rebuilt from the step as witness — with a deadline still ahead, signed by the step's fromAddress. Any difference is
 * a refusal naming the field; nothing here trusts what the client sent beyond what the signature covers.
 */
import { getAddress, isHexString, keccak256, verifyTypedData } from 'ethers';
import { PERMIT_WITNESS_PRIMARY_TYPE, PERMIT_WITNESS_TYPES, permitWitnessTypedData, type WitnessPermit } from './permitWitness';

/** What the service expects the user to have signed for the step: the witness permit but its nonce and deadline. */
export type ExpectedWitness = Omit<WitnessPermit, 'nonce' | 'deadline'> & {
  /** The step's fromAddress: the signer. */
  readonly owner: string;
};

/** The permit as the proxy takes it, with the signature. */
export interface SignedWitnessPermit {
  readonly token: string;
  readonly amount: bigint;
  readonly nonce: bigint;
  readonly deadline: bigint;
  readonly owner: string;
  readonly signature: string;
}

export type WitnessRefusalCode = 'MALFORMED' | 'MISMATCH' | 'EXPIRED' | 'WRONG_SIGNER';

export type WitnessCheck =
  | { readonly ok: true; readonly permit: SignedWitnessPermit }
  | { readonly ok: false; readonly code: WitnessRefusalCode; readonly field: string; readonly message: string };

export interface WitnessTiming {
  /** Unix seconds now. */
  readonly now: bigint;
  /** The least time the deadline must leave for the transaction to be sent and mined. */
  readonly minRemainingSeconds: bigint;
  /** The most a deadline may lie ahead (a signature that stays valid for days is refused). */
  readonly maxRemainingSeconds: bigint;
}

const UINT256_MAX = (1n << 256n) - 1n;

/**
 * Checks `signed` (one element of the step's typedData, as the client sent it back, `at` its JSON pointer) against
 * what the service expects.
 */
export function checkSignedWitness(signed: unknown, expected: ExpectedWitness, timing: WitnessTiming, at: string): WitnessCheck {
  const refuse = (code: WitnessRefusalCode, field: string, message: string): WitnessCheck => ({ ok: false, code, field: `${at}${field}`, message });
  if (!isObject(signed)) return refuse('MALFORMED', '', 'must be a signed typed data object');
  if (signed.primaryType !== PERMIT_WITNESS_PRIMARY_TYPE) return refuse('MISMATCH', '/primaryType', `must be ${PERMIT_WITNESS_PRIMARY_TYPE}`);
  if (typeof signed.signature !== 'string' || !isHexString(signed.signature, 65)) return refuse('MALFORMED', '/signature', 'must be a 65-byte signature (0x and 130 hex digits)');

  const domain = signed.domain;
  if (!isObject(domain)) return refuse('MALFORMED', '/domain', 'must be an object');
  if (domain.name !== 'Permit2') return refuse('MISMATCH', '/domain/name', 'must be "Permit2"');
  if (Number(domain.chainId) !== expected.chainId) return refuse('MISMATCH', '/domain/chainId', `must be the step's chain ${expected.chainId}`);
  if (!sameAddress(domain.verifyingContract, expected.permit2)) return refuse('MISMATCH', '/domain/verifyingContract', `must be Permit2 on chain ${expected.chainId} (${getAddress(expected.permit2)})`);
  const extraDomainKeys = Object.keys(domain).filter((key) => !['name', 'chainId', 'verifyingContract'].includes(key));
  if (extraDomainKeys.length > 0) return refuse('MISMATCH', `/domain/${extraDomainKeys[0]}`, 'is not part of Permit2\'s domain');

  if (!isObject(signed.types)) return refuse('MALFORMED', '/types', 'must be an object');
  const { EIP712Domain: _domainType, ...types } = signed.types;
  if (JSON.stringify(types) !== JSON.stringify(PERMIT_WITNESS_TYPES)) return refuse('MISMATCH', '/types', 'must be the witness permit\'s types (PermitWitnessTransferFrom, TokenPermissions, LiFiCall), unchanged');

  const message = signed.message;
  if (!isObject(message) || !isObject(message.permitted) || !isObject(message.witness)) return refuse('MALFORMED', '/message', 'must hold permitted, spender, nonce, deadline and witness');
  if (!sameAddress(message.permitted.token, expected.token)) return refuse('MISMATCH', '/message/permitted/token', `must be the step's fromToken ${getAddress(expected.token)}`);
  const amount = uint(message.permitted.amount);
  if (amount !== expected.amount) return refuse('MISMATCH', '/message/permitted/amount', `must be the step's fromAmount ${expected.amount}`);
  if (!sameAddress(message.spender, expected.proxy)) return refuse('MISMATCH', '/message/spender', `must be the service's Permit2 proxy ${getAddress(expected.proxy)}`);
  if (!sameAddress(message.witness.diamondAddress, expected.router)) return refuse('MISMATCH', '/message/witness/diamondAddress', `must be the service's router ${getAddress(expected.router)}`);
  if (message.witness.diamondCalldataHash !== keccak256(expected.routerCalldata)) {
    return refuse('MISMATCH', '/message/witness/diamondCalldataHash', 'is not the hash of the router call of this step (the step is not the one that was signed)');
  }
  const nonce = uint(message.nonce);
  if (nonce === undefined) return refuse('MALFORMED', '/message/nonce', 'must be an unsigned 256-bit integer');
  const deadline = uint(message.deadline);
  if (deadline === undefined) return refuse('MALFORMED', '/message/deadline', 'must be an unsigned 256-bit integer (unix seconds)');
  if (deadline < timing.now + timing.minRemainingSeconds) return refuse('EXPIRED', '/message/deadline', `has passed or leaves less than ${timing.minRemainingSeconds} s to send the transaction; ask for a new quote`);
  if (deadline > timing.now + timing.maxRemainingSeconds) return refuse('MISMATCH', '/message/deadline', `lies more than ${timing.maxRemainingSeconds} s ahead`);

  let signer: string;
  try {
    // the message the service would have asked for, with the signed nonce and deadline: what the signature must cover
    const asked = permitWitnessTypedData({ ...expected, nonce, deadline });
    signer = verifyTypedData(asked.domain, PERMIT_WITNESS_TYPES as never, asked.message, signed.signature);
  } catch {
    return refuse('WRONG_SIGNER', '/signature', 'is not a valid signature of this message');
  }
  if (signer !== getAddress(expected.owner)) return refuse('WRONG_SIGNER', '/signature', `was not made by the step's fromAddress ${getAddress(expected.owner)}`);
  return { ok: true, permit: { token: getAddress(expected.token), amount, nonce, deadline, owner: signer, signature: signed.signature } };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function sameAddress(value: unknown, expected: string): boolean {
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(value)) return false;
  return value.toLowerCase() === expected.toLowerCase();
}

/** A uint256 written as a decimal string (or a safe integer number), as signed messages carry it; else undefined. */
export function uint(value: unknown): bigint | undefined {
  const text = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
  if (typeof text !== 'string' || !/^(0|[1-9][0-9]{0,77})$/.test(text)) return undefined;
  const n = BigInt(text);
  return n <= UINT256_MAX ? n : undefined;
}
