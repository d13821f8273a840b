/**
 * Transfers with a Solana side, from hand-made Solana facts (no chain): the roles of the escrow's transactions, the
 * classification of a deposit on Solana with the EVM transfers' states and substatuses, a release on Solana as the
 * destination of an EVM deposit, and the tracker following a transfer across a Solana chain and an EVM chain.
 */
import { base58 } from '@scure/base';
import { DEFAULT_DATA_DIR } from '../../../../src/config';
import { loadCatalog } from '../../../../src/files/catalog';
import { formatBridgeMemo, formatRefundMemo, formatReleaseMemo } from '../../../../src/core/chains/solana/memo';
import { classifyTransfer, type Settled, type StatusContext, type TransferStep } from '../../../../src/core/status/classify';
import { diagnoseSolanaFailure } from '../../../../src/core/status/failure';
import type {
  ContractEvents, DepositEvent, Emitted, MinedTransaction, PendingTransaction, Receipt, RefundEvent, ReleaseEvent, Replay, Settlement,
  SolanaEscrowEntry, SolanaPendingTransaction, SolanaTransaction, SolanaTransferReads, StatusChain, TransferReads,
} from '../../../../src/core/status/ports';
import {
  classifySolanaTransfer, isSolanaSignature, solanaAddressOf, solanaBridgeRole, solanaCost, solanaNotConfirmed, solanaRelease,
  type SolanaTransferFacts,
} from '../../../../src/core/status/solana';
import { TransferTracker } from '../../../../src/core/status/tracker';
import type { TransferStatus } from '../../../../src/core/status/transferStatus';
import { transactionIdOf } from '../../../../src/core/transactions/ids';

const catalog = loadCatalog(DEFAULT_DATA_DIR);
const SOL = 1151111081099710;
const BASE = 8453;
const tokenOf = (chainId: number, symbol: string) => catalog.findToken(chainId, symbol)!;

// ------------------------------------------------------------------ a hand-made world
//   Solana: the escrow ESCROW; Base (8453) and Ethereum (1): bridge endpoints; BNB (56): connected, no endpoint.

const ESCROW = '6eE9jxpcD7dEgY2zC8WfD6rXos26PEmddhqsxAgkVxZ2';
const ESCROW_USDC = 'CdukJ5SnjBMiLaQwHv2YxKdxRk6rgGAFWUH2pzr5BQ9j';
const SENDER = '8TXwa5SRZCXkuVkYwssRJfvsRZCAZu8cc8a3qoBuqK88';
const SENDER_USDC = '95QvSzkACamtbsqtj71p19TXc69xd1Pi1UF9tcfq2FEt';
const RECEIVER_SOL = 'GsbwXfJraMomNxBcjYLcG3mxkBUiyWXAB32fGbSMQRdW';
const RECEIVER_SOL_USDC = 'HfB2aeqgvwvEVKZBSTwMjxmhJHqQhbMzAcLSKaaogGJB';
const OTHER = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
const USDC_SOL = tokenOf(SOL, 'USDC').address;
const USDC_BASE = tokenOf(BASE, 'USDC').address;
const DAI_BASE = tokenOf(BASE, 'DAI').address;
const EVM_RECEIVER = '0x552008c0f6870c2f77e5cc1d2eb9bdff03e30ea9';
const EVM_RECEIVER_CHECKSUMMED = '0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea9';
const EVM_SENDER = '0x1111111111111111111111111111111111111111';
const STEP_ID = '3b1f6a52-7e4d-4c1a-9f0e-2d5c8b7a6e41';
const TRANSFER_ID = transactionIdOf(STEP_ID);
/** A signature: base58 of 64 bytes of `byte`. */
const sig = (byte: number) => base58.encode(new Uint8Array(64).fill(byte));
const DEPOSIT_SIG = sig(0x22);
const RELEASE_SIG = sig(0x33);
const REFUND_SIG = sig(0x44);
const SPOOF_SIG = sig(0x55);
const EVM_DEPOSIT_HASH = `0x${'b2'.repeat(32)}`;
const EVM_RELEASE_HASH = `0x${'c3'.repeat(32)}`;

const CHAINS = new Map<number, StatusChain>([
  [SOL, { chainId: SOL, confirmations: 1, hasBridgeEndpoint: true, commitment: 'confirmed' }],
  [BASE, { chainId: BASE, confirmations: 1, hasBridgeEndpoint: true }],
  [1, { chainId: 1, confirmations: 1, hasBridgeEndpoint: true }],
  [56, { chainId: 56, confirmations: 1, hasBridgeEndpoint: false }],
]);
const context = (chains = CHAINS): StatusContext => ({
  chain: (chainId) => chains.get(chainId),
  token: (chainId, address) => catalog.findToken(chainId, address),
  nativeToken: (chainId) => catalog.getChain(chainId)?.nativeToken,
  exchangeOf: (chainId, address) => (chainId === BASE && address === '0x00000000000000000000000000000000000000c1' ? 'curve' : undefined),
  receiverAddress: (chainId, bytes) => (chainId === SOL ? solanaAddressOf(bytes) : chainId === BASE && bytes === EVM_RECEIVER ? EVM_RECEIVER_CHECKSUMMED : undefined),
});

