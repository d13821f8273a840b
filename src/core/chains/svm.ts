import { base58 } from '@scure/base';
import { hexlify } from 'ethers';
import type { ChainFamily, FamilyAddress } from './family';

/** 32 bytes are 32 (all zero: 32 "1"s) to 44 base58 characters; checked before decoding, which is quadratic. */
const BASE58_32_BYTES = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

function publicKeyOf(text: string): Uint8Array | undefined {
  if (!BASE58_32_BYTES.test(text)) return undefined;
  let bytes: Uint8Array;
  try {
    bytes = base58.decode(text);
  } catch {
    return undefined;
  }
  return bytes.length === 32 ? bytes : undefined;
}

/**
 * Solana (SVM) chains: an address is the base58 text of a 32-byte public key (wallets, program ids, token mints; the
 * system program `111…1` is the all-zero key). Its normal form is the base58 text itself, which is taken only when
 * re-encoding its bytes gives it back (the canonical text). SPL tokens have delegates but no ERC-20-style approval.
 */
export const svm: ChainFamily<'SVM'> = {
  type: 'SVM',
  label: 'Solana (SVM)',
  parseAddress(text) {
    const bytes = publicKeyOf(text);
    return bytes !== undefined && base58.encode(bytes) === text ? (text as FamilyAddress<'SVM'>) : undefined;
  },
  addressRule: 'base58 of a 32-byte public key',
  zeroAddress: '11111111111111111111111111111111',
  approvals: false,
  // a bridge call on EVM carries a Solana receiver as its 32 bytes (bytes32)
  receiverBytes(address) {
    const bytes = publicKeyOf(address);
    if (bytes === undefined) throw new Error(`not a Solana address: ${address}`);
    return hexlify(bytes);
  },
  sending: { supported: true, transaction: 'svmBridgeDeposit' },
  evmContracts: false,
  rpcCheck: 'solanaGenesisHash',
  // as the catalog writes its token addresses (case-sensitive: base58, coin types, sentinels such as `bitcoin`)
  lookupKey: (text) => text,
  tokensAreAddresses: false,
};
