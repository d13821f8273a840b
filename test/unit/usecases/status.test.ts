import { loadConfig } from '../../../src/config';
import { InvalidRequestError } from '../../../src/core/errors';
import { buildDependencies, type Dependencies } from '../../../src/server/dependencies';
import { gasPricesOfChain } from '../../../src/usecases/gasPrices';
import { transferStatus } from '../../../src/usecases/status';

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

describe('gasPricesOfChain', () => {
  it('gives an EVM chain its prices by id or key, and refuses a chain without EVM gas', () => {
    expect(gasPricesOfChain(deps, 'arb')).toEqual(gasPricesOfChain(deps, 42161));
    expect(() => gasPricesOfChain(deps, 'sol')).toThrow(/EVM chains/);
  });
});
