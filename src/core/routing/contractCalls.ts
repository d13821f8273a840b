/**
 * Quotes for a transfer followed by contract calls (POST /v1/quote/contractCalls, and the deprecated
 * single-call POST /v1/quote/contractCall translated into one call).
 *
 * What the route does: move fromToken on fromChain to toToken on toChain (swaps, at most one bridge, swaps),
 * then, in the same router call (the bridge's destination call across chains; the user's transaction on one
 * chain), run each contract call in order, each with its own fixed amount of the delivered toToken; what
 * arrives above the calls' amounts goes to fromAddress. The router's side is described in
 * src/core/transactions/abi.ts.
 *
 * Amounts:
 * - `toAmount` (exact output): the route guarantees at least toAmount of toToken at the router: the exact-output
 *   search is asked for the smallest amount whose slippage floor is still toAmount, so estimate.toAmountMin ≥
 *   toAmount. The calls' fromAmount values must add up to at most toAmount.
 * - `fromAmount` (exact input): the route sends exactly fromAmount; of the routes found, the best one whose
 *   toAmountMin covers the calls' fromAmount values is taken (400 naming the calls' amounts when none does).
 * - Exactly one of the two; each call's fromTokenAddress is the delivered toToken.
 *
 * Gas: each call runs with at most its toContractGasLimit, plus CONTRACT_CALL_OVERHEAD_GAS of the router's
 * own work around it. Across chains that gas joins the destination call's gas, which the bridge's relayer
 * charges in the bridged token (a "Destination call gas" fee, included); on one chain it joins the
 * transaction's gas. The calls' gas must fit in one transaction (MAX_CONTRACT_CALLS_GAS).
 *
 * Same chain and same token: no swap at all, the calls take the sent token (the fee collection still runs
 * first when there is an integrator fee); nothing can slip, so the slippage is 0 and toAmountMin = toAmount.
 *
 * Every input problem is a 400 naming the body field (all of them at once when they can be checked
 * together); no route is `{ok: false}` with the reasons (the handler answers 404 code 1002).
 */
import { createHash } from 'node:crypto';
import { getAddress } from 'ethers';
import type { Catalog } from '../catalog/catalog';
import type { RouterDeployments } from '../catalog/routers';
import type { Chain, Token } from '../catalog/types';
import { InvalidRequestError } from '../errors';
import { fractionToPpm } from '../math/amounts';
import { divCeil } from '../math/rational';
import { defaultSlippage, destinationCallGas, evaluatePlan, routeId, type RoutePlan } from './evaluate';
import type { RouteFinder } from './finder';
import type { RoutingGraph } from './graph';
import { GAS_LIMIT_MARGIN_PPM, rescale, scaledPrice } from './pricing';
import { buildRouteRequest } from './request';
import type { ToolSelection } from './tools';
import type { Route, RouteRequest, UnavailableRoutes } from './types';

/**
 * The most gas one transaction may use: 2^24, EIP-7825's per-transaction cap (enforced on Ethereum since
 * Fusaka), applied to every EVM chain as the bound a destination call or a transaction must fit in.
 */
export const TRANSACTION_GAS_CAP = 16_777_216n;
/** The router's own gas around one call: handing the amount to the executor, approval and its reset, the fallback transfer, the event. */
export const CONTRACT_CALL_OVERHEAD_GAS = 40_000n;
/** Room kept for the router's own work and up to three swap hops on each side. */
export const ROUTE_GAS_HEADROOM = 1_000_000n;
/**
 * The most the calls' gas (limits plus overhead) may add up to: what fits in TRANSACTION_GAS_CAP once the
 * suggested gas limit's 25 % margin is added, less ROUTE_GAS_HEADROOM (12,421,772).
 */
export const MAX_CONTRACT_CALLS_GAS = (TRANSACTION_GAS_CAP * 1_000_000n) / GAS_LIMIT_MARGIN_PPM - ROUTE_GAS_HEADROOM;

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** One contract call as the request gives it (the contract already checked the shapes). */
export interface ContractCallInput {
  readonly fromAmount: string;
  /** Absent: the delivered toToken (the deprecated single-call form names no token of its own). */
  readonly fromTokenAddress?: string;
  readonly toTokenAddress?: string;
  readonly toContractAddress: string;
  readonly toContractCallData: string;
  readonly toContractGasLimit: string;
  readonly toApprovalAddress?: string;
  readonly toFallbackAddress?: string;
}

