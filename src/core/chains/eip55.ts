import { createKeccak } from 'hash-wasm';
import { evm, HEX_ADDRESS } from './evm';
import type { ChainFamily } from './family';

/**
 * The EVM family's parseAddress (src/core/chains/evm.ts: viem's EIP-55 checksum of the address's bytes) with the
 * Keccak-256 of hash-wasm, compiled WebAssembly, fast from its first call: viem's Keccak is JavaScript, which V8 runs
 * interpreted until it has compiled it, and a catalog checks thousands of addresses as it is built (the embedded
 * one 3,025 at every start). Its creation is asynchronous (WebAssembly), so a composition root makes one and gives
 * it to the catalog ({@link catalogAddressReader}). Answers exactly what `evm.parseAddress` answers.
 */
export async function eip55Reader(): Promise<(text: string) => string | undefined> {
  const keccak = await createKeccak(256);
  // the checksummed address's character codes, filled per address ("0x" then 40 hex digits)
  const codes = new Array<number>(42);
  return (text) => {
    if (!HEX_ADDRESS.test(text)) return undefined;
    const hex = text.slice(2).toLowerCase();
    const hash = keccak.init().update(hex).digest('binary');
    codes[0] = 0x30; // 0
    codes[1] = 0x78; // x
    for (let k = 0; k < 40; k++) {
      const code = hex.charCodeAt(k);
      // EIP-55: a letter (a-f) is upper-case where the hash's matching hex digit (nibble k) is 8 or more
      const nibble = k % 2 === 0 ? hash[k >> 1]! >> 4 : hash[k >> 1]! & 0x0f;
      codes[k + 2] = code >= 0x61 && nibble >= 8 ? code - 0x20 : code;
    }
    return String.fromCharCode(...codes);
  };
}

/** The catalog's address reader (src/core/catalog/catalog.ts, CatalogOptions): the EVM family's with {@link eip55Reader}, every other family's own. */
export async function catalogAddressReader(): Promise<(family: ChainFamily, text: string) => string | undefined> {
  const eip55 = await eip55Reader();
  return (family: ChainFamily, text: string) => (family === evm ? eip55(text) : family.parseAddress(text));
}