const DEPOSIT_MEMO = formatBridgeMemo({ bridge: 'across', transferId: TRANSFER_ID, destinationChainId: BASE, receiver: EVM_RECEIVER, minAmountOut: 24_000_000n });

function solanaTx(over: Partial<SolanaTransaction> = {}): SolanaTransaction {
  return {
    chainId: SOL, signature: DEPOSIT_SIG, slot: 300_000_000, blockTime: 1_760_000_000, commitment: 'finalized',
    feePayer: SENDER, signers: [SENDER], fee: 5_707n, computeUnitsConsumed: 744n, computeUnitPrice: 10_000n,
    logs: [], memos: [DEPOSIT_MEMO],
    transfers: [{ mint: USDC_SOL, amount: 25_000_000n, source: SENDER_USDC, destination: ESCROW_USDC, sourceOwner: SENDER, destinationOwner: ESCROW, authority: SENDER }],
    ...over,
  };
}
const depositTx = solanaTx;
const releaseTx = (over: Partial<SolanaTransaction> = {}, depositId = 42n) => solanaTx({
  signature: RELEASE_SIG, slot: 300_000_100, blockTime: 1_760_000_060, feePayer: ESCROW, signers: [ESCROW], fee: 5_000n, computeUnitsConsumed: 6_000n, computeUnitPrice: 0n,
  memos: [formatReleaseMemo({ transferId: TRANSFER_ID, sourceChainId: BASE, depositId })],
  transfers: [{ mint: USDC_SOL, amount: 24_900_000n, source: ESCROW_USDC, destination: RECEIVER_SOL_USDC, sourceOwner: ESCROW, destinationOwner: RECEIVER_SOL, authority: ESCROW }],
  ...over,
});
const refundTx = (over: Partial<SolanaTransaction> = {}) => solanaTx({
  signature: REFUND_SIG, slot: 300_000_200, blockTime: 1_760_000_120, feePayer: ESCROW, signers: [ESCROW], fee: 5_000n, computeUnitsConsumed: 5_000n, computeUnitPrice: 0n,
  memos: [formatRefundMemo({ transferId: TRANSFER_ID, depositSignature: DEPOSIT_SIG })],
  transfers: [{ mint: USDC_SOL, amount: 25_000_000n, source: ESCROW_USDC, destination: SENDER_USDC, sourceOwner: ESCROW, destinationOwner: SENDER, authority: ESCROW }],
  ...over,
});

/** The sending fields of DEPOSIT on Solana, worked out by hand: fee 5,707 lamports, 744 compute units at 10,000 micro-lamports. */
const DEPOSIT_SENDING = {
  chainId: SOL, txHash: DEPOSIT_SIG, block: 300_000_000, gasPrice: 10_000n, gasUsed: 744n, gasAmount: 5_707n, value: 0n,
  gasToken: catalog.getChain(SOL)!.nativeToken, timestamp: 1_760_000_000, amount: 25_000_000n, token: tokenOf(SOL, 'USDC'),
};

const EVM_RELEASE: Settled<ReleaseEvent> = {
  txHash: EVM_RELEASE_HASH, blockNumber: 900,
  event: { fromChainId: SOL, depositId: 7n, transactionId: TRANSFER_ID, token: USDC_BASE, amount: 24_950_000n, destinationCall: false, destinationCallSucceeded: false },
  settlement: { cost: { gasPrice: 1_000_000n, gasUsed: 90_000n, value: 0n, timestamp: 1_760_000_050 }, destinationSwapTargets: [] },
};

const statusOf = (step: TransferStep): TransferStatus => {
  if (step.need) throw new Error(`expected a status, got need ${JSON.stringify(step.need, (_, v) => (typeof v === 'bigint' ? `${v}n` : v))}`);
  return step.status;
};
const classify = (facts: Omit<SolanaTransferFacts, 'escrowOwner'>, query: { bridge?: string } = {}, chains = CHAINS) =>
  classifySolanaTransfer({ escrowOwner: ESCROW, ...facts }, query, context(chains));

// ------------------------------------------------------------------ references and roles

describe('Solana references', () => {
  it('a signature is base58 of 64 bytes; hashes, transfer ids, step ids and addresses are not', () => {
    expect(isSolanaSignature('1WSBAP25vvP8PujBL9EKzhJaRy2XHVVWF1EMyC8DMTzBXxW1NjpDCjXbe9437MNM5DbbzP3qRSa5kjMnbEuzxXu')).toBe(true);
    expect(isSolanaSignature(DEPOSIT_SIG)).toBe(true);
    expect(isSolanaSignature('1'.repeat(87))).toBe(false); // 87 zero bytes, not 64
    expect(isSolanaSignature(TRANSFER_ID)).toBe(false);
    expect(isSolanaSignature(STEP_ID)).toBe(false);
    expect(isSolanaSignature(ESCROW)).toBe(false);
    expect(isSolanaSignature(`${DEPOSIT_SIG.slice(1)}0`)).toBe(false); // 0 is no base58 digit
    expect(isSolanaSignature(base58.encode(new Uint8Array(65).fill(7)))).toBe(false);
  });

  it('a receiver\'s 32 bytes are a Solana address; other lengths are not', () => {
    expect(solanaAddressOf(`0x${'00'.repeat(32)}`)).toBe('11111111111111111111111111111111');
    expect(solanaAddressOf(`0x${Buffer.from(base58.decode(RECEIVER_SOL)).toString('hex')}`)).toBe(RECEIVER_SOL);
    expect(solanaAddressOf(EVM_RECEIVER)).toBeUndefined();
  });
});

