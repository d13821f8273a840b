import { checksumAddress } from 'viem';
import type { ChainFamily, FamilyAddress } from './family';

/** An EVM address in any letter case. */
export const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** EVM chains: 20-byte addresses, written EIP-55 checksummed (any letter case accepted); ERC-20 approvals. */
export const evm: ChainFamily<'EVM'> = {
  type: 'EVM',
  label: 'EVM',
  parseAddress(text) {
    if (!HEX_ADDRESS.test(text)) return undefined;
    // lower-cased first: a wrongly mixed-case address is taken as its bytes; viem's EIP-55 checksum costs half of
    // ethers' getAddress, which counts at start-up (every catalog token's address is checked to be in normal form)
    return checksumAddress(text.toLowerCase() as `0x${string}`) as FamilyAddress<'EVM'>;
  },
  addressRule: '0x and 40 hex digits',
  zeroAddress: '0x0000000000000000000000000000000000000000',
  approvals: true,
  receiverBytes: (address) => address.toLowerCase(),
  sending: { supported: true, transaction: 'evmRouterCall' },
  evmContracts: true,
  rpcCheck: 'evmChainId',
  lookupKey: (text) => text.toLowerCase(),
  tokensAreAddresses: true,
};
