/**
 * Call data of each contract function the service's transactions use. The functions are declared once, as
 * ethers FunctionFragments (abi.ts); their arguments are encoded by viem's encodeAbiParameters, which gives the
 * same bytes as ethers' AbiCoder and costs much less on the nested calls of a route, the largest cost of an
 * uncached quote. Amounts are bigint; addresses 0x + 40 hex digits in any letter case.
 */
import { FunctionFragment, Interface, hexlify, toUtf8Bytes } from 'ethers';
import type { AbiParameter } from 'viem';
import { encodeAbiParameters } from 'viem/utils'; // the encoder alone, without loading viem's clients
import { BoundedMemo, ObjectMemo } from '../memo';

/** A function ready to encode: its selector and its inputs as viem reads them, derived once per fragment. */
interface Encoder {
  readonly selector: string;
  readonly inputs: readonly AbiParameter[];
}

const encoders = new ObjectMemo<FunctionFragment, Encoder>();

function encoderOf(fragment: FunctionFragment): Encoder {
  return { selector: fragment.selector, inputs: (JSON.parse(fragment.format('json')) as { inputs: AbiParameter[] }).inputs };
}

/** selector + ABI-encoded arguments (tuples as arrays, in the order of their components). */
function encodeCall(fragment: FunctionFragment, values: readonly unknown[]): string {
  const encoder = encoders.get(fragment, encoderOf);
  if (encoder.inputs.length === 0) return encoder.selector;
  const lowered = encoder.inputs.map((input, k) => lowerAddresses(input, values[k]));
  return `${encoder.selector}${encodeAbiParameters(encoder.inputs, lowered).slice(2)}`;
}

/**
 * Addresses in lower case: the encoding is the same in any letter case, and viem checks the EIP-55 checksum of a
 * mixed-case address (a keccak each, for every wallet). Anything that is not a string where an address is
 * expected is left for the encoder to refuse.
 */
function lowerAddresses(parameter: AbiParameter, value: unknown): unknown {
  const { type } = parameter;
  if (type === 'address') return typeof value === 'string' ? value.toLowerCase() : value;
  if (type.endsWith(']')) {
    if (!Array.isArray(value)) return value;
    const element = { ...parameter, type: type.slice(0, type.lastIndexOf('[')) } as AbiParameter;
    return value.map((item) => lowerAddresses(element, item));
  }
  if (type === 'tuple' && 'components' in parameter && Array.isArray(value)) {
    const { components } = parameter as { components: readonly AbiParameter[] };
    return value.map((item, k) => (components[k] ? lowerAddresses(components[k], item) : item));
  }
  return value;
}
import {
  bridgeFacetAbi,
  curvePoolInterface,
  feeCollectorInterface,
  routerInterface,
  startBridgeFunction,
  swapAndStartBridgeFunction,
  v2RouterInterface,
  v3RouterInterface,
  wrappedNativeInterface,
} from './abi';
import { isEvmAddress } from './ids';

/**
 * Deadline written into the exchange routers' calls: a fixed far-future time (2100-01-01T00:00:00Z), so
 * that answers stay deterministic; the router's own minAmount checks protect the user.
 */
export const SWAP_DEADLINE = 4_102_444_800n;

export interface SwapData {
  readonly callTo: string;
  readonly approveTo: string;
  readonly sendingAssetId: string;
  readonly receivingAssetId: string;
  readonly fromAmount: bigint;
  readonly callData: string;
  readonly requiresDeposit: boolean;
}

export interface BridgeData {
  readonly transactionId: string;
  readonly bridge: string;
  readonly integrator: string;
  readonly referrer: string;
  readonly sendingAssetId: string;
  readonly receiver: string;
  readonly minAmount: bigint;
  readonly destinationChainId: bigint;
  readonly hasSourceSwaps: boolean;
  readonly hasDestinationCall: boolean;
}

/** One contract call after the swaps (abi.ts CALL_DATA). */
export interface ContractCallData {
  readonly target: string;
  readonly approveTo: string;
  readonly sendingAssetId: string;
  readonly amount: bigint;
  readonly callData: string;
  readonly gasLimit: bigint;
  readonly fallbackReceiver: string;
}

/** The generic <Bridge>Data of every bridge facet. */
export interface BridgeSpecificData {
  readonly receiverOnDestination: string;
  readonly nonEVMReceiver: string;
  readonly destinationMinAmount: bigint;
  readonly destinationCallData: string;
}

