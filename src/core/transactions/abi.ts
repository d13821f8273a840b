/**
 * ABIs (ethers human-readable fragments) of every contract the service's transactions call, in the
 * facet style of the ecosystem's router ("diamond"):
 *
 * Router, same chain:
 *   swapTokensGeneric(bytes32 transactionId, string integrator, string referrer, address receiver,
 *                     uint256 minAmountOut, SwapData[] swapData)                                   payable
 * Router, per bridge <B> (facet name from BRIDGE_FACETS):
 *   startBridgeTokensVia<B>(BridgeData bridgeData, <B>Data data)                                  payable
 *   swapAndStartBridgeTokensVia<B>(BridgeData bridgeData, SwapData[] swapData, <B>Data data)      payable
 * Router, destination side (called by the bridge's relayer / message executor with the bridged funds):
 *   swapAndCompleteBridgeTokens(bytes32 transactionId, SwapData[] swapData, address transferredAssetId,
 *                               address receiver, uint256 minAmountOut)                             payable
 *
 *   BridgeData = (bytes32 transactionId, string bridge, string integrator, address referrer,
 *                 address sendingAssetId, address receiver, uint256 minAmount, uint256 destinationChainId,
 *                 bool hasSourceSwaps, bool hasDestinationCall)
 *   SwapData   = (address callTo, address approveTo, address sendingAssetId, address receivingAssetId,
 *                 uint256 fromAmount, bytes callData, bool requiresDeposit)
 *   <B>Data    = (address receiverOnDestination, bytes nonEVMReceiver, uint256 destinationMinAmount,
 *                 bytes destinationCallData)
 *     One generic shape for every bridge kind (the facets differ by name only):
 *     - receiverOnDestination: who the bridge pays on the destination chain: the router itself when the
 *       transfer has a destination call, else the final receiver; NON_EVM_ADDRESS for a non-EVM chain;
 *     - nonEVMReceiver: the receiver's address as UTF-8 text on a non-EVM destination, else empty;
 *     - destinationMinAmount: the least the receiver gets on the destination (the step's toAmountMin);
 *     - destinationCallData: empty, or the ABI-encoded call swapAndCompleteBridgeTokens(...) that the
 *       destination router runs with the bridged funds (the route's destination swaps as SwapData[]).
 *
 * Fee collection is one extra SwapData, first in the list, whose callTo is the fee collector and whose
 * callData is collectTokenFees(token, integratorFee, serviceFee, integrator) (collectNativeFees for the
 * native coin).
 *
 * Router semantics the call data assumes (what the sandbox's router implements):
 * - SwapData run in order, the router holding the intermediate balances (every hop pays the router). Before
 *   that, the router pulls from the sender (transferFrom after the user's approval of the router, or
 *   msg.value for the native coin) the fromAmount of every SwapData with requiresDeposit (the first SwapData
 *   of each leg); a SwapData approves approveTo for fromAmount and calls callTo with callData (sending
 *   fromAmount as value when sendingAssetId is the native coin, address 0).
 * - swapTokensGeneric then checks that the receiver gets at least minAmountOut of the last receivingAssetId.
 * - startBridgeTokensVia<B> pulls BridgeData.minAmount of sendingAssetId and hands it to the bridge;
 *   swapAndStartBridgeTokensVia<B> bridges what its swaps produced (at least minAmount) when hasSourceSwaps,
 *   and otherwise pulls minAmount like startBridgeTokensVia<B> (its SwapData are then side calls only, e.g.
 *   a gas refuel leg: a SwapData calling the router itself).
 * - The bridge pays data.receiverOnDestination; with hasDestinationCall that is the destination router, which
 *   runs data.destinationCallData (swapAndCompleteBridgeTokens) and pays the receiver at least minAmountOut.
 *
 * Contract calls (POST /v1/quote/contractCalls): swaps, then arbitrary calls with the swapped funds.
 *   Across chains, data.destinationCallData (hasDestinationCall = true, receiverOnDestination = the destination
 *   router, even without destination swaps) is
 *     swapAndCompleteBridgeTokensWithCalls(bytes32 transactionId, SwapData[] swapData, address transferredAssetId,
 *                                          address receiver, uint256 minAmountOut, CallData[] calls)       payable
 *   On one chain the transaction calls
 *     swapAndCall(bytes32 transactionId, string integrator, string referrer, address receiver,
 *                 address sendingAssetId, uint256 fromAmount, uint256 minAmountOut,
 *                 SwapData[] swapData, CallData[] calls)                                                   payable
 *   CallData = (address target, address approveTo, address sendingAssetId, uint256 amount, bytes callData,
 *               uint256 gasLimit, address fallbackReceiver)
 *   Semantics:
 *   - swapAndCall first pulls fromAmount of sendingAssetId from the sender (transferFrom after the user's approval
 *     of the router, or msg.value == fromAmount for the native coin); none of its SwapData has requiresDeposit.
 *     swapData may be empty (the calls take the sent token itself) or start with the fee collection.
 *     swapAndCompleteBridgeTokensWithCalls works on the bridged funds the router received, like
 *     swapAndCompleteBridgeTokens.
 *   - The SwapData run in order as above. The calls' asset is the last SwapData's receivingAssetId, or
 *     transferredAssetId / sendingAssetId without swaps; the router checks that the swaps produced at least
 *     minAmountOut of it (the quote's toAmountMin; the service makes sure the calls' amounts add up to no more).
 *     Across chains, when the swaps fail or that check fails, the router pays the bridged transferredAssetId to
 *     receiver and makes no call (the transfer completes without its calls); on one chain the transaction reverts.
 *   - Then each CallData in order (its sendingAssetId is the calls' asset): the router hands `amount` of it to
 *     its call executor, a separate contract that holds no user approvals (the router itself never calls an
 *     arbitrary target: users approve the router, and an arbitrary call from it could spend their allowances).
 *     The executor approves approveTo for `amount` (ERC-20) or sends `amount` as value (native coin, address 0),
 *     calls target with callData and at most gasLimit gas, then resets the approval to 0. When the call reverts
 *     (or runs out of its gasLimit), the `amount` goes to fallbackReceiver and the next call still runs; what
 *     a successful call leaves of its `amount` also goes to fallbackReceiver. Each call emits
 *     ContractCallExecuted(transactionId, index, target, success, amount).
 *   - Last, what is left of the calls' asset (what arrived above the calls' amounts) goes to receiver, and the
 *     usual completion event is emitted (LiFiTransferCompleted across chains, LiFiGenericSwapCompleted on one
 *     chain).
 */
