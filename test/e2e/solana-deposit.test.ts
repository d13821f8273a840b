/**
 * The bridge deposit the core builds (src/core/chains/solana/deposit.ts) executes on a real SVM: the sandbox's Solana
 * chain (LiteSVM behind its JSON-RPC), reached as a wallet reaches a cluster with the ecosystem's @solana/kit. The
 * wallet decodes the base64 transaction, signs it unchanged and sends it; the escrow receives exactly the amount, the
 * memo on chain is the transfer's (parseBridgeMemo), the compute used stays within the limit the transaction sets,
 * and the fee charged is the one the fee model states.
 */
import {
  createSolanaRpc, getBase64EncodedWireTransaction, getTransactionDecoder, partiallySignTransaction, type Address, type Signature,
} from '@solana/kit';
import type { FamilyAddress } from '../../src/core/chains/family';
import { svm } from '../../src/core/chains/svm';
import { buildBridgeDeposit, type BridgeDepositInput } from '../../src/core/chains/solana/deposit';
import { parseBridgeMemo } from '../../src/core/chains/solana/memo';
import { startSolanaDevnet, type SolanaDevnet } from '../../sandbox/solana/devnet';

jest.setTimeout(60_000);

let devnet: SolanaDevnet;
beforeAll(async () => {
  devnet = await startSolanaDevnet({ wallets: 2 });
});
afterAll(async () => {
  await devnet?.stop();
});

const TRANSFER_ID = `0x${'ab'.repeat(16)}${'00'.repeat(16)}`;
const RECEIVER = '0x552008c0f6870c2f77e5cc1d2eb9bdff03e30ea9';

async function tokenBalance(owner: string, mint: string): Promise<bigint> {
  const rpc = createSolanaRpc(devnet.url);
  const account = await devnet.tokenAccount(owner, mint);
  const { value } = await rpc.getTokenAccountBalance(account).send();
  return BigInt(value.amount);
}

/** Signs the transaction as returned (the wallet's only change: its signature) and sends it; waits until it lands. */
async function signAndSend(base64: string, walletIndex: number): Promise<{ signature: Signature; fee: bigint; unitsConsumed: bigint; logs: readonly string[]; err: unknown }> {
  const rpc = createSolanaRpc(devnet.url);
  const transaction = getTransactionDecoder().decode(Buffer.from(base64, 'base64'));
  const signed = await partiallySignTransaction([devnet.wallet(walletIndex).signer.keyPair], transaction);
  const signature = await rpc.sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: 'base64' }).send();
  for (let i = 0; i < 100; i += 1) {
    const { value } = await rpc.getSignatureStatuses([signature]).send();
    if (value[0]) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const landed = await rpc.getTransaction(signature, { encoding: 'json', maxSupportedTransactionVersion: 0 }).send();
  if (!landed?.meta) throw new Error(`transaction ${signature} did not land`);
  return { signature, fee: BigInt(landed.meta.fee), unitsConsumed: BigInt(landed.meta.computeUnitsConsumed ?? 0), logs: landed.meta.logMessages ?? [], err: landed.meta.err };
}

/** An address of the devnet as the SVM family gives it (the builder takes Solana addresses by type). */
function solana(text: string): FamilyAddress<'SVM'> {
  const address = svm.parseAddress(text);
  if (!address) throw new Error(`not a Solana address: ${text}`);
  return address;
}

async function depositInput(over: Partial<BridgeDepositInput>): Promise<BridgeDepositInput> {
  const rpc = createSolanaRpc(devnet.url);
  const { value: lifetime } = await rpc.getLatestBlockhash().send();
  return {
    sender: solana(devnet.wallet(0).address),
    escrowOwner: solana(devnet.bridgeEscrow.address),
    token: { kind: 'spl', mint: devnet.mint('USDC').address, decimals: devnet.mint('USDC').decimals },
    amount: 250_000_000n,
    bridge: 'cctp',
    transferId: TRANSFER_ID,
    destinationChainId: 42161,
    receiver: RECEIVER,
    minAmountOut: 249_000_000n,
    lifetime: { blockhash: lifetime.blockhash, lastValidBlockHeight: BigInt(lifetime.lastValidBlockHeight) },
    priorityFeeLevel: 'NORMAL',
    ...over,
  };
}

