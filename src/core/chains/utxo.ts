import { bech32, bech32m } from '@scure/base';
import { hexlify, toUtf8Bytes } from 'ethers';
import { base58check } from './base58check';
import type { ChainFamily, FamilyAddress } from './family';


/** Legacy addresses: a version byte and a 20-byte hash are 25 to 34 base58 characters; checked before decoding. */
const BASE58_LEGACY = /^[13][1-9A-HJ-NP-Za-km-z]{24,33}$/;
/** Mainnet version bytes: P2PKH (`1…`) and P2SH (`3…`). */
const P2PKH = 0x00;
const P2SH = 0x05;

/** Segwit addresses are at most 90 characters (BIP-173), of the human-readable part `bc` on mainnet. */
const BECH32_SEGWIT = /^(bc|BC)1[02-9ac-hj-np-zAC-HJ-NP-Z]{6,87}$/;
const MAINNET_HRP = 'bc';

/** `text` as a mainnet P2PKH/P2SH address, re-encoded from its bytes, or undefined. */
function legacy(text: string): string | undefined {
  if (!BASE58_LEGACY.test(text)) return undefined;
  let payload: Uint8Array;
  try {
    payload = base58check.decode(text); // throws on a bad checksum
  } catch {
    return undefined;
  }
  if (payload.length !== 21 || (payload[0] !== P2PKH && payload[0] !== P2SH)) return undefined;
  const normal = base58check.encode(payload);
  return normal === text ? normal : undefined;
}

/**
 * `text` as a mainnet segwit v0 (bech32, 20- or 32-byte program) or taproot v1 (bech32m, 32-byte program) address, in
 * lower case, or undefined. Each witness version is checked against its own checksum variant (BIP-350): a v0 address
 * with a bech32m checksum, or a v1 address with a bech32 one, is refused. Mixed case is refused by the decoder.
 */
function segwit(text: string): string | undefined {
  if (!BECH32_SEGWIT.test(text)) return undefined;
  const v0 = bech32.decodeUnsafe(text);
  if (v0 !== undefined && v0.prefix === MAINNET_HRP && v0.words[0] === 0) {
    const program = bech32.fromWordsUnsafe(v0.words.slice(1)); // undefined on bad padding
    if (program !== undefined && (program.length === 20 || program.length === 32)) return bech32.encode(MAINNET_HRP, v0.words);
    return undefined;
  }
  const v1 = bech32m.decodeUnsafe(text);
  if (v1 !== undefined && v1.prefix === MAINNET_HRP && v1.words[0] === 1) {
    const program = bech32m.fromWordsUnsafe(v1.words.slice(1));
    if (program !== undefined && program.length === 32) return bech32m.encode(MAINNET_HRP, v1.words);
  }
  return undefined;
}

/**
 * Bitcoin (UTXO) chains, mainnet: P2PKH (`1…`) and P2SH (`3…`) in base58check, checksum verified; segwit v0 (`bc1q…`,
 * bech32) and taproot (`bc1p…`, bech32m), in lower or upper case but not mixed, normal form lower case. Testnet and
 * regtest addresses (`m…`, `n…`, `2…`, `tb1…`, `bcrt1…`) are refused: the catalog has Bitcoin mainnet only, and a
 * family's rule knows no network. Witness versions 2 to 16 (no output type defined yet) are refused too.
 */
export const utxo: ChainFamily<'UTXO'> = {
  type: 'UTXO',
  label: 'Bitcoin (UTXO)',
  parseAddress(text) {
    return (legacy(text) ?? segwit(text)) as FamilyAddress<'UTXO'> | undefined;
  },
  addressRule: 'a Bitcoin mainnet address: base58check P2PKH (1…) or P2SH (3…), or bech32 segwit (bc1q…) or taproot (bc1p…)',
  // base58check of version 0x00 and 20 zero bytes: the P2PKH address of hash160 0x000…0
  zeroAddress: '1111111111111111111114oLvT2',
  approvals: false,
  // bridges to Bitcoin carry the receiver as the address text, so its bytes are the UTF-8 bytes of the normal form
  receiverBytes: (address) => hexlify(toUtf8Bytes(address)),
  sending: { supported: false, reason: 'the service does not build Bitcoin transactions yet' },
  evmContracts: false,
  rpcCheck: undefined,
  // as the catalog writes its token addresses (case-sensitive: base58, coin types, sentinels such as `bitcoin`)
  lookupKey: (text) => text,
  tokensAreAddresses: false,
};
