/**
 * The EVM side of the transfer indexer (src/chain/transferIndexer.ts) on a fake node and a fake tracker, into an
 * in-memory database: a transfer found in the router's logs is saved with its state; while it is unsettled, an answer
 * that is not its own (its chain did not answer: no sending side) leaves the row and its events as they were, and the
 * next good answer moves it on. (The rest runs on real chains: test/e2e/history.test.ts.)
 */
import type { JsonRpcProvider } from 'ethers';
import pino from 'pino';
import { TransferIndexer } from '../../../src/chain/transferIndexer';
import type { TransferStatus } from '../../../src/core/status/transferStatus';
import { openDatabase, type Database } from '../../../src/persistence/database';
import { eventsAfter } from '../../../src/persistence/transferEvents';

const ARBITRUM = 42161;
const ROUTER = '0x1231DEB6f5749EF6cE6943a275A1D3E7486F4EaE';
const WALLET = '0x552008c0F6870C2f77e5cC1d2Eb9bdff03E30Ea9';
const TX = `0x${'ab'.repeat(32)}`;
const blockHash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

let database: Database;
beforeAll(async () => {
  database = await openDatabase({ dir: 'memory://' });
}, 120_000);
afterAll(async () => {
  await database?.close();
});

test('a passing failure of the chain leaves an unsettled transfer as it was; the next answer moves it on', async () => {
  const head = { number: 10, hash: blockHash(10) };
  const provider = {
    getBlock: async (tag: number | string) => (tag === 'latest' ? head : { number: Number(tag), hash: blockHash(Number(tag)) }),
    getLogs: async ({ fromBlock, toBlock }: { fromBlock: number; toBlock: number }) => (fromBlock <= 5 && 5 <= toBlock ? [{ transactionHash: TX, blockNumber: 5, blockHash: blockHash(5) }] : []),
  } as unknown as JsonRpcProvider;
  const pending: TransferStatus = { status: 'PENDING', substatus: 'WAIT_DESTINATION_TRANSACTION', fromAddress: WALLET, toAddress: WALLET, sending: { chainId: ARBITRUM, txHash: TX } };
  const answers: TransferStatus[] = [
    pending,
    // the source chain did not answer: the tracker says so, without the transfer's sides
    { status: 'PENDING', substatus: 'CHAIN_NOT_AVAILABLE', substatusMessage: 'chain 42161 did not answer' },
    { ...pending, status: 'DONE', substatus: 'COMPLETED' },
  ];
  let asked = 0;
  const indexer = new TransferIndexer({
    db: database.db, chains: [{ chainId: ARBITRUM, provider, router: ROUTER, startBlock: 0 }], holder: 'unit', logger: pino({ level: 'silent' }),
    tracker: { status: async () => answers[Math.min(asked++, answers.length - 1)]! },
  });
  const row = () => database.db.selectFrom('transfers').select(['status', 'substatus', 'from_address']).executeTakeFirstOrThrow();

  await indexer.pollAll(); // found: PENDING; then read again: the chain's failure
  expect(asked).toBe(2);
  expect(await row()).toEqual({ status: 'PENDING', substatus: 'WAIT_DESTINATION_TRANSACTION', from_address: WALLET.toLowerCase() });
  expect((await eventsAfter(database.db, 0n, [], 10)).map((e) => e.status.substatus)).toEqual(['WAIT_DESTINATION_TRANSACTION']);

  await indexer.pollAll(); // read again: DONE
  expect(await row()).toEqual({ status: 'DONE', substatus: 'COMPLETED', from_address: WALLET.toLowerCase() });
  expect((await eventsAfter(database.db, 0n, [], 10)).map((e) => e.status.substatus)).toEqual(['WAIT_DESTINATION_TRANSACTION', 'COMPLETED']);
  await indexer.stop();
});