describe('solanaBridgeRole', () => {
  it('a deposit: the bridge memo and a transfer into the escrow, from the sender', () => {
    expect(solanaBridgeRole(depositTx(), ESCROW)).toMatchObject({ kind: 'deposit', sender: SENDER, moved: { mint: USDC_SOL, amount: 25_000_000n }, memo: { transferId: TRANSFER_ID, destinationChainId: BASE } });
  });

  it('a SOL deposit: lamports to the escrow owner (no mint)', () => {
    const tx = depositTx({ transfers: [{ amount: 2_000_000_000n, source: SENDER, destination: ESCROW, sourceOwner: SENDER, destinationOwner: ESCROW, authority: SENDER }] });
    expect(solanaBridgeRole(tx, ESCROW)).toMatchObject({ kind: 'deposit', moved: { amount: 2_000_000_000n } });
    expect(solanaCost(tx).value).toBe(2_000_000_000n);
  });

  it('a memo without a transfer into the escrow, or a release not signed by it, is no transaction of the bridge', () => {
    const elsewhere = depositTx({ transfers: [{ ...depositTx().transfers[0], destinationOwner: OTHER }] });
    expect(solanaBridgeRole(elsewhere, ESCROW)).toEqual({ kind: 'none', reason: 'its bridge memo comes with no transfer into the bridge\'s escrow' });
    expect(solanaBridgeRole(releaseTx({ signers: [OTHER], feePayer: OTHER }), ESCROW).kind).toBe('none');
    expect(solanaBridgeRole(depositTx({ memos: ['hello'] }), ESCROW)).toEqual({ kind: 'none', reason: 'it carries no memo of the bridge' });
  });

  it('only the transaction\'s own instructions count: a transfer made by a program it calls is no deposit or payment', () => {
    const byProgram = depositTx({ transfers: [{ ...depositTx().transfers[0], inner: true }] });
    expect(solanaBridgeRole(byProgram, ESCROW).kind).toBe('none');
    // the rent of the receiver's token account, paid by the escrow inside CreateIdempotent, is not the release's payment
    const rent = { amount: 2_039_280n, source: ESCROW, destination: RECEIVER_SOL_USDC, sourceOwner: ESCROW, destinationOwner: RECEIVER_SOL_USDC, authority: ESCROW, inner: true as const };
    const release = releaseTx();
    expect(solanaBridgeRole({ ...release, transfers: [rent, ...release.transfers] }, ESCROW)).toMatchObject({ kind: 'release', moved: { mint: USDC_SOL, amount: 24_900_000n } });
    expect(solanaCost({ ...release, feePayer: ESCROW, transfers: [rent, ...release.transfers] }).value).toBe(0n);
  });

  it('a release and a refund: signed by the escrow, paying out of it', () => {
    expect(solanaBridgeRole(releaseTx(), ESCROW)).toMatchObject({ kind: 'release', receiver: RECEIVER_SOL, moved: { mint: USDC_SOL, amount: 24_900_000n }, memo: { sourceChainId: BASE, depositId: 42n } });
    expect(solanaBridgeRole(refundTx(), ESCROW)).toMatchObject({ kind: 'refund', receiver: SENDER, memo: { depositSignature: DEPOSIT_SIG } });
  });
});

// ------------------------------------------------------------------ a deposit on Solana

