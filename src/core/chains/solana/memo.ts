/**
 * The memos of the bridge on Solana: the text the relayer reads (to release on the destination chain) and the status
 * tracker matches (to find a transfer by its id), and the Memo programs that can carry it.
 *
 * A deposit (the sender's transaction, deposit.ts):
 *
 *     xchain:v1:<bridge>:<transferId>:<destination chain id>:<receiver>:<minimum amount out>[:<hop>]...
 *     hop = <pool>,<token out>,<amount in>
 *
 * - `bridge`: the bridge's tool key (`[a-z0-9]+`, as the catalog writes it): whose route and fee model the release
 *   applies (the EVM endpoint's `bridge` argument);
 * - `transferId`: 0x + 64 lower-case hex (the 32-byte id, written as the EVM side writes it, so the tracker looks up
 *   one text on every chain);
 * - destination chain id: decimal, no leading zero;
 * - receiver: 0x + lower-case hex of the bytes the destination family gives for the receiver (`receiverBytes`: 20 for
 *   EVM, 32 for Solana and Sui...), at least one byte;
 * - minimum amount out: decimal, smallest units of the destination token, no leading zero (may exceed u64: the
 *   destination may be an EVM uint256);
 * - hops: the swaps the destination call runs after the release (an EVM destination: the destination router's
 *   swapAndCompleteBridgeTokens), in order; each names its pool and the token it gives (0x + 40 lower-case hex) and
 *   the amount it takes (decimal, the estimate, as a hop of an EVM transaction's destination call carries it). An
 *   EVM transaction carries the destination call's bytes themselves; a Solana transaction (1,232 bytes) cannot, so
 *   it carries what the relayer needs to encode the same call (src/core/transactions/destinationCall.ts).
 *
 * A release on Solana (the relayer's transaction paying the receiver of a transfer from another chain), and a refund
 * on Solana (returning a deposit that could not be released):
 *
 *     xchain:release:v1:<transferId>:<source chain id>:<deposit id>
 *     xchain:refund:v1:<transferId>:<deposit signature>
 *
 * Only printable ASCII, and no character the Memo program escapes when it logs (`"` or `\`), so that its cost is the
 * one fees.ts budgets per byte.
 */
import { LEGACY_MEMO_PROGRAM_ADDRESS_V3, MEMO_PROGRAM_ADDRESS } from '@solana-program/memo';
import type { Address } from '@solana/kit';

export const BRIDGE_MEMO_PREFIX = 'xchain:v1:';
export const RELEASE_MEMO_PREFIX = 'xchain:release:v1:';
export const REFUND_MEMO_PREFIX = 'xchain:refund:v1:';

/** A swap of the destination call: the pool, the token it gives, the amount it takes. */
export interface MemoHop {
  /** 0x + 40 hex. */
  readonly pool: string;
  /** 0x + 40 hex. */
  readonly tokenOut: string;
  readonly amountIn: bigint;
}

export interface BridgeMemo {
  /** The bridge's tool key. */
  readonly bridge: string;
  /** 0x + 64 hex. */
  readonly transferId: string;
  readonly destinationChainId: number;
  /** 0x + hex (at least one byte). */
  readonly receiver: string;
  readonly minAmountOut: bigint;
  /** The destination swaps, in order (none: the receiver is paid the released amount). */
  readonly hops?: readonly MemoHop[];
}

export interface ReleaseMemo {
  readonly transferId: string;
  readonly sourceChainId: number;
  readonly depositId: bigint;
}

export interface RefundMemo {
  readonly transferId: string;
  /** The deposit's transaction signature (base58). */
  readonly depositSignature: string;
}

const BRIDGE = /^[a-z0-9]+$/;
const TRANSFER_ID = /^0x[0-9a-fA-F]{64}$/;
const RECEIVER = /^0x(?:[0-9a-fA-F]{2})+$/;
const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const DECIMAL = '(0|[1-9][0-9]*)';
const MEMO = new RegExp(`^xchain:v1:([a-z0-9]+):(0x[0-9a-f]{64}):([1-9][0-9]*):(0x(?:[0-9a-f]{2})+):${DECIMAL}((?::0x[0-9a-f]{40},0x[0-9a-f]{40},${DECIMAL})*)$`);
const HOP = new RegExp(`^(0x[0-9a-f]{40}),(0x[0-9a-f]{40}),${DECIMAL}$`);
const RELEASE = /^xchain:release:v1:(0x[0-9a-f]{64}):([1-9][0-9]*):(0|[1-9][0-9]*)$/;
const REFUND = /^xchain:refund:v1:(0x[0-9a-f]{64}):([1-9A-HJ-NP-Za-km-z]{64,88})$/;

