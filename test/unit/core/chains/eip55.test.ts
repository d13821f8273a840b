/**
 * The EIP-55 reader with hash-wasm's Keccak (src/core/chains/eip55.ts) against the EVM family's own (viem's checksum)
 * and against EIP-55's own examples: it must answer exactly the same, for any text.
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { catalogAddressReader, eip55Reader } from '../../../../src/core/chains/eip55';
import { evm } from '../../../../src/core/chains/evm';
import { familyOf } from '../../../../src/core/chains/families';
import { loadCatalog } from '../../../../src/files/catalog';
import { DEFAULT_DATA_DIR } from '../../../../src/config';

test("EIP-55's own examples, from any letter case", async () => {
  const read = await eip55Reader();
  // the examples of https://eips.ethereum.org/EIPS/eip-55
  for (const address of [
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB', '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  ]) {
    expect(read(address)).toBe(address);
    expect(read(address.toLowerCase())).toBe(address);
    expect(read(`0x${address.slice(2).toUpperCase()}`)).toBe(address);
  }
});

test('the same answer as the EVM family, for random addresses in any letter case and for texts that are not addresses', async () => {
  const read = await eip55Reader();
  for (let k = 0; k < 5_000; k++) {
    const hex = randomBytes(20).toString('hex');
    const mixed = [...hex].map((c) => (Math.random() < 0.5 ? c.toUpperCase() : c)).join('');
    expect(read(`0x${mixed}`)).toBe(evm.parseAddress(`0x${mixed}`));
  }
  const text = fc.oneof(fc.string({ maxLength: 44 }), fc.constantFrom('0x', '0x123', `0x${'g'.repeat(40)}`, `0X${'a'.repeat(40)}`, ` 0x${'a'.repeat(40)}`, `0x${'a'.repeat(41)}`));
  fc.assert(fc.property(text, (t) => read(t) === evm.parseAddress(t)), { numRuns: 2_000 });
});

test("the catalog reader: the embedded catalog's every address read as each family reads it", async () => {
  const reader = await catalogAddressReader();
  const catalog = loadCatalog(DEFAULT_DATA_DIR);
  let evmAddresses = 0;
  for (const chain of catalog.chains) {
    const family = familyOf(chain);
    for (const token of catalog.listTokens({ chainIds: [chain.id] }).get(chain.id) ?? []) {
      expect(reader(family, token.address)).toBe(family.parseAddress(token.address));
      if (family === evm) evmAddresses++;
    }
  }
  expect(evmAddresses).toBeGreaterThan(3_000);
  // the catalog built with it is the catalog built without it
  expect(loadCatalog(DEFAULT_DATA_DIR, { parseAddress: reader }).listTokens()).toEqual(catalog.listTokens());
});
