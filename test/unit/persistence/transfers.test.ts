import type { Token } from '../../../src/core/entities';
import { decodeStatus, encodeStatus } from '../../../src/core/status/record';
import type { TransferStatus } from '../../../src/core/status/transferStatus';
import {
  asChainWriter, claimChain, findTransfer, forgetFromBlock, LeaseLostError, listTransfers, moveCursor, releaseChain, saveTransfer, summarizeTransfers, unsettledTransfers,
} from '../../../src/persistence/transfers';
import { databaseEngines, emptyTables } from '../../support/postgres';

const ALICE = '0x552008c0F6870C2f77e5cC1d2Eb9bdff03E30Ea9';
const BOB = '0xD6345B798ADA3A1a36E85424003D1ff14e3883b7';
const USDC: Token = { chainId: 42161, address: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831', symbol: 'USDC', decimals: 6, name: 'USD Coin', coinKey: 'USDC', priceUSD: '1', tags: [] };
const T0 = Date.parse('2026-11-01T00:00:00Z') / 1000;
const NOW = new Date('2026-11-29T00:00:00Z');
const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

function status(n: number, fields: Partial<TransferStatus> = {}): TransferStatus {
  return {
    status: 'DONE', substatus: 'COMPLETED', transactionId: hash(1000 + n), tool: 'across', fromAddress: ALICE, toAddress: ALICE, integrator: 'dapp',
    sending: { chainId: 42161, txHash: hash(n), block: 100 + n, amount: 5_000_000n + BigInt(n), token: USDC, timestamp: T0 + n * 60, includedSteps: [{ tool: 'across', fromAmount: 5_000_000n, toAmount: 4_990_000n, fromToken: USDC }] },
    receiving: { chainId: 8453 },
    ...fields,
  };
}

test('a status is kept as it was: bigints, tokens and nesting come back equal', () => {
  const s = status(7, { fees: [{ tokenAddress: USDC.address, token: USDC, integratorFee: 15_000n, serviceFee: 0n, fraction: 0.003 }] });
  expect(decodeStatus(encodeStatus(s))).toEqual(s);
  // a field that looks like the marker but is not one stays an object
  expect(decodeStatus(JSON.stringify({ status: 'DONE', x: { $bigint: '1', other: 2 } }))).toEqual({ status: 'DONE', x: { $bigint: '1', other: 2 } });
});

describe.each(databaseEngines())('the transfer index on $name', (engine) => {
  beforeAll(() => engine.start(), 120_000);
  afterAll(() => engine.stop());
  beforeEach(() => emptyTables(engine.shared()));
  const db = () => engine.shared().db;
  const save = (n: number, fields: Partial<TransferStatus> = {}, chainId = 42161) =>
    saveTransfer(db(), { chainId, txHash: hash(n), blockNumber: 100 + n, blockHash: hash(9000 + n), status: status(n, fields) }, NOW);

  it('a transfer is saved once per sending transaction and updated in place; found by hash or transfer id', async () => {
    await save(1, { status: 'PENDING', substatus: 'WAIT_DESTINATION_TRANSACTION' });
    expect(await unsettledTransfers(db(), 42161, 10)).toEqual([{ txHash: hash(1), blockNumber: 101, blockHash: hash(9001) }]);
    await save(1);
    expect(await unsettledTransfers(db(), 42161, 10)).toEqual([]);
    const rows = await db().selectFrom('transfers').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'DONE', final: true, integrator: 'dapp', from_address: ALICE.toLowerCase(), amount_usd: 5.000001 });
    expect(await findTransfer(db(), hash(1).toUpperCase().replace('0X', '0x'))).toEqual(status(1));
    expect(await findTransfer(db(), hash(1001))).toEqual(status(1));
    expect(await findTransfer(db(), hash(2))).toBeUndefined();
    // the same transaction hash on another chain is another transfer
    await save(1, {}, 8453);
    expect(await db().selectFrom('transfers').select('seq').execute()).toHaveLength(2);
    // a NOT_FOUND answer is nothing to keep
    await save(3, { status: 'NOT_FOUND' });
    expect(await findTransfer(db(), hash(3))).toBeUndefined();
  });

  it('lists a wallet\'s (sent or received) or an integrator\'s transfers newest first, with every filter', async () => {
    await save(1);
    await save(2, { fromAddress: BOB, toAddress: ALICE, integrator: 'other' });
    await save(3, { fromAddress: BOB, toAddress: BOB, status: 'FAILED', substatus: 'UNKNOWN_FAILED_ERROR' });
    await save(4, { status: 'PENDING', substatus: 'WAIT_DESTINATION_TRANSACTION' });
    const ids = async (filter: Parameters<typeof listTransfers>[1]) => (await listTransfers(db(), filter, { limit: 10 })).transfers.map((t) => t.sending!.txHash);
    expect(await ids({ wallet: ALICE.toLowerCase() })).toEqual([hash(4), hash(2), hash(1)]);
    expect(await ids({ wallet: BOB })).toEqual([hash(3), hash(2)]);
    expect(await ids({ integrator: 'dapp' })).toEqual([hash(4), hash(3), hash(1)]);
    expect(await ids({ wallet: ALICE, integrator: 'dapp' })).toEqual([hash(4), hash(1)]);
    expect(await ids({ integrator: 'dapp', status: 'FAILED' })).toEqual([hash(3)]);
    expect(await ids({ integrator: 'dapp', status: 'PENDING' })).toEqual([hash(4)]);
    expect(await ids({ integrator: 'dapp', from: new Date((T0 + 120) * 1000), to: new Date((T0 + 180) * 1000) })).toEqual([hash(3)]); // 2 is another integrator's
    expect(await ids({ integrator: 'nobody' })).toEqual([]);
  });

  it('pages by cursor: every row once, in order, while new transfers arrive between pages', async () => {
    // several transfers in one block time: the sequence number breaks the tie
    for (let n = 1; n <= 25; n++) await save(n, { sending: { ...status(n).sending!, timestamp: T0 + Math.floor(n / 3) * 60 } });
    const seen: string[] = [];
    let after: Awaited<ReturnType<typeof listTransfers>>['next'];
    let arrivals = 100;
    do {
      const page = await listTransfers(db(), { wallet: ALICE }, { limit: 4, ...(after ? { after } : {}) });
      seen.push(...page.transfers.map((t) => t.sending!.txHash!));
      after = page.next;
      // newer transfers arrive meanwhile (after the first page's rows in time): they do not shift the pages
      await save(arrivals++, { sending: { ...status(arrivals).sending!, txHash: hash(arrivals), timestamp: T0 + 100_000 + arrivals } });
    } while (after);
    const expected = Array.from({ length: 25 }, (_, i) => i + 1).sort((a, b) => Math.floor(b / 3) - Math.floor(a / 3) || b - a).map(hash);
    expect(seen).toEqual(expected);
  });

  it('summarizes counts and USD volumes by status, chain and tool', async () => {
    await save(1);
    await save(2, { tool: 'stargate' });
    await save(3, { status: 'FAILED', substatus: 'UNKNOWN_FAILED_ERROR' }, 8453);
    await save(4, { integrator: 'other' });
    const summary = await summarizeTransfers(db(), { integrator: 'dapp' });
    expect(summary.count).toBe(3);
    expect(summary.volumeUsd).toBeCloseTo(15.000006, 6);
    expect(summary.byStatus.map((g) => [g.key, g.count])).toEqual([['DONE', 2], ['FAILED', 1]]);
    expect(summary.byChain.map((g) => [g.key, g.count])).toEqual([[8453, 1], [42161, 2]]);
    expect(summary.byTool.map((g) => [g.key, g.count])).toEqual([['across', 2], ['stargate', 1]]);
  });

  it('a reorganisation forgets the transfers of the replaced blocks', async () => {
    await save(1);
    await save(5);
    await save(9);
    expect(await forgetFromBlock(db(), 42161, 105)).toBe(2);
    expect((await listTransfers(db(), { wallet: ALICE }, { limit: 10 })).transfers.map((t) => t.sending!.txHash)).toEqual([hash(1)]);
  });

  it('one writer per chain: a lease, renewed by its holder, taken over when it runs out; a lost lease writes nothing', async () => {
    const lease = { now: NOW, leaseMs: 30_000, startBlock: 7 };
    expect(await claimChain(db(), 42161, 'a', lease)).toEqual({ nextBlock: 7 });
    expect(await claimChain(db(), 42161, 'b', lease)).toBeUndefined();
    await asChainWriter(db(), 42161, 'a', NOW, (trx) => moveCursor(trx, 42161, { nextBlock: 20, lastHash: hash(19) }));
    expect(await claimChain(db(), 42161, 'a', lease)).toEqual({ nextBlock: 20, lastHash: hash(19) });
    // a's lease runs out: b takes the chain where a left it, and a can write no more
    const later = new Date(NOW.getTime() + 31_000);
    expect(await claimChain(db(), 42161, 'b', { ...lease, now: later })).toEqual({ nextBlock: 20, lastHash: hash(19) });
    await expect(asChainWriter(db(), 42161, 'a', later, (trx) => moveCursor(trx, 42161, { nextBlock: 99 }))).rejects.toThrow(LeaseLostError);
    expect(await claimChain(db(), 42161, 'b', { ...lease, now: later })).toEqual({ nextBlock: 20, lastHash: hash(19) });
    // a clean stop hands it over at once
    await releaseChain(db(), 42161, 'b');
    expect(await claimChain(db(), 42161, 'a', { ...lease, now: later })).toEqual({ nextBlock: 20, lastHash: hash(19) });
    // two instances claiming at the same moment: one gets it
    await releaseChain(db(), 42161, 'a');
    const both = await Promise.all([claimChain(db(), 42161, 'c', lease), claimChain(db(), 42161, 'd', lease)]);
    expect(both.filter((c) => c !== undefined)).toHaveLength(1);
  });
});
