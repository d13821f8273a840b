/**
 * The sandbox's Solana chain (sandbox/solana: LiteSVM behind a JSON-RPC endpoint) used as a wallet uses a cluster,
 * with @solana/kit's own clients over HTTP (createSolanaRpc) and WebSocket (createSolanaRpcSubscriptions): the
 * catalog's mints at their mainnet addresses, a v0 transaction with compute-budget instructions, an SPL
 * transferChecked to an associated token account created in the same transaction and a memo, tracked and read back
 * (statuses, transaction meta, signatures per address, prioritization fees); a failing transfer refused by preflight
 * with the real RPC's error and landing as failed with skipPreflight; simulation flags; blockhash expiry.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  airdropFactory,
  appendTransactionMessageInstructions,
  blockhash,
  compileTransaction,
  compileTransactionMessage,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase58Decoder,
  getBase64Decoder,
  getBase64EncodedWireTransaction,
  getCompiledTransactionMessageEncoder,
  getSignatureFromTransaction,
  getTransactionEncoder,
  isSolanaError,
  lamports,
  pipe,
  sendAndConfirmTransactionFactory,
  setTransactionMessageFeePayer,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM,
  SOLANA_ERROR__JSON_RPC__INVALID_PARAMS,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_TRANSACTION_SIGNATURE_VERIFICATION_FAILURE,
  type Address,
  type Instruction,
  type KeyPairSigner,
  type Rpc,
  type SolanaRpcApi,
  type Signature,
  type TransactionMessageBytesBase64,
} from '@solana/kit';
import { getSetComputeUnitLimitInstruction, getSetComputeUnitPriceInstruction } from '@solana-program/compute-budget';
import { getAddMemoInstruction, MEMO_PROGRAM_ADDRESS } from '@solana-program/memo';
import { findAssociatedTokenPda, getCreateAssociatedTokenIdempotentInstruction, getTransferCheckedInstruction, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { BRIDGE_ESCROW_ADDRESS, SOLANA_CHAIN_ID, startSolanaDevnet, walletAddress, type SolanaDevnet } from '../../sandbox/solana/devnet';
import { isListedOnly } from '../../src/core/entities';

jest.setTimeout(30_000);

let devnet: SolanaDevnet;
let rpc: Rpc<SolanaRpcApi>;

beforeAll(async () => {
  devnet = await startSolanaDevnet({ wallets: 2 });
  rpc = createSolanaRpc(devnet.url);
});

afterAll(async () => {
  await devnet?.stop();
});

const json = (value: unknown) => JSON.parse(JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? v.toString() : v)));

/** A raw JSON-RPC call (to see the exact wire shape, which kit's client turns into objects and errors). */
async function raw(method: string, params: unknown[]): Promise<{ result?: unknown; error?: { code: number; message: string; data?: Record<string, unknown> } }> {
  const response = await fetch(devnet.url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return (await response.json()) as never;
}

async function ata(owner: Address, mint: Address): Promise<Address> {
  const [address] = await findAssociatedTokenPda({ owner, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  return address;
}

/** Builds, signs (the fee payer's KeyPairSigner) and returns a v0 transaction on the latest blockhash. */
async function signedTransaction(payer: KeyPairSigner, instructions: readonly Instruction[]) {
  const { value: latest } = await rpc.getLatestBlockhash().send();
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(payer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  const transaction = await signTransactionMessageWithSigners(message);
  const messageBase64 = getBase64Decoder().decode(getCompiledTransactionMessageEncoder().encode(compileTransactionMessage(message))) as TransactionMessageBytesBase64;
  return { transaction, wire: getBase64EncodedWireTransaction(transaction), signature: getSignatureFromTransaction(transaction), messageBase64, latest };
}

/** Polls getSignatureStatuses as a status tracker does until the transaction is finalized. */
async function waitFinalized(signature: Signature) {
  for (let i = 0; i < 100; i++) {
    const { value: [status] } = await rpc.getSignatureStatuses([signature], { searchTransactionHistory: true }).send();
    if (status?.confirmationStatus === 'finalized') return status;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${signature} not finalized`);
}

const tokenBalance = async (account: Address) => BigInt((await rpc.getTokenAccountBalance(account).send()).value.amount);

test('the catalog\'s SPL tokens are mints at their mainnet addresses with its decimals; the chain answers as a node', async () => {
  const catalog = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'data', 'catalog', 'tokens.json'), 'utf8')) as { tokens: { chainId: number; address: string; symbol: string; decimals: number; priceUSD: string }[] };
  // the catalog's routed SPL tokens (a listed-only token, no price and no route, is no mint of the devnet)
  const spl = catalog.tokens.filter((t) => t.chainId === SOLANA_CHAIN_ID && t.symbol !== 'SOL' && !isListedOnly(t));
  expect(catalog.tokens.filter((t) => t.chainId === SOLANA_CHAIN_ID && isListedOnly(t)).length).toBeGreaterThan(100);
  expect(spl.map((t) => t.symbol)).toEqual(expect.arrayContaining(['USDC', 'USDT', 'wSOL']));
  expect(devnet.mint('USDC').address).toBe('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v');
  expect(devnet.mint('USDT').address).toBe('Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB');
  const { value: accounts } = await rpc.getMultipleAccounts(spl.map((t) => t.address as Address), { encoding: 'jsonParsed' }).send();
  accounts.forEach((account, i) => {
    const token = spl[i];
    expect(account?.owner).toBe(TOKEN_PROGRAM_ADDRESS);
    const parsed = (account?.data as { parsed: { type: string; info: { decimals: number; mintAuthority: string | null; isInitialized: boolean } } }).parsed;
    expect(parsed.type).toBe('mint');
    expect(parsed.info.decimals).toBe(token.decimals);
    expect(parsed.info.isInitialized).toBe(true);
    expect(parsed.info.mintAuthority).toBe(token.symbol === 'wSOL' ? null : devnet.mintAuthority.address);
  });
  // native SOL is no mint: its "address" is the system program
  expect(() => devnet.mint('SOL')).toThrow();

  // every wallet holds every token in its associated token account; the bridge escrow holds the liquidity
  expect(devnet.bridgeEscrow.address).toBe(BRIDGE_ESCROW_ADDRESS);
  expect(devnet.wallet(1).address).toBe(walletAddress(1));
  const { value: held } = await rpc.getTokenAccountsByOwner(devnet.wallet(1).address, { programId: TOKEN_PROGRAM_ADDRESS }, { encoding: 'jsonParsed' }).send();
  expect(held).toHaveLength(spl.length);
  for (const { pubkey, account } of held) {
    const info = (account.data as { parsed: { info: { mint: Address; owner: string; tokenAmount: { amount: string; decimals: number } } } }).parsed.info;
    expect(pubkey).toBe(await ata(devnet.wallet(1).address, info.mint));
    expect(info.owner).toBe(devnet.wallet(1).address);
    const decimals = spl.find((t) => t.address === info.mint)!.decimals;
    expect(info.tokenAmount).toEqual({ amount: String((info.mint === devnet.mint('wSOL').address ? 10_000n : 10_000_000n) * 10n ** BigInt(decimals)), decimals, uiAmount: expect.any(Number), uiAmountString: expect.any(String) });
  }
  expect(await tokenBalance(await ata(BRIDGE_ESCROW_ADDRESS, devnet.mint('USDC').address))).toBe(1_000_000_000n * 10n ** 6n);
  expect((await rpc.getBalance(devnet.wallet(0).address).send()).value).toBeGreaterThan(999_000n * 10n ** 9n);

  expect(await rpc.getHealth().send()).toBe('ok');
  expect(await rpc.getGenesisHash().send()).toBe('5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d');
  expect((await rpc.getVersion().send())['solana-core']).toMatch(/^\d+\.\d+\.\d+$/);
  const [slot, height, epoch] = await Promise.all([rpc.getSlot().send(), rpc.getBlockHeight().send(), rpc.getEpochInfo().send()]);
  expect(epoch.absoluteSlot).toBe(slot);
  expect(epoch.blockHeight).toBe(height);
  expect((await rpc.getMinimumBalanceForRentExemption(165n).send())).toBe(2_039_280n);
});

test('a wallet\'s v0 transaction: compute budget, ATA created idempotently, transferChecked and memo, tracked to finalized', async () => {
  const [w0, w1] = [devnet.wallet(0), devnet.wallet(1)];
  const usdc = devnet.mint('USDC');
  const [source, destination] = await Promise.all([ata(w0.address, usdc.address), ata(w1.address, usdc.address)]);
  const amount = 1_234_567n;
  const memo = 'sandbox transfer 1';
  const unitPrice = 50_000n;
  const tx = await signedTransaction(w0.signer, [
    getSetComputeUnitLimitInstruction({ units: 200_000 }),
    getSetComputeUnitPriceInstruction({ microLamports: unitPrice }),
    getCreateAssociatedTokenIdempotentInstruction({ payer: w0.signer, ata: destination, owner: w1.address, mint: usdc.address }),
    getTransferCheckedInstruction({ source, mint: usdc.address, destination, authority: w0.signer, amount, decimals: usdc.decimals }),
    getAddMemoInstruction({ memo }),
  ]);
  const { value: quotedFee } = await rpc.getFeeForMessage(tx.messageBase64).send();
  expect(quotedFee).toBe(5_000n + (unitPrice * 200_000n) / 1_000_000n);
  const [sourceBefore, destinationBefore, slotBefore] = await Promise.all([tokenBalance(source), tokenBalance(destination), rpc.getSlot().send()]);
  const { value: solBefore } = await rpc.getBalance(w0.address).send();

  expect(await rpc.sendTransaction(tx.wire, { encoding: 'base64' }).send()).toBe(tx.signature);
  const status = await waitFinalized(tx.signature);
  expect(status.err).toBeNull();
  expect(status.slot).toBe(slotBefore + 1n); // one block per transaction

  // balances moved by exactly the amount; the fee payer paid exactly the fee
  expect(await tokenBalance(source)).toBe(sourceBefore - amount);
  expect(await tokenBalance(destination)).toBe(destinationBefore + amount);
  const { value: byOwner } = await rpc.getTokenAccountsByOwner(w1.address, { mint: usdc.address }, { encoding: 'jsonParsed' }).send();
  expect(byOwner.map((a) => a.pubkey)).toEqual([destination]);
  expect((byOwner[0].account.data as { parsed: { info: { tokenAmount: { amount: string } } } }).parsed.info.tokenAmount.amount).toBe(String(destinationBefore + amount));
  expect((await rpc.getBalance(w0.address).send()).value).toBe(solBefore - quotedFee!);

  // the blockhash moved on with the block
  const { value: latest } = await rpc.getLatestBlockhash().send();
  expect(latest.blockhash).not.toBe(tx.latest.blockhash);
  expect(latest.lastValidBlockHeight).toBe(tx.latest.lastValidBlockHeight + 1n);

  // getTransaction (json): the memo's log, the token balances, the fee
  const got = await rpc.getTransaction(tx.signature, { encoding: 'json', maxSupportedTransactionVersion: 0 }).send();
  expect(got).not.toBeNull();
  expect(got!.slot).toBe(status.slot);
  expect(got!.version).toBe(0);
  expect(typeof got!.blockTime).toBe('bigint');
  const meta = got!.meta!;
  expect(meta.err).toBeNull();
  expect(meta.fee).toBe(quotedFee);
  expect(meta.preBalances[0] - meta.postBalances[0]).toBe(quotedFee);
  expect(meta.computeUnitsConsumed).toBeGreaterThan(0n);
  // the memo program (v4, at @solana-program/memo's address) logs the memo's length, then the memo
  const memoLog = meta.logMessages!.indexOf(`Program ${MEMO_PROGRAM_ADDRESS} invoke [1]`);
  expect(memoLog).toBeGreaterThan(0);
  expect(meta.logMessages!.slice(memoLog + 1, memoLog + 3)).toEqual([`Program log: Memo (len ${memo.length})`, `Program log: ${memo}`]);
  const keys = got!.transaction.message.accountKeys;
  const balanceOf = (list: typeof meta.postTokenBalances, account: Address) => list!.find((b) => keys[Number(b.accountIndex)] === account);
  expect(json(balanceOf(meta.preTokenBalances, source))).toMatchObject({ mint: usdc.address, owner: w0.address, programId: TOKEN_PROGRAM_ADDRESS, uiTokenAmount: { amount: String(sourceBefore), decimals: 6 } });
  expect(json(balanceOf(meta.postTokenBalances, source))).toMatchObject({ uiTokenAmount: { amount: String(sourceBefore - amount) } });
  expect(json(balanceOf(meta.postTokenBalances, destination))).toMatchObject({ owner: w1.address, uiTokenAmount: { amount: String(destinationBefore + amount) } });
  expect(got!.transaction.message.recentBlockhash).toBe(tx.latest.blockhash);
  expect(got!.transaction.signatures).toEqual([tx.signature]);

  // jsonParsed: what a tracker reads the transfer and the memo from
  const parsed = await rpc.getTransaction(tx.signature, { encoding: 'jsonParsed', maxSupportedTransactionVersion: 0 }).send();
  const instructions = parsed!.transaction.message.instructions as readonly { program?: string; parsed?: unknown; programId: string }[];
  expect(instructions.find((i) => i.program === 'spl-token')?.parsed).toEqual({
    type: 'transferChecked',
    info: { source, mint: usdc.address, destination, authority: w0.address, tokenAmount: { amount: String(amount), decimals: 6n, uiAmount: 1.234567, uiAmountString: '1.234567' } },
  });
  expect(instructions.find((i) => i.program === 'spl-memo')?.parsed).toBe(memo);
  expect(instructions.find((i) => i.program === 'spl-associated-token-account')?.parsed).toMatchObject({ type: 'createIdempotent', info: { account: destination, wallet: w1.address, mint: usdc.address } });
  expect(json(parsed!.transaction.message.accountKeys[0])).toEqual({ pubkey: w0.address, signer: true, source: 'transaction', writable: true });

  // listed for both wallets (newest first), with the memo as the node formats it
  for (const owner of [w0.address, w1.address, source, destination]) {
    const [entry] = await rpc.getSignaturesForAddress(owner, { limit: 1 }).send();
    expect(entry).toMatchObject({ signature: tx.signature, slot: status.slot, err: null, memo: `[${memo.length}] ${memo}`, confirmationStatus: 'finalized' });
  }
  const older = await rpc.getSignaturesForAddress(w0.address, { before: tx.signature, limit: 2 }).send();
  expect(older.length).toBe(2);
  expect(older.every((e) => e.slot < status.slot)).toBe(true);

  // prioritization fees: the block's (and the written accounts') lowest compute-unit price
  const fees = await rpc.getRecentPrioritizationFees([source]).send();
  expect(fees.find((f) => f.slot === status.slot)?.prioritizationFee).toBe(unitPrice);
  expect(fees.length).toBeLessThanOrEqual(150);
  expect((await rpc.getRecentPrioritizationFees().send()).find((f) => f.slot === status.slot)?.prioritizationFee).toBe(unitPrice);

  // getBlock carries it too
  const block = await rpc.getBlock(status.slot, { maxSupportedTransactionVersion: 0, transactionDetails: 'signatures', rewards: false }).send();
  expect(block!.signatures).toEqual([tx.signature]);

  // without maxSupportedTransactionVersion the node refuses a v0 transaction, as the real one does
  const legacyOnly = await raw('getTransaction', [tx.signature, { encoding: 'json' }]);
  expect(legacyOnly.error?.code).toBe(-32015);
});

test('a transfer of more than the balance: refused by preflight with the node\'s error, landing failed with skipPreflight', async () => {
  const w0 = devnet.wallet(0);
  const usdc = devnet.mint('USDC');
  const [source, destination] = await Promise.all([ata(w0.address, usdc.address), ata(devnet.wallet(1).address, usdc.address)]);
  const held = await tokenBalance(source);
  const tx = await signedTransaction(w0.signer, [
    getSetComputeUnitPriceInstruction({ microLamports: 1_000n }),
    getTransferCheckedInstruction({ source, mint: usdc.address, destination, authority: w0.signer, amount: held + 1n, decimals: usdc.decimals }),
  ]);

  // preflight: kit's client throws the -32002 SolanaError, its cause the instruction's custom error (TokenError::InsufficientFunds)
  let thrown: unknown;
  try {
    await rpc.sendTransaction(tx.wire, { encoding: 'base64' }).send();
  } catch (error) {
    thrown = error;
  }
  expect(isSolanaError(thrown, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE)).toBe(true);
  const preflight = thrown as { context: { logs: string[]; unitsConsumed: bigint }; cause: unknown };
  expect(preflight.context.logs).toEqual(expect.arrayContaining(['Program log: Error: insufficient funds']));
  expect(preflight.context.unitsConsumed).toBeGreaterThan(0n);
  expect(isSolanaError(preflight.cause, SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM)).toBe(true);
  expect((preflight.cause as { context: { code: number; index: number } }).context).toMatchObject({ code: 1, index: 1 });
  // the wire shape of the real RPC
  const refused = await raw('sendTransaction', [tx.wire, { encoding: 'base64' }]);
  expect(refused.error).toMatchObject({
    code: -32002,
    message: 'Transaction simulation failed: Error processing Instruction 1: custom program error: 0x1',
    data: { err: { InstructionError: [1, { Custom: 1 }] }, accounts: null, logs: expect.arrayContaining(['Program log: Error: insufficient funds']), unitsConsumed: expect.any(Number) },
  });
  expect((await rpc.getSignatureStatuses([tx.signature], { searchTransactionHistory: true }).send()).value).toEqual([null]);

  // skipPreflight: it lands, failed, its fee charged and nothing else changed
  const { value: solBefore } = await rpc.getBalance(w0.address).send();
  expect(await rpc.sendTransaction(tx.wire, { encoding: 'base64', skipPreflight: true }).send()).toBe(tx.signature);
  const status = await waitFinalized(tx.signature);
  // (kit's client reads the JSON numbers of the error as bigints)
  expect(status.err).toEqual({ InstructionError: [1n, { Custom: 1n }] });
  expect(status.status).toEqual({ Err: { InstructionError: [1n, { Custom: 1n }] } });
  const got = await rpc.getTransaction(tx.signature, { encoding: 'json', maxSupportedTransactionVersion: 0 }).send();
  expect(got!.meta!.err).toEqual({ InstructionError: [1n, { Custom: 1n }] });
  expect(got!.meta!.logMessages).toEqual(expect.arrayContaining(['Program log: Error: insufficient funds']));
  expect(json(got!.meta!.preTokenBalances)).toEqual(json(got!.meta!.postTokenBalances));
  // no SetComputeUnitLimit: 3,000 CU for the compute-budget instruction (a builtin) + 200,000 for the token program's, at 1,000 micro-lamports
  expect(got!.meta!.fee).toBe(5_000n + 203n);
  expect((await rpc.getFeeForMessage(tx.messageBase64).send()).value).toBe(got!.meta!.fee);
  expect((await rpc.getBalance(w0.address).send()).value).toBe(solBefore - got!.meta!.fee);
  expect(await tokenBalance(source)).toBe(held);
  const [listed] = await rpc.getSignaturesForAddress(w0.address, { limit: 1 }).send();
  expect(listed.signature).toBe(tx.signature);
  expect(listed.err).toEqual({ InstructionError: [1n, { Custom: 1n }] });

  // sending it again: already processed (preflight), a no-op with skipPreflight
  const again = await raw('sendTransaction', [tx.wire, { encoding: 'base64' }]);
  expect(again.error).toMatchObject({ code: -32002, data: { err: 'AlreadyProcessed' } });
});

test('sendAndConfirmTransactionFactory and airdropFactory over the WebSocket endpoint', async () => {
  const rpcSubscriptions = createSolanaRpcSubscriptions(devnet.wsUrl);
  const sendAndConfirm = sendAndConfirmTransactionFactory({ rpc, rpcSubscriptions });
  const w1 = devnet.wallet(1);
  const usdc = devnet.mint('USDC');
  const fresh = await generateKeyPairSigner();
  const destination = await ata(fresh.address, usdc.address);
  const tx = await signedTransaction(w1.signer, [
    getCreateAssociatedTokenIdempotentInstruction({ payer: w1.signer, ata: destination, owner: fresh.address, mint: usdc.address }),
    getTransferCheckedInstruction({ source: await ata(w1.address, usdc.address), mint: usdc.address, destination, authority: w1.signer, amount: 5_000_000n, decimals: 6 }),
  ]);
  await sendAndConfirm(tx.transaction as never, { commitment: 'confirmed' });
  expect(await tokenBalance(destination)).toBe(5_000_000n);
  // the new associated token account has no pre token balance and a post one
  const got = await rpc.getTransaction(tx.signature, { encoding: 'json', maxSupportedTransactionVersion: 0 }).send();
  const index = got!.transaction.message.accountKeys.indexOf(destination);
  expect(got!.meta!.preTokenBalances!.some((b) => Number(b.accountIndex) === index)).toBe(false);
  expect(got!.meta!.postTokenBalances!.find((b) => Number(b.accountIndex) === index)?.uiTokenAmount.amount).toBe('5000000');

  const airdrop = airdropFactory({ rpc, rpcSubscriptions });
  await airdrop({ recipientAddress: fresh.address, lamports: lamports(2_000_000_000n), commitment: 'confirmed' });
  expect((await rpc.getBalance(fresh.address).send()).value).toBe(2_000_000_000n);

  // slot notifications move with the blocks
  const abort = new AbortController();
  const slots = await rpcSubscriptions.slotNotifications().subscribe({ abortSignal: abort.signal });
  const next = (async () => {
    for await (const n of slots) return n;
    return undefined;
  })();
  devnet.ledger.tick();
  const notified = await next;
  abort.abort();
  expect(notified?.slot).toBe(await rpc.getSlot().send());
});

test('simulateTransaction: replaceRecentBlockhash, sigVerify, inner instructions and accounts', async () => {
  const payer = devnet.wallet(0);
  const owner = (await generateKeyPairSigner()).address;
  const usdc = devnet.mint('USDC');
  const account = await ata(owner, usdc.address);
  // unsigned, on a blockhash the chain never produced (what a fee estimator simulates)
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(payer.address, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: blockhash('11111111111111111111111111111111'), lastValidBlockHeight: 0n }, m),
    (m) => appendTransactionMessageInstructions([getCreateAssociatedTokenIdempotentInstruction({ payer: payer.signer, ata: account, owner, mint: usdc.address })], m),
  );
  const wire = getBase64EncodedWireTransaction(compileTransaction(message));

  const stale = await rpc.simulateTransaction(wire, { encoding: 'base64' }).send();
  expect(stale.value.err).toBe('BlockhashNotFound');
  expect(stale.value.unitsConsumed).toBe(0n);

  const replaced = await rpc.simulateTransaction(wire, {
    encoding: 'base64', replaceRecentBlockhash: true, innerInstructions: true, accounts: { addresses: [account], encoding: 'base64' },
  }).send();
  const { value: latest } = await rpc.getLatestBlockhash().send();
  expect(replaced.value.err).toBeNull();
  expect(replaced.value.unitsConsumed).toBeGreaterThan(0n);
  expect(replaced.value.logs).toEqual(expect.arrayContaining(['Program log: CreateIdempotent']));
  expect(replaced.value.replacementBlockhash).toEqual(latest);
  expect(replaced.value.innerInstructions!.length).toBe(1);
  expect(replaced.value.accounts[0]?.owner).toBe(TOKEN_PROGRAM_ADDRESS);
  expect(replaced.value.fee).toBe(5_000n);
  // nothing was kept
  expect((await rpc.getAccountInfo(account, { encoding: 'base64' }).send()).value).toBeNull();

  let sigError: unknown;
  try {
    await rpc.simulateTransaction(wire, { encoding: 'base64', sigVerify: true }).send();
  } catch (error) {
    sigError = error;
  }
  expect(isSolanaError(sigError, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_TRANSACTION_SIGNATURE_VERIFICATION_FAILURE)).toBe(true);
  const unsigned = await raw('simulateTransaction', [wire, { encoding: 'base64', sigVerify: true }]);
  expect(unsigned.error?.code).toBe(SOLANA_ERROR__JSON_RPC__SERVER_ERROR_TRANSACTION_SIGNATURE_VERIFICATION_FAILURE);
  const both = await raw('simulateTransaction', [wire, { encoding: 'base64', sigVerify: true, replaceRecentBlockhash: true }]);
  expect(both.error?.code).toBe(SOLANA_ERROR__JSON_RPC__INVALID_PARAMS);
});

test('a blockhash stays valid for 150 blocks, then the node refuses it; base58 wire; batch requests', async () => {
  const w0 = devnet.wallet(0);
  const tx = await signedTransaction(w0.signer, [getAddMemoInstruction({ memo: 'late' })]);
  for (let i = 0; i < 149; i++) devnet.ledger.tick();
  expect((await rpc.isBlockhashValid(tx.latest.blockhash).send()).value).toBe(true);
  expect(await rpc.getBlockHeight().send()).toBe(tx.latest.lastValidBlockHeight - 1n);
  devnet.ledger.tick();
  devnet.ledger.tick();
  expect((await rpc.isBlockhashValid(tx.latest.blockhash).send()).value).toBe(false);
  const refused = await raw('sendTransaction', [tx.wire, { encoding: 'base64' }]);
  expect(refused.error).toMatchObject({ code: -32002, message: 'Transaction simulation failed: Blockhash not found', data: { err: 'BlockhashNotFound' } });
  // with skipPreflight the node takes it and the leader drops it: it never lands
  expect((await raw('sendTransaction', [tx.wire, { encoding: 'base64', skipPreflight: true }])).result).toBe(tx.signature);
  expect((await rpc.getSignatureStatuses([tx.signature]).send()).value).toEqual([null]);

  // base58, the node's default encoding of sendTransaction
  const fresh = await signedTransaction(w0.signer, [getAddMemoInstruction({ memo: 'base58' })]);
  const base58Wire = getBase58Decoder().decode(getTransactionEncoder().encode(fresh.transaction));
  expect((await raw('sendTransaction', [base58Wire])).result).toBe(fresh.signature);
  expect((await waitFinalized(fresh.signature)).err).toBeNull();

  const response = await fetch(devnet.url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'getSlot' }, { jsonrpc: '2.0', id: 2, method: 'getBalance', params: [w0.address] }, { jsonrpc: '2.0', id: 3, method: 'nope' }]),
  });
  const batch = (await response.json()) as { id: number; result?: unknown; error?: { code: number } }[];
  expect(batch.map((b) => b.id)).toEqual([1, 2, 3]);
  expect(typeof batch[0].result).toBe('number');
  expect(batch[1].result).toMatchObject({ context: { slot: expect.any(Number) }, value: expect.any(Number) });
  expect(batch[2].error?.code).toBe(-32601);
});
