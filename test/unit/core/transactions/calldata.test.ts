/**
 * Call-data encodings checked against known public selectors, hand-computed ABI layouts (word by word,
 * offsets of dynamic fields included) and, for the lean encoder, byte for byte against ethers' AbiCoder.
 */
import { AbiCoder, Interface, ParamType, id, solidityPacked } from 'ethers';
import {
  BRIDGE_DATA,
  BRIDGE_SPECIFIC_DATA,
  SWAP_DATA,
  bridgeFacetAbi,
  erc20Interface,
  knownFunctions,
  startBridgeFunction,
  swapAndStartBridgeFunction,
} from '../../../../src/core/transactions/abi';
import {
  SWAP_DEADLINE,
  encodeBatchWithdrawIntegratorFees,
  encodeBridgeCall,
  encodeCollectNativeFees,
  encodeCollectTokenFees,
  encodeCurveExchange,
  encodeSwapAndCompleteBridgeTokens,
  encodeSwapTokensGeneric,
  encodeUnwrap,
  encodeV2Swap,
  encodeV3ExactInput,
  encodeWithdrawIntegratorFees,
  encodeWrap,
  packV3Path,
  type BridgeData,
  type SwapData,
} from '../../../../src/core/transactions/calldata';
import { ARB_USDC as USDC, ARB_WETH as WETH, ROUTER, WALLET_CHECKSUMMED as USER } from '../../../support/fixtures';

/** Splits call data into its selector and 32-byte words (hex without 0x). */
function words(data: string): { selector: string; words: string[] } {
  const body = data.slice(10);
  expect(body.length % 64).toBe(0);
  return { selector: data.slice(0, 10), words: body.match(/.{64}/g) ?? [] };
}
const word = (n: bigint | number) => BigInt(n).toString(16).padStart(64, '0');
const addr = (a: string) => a.slice(2).toLowerCase().padStart(64, '0');

describe('selectors of the functions the service calls are the public ones', () => {
  it.each([
    ['approve(address,uint256)', '0x095ea7b3'],
    ['transfer(address,uint256)', '0xa9059cbb'],
    ['transferFrom(address,address,uint256)', '0x23b872dd'],
    ['swapExactTokensForTokens(uint256,uint256,address[],address,uint256)', '0x38ed1739'],
    ['exactInput((bytes,address,uint256,uint256,uint256))', '0xc04b8d59'],
    ['exchange(int128,int128,uint256,uint256)', '0x3df02124'],
    ['deposit()', '0xd0e30db0'],
    ['withdraw(uint256)', '0x2e1a7d4d'],
    ['collectTokenFees(address,uint256,uint256,address)', '0xeedd56e1'],
    ['swapTokensGeneric(bytes32,string,string,address,uint256,(address,address,address,address,uint256,bytes,bool)[])', '0x4630a0d8'],
  ])('%s is %s and known to the parser', (signature, selector) => {
    expect(id(signature).slice(0, 10)).toBe(selector);
    expect(knownFunctions([]).map((f) => f.selector)).toContain(selector);
  });

  it('encodes each kind with its selector', () => {
    expect(encodeV2Swap(1n, 1n, [USDC, WETH], ROUTER).slice(0, 10)).toBe('0x38ed1739');
    expect(encodeV3ExactInput(packV3Path([USDC, WETH], [500]), ROUTER, 1n, 1n).slice(0, 10)).toBe('0xc04b8d59');
    expect(encodeCurveExchange(0, 1, 1n, 1n).slice(0, 10)).toBe('0x3df02124');
    expect(encodeWrap()).toBe('0xd0e30db0');
    expect(encodeUnwrap(1n).slice(0, 10)).toBe('0x2e1a7d4d');
    expect(encodeCollectTokenFees(USDC, 1n, 0n, USER).slice(0, 10)).toBe('0xeedd56e1');
  });

  it('names the bridge facets startBridgeTokensVia<Bridge> and swapAndStartBridgeTokensVia<Bridge>', () => {
    expect(startBridgeFunction('across')).toBe('startBridgeTokensViaAcross');
    expect(swapAndStartBridgeFunction('stargate')).toBe('swapAndStartBridgeTokensViaStargate');
    expect(startBridgeFunction('some-new_bridge')).toBe('startBridgeTokensViaSomeNewBridge');
    const iface = new Interface(bridgeFacetAbi('across'));
    expect(iface.getFunction('startBridgeTokensViaAcross')!.format('sighash')).toBe(
      'startBridgeTokensViaAcross((bytes32,string,string,address,address,address,uint256,uint256,bool,bool),(address,bytes,uint256,bytes))',
    );
  });
});

