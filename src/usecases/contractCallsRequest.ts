/**
 * The request of a contract-calls quote (POST /v1/quote/contractCalls, and the deprecated single-call
 * POST /v1/quote/contractCall translated into one call) and its checks: exactly one of toAmount (exact output)
 * and fromAmount (exact input); each call's fromTokenAddress is the delivered toToken; with toAmount the calls'
 * amounts add up to at most toAmount; the calls' gas fits in one transaction (MAX_CONTRACT_CALLS_GAS). An empty
 * list of calls is a plain transfer (plainTransferParameters), checked as the quote operations check it.
 *
 * Every problem is a 400 naming the body field by its JSON pointer (`/contractCalls/0/fromAmount`, or the
 * deprecated body's own name, see ContractCallsInput.field), all of them at once when they can be checked
 * together; problems the shared routing code finds (named as parameters there) are named as body fields too.
 */
import { getAddress } from 'ethers';
import type { Catalog } from '../core/catalog/catalog';
import type { RouterDeployments } from '../core/catalog/routers';
import type { Chain, Token } from '../core/entities';
import { familyOf } from '../core/chains/families';
import { InvalidRequestError, type RequestIssue } from '../core/errors';
import {
  CONTRACT_CALL_OVERHEAD_GAS,
  MAX_CONTRACT_CALLS_GAS,
  ROUTE_GAS_HEADROOM,
  TRANSACTION_GAS_CAP,
  contractCallsGas,
  firstOverrun,
  type ContractCall,
  type ContractCallsMode,
} from '../core/routing/contractCallsRoute';
import { buildRouteRequest, type RouteParameters } from '../core/routing/request';
import type { ToolSelection } from '../core/routing/tools';
import type { Route, RouteRequest } from '../core/routing/route';
import { isEvmAddress, ZERO_ADDRESS } from '../core/transactions/ids';

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
  /** With an empty list of calls only (a plain transfer), as allowDestinationCall of GET /v1/quote; calls run in the destination call anyway. */
  readonly allowDestinationCall?: boolean;
  /**
   * The body field (JSON pointer) of an input, by its path in ContractCallsInput ("toAmount",
   * "contractCalls/0/toContractGasLimit"); default "/" + path.
   */
  readonly field?: (path: string) => string;
}

/** A request that passed its checks: how much, which way, and the calls. */
export interface CheckedContractCalls {
  readonly mode: ContractCallsMode;
  /** toAmount (exact output) or fromAmount (exact input). */
  readonly amount: bigint;
  readonly calls: readonly ContractCall[];
  /** What the calls take in all. */
  readonly callsAmount: bigint;
  /** The calls' gas limits plus the router's overhead around each. */
  readonly callsGas: bigint;
}

/** The problems of one request, each naming its body field; thrown together as one InvalidRequestError. */
export class BodyIssues {
  readonly list: RequestIssue[] = [];
  constructor(readonly field: (path: string) => string) {}