/** The memo text of a transfer; throws on a field outside its form (the builder's inputs are the caller's to check). */
export function formatBridgeMemo(memo: BridgeMemo): string {
  const { bridge, transferId, destinationChainId, receiver, minAmountOut } = memo;
  if (!BRIDGE.test(bridge)) throw new Error(`bridge must be a tool key of lower-case letters and digits: ${bridge}`);
  checkTransferId(transferId);
  checkChainId(destinationChainId, 'destination');
  if (!RECEIVER.test(receiver)) throw new Error(`receiver must be 0x + hex of at least one byte: ${receiver}`);
  if (minAmountOut < 0n) throw new Error(`minimum amount out must not be negative: ${minAmountOut}`);
  const hops = (memo.hops ?? []).map((hop) => {
    if (!HEX_ADDRESS.test(hop.pool) || !HEX_ADDRESS.test(hop.tokenOut)) throw new Error(`a hop's pool and token must be 0x + 40 hex: ${hop.pool}, ${hop.tokenOut}`);
    if (hop.amountIn <= 0n) throw new Error(`a hop's amount must be positive: ${hop.amountIn}`);
    return `:${hop.pool.toLowerCase()},${hop.tokenOut.toLowerCase()},${hop.amountIn}`;
  });
  return `${BRIDGE_MEMO_PREFIX}${bridge}:${transferId.toLowerCase()}:${destinationChainId}:${receiver.toLowerCase()}:${minAmountOut}${hops.join('')}`;
}

/** The transfer a memo text carries, or undefined when the text is not a bridge memo of version 1 in normal form. */
export function parseBridgeMemo(text: string): BridgeMemo | undefined {
  const m = MEMO.exec(text);
  if (!m) return undefined;
  const destinationChainId = Number(m[3]);
  if (!Number.isSafeInteger(destinationChainId)) return undefined;
  const hops: MemoHop[] = [];
  for (const part of m[6] ? m[6].slice(1).split(':') : []) {
    const h = HOP.exec(part)!;
    hops.push({ pool: h[1], tokenOut: h[2], amountIn: BigInt(h[3]) });
  }
  if (hops.some((h) => h.amountIn === 0n)) return undefined;
  return { bridge: m[1], transferId: m[2], destinationChainId, receiver: m[4], minAmountOut: BigInt(m[5]), ...(hops.length > 0 ? { hops } : {}) };
}

export function formatReleaseMemo(memo: ReleaseMemo): string {
  checkTransferId(memo.transferId);
  checkChainId(memo.sourceChainId, 'source');
  if (memo.depositId < 0n) throw new Error(`deposit id must not be negative: ${memo.depositId}`);
  return `${RELEASE_MEMO_PREFIX}${memo.transferId.toLowerCase()}:${memo.sourceChainId}:${memo.depositId}`;
}

export function parseReleaseMemo(text: string): ReleaseMemo | undefined {
  const m = RELEASE.exec(text);
  if (!m || !Number.isSafeInteger(Number(m[2]))) return undefined;
  return { transferId: m[1], sourceChainId: Number(m[2]), depositId: BigInt(m[3]) };
}

export function formatRefundMemo(memo: RefundMemo): string {
  checkTransferId(memo.transferId);
  if (!/^[1-9A-HJ-NP-Za-km-z]{64,88}$/.test(memo.depositSignature)) throw new Error(`deposit signature must be base58: ${memo.depositSignature}`);
  return `${REFUND_MEMO_PREFIX}${memo.transferId.toLowerCase()}:${memo.depositSignature}`;
}

export function parseRefundMemo(text: string): RefundMemo | undefined {
  const m = REFUND.exec(text);
  return m ? { transferId: m[1], depositSignature: m[2] } : undefined;
}

function checkTransferId(transferId: string): void {
  if (!TRANSFER_ID.test(transferId)) throw new Error(`transferId must be 0x + 64 hex: ${transferId}`);
}

function checkChainId(id: number, which: string): void {
  if (!Number.isSafeInteger(id) || id <= 0) throw new Error(`${which} chain id must be a positive integer: ${id}`);
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