export interface ContractCallsInput {
  readonly fromChain: string | number;
  readonly toChain: string | number;
  readonly fromToken: string;
  readonly toToken: string;
  readonly fromAddress: string;
  readonly toAmount?: string;
  readonly fromAmount?: string;
  readonly contractCalls: readonly ContractCallInput[];
  readonly integrator?: string;
  readonly referrer?: string;
  readonly slippage?: number;
  readonly fee?: number;
  readonly bridges?: ToolSelection;
  readonly exchanges?: ToolSelection;
  /** Pools no route may use (denyPools). */
  readonly denyPools?: readonly string[];
  /**
   * The body field (JSON pointer) of an input, by its path in ContractCallsInput ("toAmount",
   * "contractCalls/0/toContractGasLimit"); default "/" + path.
   */
  readonly field?: (path: string) => string;
}

/** A checked contract call. Addresses are checksummed. */
export interface ContractCall {
  readonly index: number;
  readonly target: string;
  /** The spender approved for `amount` (toApprovalAddress, default the target). */
  readonly approveTo: string;
  /** The token the call takes: the route's toToken. */
  readonly token: Token;
  readonly amount: bigint;
  readonly callData: string;
  readonly gasLimit: bigint;
  /** Receives `amount` when the call reverts, and what a successful call leaves of it (default fromAddress). */
  readonly fallbackReceiver: string;
  /** The token the call outputs, when the request names one. */
  readonly outputToken?: Token;
}

export interface ContractCallsQuote {
  /** The route to the router holding toToken, with the calls' gas priced in; its id identifies the calls too. */
  readonly route: Route;
  readonly calls: readonly ContractCall[];
  /** Gets what arrives above the calls' amounts: fromAddress. */
  readonly receiver: string;
  readonly mode: 'exactIn' | 'exactOut';
  /** What the calls take in all. */
  readonly callsAmount: bigint;
  /** What the calls' gas adds up to, overhead included (request.contractCallsGas). */
  readonly callsGas: bigint;
}

export type ContractCallsResult =
  | { readonly ok: true; readonly quote: ContractCallsQuote }
  | { readonly ok: false; readonly message: string; readonly unavailable: UnavailableRoutes };

export interface ContractCallsContext {
  readonly catalog: Catalog;
  readonly graph: RoutingGraph;
  readonly routes: RouteFinder;
  readonly routers: RouterDeployments;
}

interface Issue {
  readonly name: string;
  readonly rule: string;
  readonly message: string;
}

class Issues {
  readonly list: Issue[] = [];
  constructor(readonly field: (path: string) => string) {}

  add(path: string, rule: string, text: string): void {
    const name = this.field(path);
    this.list.push({ name, rule, message: `body field ${name} ${text}` });
  }

  throwIfAny(): void {
    if (this.list.length > 0) this.fail();
  }

  fail(): never {
    throw new InvalidRequestError(`Invalid request: ${this.list.map((i) => i.message).join('; ')}`, { issues: this.list });
  }
}

