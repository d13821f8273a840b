import { loadConfig } from '../../../src/config';
import { InvalidRequestError } from '../../../src/core/errors';
import { buildDependencies, type Dependencies } from '../../../src/server/dependencies';
import { gasPricesOfChain } from '../../../src/usecases/gasPrices';
import { transferStatus } from '../../../src/usecases/status';
import type { TransferStatus } from '../../../src/core/status/transferStatus';
import { openDatabase, type Database } from '../../../src/persistence/database';
import { databaseHistory, saveTransfer } from '../../../src/persistence/transfers';

let deps: Dependencies;
beforeAll(() => {
  deps = buildDependencies(loadConfig({ LOG_LEVEL: 'silent' }));
});

describe('transferStatus', () => {
  it('a relayer task alone is NOT_FOUND, saying that no relayer runs here', async () => {
    await expect(transferStatus(deps, { taskId: 'task-1' })).resolves.toEqual({ status: 'NOT_FOUND', substatusMessage: expect.stringMatching(/no relayer/) });
  });

  it('needs a txHash, a transactionId or a taskId', async () => {
    await expect(transferStatus(deps, { bridge: 'across' })).rejects.toBeInstanceOf(InvalidRequestError);
  });

  it('looks a transfer up by transactionId when there is no txHash (NOT_FOUND without chains)', async () => {
    await expect(transferStatus(deps, { transactionId: `0x${'ab'.repeat(32)}` })).resolves.toMatchObject({ status: 'NOT_FOUND' });
  });

  it('refuses an unknown chain', async () => {
    await expect(transferStatus(deps, { txHash: `0x${'ab'.repeat(32)}`, fromChain: 'nochain' })).rejects.toBeInstanceOf(InvalidRequestError);
  });
});

describe('transferStatus from the index', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ dir: 'memory://' });
  }, 60_000);
  afterAll(() => database?.close());
  const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
  const save = (n: number, status: TransferStatus) => saveTransfer(database.db, { chainId: 42161, txHash: hash(n), blockNumber: n, blockHash: hash(900 + n), status }, new Date());

  it('a final transfer the index holds is answered from it (no chain is connected here), by hash or transfer id, unless the request narrows to another', async () => {
    const done: TransferStatus = { status: 'DONE', substatus: 'COMPLETED', transactionId: hash(7001), tool: 'across', sending: { chainId: 42161, txHash: hash(1), amount: 5n, timestamp: 1 }, receiving: { chainId: 8453, txHash: hash(2) } };
    await save(1, done);
    await save(3, { ...done, status: 'PENDING', substatus: 'WAIT_DESTINATION_TRANSACTION', transactionId: hash(7003), sending: { ...done.sending!, txHash: hash(3) } });
    const indexed = { ...deps, history: databaseHistory(async () => database.db) };
    await expect(transferStatus(indexed, { txHash: hash(1) })).resolves.toEqual(done);
    await expect(transferStatus(indexed, { transactionId: hash(7001) })).resolves.toEqual(done);
    await expect(transferStatus(indexed, { txHash: hash(1), fromChain: 'arb', toChain: 'bas', bridge: 'across' })).resolves.toEqual(done);
    // narrowed to another bridge or chain, or not final yet: the chains are asked (none here: NOT_FOUND)
    await expect(transferStatus(indexed, { txHash: hash(1), bridge: 'stargate' })).resolves.toMatchObject({ status: 'NOT_FOUND' });
    await expect(transferStatus(indexed, { txHash: hash(1), fromChain: 'opt' })).resolves.toMatchObject({ status: 'NOT_FOUND' });
    await expect(transferStatus(indexed, { txHash: hash(3) })).resolves.toMatchObject({ status: 'NOT_FOUND' });
    // an index that fails is no answer: the chains are asked
    const failing = { ...deps, history: databaseHistory(() => Promise.reject(new Error('the database is closed'))) };
    await expect(transferStatus(failing, { txHash: hash(1) })).resolves.toMatchObject({ status: 'NOT_FOUND' });
  });
});

describe('gasPricesOfChain', () => {
  it('gives an EVM chain its prices by id or key, and refuses a chain without EVM gas', () => {
    expect(gasPricesOfChain(deps, 'arb')).toEqual(gasPricesOfChain(deps, 42161));
    expect(() => gasPricesOfChain(deps, 'sol')).toThrow(/EVM chains/);
  });
});
