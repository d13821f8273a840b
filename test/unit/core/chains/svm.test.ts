import { svm } from '../../../../src/core/chains/svm';
import type { FamilyAddress } from '../../../../src/core/chains/family';

/** Real mainnet addresses; each is its own normal form (base58 has one text per byte string). */
const VALID: ReadonlyArray<readonly [string, string]> = [
  ['the system program (the all-zero key, also the catalog address of SOL)', '11111111111111111111111111111111'],
  ['the SPL Token program', 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'],
  ['the Associated Token Account program', 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL'],
  ['the Memo program', 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr'],
  ['the Compute Budget program', 'ComputeBudget111111111111111111111111111111'],
  ['Jupiter v6', 'JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4'],
  ['the wSOL mint (catalog)', 'So11111111111111111111111111111111111111112'],
  ['the USDC mint (catalog)', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'],
  ['the USDT mint (catalog)', 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB'],
  ['the USD1 mint (catalog)', 'USD1ttGY1N17NEEHLmELoaybftRBUSErhqYiQzvEmuB'],
  ['the WBTC mint (catalog, 43 characters)', 'qfnqNqs3nCAHjnyCgLRDbBtq4p2MtHZxw8YjSyYhPoL'],
  ['the AVAX mint (catalog)', 'KgV1GvrHQmRBY8sHQQeUKwTm2r2h8t4C8qt12Cw1HVE'],
  ['a Phantom-style wallet (ed25519 key; the example account of the Solana RPC docs)', '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM'],
  ['a wallet (the example key of the Solana docs)', '83astBRguLMdt2h5U1Tpdq5tjFoJ6noeGwaY3mDLVcri'],
  ['the largest key (32 bytes 0xff)', 'JEKNVnkbo3jma5nREBBJCDoXFVeKkD56V3xKrvRmWxFG'],
];

const INVALID: ReadonlyArray<readonly [string, string]> = [
  ['empty', ''],
  ['whitespace', ' '],
  ['a valid address with a leading space', ' EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'],
  ['a valid address with a trailing newline', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v\n'],
  ['base58 of 31 bytes', 'tVojvhToWjQ8Xvo4UPx2Xz9eRy7auyYMmZBjc2XfN'],
  ['base58 of 33 bytes', 'JJEfe6DcPM2ziB2vfUWDV6aHVerXRGkv3TcyvJUNGHZz'],
  ['31 zero bytes', '1111111111111111111111111111111'],
  ['33 zero bytes', '111111111111111111111111111111111'],
  ['45 characters', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1vv'],
  ['a character outside base58 (0)', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt10'],
  ['a character outside base58 (l)', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDtlv'],
  ['a character outside base58 (-)', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt-v'],
  ['an EVM address', '0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea9'],
  ['a Sui address', '0xdba34672e30cb065b1f93e3ab55318768fd6fef66c15942c9f7cb846e2f900e7'],
  ['a Tron address (25 bytes)', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'],
  ['a Bitcoin P2PKH address', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa'],
  ['a Bitcoin taproot address', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0'],
  ['the 32 bytes in hex', '0xc6fa7af3bedbad3a3d65f36aabc97431b1bbe4c2d2f6e0e47ca60203452f5d61'],
];

describe('svm', () => {
  it.each(VALID)('accepts %s', (_, text) => {
    expect(svm.parseAddress(text)).toBe(text);
  });

  it.each(INVALID)('refuses %s', (_, text) => {
    expect(svm.parseAddress(text)).toBeUndefined();
  });

  // checked by hand: the base58 texts decoded with Python integer arithmetic (no base58 library), and against the
  // published values (the wSOL mint's bytes end in 0x…01 and the SPL Token program's are 06ddf6e1…00a9 in the
  // Solana SDKs; the USDC mint's are the Solana USDC address in Wormhole's registry)
  it.each([
    ['11111111111111111111111111111111', '0x0000000000000000000000000000000000000000000000000000000000000000'],
    ['So11111111111111111111111111111111111111112', '0x069b8857feab8184fb687f634618c035dac439dc1aeb3b5598a0f00000000001'],
    ['TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', '0x06ddf6e1d765a193d9cbe146ceeb79ac1cb485ed5f5b37913a8cf5857eff00a9'],
    ['EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', '0xc6fa7af3bedbad3a3d65f36aabc97431b1bbe4c2d2f6e0e47ca60203452f5d61'],
    ['9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM', '0x7e8c088760bfde1dddcf32c17f209b8242ee52aaf131facd88d0ea2c6d0b06f2'],
  ])('carries %s to EVM as its 32 bytes', (text, hex) => {
    const address = svm.parseAddress(text);
    expect(address).toBeDefined();
    expect(svm.receiverBytes(address as FamilyAddress<'SVM'>)).toBe(hex);
  });

  it('has the all-zero key as its zero address, which parses as itself', () => {
    expect(svm.parseAddress(svm.zeroAddress)).toBe(svm.zeroAddress);
    expect(svm.receiverBytes(svm.zeroAddress as FamilyAddress<'SVM'>)).toBe(`0x${'0'.repeat(64)}`);
  });

  it('states its rule, no approvals, and sends bridge deposits', () => {
    expect(svm.type).toBe('SVM');
    expect(svm.addressRule).toBe('base58 of a 32-byte public key');
    expect(svm.approvals).toBe(false);
    expect(svm.sending).toEqual({ supported: true, transaction: 'svmBridgeDeposit' });
  });
});
