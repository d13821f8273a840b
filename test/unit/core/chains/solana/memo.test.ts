import { LEGACY_MEMO_PROGRAM_ADDRESS_V3, MEMO_PROGRAM_ADDRESS, SUPPORTED_MEMO_PROGRAM_ADDRESSES } from '@solana-program/memo';
import {
  BRIDGE_MEMO_PREFIX, MEMO_PROGRAMS, formatBridgeMemo, formatRefundMemo, formatReleaseMemo, parseBridgeMemo, parseRefundMemo, parseReleaseMemo, type BridgeMemo,
} from '../../../../../src/core/chains/solana/memo';

const TRANSFER_ID = `0x${'ab'.repeat(32)}`;
const EVM_RECEIVER = '0x1212121212121212121212121212121212121212';

describe('the bridge memo', () => {
  test('is xchain:v1:<bridge>:<transferId>:<destination chain id>:<receiver>:<minimum amount out>', () => {
    const memo: BridgeMemo = { bridge: 'cctp', transferId: TRANSFER_ID, destinationChainId: 42161, receiver: EVM_RECEIVER, minAmountOut: 995_000n };
    const text = formatBridgeMemo(memo);
    expect(text).toBe(`xchain:v1:cctp:0x${'ab'.repeat(32)}:42161:0x1212121212121212121212121212121212121212:995000`);
    expect(text.startsWith(BRIDGE_MEMO_PREFIX)).toBe(true);
    // 10 (prefix) + 5 (bridge) + 66 (id) + 1 + 5 (chain) + 1 + 42 (receiver) + 1 + 6 (amount) = 137 bytes
    expect(Buffer.byteLength(text, 'utf8')).toBe(137);
    expect(parseBridgeMemo(text)).toEqual(memo);
  });

  test('carries the destination swaps: pool, token out and amount in per hop', () => {
    const pool = '0x00000000000000000000000000000000000000Aa';
    const token = '0x00000000000000000000000000000000000000Bb';
    const memo: BridgeMemo = {
      bridge: 'across', transferId: TRANSFER_ID, destinationChainId: 8453, receiver: EVM_RECEIVER, minAmountOut: 7n,
      hops: [{ pool, tokenOut: token, amountIn: 990_000n }, { pool: token, tokenOut: pool, amountIn: 5n }],
    };
    const text = formatBridgeMemo(memo);
    expect(text).toBe(`xchain:v1:across:${TRANSFER_ID}:8453:${EVM_RECEIVER}:7:${pool.toLowerCase()},${token.toLowerCase()},990000:${token.toLowerCase()},${pool.toLowerCase()},5`);
    expect(parseBridgeMemo(text)).toEqual({ ...memo, hops: memo.hops!.map((h) => ({ pool: h.pool.toLowerCase(), tokenOut: h.tokenOut.toLowerCase(), amountIn: h.amountIn })) });
    expect(() => formatBridgeMemo({ ...memo, hops: [{ pool, tokenOut: token, amountIn: 0n }] })).toThrow();
    expect(() => formatBridgeMemo({ ...memo, hops: [{ pool: '0x12', tokenOut: token, amountIn: 1n }] })).toThrow();
    expect(parseBridgeMemo(`xchain:v1:across:${TRANSFER_ID}:8453:${EVM_RECEIVER}:7:${pool.toLowerCase()},${token.toLowerCase()},0`)).toBeUndefined();
  });

  test('release and refund memos on Solana', () => {
    const release = formatReleaseMemo({ transferId: TRANSFER_ID, sourceChainId: 42161, depositId: 12n });
    expect(release).toBe(`xchain:release:v1:${TRANSFER_ID}:42161:12`);
    expect(parseReleaseMemo(release)).toEqual({ transferId: TRANSFER_ID, sourceChainId: 42161, depositId: 12n });
    const signature = '5'.repeat(88);
    const refund = formatRefundMemo({ transferId: TRANSFER_ID, depositSignature: signature });
    expect(refund).toBe(`xchain:refund:v1:${TRANSFER_ID}:${signature}`);
    expect(parseRefundMemo(refund)).toEqual({ transferId: TRANSFER_ID, depositSignature: signature });
    expect(parseReleaseMemo(refund)).toBeUndefined();
    expect(parseRefundMemo(release)).toBeUndefined();
    expect(parseBridgeMemo(release)).toBeUndefined();
    expect(() => formatRefundMemo({ transferId: TRANSFER_ID, depositSignature: '0OIl' })).toThrow();
  });

  test('writes hex in lower case (the same text as the EVM side), amounts beyond u64 in full', () => {
    const text = formatBridgeMemo({
      bridge: 'cctp',
      transferId: `0x${'AB'.repeat(32)}`,
      destinationChainId: 1,
      receiver: '0xABCDEF',
      minAmountOut: 2n ** 200n,
    });
    expect(text).toBe(`xchain:v1:cctp:0x${'ab'.repeat(32)}:1:0xabcdef:${2n ** 200n}`);
    expect(parseBridgeMemo(text)?.minAmountOut).toBe(2n ** 200n);
  });

  test('carries a 32-byte receiver (Solana, Sui) and a zero minimum', () => {
    const receiver = `0x${'7f'.repeat(32)}`;
    const text = formatBridgeMemo({ bridge: 'mayan', transferId: TRANSFER_ID, destinationChainId: 101, receiver, minAmountOut: 0n });
    expect(parseBridgeMemo(text)).toEqual({ bridge: 'mayan', transferId: TRANSFER_ID, destinationChainId: 101, receiver, minAmountOut: 0n });
  });

  test.each([
    ['a transferId of 31 bytes', { transferId: `0x${'ab'.repeat(31)}` }],
    ['a transferId without 0x', { transferId: 'ab'.repeat(32) }],
    ['chain id 0', { destinationChainId: 0 }],
    ['a fractional chain id', { destinationChainId: 1.5 }],
    ['an odd-length receiver', { receiver: '0x123' }],
    ['an empty receiver', { receiver: '0x' }],
    ['a negative minimum', { minAmountOut: -1n }],
    ['a bridge key with a colon', { bridge: 'a:b' }],
    ['an upper-case bridge key', { bridge: 'Across' }],
  ])('refuses %s', (_, change) => {
    expect(() => formatBridgeMemo({ bridge: 'cctp', transferId: TRANSFER_ID, destinationChainId: 42161, receiver: EVM_RECEIVER, minAmountOut: 1n, ...change })).toThrow();
  });

  test.each([
    ['another version', `xchain:v2:cctp:${TRANSFER_ID}:1:${EVM_RECEIVER}:1`],
    ['upper-case hex', `xchain:v1:cctp:0x${'AB'.repeat(32)}:1:${EVM_RECEIVER}:1`],
    ['a leading zero in the amount', `xchain:v1:cctp:${TRANSFER_ID}:1:${EVM_RECEIVER}:01`],
    ['a leading zero in the chain id', `xchain:v1:cctp:${TRANSFER_ID}:01:${EVM_RECEIVER}:1`],
    ['a chain id beyond 2^53', `xchain:v1:cctp:${TRANSFER_ID}:9007199254740993:${EVM_RECEIVER}:1`],
    ['a missing field', `xchain:v1:cctp:${TRANSFER_ID}:1:${EVM_RECEIVER}`],
    ['trailing text', `xchain:v1:cctp:${TRANSFER_ID}:1:${EVM_RECEIVER}:1 `],
    ['no bridge', `xchain:v1:${TRANSFER_ID}:1:${EVM_RECEIVER}:1`],
    ['free text', 'hello'],
  ])('is not read from %s', (_, text) => {
    expect(parseBridgeMemo(text)).toBeUndefined();
  });

  test('goes through SPL Memo (v3) or p-memo (v4), both of which the library reads memos from', () => {
    expect(MEMO_PROGRAMS).toEqual({ v3: 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr', v4: 'Memo4c2pN8afCj432Lb7RMVKi9PbQnnW7ewFFaV3oAH' });
    expect(MEMO_PROGRAMS.v3).toBe(LEGACY_MEMO_PROGRAM_ADDRESS_V3);
    expect(MEMO_PROGRAMS.v4).toBe(MEMO_PROGRAM_ADDRESS);
    expect(SUPPORTED_MEMO_PROGRAM_ADDRESSES).toEqual(expect.arrayContaining([MEMO_PROGRAMS.v3, MEMO_PROGRAMS.v4]));
  });
});