/** The quote, or why there is no route; throws InvalidRequestError naming every invalid field. */
export function quoteContractCalls(ctx: ContractCallsContext, input: ContractCallsInput): ContractCallsResult {
  const { catalog, graph, routers } = ctx;
  const issues: Issues = new Issues(input.field ?? ((path) => `/${path}`)); // typed: fail() narrows
  const name = (path: string) => issues.field(path);

  // Chains, tokens, addresses.
  const fromChain = chainOf(catalog, issues, 'fromChain', input.fromChain, 'contract calls need an EVM sending chain (the calls travel in its router call)');
  const toChain = chainOf(catalog, issues, 'toChain', input.toChain, 'contract calls run on EVM chains only');
  if (fromChain) tokenOf(catalog, issues, 'fromToken', fromChain, input.fromToken);
  const toToken = toChain && tokenOf(catalog, issues, 'toToken', toChain, input.toToken);
  if (fromChain && !EVM_ADDRESS.test(input.fromAddress)) {
    issues.add('fromAddress', 'addressOfChain', `${input.fromAddress} is not an address of ${fromChain.name} (${fromChain.id}), an EVM chain: it must be 0x and 40 hex digits`);
  }

  // Amounts.
  const mode = amountMode(issues, input);
  if (input.fee !== undefined && input.fee > 0 && !input.integrator) issues.add('fee', 'requiresIntegrator', 'needs an integrator: say whose fee it is with the integrator field');
  if (mode?.mode === 'exactOut' && input.slippage !== undefined && input.slippage >= 1) {
    issues.add('slippage', 'belowOne', `must be below 1 with ${name('toAmount')}: the route guarantees toAmount after slippage`);
  }

  // The calls.
  const router = toChain && routers.routerOf(toChain.id);
  const feeCollector = toChain && routers.feeCollectorOf(toChain.id);
  const calls: ContractCall[] = [];
  input.contractCalls.forEach((c, index) => {
    const at = (field: string) => `contractCalls/${index}/${field}`;
    if (toToken && c.fromTokenAddress !== undefined && c.fromTokenAddress.toLowerCase() !== toToken.address.toLowerCase()) {
      issues.add(at('fromTokenAddress'), 'deliveredToken', `${c.fromTokenAddress} must be the delivered token, ${name('toToken')} ${toToken.address} (${toToken.symbol} on chain ${toToken.chainId}): the calls take what the route delivers`);
    }
    let outputToken: Token | undefined;
    if (toChain && c.toTokenAddress !== undefined) {
      outputToken = catalog.findToken(toChain.id, c.toTokenAddress);
      if (!outputToken) {
        issues.add(at('toTokenAddress'), 'knownToken', `${c.toTokenAddress} is not a known token on ${toChain.name} (${toChain.id}); omit it or give one of GET /v1/tokens?chains=${toChain.key}`);
      }
    }
    const contractAddress = (field: string, address: string, what: string) => {
      const chainName = toChain?.name ?? 'the destination chain';
      if (address.toLowerCase() === ZERO_ADDRESS) issues.add(at(field), 'notZero', `is the zero address: ${what}`);
      else if (router && address.toLowerCase() === router.toLowerCase()) issues.add(at(field), 'notRouter', `${address} is the service's router on ${chainName}: contract calls cannot call or approve the router`);
      else if (feeCollector && address.toLowerCase() === feeCollector.toLowerCase()) issues.add(at(field), 'notRouter', `${address} is the service's fee collector on ${chainName}: contract calls cannot call or approve it`);
    };
    contractAddress('toContractAddress', c.toContractAddress, 'say which contract to call');
    if (c.toApprovalAddress !== undefined) contractAddress('toApprovalAddress', c.toApprovalAddress, 'say which address to approve, or omit it to approve toContractAddress');
    if (c.toFallbackAddress !== undefined && c.toFallbackAddress.toLowerCase() === ZERO_ADDRESS) {
      issues.add(at('toFallbackAddress'), 'notZero', 'is the zero address: the tokens of a failed call would be lost; omit it to fall back to fromAddress');
    }
    const gasLimit = BigInt(c.toContractGasLimit);
    if (gasLimit <= 0n) issues.add(at('toContractGasLimit'), 'positive', 'must be greater than 0');
    if (!toToken || !EVM_ADDRESS.test(input.fromAddress)) return;
    calls.push({
      index,
      target: checksum(c.toContractAddress),
      approveTo: checksum(c.toApprovalAddress ?? c.toContractAddress),
      token: toToken,
      amount: BigInt(c.fromAmount),
      callData: c.toContractCallData.toLowerCase(),
      gasLimit,
      fallbackReceiver: checksum(c.toFallbackAddress ?? input.fromAddress),
      outputToken,
    });
  });
  const callsAmount = input.contractCalls.reduce((sum, c) => sum + BigInt(c.fromAmount), 0n);
  if (mode?.mode === 'exactOut' && toToken) {
    const over = firstOverrun(input.contractCalls.map((c) => BigInt(c.fromAmount)), mode.amount);
    if (over !== undefined) {
      issues.add(`contractCalls/${over}/fromAmount`, 'fundedByToAmount', `makes the calls take ${runningSum(input.contractCalls, over)} ${toToken.symbol} units (calls 0 to ${over}), more than ${name('toAmount')} ${mode.amount}: toAmount must cover every call`);
    }
  }
  const callsGas = contractCallsGas(input.contractCalls.map((c) => BigInt(c.toContractGasLimit)));
  const gasOver = firstOverrun(input.contractCalls.map((c) => BigInt(c.toContractGasLimit) + CONTRACT_CALL_OVERHEAD_GAS), MAX_CONTRACT_CALLS_GAS);
  if (gasOver !== undefined && toChain) {
    issues.add(`contractCalls/${gasOver}/toContractGasLimit`, 'maxGas', `is too high for ${toChain.name} (${toChain.id}): ${gasTooHigh(input.contractCalls.slice(0, gasOver + 1).map((c) => BigInt(c.toContractGasLimit)))}`);
  }
  if (issues.list.length > 0 || !mode) issues.fail(); // no mode: its issue is listed
  const { mode: kind, amount } = mode;

  // The route.
  let request = routeRequest(catalog, input, kind, amount, issues);
  request = { ...request, contractCallsGas: callsGas, allowDestinationCall: true, allowSwitchChain: false, maxRoutes: kind === 'exactIn' ? 5 : 1 };
  const sameToken = request.fromChain.id === request.toChain.id && request.fromToken.address.toLowerCase() === request.toToken.address.toLowerCase();
  // without a swap or a bridge nothing can slip: the calls get exactly what is sent (after the fee)
  if (sameToken) request = { ...request, slippage: 0 };
  const slippagePpm = fractionToPpm(request.slippage ?? defaultSlippage(request), 'up');
  if (kind === 'exactOut') request = { ...request, amount: amountBeforeSlippage(amount, slippagePpm) };
  const guaranteed = kind === 'exactOut' ? amount : callsAmount;
  const result = sameToken ? callsOnly(graph, request) : inBody(issues, () => ctx.routes.find(request));
  const candidates = result.routes.filter((r) => !r.containsSwitchChain);
  if (candidates.length === 0) return { ok: false, message: noRouteMessage(result.unavailable), unavailable: result.unavailable };
  const route = candidates.find((r) => r.toAmountMin >= guaranteed);
  if (!route) {
    // exact input: even the best route's guaranteed output does not cover the calls
    const best = candidates[0];
    const over = firstOverrun(input.contractCalls.map((c) => BigInt(c.fromAmount)), best.toAmountMin) ?? input.contractCalls.length - 1;
    issues.add(`contractCalls/${over}/fromAmount`, 'fundedByFromAmount', `makes the calls take ${runningSum(input.contractCalls, over)} ${best.request.toToken.symbol} units (calls 0 to ${over}), more than the ${best.toAmountMin} that ${name('fromAmount')} ${best.fromAmount} is guaranteed to deliver (toAmountMin of the best route, ${best.overallPath}); send more, or give toAmount instead`);
    issues.fail();
  }
  // The whole transaction (one chain) or destination call (across chains) must fit in one transaction.
  const plannedGas = route.bridge
    ? destinationCallGas({ sources: [], destinationSeparate: false, destination: route.destination }, callsGas)
    : route.transactions[0].gasCost.estimate;
  if (divCeil(plannedGas * GAS_LIMIT_MARGIN_PPM, 1_000_000n) > TRANSACTION_GAS_CAP) {
    const where = route.bridge ? 'destination call' : 'transaction';
    input.contractCalls.forEach((_, k) => issues.add(`contractCalls/${k}/toContractGasLimit`, 'maxGas', `is too high for ${request.toChain.name} (${request.toChain.id}): with the route's swaps the ${where} needs ${plannedGas} gas, more than the ${TRANSACTION_GAS_CAP} one transaction may use (with the 25 % gas-limit margin)`));
    issues.fail();
  }
  const quoted: Route = { ...route, id: contractCallsRouteId(route.id, calls) };
  return { ok: true, quote: { route: quoted, calls, receiver: checksum(input.fromAddress), mode: kind, callsAmount, callsGas } };
}

