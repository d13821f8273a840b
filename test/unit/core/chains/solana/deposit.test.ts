/**
 * The deposit transaction decoded back with @solana/kit and checked instruction by instruction against hand-written
 * bytes (program ids, accounts and their roles, data), then against the program clients' parsers; its fees against
 * hand-worked arithmetic. Associated token accounts are checked against @solana/spl-token's published test vectors
 * (owner B8Uw… and mint 7o36… → DShW…; the off-curve owner DShW… and mint 7o36… → F3Dm…).
 */
import { parseSetComputeUnitLimitInstruction, parseSetComputeUnitPriceInstruction } from '@solana-program/compute-budget';
import { parseAddMemoInstruction } from '@solana-program/memo';
import { parseTransferSolInstruction } from '@solana-program/system';
import { findAssociatedTokenPda, parseTransferCheckedInstruction } from '@solana-program/token';
import {
  address,
  decompileTransactionMessage,
  generateKeyPairSigner,
  getBase58Encoder,
  getBase64EncodedWireTransaction,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  isSignerRole,
  isWritableRole,
  partiallySignTransaction,
  verifySignature,
  type Address,
  type Instruction,
  type ReadonlyUint8Array,
} from '@solana/kit';
import type { FamilyAddress } from '../../../../../src/core/chains/family';
import { buildBridgeDeposit, type BridgeDepositInput } from '../../../../../src/core/chains/solana/deposit';
import { svm } from '../../../../../src/core/chains/svm';
import { parseBridgeMemo } from '../../../../../src/core/chains/solana/memo';

const COMPUTE_BUDGET = 'ComputeBudget111111111111111111111111111111';
const ATA_PROGRAM = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';
const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const SYSTEM_PROGRAM = '11111111111111111111111111111111';
const MEMO_V3 = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr';
const MEMO_V4 = 'Memo4c2pN8afCj432Lb7RMVKi9PbQnnW7ewFFaV3oAH';

/** A wallet (the example account of the Solana RPC docs). */
const SENDER = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
/** The escrow owner and the mint of @solana/spl-token's test, and the owner's associated token account there. */
const ESCROW_OWNER = 'B8UwBUUnKwCyKuGMbFKWaG7exYdDk2ozZrPg72NyVbfj';
const MINT = '7o36UsWR1JQLpZ9PE2gn9L4SQ69CNNiWAXd4Jt7rqz9Z';
const ESCROW_ATA = 'DShWnroshVbeUp28oopA3Pu7oFPDBtC1DBmPECXXAQ9n';
/** A deterministic placeholder blockhash (32 bytes 0x01), as the embedded data passes one. */
const BLOCKHASH = '4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi';
const TRANSFER_ID = `0x${'ab'.repeat(32)}`;
const RECEIVER = '0x1212121212121212121212121212121212121212';
/** xchain:v1:cctp:0xabab…ab:42161:0x1212…12:995000 — 10 + 5 + 66 + 1 + 5 + 1 + 42 + 1 + 6 = 137 bytes. */
const MEMO = `xchain:v1:cctp:${TRANSFER_ID}:42161:${RECEIVER}:995000`;

/** A Solana address by type, as the SVM family gives one; a text that is none is cast (the builder checks again). */
const solana = (text: string) => (svm.parseAddress(text) ?? text) as FamilyAddress<'SVM'>;

const SPL_INPUT: BridgeDepositInput = {
  sender: solana(SENDER),
  escrowOwner: solana(ESCROW_OWNER),
  token: { kind: 'spl', mint: MINT, decimals: 6 },
  amount: 1_000_000n,
  bridge: 'cctp',
  transferId: TRANSFER_ID,
  destinationChainId: 42161,
  receiver: RECEIVER,
  minAmountOut: 995_000n,
  lifetime: { blockhash: BLOCKHASH, lastValidBlockHeight: 1_000n },
  priorityFeeLevel: 'NORMAL',
};
const NATIVE_INPUT: BridgeDepositInput = { ...SPL_INPUT, token: { kind: 'native' }, amount: 250_000_000n };

/** Little-endian bytes of `value` on `size` bytes. */
function le(value: bigint, size: number): number[] {
  return Array.from({ length: size }, (_, i) => Number((value >> BigInt(8 * i)) & 0xffn));
}

