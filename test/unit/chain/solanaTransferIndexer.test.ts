/**
 * The transfer indexer's Solana side (src/chain/solanaTransferIndexer.ts) on a fake node and a fake tracker, through
 * the TransferIndexer that polls it, into an in-memory database (PGlite):
 * - a deposit into the escrow (on its owner, or on a token account, read across pages) is kept under its signature,
 *   whose case is kept (a base58 signature lower-cased names no transaction); a failed deposit is kept as FAILED; a
 *   release or refund (the escrow's own memo) is not even asked for; a transaction whose answer is another
 *   transaction's transfer, or INVALID, is not kept; unsettled transfers are read again to DONE;
 * - a transaction the tracker cannot read through (a chain not answering) is kept when its memo is a deposit's; else the
 *   cursor waits before its slot until it can be read, as it does for a deposit not found yet;
 * - a restart resumes at the cursor (nothing lost, nothing twice); two instances: one writer;
 * - a slot replaced (the witness signature gone from the node): the transfers of the last slots forgotten and read again;
 * - the first run starts at the node's slot unless a start slot is given; a long way behind, a bounded stretch per poll.
 */
import { base58 } from '@scure/base';
import pino from 'pino';
import { SolanaTransferFollower, type EscrowNode, type EscrowSignature } from '../../../src/chain/solanaTransferIndexer';
import { TransferIndexer } from '../../../src/chain/transferIndexer';
import type { StatusQuery, TransferStatus } from '../../../src/core/status/transferStatus';
import { openDatabase, type Database } from '../../../src/persistence/database';
import { findTransfer } from '../../../src/persistence/transfers';

const SOLANA = 1151111081099710;
const ARBITRUM = 42161;
const OWNER = '6eE9jxpcD7dEgY2zC8WfD6rXos26PEmddhqsxAgkVxZ2';
const USDC_ACCOUNT = 'BRdzx9HgxS1oQ1mJ8nz3fwXNbLGnqtTwWyS5FDCsiV6K';
const SENDER = 'HXtBm8XZbxaTt41uqaKhwUAa6Z1aPyvJdsZVENiWsetg';
const RECEIVER = '0x552008c0F6870C2f77e5cC1d2Eb9bdff03E30Ea9';
const silent = pino({ level: 'silent' });

/** A signature (base58 of 64 bytes, mixed case). */
const sig = (n: number) => base58.encode(Uint8Array.from({ length: 64 }, (_, i) => (i < 2 ? (n >> (8 * i)) & 255 : (n * 31 + i * 7) % 256) | (i === 0 ? 128 : 0)));
const depositMemo = (n: number) => `[80] xchain:v1:across:0x${n.toString(16).padStart(64, '0')}:${ARBITRUM}:${RECEIVER.toLowerCase()}:1`;
const releaseMemo = '[120] xchain:release:v1:0x01:42161:7';

interface FakeTransaction extends EscrowSignature {
  readonly accounts: readonly string[];
}

/** A node with the transactions given, listing each account's newest first; `gone` ones it no longer has. */
class FakeNode implements EscrowNode {
  slot = 100;
  readonly transactions: FakeTransaction[] = [];
  readonly gone = new Set<string>();
  pages = 0;

  add(n: number, slot: number, memo: string | null, accounts: readonly string[] = [OWNER]): string {
    const signature = sig(n);
    this.transactions.push({ signature, slot, memo, accounts });
    this.slot = Math.max(this.slot, slot);
    return signature;
  }

  async confirmedSlot(): Promise<number> {
    return this.slot;
  }

  async accounts(): Promise<readonly string[]> {
    return [OWNER, USDC_ACCOUNT];
  }

  async signatures(account: string, options: { readonly before?: string; readonly limit: number; readonly minContextSlot: number }): Promise<readonly EscrowSignature[]> {
    if (options.minContextSlot > this.slot) throw new Error('Minimum context slot has not been reached');
    this.pages += 1;
    let list = this.transactions.filter((t) => t.accounts.includes(account) && !this.gone.has(t.signature)).sort((a, b) => b.slot - a.slot);
    if (options.before !== undefined) list = list.slice(list.findIndex((t) => t.signature === options.before) + 1);
    return list.slice(0, options.limit).map(({ signature, slot, memo }) => ({ signature, slot, memo }));
  }

  async has(signature: string): Promise<boolean> {
    return this.transactions.some((t) => t.signature === signature) && !this.gone.has(signature);
  }
}

/** A tracker answering what `answers` holds (NOT_FOUND otherwise); the references asked are kept. */
class FakeTracker {
  readonly answers = new Map<string, TransferStatus>();
  readonly asked: string[] = [];

  async status(query: StatusQuery): Promise<TransferStatus> {
    this.asked.push(query.ref);
    return this.answers.get(query.ref) ?? { status: 'NOT_FOUND' };
  }
}

