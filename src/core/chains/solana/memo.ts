/**
 * The memo of a bridge deposit on Solana: the text the relayer reads (to release on the destination chain) and the
 * status tracker matches (to find a transfer by its id), and the Memo programs that can carry it.
 *
 *     xchain:v1:<transferId>:<destination chain id>:<receiver>:<minimum amount out>
 *
 * - `transferId`: 0x + 64 lower-case hex (the 32-byte id, written as the EVM side writes it, so the tracker looks up
 *   one text on every chain);
 * - destination chain id: decimal, no leading zero;
 * - receiver: 0x + lower-case hex of the bytes the destination family gives for the receiver (`receiverBytes`: 20 for
 *   EVM, 32 for Solana and Sui...), at least one byte;
 * - minimum amount out: decimal, smallest units of the destination token, no leading zero (may exceed u64: the
 *   destination may be an EVM uint256).
 *
 * Only printable ASCII, and no character the Memo program escapes when it logs (`"` or `\`), so that its cost is the
 * one fees.ts budgets per byte.
 */
import { LEGACY_MEMO_PROGRAM_ADDRESS_V3, MEMO_PROGRAM_ADDRESS } from '@solana-program/memo';
import type { Address } from '@solana/kit';

export const BRIDGE_MEMO_PREFIX = 'xchain:v1:';

export interface BridgeMemo {
  /** 0x + 64 hex. */
  readonly transferId: string;
  readonly destinationChainId: number;
  /** 0x + hex (at least one byte). */
  readonly receiver: string;
  readonly minAmountOut: bigint;
}

const TRANSFER_ID = /^0x[0-9a-fA-F]{64}$/;
const RECEIVER = /^0x(?:[0-9a-fA-F]{2})+$/;
const MEMO = /^xchain:v1:(0x[0-9a-f]{64}):([1-9][0-9]*):(0x(?:[0-9a-f]{2})+):(0|[1-9][0-9]*)$/;

/** The memo text of a transfer; throws on a field outside its form (the builder's inputs are the caller's to check). */
export function formatBridgeMemo(memo: BridgeMemo): string {
  const { transferId, destinationChainId, receiver, minAmountOut } = memo;
  if (!TRANSFER_ID.test(transferId)) throw new Error(`transferId must be 0x + 64 hex: ${transferId}`);
  if (!Number.isSafeInteger(destinationChainId) || destinationChainId <= 0) {
    throw new Error(`destination chain id must be a positive integer: ${destinationChainId}`);
  }
  if (!RECEIVER.test(receiver)) throw new Error(`receiver must be 0x + hex of at least one byte: ${receiver}`);
  if (minAmountOut < 0n) throw new Error(`minimum amount out must not be negative: ${minAmountOut}`);
  return `${BRIDGE_MEMO_PREFIX}${transferId.toLowerCase()}:${destinationChainId}:${receiver.toLowerCase()}:${minAmountOut}`;
}

/** The transfer a memo text carries, or undefined when the text is not a bridge memo of version 1 in normal form. */
export function parseBridgeMemo(text: string): BridgeMemo | undefined {
  const m = MEMO.exec(text);
  if (!m) return undefined;
  const destinationChainId = Number(m[2]);
  if (!Number.isSafeInteger(destinationChainId)) return undefined;
  return { transferId: m[1], destinationChainId, receiver: m[3], minAmountOut: BigInt(m[4]) };
}

/**
 * The Memo programs a deposit can use (`@solana-program/memo` knows both; its `getMemosFromInstructions` reads either):
 * - `v3`: `MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr` (SPL Memo), deployed on every cluster and bundled by LiteSVM
 *   (the local SVM the bridge will run on); costly per byte (fees.ts). The default.
 * - `v4`: `Memo4c2pN8afCj432Lb7RMVKi9PbQnnW7ewFFaV3oAH` (p-memo), the library's default address, a fraction of the
 *   cost; not bundled by LiteSVM 1.5, so a local SVM would have to load it.
 */
export type MemoProgramVersion = 'v3' | 'v4';

export const MEMO_PROGRAMS: Readonly<Record<MemoProgramVersion, Address>> = {
  v3: LEGACY_MEMO_PROGRAM_ADDRESS_V3,
  v4: MEMO_PROGRAM_ADDRESS,
};