function decode(base64: string) {
  const wire = getBase64Encoder().encode(base64);
  const transaction = getTransactionDecoder().decode(wire);
  const compiled = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
  if (compiled.version !== 0) throw new Error(`not a v0 transaction: ${compiled.version}`);
  const decompiled = decompileTransactionMessage(compiled);
  const message = { feePayer: decompiled.feePayer, lifetimeConstraint: decompiled.lifetimeConstraint, instructions: decompiled.instructions as readonly Instruction[] };
  return { wire, transaction, compiled, message };
}

type Role = 'writable signer' | 'signer' | 'writable' | 'readonly';
function accountsOf(instruction: Instruction): Array<[string, Role]> {
  return (instruction.accounts ?? []).map(({ address: a, role }) => [
    a,
    isSignerRole(role) ? (isWritableRole(role) ? 'writable signer' : 'signer') : isWritableRole(role) ? 'writable' : 'readonly',
  ]);
}

function dataOf(instruction: Instruction): number[] {
  return Array.from(instruction.data ?? new Uint8Array());
}

/** The instruction with its data and accounts present, as the parsers take it. */
function full(instruction: Instruction) {
  return { ...instruction, accounts: instruction.accounts ?? [], data: (instruction.data ?? new Uint8Array()) as ReadonlyUint8Array };
}