/** The gas the calls add: their gas limits plus the router's overhead around each. */
export function contractCallsGas(gasLimits: readonly bigint[]): bigint {
  return gasLimits.reduce((sum, g) => sum + g + CONTRACT_CALL_OVERHEAD_GAS, 0n);
}

/** The index of the first amount at which the running sum exceeds `available`; undefined when the sum fits. */
export function firstOverrun(amounts: readonly bigint[], available: bigint): number | undefined {
  let sum = 0n;
  for (const [k, amount] of amounts.entries()) {
    sum += amount;
    if (sum > available) return k;
  }
  return undefined;
}

/**
 * The smallest amount whose slippage floor, floor(x · (1e6 − slippagePpm) / 1e6) as toAmountMin is
 * computed, is at least `amount`: ceil(amount · 1e6 / (1e6 − slippagePpm)).
 */
export function amountBeforeSlippage(amount: bigint, slippagePpm: bigint): bigint {
  if (slippagePpm < 0n || slippagePpm >= 1_000_000n) throw new RangeError(`slippage ${slippagePpm} ppm leaves nothing to guarantee`);
  return divCeil(amount * 1_000_000n, 1_000_000n - slippagePpm);
}

/** The smallest amount whose rest after the integrator fee (rest = x − floor(x · feePpm / 1e6)) is at least `net`. */
export function amountBeforeFee(net: bigint, feePpm: bigint): bigint {
  if (feePpm < 0n || feePpm >= 1_000_000n) throw new RangeError(`fee ${feePpm} ppm leaves nothing`);
  const rest = (x: bigint) => x - (x * feePpm) / 1_000_000n;
  let gross = divCeil(net * 1_000_000n, 1_000_000n - feePpm);
  while (gross > net && rest(gross - 1n) >= net) gross -= 1n;
  while (rest(gross) < net) gross += 1n;
  return gross;
}

