/** Deterministic identifiers and addresses used inside the call data. */
import { dataSlice, getAddress, keccak256, toUtf8Bytes } from 'ethers';
import type { Chain } from '../entities';
import { familyOf } from '../chains/families';

const UUID = /^([0-9a-fA-F]{8})-([0-9a-fA-F]{4})-([0-9a-fA-F]{4})-([0-9a-fA-F]{4})-([0-9a-fA-F]{12})$/;

/**
 * The router's bytes32 transactionId of a step: the 16 bytes of the step id (a UUID) followed by 16 zero
 * bytes, so that the step id can be read back from the call data and from the router's events.
 */
export function transactionIdOf(stepId: string): string {
  const m = UUID.exec(stepId);
  if (!m) throw new Error(`step id ${stepId} is not a UUID`);
  return `0x${m.slice(1).join('').toLowerCase()}${'0'.repeat(32)}`;
}

/** The step id (UUID) inside a transactionId made by transactionIdOf; undefined for any other bytes32. */
export function stepIdOf(transactionId: string): string | undefined {
  const m = /^0x([0-9a-f]{32})0{32}$/i.exec(transactionId);
  if (!m) return undefined;
  const h = m[1].toLowerCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * The address under which the fee collector books an integrator's fees (the `integrator` argument of
 * collectTokenFees / collectNativeFees): the last 20 bytes of keccak256("xchain-router:integrator:<id>").
 * Integrator ids are strings; the fee collector keys balances by address, so the id is mapped
 * deterministically (the integrator endpoints use the same mapping).
 */
export function integratorAccount(integrator: string): string {
  return getAddress(dataSlice(keccak256(toUtf8Bytes(`xchain-router:integrator:${integrator}`)), 12));
}

export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

/**
 * The "no approval needed" address of a chain: its family's zero address (EVM 0x00…0, Sui 32 zero bytes, Solana's
 * all-zero public key, Tron's and Bitcoin's zero-hash addresses). Native coins need no approval, and chains without
 * approvals have no router to approve.
 */
export function zeroAddressOf(chain: Chain): string {
  return familyOf(chain).zeroAddress;
}

export function isEvmAddress(value: string | undefined): value is string {
  return value !== undefined && /^0x[0-9a-fA-F]{40}$/.test(value);
}
