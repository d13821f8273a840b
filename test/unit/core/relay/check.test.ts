/**
 * The signed witness permit of a relayed step, checked as an attacker would try it: signed by someone else, for other
 * call data, another token, amount, spender, router, chain or Permit2, with changed types, after or far beyond its
 * deadline, malformed. The valid case is signed as the ecosystem SDK signs it: viem's signTypedData on the typed data
 * exactly as the JSON answer carries it.
 */
import { Wallet, keccak256 } from 'ethers';
import { privateKeyToAccount } from 'viem/accounts';
import { checkSignedWitness, type ExpectedWitness, type WitnessTiming } from '../../../../src/core/relay/check';
import { permitWitnessTypedData } from '../../../../src/core/relay/permitWitness';

const USER_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const user = privateKeyToAccount(USER_KEY);
const attacker = privateKeyToAccount(Wallet.createRandom().privateKey as `0x${string}`);
const NOW = 1_900_000_000n;
const timing: WitnessTiming = { now: NOW, minRemainingSeconds: 60n, maxRemainingSeconds: 3600n };
const expected: ExpectedWitness = {
  chainId: 42161,
  permit2: '0x000000000022D473030F116dDEE9F6B43aC78BA3',
  proxy: '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0',
  router: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
  token: '0x82aF49447D8a07e3bd95BD0d56f35241523fBab1',
  amount: 10n ** 17n,
  routerCalldata: '0x12345678' + 'ab'.repeat(100),
  owner: user.address,
};
const typedData = permitWitnessTypedData({ ...expected, nonce: 7n, deadline: NOW + 1800n });

/** The typed data as the client receives it (JSON), signed by `account` with viem, as the SDK's wallet does. */
async function signedBy(account: typeof user, data: unknown = typedData): Promise<Record<string, unknown>> {
  const wire = JSON.parse(JSON.stringify(data)) as Record<string, unknown>;
  const signature = await account.signTypedData(wire as never);
  return { ...wire, signature };
}

const edit = (data: unknown, change: (copy: any) => void): unknown => {
  const copy = JSON.parse(JSON.stringify(data));
  change(copy);
  return copy;
};

test('the SDK\'s signature of the witness permit passes, and gives the permit the proxy takes', async () => {
  const result = checkSignedWitness(await signedBy(user), expected, timing, '/typedData/0');
  expect(result).toEqual({ ok: true, permit: { token: expected.token, amount: expected.amount, nonce: 7n, deadline: NOW + 1800n, owner: user.address, signature: expect.stringMatching(/^0x[0-9a-f]{130}$/) } });
  // wallets may list EIP712Domain among the types: tolerated
  const withDomainType = edit(await signedBy(user), (c) => { c.types.EIP712Domain = [{ name: 'name', type: 'string' }]; });
  expect(checkSignedWitness(withDomainType, expected, timing, '/typedData/0').ok).toBe(true);
});

test('signed by anyone but the step\'s fromAddress: refused', async () => {
  expect(checkSignedWitness(await signedBy(attacker), expected, timing, '/typedData/0')).toMatchObject({ ok: false, code: 'WRONG_SIGNER', field: '/typedData/0/signature' });
});

test('the user\'s signature for one router call cannot carry another: the witness hash must be the rebuilt call\'s', async () => {
  const theirs = { ...expected, routerCalldata: '0x12345678' + 'cd'.repeat(100) };
  const signed = await signedBy(user);
  expect(checkSignedWitness(signed, theirs, timing, '/typedData/0')).toMatchObject({ ok: false, code: 'MISMATCH', field: '/typedData/0/message/witness/diamondCalldataHash' });
  // nor by rewriting the hash in the message: the signature no longer matches
  const rewritten = edit(signed, (c) => { c.message.witness.diamondCalldataHash = keccak256(theirs.routerCalldata); });
  expect(checkSignedWitness(rewritten, theirs, timing, '/typedData/0')).toMatchObject({ ok: false, code: 'WRONG_SIGNER' });
});

