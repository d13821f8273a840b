import { tvm } from '../../../../src/core/chains/tvm';
import type { FamilyAddress } from '../../../../src/core/chains/family';

/** Real mainnet addresses; each is its own normal form. */
const VALID: ReadonlyArray<readonly [string, string]> = [
  ['the zero account (catalog address of TRX)', 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb'],
  ['USDT (catalog)', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'],
  ['USDC (catalog)', 'TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8'],
  ['WTRX (catalog)', 'TNUC9Qb1rRpS5CbWLmNMxXBjyFoydXjWFR'],
  ['USD1 (catalog)', 'TPFqcBAaaUMCSVRCqPaQ9QnzKhmuoLR6Rc'],
  ['the multicall contract (catalog)', 'TEazPvZwDjDtFeJupyo7QunvnrnUjPH8ED'],
  ['an account', 'TT2T17KZhoDu47i2E4FWxfG79zdkEWkU9N'],
];

const INVALID: ReadonlyArray<readonly [string, string]> = [
  ['empty', ''],
  ['whitespace', '\t'],
  ['a leading space', ' TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'],
  ['a bad checksum (last character changed)', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u'],
  ['lower case', 'tr7nhqjekqxgtci8q8zy4pl8otszgjlj6t'],
  ['one character short', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6'],
  ['one character long', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6tt'],
  ['a character outside base58 (0)', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj60'],
  ['base58check of 0x41 and 19 bytes', '6w3NHLrvV2zsEt7bSH2ZHMCqfrUURYD5v'],
  ['base58check of 0x41 and 32 bytes', '3BUuQtUH7cjsNeQterKUvoLzKVLXS26eCb5LcDMjHEmZumeKNEP'],
  ['base58check of prefix 0xa0 (the old testnet prefix) and 20 bytes', '27eDfqA41mYyW9NxN9zCp8jBsbovcENGQMP'],
  ['the hex form 41… of USDT', '41a614f803b6fd780986a42c78ec9c7f77e6ded13c'],
  ['the EVM form of USDT', '0xa614f803b6fd780986a42c78ec9c7f77e6ded13c'],
  ['a Solana address', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'],
  ['a Bitcoin P2PKH address', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa'],
  ['a Bitcoin segwit address', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'],
  ['a Sui address', '0x0000000000000000000000000000000000000000000000000000000000000002'],
];

describe('tvm', () => {
  it.each(VALID)('accepts %s', (_, text) => {
    expect(tvm.parseAddress(text)).toBe(text);
  });

  it.each(INVALID)('refuses %s', (_, text) => {
    expect(tvm.parseAddress(text)).toBeUndefined();
  });

  // checked by hand: decoded with Python integer arithmetic and hashlib's double SHA-256 (no base58 library); USDT's
  // 41a614f8…d13c and USDC's 413487b6…1abe are their hex addresses on Tronscan
  it.each([
    ['TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', '0xa614f803b6fd780986a42c78ec9c7f77e6ded13c'],
    ['TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8', '0x3487b63d30b5b2c87fb7ffa8bcfade38eaac1abe'],
    ['TNUC9Qb1rRpS5CbWLmNMxXBjyFoydXjWFR', '0x891cdb91d149f23b1a45d9c5ca78a88d0cb44c18'],
    ['T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb', '0x0000000000000000000000000000000000000000'],
  ])('carries %s to EVM as the 20 bytes after 0x41', (text, hex) => {
    const address = tvm.parseAddress(text);
    expect(address).toBeDefined();
    expect(tvm.receiverBytes(address as FamilyAddress<'TVM'>)).toBe(hex);
  });

  it('has the 20-zero-byte account as its zero address, which parses as itself', () => {
    expect(tvm.parseAddress(tvm.zeroAddress)).toBe(tvm.zeroAddress);
    expect(tvm.receiverBytes(tvm.zeroAddress as FamilyAddress<'TVM'>)).toBe(`0x${'0'.repeat(40)}`);
  });

  it('states approvals (TRC-20) and sending as not supported', () => {
    expect(tvm.type).toBe('TVM');
    expect(tvm.approvals).toBe(true);
    expect(tvm.sending).toEqual({ supported: false, reason: 'the service does not build Tron transactions yet' });
  });
});