describe('the SPL deposit transaction', () => {
  test('is a v0 transaction with one empty signature slot, the sender paying, on the given blockhash', async () => {
    const deposit = await buildBridgeDeposit(SPL_INPUT);
    const { wire, transaction, compiled, message } = decode(deposit.transactionBase64);
    // wire: compact-u16 signature count (1), 64 zero bytes, then the message, whose first byte 0x80 says version 0
    expect(wire[0]).toBe(1);
    expect(Array.from(wire.slice(1, 65))).toEqual(new Array(64).fill(0));
    expect(wire[65]).toBe(0x80);
    expect(wire.length).toBe(deposit.transactionSize);
    expect(deposit.transactionSize).toBeLessThanOrEqual(1232);

    expect(transaction.signatures).toEqual({ [SENDER]: null });
    expect(compiled.version).toBe(0);
    // one signer (the fee payer, writable), read-only non-signers: the mint, the escrow owner and the four programs
    expect(compiled.header).toEqual({ numSignerAccounts: 1, numReadonlySignerAccounts: 0, numReadonlyNonSignerAccounts: 7 });
    expect(compiled.staticAccounts[0]).toBe(SENDER);
    expect(compiled.staticAccounts).toHaveLength(10);
    expect(compiled.addressTableLookups ?? []).toEqual([]);
    expect(compiled.lifetimeToken).toBe(BLOCKHASH);
    expect(Array.from(getBase58Encoder().encode(compiled.lifetimeToken))).toEqual(new Array(32).fill(1));
    expect(message.feePayer.address).toBe(SENDER);
    expect(message.lifetimeConstraint).toEqual({ blockhash: BLOCKHASH, lastValidBlockHeight: expect.any(BigInt) });
    expect(deposit.feePayer).toBe(SENDER);
    expect(deposit.blockhash).toBe(BLOCKHASH);
    expect(deposit.lastValidBlockHeight).toBe(1_000n);
    expect(message.instructions.map((i) => i.programAddress)).toEqual([COMPUTE_BUDGET, COMPUTE_BUDGET, ATA_PROGRAM, TOKEN_PROGRAM, MEMO_V3]);
  });

  test('instruction by instruction: compute budget, escrow token account, transferChecked, memo', async () => {
    const deposit = await buildBridgeDeposit(SPL_INPUT);
    const [limit, price, create, transfer, memo] = decode(deposit.transactionBase64).message.instructions;
    const [senderAta] = await findAssociatedTokenPda({ owner: address(SENDER), mint: address(MINT), tokenProgram: address(TOKEN_PROGRAM) });
    const [escrowAta] = await findAssociatedTokenPda({ owner: address(ESCROW_OWNER), mint: address(MINT), tokenProgram: address(TOKEN_PROGRAM) });
    expect(escrowAta).toBe(ESCROW_ATA); // @solana/spl-token's published vector
    expect(deposit.tokenAccounts).toEqual({ sender: senderAta, escrow: ESCROW_ATA });

    // SetComputeUnitLimit: discriminator 2, u32 LE units. 150 + 150 + 25,000 + 6,500 + (2,000 + 360 × 137) = 83,120; × 1.2 = 99,744
    expect(accountsOf(limit)).toEqual([]);
    expect(dataOf(limit)).toEqual([2, ...le(99_744n, 4)]);
    expect(parseSetComputeUnitLimitInstruction(full(limit)).data.units).toBe(99_744);
    expect(deposit.computeUnitLimit).toBe(99_744);

    // SetComputeUnitPrice: discriminator 3, u64 LE micro-lamports (NORMAL on the embedded data: 10,000)
    expect(accountsOf(price)).toEqual([]);
    expect(dataOf(price)).toEqual([3, ...le(10_000n, 8)]);
    expect(parseSetComputeUnitPriceInstruction(full(price)).data.microLamports).toBe(10_000n);
    expect(deposit.computeUnitPriceMicroLamports).toBe(10_000n);

    // CreateIdempotent: discriminator 1; payer, account, owner, mint, system program, token program
    expect(dataOf(create)).toEqual([1]);
    expect(accountsOf(create)).toEqual([
      [SENDER, 'writable signer'],
      [ESCROW_ATA, 'writable'],
      [ESCROW_OWNER, 'readonly'],
      [MINT, 'readonly'],
      [SYSTEM_PROGRAM, 'readonly'],
      [TOKEN_PROGRAM, 'readonly'],
    ]);

    // TransferChecked: discriminator 12, u64 LE amount, u8 decimals; source, mint, destination, authority (signer)
    expect(dataOf(transfer)).toEqual([12, ...le(1_000_000n, 8), 6]);
    expect(accountsOf(transfer)).toEqual([
      [senderAta, 'writable'],
      [MINT, 'readonly'],
      [ESCROW_ATA, 'writable'],
      [SENDER, 'writable signer'], // the fee payer's role in the transaction
    ]);
    expect(parseTransferCheckedInstruction(full(transfer)).data).toEqual({ discriminator: 12, amount: 1_000_000n, decimals: 6 });

    // Memo: the UTF-8 text as data, no signer accounts
    expect(accountsOf(memo)).toEqual([]);
    expect(Buffer.from(dataOf(memo)).toString('utf8')).toBe(MEMO);
    expect(parseAddMemoInstruction(full(memo)).data.memo).toBe(MEMO);
    expect(parseBridgeMemo(MEMO)).toEqual({ bridge: 'cctp', transferId: TRANSFER_ID, destinationChainId: 42161, receiver: RECEIVER, minAmountOut: 995_000n });
    expect(deposit.memo).toBe(MEMO);
  });

  test('its readable instructions say the same, with the units budgeted for each', async () => {
    const deposit = await buildBridgeDeposit(SPL_INPUT);
    expect(deposit.instructions.map(({ kind, programAddress, computeUnits }) => [kind, programAddress, computeUnits])).toEqual([
      ['setComputeUnitLimit', COMPUTE_BUDGET, 150],
      ['setComputeUnitPrice', COMPUTE_BUDGET, 150],
      ['createAssociatedTokenIdempotent', ATA_PROGRAM, 25_000],
      ['transferChecked', TOKEN_PROGRAM, 6_500],
      ['memo', MEMO_V3, 51_320],
    ]);
    expect(deposit.instructions[2]).toMatchObject({ payer: SENDER, account: ESCROW_ATA, owner: ESCROW_OWNER, mint: MINT });
    expect(deposit.instructions[3]).toMatchObject({ destination: ESCROW_ATA, mint: MINT, authority: SENDER, amount: 1_000_000n, decimals: 6 });
    expect(deposit.instructions[4]).toMatchObject({ text: MEMO });
    for (const instruction of deposit.instructions) expect(instruction.description.length).toBeGreaterThan(10);
  });

  test('costs 5,000 + 998 + 2,039,280 lamports when it creates the escrow token account (NORMAL)', async () => {
    const { fees } = await buildBridgeDeposit(SPL_INPUT);
    // priority: ceil(99,744 × 10,000 / 10⁶) = ceil(997.44) = 998; rent: (165 + 128) × 3,480 × 2 = 2,039,280
    expect(fees).toEqual({ baseFee: 5_000n, priorityFee: 998n, rent: 2_039_280n, total: 2_045_278n });
  });

  test('leaves the creation out when the escrow token account is known to exist', async () => {
    const deposit = await buildBridgeDeposit({ ...SPL_INPUT, escrowTokenAccountExists: true });
    const { message } = decode(deposit.transactionBase64);
    expect(message.instructions.map((i) => i.programAddress)).toEqual([COMPUTE_BUDGET, COMPUTE_BUDGET, TOKEN_PROGRAM, MEMO_V3]);
    // 150 + 150 + 6,500 + 51,320 = 58,120; × 1.2 = 69,744; priority ceil(697.44) = 698
    expect(deposit.computeUnitLimit).toBe(69_744);
    expect(deposit.fees).toEqual({ baseFee: 5_000n, priorityFee: 698n, rent: 0n, total: 5_698n });
    // told it does not exist: the same as unknown
    const told = await buildBridgeDeposit({ ...SPL_INPUT, escrowTokenAccountExists: false });
    expect(told.transactionBase64).toBe((await buildBridgeDeposit(SPL_INPUT)).transactionBase64);
  });

  test("pays into an off-curve escrow owner's (a program-derived address) token account", async () => {
    // @solana/spl-token's vector: owner DShW… (itself an associated token account, off the curve), mint 7o36… → F3Dm…
    const deposit = await buildBridgeDeposit({ ...SPL_INPUT, escrowOwner: solana(ESCROW_ATA) });
    expect(deposit.tokenAccounts?.escrow).toBe('F3DmXZFqkfEWFA7MN2vDPs813GeEWPaT6nLk4PSGuWJd');
    const [, , create, transfer] = decode(deposit.transactionBase64).message.instructions;
    expect(accountsOf(create).slice(1, 3)).toEqual([
      ['F3DmXZFqkfEWFA7MN2vDPs813GeEWPaT6nLk4PSGuWJd', 'writable'],
      [ESCROW_ATA, 'readonly'],
    ]);
    expect(accountsOf(transfer)[2]).toEqual(['F3DmXZFqkfEWFA7MN2vDPs813GeEWPaT6nLk4PSGuWJd', 'writable']);
  });

  test('can carry the memo through p-memo (v4) instead, for less', async () => {
    const deposit = await buildBridgeDeposit({ ...SPL_INPUT, memoProgram: 'v4' });
    const { message } = decode(deposit.transactionBase64);
    expect(message.instructions[4].programAddress).toBe(MEMO_V4);
    // 150 + 150 + 25,000 + 6,500 + (300 + 137) = 32,237; × 1.2 = 38,684.4 → 38,685
    expect(deposit.computeUnitLimit).toBe(38_685);
  });
});

