/**
 * Sending from Solana through the real app, on the embedded data: quotes, contract-call quotes (the plain transfer)
 * and stepTransaction answer a Solana transaction in `transactionRequest.data` (base64 v0), which decodes with
 * @solana/kit to the intended instructions: compute budget (limit and price as the step's gas cost says), the
 * TransferChecked of the bridged amount into the escrow's token account, the memo naming the bridge, transfer id,
 * destination, receiver, minimum and destination swaps. Gas costs are lamports, by priority level. What a deposit
 * cannot carry (integrator fee, refuel) and chains that cannot send are 400s. Every answer validated against the contract.
 */
import { parseSetComputeUnitLimitInstruction, parseSetComputeUnitPriceInstruction } from '@solana-program/compute-budget';
import { parseAddMemoInstruction } from '@solana-program/memo';
import { findAssociatedTokenPda, parseTransferCheckedInstruction, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import {
  address,
  decompileTransactionMessage,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  type Instruction,
  type ReadonlyUint8Array,
} from '@solana/kit';
import request from 'supertest';
import { parseBridgeMemo } from '../../src/core/chains/solana/memo';
import { PLACEHOLDER_BLOCKHASH } from '../../src/core/transactions/svmDeposit';
import { transactionIdOf } from '../../src/core/transactions/ids';
import { useAppAndContract } from '../support/app';
import { expectInvalidRequest } from '../support/contract';
import { ARB_USDC, WALLET } from '../support/fixtures';
import type { Json } from '../support/wire';

const { t, contract } = useAppAndContract();

const SOLANA = 1151111081099710;
const SENDER = '7v91N7iZ9mNicL8WfG6cgSCKyRXydQjLh6UYBWwm6y1Q';
const SOL_USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const ESCROW = '6eE9jxpcD7dEgY2zC8WfD6rXos26PEmddhqsxAgkVxZ2';
const COMPUTE_BUDGET = 'ComputeBudget111111111111111111111111111111';
const MEMO_V3 = 'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr';

function decode(base64: string) {
  const transaction = getTransactionDecoder().decode(getBase64Encoder().encode(base64));
  const compiled = getCompiledTransactionMessageDecoder().decode(transaction.messageBytes);
  expect(compiled.version).toBe(0);
  const message = decompileTransactionMessage(compiled);
  const signatures = Object.entries(transaction.signatures);
  return { message, instructions: message.instructions as readonly Instruction[], signatures };
}

const full = (instruction: Instruction) => ({ ...instruction, accounts: instruction.accounts ?? [], data: (instruction.data ?? new Uint8Array()) as ReadonlyUint8Array });

async function quote(query: Record<string, string>): Promise<Json> {
  const res = await request(t.app).get('/v1/quote').query({ fromChain: String(SOLANA), fromToken: 'USDC', fromAddress: SENDER, toAddress: WALLET, ...query });
  contract.expectResponse('getQuote', res);
  expect(res.status).toBe(200);
  return res.body;
}

/** The transaction of a step, decoded and checked against the step (instructions, memo, gas cost). */
async function expectDeposit(step: Json): Promise<{ memo: NonNullable<ReturnType<typeof parseBridgeMemo>>; limit: number; price: bigint }> {
  expect(Object.keys(step.transactionRequest).sort()).toEqual(['chainId', 'data']);
  expect(step.transactionRequest.chainId).toBe(SOLANA);
  const { message, instructions, signatures } = decode(step.transactionRequest.data);
  // one empty signature slot, the sender's: the wallet signs it as it is
  expect(signatures).toEqual([[SENDER, null]]);
  expect(message.feePayer.address).toBe(SENDER);
  expect(message.lifetimeConstraint).toMatchObject({ blockhash: PLACEHOLDER_BLOCKHASH });
  expect(instructions.map((i) => i.programAddress)).toEqual([COMPUTE_BUDGET, COMPUTE_BUDGET, TOKEN_PROGRAM_ADDRESS, MEMO_V3]);
  const limit = parseSetComputeUnitLimitInstruction(full(instructions[0])).data.units;
  const price = parseSetComputeUnitPriceInstruction(full(instructions[1])).data.microLamports;
  // the gas cost is the transaction's: lamports = 5,000 per signature + ceil(limit × price / 10⁶)
  const [gas] = step.estimate.gasCosts;
  expect(gas).toMatchObject({ type: 'SEND', price: price.toString(), estimate: String(limit), limit: String(limit), token: { address: '11111111111111111111111111111111', symbol: 'SOL' } });
  expect(BigInt(gas.amount)).toBe(5_000n + (BigInt(limit) * price + 999_999n) / 1_000_000n);
  expect(Number(gas.amountUSD)).toBeCloseTo((Number(gas.amount) / 1e9) * Number(gas.token.priceUSD), 6);
  // the bridged amount into the escrow's token account, from the sender's, checked against the mint's decimals
  const cross = step.includedSteps.find((s: Json) => s.type === 'cross');
  const transfer = parseTransferCheckedInstruction(full(instructions[2]));
  const mint = address(cross.action.fromToken.address);
  const [senderAta] = await findAssociatedTokenPda({ owner: address(SENDER), mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  const [escrowAta] = await findAssociatedTokenPda({ owner: address(ESCROW), mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
  expect(transfer.data).toMatchObject({ amount: BigInt(cross.action.fromAmount), decimals: cross.action.fromToken.decimals });
  expect(transfer.accounts.source.address).toBe(senderAta);
  expect(transfer.accounts.destination.address).toBe(escrowAta);
  expect(transfer.accounts.authority.address).toBe(SENDER);
  const memo = parseBridgeMemo(parseAddMemoInstruction(full(instructions[3])).data.memo);
  expect(memo).toMatchObject({
    bridge: step.tool,
    transferId: transactionIdOf(step.id),
    destinationChainId: step.action.toChainId,
    receiver: WALLET.toLowerCase(),
    minAmountOut: BigInt(step.estimate.toAmountMin),
  });
  // no approval on Solana: the family's zero address (the System program) says none
  expect(step.estimate.approvalAddress).toBe('11111111111111111111111111111111');
  return { memo: memo!, limit, price };
}

describe('GET /v1/quote from Solana', () => {
  it('answers a v0 deposit transaction that decodes to its compute budget, transfer and memo', async () => {
    const step = await quote({ toChain: 'arb', toToken: 'USDC', fromAmount: '100000000' });
    expect(step.action.fromToken.address).toBe(SOL_USDC);
    const { memo, price } = await expectDeposit(step);
    expect(memo.hops).toBeUndefined();
    expect(price).toBe(10_000n); // NORMAL on the embedded data
    // the same request, the same bytes
    expect((await quote({ toChain: 'arb', toToken: 'USDC', fromAmount: '100000000' })).transactionRequest).toEqual(step.transactionRequest);
  });

  it('carries the destination swaps in the memo, as the included steps after the bridge say', async () => {
    const step = await quote({ toChain: 'arb', toToken: 'ETH', fromAmount: '100000000' });
    const { memo } = await expectDeposit(step);
    const after = step.includedSteps.slice(step.includedSteps.findIndex((s: Json) => s.type === 'cross') + 1);
    expect(after.length).toBeGreaterThan(0);
    expect(memo.hops).toHaveLength(after.length);
    memo.hops!.forEach((hop, k) => {
      expect(hop.tokenOut).toBe(after[k].action.toToken.address.toLowerCase());
      expect(hop.amountIn).toBe(BigInt(after[k].action.fromAmount));
    });
  });

  it('prices each svmPriorityFeeLevel at its unit price: the fee and the bytes change', async () => {
    const byLevel: Json[] = [];
    for (const level of ['NORMAL', 'FAST', 'ULTRA']) byLevel.push(await quote({ toChain: 'arb', toToken: 'USDC', fromAmount: '100000000', svmPriorityFeeLevel: level }));
    const prices = await Promise.all(byLevel.map(async (s) => (await expectDeposit(s)).price));
    expect(prices).toEqual([10_000n, 100_000n, 1_000_000n]);
    expect(new Set(byLevel.map((s) => s.transactionRequest.data)).size).toBe(3);
    const amounts = byLevel.map((s) => BigInt(s.estimate.gasCosts[0].amount));
    expect(amounts[0] < amounts[1] && amounts[1] < amounts[2]).toBe(true);
  });

  it('refuses what a deposit cannot carry: an integrator fee, a refuel (400 naming the parameter)', async () => {
    const fee = await request(t.app).get('/v1/quote').query({ fromChain: 'sol', toChain: 'arb', fromToken: 'USDC', toToken: 'USDC', fromAmount: '100000000', fromAddress: SENDER, toAddress: WALLET, fee: '0.01', integrator: 'acme' });
    expectInvalidRequest(contract, 'getQuote', fee, /^fee: integrator fees are collected .* EVM chains only/);
    expect(fee.body.errors.issues).toEqual([expect.objectContaining({ name: 'fee', rule: 'sendingChainCollectsFees' })]);
    const refuel = await request(t.app).get('/v1/quote').query({ fromChain: 'sol', toChain: 'arb', fromToken: 'USDC', toToken: 'USDC', fromAmount: '100000000', fromAddress: SENDER, toAddress: WALLET, fromAmountForGas: '1000000' });
    expectInvalidRequest(contract, 'getQuote', refuel, /^fromAmountForGas: a refuel/);
  });

  it('refuses a sender that is no Solana address, naming fromAddress', async () => {
    const res = await request(t.app).get('/v1/quote').query({ fromChain: 'sol', toChain: 'arb', fromToken: 'USDC', toToken: 'USDC', fromAmount: '100000000', fromAddress: WALLET, toAddress: WALLET });
    expectInvalidRequest(contract, 'getQuote', res, /fromAddress 0x.* is not an address of Solana .* base58/);
  });

  it('finds no same-chain swap on Solana (no pool runs there): 404, never a step without a transaction', async () => {
    const res = await request(t.app).get('/v1/quote').query({ fromChain: 'sol', toChain: 'sol', fromToken: 'SOL', toToken: 'USDC', fromAmount: '1000000000', fromAddress: SENDER });
    contract.expectResponse('getQuote', res);
    expect(res.status).toBe(404);
  });
});

describe('routes and stepTransaction from Solana', () => {
  it('prices every route in lamports and builds the step at the level stepTransaction names', async () => {
    const res = await request(t.app).post('/v1/advanced/routes').send({
      fromChainId: SOLANA, toChainId: 42161, fromTokenAddress: SOL_USDC, toTokenAddress: ARB_USDC, fromAmount: '100000000', fromAddress: SENDER, toAddress: WALLET,
    });
    contract.expectResponse('postRoutes', res);
    expect(res.status).toBe(200);
    for (const route of res.body.routes) {
      expect(Number(route.gasCostUSD)).toBeGreaterThan(0);
      expect(route.steps[0].estimate.gasCosts[0].token.symbol).toBe('SOL');
      expect(route.steps[0].transactionRequest).toBeUndefined();
    }
    const step = res.body.routes[0].steps[0];
    const built = await request(t.app).post('/v1/advanced/stepTransaction').query({ svmPriorityFeeLevel: 'FAST' }).send(step);
    contract.expectResponse('postStepTransaction', built);
    expect(built.status).toBe(200);
    const { price } = await expectDeposit(built.body);
    expect(price).toBe(100_000n);
    expect(built.body.id).toBe(step.id);
  });

  it('stepTransaction refuses a step from a chain that cannot send (400 sendingSupported)', async () => {
    const res = await request(t.app).post('/v1/advanced/routes').send({
      fromChainId: SOLANA, toChainId: 42161, fromTokenAddress: SOL_USDC, toTokenAddress: ARB_USDC, fromAmount: '100000000', fromAddress: SENDER, toAddress: WALLET,
    });
    const step = structuredClone(res.body.routes[0].steps[0]);
    step.action.fromChainId = 20000000000001;
    const built = await request(t.app).post('/v1/advanced/stepTransaction').send(step);
    expectInvalidRequest(contract, 'postStepTransaction', built, /sending from Bitcoin \(20000000000001\) is not supported yet/);
    expect(built.body.errors.issues).toEqual([expect.objectContaining({ name: '/action/fromChainId', rule: 'sendingSupported' })]);
  });
});

describe('POST /v1/quote/contractCalls from Solana', () => {
  it('with contractCalls: [] (the plain transfer) is refused: the receiver, fromAddress, is no address of the EVM destination', async () => {
    const res = await request(t.app).post('/v1/quote/contractCalls').send({
      fromChain: SOLANA, toChain: 42161, fromToken: SOL_USDC, toToken: ARB_USDC, fromAmount: '100000000', fromAddress: SENDER, contractCalls: [],
    });
    contract.expectResponse('postContractCallsQuote', res);
    // the receiver is fromAddress, a Solana address: no address of Arbitrum
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/is not an address of Arbitrum/);
  });
});