describe('classifySolanaTransfer: a deposit on Solana to an EVM chain', () => {
  it('asks for a refund on Solana, then for the release on the destination by transfer id (no deposit id)', () => {
    expect(classify({ solana: depositTx() })).toEqual({ need: { kind: 'solanaRefund', chainId: SOL, transferId: TRANSFER_ID, depositSignature: DEPOSIT_SIG } });
    expect(classify({ solana: depositTx(), refund: null })).toEqual({ need: { kind: 'release', chainId: BASE, fromChainId: SOL, transferId: TRANSFER_ID } });
  });

  it('not released yet → PENDING WAIT_DESTINATION_TRANSACTION with the Solana sending side', () => {
    expect(statusOf(classify({ solana: depositTx(), refund: null, release: null }))).toEqual({
      status: 'PENDING', substatus: 'WAIT_DESTINATION_TRANSACTION',
      substatusMessage: `The bridge has the funds; waiting for the receiving transaction on chain ${BASE}.`,
      transactionId: TRANSFER_ID, tool: 'across', fromAddress: SENDER, toAddress: EVM_RECEIVER_CHECKSUMMED,
      sending: { ...DEPOSIT_SENDING, includedSteps: [] },
      receiving: { chainId: BASE },
    });
  });

  it('released → DONE COMPLETED: the bridge step from the Solana token to the destination\'s, receiving on the EVM chain', () => {
    const status = statusOf(classify({ solana: depositTx(), refund: null, release: EVM_RELEASE }));
    expect(status).toMatchObject({ status: 'DONE', substatus: 'COMPLETED', transactionId: TRANSFER_ID, tool: 'across', fromAddress: SENDER });
    expect(status.sending!.includedSteps).toEqual([{
      tool: 'across', fromAmount: 25_000_000n, toAmount: 24_950_000n, bridgedAmount: 25_000_000n, fromToken: tokenOf(SOL, 'USDC'), toToken: tokenOf(BASE, 'USDC'),
    }]);
    expect(status.receiving).toEqual({
      chainId: BASE, txHash: EVM_RELEASE_HASH, block: 900, gasPrice: 1_000_000n, gasUsed: 90_000n, gasAmount: 90_000_000_000n, value: 0n,
      gasToken: catalog.getChain(BASE)!.nativeToken, timestamp: 1_760_000_050, amount: 24_950_000n, token: tokenOf(BASE, 'USDC'), includedSteps: [],
    });
  });

  it('a destination swap: DONE COMPLETED with its step; a failed destination call: PARTIAL', () => {
    const swapped: Settled<ReleaseEvent> = {
      ...EVM_RELEASE, event: { ...EVM_RELEASE.event, destinationCall: true, destinationCallSucceeded: true },
      settlement: { ...EVM_RELEASE.settlement, completed: { token: DAI_BASE, amount: 24_900_000_000_000_000_000n }, destinationSwapTargets: ['0x00000000000000000000000000000000000000c1'] },
    };
    const done = statusOf(classify({ solana: depositTx(), refund: null, release: swapped }));
    expect(done.substatus).toBe('COMPLETED');
    expect(done.receiving).toMatchObject({ amount: 24_900_000_000_000_000_000n, token: tokenOf(BASE, 'DAI'), includedSteps: [{ tool: 'curve', fromAmount: 24_950_000n }] });
    const failedCall = { ...EVM_RELEASE, event: { ...EVM_RELEASE.event, destinationCall: true, destinationCallSucceeded: false } };
    const partial = statusOf(classify({ solana: depositTx(), refund: null, release: failedCall }));
    expect(partial).toMatchObject({ status: 'DONE', substatus: 'PARTIAL', receiving: { amount: 24_950_000n, token: tokenOf(BASE, 'USDC') } });
  });

  it('refunded on Solana → DONE REFUNDED (as an EVM refund), receiving is the refund', () => {
    const status = statusOf(classify({ solana: depositTx(), refund: refundTx() }));
    expect(status).toMatchObject({
      status: 'DONE', substatus: 'REFUNDED', transactionId: TRANSFER_ID,
      substatusMessage: `The bridge could not deliver on chain ${BASE} and refunded 25000000 to ${SENDER} on chain ${SOL}.`,
    });
    expect(status.receiving).toEqual({
      chainId: SOL, txHash: REFUND_SIG, block: 300_000_200, gasPrice: 0n, gasUsed: 5_000n, gasAmount: 5_000n, value: 0n,
      gasToken: catalog.getChain(SOL)!.nativeToken, timestamp: 1_760_000_120, amount: 25_000_000n, token: tokenOf(SOL, 'USDC'),
    });
  });

  it('below the chain\'s commitment → PENDING WAIT_SOURCE_CONFIRMATIONS', () => {
    const finalizedOnly = new Map(CHAINS).set(SOL, { ...CHAINS.get(SOL)!, commitment: 'finalized' });
    const status = statusOf(classify({ solana: depositTx({ commitment: 'confirmed' }) }, {}, finalizedOnly));
    expect(status).toMatchObject({ status: 'PENDING', substatus: 'WAIT_SOURCE_CONFIRMATIONS', substatusMessage: 'The sending transaction is confirmed; it counts once finalized.', receiving: { chainId: BASE } });
    expect(classify({ solana: depositTx({ commitment: 'finalized' }) }, {}, finalizedOnly).need).toBeDefined();
  });

  it('a failed deposit → FAILED, the substatus from the node\'s error and the programs\' logs', () => {
    const noFunds = depositTx({ error: { InstructionError: [2, { Custom: 1 }] }, logs: ['Program log: Instruction: TransferChecked', 'Program log: Error: insufficient funds'] });
    const status = statusOf(classify({ solana: noFunds }));
    expect(status).toMatchObject({ status: 'FAILED', substatus: 'INSUFFICIENT_BALANCE', transactionId: TRANSFER_ID, tool: 'across', fromAddress: SENDER, sending: { txHash: DEPOSIT_SIG, amount: 25_000_000n, gasAmount: 5_707n } });
    expect(status.substatusMessage).toMatch(/\{"InstructionError":\[2,\{"Custom":1\}\]\}/);
    expect(statusOf(classify({ solana: depositTx({ error: { InstructionError: [3, 'ComputationalBudgetExceeded'] } }) })).substatus).toBe('OUT_OF_GAS');
    expect(statusOf(classify({ solana: depositTx({ error: { InstructionError: [2, { Custom: 4 }] } }) })).substatus).toBe('UNKNOWN_FAILED_ERROR');
  });

  it('a transfer via another bridge than asked, or a transaction that is not the bridge\'s → INVALID', () => {
    expect(statusOf(classify({ solana: depositTx() }, { bridge: 'stargate' }))).toEqual({ status: 'INVALID', substatusMessage: `Transaction ${DEPOSIT_SIG} is a transfer via across, not via stargate.` });
    expect(statusOf(classify({ solana: depositTx({ memos: [] }) }))).toEqual({
      status: 'INVALID', substatusMessage: `Transaction ${DEPOSIT_SIG} on chain ${SOL} is not a transfer of this service: it carries no memo of the bridge.`,
    });
    expect(statusOf(classify({ solana: depositTx({ memos: [], error: 'InsufficientFundsForFee' }) })).substatusMessage).toMatch(/\(it failed anyway\)\.$/);
  });

  it('a destination that is not connected → CHAIN_NOT_AVAILABLE; without a bridge endpoint → BRIDGE_NOT_AVAILABLE', () => {
    const toPolygon = depositTx({ memos: [formatBridgeMemo({ bridge: 'across', transferId: TRANSFER_ID, destinationChainId: 137, receiver: EVM_RECEIVER, minAmountOut: 1n })] });
    expect(statusOf(classify({ solana: toPolygon, refund: null })).substatus).toBe('CHAIN_NOT_AVAILABLE');
    const toBnb = depositTx({ memos: [formatBridgeMemo({ bridge: 'across', transferId: TRANSFER_ID, destinationChainId: 56, receiver: EVM_RECEIVER, minAmountOut: 1n })] });
    expect(statusOf(classify({ solana: toBnb, refund: null }))).toMatchObject({ status: 'PENDING', substatus: 'BRIDGE_NOT_AVAILABLE', toAddress: EVM_RECEIVER });
  });
});

