/**
 * The token's EIP-2612 permit for Permit2 in a relayed step: its digest against one worked by hand from EIP-2612,
 * and the check as an attacker tries it — signed by someone else, for another spender (the attacker's own), less than
 * the step's amount, a nonce the token no longer takes, another token's domain, past its deadline, malformed. The
 * valid case is signed as the ecosystem SDK signs it: viem's signTypedData on the typed data as the JSON carries it.
 */
import { AbiCoder, concat, keccak256, toUtf8Bytes, TypedDataEncoder, Wallet } from 'ethers';
import { privateKeyToAccount } from 'viem/accounts';
import { checkSignedTokenPermit, EIP2612_PERMIT_TYPES, tokenPermitTypedData, type TokenPermit } from '../../../../src/core/relay/permit';

const user = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');
const attacker = privateKeyToAccount(Wallet.createRandom().privateKey as `0x${string}`);
const NOW = 1_900_000_000n;
const PERMIT2 = '0x000000000022D473030F116dDEE9F6B43aC78BA3';
const expected: Omit<TokenPermit, 'deadline'> = {
  chainId: 42161, token: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831', name: 'USD Coin', version: '2',
  owner: user.address, spender: PERMIT2, value: 25_000_000n, nonce: 3n,
};
const typedData = tokenPermitTypedData({ ...expected, deadline: NOW + 1200n });

async function signedBy(account: typeof user, data: unknown = typedData): Promise<Record<string, unknown>> {
  const wire = JSON.parse(JSON.stringify(data)) as Record<string, unknown>;
  return { ...wire, signature: await account.signTypedData(wire as never) };
}
const check = (signed: unknown, now = NOW) => checkSignedTokenPermit(signed, expected, now, 60n, '/typedData/0');

it('the digest is EIP-2612\'s, worked by hand: keccak256(0x1901 ‖ domain separator ‖ keccak256(PERMIT_TYPEHASH ‖ fields))', () => {
  const abi = AbiCoder.defaultAbiCoder();
  const domainSeparator = keccak256(abi.encode(['bytes32', 'bytes32', 'bytes32', 'uint256', 'address'], [
    keccak256(toUtf8Bytes('EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)')),
    keccak256(toUtf8Bytes('USD Coin')), keccak256(toUtf8Bytes('2')), 42161, expected.token,
  ]));
  const structHash = keccak256(abi.encode(['bytes32', 'address', 'address', 'uint256', 'uint256', 'uint256'], [
    keccak256(toUtf8Bytes('Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)')),
    user.address, PERMIT2, 25_000_000n, 3n, NOW + 1200n,
  ]));
  const digest = keccak256(concat(['0x1901', domainSeparator, structHash]));
  expect(TypedDataEncoder.hash(typedData.domain, EIP2612_PERMIT_TYPES as never, typedData.message)).toBe(digest);
  expect(typedData.message).toEqual({ owner: user.address, spender: PERMIT2, value: '25000000', nonce: '3', deadline: String(NOW + 1200n) });
});

it('accepts the owner\'s signature of the permit asked for, and gives the token\'s permit arguments', async () => {
  const result = check(await signedBy(user));
  expect(result).toMatchObject({ ok: true, permit: { owner: user.address, spender: PERMIT2, value: 25_000_000n, deadline: NOW + 1200n } });
  if (!result.ok) throw new Error('refused');
  expect([27, 28]).toContain(result.permit.v);
  // more than the step's amount is the owner's choice
  const more = tokenPermitTypedData({ ...expected, value: 10n ** 30n, deadline: NOW + 1200n });
  expect(check(await signedBy(user, more))).toMatchObject({ ok: true, permit: { value: 10n ** 30n } });
});

it('refuses a permit signed by another account, or for the attacker as spender, or another token\'s, or an old nonce', async () => {
  expect(check(await signedBy(attacker))).toMatchObject({ ok: false, field: '/typedData/0/signature' });
  for (const change of [{ spender: attacker.address }, { token: '0x82aF49447D8a07e3bd95BD0d56f35241523fBab1' }, { nonce: 2n }, { name: 'USDC' }, { chainId: 1 }]) {
    const theirs = tokenPermitTypedData({ ...expected, ...change, deadline: NOW + 1200n });
    expect(check(await signedBy(user, theirs))).toMatchObject({ ok: false, field: '/typedData/0/signature' });
  }
});

it('refuses less than the step\'s amount, a deadline passed or too close, malformed fields', async () => {
  const less = tokenPermitTypedData({ ...expected, value: 24_999_999n, deadline: NOW + 1200n });
  expect(check(await signedBy(user, less))).toMatchObject({ ok: false, field: '/typedData/0/message/value' });
  expect(check(await signedBy(user), NOW + 1200n - 59n)).toMatchObject({ ok: false, field: '/typedData/0/message/deadline' });
  expect(check({ ...(await signedBy(user)), signature: '0x1234' })).toMatchObject({ ok: false, field: '/typedData/0/signature' });
  expect(check({ ...(await signedBy(user)), message: null })).toMatchObject({ ok: false, field: '/typedData/0/message' });
  expect(check(null)).toMatchObject({ ok: false, field: '/typedData/0' });
  const junkSignature = { ...(await signedBy(user)), signature: `0x${'00'.repeat(65)}` };
  expect(check(junkSignature)).toMatchObject({ ok: false, field: '/typedData/0/signature' });
});