  static of(input: ContractCallsInput): BodyIssues {
    return new BodyIssues(input.field ?? ((path) => `/${path}`));
  }

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

/** What the checks read: the catalog (chains, tokens) and the service's own addresses (never a call's target). */
export interface RequestContext {
  readonly catalog: Catalog;
  readonly routers: RouterDeployments;
}

/** The checked request; throws InvalidRequestError naming every invalid body field. */
export function checkContractCalls({ catalog, routers }: RequestContext, input: ContractCallsInput, issues: BodyIssues): CheckedContractCalls {
  const name = (path: string) => issues.field(path);

  // Chains, tokens, addresses.
  const fromChain = chainOf(catalog, issues, 'fromChain', input.fromChain, 'contract calls need an EVM sending chain (the calls travel in its router call)');
  const toChain = chainOf(catalog, issues, 'toChain', input.toChain, 'contract calls run on EVM chains only');
  if (fromChain) tokenOf(catalog, issues, 'fromToken', fromChain, input.fromToken);
  const toToken = toChain && tokenOf(catalog, issues, 'toToken', toChain, input.toToken);
  if (fromChain && !isEvmAddress(input.fromAddress)) {
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
    if (!toToken || !isEvmAddress(input.fromAddress)) return;
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
  return { mode: mode.mode, amount: mode.amount, calls, callsAmount, callsGas };
}

/**
 * An empty list of calls: the plain transfer's parameters, those GET /v1/quote (fromAmount, exact input) or
 * GET /v1/quote/toAmount (toAmount, exact output) has for the same transfer to fromAddress. Throws
 * InvalidRequestError naming the body field when neither amount or both are given.
 */
export function plainTransferParameters(input: ContractCallsInput, issues: BodyIssues): RouteParameters {
  const checked = amountMode(issues, input);
  if (!checked) issues.fail();
  return { ...routeParametersOf(input, checked.mode, checked.amount), allowDestinationCall: input.allowDestinationCall };
}

/** The transfer's route request (buildRouteRequest, its problems named as body fields). */
export function transferRequest(catalog: Catalog, input: ContractCallsInput, mode: ContractCallsMode, amount: bigint, issues: BodyIssues): RouteRequest {
  return inBody(issues, () =>
    buildRouteRequest(catalog, { ...routeParametersOf(input, mode, amount), toAddress: input.fromAddress, allowDestinationCall: true, allowSwitchChain: false }),
  );
}

/** The route parameters a contract-calls body gives, with or without calls (the amount named as its body field). */
function routeParametersOf(input: ContractCallsInput, mode: ContractCallsMode, amount: bigint): RouteParameters {
  return {
    fromChain: input.fromChain,
    toChain: input.toChain,
    fromToken: input.fromToken,
    toToken: input.toToken,
    amount: amount.toString(),
    mode,
    names: { amount: mode === 'exactOut' ? 'toAmount' : 'fromAmount' },
    fromAddress: input.fromAddress,
    slippage: input.slippage,
    fee: input.fee,
    integrator: input.integrator,
    referrer: input.referrer,
    bridges: input.bridges,
    exchanges: input.exchanges,
    denyPools: input.denyPools,
  };
}

/**
 * Runs shared routing code; a problem it finds (named as a parameter there, e.g. "allowBridges names unknown
 * tool(s) x") is thrown again named as the body field ("body field /allowBridges names ...").
 */
export function inBody<T>(issues: BodyIssues, run: () => T): T {
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

/** inBody for work that answers later (building a transaction): the same renaming of its InvalidRequestErrors. */
export async function inBodyAsync<T>(issues: BodyIssues, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    return inBody(issues, () => {
      throw error;
    });
  }
}

/** Exact input: even the best route's guaranteed output does not cover the calls; names the first call it leaves unfunded. */
export function callsNotFunded(issues: BodyIssues, input: ContractCallsInput, best: Route): never {
  const over = firstOverrun(input.contractCalls.map((c) => BigInt(c.fromAmount)), best.toAmountMin) ?? input.contractCalls.length - 1;
  issues.add(`contractCalls/${over}/fromAmount`, 'fundedByFromAmount', `makes the calls take ${runningSum(input.contractCalls, over)} ${best.request.toToken.symbol} units (calls 0 to ${over}), more than the ${best.toAmountMin} that ${issues.field('fromAmount')} ${best.fromAmount} is guaranteed to deliver (toAmountMin of the best route, ${best.overallPath}); send more, or give toAmount instead`);
  issues.fail();
}

/** The route's swaps and the calls need `gas` in one destination call or transaction, more than fits: names every call's gas limit. */
export function callsGasTooHighForRoute(issues: BodyIssues, input: ContractCallsInput, route: Route, gas: bigint): never {
  const where = route.bridge ? 'destination call' : 'transaction';
  const { toChain } = route.request;
  input.contractCalls.forEach((_, k) => issues.add(`contractCalls/${k}/toContractGasLimit`, 'maxGas', `is too high for ${toChain.name} (${toChain.id}): with the route's swaps the ${where} needs ${gas} gas, more than the ${TRANSACTION_GAS_CAP} one transaction may use (with the 25 % gas-limit margin)`));
  issues.fail();
}

function amountMode(issues: BodyIssues, input: ContractCallsInput): { mode: ContractCallsMode; amount: bigint } | undefined {
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

function chainOf(catalog: Catalog, issues: BodyIssues, path: string, ref: string | number, evmOnly: string): Chain | undefined {
  const chain = catalog.resolveChain(ref);
  if (!chain) {
    issues.add(path, 'supportedChain', `"${ref}" is not a supported chain id or key; GET /v1/chains lists the supported chains`);
    return undefined;
  }
  if (!familyOf(chain).evmContracts) {
    issues.add(path, 'evmChain', `names ${chain.name} (${chain.id}), a ${chain.chainType} chain: ${evmOnly}`);
    return undefined;
  }
  return chain;
}

function tokenOf(catalog: Catalog, issues: BodyIssues, path: string, chain: Chain, ref: string): Token | undefined {
  const token = catalog.findToken(chain.id, ref);
  if (!token) issues.add(path, 'knownToken', `"${ref}" is not a known token on ${chain.name} (${chain.id}); GET /v1/tokens?chains=${chain.key} lists them`);
  return token;
}

function runningSum(calls: readonly ContractCallInput[], upTo: number): bigint {
  return calls.slice(0, upTo + 1).reduce((sum, c) => sum + BigInt(c.fromAmount), 0n);
}

function gasTooHigh(gasLimits: readonly bigint[]): string {
  const total = contractCallsGas(gasLimits);
  return `the calls' gas limits up to this one, with ${CONTRACT_CALL_OVERHEAD_GAS} of the router's own gas per call, add up to ${total}, more than the ${MAX_CONTRACT_CALLS_GAS} that fit in one transaction (${TRANSACTION_GAS_CAP} gas at most per transaction, less the 25 % gas-limit margin and ${ROUTE_GAS_HEADROOM} for the router and its swaps)`;
}

function checksum(address: string): string {
  return getAddress(address.toLowerCase());
}