// ------------------------------------------------------------------ Solana as the destination

describe('a release on Solana (the receiving side of an EVM deposit)', () => {
  it('asks for its source deposit by the memo\'s deposit id, with the transfer id', () => {
    expect(classify({ solana: releaseTx() })).toEqual({ need: { kind: 'sourceDeposit', chainId: BASE, depositId: 42n, transferId: TRANSFER_ID } });
  });

  it('a source not connected → CHAIN_NOT_AVAILABLE; a deposit the source does not know, or a failed release → INVALID', () => {
    const fromPolygon = releaseTx({ memos: [formatReleaseMemo({ transferId: TRANSFER_ID, sourceChainId: 137, depositId: 1n })] });
    expect(statusOf(classify({ solana: fromPolygon }))).toEqual({
      status: 'PENDING', substatus: 'CHAIN_NOT_AVAILABLE', transactionId: TRANSFER_ID,
      substatusMessage: 'This is the receiving transaction of a transfer from chain 137, which is not connected to this instance.',
      receiving: { chainId: SOL, txHash: RELEASE_SIG },
    });
    expect(statusOf(classify({ solana: releaseTx(), unknownDeposit: true })).substatusMessage).toBe(`Transaction ${RELEASE_SIG} releases deposit 42 of chain ${BASE}, which that chain's bridge endpoint does not know.`);
    expect(statusOf(classify({ solana: releaseTx({ error: { InstructionError: [0, { Custom: 1 }] } }) })).status).toBe('INVALID');
  });

  it('a refund signature is read from the deposit its memo names', () => {
    expect(classify({ solana: refundTx() })).toEqual({ need: { kind: 'sourceTransaction', chainId: SOL, hash: DEPOSIT_SIG } });
    expect(statusOf(classify({ solana: refundTx(), unknownDeposit: true })).status).toBe('INVALID');
  });

  it('an EVM deposit to Solana: toAddress is the Solana receiver; DONE with the release on Solana as receiving', () => {
    const deposit: DepositEvent = {
      depositId: 42n, bridge: 'across', transactionId: TRANSFER_ID, token: USDC_BASE, amount: 25_000_000n, destinationChainId: SOL,
      receiver: '0x11f111f111f111F111f111f111F111f111f111F1', nonEvmReceiver: `0x${Buffer.from(base58.decode(RECEIVER_SOL)).toString('hex')}`, hasDestinationCall: false,
    };
    const tx = evmTx({ chainId: BASE, hash: EVM_DEPOSIT_HASH, events: { deposits: [deposit] } });
    const ctx = context();
    expect(classifyTransfer({ tx, refund: null }, {}, ctx)).toEqual({ need: { kind: 'release', chainId: SOL, fromChainId: BASE, depositId: 42n, transferId: TRANSFER_ID } });
    const pending = statusOf(classifyTransfer({ tx, refund: null, release: null }, {}, ctx));
    expect(pending).toMatchObject({ status: 'PENDING', substatus: 'WAIT_DESTINATION_TRANSACTION', toAddress: RECEIVER_SOL, receiving: { chainId: SOL } });
    const release = solanaRelease(releaseTx(), ESCROW, ctx)!;
    expect(release).toEqual({
      txHash: RELEASE_SIG, blockNumber: 300_000_100,
      event: { fromChainId: BASE, depositId: 42n, transactionId: TRANSFER_ID, token: USDC_SOL, amount: 24_900_000n, destinationCall: false, destinationCallSucceeded: false },
      settlement: { cost: { gasPrice: 0n, gasUsed: 6_000n, fee: 5_000n, value: 0n, timestamp: 1_760_000_060 }, destinationSwapTargets: [] },
    });
    const done = statusOf(classifyTransfer({ tx, refund: null, release }, {}, ctx));
    expect(done).toMatchObject({ status: 'DONE', substatus: 'COMPLETED', toAddress: RECEIVER_SOL });
    expect(done.receiving).toEqual({
      chainId: SOL, txHash: RELEASE_SIG, block: 300_000_100, gasPrice: 0n, gasUsed: 6_000n, gasAmount: 5_000n, value: 0n,
      gasToken: catalog.getChain(SOL)!.nativeToken, timestamp: 1_760_000_060, amount: 24_900_000n, token: tokenOf(SOL, 'USDC'), includedSteps: [],
    });
    // a failed release or one that is no release is not one
    expect(solanaRelease(releaseTx({ error: 'x' }), ESCROW, ctx)).toBeUndefined();
    expect(solanaRelease(depositTx(), ESCROW, ctx)).toBeUndefined();
  });
});