import { FunctionFragment, Interface } from 'ethers';

export const BRIDGE_DATA = 'tuple(bytes32 transactionId, string bridge, string integrator, address referrer, address sendingAssetId, address receiver, uint256 minAmount, uint256 destinationChainId, bool hasSourceSwaps, bool hasDestinationCall)';
export const SWAP_DATA = 'tuple(address callTo, address approveTo, address sendingAssetId, address receivingAssetId, uint256 fromAmount, bytes callData, bool requiresDeposit)';
export const BRIDGE_SPECIFIC_DATA = 'tuple(address receiverOnDestination, bytes nonEVMReceiver, uint256 destinationMinAmount, bytes destinationCallData)';
/** One contract call after the swaps (POST /v1/quote/contractCalls); see the header for its semantics. */
export const CALL_DATA = 'tuple(address target, address approveTo, address sendingAssetId, uint256 amount, bytes callData, uint256 gasLimit, address fallbackReceiver)';

/** BridgeData.receiver when the receiver is on a non-EVM chain (the ecosystem's constant). */
export const NON_EVM_ADDRESS = '0x11f111f111f111F111f111f111F111f111f111F1';

/** Facet names of the bridges of the catalog: startBridgeTokensVia<Name>. Unknown keys get their PascalCase key. */
export const BRIDGE_FACETS: Readonly<Record<string, string>> = {
  across: 'Across',
  allbridge: 'Allbridge',
  arbitrum: 'ArbitrumBridge',
  base: 'BaseBridge',
  cctp: 'CCTP',
  debridge: 'DeBridge',
  gnosis: 'GnosisBridge',
  hop: 'Hop',
  linea: 'LineaBridge',
  mayan: 'Mayan',
  optimism: 'OptimismBridge',
  polygon: 'PolygonBridge',
  relay: 'Relay',
  scroll: 'ScrollBridge',
  stargate: 'Stargate',
  thorchain: 'Thorchain',
  zksync: 'ZkSyncBridge',
};

