import { createBase58check } from '@scure/base';
import { getBytes, sha256 } from 'ethers';

/** Base58check (double SHA-256 checksum) of Bitcoin and Tron addresses, with ethers' SHA-256 (which answers hex). */
export const base58check = createBase58check((data) => getBytes(sha256(data)));