describe('status helpers for Solana', () => {
  it('a signature seen but not confirmed → PENDING WAIT_SOURCE_CONFIRMATIONS', () => {
    expect(solanaNotConfirmed(SOL, DEPOSIT_SIG, 12)).toEqual({
      status: 'PENDING', substatus: 'WAIT_SOURCE_CONFIRMATIONS', substatusMessage: 'The transaction is known but not confirmed yet.',
      sending: { chainId: SOL, txHash: DEPOSIT_SIG, block: 12 },
    });
  });

  it('diagnoseSolanaFailure: balances, compute, anything else', () => {
    expect(diagnoseSolanaFailure('InsufficientFundsForFee', []).substatus).toBe('INSUFFICIENT_BALANCE');
    expect(diagnoseSolanaFailure({ InstructionError: [2, { Custom: 1 }] }, ['Transfer: insufficient lamports 5, need 10']).substatus).toBe('INSUFFICIENT_BALANCE');
    expect(diagnoseSolanaFailure({ InstructionError: [2, 'ProgramFailedToComplete'] }, ['Program X consumed 200000 of 200000 compute units', 'Program X failed: exceeded CUs meter at BPF instruction']).substatus).toBe('OUT_OF_GAS');
    expect(diagnoseSolanaFailure({ InstructionError: [1, 'InvalidAccountData'] }, [])).toEqual({
      substatus: 'UNKNOWN_FAILED_ERROR', message: 'The transaction failed for a reason the service does not recognise. ({"InstructionError":[1,"InvalidAccountData"]})',
    });
  });
});

// ------------------------------------------------------------------ the tracker across Solana and an EVM chain

const key = (...parts: unknown[]) => parts.map(String).join(':');
const EMPTY: ContractEvents = { swaps: [], deposits: [], releases: [], fees: [] };

function evmTx(over: Omit<Partial<MinedTransaction>, 'events'> & { events?: Partial<ContractEvents> }): MinedTransaction {
  const { events, ...rest } = over;
  return {
    chainId: BASE, hash: EVM_DEPOSIT_HASH, blockNumber: 500, reverted: false, gasUsed: 100_000n,
    from: EVM_SENDER, to: '0x00000000000000000000000000000000000000d1', input: '0x', gasLimit: 500_000n,
    cost: { gasPrice: 10n, gasUsed: 100_000n, value: 0n, timestamp: 1_760_000_000 },
    callsRouter: true, call: { transactionId: TRANSFER_ID, bridge: 'across', integrator: 'acme', swapTargets: [] }, confirmations: 5,
    ...rest,
    events: { ...EMPTY, ...events },
  };
}

/** EVM reads over hand-made transactions (Base only); logs every read. */
class FakeEvm implements TransferReads {
  readonly chains: StatusChain[] = [CHAINS.get(BASE)!];
  readonly log: string[] = [];
  readonly mined = new Map<string, MinedTransaction>();
  readonly releases: Emitted<ReleaseEvent>[] = [];
  readonly deposits = new Map<string, string>();
  private touch(...parts: unknown[]) {
    this.log.push(parts.map(String).join(' '));
  }
  async receipt(chainId: number, hash: string): Promise<Receipt | null> {
    this.touch('receipt', chainId, hash);
    return this.mined.get(key(chainId, hash)) ?? null;
  }
  async transaction(receipt: Receipt): Promise<MinedTransaction> {
    return this.mined.get(key(receipt.chainId, receipt.hash))!;
  }
  async pending(chainId: number, hash: string): Promise<PendingTransaction | null> {
    this.touch('pending', chainId, hash);
    return null;
  }
  async transferTransaction(chainId: number, transferId: string): Promise<string | null> {
    this.touch('transferTransaction', chainId, transferId);
    const tx = [...this.mined.values()].find((t) => t.events.deposits.some((d) => d.transactionId === transferId) || t.events.releases.some((r) => r.transactionId === transferId));
    return tx?.hash ?? null;
  }
  async depositTransaction(chainId: number, depositId: bigint): Promise<string | null> {
    this.touch('depositTransaction', chainId, depositId);
    return this.deposits.get(key(chainId, depositId)) ?? null;
  }
  async refund(): Promise<Emitted<RefundEvent> | null> {
    return null;
  }
  async release(chainId: number, fromChainId: number, depositId: bigint): Promise<Emitted<ReleaseEvent> | null> {
    this.touch('release', chainId, fromChainId, depositId);
    return this.releases.find((r) => r.event.fromChainId === fromChainId && r.event.depositId === depositId) ?? null;
  }
  async releaseOfTransfer(chainId: number, fromChainId: number, transferId: string): Promise<Emitted<ReleaseEvent> | null> {
    this.touch('releaseOfTransfer', chainId, fromChainId, transferId);
    return this.releases.find((r) => r.event.fromChainId === fromChainId && r.event.transactionId === transferId) ?? null;
  }
  async settlement(): Promise<Settlement> {
    return EVM_RELEASE.settlement;
  }
  async replay(): Promise<Replay> {
    return { reverted: false };
  }
}

