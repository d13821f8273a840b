/**
 * The LiteSVM under the ledger: created as the ledger needs it, its epoch schedule, and what it reports of an
 * execution read into the ledger's records.
 */
import { LiteSVM, type FailedTransactionMetadata, type TransactionMetadata } from 'litesvm';
import { address, getAddressDecoder } from '@solana/kit';
import { BPF_LOADER_UPGRADEABLE, MEMO_PROGRAM_V3, MEMO_PROGRAM_V4 } from './programs';
import type { ExecutionOutcome, InnerInstructions } from './records';

const addressDecoder = getAddressDecoder();

/**
 * A LiteSVM as this ledger needs it: the standard runtime (builtins, sysvars, SPL Token, Token-2022, ATA, memo,
 * address lookup tables, stake), the native mints, its blockhash check off (the ledger checks a 150-block window),
 * a transaction history for duplicate detection, and the memo program also at the address @solana-program/memo
 * 0.15 builds for (v4, Memo4c2p...): LiteSVM 1.5 loads the memo program (pinocchio memo 4.0.0) only at the v3 address.
 */
export function createSvm(): LiteSVM {
  const svm = new LiteSVM().withNativeMints().withBlockhashCheck(false).withSigverify(true).withTransactionHistory(1_000_000n);
  if (!svm.getAccount(address(MEMO_PROGRAM_V4)).exists) {
    const memo = svm.getAccount(address(MEMO_PROGRAM_V3));
    if (memo.exists) svm.addProgramWithLoader(address(MEMO_PROGRAM_V4), new Uint8Array(memo.data), address(BPF_LOADER_UPGRADEABLE));
  }
  return svm;
}

/** A LiteSVM result that is a failure (FailedTransactionMetadata: its error, and the metadata of what ran). */
export function isFailed(result: unknown): result is FailedTransactionMetadata {
  return typeof (result as FailedTransactionMetadata).err === 'function';
}

/** The fields of an outcome that LiteSVM's metadata gives: logs, compute units, inner instructions, return data. */
export function metaFields(meta: TransactionMetadata): Pick<ExecutionOutcome, 'logs' | 'unitsConsumed' | 'innerInstructions' | 'returnData'> {
  const inner: InnerInstructions[] = [];
  meta.innerInstructions().forEach((list, index) => {
    if (!list.length) return;
    inner.push({
      index,
      instructions: list.map((ii) => {
        const ix = ii.instruction();
        return { programIdIndex: ix.programIdIndex(), accounts: [...ix.accounts()], data: new Uint8Array(ix.data()), stackHeight: ii.stackHeight() };
      }),
    });
  });
  const returned = meta.returnData();
  const returnData = returned.data().length ? { programId: addressDecoder.decode(returned.programId()), data: new Uint8Array(returned.data()) } : null;
  return { logs: meta.logs(), unitsConsumed: meta.computeUnitsConsumed(), innerInstructions: inner, returnData };
}

/** Epoch, slot index and epoch length of a slot under the SVM's epoch schedule (warmup included). */
export function epochOf(svm: LiteSVM, slot: bigint): { epoch: bigint; slotIndex: bigint; slotsInEpoch: bigint } {
  const schedule = svm.getEpochSchedule();
  const MINIMUM_SLOTS_PER_EPOCH = 32n;
  if (schedule.warmup && slot < schedule.firstNormalSlot) {
    let epoch = 0n;
    let length = MINIMUM_SLOTS_PER_EPOCH;
    let start = 0n;
    while (slot >= start + length) {
      start += length;
      length *= 2n;
      epoch += 1n;
    }
    return { epoch, slotIndex: slot - start, slotsInEpoch: length };
  }
  const normal = slot - schedule.firstNormalSlot;
  return {
    epoch: schedule.firstNormalEpoch + normal / schedule.slotsPerEpoch,
    slotIndex: normal % schedule.slotsPerEpoch,
    slotsInEpoch: schedule.slotsPerEpoch,
  };
}
