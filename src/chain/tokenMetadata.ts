/**
 * Tokens the service finds on a chain (chain mode): a factory announces a pool of a token the catalog does not have,
 * and its ERC-20 metadata — `symbol()`, `name()`, `decimals()` — is read from the token's contract (one eth_call each,
 * sent in the same tick so that the provider batches them). Symbols and names are understood as ABI strings or as
 * bytes32 (the oldest tokens: MKR, SAI), cut at the first NUL, stripped of control characters and bounded.
 *
 * Such a token joins the catalog as `unverified` (entities.ts): found by address only, priced only by its own pools
 * (priceUSD "0" until one qualifies), its coinKey its own (`<chainId>:<address>`) so that it never shares another
 * coin's price, whatever symbol it claims.
 */
import { AbiCoder, getAddress, Interface, toUtf8String, Utf8ErrorFuncs } from 'ethers';
import type { Token } from '../core/entities';
import type { JsonRpcSender } from './jsonRpc';

const ERC20 = new Interface([
  'function symbol() view returns (string)',
  'function name() view returns (string)',
  'function decimals() view returns (uint8)',
]);

/** Longest symbol (the contract's bound on Token.symbol) and name kept. */
const MAX_SYMBOL = 100;
const MAX_NAME = 200;
/** Decimals above this are refused: 10^decimals must stay a usable scale for amounts and prices. */
const MAX_DECIMALS = 36;

/** A token read from its contract, or why it could not be. */
export type TokenMetadataOutcome =
  | { readonly kind: 'read'; readonly token: Token }
  | { readonly kind: 'refused'; readonly address: string; readonly reason: string };

/** The coinKey of a discovered token: its own, never a catalog coin's. */
export function discoveredCoinKey(chainId: number, address: string): string {
  return `${chainId}:${getAddress(address)}`;
}

/** Reads the metadata of `addresses` on `chainId` at `blockTag` (a block number or 'latest'). */
export async function readTokenMetadata(rpc: JsonRpcSender, chainId: number, addresses: readonly string[], blockTag: number | 'latest'): Promise<TokenMetadataOutcome[]> {
  const tag = blockTag === 'latest' ? blockTag : `0x${blockTag.toString(16)}`;
  const call = (to: string, fn: 'symbol' | 'name' | 'decimals') =>
    (rpc.send('eth_call', [{ to, data: ERC20.encodeFunctionData(fn) }, tag]) as Promise<string>).then((answer) => answer, () => '0x');
  return Promise.all(addresses.map(async (raw): Promise<TokenMetadataOutcome> => {
    const address = getAddress(raw);
    const [symbolAnswer, nameAnswer, decimalsAnswer] = await Promise.all([call(address, 'symbol'), call(address, 'name'), call(address, 'decimals')]);
    const decimals = decodeDecimals(decimalsAnswer);
    if (decimals === undefined) return { kind: 'refused', address, reason: 'decimals() does not answer a number from 0 to 36' };
    const symbol = decodeText(symbolAnswer, MAX_SYMBOL);
    if (!symbol) return { kind: 'refused', address, reason: 'symbol() does not answer a text' };
    const name = decodeText(nameAnswer, MAX_NAME) || symbol;
    return {
      kind: 'read',
      token: { chainId, address, symbol, name, decimals, coinKey: discoveredCoinKey(chainId, address), priceUSD: '0', tags: [], verificationStatus: 'unverified' },
    };
  }));
}

function decodeDecimals(answer: string): number | undefined {
  if (!/^0x[0-9a-fA-F]{64}$/.test(answer)) return undefined;
  const value = BigInt(answer);
  return value <= BigInt(MAX_DECIMALS) ? Number(value) : undefined;
}

/** An ABI string or a bytes32 answer as text (empty when it is neither, or holds nothing printable). */
export function decodeText(answer: string, max: number): string {
  if (!/^0x([0-9a-fA-F]{2})*$/.test(answer) || answer.length < 66) return '';
  let text: string;
  if (answer.length === 66) {
    text = toUtf8String(answer, Utf8ErrorFuncs.replace); // bytes32
  } else {
    try {
      text = AbiCoder.defaultAbiCoder().decode(['string'], answer)[0] as string;
    } catch {
      return '';
    }
  }
  const cut = text.indexOf('\0');
  // white space (line breaks too) one space, other control characters (C0, DEL, C1) out, bounded
  // eslint-disable-next-line no-control-regex
  return (cut >= 0 ? text.slice(0, cut) : text).replace(/\s+/g, ' ').replace(/[\u0000-\u001f\u007f-\u009f\ufffd]/g, '').trim().slice(0, max);
}