describe('the native SOL deposit transaction', () => {
  test('transfers lamports to the escrow owner with the same memo', async () => {
    const deposit = await buildBridgeDeposit(NATIVE_INPUT);
    const { compiled, message } = decode(deposit.transactionBase64);
    expect(compiled.version).toBe(0);
    expect(compiled.staticAccounts[0]).toBe(SENDER);
    expect(message.feePayer.address).toBe(SENDER);
    const [limit, price, transfer, memo] = message.instructions;
    expect(message.instructions.map((i) => i.programAddress)).toEqual([COMPUTE_BUDGET, COMPUTE_BUDGET, SYSTEM_PROGRAM, MEMO_V3]);
    // 150 + 150 + 150 + 51,320 = 51,770; × 1.2 = 62,124
    expect(dataOf(limit)).toEqual([2, ...le(62_124n, 4)]);
    expect(dataOf(price)).toEqual([3, ...le(10_000n, 8)]);
    // System Transfer: u32 LE discriminator 2, u64 LE lamports; source (signer), destination
    expect(dataOf(transfer)).toEqual([2, 0, 0, 0, ...le(250_000_000n, 8)]);
    expect(accountsOf(transfer)).toEqual([
      [SENDER, 'writable signer'],
      [ESCROW_OWNER, 'writable'],
    ]);
    expect(parseTransferSolInstruction(full(transfer)).data.amount).toBe(250_000_000n);
    expect(Buffer.from(dataOf(memo)).toString('utf8')).toBe(MEMO);
    expect(deposit.tokenAccounts).toBeUndefined();
    // priority ceil(62,124 × 10,000 / 10⁶) = ceil(621.24) = 622; no rent
    expect(deposit.fees).toEqual({ baseFee: 5_000n, priorityFee: 622n, rent: 0n, total: 5_622n });
  });
});