test.each([
  ['another token', (c: any) => { c.message.permitted.token = '0xaf88d065e77c8cC2239327C5EDb3A432268e5831'; }, '/message/permitted/token'],
  ['more than the step', (c: any) => { c.message.permitted.amount = String(10n ** 17n + 1n); }, '/message/permitted/amount'],
  ['another spender', (c: any) => { c.message.spender = attacker.address; }, '/message/spender'],
  ['another router', (c: any) => { c.message.witness.diamondAddress = attacker.address; }, '/message/witness/diamondAddress'],
  ['another chain', (c: any) => { c.domain.chainId = 10; }, '/domain/chainId'],
  ['another verifying contract', (c: any) => { c.domain.verifyingContract = attacker.address; }, '/domain/verifyingContract'],
  ['a domain with a version', (c: any) => { c.domain.version = '1'; }, '/domain/version'],
  ['changed types', (c: any) => { c.types.LiFiCall[1].name = 'callHash'; }, '/types'],
  ['another primary type', (c: any) => { c.primaryType = 'PermitTransferFrom'; }, '/primaryType'],
])('a message for %s, even signed by the user: refused naming the field', async (_name, change, field) => {
  const changed = edit(typedData, change) as Record<string, unknown>;
  // a message the types no longer describe cannot be signed at all: any signature then
  const signed = await signedBy(user, changed).catch(() => ({ ...changed, signature: `0x${'11'.repeat(65)}` }));
  expect(checkSignedWitness(signed, expected, timing, '/typedData/0')).toMatchObject({ ok: false, field: `/typedData/0${field}` });
});

test('a deadline passed, too close, or days ahead: refused', async () => {
  const at = (deadline: bigint) => permitWitnessTypedData({ ...expected, nonce: 7n, deadline });
  expect(checkSignedWitness(await signedBy(user, at(NOW - 1n)), expected, timing, '')).toMatchObject({ ok: false, code: 'EXPIRED', field: '/message/deadline' });
  expect(checkSignedWitness(await signedBy(user, at(NOW + 59n)), expected, timing, '')).toMatchObject({ ok: false, code: 'EXPIRED' });
  expect(checkSignedWitness(await signedBy(user, at(NOW + 60n)), expected, timing, '').ok).toBe(true);
  expect(checkSignedWitness(await signedBy(user, at(NOW + 3601n)), expected, timing, '')).toMatchObject({ ok: false, code: 'MISMATCH', field: '/message/deadline' });
});

test.each([
  ['no object', null, ''],
  ['no signature', { ...typedData }, '/signature'],
  ['a short signature', { ...typedData, signature: '0x1234' }, '/signature'],
  ['a nonce that is no integer', edit({ ...typedData, signature: `0x${'11'.repeat(65)}` }, (c) => { c.message.nonce = '-1'; }), '/message/nonce'],
  ['a nonce beyond 256 bits', edit({ ...typedData, signature: `0x${'11'.repeat(65)}` }, (c) => { c.message.nonce = (1n << 256n).toString(); }), '/message/nonce'],
  ['no witness', edit({ ...typedData, signature: `0x${'11'.repeat(65)}` }, (c) => { delete c.message.witness; }), '/message'],
])('malformed (%s): refused, never thrown', (_name, signed, field) => {
  expect(checkSignedWitness(signed, expected, timing, '/typedData/0')).toMatchObject({ ok: false, code: 'MALFORMED', field: `/typedData/0${field}` });
});

test('a 65-byte signature that recovers to no one: refused as a wrong signer', () => {
  const junk = { ...JSON.parse(JSON.stringify(typedData)), signature: `0x${'00'.repeat(65)}` };
  expect(checkSignedWitness(junk, expected, timing, '')).toMatchObject({ ok: false, code: 'WRONG_SIGNER', field: '/signature' });
});
