import type { ChainFamily, FamilyAddress } from './family';

/**
 * `0x` and 1 to 64 hex digits (Sui writes short forms such as `0x2`), but not exactly 40: that is the shape of an EVM
 * address, and an EVM address handed as a Sui receiver is a mistake that would send the funds to an account nobody
 * holds (no Sui tool writes a 40-digit short form: short forms are for small system addresses).
 */
const SUI_ADDRESS = /^0x([0-9a-fA-F]{1,39}|[0-9a-fA-F]{41,64})$/;

/**
 * Sui (MVM) chains: 32-byte addresses, written `0x` and 64 hex digits. Short forms are accepted; the normal form is
 * lower case, left-padded with zeros to 64 hex digits. Coin types (`0x2::sui::SUI`) are not addresses. Sui has no
 * ERC-20-style approvals (objects move by their owner's signature).
 */
export const mvm: ChainFamily<'MVM'> = {
  type: 'MVM',
  label: 'Sui (MVM)',
  parseAddress(text) {
    if (!SUI_ADDRESS.test(text)) return undefined;
    return `0x${text.slice(2).toLowerCase().padStart(64, '0')}` as FamilyAddress<'MVM'>;
  },
  addressRule: '0x and up to 64 hex digits, a 32-byte Sui address (not a 40-digit EVM address)',
  zeroAddress: '0x0000000000000000000000000000000000000000000000000000000000000000',
  approvals: false,
  // the normal form is already the 32 bytes as 0x and 64 lower-case hex digits: what a bridge call on EVM carries
  receiverBytes: (address) => address,
  sending: { supported: false, reason: 'the service does not build Sui transactions yet' },
  evmContracts: false,
  rpcCheck: undefined,
  // as the catalog writes its token addresses (case-sensitive: base58, coin types, sentinels such as `bitcoin`)
  lookupKey: (text) => text,
  tokensAreAddresses: false,
};