/** A deposit's answer: sent by `signature` on Solana. */
function deposit(signature: string, slot: number, fields: Partial<TransferStatus> = {}): TransferStatus {
  return {
    status: 'PENDING', substatus: 'WAIT_DESTINATION_TRANSACTION', tool: 'across', fromAddress: SENDER, toAddress: RECEIVER,
    sending: { chainId: SOLANA, txHash: signature, block: slot, amount: 25_000_000n, timestamp: 1_790_000_000 + slot },
    receiving: { chainId: ARBITRUM },
    ...fields,
  };
}
const done = (signature: string, slot: number) => deposit(signature, slot, { status: 'DONE', substatus: 'COMPLETED', receiving: { chainId: ARBITRUM, txHash: `0x${'ab'.repeat(32)}` } });
const unavailable: TransferStatus = { status: 'PENDING', substatus: 'CHAIN_NOT_AVAILABLE', substatusMessage: 'chain 42161 did not answer; ask again later.' };

let database: Database;
beforeAll(async () => {
  database = await openDatabase({ dir: 'memory://' });
}, 60_000);
afterAll(async () => {
  await database?.close();
});
beforeEach(async () => {
  for (const table of ['webhook_deliveries', 'transfer_events', 'transfers', 'indexer_cursors'] as const) await database.db.deleteFrom(table).execute();
});

const rows = async () => (await database.db.selectFrom('transfers').select(['chain_id', 'tx_hash', 'block_number', 'status', 'final']).orderBy('block_number').execute())
  .map((r) => [r.tx_hash, Number(r.block_number), r.status]);

function indexer(node: EscrowNode, tracker: FakeTracker, holder = 'a', options: { startSlot?: number } = { startSlot: 100 }) {
  return new TransferIndexer({
    db: database.db, chains: [], followers: [new SolanaTransferFollower(SOLANA, node, { ...options, pageSize: 2 })], tracker, holder, logger: silent,
  });
}

test('deposits are kept under their signatures (the case kept), the escrow\'s releases, refunds and other transactions are not; unsettled ones are read to DONE', async () => {
  const node = new FakeNode();
  const tracker = new FakeTracker();
  const d1 = node.add(1, 101, depositMemo(1), [USDC_ACCOUNT]);
  const release = node.add(2, 102, releaseMemo);
  const viaOther = node.add(3, 103, null); // a release whose memo the node does not list: the answer is another transaction's transfer
  const invalid = node.add(4, 104, null, [USDC_ACCOUNT]);
  const failed = node.add(5, 105, depositMemo(5), [USDC_ACCOUNT]);
  const sol = node.add(6, 106, depositMemo(6)); // SOL: to the owner
  tracker.answers.set(d1, deposit(d1, 101));
  tracker.answers.set(viaOther, done(`0x${'cd'.repeat(32)}`, 50));
  tracker.answers.set(invalid, { status: 'INVALID', substatusMessage: 'not a transaction of the bridge' });
  tracker.answers.set(failed, deposit(failed, 105, { status: 'FAILED', substatus: 'INSUFFICIENT_BALANCE' }));
  tracker.answers.set(sol, deposit(sol, 106));

  const first = indexer(node, tracker);
  expect(await first.pollAll()).toEqual([{ chainId: SOLANA, leased: true, fromBlock: 100, toBlock: 106, saved: 3, refreshed: 2, forgotten: 0 }]);
  expect(await rows()).toEqual([[d1, 101, 'PENDING'], [failed, 105, 'FAILED'], [sol, 106, 'PENDING']]);
  expect(tracker.asked).not.toContain(release);
  expect(node.pages).toBeGreaterThan(2); // read across pages of 2
  // found by its signature as it is, not lower-cased (another base58 string)
  expect(d1).not.toBe(d1.toLowerCase());
  expect((await findTransfer(database.db, d1))?.sending?.txHash).toBe(d1);
  expect(await findTransfer(database.db, d1.toLowerCase())).toBeUndefined();

  // released on the destination: read again to DONE; nothing new read
  tracker.answers.set(d1, done(d1, 101));
  tracker.answers.set(sol, done(sol, 106));
  tracker.asked.length = 0;
  expect(await first.pollAll()).toEqual([{ chainId: SOLANA, leased: true, fromBlock: 107, toBlock: 106, saved: 0, refreshed: 2, forgotten: 0 }]);
  expect(tracker.asked.sort()).toEqual([d1, sol].sort());
  expect(await rows()).toEqual([[d1, 101, 'DONE'], [failed, 105, 'FAILED'], [sol, 106, 'DONE']]);
  await first.stop();
});

