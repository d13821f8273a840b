/** The call-data parser: every function the service encodes, common public functions, nesting, and the errors. */
import { Interface } from 'ethers';
import { InvalidRequestError } from '../../../../src/core/errors';
import { ERC20_ABI, V2_ROUTER_ABI } from '../../../../src/core/transactions/abi';
import { encodeBridgeCall, encodeCollectTokenFees, encodeCurveExchange, encodeSwapAndCompleteBridgeTokens, encodeSwapTokensGeneric, encodeUnwrap, encodeV2Swap, encodeV3ExactInput, encodeWrap, packV3Path } from '../../../../src/core/transactions/calldata';
import { CallDataParser } from '../../../../src/core/transactions/parse';
import { ARB_USDC as USDC, ARB_WETH as WETH, ROUTER, WALLET_CHECKSUMMED as USER } from '../../../support/fixtures';

const parser = new CallDataParser(['across', 'cctp']);

function rejects(callData: string, message: RegExp): void {
  let error: unknown;
  try {
    parser.parse(callData);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(InvalidRequestError);
  expect((error as Error).message).toMatch(message);
  expect((error as InvalidRequestError).details).toMatchObject({ issues: [{ name: 'callData' }] });
  expect((error as InvalidRequestError).details).not.toMatchObject({ issues: [{ in: expect.anything() }] });
}

describe('CallDataParser', () => {
  it('decodes ERC-20 approve, transfer and transferFrom with checksummed addresses and decimal amounts', () => {
    const erc20 = new Interface(ERC20_ABI);
    expect(parser.parse(erc20.encodeFunctionData('approve', [ROUTER.toLowerCase(), 10n ** 30n]))).toEqual([
      { functionName: 'approve', functionParameters: { spender: ROUTER, amount: '1000000000000000000000000000000' } },
    ]);
    expect(parser.parse(erc20.encodeFunctionData('transfer', [USER, 5n]))[0]).toEqual({ functionName: 'transfer', functionParameters: { to: USER, amount: '5' } });
    expect(parser.parse(erc20.encodeFunctionData('transferFrom', [USER, ROUTER, 5n]))[0].functionName).toBe('transferFrom');
  });

  it('decodes the pool routers, Curve pools and WETH', () => {
    expect(parser.parse(encodeV2Swap(7n, 6n, [USDC, WETH], ROUTER))[0]).toEqual({
      functionName: 'swapExactTokensForTokens',
      functionParameters: { amountIn: '7', amountOutMin: '6', path: [USDC, WETH], to: ROUTER, deadline: '4102444800' },
    });
    const path = packV3Path([USDC, WETH], [3000]);
    expect(parser.parse(encodeV3ExactInput(path, ROUTER, 7n, 6n))[0]).toEqual({
      functionName: 'exactInput',
      functionParameters: { params: { path, recipient: ROUTER, deadline: '4102444800', amountIn: '7', amountOutMinimum: '6' } },
    });
    expect(parser.parse(encodeCurveExchange(1, 2, 7n, 6n))[0]).toEqual({ functionName: 'exchange', functionParameters: { i: '1', j: '2', dx: '7', min_dy: '6' } });
    expect(parser.parse(encodeWrap())).toEqual([{ functionName: 'deposit', functionParameters: {} }]);
    expect(parser.parse(encodeUnwrap(9n))).toEqual([{ functionName: 'withdraw', functionParameters: { amount: '9' } }]);
    const v2 = new Interface(V2_ROUTER_ABI);
    expect(parser.parse(v2.encodeFunctionData('swapExactETHForTokens', [1n, [WETH, USDC], USER, 2n]))[0].functionName).toBe('swapExactETHForTokens');
  });

  it('decodes nested SwapData call data recursively and leaves unknown nested calls as hex', () => {
    const fee = encodeCollectTokenFees(USDC, 25n, 0n, USER);
    const data = encodeSwapTokensGeneric({
      transactionId: `0x${'12'.repeat(32)}`, integrator: 'acme', referrer: 'ref', receiver: USER, minAmountOut: 1n,
      swapData: [
        { callTo: ROUTER, approveTo: ROUTER, sendingAssetId: USDC, receivingAssetId: USDC, fromAmount: 100n, callData: fee, requiresDeposit: true },
        { callTo: ROUTER, approveTo: ROUTER, sendingAssetId: USDC, receivingAssetId: WETH, fromAmount: 75n, callData: '0x12345678aa', requiresDeposit: false },
      ],
    });
    const [call] = parser.parse(data);
    expect(call.functionName).toBe('swapTokensGeneric');
    const swaps = call.functionParameters.swapData as { callData: unknown; requiresDeposit: boolean }[];
    expect(swaps[0].callData).toEqual([{ functionName: 'collectTokenFees', functionParameters: { token: USDC, integratorFee: '25', serviceFee: '0', integrator: USER } }]);
    expect(swaps[0].requiresDeposit).toBe(true);
    expect(swaps[1].callData).toBe('0x12345678aa');
    expect(call.functionParameters).toMatchObject({ integrator: 'acme', referrer: 'ref', receiver: USER, minAmountOut: '1' });
  });

  it('decodes bridge calls and the destination call inside them', () => {
    const destination = encodeSwapAndCompleteBridgeTokens({
      transactionId: `0x${'00'.repeat(32)}`, transferredAssetId: USDC, receiver: USER, minAmountOut: 3n,
      swapData: [{ callTo: ROUTER, approveTo: ROUTER, sendingAssetId: USDC, receivingAssetId: WETH, fromAmount: 4n, callData: encodeV2Swap(4n, 3n, [USDC, WETH], ROUTER), requiresDeposit: false }],
    });
    const data = encodeBridgeCall(
      { transactionId: `0x${'00'.repeat(32)}`, bridge: 'cctp', integrator: '', referrer: USER, sendingAssetId: USDC, receiver: USER, minAmount: 5n, destinationChainId: 10n, hasSourceSwaps: false, hasDestinationCall: true },
      [],
      { receiverOnDestination: ROUTER, nonEVMReceiver: '0x', destinationMinAmount: 3n, destinationCallData: destination },
    );
    const [call] = parser.parse(data);
    expect(call.functionName).toBe('startBridgeTokensViaCCTP');
    const specific = call.functionParameters.data as { destinationCallData: { functionName: string; functionParameters: { swapData: { callData: { functionName: string }[] }[] } }[] };
    expect(specific.destinationCallData[0].functionName).toBe('swapAndCompleteBridgeTokens');
    expect(specific.destinationCallData[0].functionParameters.swapData[0].callData[0].functionName).toBe('swapExactTokensForTokens');
    expect(call.functionParameters.bridgeData).toMatchObject({ bridge: 'cctp', minAmount: '5', destinationChainId: '10', hasDestinationCall: true });
  });

  it('decodes multicall data items recursively', () => {
    const iface = new Interface(['function multicall(bytes[] data)']);
    const [call] = parser.parse(iface.encodeFunctionData('multicall', [[encodeWrap(), '0xabcdef01']]));
    expect(call).toEqual({ functionName: 'multicall', functionParameters: { data: [[{ functionName: 'deposit', functionParameters: {} }], '0xabcdef01'] } });
  });

  it('refuses malformed call data, naming callData', () => {
    rejects('0x123', /callData must be 0x-prefixed hex/);
    rejects('abcdef12', /callData must be 0x-prefixed hex/);
    rejects('0x1234', /at least a 4-byte function selector/);
    rejects('0xdeadbeef', /selector 0xdeadbeef, which matches no known ABI/);
    rejects(encodeV2Swap(7n, 6n, [USDC, WETH], ROUTER).slice(0, -64), /does not decode as swapExactTokensForTokens/);
    rejects(`${encodeUnwrap(1n)}00`, /does not decode as withdraw\(uint256\)/);
    // a non-canonical bool (2) is not an encoding any contract would produce
    rejects(`0xa22cb465${USER.slice(2).toLowerCase().padStart(64, '0')}${'2'.padStart(64, '0')}`, /does not decode as setApprovalForAll/);
  });
});