export function bridgeFacetName(bridge: string): string {
  return BRIDGE_FACETS[bridge] ?? bridge.split(/[^a-zA-Z0-9]+/).filter(Boolean).map((p) => p[0].toUpperCase() + p.slice(1)).join('');
}

export function startBridgeFunction(bridge: string): string {
  return `startBridgeTokensVia${bridgeFacetName(bridge)}`;
}

export function swapAndStartBridgeFunction(bridge: string): string {
  return `swapAndStartBridgeTokensVia${bridgeFacetName(bridge)}`;
}

/** The bridge facet functions of one bridge. */
export function bridgeFacetAbi(bridge: string): string[] {
  return [
    `function ${startBridgeFunction(bridge)}(${BRIDGE_DATA} bridgeData, ${BRIDGE_SPECIFIC_DATA} data) payable`,
    `function ${swapAndStartBridgeFunction(bridge)}(${BRIDGE_DATA} bridgeData, ${SWAP_DATA}[] swapData, ${BRIDGE_SPECIFIC_DATA} data) payable`,
  ];
}

/** The router's functions and events other than the bridge facets. */
export const ROUTER_ABI: readonly string[] = [
  `function swapTokensGeneric(bytes32 transactionId, string integrator, string referrer, address receiver, uint256 minAmountOut, ${SWAP_DATA}[] swapData) payable`,
  `function swapAndCompleteBridgeTokens(bytes32 transactionId, ${SWAP_DATA}[] swapData, address transferredAssetId, address receiver, uint256 minAmountOut) payable`,
  `function swapAndCompleteBridgeTokensWithCalls(bytes32 transactionId, ${SWAP_DATA}[] swapData, address transferredAssetId, address receiver, uint256 minAmountOut, ${CALL_DATA}[] calls) payable`,
  `function swapAndCall(bytes32 transactionId, string integrator, string referrer, address receiver, address sendingAssetId, uint256 fromAmount, uint256 minAmountOut, ${SWAP_DATA}[] swapData, ${CALL_DATA}[] calls) payable`,
  `event LiFiTransferStarted(${BRIDGE_DATA} bridgeData)`,
  'event LiFiTransferCompleted(bytes32 indexed transactionId, address receivingAssetId, address receiver, uint256 amount, uint256 timestamp)',
  'event LiFiGenericSwapCompleted(bytes32 indexed transactionId, string integrator, string referrer, address receiver, address fromAssetId, address toAssetId, uint256 fromAmount, uint256 toAmount)',
  'event LiFiSwappedGeneric(bytes32 indexed transactionId, string integrator, string referrer, address fromAssetId, address toAssetId, uint256 fromAmount, uint256 toAmount)',
  'event ContractCallExecuted(bytes32 indexed transactionId, uint256 index, address target, bool success, uint256 amount)',
];

export const FEE_COLLECTOR_ABI: readonly string[] = [
  'function collectTokenFees(address token, uint256 integratorFee, uint256 serviceFee, address integrator)',
  'function collectNativeFees(uint256 integratorFee, uint256 serviceFee, address integrator) payable',
  'function withdrawIntegratorFees(address token)',
  'function batchWithdrawIntegratorFees(address[] tokens)',
  'function getTokenBalance(address integrator, address token) view returns (uint256)',
  'event FeesCollected(address indexed token, address indexed integrator, uint256 integratorFee, uint256 serviceFee)',
  'event FeesWithdrawn(address indexed token, address indexed to, uint256 amount)',
];