test('a transaction the tracker cannot read through: kept when its memo is a deposit\'s, else the cursor waits before its slot (so it does for a deposit not found yet)', async () => {
  const node = new FakeNode();
  const tracker = new FakeTracker();
  const early = node.add(1, 101, depositMemo(1));
  const unread = node.add(2, 102, null);
  const later = node.add(3, 103, depositMemo(3));
  tracker.answers.set(unread, unavailable);
  tracker.answers.set(later, deposit(later, 103));

  // a deposit not found yet (a node behind the one that listed it): asked again
  const i = indexer(node, tracker);
  expect(await i.pollAll()).toMatchObject([{ fromBlock: 100, toBlock: 100, saved: 0 }]);
  tracker.answers.set(early, deposit(early, 101));
  expect(await i.pollAll()).toMatchObject([{ fromBlock: 101, toBlock: 101, saved: 1 }]);
  expect(await rows()).toEqual([[early, 101, 'PENDING']]);
  // read again until it can be: not the bridge's
  expect(await i.pollAll()).toMatchObject([{ fromBlock: 102, toBlock: 101, saved: 0 }]);
  tracker.answers.set(unread, { status: 'INVALID' });
  // a deposit whose destination does not answer: kept as it is, and its answer kept once it is the transfer's
  tracker.answers.set(later, unavailable);
  expect(await i.pollAll()).toMatchObject([{ fromBlock: 102, toBlock: 103, saved: 1 }]);
  expect(await rows()).toEqual([[early, 101, 'PENDING'], [later, 103, 'PENDING']]);
  expect((await findTransfer(database.db, later))?.substatus).toBe('CHAIN_NOT_AVAILABLE');
  // the early deposit's answer while its destination does not answer leaves its row as it was
  tracker.answers.set(early, unavailable);
  tracker.answers.set(later, done(later, 103));
  await i.pollAll();
  expect((await findTransfer(database.db, early))?.substatus).toBe('WAIT_DESTINATION_TRANSACTION');
  expect(await findTransfer(database.db, later)).toMatchObject({ status: 'DONE', sending: { txHash: later } });
  await i.stop();
});

test('a restart resumes at the cursor, nothing lost or repeated; two instances: one writer', async () => {
  const node = new FakeNode();
  const tracker = new FakeTracker();
  const d1 = node.add(1, 101, depositMemo(1));
  tracker.answers.set(d1, done(d1, 101));
  const first = indexer(node, tracker, 'a');
  await first.pollAll();
  await first.stop();
  // while no instance runs
  const d2 = node.add(2, 108, depositMemo(2), [USDC_ACCOUNT]);
  tracker.answers.set(d2, done(d2, 108));
  const second = indexer(node, tracker, 'b');
  expect(await second.pollAll()).toEqual([{ chainId: SOLANA, leased: true, fromBlock: 102, toBlock: 108, saved: 1, refreshed: 0, forgotten: 0 }]);
  const third = indexer(node, tracker, 'c');
  expect(await third.pollAll()).toEqual([{ chainId: SOLANA, leased: false, saved: 0, refreshed: 0, forgotten: 0 }]);
  expect(await second.pollAll()).toMatchObject([{ leased: true, saved: 0 }]);
  expect(await rows()).toEqual([[d1, 101, 'DONE'], [d2, 108, 'DONE']]);
  await second.stop();
  await third.stop();
});

test('a replaced slot: its transaction gone from the node, the transfers of the last slots are forgotten and read again', async () => {
  const node = new FakeNode();
  const tracker = new FakeTracker();
  const kept = node.add(1, 101, depositMemo(1));
  const orphan = node.add(2, 104, depositMemo(2));
  tracker.answers.set(kept, done(kept, 101));
  tracker.answers.set(orphan, deposit(orphan, 104));
  const i = indexer(node, tracker);
  await i.pollAll();
  expect(await rows()).toEqual([[kept, 101, 'DONE'], [orphan, 104, 'PENDING']]);
  // slot 104 replaced: the orphan gone, another deposit in its place
  node.gone.add(orphan);
  tracker.answers.delete(orphan);
  const replacement = node.add(3, 105, depositMemo(3));
  tracker.answers.set(replacement, deposit(replacement, 105));
  expect(await i.pollAll()).toMatchObject([{ leased: true, fromBlock: 100, toBlock: 105, forgotten: 2, saved: 2 }]);
  expect(await rows()).toEqual([[kept, 101, 'DONE'], [replacement, 105, 'PENDING']]);
  await i.stop();
});

test('a first run starts at the node\'s slot unless told; a long way behind, a bounded stretch per poll', async () => {
  const node = new FakeNode();
  const tracker = new FakeTracker();
  const before = node.add(1, 101, depositMemo(1));
  tracker.answers.set(before, done(before, 101));
  const fromNow = indexer(node, tracker, 'a', {});
  expect(await fromNow.pollAll()).toMatchObject([{ fromBlock: 101, toBlock: 101, saved: 1 }]); // the node's slot: 101
  await fromNow.stop();

  await database.db.deleteFrom('indexer_cursors').execute();
  await database.db.deleteFrom('transfers').execute();
  for (let n = 10; n < 610; n++) node.add(n, 200 + n, null); // 600 transactions in 600 slots, none the bridge's
  const behind = indexer(node, tracker, 'b', { startSlot: 0 });
  expect(await behind.pollAll()).toMatchObject([{ fromBlock: 0, toBlock: 200 + 10 + 499 - 1 }]); // 500 at most, whole slots
  expect(await behind.pollAll()).toMatchObject([{ fromBlock: 709, toBlock: 809 }]);
  expect(await rows()).toEqual([[before, 101, 'DONE']]);
  await behind.stop();
});