describe('priority levels', () => {
  test('on the embedded data each level sets its fixed price, and so the fee and the bytes', async () => {
    const byLevel = await Promise.all((['NORMAL', 'FAST', 'ULTRA'] as const).map((priorityFeeLevel) => buildBridgeDeposit({ ...SPL_INPUT, priorityFeeLevel })));
    expect(byLevel.map((d) => d.computeUnitPriceMicroLamports)).toEqual([10_000n, 100_000n, 1_000_000n]);
    expect(byLevel.map((d) => d.computeUnitLimit)).toEqual([99_744, 99_744, 99_744]);
    // ceil(99,744 × price / 10⁶): 997.44 → 998; 9,974.4 → 9,975; 99,744
    expect(byLevel.map((d) => d.fees.priorityFee)).toEqual([998n, 9_975n, 99_744n]);
    expect(byLevel.map((d) => d.fees.total)).toEqual([2_045_278n, 2_054_255n, 2_144_024n]);
    for (const d of byLevel) {
      const price = decode(d.transactionBase64).message.instructions[1];
      expect(dataOf(price)).toEqual([3, ...le(d.computeUnitPriceMicroLamports, 8)]);
    }
    expect(new Set(byLevel.map((d) => d.transactionBase64)).size).toBe(3);
  });

  test("in chain mode each level takes its percentile of the recent fees", async () => {
    // sorted: 0, 0, 0, 0, 5,000, 12,000, 20,000, 50,000, 100,000, 2,500,000 → NORMAL 5,000 (rank 5), FAST 50,000 (rank 8), ULTRA 2,500,000 (rank 10)
    const recentPrioritizationFees = [0n, 20_000n, 0n, 5_000n, 2_500_000n, 0n, 100_000n, 12_000n, 0n, 50_000n];
    const byLevel = await Promise.all(
      (['NORMAL', 'FAST', 'ULTRA'] as const).map((priorityFeeLevel) => buildBridgeDeposit({ ...NATIVE_INPUT, priorityFeeLevel, recentPrioritizationFees })),
    );
    expect(byLevel.map((d) => d.computeUnitPriceMicroLamports)).toEqual([5_000n, 50_000n, 2_500_000n]);
    // ceil(62,124 × price / 10⁶): 310.62 → 311; 3,106.2 → 3,107; 155,310
    expect(byLevel.map((d) => d.fees.priorityFee)).toEqual([311n, 3_107n, 155_310n]);
    // quiet slots: the floors
    const quiet = await buildBridgeDeposit({ ...NATIVE_INPUT, recentPrioritizationFees: [0n, 0n] });
    expect(quiet.computeUnitPriceMicroLamports).toBe(1_000n);
    expect(dataOf(decode(quiet.transactionBase64).message.instructions[1])).toEqual([3, ...le(1_000n, 8)]);
  });
});

