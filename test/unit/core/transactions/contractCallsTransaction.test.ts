/**
 * The transaction of a contract-calls quote: the router's selectors and the hand-checked layout of the calls,
 * and the quote's transaction decoded back by parse.ts into the route's tools and amounts and the calls'
 * targets, call data, gas limits and fallback receivers (across chains in the destination call, on one chain in
 * swapAndCall).
 */
import { AbiCoder, getAddress, id } from 'ethers';
import { CALL_DATA, knownFunctions } from '../../../../src/core/transactions/abi';
import { encodeSwapAndCall, encodeSwapAndCompleteBridgeTokensWithCalls, type ContractCallData } from '../../../../src/core/transactions/calldata';
import { buildContractCallsTransaction } from '../../../../src/core/transactions/contractCallsTransaction';
import { CallDataParser } from '../../../../src/core/transactions/parse';
import { catalog, ctx, WALLET, FALLBACK, TARGET, SUPPLY, call, toBase, quote, ARB_USDC, ARB_WETH, BASE_USDC, BASE_WETH, ROUTER } from '../../../support/contractCalls';

const parser = new CallDataParser(catalog.bridges.map((b) => b.key));
const SPENDER = getAddress('0x1111111254eeb25477b68fb85ed929f73a960582');

describe('encoding', () => {
  const CALL_TUPLE = '(address,address,address,uint256,bytes,uint256,address)';
  const SWAP_TUPLE = '(address,address,address,address,uint256,bytes,bool)';
  const txId = `0x${'ab'.repeat(16)}${'00'.repeat(16)}`;
  const oneCall: ContractCallData = { target: TARGET, approveTo: SPENDER, sendingAssetId: BASE_USDC, amount: 9_985_000n, callData: '0xdeadbeef', gasLimit: 300_000n, fallbackReceiver: FALLBACK };
  const word = (n: bigint | number) => BigInt(n).toString(16).padStart(64, '0');
  const addr = (a: string) => a.slice(2).toLowerCase().padStart(64, '0');

  it('selectors: swapAndCompleteBridgeTokensWithCalls and swapAndCall, known to the parser', () => {
    const destination = id(`swapAndCompleteBridgeTokensWithCalls(bytes32,${SWAP_TUPLE}[],address,address,uint256,${CALL_TUPLE}[])`).slice(0, 10);
    const sameChain = id(`swapAndCall(bytes32,string,string,address,address,uint256,uint256,${SWAP_TUPLE}[],${CALL_TUPLE}[])`).slice(0, 10);
    expect(encodeSwapAndCompleteBridgeTokensWithCalls({ transactionId: txId, swapData: [], transferredAssetId: BASE_USDC, receiver: WALLET, minAmountOut: 1n, calls: [] }).slice(0, 10)).toBe(destination);
    expect(encodeSwapAndCall({ transactionId: txId, integrator: '', referrer: '', receiver: WALLET, sendingAssetId: ARB_USDC, fromAmount: 1n, minAmountOut: 1n, swapData: [], calls: [] }).slice(0, 10)).toBe(sameChain);
    const selectors = knownFunctions([]).map((f) => f.selector);
    expect(selectors).toContain(destination);
    expect(selectors).toContain(sameChain);
    expect(CALL_DATA).toBe('tuple(address target, address approveTo, address sendingAssetId, uint256 amount, bytes callData, uint256 gasLimit, address fallbackReceiver)');
  });

  it('hand-checked layout: the CallData[] after the empty SwapData[], each call a dynamic tuple with its bytes behind a 7-word head', () => {
    const data = encodeSwapAndCompleteBridgeTokensWithCalls({ transactionId: txId, swapData: [], transferredAssetId: BASE_USDC, receiver: WALLET, minAmountOut: 9_985_000n, calls: [oneCall] });
    const w = data.slice(10).match(/.{64}/g)!;
    expect(w).toEqual([
      txId.slice(2), word(0xc0), addr(BASE_USDC), addr(WALLET), word(9_985_000n), word(0xe0), // head: 6 words, swapData at 0xc0, calls at 0xe0
      word(0), // swapData: empty
      word(1), word(0x20), // calls: one, its tuple 0x20 after the length word
      addr(TARGET), addr(SPENDER), addr(BASE_USDC), word(9_985_000n), word(0xe0), word(300_000n), addr(FALLBACK), // the tuple head, callData at 0xe0 inside it
      word(4), 'deadbeef'.padEnd(64, '0'),
    ]);
    // the same bytes as ethers' own encoding of the CallData[] alone (the array's offset word first)
    expect(`0x${word(0x20)}${w.slice(7).join('')}`).toBe(AbiCoder.defaultAbiCoder().encode([`${CALL_DATA}[]`], [[[TARGET, SPENDER, BASE_USDC, 9_985_000n, '0xdeadbeef', 300_000n, FALLBACK]]]));
  });

  it('a cross-chain quote\'s transaction decodes back into the bridge, the destination swaps and the calls', () => {
    const q = quote(toBase({
      toToken: 'WETH', toAmount: '10000000000000000', fee: 0.003, integrator: 'acme',
      contractCalls: [
        call(BASE_WETH, '6000000000000000', { toApprovalAddress: SPENDER, toFallbackAddress: FALLBACK }),
        call(BASE_WETH, '4000000000000000', { toContractCallData: '0x', toContractGasLimit: '50000' }),
      ],
    }));
    const tx = buildContractCallsTransaction(ctx, q, q.route.id, { fromAddress: '/fromAddress', toAddress: '/fromAddress' })!;
    expect(tx.to).toBe(ROUTER);
    expect(tx.chainId).toBe(42161);
    const [top] = parser.parse(tx.data) as any[]; // eslint-disable-line @typescript-eslint/no-explicit-any
    const steps = q.route.transactions[0].steps;
    const cross = steps.find((s) => s.type === 'cross')!;
    expect(top.functionName).toMatch(/^swapAndStartBridgeTokensVia/); // the fee collection runs before the bridge
    expect(top.functionParameters.bridgeData).toMatchObject({ bridge: cross.tool, hasDestinationCall: true, destinationChainId: '8453' });
    expect(top.functionParameters.swapData[0].callData[0]).toMatchObject({ functionName: 'collectTokenFees', functionParameters: { integratorFee: q.route.integratorFee.toString() } });
    expect(top.functionParameters.data).toMatchObject({ receiverOnDestination: ROUTER, destinationMinAmount: q.route.toAmountMin.toString() });
    const [destination] = top.functionParameters.data.destinationCallData;
    expect(destination.functionName).toBe('swapAndCompleteBridgeTokensWithCalls');
    expect(destination.functionParameters).toMatchObject({ minAmountOut: q.route.toAmountMin.toString(), transferredAssetId: BASE_USDC, receiver: WALLET });
    const destinationSteps = steps.slice(steps.indexOf(cross) + 1);
    expect(destination.functionParameters.swapData.map((s: { fromAmount: string }) => s.fromAmount)).toEqual(destinationSteps.map((s) => s.fromAmount.toString()));
    expect(destination.functionParameters.calls).toEqual([
      { target: TARGET, approveTo: SPENDER, sendingAssetId: BASE_WETH, amount: '6000000000000000', callData: SUPPLY, gasLimit: '300000', fallbackReceiver: FALLBACK },
      { target: TARGET, approveTo: TARGET, sendingAssetId: BASE_WETH, amount: '4000000000000000', callData: '0x', gasLimit: '50000', fallbackReceiver: WALLET },
    ]);
  });

  it('a same-chain quote\'s transaction is swapAndCall: the router pulls fromAmount, no SwapData deposits, then the calls', () => {
    const q = quote(toBase({ toChain: 42161, toToken: 'WETH', toAmount: undefined, fromAmount: '100000000', contractCalls: [call(ARB_WETH, '10000000000000000')] }));
    const tx = buildContractCallsTransaction(ctx, q, q.route.id, { fromAddress: '/fromAddress', toAddress: '/fromAddress' })!;
    expect(tx.gasLimit).toBe(q.route.transactions[0].gasCost.limit);
    const [top] = parser.parse(tx.data) as any[]; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(top.functionName).toBe('swapAndCall');
    expect(top.functionParameters).toMatchObject({ sendingAssetId: ARB_USDC, fromAmount: '100000000', minAmountOut: q.route.toAmountMin.toString(), receiver: WALLET });
    const steps = q.route.transactions[0].steps;
    expect(top.functionParameters.swapData).toHaveLength(steps.length);
    top.functionParameters.swapData.forEach((s: { fromAmount: string; requiresDeposit: boolean; receivingAssetId: string }, k: number) => {
      expect(s.fromAmount).toBe(steps[k].fromAmount.toString());
      expect(s.receivingAssetId.toLowerCase()).toBe(steps[k].toToken.address.toLowerCase());
      expect(s.requiresDeposit).toBe(false);
    });
    expect(top.functionParameters.calls).toEqual([{ target: TARGET, approveTo: TARGET, sendingAssetId: ARB_WETH, amount: '10000000000000000', callData: SUPPLY, gasLimit: '300000', fallbackReceiver: WALLET }]);
  });
});
