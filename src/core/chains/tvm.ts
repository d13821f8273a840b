import { hexlify } from 'ethers';
import { base58check } from './base58check';
import type { ChainFamily, FamilyAddress } from './family';


/** 25 bytes (0x41, 20 bytes, 4 of checksum) are always 34 base58 characters; checked before decoding. */
const BASE58_TRON = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;

const MAINNET_PREFIX = 0x41;

/** The 20-byte account of a Tron address, or undefined. */
function accountOf(text: string): Uint8Array | undefined {
  if (!BASE58_TRON.test(text)) return undefined;
  let payload: Uint8Array;
  try {
    payload = base58check.decode(text); // throws on a bad checksum
  } catch {
    return undefined;
  }
  return payload.length === 21 && payload[0] === MAINNET_PREFIX ? payload.subarray(1) : undefined;
}

/**
 * Tron (TVM) chains: base58check of 0x41 and a 20-byte account (`T…`, 34 characters), checksum verified; the normal
 * form is the base58 text (re-encoded from its bytes). TRC-20 tokens have approve/allowance as ERC-20 does.
 */
export const tvm: ChainFamily<'TVM'> = {
  type: 'TVM',
  label: 'Tron (TVM)',
  parseAddress(text) {
    const account = accountOf(text);
    if (account === undefined) return undefined;
    const normal = base58check.encode(Uint8Array.of(MAINNET_PREFIX, ...account));
    return normal === text ? (normal as FamilyAddress<'TVM'>) : undefined;
  },
  addressRule: 'base58check of a Tron account (T and 33 characters)',
  // base58check of 0x41 and 20 zero bytes: the account 0x000…0
  zeroAddress: 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb',
  approvals: true,
  // Tron accounts are EVM-style 20-byte accounts: a bridge call on EVM carries the 20 bytes after 0x41
  receiverBytes(address) {
    const account = accountOf(address);
    if (account === undefined) throw new Error(`not a Tron address: ${address}`);
    return hexlify(account);
  },
  sending: { supported: false, reason: 'the service does not build Tron transactions yet' },
  evmContracts: false,
  rpcCheck: undefined,
  // as the catalog writes its token addresses (case-sensitive: base58, coin types, sentinels such as `bitcoin`)
  lookupKey: (text) => text,
  tokensAreAddresses: false,
};
