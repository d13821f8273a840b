import { mvm } from '../../../../src/core/chains/mvm';
import type { FamilyAddress } from '../../../../src/core/chains/family';

const pad = (hex: string) => `0x${hex.padStart(64, '0')}`;

/** Real mainnet addresses (the catalog's coin types are `package::module::Name`: their packages are addresses). */
const VALID: ReadonlyArray<readonly [string, string, string]> = [
  ['the Sui framework (package of SUI, catalog), short form', '0x2', pad('2')],
  ['the Sui framework, full form', pad('2'), pad('2')],
  ['the Move stdlib', '0x1', pad('1')],
  ['the Sui system state object', '0x5', pad('5')],
  ['the clock object', '0x6', pad('6')],
  ['the package of USDC (catalog)', '0xdba34672e30cb065b1f93e3ab55318768fd6fef66c15942c9f7cb846e2f900e7', '0xdba34672e30cb065b1f93e3ab55318768fd6fef66c15942c9f7cb846e2f900e7'],
  ['the package of USDC in upper case', '0xDBA34672E30CB065B1F93E3AB55318768FD6FEF66C15942C9F7CB846E2F900E7', '0xdba34672e30cb065b1f93e3ab55318768fd6fef66c15942c9f7cb846e2f900e7'],
  ['the package of wormhole USDT (catalog)', '0xc060006111016b8a020ad5b33834984a437aaa7d3c74c18e09a95d48aceab08c', '0xc060006111016b8a020ad5b33834984a437aaa7d3c74c18e09a95d48aceab08c'],
  ['the package of wormhole WBTC (catalog, a leading zero)', '0x027792d9fed7f9844eb4839566001bb6f6cb4804f66aa2da6fe1ee242d896881', '0x027792d9fed7f9844eb4839566001bb6f6cb4804f66aa2da6fe1ee242d896881'],
  ['the same without its leading zero (63 digits)', '0x27792d9fed7f9844eb4839566001bb6f6cb4804f66aa2da6fe1ee242d896881', '0x027792d9fed7f9844eb4839566001bb6f6cb4804f66aa2da6fe1ee242d896881'],
  ['the package of wormhole SOL (catalog), mixed case', '0xB7844e289a8410e50fb3ca48d69eb9cf29e27d223ef90353fe1bd8e27ff8f3F8', '0xb7844e289a8410e50fb3ca48d69eb9cf29e27d223ef90353fe1bd8e27ff8f3f8'],
  ['41 digits (a short form longer than an EVM address)', `0x1${'0'.repeat(40)}`, pad(`1${'0'.repeat(40)}`)],
];

const INVALID: ReadonlyArray<readonly [string, string]> = [
  ['empty', ''],
  ['whitespace', '  '],
  ['0x alone', '0x'],
  ['65 hex digits', `0x1${'0'.repeat(64)}`],
  ['64 hex digits without 0x', 'dba34672e30cb065b1f93e3ab55318768fd6fef66c15942c9f7cb846e2f900e7'],
  ['0X in upper case', '0X2'],
  ['a non-hex digit', '0xdba34672e30cb065b1f93e3ab55318768fd6fef66c15942c9f7cb846e2f900eg'],
  ['a leading space', ' 0x2'],
  ['a trailing space', '0x2 '],
  ['a coin type (catalog SUI)', '0x0000000000000000000000000000000000000000000000000000000000000002::sui::SUI'],
  ['a coin type in short form', '0x2::sui::SUI'],
  ['an EVM address (40 digits: refused as a Sui short form)', '0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea9'],
  ['an EVM address in lower case', '0x552008c0f6870c2f77e5cc1d2eb9bdff03e30ea9'],
  ['a Solana address', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'],
  ['a Tron address', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'],
  ['a Bitcoin address', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'],
];

describe('mvm', () => {
  it.each(VALID)('accepts %s', (_, text, normal) => {
    expect(mvm.parseAddress(text)).toBe(normal);
  });

  it.each(INVALID)('refuses %s', (_, text) => {
    expect(mvm.parseAddress(text)).toBeUndefined();
  });

  // checked by hand: a Sui address is its 32 bytes written in hex, so the bytes are the normal form (padded, lower case)
  it.each([
    ['0x2', '0x0000000000000000000000000000000000000000000000000000000000000002'],
    ['0xDBA34672E30CB065B1F93E3AB55318768FD6FEF66C15942C9F7CB846E2F900E7', '0xdba34672e30cb065b1f93e3ab55318768fd6fef66c15942c9f7cb846e2f900e7'],
    ['0x27792d9fed7f9844eb4839566001bb6f6cb4804f66aa2da6fe1ee242d896881', '0x027792d9fed7f9844eb4839566001bb6f6cb4804f66aa2da6fe1ee242d896881'],
  ])('carries %s to EVM as its 32 bytes', (text, hex) => {
    const address = mvm.parseAddress(text);
    expect(address).toBeDefined();
    expect(mvm.receiverBytes(address as FamilyAddress<'MVM'>)).toBe(hex);
  });

  it('has 0x and 64 zeros as its zero address, which parses as itself', () => {
    expect(mvm.zeroAddress).toBe(`0x${'0'.repeat(64)}`);
    expect(mvm.parseAddress(mvm.zeroAddress)).toBe(mvm.zeroAddress);
    expect(mvm.parseAddress('0x0')).toBe(mvm.zeroAddress);
  });

  it('states no approvals and sending as not supported', () => {
    expect(mvm.type).toBe('MVM');
    expect(mvm.approvals).toBe(false);
    expect(mvm.sending).toEqual({ supported: false, reason: 'the service does not build Sui transactions yet' });
  });
});
