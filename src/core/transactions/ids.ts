/** Deterministic identifiers and addresses used inside the call data. */
import { dataSlice, getAddress, keccak256, toUtf8Bytes } from 'ethers';
import type { Chain } from '../catalog/entities';

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
 * The "no approval needed" address of a chain: its zero address (EVM 0x00…0, Sui 32 zero bytes, Solana's
 * all-zero public key, Tron's and Bitcoin's zero-hash addresses). Native coins need no approval, and on
 * non-EVM chains there is no router to approve.
 */
export function zeroAddressOf(chain: Chain): string {
  switch (chain.chainType) {
    case 'EVM':
      return ZERO_ADDRESS;
    case 'MVM':
      return `0x${'0'.repeat(64)}`;
    case 'SVM':
      return '11111111111111111111111111111111';
    case 'TVM':
      return 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb';
    case 'UTXO':
      return '1111111111111111111114oLvT2';
  }
}

export function isEvmAddress(value: string | undefined): value is string {
  return value !== undefined && /^0x[0-9a-fA-F]{40}$/.test(value);
}