/**
 * An estimate of a call's output in its output token: its input valued at reference prices (rounded down);
 * the input itself when the call names no output token, or a price is missing. The router does not check
 * a call's output: a custom step's toAmountMin is 0.
 */
export function estimateCallOutput(amount: bigint, token: Token, outputToken: Token | undefined): bigint {
  if (!outputToken) return amount;
  const pIn = scaledPrice(token.priceUSD);
  const pOut = scaledPrice(outputToken.priceUSD);
  if (pIn === 0n || pOut === 0n) return rescale(amount, token.decimals, outputToken.decimals);
  return (amount * pIn * 10n ** BigInt(outputToken.decimals)) / (pOut * 10n ** BigInt(token.decimals));
}

/** A deterministic step id (UUID form) for the route and its calls: other calls, another id (and transactionId). */
export function contractCallsRouteId(routeIdOfPath: string, calls: readonly ContractCall[]): string {
  const hash = createHash('sha256').update(routeIdOfPath);
  for (const c of calls) hash.update(`|${c.target}|${c.approveTo}|${c.amount}|${c.callData}|${c.gasLimit}|${c.fallbackReceiver}|${c.outputToken?.address ?? ''}`);
  const hex = hash.digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function amountMode(issues: Issues, input: ContractCallsInput): { mode: 'exactIn' | 'exactOut'; amount: bigint } | undefined {
  const toAmount = input.toAmount;
  const fromAmount = input.fromAmount;
  if (toAmount === undefined && fromAmount === undefined) {
    issues.add('toAmount', 'oneOfRequired', `or ${issues.field('fromAmount')} is required: give exactly one of them (toAmount: what the contract calls need on the destination chain; fromAmount: what to send)`);
    return undefined;
  }
  if (toAmount !== undefined && fromAmount !== undefined) {
    issues.add('fromAmount', 'oneOf', `and ${issues.field('toAmount')} are both given: give exactly one of them (toAmount for exact output, fromAmount for exact input)`);
    return undefined;
  }
  const [path, value] = toAmount !== undefined ? ['toAmount', toAmount] : ['fromAmount', fromAmount!];
  const amount = BigInt(value);
  if (amount <= 0n) {
    issues.add(path, 'positive', 'must be greater than 0');
    return undefined;
  }
  return { mode: toAmount !== undefined ? 'exactOut' : 'exactIn', amount };
}

function chainOf(catalog: Catalog, issues: Issues, path: string, ref: string | number, evmOnly: string): Chain | undefined {
  const chain = catalog.resolveChain(ref);
  if (!chain) {
    issues.add(path, 'supportedChain', `"${ref}" is not a supported chain id or key; GET /v1/chains lists the supported chains`);
    return undefined;
  }
  if (chain.chainType !== 'EVM') {
    issues.add(path, 'evmChain', `names ${chain.name} (${chain.id}), a ${chain.chainType} chain: ${evmOnly}`);
    return undefined;
  }
  return chain;
}

function tokenOf(catalog: Catalog, issues: Issues, path: string, chain: Chain, ref: string): Token | undefined {
  const token = catalog.findToken(chain.id, ref);
  if (!token) issues.add(path, 'knownToken', `"${ref}" is not a known token on ${chain.name} (${chain.id}); GET /v1/tokens?chains=${chain.key} lists them`);
  return token;
}

/**
 * Runs shared routing code; a problem it finds (named as a query parameter there, e.g. "allowBridges names
 * unknown tool(s) x") is thrown again named as the body field ("body field /allowBridges names ...").
 */
function inBody<T>(issues: Issues, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (!(error instanceof InvalidRequestError)) throw error;
    const found = (error.details as { issues?: { name: string; rule: string }[] } | undefined)?.issues ?? [];
    if (found.length === 0) throw error;
    for (const issue of found) {
      const text = error.message.startsWith(`${issue.name} `) ? error.message.slice(issue.name.length + 1) : `: ${error.message}`;
      issues.add(issue.name, issue.rule, text);
    }
    issues.throwIfAny();
    throw error;
  }
}

