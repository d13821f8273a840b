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
  return (text) => {
    if (!HEX_ADDRESS.test(text)) return undefined;
    const hex = text.slice(2).toLowerCase();
    const hash = keccak.init().update(hex).digest('hex');
    // EIP-55: a letter is upper-case where the hash's matching hex digit is 8 or more
    let checksummed = '0x';
    for (let k = 0; k < 40; k++) checksummed += parseInt(hash[k]!, 16) >= 8 ? hex[k]!.toUpperCase() : hex[k]!;
    return checksummed;
  };
}

/** The catalog's address reader (src/core/catalog/catalog.ts, CatalogOptions): the EVM family's with {@link eip55Reader}, every other family's own. */
export async function catalogAddressReader(): Promise<(family: ChainFamily, text: string) => string | undefined> {
  const eip55 = await eip55Reader();
  return (family: ChainFamily, text: string) => (family === evm ? eip55(text) : family.parseAddress(text));
}