const swapTuple = (s: SwapData) => [s.callTo, s.approveTo, s.sendingAssetId, s.receivingAssetId, s.fromAmount, s.callData, s.requiresDeposit];
const bridgeTuple = (b: BridgeData) => [
  b.transactionId, b.bridge, b.integrator, b.referrer, b.sendingAssetId, b.receiver, b.minAmount, b.destinationChainId, b.hasSourceSwaps, b.hasDestinationCall,
];
const specificTuple = (d: BridgeSpecificData) => [d.receiverOnDestination, d.nonEVMReceiver, d.destinationMinAmount, d.destinationCallData];
const callTuple = (c: ContractCallData) => [c.target, c.approveTo, c.sendingAssetId, c.amount, c.callData, c.gasLimit, c.fallbackReceiver];

const fn = (iface: Interface, signature: string): FunctionFragment => {
  const fragment = iface.getFunction(signature);
  if (!fragment) throw new Error(`no function ${signature}`);
  return fragment;
};
const router = routerInterface([]);
const SWAP_TOKENS_GENERIC = fn(router, 'swapTokensGeneric');
const SWAP_AND_COMPLETE = fn(router, 'swapAndCompleteBridgeTokens');
const SWAP_AND_COMPLETE_WITH_CALLS = fn(router, 'swapAndCompleteBridgeTokensWithCalls');
const SWAP_AND_CALL = fn(router, 'swapAndCall');
const COLLECT_TOKEN_FEES = fn(feeCollectorInterface, 'collectTokenFees');
const COLLECT_NATIVE_FEES = fn(feeCollectorInterface, 'collectNativeFees');
const WITHDRAW_FEES = fn(feeCollectorInterface, 'withdrawIntegratorFees');
const BATCH_WITHDRAW_FEES = fn(feeCollectorInterface, 'batchWithdrawIntegratorFees');
const V2_SWAP = fn(v2RouterInterface, 'swapExactTokensForTokens');
const V3_EXACT_INPUT = fn(v3RouterInterface, 'exactInput');
const CURVE_EXCHANGE = fn(curvePoolInterface, 'exchange(int128,int128,uint256,uint256)');
const DEPOSIT = fn(wrappedNativeInterface, 'deposit');
const WITHDRAW = fn(wrappedNativeInterface, 'withdraw');

/**
 * The functions the service's SwapData call, by the kind of contract they call: what a router's allowlist must
 * allow (Router.setAllowedCalls; sandbox/serviceContracts.ts allowRouterCalls), and nothing more.
 */
export const SWAP_CALL_SELECTORS: Readonly<Record<'constantProduct' | 'concentrated' | 'stableswap' | 'wrappedNative' | 'feeCollector', readonly string[]>> = {
  constantProduct: [V2_SWAP.selector],
  concentrated: [V3_EXACT_INPUT.selector],
  stableswap: [CURVE_EXCHANGE.selector],
  wrappedNative: [DEPOSIT.selector, WITHDRAW.selector],
  feeCollector: [COLLECT_TOKEN_FEES.selector, COLLECT_NATIVE_FEES.selector],
};

/** The two functions of a bridge's facet. */
interface BridgeFacet {
  readonly start: FunctionFragment;
  readonly swapAndStart: FunctionFragment;
}

/** Facets remembered: more than the catalog has bridges. */
const MAX_FACETS = 64;
/** Facets by bridge key: parsing a facet's ABI is the costly part of a bridge call, and the bridges are few. */
const facets = new BoundedMemo<string, BridgeFacet>({ max: MAX_FACETS });

function facetOf(bridge: string): BridgeFacet {
  const iface = new Interface(bridgeFacetAbi(bridge));
  return { start: fn(iface, startBridgeFunction(bridge)), swapAndStart: fn(iface, swapAndStartBridgeFunction(bridge)) };
}

// Router

export function encodeSwapTokensGeneric(p: {
  transactionId: string; integrator: string; referrer: string; receiver: string; minAmountOut: bigint; swapData: readonly SwapData[];
}): string {
  return encodeCall(SWAP_TOKENS_GENERIC, [p.transactionId, p.integrator, p.referrer, p.receiver, p.minAmountOut, p.swapData.map(swapTuple)]);
}

export function encodeSwapAndCompleteBridgeTokens(p: {
  transactionId: string; swapData: readonly SwapData[]; transferredAssetId: string; receiver: string; minAmountOut: bigint;
}): string {
  return encodeCall(SWAP_AND_COMPLETE, [p.transactionId, p.swapData.map(swapTuple), p.transferredAssetId, p.receiver, p.minAmountOut]);
}

/** The destination call of a transfer with contract calls: its swaps, then the calls (abi.ts header). */
export function encodeSwapAndCompleteBridgeTokensWithCalls(p: {
  transactionId: string; swapData: readonly SwapData[]; transferredAssetId: string; receiver: string; minAmountOut: bigint; calls: readonly ContractCallData[];
}): string {
  return encodeCall(SWAP_AND_COMPLETE_WITH_CALLS, [p.transactionId, p.swapData.map(swapTuple), p.transferredAssetId, p.receiver, p.minAmountOut, p.calls.map(callTuple)]);
}