export const ERC20_ABI: readonly string[] = [
  'function approve(address spender, uint256 amount) returns (bool)',
  'function transfer(address to, uint256 amount) returns (bool)',
  'function transferFrom(address from, address to, uint256 amount) returns (bool)',
  'function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)',
  'function increaseAllowance(address spender, uint256 addedValue) returns (bool)',
  'function decreaseAllowance(address spender, uint256 subtractedValue) returns (bool)',
];

/**
 * The service's Permit2 proxy (contracts/router/Permit2Proxy.sol), as the ecosystem SDK and the gasless relayer call
 * it: each entry point carries the router call data it makes for the signer.
 */
export const PERMIT2_PROXY_ABI: readonly string[] = [
  'function callDiamondWithPermit2(bytes diamondCalldata, ((address token, uint256 amount) permitted, uint256 nonce, uint256 deadline) permit, bytes signature)',
  'function callDiamondWithPermit2Witness(bytes diamondCalldata, address signer, ((address token, uint256 amount) permitted, uint256 nonce, uint256 deadline) permit, bytes signature) payable returns (bytes)',
  'function callDiamondWithEIP2612Signature(address token, uint256 amount, uint256 deadline, uint8 v, bytes32 r, bytes32 s, bytes diamondCalldata)',
];

/** Multicall3's aggregate3 (the gasless relayer's transaction when a token permit goes first). */
export const MULTICALL3_ABI: readonly string[] = [
  'function aggregate3((address target, bool allowFailure, bytes callData)[] calls) payable returns ((bool success, bytes returnData)[] returnData)',
];

export const WRAPPED_NATIVE_ABI: readonly string[] = ['function deposit() payable', 'function withdraw(uint256 amount)'];

/** Uniswap V2 Router02 style (constantProduct pools). */
export const V2_ROUTER_ABI: readonly string[] = [
  'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
  'function swapTokensForExactTokens(uint256 amountOut, uint256 amountInMax, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
  'function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable returns (uint256[] amounts)',
  'function swapETHForExactTokens(uint256 amountOut, address[] path, address to, uint256 deadline) payable returns (uint256[] amounts)',
  'function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
  'function swapTokensForExactETH(uint256 amountOut, uint256 amountInMax, address[] path, address to, uint256 deadline) returns (uint256[] amounts)',
  'function swapExactTokensForTokensSupportingFeeOnTransferTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)',
  'function swapExactETHForTokensSupportingFeeOnTransferTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable',
  'function swapExactTokensForETHSupportingFeeOnTransferTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)',
];

/** Uniswap V3 SwapRouter style (concentrated pools); path = token (20 bytes) · fee (uint24, ppm) · token... */
export const V3_ROUTER_ABI: readonly string[] = [
  'function exactInput(tuple(bytes path, address recipient, uint256 deadline, uint256 amountIn, uint256 amountOutMinimum) params) payable returns (uint256 amountOut)',
  'function exactInputSingle(tuple(address tokenIn, address tokenOut, uint24 fee, address recipient, uint256 deadline, uint256 amountIn, uint256 amountOutMinimum, uint160 sqrtPriceLimitX96) params) payable returns (uint256 amountOut)',
  'function exactOutput(tuple(bytes path, address recipient, uint256 deadline, uint256 amountOut, uint256 amountInMaximum) params) payable returns (uint256 amountIn)',
  'function exactOutputSingle(tuple(address tokenIn, address tokenOut, uint24 fee, address recipient, uint256 deadline, uint256 amountOut, uint256 amountInMaximum, uint160 sqrtPriceLimitX96) params) payable returns (uint256 amountIn)',
];

