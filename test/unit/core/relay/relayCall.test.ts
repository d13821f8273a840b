/**
 * The relayer's transaction: the proxy call alone, or after the token's permit in one Multicall3 aggregate3 (the
 * permit allowed to fail, the proxy call not), decoded back with the contracts' own ABIs.
 */
import { getAddress, Interface } from 'ethers';
import { relayTransaction } from '../../../../src/core/relay/relayCall';

const PROXY = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0';
const MULTICALL = '0xcA11bde05977b3631167028862bE2a173976CA11';
const OWNER = getAddress('0x552008c0f6870c2f77e5cc1d2eb9bdff03e30ea9');
const TOKEN = '0xaf88d065e77c8cC2239327C5EDb3A432268e5831';
const PERMIT2 = '0x000000000022D473030F116dDEE9F6B43aC78BA3';
const witness = { token: TOKEN, amount: 25_000_000n, nonce: 7n, deadline: 1_900_001_200n, owner: OWNER, signature: `0x${'11'.repeat(65)}` };
const proxyAbi = new Interface(['function callDiamondWithPermit2Witness(bytes diamondCalldata, address signer, ((address token, uint256 amount) permitted, uint256 nonce, uint256 deadline) permit, bytes signature)']);
const multicallAbi = new Interface(['function aggregate3((address target, bool allowFailure, bytes callData)[] calls)']);
const tokenAbi = new Interface(['function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)']);

it('without a token permit: the proxy call, to the proxy', () => {
  const tx = relayTransaction(PROXY, MULTICALL, '0xabcdef', witness);
  expect(tx.to).toBe(PROXY);
  const call = proxyAbi.parseTransaction({ data: tx.data })!;
  expect(call.args.diamondCalldata).toBe('0xabcdef');
  expect(call.args.signer).toBe(OWNER);
  expect(call.args.permit.permitted.amount).toBe(25_000_000n);
  expect(call.args.permit.nonce).toBe(7n);
});

it('with a token permit: Multicall3 aggregate3 of the permit (may fail) and then the proxy call (must not)', () => {
  const permit = { token: TOKEN, owner: OWNER, spender: PERMIT2, value: 25_000_000n, deadline: 1_900_001_200n, v: 27, r: `0x${'22'.repeat(32)}`, s: `0x${'33'.repeat(32)}` };
  const tx = relayTransaction(PROXY, MULTICALL, '0xabcdef', witness, permit);
  expect(tx.to).toBe(MULTICALL);
  const [calls] = multicallAbi.parseTransaction({ data: tx.data })!.args as unknown as [{ target: string; allowFailure: boolean; callData: string }[]];
  expect(calls.map((c) => [c.target, c.allowFailure])).toEqual([[TOKEN, true], [PROXY, false]]);
  expect([...tokenAbi.parseTransaction({ data: calls[0].callData })!.args]).toEqual([OWNER, PERMIT2, 25_000_000n, 1_900_001_200n, 27n, permit.r, permit.s]);
  expect(calls[1].callData).toBe(relayTransaction(PROXY, MULTICALL, '0xabcdef', witness).data);
});