/** Swaps then contract calls on one chain: the router pulls fromAmount of sendingAssetId first (abi.ts header). */
export function encodeSwapAndCall(p: {
  transactionId: string; integrator: string; referrer: string; receiver: string; sendingAssetId: string; fromAmount: bigint; minAmountOut: bigint;
  swapData: readonly SwapData[]; calls: readonly ContractCallData[];
}): string {
  return encodeCall(SWAP_AND_CALL, [
    p.transactionId, p.integrator, p.referrer, p.receiver, p.sendingAssetId, p.fromAmount, p.minAmountOut, p.swapData.map(swapTuple), p.calls.map(callTuple),
  ]);
}

/** startBridgeTokensVia<B> without source swaps, swapAndStartBridgeTokensVia<B> with them. */
export function encodeBridgeCall(bridgeData: BridgeData, swapData: readonly SwapData[], data: BridgeSpecificData): string {
  const functions = facets.get(bridgeData.bridge, facetOf);
  if (swapData.length === 0) return encodeCall(functions.start, [bridgeTuple(bridgeData), specificTuple(data)]);
  return encodeCall(functions.swapAndStart, [bridgeTuple(bridgeData), swapData.map(swapTuple), specificTuple(data)]);
}

// Fee collector

export function encodeCollectTokenFees(token: string, integratorFee: bigint, serviceFee: bigint, integrator: string): string {
  return encodeCall(COLLECT_TOKEN_FEES, [token, integratorFee, serviceFee, integrator]);
}

export function encodeCollectNativeFees(integratorFee: bigint, serviceFee: bigint, integrator: string): string {
  return encodeCall(COLLECT_NATIVE_FEES, [integratorFee, serviceFee, integrator]);
}

export function encodeWithdrawIntegratorFees(token: string): string {
  return encodeCall(WITHDRAW_FEES, [token]);
}

export function encodeBatchWithdrawIntegratorFees(tokens: readonly string[]): string {
  return encodeCall(BATCH_WITHDRAW_FEES, [tokens]);
}

// Pools and wraps

/** Uniswap V2 Router02 swapExactTokensForTokens (selector 0x38ed1739). */
export function encodeV2Swap(amountIn: bigint, amountOutMin: bigint, path: readonly string[], to: string, deadline = SWAP_DEADLINE): string {
  return encodeCall(V2_SWAP, [amountIn, amountOutMin, path, to, deadline]);
}

/** The packed path of a V3 swap (abi.encodePacked): token (20 bytes) · fee (uint24, ppm) · token · fee · token... */
export function packV3Path(tokens: readonly string[], fees: readonly (bigint | number)[]): string {
  if (tokens.length !== fees.length + 1 || fees.length === 0) throw new Error('a V3 path needs n tokens and n − 1 fees (n ≥ 2)');
  const address = (t: string) => {
    if (!isEvmAddress(t)) throw new Error(`V3 path token ${t} is not an EVM address`);
    return t.slice(2).toLowerCase();
  };
  let hex = `0x${address(tokens[0])}`;
  fees.forEach((fee, k) => {
    const f = BigInt(fee);
    if (f < 0n || f >= 1n << 24n) throw new Error(`V3 fee ${fee} does not fit uint24`);
    hex += f.toString(16).padStart(6, '0') + address(tokens[k + 1]);
  });
  return hex;
}

/** Uniswap V3 SwapRouter exactInput((path, recipient, deadline, amountIn, amountOutMinimum)) (selector 0xc04b8d59). */
export function encodeV3ExactInput(path: string, recipient: string, amountIn: bigint, amountOutMinimum: bigint, deadline = SWAP_DEADLINE): string {
  return encodeCall(V3_EXACT_INPUT, [[path, recipient, deadline, amountIn, amountOutMinimum]]);
}

/** Curve exchange(int128 i, int128 j, uint256 dx, uint256 min_dy) (selector 0x3df02124). */
export function encodeCurveExchange(i: number, j: number, dx: bigint, minDy: bigint): string {
  return encodeCall(CURVE_EXCHANGE, [i, j, dx, minDy]);
}

/** WETH deposit() (selector 0xd0e30db0). */
export function encodeWrap(): string {
  return encodeCall(DEPOSIT, []);
}

/** WETH withdraw(uint256) (selector 0x2e1a7d4d). */
export function encodeUnwrap(amount: bigint): string {
  return encodeCall(WITHDRAW, [amount]);
}