/** The route request (buildRouteRequest, its problems named as body fields). */
function routeRequest(catalog: Catalog, input: ContractCallsInput, mode: 'exactIn' | 'exactOut', amount: bigint, issues: Issues): RouteRequest {
  return inBody(issues, () =>
    buildRouteRequest(catalog, {
      fromChain: input.fromChain,
      toChain: input.toChain,
      fromToken: input.fromToken,
      toToken: input.toToken,
      amount: amount.toString(),
      mode,
      fromAddress: input.fromAddress,
      toAddress: input.fromAddress,
      slippage: input.slippage,
      fee: input.fee,
      integrator: input.integrator,
      referrer: input.referrer,
      bridges: input.bridges,
      exchanges: input.exchanges,
      denyPools: input.denyPools,
      allowDestinationCall: true,
      allowSwitchChain: false,
      names: { amount: mode === 'exactOut' ? 'toAmount' : 'fromAmount' },
    }),
  );
}

/** Same chain and same token: no swap, the calls take the sent token (after the integrator fee, if any). */
function callsOnly(graph: RoutingGraph, request: RouteRequest): { routes: Route[]; unavailable: UnavailableRoutes } {
  const feePpm = fractionToPpm(request.fee ?? 0, 'up');
  const fromAmount = request.mode === 'exactOut' ? amountBeforeFee(request.amount, feePpm) : request.amount;
  const plan: RoutePlan = { sources: [], destinationSeparate: false };
  const evaluation = evaluatePlan(graph, request, plan, fromAmount, new Map());
  const overallPath = `${request.fromChain.id}:${request.fromToken.symbol}`;
  if (!evaluation.ok) {
    const error = {
      errorType: 'NO_QUOTE' as const, code: evaluation.code, tool: 'custom', message: evaluation.message,
      action: { fromChainId: request.fromChain.id, toChainId: request.toChain.id, fromToken: request.fromToken, toToken: request.toToken, fromAmount },
    };
    return { routes: [], unavailable: { filteredOut: [], failed: [{ overallPath, subpaths: { [overallPath]: [error] } }] } };
  }
  const route = evaluation.route;
  const transactions = route.transactions.map((tx) => ({ ...tx, tool: 'custom' }));
  return { routes: [{ ...route, transactions, id: routeId(request, route.overallPath, route.fromAmount), tags: ['RECOMMENDED', 'CHEAPEST', 'FASTEST'] }], unavailable: { filteredOut: [], failed: [] } };
}

function runningSum(calls: readonly ContractCallInput[], upTo: number): bigint {
  return calls.slice(0, upTo + 1).reduce((sum, c) => sum + BigInt(c.fromAmount), 0n);
}

function gasTooHigh(gasLimits: readonly bigint[]): string {
  const total = contractCallsGas(gasLimits);
  return `the calls' gas limits up to this one, with ${CONTRACT_CALL_OVERHEAD_GAS} of the router's own gas per call, add up to ${total}, more than the ${MAX_CONTRACT_CALLS_GAS} that fit in one transaction (${TRANSACTION_GAS_CAP} gas at most per transaction, less the 25 % gas-limit margin and ${ROUTE_GAS_HEADROOM} for the router and its swaps)`;
}

function noRouteMessage(unavailable: UnavailableRoutes): string {
  const first = unavailable.failed[0] ? Object.values(unavailable.failed[0].subpaths)[0]?.[0]?.message : unavailable.filteredOut[0]?.reason;
  const count = unavailable.failed.length + unavailable.filteredOut.length;
  return first
    ? `No available quotes for the transfer before the contract calls: ${first}${count > 1 ? ` (and ${count - 1} more reasons under errors)` : ''}`
    : 'No available quotes for the transfer before the contract calls';
}

function checksum(address: string): string {
  return getAddress(address.toLowerCase());
}