describe('hand-checked ABI layouts', () => {
  it('swapExactTokensForTokens: 5 head words, the path array after them at offset 0xa0', () => {
    const data = encodeV2Swap(1_000_000n, 990n, [USDC, WETH], ROUTER);
    const { words: w } = words(data);
    expect(w).toEqual([word(1_000_000), word(990), word(0xa0), addr(ROUTER), word(SWAP_DEADLINE), word(2), addr(USDC), addr(WETH)]);
  });

  it('exactInput: one dynamic tuple (offset 0x20), its bytes path at 0xa0 inside it, 43 bytes padded to 64', () => {
    const path = packV3Path([USDC, WETH], [500]);
    expect(path).toBe(`0x${USDC.slice(2).toLowerCase()}0001f4${WETH.slice(2).toLowerCase()}`);
    expect(path).toBe(solidityPacked(['address', 'uint24', 'address'], [USDC, 500, WETH]).toLowerCase());
    const { words: w } = words(encodeV3ExactInput(path, ROUTER, 5n, 4n));
    expect(w.slice(0, 7)).toEqual([word(0x20), word(0xa0), addr(ROUTER), word(SWAP_DEADLINE), word(5), word(4), word(43)]);
    expect(w.slice(7).join('')).toBe(path.slice(2).padEnd(128, '0'));
    expect(w).toHaveLength(9);
  });

  it('Curve exchange: four static words', () => {
    expect(words(encodeCurveExchange(2, 0, 10n, 9n)).words).toEqual([word(2), word(0), word(10), word(9)]);
  });

  it('withdraw(uint256) and the fee collector calls', () => {
    expect(words(encodeUnwrap(7n)).words).toEqual([word(7)]);
    expect(words(encodeCollectTokenFees(USDC, 25_000n, 0n, USER)).words).toEqual([addr(USDC), word(25_000), word(0), addr(USER)]);
    expect(words(encodeCollectNativeFees(3n, 1n, USER)).words).toEqual([word(3), word(1), addr(USER)]);
    expect(words(encodeWithdrawIntegratorFees(USDC)).words).toEqual([addr(USDC)]);
    expect(words(encodeBatchWithdrawIntegratorFees([USDC, WETH])).words).toEqual([word(0x20), word(2), addr(USDC), addr(WETH)]);
  });

  it('swapTokensGeneric: strings and the SwapData[] behind a 6-word head, each SwapData a dynamic tuple', () => {
    const swap: SwapData = { callTo: ROUTER, approveTo: ROUTER, sendingAssetId: USDC, receivingAssetId: WETH, fromAmount: 100n, callData: '0xd0e30db0', requiresDeposit: true };
    const txId = `0x${'ab'.repeat(16)}${'00'.repeat(16)}`;
    const data = encodeSwapTokensGeneric({ transactionId: txId, integrator: 'acme', referrer: '', receiver: USER, minAmountOut: 99n, swapData: [swap] });
    const { selector, words: w } = words(data);
    expect(selector).toBe('0x4630a0d8');
    // head: transactionId, offset(integrator)=6·32, offset(referrer)=6·32+2·32, receiver, minAmountOut, offset(swapData)=0x100+32
    expect(w.slice(0, 6)).toEqual([txId.slice(2), word(0xc0), word(0x100), addr(USER), word(99), word(0x120)]);
    // integrator: length 4, "acme" padded
    expect(w[6]).toBe(word(4));
    expect(w[7]).toBe(Buffer.from('acme').toString('hex').padEnd(64, '0'));
    // referrer: empty string, length 0 and no data word
    expect(w[8]).toBe(word(0));
    // swapData: length 1, offset of element 0 relative to the array's data (0x20), then the tuple
    expect(w[9]).toBe(word(1));
    expect(w[10]).toBe(word(0x20));
    // tuple head: callTo, approveTo, sending, receiving, fromAmount, offset(callData)=7·32, requiresDeposit
    expect(w.slice(11, 18)).toEqual([addr(ROUTER), addr(ROUTER), addr(USDC), addr(WETH), word(100), word(0xe0), word(1)]);
    // callData: 4 bytes padded
    expect(w.slice(18)).toEqual([word(4), 'd0e30db0'.padEnd(64, '0')]);
  });

  it('startBridgeTokensVia<B>: two dynamic tuples; strings inside BridgeData behind its 10-word head', () => {
    const bridgeData: BridgeData = {
      transactionId: `0x${'11'.repeat(32)}`, bridge: 'across', integrator: '', referrer: '0x0000000000000000000000000000000000000000',
      sendingAssetId: USDC, receiver: USER, minAmount: 10n, destinationChainId: 10n, hasSourceSwaps: false, hasDestinationCall: false,
    };
    const data = encodeBridgeCall(bridgeData, [], { receiverOnDestination: USER, nonEVMReceiver: '0x', destinationMinAmount: 9n, destinationCallData: '0x' });
    const { selector, words: w } = words(data);
    expect(selector).toBe(id(`startBridgeTokensViaAcross(${'(bytes32,string,string,address,address,address,uint256,uint256,bool,bool)'},(address,bytes,uint256,bytes))`).slice(0, 10));
    // BridgeData: 10 words head + "across" (2 words) + "" (1 word) = 13 words → second tuple at 0x40 + 13·32
    expect(w.slice(0, 2)).toEqual([word(0x40), word(0x40 + 13 * 32)]);
    const bd = w.slice(2, 12);
    expect(bd).toEqual(['11'.repeat(32), word(0x140), word(0x180), word(0), addr(USDC), addr(USER), word(10), word(10), word(0), word(0)]);
    expect(w[12]).toBe(word(6));
    expect(w[13]).toBe(Buffer.from('across').toString('hex').padEnd(64, '0'));
    expect(w[14]).toBe(word(0));
    // <B>Data: receiverOnDestination, offset(nonEVMReceiver)=4·32, destinationMinAmount, offset(destinationCallData)=5·32
    expect(w.slice(15)).toEqual([addr(USER), word(0x80), word(9), word(0xa0), word(0), word(0)]);
  });
});

describe('encoding details', () => {
  it('refuses a V3 fee that does not fit uint24', () => {
    expect(() => packV3Path([USDC, WETH], [1 << 24])).toThrow(/uint24/);
  });

  it('encodes the destination call and the type strings the facets use', () => {
    const data = encodeSwapAndCompleteBridgeTokens({ transactionId: `0x${'00'.repeat(32)}`, swapData: [], transferredAssetId: USDC, receiver: USER, minAmountOut: 1n });
    const iface = new Interface([`function swapAndCompleteBridgeTokens(bytes32 transactionId, ${SWAP_DATA}[] swapData, address transferredAssetId, address receiver, uint256 minAmountOut) payable`]);
    expect(data).toBe(iface.encodeFunctionData('swapAndCompleteBridgeTokens', [`0x${'00'.repeat(32)}`, [], USDC, USER, 1n]));
    expect(BRIDGE_DATA).toContain('bool hasDestinationCall');
    expect(BRIDGE_SPECIFIC_DATA).toContain('bytes destinationCallData');
  });
});