test('an SPL deposit: the escrow receives the amount, the memo names the transfer, compute and fee as stated', async () => {
  const usdc = devnet.mint('USDC').address;
  const [senderBefore, escrowBefore] = [await tokenBalance(devnet.wallet(0).address, usdc), await tokenBalance(devnet.bridgeEscrow.address, usdc)];
  // the escrow's token account exists (the sandbox funds it): no creation, no rent
  const deposit = await buildBridgeDeposit(await depositInput({ escrowTokenAccountExists: true }));
  const landed = await signAndSend(deposit.transactionBase64, 0);
  expect(landed.err).toBeNull();
  expect(await tokenBalance(devnet.wallet(0).address, usdc)).toBe(senderBefore - 250_000_000n);
  expect(await tokenBalance(devnet.bridgeEscrow.address, usdc)).toBe(escrowBefore + 250_000_000n);
  // the memo as the chain logged it reads back as the transfer
  const memoLog = landed.logs.find((line) => line.includes('xchain:v1:'));
  expect(memoLog).toBeDefined();
  const memo = parseBridgeMemo(memoLog!.slice(memoLog!.indexOf('xchain:v1:')).replace(/"$/, ''));
  expect(memo).toMatchObject({ bridge: 'cctp', transferId: TRANSFER_ID, destinationChainId: 42161, receiver: RECEIVER, minAmountOut: 249_000_000n });
  // the published compute figures hold on a real SVM, and the fee is the model's: base + priority (no rent here)
  expect(landed.unitsConsumed).toBeGreaterThan(0n);
  expect(landed.unitsConsumed).toBeLessThanOrEqual(BigInt(deposit.computeUnitLimit));
  expect(landed.fee).toBe(deposit.fees.baseFee + deposit.fees.priorityFee);
});

test('a deposit that creates the escrow account pays its rent; the account then holds exactly the amount', async () => {
  // a mint the escrow holds none of yet would need a fresh escrow: use wallet 1 as the escrow owner of USDT
  const usdt = devnet.mint('USDT');
  const owner = devnet.wallet(1).address as Address;
  const rpc = createSolanaRpc(devnet.url);
  const ownerAccount = await devnet.tokenAccount(owner, usdt.address);
  const existing = await rpc.getAccountInfo(ownerAccount, { encoding: 'base64' }).send();
  const deposit = await buildBridgeDeposit(await depositInput({ escrowOwner: solana(owner), token: { kind: 'spl', mint: usdt.address, decimals: usdt.decimals }, amount: 1_000n, escrowTokenAccountExists: existing.value !== null }));
  const lamportsBefore = (await rpc.getBalance(devnet.wallet(0).address as Address).send()).value;
  const landed = await signAndSend(deposit.transactionBase64, 0);
  expect(landed.err).toBeNull();
  expect(landed.unitsConsumed).toBeLessThanOrEqual(BigInt(deposit.computeUnitLimit));
  const lamportsAfter = (await rpc.getBalance(devnet.wallet(0).address as Address).send()).value;
  // what the sender paid in SOL: the fee, plus the rent when the account was created
  expect(BigInt(lamportsBefore) - BigInt(lamportsAfter)).toBe(deposit.fees.total);
});

test('native SOL: a System transfer to the escrow with the memo', async () => {
  const rpc = createSolanaRpc(devnet.url);
  const escrow = devnet.bridgeEscrow.address as Address;
  const before = (await rpc.getBalance(escrow).send()).value;
  const deposit = await buildBridgeDeposit(await depositInput({ token: { kind: 'native' }, amount: 2_000_000_000n, priorityFeeLevel: 'FAST' }));
  const landed = await signAndSend(deposit.transactionBase64, 0);
  expect(landed.err).toBeNull();
  expect(BigInt((await rpc.getBalance(escrow).send()).value)).toBe(BigInt(before) + 2_000_000_000n);
  expect(landed.unitsConsumed).toBeLessThanOrEqual(BigInt(deposit.computeUnitLimit));
  expect(landed.fee).toBe(deposit.fees.baseFee + deposit.fees.priorityFee);
});