/** Solana reads over hand-made transactions; the escrow's scan answers the entries whose memo names the transfer. */
class FakeSolana implements SolanaTransferReads {
  readonly chain = CHAINS.get(SOL)!;
  readonly escrowOwner = ESCROW;
  readonly log: string[] = [];
  failing = false;
  readonly txs = new Map<string, SolanaTransaction>();
  readonly pendings = new Map<string, SolanaPendingTransaction>();
  add(...txs: SolanaTransaction[]): this {
    for (const t of txs) this.txs.set(t.signature, t);
    return this;
  }
  private touch(...parts: unknown[]) {
    this.log.push(parts.map(String).join(' '));
    if (this.failing) throw new Error('connection refused');
  }
  async transaction(signature: string): Promise<SolanaTransaction | null> {
    this.touch('transaction', signature.slice(0, 3));
    return this.txs.get(signature) ?? null;
  }
  async pending(signature: string): Promise<SolanaPendingTransaction | null> {
    this.touch('pending', signature.slice(0, 3));
    return this.pendings.get(signature) ?? null;
  }
  async escrowTransactions(transferId: string, options: { deposits: boolean }): Promise<readonly SolanaEscrowEntry[]> {
    this.touch('escrowTransactions', options.deposits ? 'with deposits' : 'owner');
    return [...this.txs.values()].flatMap((t): SolanaEscrowEntry[] => {
      const memo = t.memos.find((m) => m.includes(transferId));
      if (!memo) return [];
      const kind = memo.startsWith('xchain:release:') ? 'release' : memo.startsWith('xchain:refund:') ? 'refund' : 'deposit';
      return [{ signature: t.signature, slot: t.slot, kind, failed: t.error !== undefined }];
    }).sort((a, b) => b.slot - a.slot);
  }
}

const trackerOf = (evm: FakeEvm | undefined, solana: FakeSolana | undefined) => new TransferTracker(evm, catalog, { solana: solana ? [solana] : [] });

