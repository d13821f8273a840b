/**
 * The witness permit's digest, worked by hand from the type strings of the genuine contracts — Permit2's
 * PermitWitnessTransferFrom stub and the service's proxy's WITNESS_TYPE_STRING, read from its Solidity source — and
 * compared with the EIP-712 digest of the typed data a step carries.
 */
import fs from 'node:fs';
import path from 'node:path';
import { AbiCoder, keccak256, toUtf8Bytes, TypedDataEncoder, concat } from 'ethers';
import { PERMIT_WITNESS_TYPES, permitWitnessTypedData, relayNonce } from '../../../../src/core/relay/permitWitness';

const permit = {
  chainId: 42161,
  permit2: '0x000000000022d473030f116ddee9f6b43ac78ba3',
  proxy: '0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0',
  router: '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512',
  token: '0x82af49447d8a07e3bd95bd0d56f35241523fbab1',
  amount: 123_456_789n,
  nonce: 42n,
  deadline: 1_900_000_000n,
  routerCalldata: '0xdeadbeef',
};
const abi = AbiCoder.defaultAbiCoder();

test('the digest is Permit2\'s for the proxy\'s witness type string', () => {
  const source = fs.readFileSync(path.join(__dirname, '..', '..', '..', '..', 'contracts', 'router', 'Permit2Proxy.sol'), 'utf8');
  const witnessTypeString = /WITNESS_TYPE_STRING =\s*"([^"]+)"/.exec(source)![1]!;
  // Permit2 (SignatureTransfer.sol): keccak256(PERMIT_WITNESS_TRANSFER_FROM_TYPEHASH_STUB ++ witnessTypeString)
  const typeHash = keccak256(toUtf8Bytes(`PermitWitnessTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline,${witnessTypeString}`));
  const tokenPermissions = keccak256(abi.encode(['bytes32', 'address', 'uint256'], [keccak256(toUtf8Bytes('TokenPermissions(address token,uint256 amount)')), permit.token, permit.amount]));
  const witness = keccak256(abi.encode(['bytes32', 'address', 'bytes32'], [keccak256(toUtf8Bytes('LiFiCall(address diamondAddress,bytes32 diamondCalldataHash)')), permit.router, keccak256(permit.routerCalldata)]));
  const struct = keccak256(abi.encode(['bytes32', 'bytes32', 'address', 'uint256', 'uint256', 'bytes32'], [typeHash, tokenPermissions, permit.proxy, permit.nonce, permit.deadline, witness]));
  // Permit2's domain: EIP712Domain(string name,uint256 chainId,address verifyingContract), name "Permit2"
  const domain = keccak256(abi.encode(['bytes32', 'bytes32', 'uint256', 'address'], [keccak256(toUtf8Bytes('EIP712Domain(string name,uint256 chainId,address verifyingContract)')), keccak256(toUtf8Bytes('Permit2')), permit.chainId, permit.permit2]));
  const digest = keccak256(concat(['0x1901', domain, struct]));

  const typed = permitWitnessTypedData(permit);
  expect(TypedDataEncoder.hash(typed.domain, PERMIT_WITNESS_TYPES as never, typed.message)).toBe(digest);
});

test('the typed data is written as clients receive it: checksummed addresses, integers as decimal strings', () => {
  const typed = permitWitnessTypedData(permit);
  expect(typed.message).toEqual({
    permitted: { token: '0x82aF49447D8a07e3bd95BD0d56f35241523fBab1', amount: '123456789' },
    spender: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0',
    nonce: '42',
    deadline: '1900000000',
    witness: { diamondAddress: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512', diamondCalldataHash: keccak256('0xdeadbeef') },
  });
  expect(typed.domain).toEqual({ name: 'Permit2', chainId: 42161, verifyingContract: '0x000000000022D473030F116dDEE9F6B43aC78BA3' });
  expect(JSON.parse(JSON.stringify(typed))).toEqual(typed);
});

test('the nonce: the same for the same step and deadline, another for another owner, step, chain or deadline', () => {
  const owner = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
  const base = relayNonce(42161, owner, 'step-1', 1_900_000_000n);
  expect(relayNonce(42161, owner.toLowerCase(), 'step-1', 1_900_000_000n)).toBe(base);
  const others = [
    relayNonce(10, owner, 'step-1', 1_900_000_000n),
    relayNonce(42161, '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC', 'step-1', 1_900_000_000n),
    relayNonce(42161, owner, 'step-2', 1_900_000_000n),
    relayNonce(42161, owner, 'step-1', 1_900_000_001n),
  ];
  expect(new Set([base, ...others]).size).toBe(5);
  expect(base < 1n << 256n).toBe(true);
});
