/**
 * GET /v1/status for transfers between the sandbox's Solana chain and an anvil chain (Base), end to end, with the
 * sandbox's relayer relaying both ways (`npm run sandbox` with Base and Solana, in process): the real app in chain mode
 * on the sandbox's CHAINS_FILE (Base's RPC and contracts, Solana's RPC), the status read from both chains, every answer
 * validated against openapi.yaml.
 *
 * - Solana → Base: a deposit built by the core (buildBridgeDeposit), signed by a test wallet and sent as a wallet sends
 *   it, is PENDING WAIT_DESTINATION_TRANSACTION by its signature, its transfer id and its step id while the relayer is
 *   stopped; once the relayer released it on Base, DONE COMPLETED with `receiving` on Base, also by the release hash.
 *   A deposit whose minimum the route cannot meet is refunded on Solana by the relayer (refund memo): DONE REFUNDED by
 *   the deposit signature, the refund signature and the transfer id.
 * - Base → Solana: a quote to a Solana receiver, sent from a test wallet, is PENDING until the relayer's release on
 *   Solana (the escrow pays the receiver's token account with the release memo), then DONE COMPLETED with `receiving`
 *   on Solana, by the release signature, the transfer id and the sending hash.
 * - A failed Solana deposit is FAILED, a Solana transaction that is not the bridge's INVALID, an unknown signature
 *   NOT_FOUND.
 *
 * The status tracker is built here as src/server/dependencies.ts builds it, with the Solana reads added
 * (solanaTransferReadsOf: createSolanaTransferReads per Solana entry of CHAINS_FILE, the escrow owner routers.json's).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import pino from 'pino';
import {
  createSolanaRpc, getBase58Decoder, getBase64EncodedWireTransaction, getTransactionDecoder, partiallySignTransaction, type Address, type Signature,
} from '@solana/kit';
import { getAddMemoInstruction } from '@solana-program/memo';
import { getTransferInstruction } from '@solana-program/token';
import { getTransferSolInstruction } from '@solana-program/system';
import request from 'supertest';
import { approveIfNeeded, sendTransactionRequest, type WireTransactionRequest } from '../../sandbox/execute';
import type { Completion } from '../../sandbox/relayerCompletions';
import { startSandbox, type Sandbox } from '../../sandbox/service';
import { BRIDGE_ESCROW_ADDRESS, SOLANA_CHAIN_ID } from '../../sandbox/solana/devnet';
import type { FamilyAddress } from '../../src/core/chains/family';
import { buildBridgeDeposit } from '../../src/core/chains/solana/deposit';
import { MEMO_PROGRAMS } from '../../src/core/chains/solana/memo';
import { transactionIdOf } from '../../src/core/transactions/ids';
import { useContract, useTestApp } from '../support/app';

jest.setTimeout(90_000);

const BASE = 8453;
const SOLANA_EXPLORER = 'https://solscan.io/tx/';

let sandbox: Sandbox;
beforeAll(async () => {
  // bridges release at once (bridgeTimeScale 0)
  sandbox = await startSandbox({ chains: [BASE, SOLANA_CHAIN_ID], port: 0, host: '127.0.0.1', logger: pino({ level: 'silent' }), bridgeTimeScale: 0 });
}, 120_000);
const sol = () => sandbox.solana!;
const relayer = () => sandbox.devnet.relayer!;

// chain mode on the sandbox's chains: the composition root builds the Solana status reads (src/server/dependencies.ts)
const t = useTestApp(() => ({ env: { CHAINS_FILE: sandbox.chainsFile } }));
const contract = useContract();
// after the app's afterAll (hooks run in the order declared): its chain connections close before the chains stop
afterAll(async () => {
  await sandbox?.stop();
});

test('the sandbox\'s escrow is routers.json\'s', () => {
  expect(t.dependencies.routers.bridgeEscrowOf(SOLANA_CHAIN_ID)?.owner).toBe(BRIDGE_ESCROW_ADDRESS);
});

async function status(query: Record<string, string>) {
  const res = await request(t.app).get('/v1/status').query(query);
  contract.expectResponse('getStatus', res);
  expect(res.status).toBe(200);
  return res.body;
}

/** Polls GET /v1/status every 50 ms until the transfer is DONE or FAILED (what an integrator's client does). */
async function pollUntilFinal(query: Record<string, string>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const body = await status(query);
    if (body.status === 'DONE' || body.status === 'FAILED') return body;
    if (Date.now() > deadline) throw new Error(`still ${body.status} ${body.substatus ?? ''} after ${timeoutMs} ms: ${JSON.stringify(body).slice(0, 400)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const solanaAddress = (text: string) => text as FamilyAddress<'SVM'>;

async function landed(signature: string) {
  const rpc = createSolanaRpc(sol().url);
  const tx = await rpc.getTransaction(signature as Signature, { encoding: 'json', maxSupportedTransactionVersion: 0 }).send();
  if (!tx?.meta) throw new Error(`transaction ${signature} did not land`);
  return { fee: BigInt(tx.meta.fee), unitsConsumed: BigInt(tx.meta.computeUnitsConsumed ?? 0), err: tx.meta.err };
}

/** A USDC bridge deposit (across) from Solana wallet 0 to Base wallet 1, built by the core, signed and sent as a wallet does. */
async function depositFromSolana(over: { transferId: string; amount?: bigint; minAmountOut?: bigint; skipPreflight?: boolean }) {
  const rpc = createSolanaRpc(sol().url);
  const { value: lifetime } = await rpc.getLatestBlockhash().send();
  const usdc = sol().mint('USDC');
  const deposit = await buildBridgeDeposit({
    sender: solanaAddress(sol().wallet(0).address), escrowOwner: solanaAddress(BRIDGE_ESCROW_ADDRESS),
    token: { kind: 'spl', mint: usdc.address, decimals: usdc.decimals }, amount: over.amount ?? 25_000_000n,
    bridge: 'across', transferId: over.transferId, destinationChainId: BASE, receiver: sandbox.devnet.wallet(BASE, 1).address.toLowerCase(),
    minAmountOut: over.minAmountOut ?? 24_000_000n, lifetime: { blockhash: lifetime.blockhash, lastValidBlockHeight: BigInt(lifetime.lastValidBlockHeight) },
    priorityFeeLevel: 'NORMAL', escrowTokenAccountExists: true,
  });
  const transaction = getTransactionDecoder().decode(Buffer.from(deposit.transactionBase64, 'base64'));
  const signed = await partiallySignTransaction([sol().wallet(0).signer.keyPair], transaction);
  const signature = await rpc.sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: 'base64', skipPreflight: over.skipPreflight ?? false }).send();
  return { deposit, signature, ...(await landed(signature)) };
}

async function usdcBalance(owner: string): Promise<bigint> {
  const rpc = createSolanaRpc(sol().url);
  const { value } = await rpc.getTokenAccountBalance(await sol().tokenAccount(owner, 'USDC')).send();
  return BigInt(value.amount);
}

describe('Solana → Base', () => {
  test('PENDING WAIT_DESTINATION_TRANSACTION while the relayer is stopped (signature, transfer id, step id); released on Base: DONE COMPLETED', async () => {
    const stepId = randomUUID();
    const transferId = transactionIdOf(stepId);
    relayer().stop();
    let restarted = false;
    let released: Extract<Completion, { kind: 'released' }>;
    try {
      const { deposit, signature, fee, unitsConsumed } = await depositFromSolana({ transferId });
      const pending = await status({ txHash: signature });
      expect(pending).toMatchObject({
        status: 'PENDING', substatus: 'WAIT_DESTINATION_TRANSACTION', transactionId: transferId, tool: 'across',
        fromAddress: sol().wallet(0).address, toAddress: sandbox.devnet.wallet(BASE, 1).address, receiving: { chainId: BASE },
      });
      expect(pending.sending).toMatchObject({
        chainId: SOLANA_CHAIN_ID, txHash: signature, txLink: `${SOLANA_EXPLORER}${signature}`, amount: '25000000',
        token: { address: sol().mint('USDC').address, symbol: 'USDC', chainId: SOLANA_CHAIN_ID },
        gasToken: { symbol: 'SOL', chainId: SOLANA_CHAIN_ID }, gasAmount: fee.toString(), gasUsed: unitsConsumed.toString(),
        gasPrice: deposit.computeUnitPriceMicroLamports.toString(),
      });
      // the bridge step as the bridge's model estimates it while the release is awaited (the DONE answer's below)
      expect(pending.sending.includedSteps).toEqual([expect.objectContaining({
        tool: 'across', fromAmount: '25000000', toAmount: '24890000', bridgedAmount: '25000000',
        fromToken: expect.objectContaining({ chainId: SOLANA_CHAIN_ID, symbol: 'USDC' }), toToken: expect.objectContaining({ chainId: BASE, symbol: 'USDC' }),
      })]);
      expect(pending.sending.timestamp).toBeGreaterThan(0);
      // the transfer id (txHash or transactionId), the step id and the chains named find the same transfer
      expect(await status({ txHash: transferId })).toEqual(pending);
      expect(await status({ txHash: stepId })).toEqual(pending);
      expect(await status({ transactionId: transferId })).toEqual(pending);
      expect(await status({ txHash: signature, fromChain: 'sol', toChain: 'bas' })).toEqual(pending);
      await relayer().start();
      restarted = true;
      released = (await relayer().waitFor(transferId)) as Extract<Completion, { kind: 'released' }>;
    } finally {
      if (!restarted) await relayer().start();
    }
    expect(released.kind).toBe('released');
    const done = await pollUntilFinal({ txHash: released.depositTx });
    expect(done).toMatchObject({
      status: 'DONE', substatus: 'COMPLETED', transactionId: transferId, tool: 'across', toAddress: sandbox.devnet.wallet(BASE, 1).address,
      sending: { txHash: released.depositTx, chainId: SOLANA_CHAIN_ID, amount: '25000000' },
      receiving: { chainId: BASE, txHash: released.releaseTx, amount: released.amount.toString(), token: { symbol: 'USDC', chainId: BASE } },
    });
    // across 0.04 % and 0.1 USDC: 25 USDC − 10,000 − 100,000
    expect(released.amount).toBe(24_890_000n);
    expect(done.sending.includedSteps).toEqual([expect.objectContaining({
      tool: 'across', fromAmount: '25000000', toAmount: '24890000', bridgedAmount: '25000000',
      fromToken: expect.objectContaining({ chainId: SOLANA_CHAIN_ID, symbol: 'USDC' }), toToken: expect.objectContaining({ chainId: BASE, symbol: 'USDC' }),
    })]);
    expect(await status({ txHash: released.releaseTx })).toEqual(done);
    expect(await status({ txHash: transferId })).toEqual(done);
  });

  test('refunded on Solana by the relayer (the route cannot meet the minimum): DONE REFUNDED by deposit, refund and transfer id', async () => {
    const transferId = transactionIdOf(randomUUID());
    const before = await usdcBalance(sol().wallet(0).address);
    const { signature, fee } = await depositFromSolana({ transferId, minAmountOut: 25_000_000n });
    const refunded = (await relayer().waitFor(transferId)) as Extract<Completion, { kind: 'refunded' }>;
    expect(refunded).toMatchObject({ kind: 'refunded', depositTx: signature });
    expect(await usdcBalance(sol().wallet(0).address)).toBe(before);
    const done = await pollUntilFinal({ txHash: signature });
    expect(done).toMatchObject({
      status: 'DONE', substatus: 'REFUNDED', transactionId: transferId,
      substatusMessage: `The bridge could not deliver on chain ${BASE} and refunded 25000000 to ${sol().wallet(0).address} on chain ${SOLANA_CHAIN_ID}.`,
      sending: { txHash: signature, gasAmount: fee.toString() },
      receiving: { chainId: SOLANA_CHAIN_ID, txHash: refunded.refundTx, txLink: `${SOLANA_EXPLORER}${refunded.refundTx}`, amount: '25000000', token: { symbol: 'USDC' } },
    });
    expect(await status({ txHash: refunded.refundTx })).toEqual(done);
    expect(await status({ txHash: transferId })).toEqual(done);
  });

  test('a failed deposit → FAILED INSUFFICIENT_BALANCE (and the relayer leaves it)', async () => {
    const transferId = transactionIdOf(randomUUID());
    const { signature, err } = await depositFromSolana({ transferId, amount: 10n ** 18n, skipPreflight: true });
    expect(err).not.toBeNull();
    const failed = await status({ txHash: signature });
    expect(failed).toMatchObject({ status: 'FAILED', substatus: 'INSUFFICIENT_BALANCE', transactionId: transferId, sending: { txHash: signature, amount: (10n ** 18n).toString() } });
    expect(failed.substatusMessage).toMatch(/InstructionError/);
    expect(await status({ txHash: transferId })).toEqual(failed);
  });
});

interface Quote {
  id: string;
  tool: string;
  action: { fromChainId: number; fromAmount: string; fromToken: { address: string } };
  estimate: { toAmount: string; approvalAddress: string };
  transactionRequest: WireTransactionRequest;
}

describe('Base → Solana', () => {
  test('PENDING until the relayer\'s release on Solana, then DONE COMPLETED with receiving on Solana (release signature, transfer id, sending hash)', async () => {
    const receiver = sol().wallet(1).address;
    const wallet = sandbox.devnet.wallet(BASE, 0);
    const res = await request(t.app).get('/v1/quote').query({
      fromChain: String(BASE), toChain: 'sol', fromToken: 'USDC', toToken: 'USDC', fromAmount: '10000000', fromAddress: wallet.address, toAddress: receiver,
    });
    if (res.status !== 200) throw new Error(`quote: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    const q = res.body as Quote;
    const transferId = transactionIdOf(q.id);
    const before = await usdcBalance(receiver);
    relayer().stop();
    let restarted = false;
    let released: Extract<Completion, { kind: 'released' }>;
    let sendingHash: string;
    try {
      await approveIfNeeded(wallet, q.action.fromToken.address, q.estimate.approvalAddress, BigInt(q.action.fromAmount));
      const receipt = await sendTransactionRequest(wallet, q.transactionRequest);
      expect(receipt.status).toBe(1);
      sendingHash = receipt.hash;
      const pending = await status({ txHash: receipt.hash });
      expect(pending).toMatchObject({
        status: 'PENDING', substatus: 'WAIT_DESTINATION_TRANSACTION', transactionId: transferId, tool: q.tool,
        toAddress: receiver, receiving: { chainId: SOLANA_CHAIN_ID }, sending: { chainId: BASE, txHash: receipt.hash, amount: q.action.fromAmount },
      });
      expect(await status({ txHash: transferId })).toEqual(pending);
      await relayer().start();
      restarted = true;
      released = (await relayer().waitFor(transferId)) as Extract<Completion, { kind: 'released' }>;
    } finally {
      if (!restarted) await relayer().start();
    }
    expect(released.kind).toBe('released');
    expect(await usdcBalance(receiver)).toBe(before + released.amount);
    const { fee, unitsConsumed } = await landed(released.releaseTx);

    const done = await pollUntilFinal({ txHash: released.releaseTx });
    expect(done).toMatchObject({
      status: 'DONE', substatus: 'COMPLETED', transactionId: transferId, tool: q.tool, fromAddress: wallet.address, toAddress: receiver,
      sending: { chainId: BASE, txHash: sendingHash, amount: q.action.fromAmount },
      receiving: {
        chainId: SOLANA_CHAIN_ID, txHash: released.releaseTx, txLink: `${SOLANA_EXPLORER}${released.releaseTx}`, amount: released.amount.toString(),
        token: { address: sol().mint('USDC').address, symbol: 'USDC' }, gasToken: { symbol: 'SOL' }, gasAmount: fee.toString(), gasUsed: unitsConsumed.toString(),
      },
    });
    // what the service quoted is what arrived
    expect(released.amount.toString()).toBe(q.estimate.toAmount);
    const bridgeStep = done.sending.includedSteps.find((s: { tool: string }) => s.tool === q.tool);
    expect(bridgeStep).toMatchObject({ toAmount: q.estimate.toAmount, toToken: { chainId: SOLANA_CHAIN_ID, symbol: 'USDC' } });
    expect(await status({ txHash: transferId })).toEqual(done);
    expect(await status({ txHash: sendingHash })).toEqual(done);
    expect(await status({ txHash: q.id, fromChain: String(BASE) })).toEqual(done);
  });
});