/** Curve StableSwap pools (stableswap pools), called directly. */
export const CURVE_POOL_ABI: readonly string[] = [
  'function exchange(int128 i, int128 j, uint256 dx, uint256 min_dy) payable returns (uint256)',
  'function exchange_underlying(int128 i, int128 j, uint256 dx, uint256 min_dy) payable returns (uint256)',
  'function exchange(uint256 i, uint256 j, uint256 dx, uint256 min_dy) payable returns (uint256)',
];

/** Common public functions met in transactions (decoded by the call-data parser only). */
export const COMMON_ABI: readonly string[] = [
  // Uniswap SwapRouter02 (no deadline in the structs) and multicalls
  'function exactInputSingle(tuple(address tokenIn, address tokenOut, uint24 fee, address recipient, uint256 amountIn, uint256 amountOutMinimum, uint160 sqrtPriceLimitX96) params) payable returns (uint256 amountOut)',
  'function exactInput(tuple(bytes path, address recipient, uint256 amountIn, uint256 amountOutMinimum) params) payable returns (uint256 amountOut)',
  'function exactOutputSingle(tuple(address tokenIn, address tokenOut, uint24 fee, address recipient, uint256 amountOut, uint256 amountInMaximum, uint160 sqrtPriceLimitX96) params) payable returns (uint256 amountIn)',
  'function exactOutput(tuple(bytes path, address recipient, uint256 amountOut, uint256 amountInMaximum) params) payable returns (uint256 amountIn)',
  'function multicall(bytes[] data) payable returns (bytes[] results)',
  'function multicall(uint256 deadline, bytes[] data) payable returns (bytes[] results)',
  'function unwrapWETH9(uint256 amountMinimum, address recipient) payable',
  'function refundETH() payable',
  'function sweepToken(address token, uint256 amountMinimum, address recipient) payable',
  // ERC-721 / ERC-1155 transfers and approvals
  'function safeTransferFrom(address from, address to, uint256 tokenId)',
  'function setApprovalForAll(address operator, bool approved)',
  // Permit2
  'function approve(address token, address spender, uint160 amount, uint48 expiration)',
];

/** Bytes parameters holding a nested call, parsed recursively: SwapData.callData, <B>Data.destinationCallData, multicall data. */
export const NESTED_CALL_PARAMETERS: ReadonlySet<string> = new Set(['callData', 'destinationCallData', 'data']);

/** Every function fragment the service knows, deduplicated by selector (first one wins), for the given bridges. */
export function knownFunctions(bridgeKeys: readonly string[]): FunctionFragment[] {
  const all = [
    ...ROUTER_ABI,
    ...bridgeKeys.flatMap(bridgeFacetAbi),
    ...FEE_COLLECTOR_ABI,
    ...ERC20_ABI,
    ...WRAPPED_NATIVE_ABI,
    ...V2_ROUTER_ABI,
    ...V3_ROUTER_ABI,
    ...CURVE_POOL_ABI,
    ...COMMON_ABI,
  ];
  const bySelector = new Map<string, FunctionFragment>();
  for (const text of all) {
    if (!text.startsWith('function ')) continue;
    const fragment = FunctionFragment.from(text);
    if (!bySelector.has(fragment.selector)) bySelector.set(fragment.selector, fragment);
  }
  return [...bySelector.values()];
}

/** Interfaces used for encoding. */
export const routerInterface = (bridgeKeys: readonly string[]) => new Interface([...ROUTER_ABI, ...bridgeKeys.flatMap(bridgeFacetAbi)]);
export const feeCollectorInterface = new Interface(FEE_COLLECTOR_ABI);
export const erc20Interface = new Interface(ERC20_ABI);
export const wrappedNativeInterface = new Interface(WRAPPED_NATIVE_ABI);
export const v2RouterInterface = new Interface(V2_ROUTER_ABI);
export const v3RouterInterface = new Interface(V3_ROUTER_ABI);
export const curvePoolInterface = new Interface(CURVE_POOL_ABI);
export const permit2ProxyInterface = new Interface(PERMIT2_PROXY_ABI);
export const multicall3Interface = new Interface(MULTICALL3_ABI);