describe('determinism and validation', () => {
  test('the same input gives the same bytes; another transfer id, other bytes', async () => {
    const [a, b] = await Promise.all([buildBridgeDeposit(SPL_INPUT), buildBridgeDeposit({ ...SPL_INPUT })]);
    expect(a.transactionBase64).toBe(b.transactionBase64);
    expect(a).toEqual(b);
    const other = await buildBridgeDeposit({ ...SPL_INPUT, transferId: `0x${'cd'.repeat(32)}` });
    expect(other.transactionBase64).not.toBe(a.transactionBase64);
    // upper-case hex is the same transfer
    const upper = await buildBridgeDeposit({ ...SPL_INPUT, transferId: TRANSFER_ID.toUpperCase().replace('0X', '0x') });
    expect(upper.transactionBase64).toBe(a.transactionBase64);
  });

  test("a wallet signs it unchanged: its key fills the one slot, the message bytes stay", async () => {
    const wallet = await generateKeyPairSigner();
    const deposit = await buildBridgeDeposit({ ...SPL_INPUT, sender: solana(wallet.address) });
    const unsigned = getTransactionDecoder().decode(getBase64Encoder().encode(deposit.transactionBase64));
    const signed = await partiallySignTransaction([wallet.keyPair], unsigned);
    expect(signed.messageBytes).toEqual(unsigned.messageBytes);
    const signature = signed.signatures[wallet.address as Address];
    expect(signature).not.toBeNull();
    expect(await verifySignature(wallet.keyPair.publicKey, signature!, signed.messageBytes)).toBe(true);
    // the same size on the wire: only the 64 signature bytes changed
    const wire = getBase64Encoder().encode(getBase64EncodedWireTransaction(signed));
    expect(wire.length).toBe(deposit.transactionSize);
  });

  test.each<[string, Partial<BridgeDepositInput>, RegExp]>([
    ['a sender that is not base58 of 32 bytes', { sender: solana('0x1212121212121212121212121212121212121212') }, /^sender is not a Solana address/],
    ['an escrow owner that is not an address', { escrowOwner: solana('escrow') }, /^escrow owner is not a Solana address/],
    ['the sender as escrow owner', { escrowOwner: solana(SENDER) }, /cannot be the escrow owner/],
    ['a bad mint', { token: { kind: 'spl', mint: 'nope', decimals: 6 } }, /^mint is not a Solana address/],
    ['decimals over 255', { token: { kind: 'spl', mint: MINT, decimals: 256 } }, /^decimals must be from 0 to 255/],
    ['fractional decimals', { token: { kind: 'spl', mint: MINT, decimals: 1.5 } }, /^decimals must be from 0 to 255/],
    ['amount 0', { amount: 0n }, /^amount must be from 1 to 2\^64 - 1: 0$/],
    ['an amount over u64', { amount: 2n ** 64n }, /^amount must be from 1 to 2\^64 - 1: 18446744073709551616$/],
    ['a short transfer id', { transferId: '0x1234' }, /^transferId must be 0x \+ 64 hex/],
    ['a receiver that is not hex', { receiver: 'alice' }, /^receiver must be 0x \+ hex/],
    ['a destination chain id of 0', { destinationChainId: 0 }, /^destination chain id must be a positive integer/],
    ['a negative minimum', { minAmountOut: -1n }, /^minimum amount out must not be negative/],
    ['a bad blockhash', { lifetime: { blockhash: 'abc', lastValidBlockHeight: 1n } }, /^blockhash must be base58 of 32 bytes/],
    ['a negative last valid block height', { lifetime: { blockhash: BLOCKHASH, lastValidBlockHeight: -1n } }, /^bad lastValidBlockHeight/],
    ['an unknown level', { priorityFeeLevel: 'SLOW' as never }, /^unknown priority fee level: SLOW/],
    ['an unknown memo program', { memoProgram: 'v2' as never }, /^unknown memo program: v2/],
  ])('refuses %s', async (_, change, message) => {
    await expect(buildBridgeDeposit({ ...SPL_INPUT, ...change })).rejects.toThrow(message);
  });

  test('refuses a transaction over 1,232 bytes (a receiver of 600 bytes)', async () => {
    await expect(buildBridgeDeposit({ ...SPL_INPUT, receiver: `0x${'11'.repeat(600)}`, memoProgram: 'v4' })).rejects.toThrow(/has 1772 bytes, over the 1232/);
  });

  test('refuses a memo whose compute units pass what a transaction may request', async () => {
    // a 2,900-byte receiver makes a memo of 10 + 5 + 66 + 1 + 5 + 1 + 5,802 + 1 + 6 = 5,897 bytes: 2,000 + 360 × 5,897 = 2,124,920 units (before the margin), over 1,400,000, refused before the size is checked
    await expect(buildBridgeDeposit({ ...SPL_INPUT, receiver: `0x${'11'.repeat(2_900)}` })).rejects.toThrow(/over the 1400000/);
  });

  test('takes the largest u64 amount', async () => {
    const deposit = await buildBridgeDeposit({ ...SPL_INPUT, amount: 2n ** 64n - 1n });
    expect(dataOf(decode(deposit.transactionBase64).message.instructions[3])).toEqual([12, ...new Array(8).fill(0xff), 6]);
  });
});