describe('Solana references that are no transfer', () => {
  test('a Solana transaction that is not the bridge\'s → INVALID; an unknown signature → NOT_FOUND', async () => {
    const transfer = await sol().submit(sol().wallet(0).signer, [getTransferSolInstruction({ source: sol().wallet(0).signer, destination: sol().wallet(1).address as Address, amount: 1_000n })]);
    const invalid = await status({ txHash: transfer.decoded.signature });
    expect(invalid.status).toBe('INVALID');
    expect(invalid.substatusMessage).toMatch(/not a transfer of this service: it carries no memo of the bridge/);
    // a token transfer to the escrow with a memo of another text is not a deposit either
    const [from, to] = await Promise.all([sol().tokenAccount(sol().wallet(0).address, 'USDC'), sol().tokenAccount(BRIDGE_ESCROW_ADDRESS, 'USDC')]);
    const other = await sol().submit(sol().wallet(0).signer, [
      getTransferInstruction({ source: from, destination: to, authority: sol().wallet(0).signer, amount: 1n }),
      getAddMemoInstruction({ memo: 'hello' }, { programAddress: MEMO_PROGRAMS.v3 }),
    ]);
    expect((await status({ txHash: other.decoded.signature })).status).toBe('INVALID');
    const unknown = await status({ txHash: getBase58Decoder().decode(randomBytes(64)) });
    expect(unknown).toEqual({ status: 'NOT_FOUND', substatusMessage: 'No transaction or transfer with this reference on the connected chains (it may not be mined yet).' });
  });
});
