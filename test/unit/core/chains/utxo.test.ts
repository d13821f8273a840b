import { utxo } from '../../../../src/core/chains/utxo';
import type { FamilyAddress } from '../../../../src/core/chains/family';

/** Real mainnet addresses and BIP-173/350 test vectors, with their normal forms. */
const VALID: ReadonlyArray<readonly [string, string, string]> = [
  ['P2PKH: the genesis block coinbase', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa'],
  ['P2PKH: the Bitcoin wiki example', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2'],
  ['P2SH: the Bitcoin wiki example', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy'],
  ['P2SH', '342ftSRCvFHfCeFFBuz4xwbeqnDw6BGUey', '342ftSRCvFHfCeFFBuz4xwbeqnDw6BGUey'],
  ['P2WPKH (BIP-173)', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'],
  ['P2WPKH in upper case (BIP-173)', 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'],
  ['P2WPKH: a wallet', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'],
  ['P2WSH (BIP-173)', 'bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3', 'bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3'],
  ['P2TR (BIP-350)', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0'],
  ['P2TR (BIP-86, first receiving address)', 'bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297', 'bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297'],
  ['P2TR in upper case', 'BC1P5D7RJQ7G6RDK2YHZKS9SMLAQTEDR4DEKQ08GE8ZTWAC72SFR9RUSXG3297', 'bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297'],
];

const INVALID: ReadonlyArray<readonly [string, string]> = [
  ['empty', ''],
  ['whitespace', ' '],
  ['a trailing space', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa '],
  ['P2PKH with a bad checksum', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb'],
  ['P2SH with a bad checksum', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLz'],
  ['base58check of version 0x00 and 19 bytes', '1MSp9Dq1gadqWMGiytTxHRVkfCkQ8nCu'],
  ['a character outside base58 (0)', '1A1zP1eP5QGefi2DMPTfTL5SLmv7Div0Na'],
  ['bech32 with a bad checksum', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5'],
  ['bech32 in mixed case', 'bc1qW508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'],
  ['bech32 with a mixed-case prefix', 'Bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'],
  ['bech32 with a character outside its set (b)', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3tb'],
  ['v0 with a bech32m checksum (BIP-350)', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh'],
  ['v1 with a bech32 checksum (BIP-350)', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd'],
  ['v0 with a 16-byte program (BIP-173)', 'BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P'],
  ['v0 with an empty program', 'bc1q9zpgru'],
  ['v1 with a 40-byte program (valid per BIP-350, not taproot)', 'bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y'],
  ['v16 (valid per BIP-350, no output type yet)', 'BC1SW50QGDZ25J'],
  ['v2 (valid per BIP-350, no output type yet)', 'bc1zr4pq63udck'],
  ['no data (BIP-350)', 'bc1gmk9yu'],
  ['testnet P2PKH', 'mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn'],
  ['testnet P2SH', '2MzQwSSnBHWHqSAqtTVQ6v47XtaisrJa1Vc'],
  ['testnet segwit (BIP-173)', 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7'],
  ['regtest segwit', 'bcrt1qs758ursh4q9z627kt3pp5yysm78ddny6txaqgw'],
  ['the catalog address of BTC (not an address)', 'bitcoin'],
  ['an EVM address', '0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea9'],
  ['a Solana address', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'],
  ['a Tron address', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'],
  ['a Tron account under the Bitcoin genesis hash (base58check, version 0x41)', 'TJzCP527E8Pbpt5qwf7NyUmaFZfRQhiAJx'],
  ['a Sui address', '0x0000000000000000000000000000000000000000000000000000000000000002'],
];

describe('utxo', () => {
  it.each(VALID)('accepts %s', (_, text, normal) => {
    expect(utxo.parseAddress(text)).toBe(normal);
  });

  it.each(INVALID)('refuses %s', (_, text) => {
    expect(utxo.parseAddress(text)).toBeUndefined();
  });

  // bridges to Bitcoin carry the address text: its UTF-8 bytes, of the normal form (checked with Python's
  // str.encode().hex(): '1' is 0x31, 'A' 0x41, 'b' 0x62, 'c' 0x63...)
  it.each([
    ['1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', '0x3141317a5031655035514765666932444d505466544c35534c6d7637446976664e61'],
    ['BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4', '0x6263317177353038643671656a7874646734793572337a6172766172793063357877376b763866337434'],
  ])('carries %s to EVM as the UTF-8 bytes of its normal form', (text, hex) => {
    const address = utxo.parseAddress(text);
    expect(address).toBeDefined();
    expect(utxo.receiverBytes(address as FamilyAddress<'UTXO'>)).toBe(hex);
  });

  it('has the P2PKH address of 20 zero bytes as its zero address, which parses as itself', () => {
    // base58check of version 0x00 and 20 zero bytes: 21 "1"s (the zero bytes) and the checksum 4oLvT2
    expect(utxo.zeroAddress).toBe('1111111111111111111114oLvT2');
    expect(utxo.parseAddress(utxo.zeroAddress)).toBe(utxo.zeroAddress);
  });

  it('states no approvals and sending as not supported', () => {
    expect(utxo.type).toBe('UTXO');
    expect(utxo.approvals).toBe(false);
    expect(utxo.sending).toEqual({ supported: false, reason: 'the service does not build Bitcoin transactions yet' });
  });
});