describe('TransferTracker with a Solana chain', () => {
  it('a Solana signature without a Solana chain → NOT_FOUND saying so; other texts are no reference', async () => {
    const evm = new FakeEvm();
    expect((await trackerOf(evm, undefined).status({ ref: DEPOSIT_SIG })).substatusMessage).toMatch(/no Solana chain is connected/);
    expect(evm.log).toEqual([]);
    expect((await trackerOf(evm, new FakeSolana()).status({ ref: 'not-a-reference' })).substatusMessage).toMatch(/Only EVM and Solana transfers are tracked/);
  });

  it('Solana → EVM by the deposit signature: PENDING until the EVM release by transfer id, then DONE (and cached)', async () => {
    const evm = new FakeEvm();
    const solana = new FakeSolana().add(depositTx());
    const tracker = trackerOf(evm, solana);
    const pending = await tracker.status({ ref: DEPOSIT_SIG });
    expect(pending).toMatchObject({ status: 'PENDING', substatus: 'WAIT_DESTINATION_TRANSACTION', sending: { txHash: DEPOSIT_SIG, amount: 25_000_000n } });
    expect(evm.log).toEqual([`releaseOfTransfer ${BASE} ${SOL} ${TRANSFER_ID}`]);
    expect(solana.log).toEqual([`transaction ${DEPOSIT_SIG.slice(0, 3)}`, 'escrowTransactions owner']);
    evm.releases.push(EVM_RELEASE);
    const done = await tracker.status({ ref: DEPOSIT_SIG });
    expect(done).toMatchObject({ status: 'DONE', substatus: 'COMPLETED', receiving: { chainId: BASE, txHash: EVM_RELEASE_HASH, amount: 24_950_000n } });
    expect(await tracker.status({ ref: DEPOSIT_SIG })).toBe(done);
    // the transfer id and the step id find it on Solana; the EVM release hash finds it from the destination
    expect(await trackerOf(evm, solana).status({ ref: TRANSFER_ID })).toEqual(done);
    expect(await trackerOf(evm, solana).status({ ref: STEP_ID })).toEqual(done);
    evm.mined.set(key(BASE, EVM_RELEASE_HASH), evmTx({ hash: EVM_RELEASE_HASH, blockNumber: 900, events: { releases: [EVM_RELEASE.event] } }));
    expect(await trackerOf(evm, solana).status({ ref: EVM_RELEASE_HASH })).toEqual(done);
  });

  it('the signature cache is case-sensitive (base58)', async () => {
    const solana = new FakeSolana().add(depositTx({ error: 'InsufficientFundsForFee' }));
    const tracker = trackerOf(new FakeEvm(), solana);
    expect((await tracker.status({ ref: DEPOSIT_SIG })).status).toBe('FAILED');
    // the same text but for the case of one letter: another valid signature
    const swapped = [...DEPOSIT_SIG].map((c, i) => `${DEPOSIT_SIG.slice(0, i)}${c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()}${DEPOSIT_SIG.slice(i + 1)}`)
      .find((s) => s !== DEPOSIT_SIG && isSolanaSignature(s))!;
    expect(swapped.toLowerCase()).toBe(DEPOSIT_SIG.toLowerCase());
    expect((await tracker.status({ ref: swapped })).status).toBe('NOT_FOUND');
  });

  it('a deposit by transfer id: a spoofed memo (no transfer into the escrow) is passed over, a successful deposit preferred', async () => {
    const spoof = depositTx({ signature: SPOOF_SIG, slot: 300_000_500, transfers: [{ amount: 1n, source: OTHER, destination: OTHER, sourceOwner: OTHER, destinationOwner: OTHER }] });
    const solana = new FakeSolana().add(depositTx(), spoof);
    const status = await trackerOf(new FakeEvm(), solana).status({ ref: TRANSFER_ID });
    expect(status).toMatchObject({ status: 'PENDING', substatus: 'WAIT_DESTINATION_TRANSACTION', sending: { txHash: DEPOSIT_SIG } });
  });

  it('refunded: by the deposit signature, the transfer id and the refund signature → DONE REFUNDED', async () => {
    const solana = new FakeSolana().add(depositTx(), refundTx());
    const evm = new FakeEvm();
    const bySignature = await trackerOf(evm, solana).status({ ref: DEPOSIT_SIG });
    expect(bySignature).toMatchObject({ status: 'DONE', substatus: 'REFUNDED', receiving: { txHash: REFUND_SIG, amount: 25_000_000n } });
    expect(await trackerOf(evm, solana).status({ ref: TRANSFER_ID })).toEqual(bySignature);
    expect(await trackerOf(evm, solana).status({ ref: REFUND_SIG })).toEqual(bySignature);
    // the EVM destination is never asked
    expect(evm.log.filter((l) => l.startsWith('release'))).toEqual([]);
  });

  it('EVM → Solana: the EVM deposit hash, the release signature and the transfer id all give DONE with the Solana receiving side', async () => {
    const nonEvmReceiver = `0x${Buffer.from(base58.decode(RECEIVER_SOL)).toString('hex')}`;
    const deposit: DepositEvent = {
      depositId: 42n, bridge: 'across', transactionId: TRANSFER_ID, token: USDC_BASE, amount: 25_000_000n, destinationChainId: SOL,
      receiver: '0x11f111f111f111F111f111f111F111f111f111F1', nonEvmReceiver, hasDestinationCall: false,
    };
    const evm = new FakeEvm();
    evm.mined.set(key(BASE, EVM_DEPOSIT_HASH), evmTx({ events: { deposits: [deposit] } }));
    evm.deposits.set(key(BASE, 42n), EVM_DEPOSIT_HASH);
    const solana = new FakeSolana();
    const pending = await trackerOf(evm, solana).status({ ref: EVM_DEPOSIT_HASH });
    expect(pending).toMatchObject({ status: 'PENDING', substatus: 'WAIT_DESTINATION_TRANSACTION', toAddress: RECEIVER_SOL, receiving: { chainId: SOL } });
    // a release of another deposit id, or from another chain, is not this transfer's
    solana.add(releaseTx({ signature: SPOOF_SIG }, 41n));
    expect((await trackerOf(evm, solana).status({ ref: EVM_DEPOSIT_HASH })).status).toBe('PENDING');
    solana.add(releaseTx());
    const done = await trackerOf(evm, solana).status({ ref: EVM_DEPOSIT_HASH });
    expect(done).toMatchObject({
      status: 'DONE', substatus: 'COMPLETED', transactionId: TRANSFER_ID, fromAddress: EVM_SENDER, toAddress: RECEIVER_SOL,
      sending: { chainId: BASE, txHash: EVM_DEPOSIT_HASH }, receiving: { chainId: SOL, txHash: RELEASE_SIG, amount: 24_900_000n, token: tokenOf(SOL, 'USDC'), gasAmount: 5_000n },
    });
    expect(await trackerOf(evm, solana).status({ ref: RELEASE_SIG })).toEqual(done);
    expect(await trackerOf(evm, solana).status({ ref: TRANSFER_ID })).toEqual(done);
    expect(await trackerOf(evm, solana).status({ ref: TRANSFER_ID, fromChainId: SOL })).toEqual(done);
  });

  it('a signature seen at processed only → PENDING WAIT_SOURCE_CONFIRMATIONS; unknown → NOT_FOUND', async () => {
    const solana = new FakeSolana();
    solana.pendings.set(DEPOSIT_SIG, { slot: 77, failed: false });
    expect(await trackerOf(undefined, solana).status({ ref: DEPOSIT_SIG })).toEqual(solanaNotConfirmed(SOL, DEPOSIT_SIG, 77));
    expect((await trackerOf(undefined, solana).status({ ref: RELEASE_SIG })).status).toBe('NOT_FOUND');
  });

  it('a Solana node that does not answer → PENDING CHAIN_NOT_AVAILABLE naming the chain, never a throw', async () => {
    const solana = new FakeSolana().add(depositTx());
    solana.failing = true;
    expect(await trackerOf(new FakeEvm(), solana).status({ ref: DEPOSIT_SIG })).toEqual({
      status: 'PENDING', substatus: 'CHAIN_NOT_AVAILABLE', substatusMessage: `Not found on the chains that answered; chain ${SOL} did not answer, ask again later.`,
    });
    expect((await trackerOf(new FakeEvm(), solana).status({ ref: TRANSFER_ID })).substatus).toBe('CHAIN_NOT_AVAILABLE');
  });
});
