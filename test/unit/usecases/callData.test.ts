import { loadCatalog } from '../../../src/files/catalog';
import { DEFAULT_DATA_DIR } from '../../../src/config';
import { erc20Interface } from '../../../src/core/transactions/abi';
import { parseCallData } from '../../../src/usecases/callData';
import { invalidRequestOf } from '../../support/domainErrors';
import { ARB_USDC, WALLET_CHECKSUMMED } from '../../support/fixtures';

const catalog = loadCatalog(DEFAULT_DATA_DIR);
const approve = erc20Interface.encodeFunctionData('approve', [WALLET_CHECKSUMMED, 5n]);

describe('parseCallData (GET /v1/calldata/parse)', () => {
  it('decodes an ERC-20 approve into its function and arguments', () => {
    const [call] = parseCallData(catalog, approve);
    expect(call.functionName).toBe('approve');
    expect(JSON.stringify(call)).toContain(WALLET_CHECKSUMMED);
  });

  it('gives the same answer with or without a supported chainId', () => {
    expect(parseCallData(catalog, approve, 42161)).toEqual(parseCallData(catalog, approve));
    expect(parseCallData(catalog, approve, 'arb')).toEqual(parseCallData(catalog, approve));
  });

  it('refuses an unknown chainId, naming the parameter, before reading the call data', () => {
    expect(invalidRequestOf(() => parseCallData(catalog, '0xzz', 999_999)).issue).toMatchObject({ name: 'chainId', rule: 'supportedChain' });
  });

  it('refuses malformed call data, naming callData', () => {
    expect(invalidRequestOf(() => parseCallData(catalog, '0x12')).issue).toMatchObject({ name: 'callData' });
  });

  it('is not confused by a token address passed as call data', () => {
    expect(invalidRequestOf(() => parseCallData(catalog, ARB_USDC)).issue.name).toBe('callData');
  });
});
