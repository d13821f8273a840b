/**
 * Requests in domain form: the contract's query parameters and bodies (already checked against their schemas)
 * as the parameters of the use cases. Format only: names and shapes, no decisions.
 */
import type { ContractCallsInput } from '../../src/usecases/contractCalls';
import type { RelayRequest } from '../../src/usecases/relay';
import type { RouteParameters } from '../../src/core/routing/request';
import type { ToolSelection } from '../../src/core/routing/tools';
import type { components } from '../../src/generated/openapi';
import { InvalidRequestError } from '../../src/core/errors';
import type { StepDescription, StepHop } from '../../src/core/transactions/reprice';
import type { BodyOf, QueryOf } from '../typedOperation';

type WireStep = components['schemas']['Step'];

/** Allow, deny and prefer lists of one kind of tool, as the query and the bodies name them. */
export function toolSelection(allow: readonly string[] | undefined, deny: readonly string[] | undefined, prefer: readonly string[] | undefined): ToolSelection {
  return { allow, deny, prefer };
}

/** The query of /v1/quote and /v1/quote/toAmount as route parameters (the contract already checked types and bounds). */
export function quoteParameters(
  query: QueryOf<'getQuote'> | QueryOf<'getQuoteToAmount'>,
  amount: { value: string; mode: 'exactIn' | 'exactOut'; name: string },
): RouteParameters {
  const q = query as QueryOf<'getQuote'> & Partial<QueryOf<'getQuoteToAmount'>>;
  return {
    fromChain: q.fromChain,
    toChain: q.toChain,
    fromToken: q.fromToken,
    toToken: q.toToken,
    amount: amount.value,
    mode: amount.mode,
    names: { amount: amount.name },
    fromAddress: q.fromAddress,
    toAddress: q.toAddress,
    order: q.order,
    slippage: q.slippage,
    fee: q.fee,
    integrator: q.integrator,
    referrer: q.referrer,
    bridges: toolSelection(q.allowBridges, q.denyBridges, q.preferBridges),
    exchanges: toolSelection(q.allowExchanges, q.denyExchanges, q.preferExchanges),
    allowDestinationCall: q.allowDestinationCall,
    maxPriceImpact: q.maxPriceImpact,
    fromAmountForGas: 'fromAmountForGas' in q ? q.fromAmountForGas : undefined,
    preset: 'preset' in q ? q.preset : undefined,
    timingStrategies: [...(q.swapStepTimingStrategies ?? []), ...(q.routeTimingStrategies ?? [])],
    denyPools: q.denyPools,
    executionType: q.executionType,
    gasless: q.gasless,
    svmPriorityFeeLevel: q.svmPriorityFeeLevel,
    destinationActionParameter: q.destinationActionKind !== undefined ? 'destinationActionKind' : q.destinationActionVault !== undefined ? 'destinationActionVault' : undefined,
  };
}

/** The body of POST /v1/advanced/routes as route parameters (its options flattened, its field names for errors). */
export function routesParameters(body: BodyOf<'postRoutes'>): RouteParameters {
  const options: Partial<NonNullable<typeof body.options>> = body.options ?? {};
  const timing = options.timing;
  return {
    fromChain: body.fromChainId,
    toChain: body.toChainId,
    fromToken: body.fromTokenAddress,
    toToken: body.toTokenAddress,
    amount: body.fromAmount,
    mode: 'exactIn',
    names: { fromChain: 'fromChainId', toChain: 'toChainId', fromToken: 'fromTokenAddress', toToken: 'toTokenAddress', amount: 'fromAmount' },
    fromAddress: body.fromAddress,
    toAddress: body.toAddress,
    fromAmountForGas: body.fromAmountForGas,
    order: options.order,
    slippage: options.slippage,
    fee: options.fee,
    integrator: options.integrator,
    referrer: options.referrer,
    bridges: options.bridges,
    exchanges: options.exchanges,
    allowSwitchChain: options.allowSwitchChain,
    allowDestinationCall: options.allowDestinationCall,
    maxPriceImpact: options.maxPriceImpact,
    timingStrategies: [...(timing?.swapStepTimingStrategies ?? []), ...(timing?.routeTimingStrategies ?? [])],
    preset: options.preset,
    denyPools: options.pools?.deny,
    executionType: options.executionType,
    gasless: options.gasless,
    svmPriorityFeeLevel: options.svmPriorityFeeLevel,
    destinationActionParameter: options.destinationAction !== undefined ? 'options.destinationAction' : undefined,
  };
}

/** The fields both contract-call bodies share, as the contract-calls use case's input names them. */
type CallBody = BodyOf<'postContractCallsQuote'> | BodyOf<'postContractCallQuote'>;

function transferOf(body: CallBody) {
  return { fromChain: body.fromChain, toChain: body.toChain, fromToken: body.fromToken, toToken: body.toToken, fromAddress: body.fromAddress, toAmount: body.toAmount };
}

/** A fraction the contract-call bodies give as a number or a decimal string (the contract checked its bounds). */
function fraction(value: number | string | undefined): number | undefined {
  return typeof value === 'string' ? Number(value) : value;
}

function optionsOf(body: CallBody) {
  return {
    integrator: body.integrator,
    referrer: body.referrer,
    slippage: fraction(body.slippage),
    fee: fraction(body.fee),
    bridges: toolSelection(body.allowBridges, body.denyBridges, body.preferBridges),
    exchanges: toolSelection(body.allowExchanges, body.denyExchanges, body.preferExchanges),
    denyPools: body.denyPools,
  };
}

/** The body of POST /v1/quote/contractCalls as the contract-calls use case's input. */
export function contractCallsInput(body: BodyOf<'postContractCallsQuote'>): ContractCallsInput {
  return { ...transferOf(body), fromAmount: body.fromAmount, contractCalls: body.contractCalls, allowDestinationCall: body.allowDestinationCall, ...optionsOf(body) };
}

/** The single call's fields of the contractCalls form, by the deprecated body's own field names. */
const CONTRACT_CALL_FIELDS: Record<string, string> = {
  'contractCalls/0/fromAmount': '/toAmount',
  'contractCalls/0/toTokenAddress': '/contractOutputsToken',
  'contractCalls/0/toContractAddress': '/toContractAddress',
  'contractCalls/0/toContractCallData': '/toContractCallData',
  'contractCalls/0/toContractGasLimit': '/toContractGasLimit',
};

/**
 * The body of the deprecated POST /v1/quote/contractCall as a contract-calls input with one call that takes the
 * whole toAmount of the delivered toToken; problems are named by this body's own fields.
 */
export function contractCallInput(body: BodyOf<'postContractCallQuote'>): ContractCallsInput {
  return {
    ...transferOf(body),
    contractCalls: [
      {
        fromAmount: body.toAmount,
        toTokenAddress: body.contractOutputsToken,
        toContractAddress: body.toContractAddress,
        toContractCallData: body.toContractCallData,
        toContractGasLimit: body.toContractGasLimit,
        ...(body.toApprovalAddress !== undefined ? { toApprovalAddress: body.toApprovalAddress } : {}),
      },
    ],
    ...optionsOf(body),
    field: (path) => CONTRACT_CALL_FIELDS[path] ?? `/${path}`,
  };
}

/** The wire Step in domain form: what identifies its plan (the contract already checked the field types). */
export function stepDescription(step: WireStep): StepDescription {
  const included = step.includedSteps ?? [];
  if (included.length === 0) {
    invalid('/includedSteps', 'required', 'body field /includedSteps is missing or empty: send a step as POST /v1/advanced/routes returned it, with its included steps');
  }
  const hops = included.map((s, k) => describeHop(s, `/includedSteps/${k}`));
  return {
    id: step.id,
    fromChainId: step.action.fromChainId,
    toChainId: step.action.toChainId,
    fromToken: step.action.fromToken.address,
    toToken: step.action.toToken.address,
    fromAmount: BigInt(step.action.fromAmount),
    toAmountMin: BigInt(step.estimate.toAmountMin),
    slippage: step.action.slippage,
    fromAddress: step.action.fromAddress,
    toAddress: step.action.toAddress,
    integrator: step.integrator,
    referrer: step.referrer,
    hops,
  };
}

function describeHop(step: WireStep, field: string): StepHop {
  const { action } = step;
  switch (step.type) {
    case 'protocol': {
      if (step.tool !== 'feeCollection') invalid(`${field}/tool`, 'knownTool', `body field ${field}/tool: protocol step ${step.tool} is not one this service runs (feeCollection)`);
      const fromAmount = BigInt(step.estimate.fromAmount);
      const toAmount = BigInt(step.estimate.toAmount);
      const percentage = step.estimate.feeCosts[0]?.percentage;
      const fee = percentage !== undefined ? Number(percentage) : fromAmount > 0n ? Number(fromAmount - toAmount) / Number(fromAmount) : 0;
      if (!(fee >= 0 && fee < 1)) invalid(`${field}/estimate/feeCosts/0/percentage`, 'fee', `body field ${field}/estimate/feeCosts/0/percentage must be a fee fraction in [0, 1)`);
      return { kind: 'fee', field, fee };
    }
    case 'swap': {
      if (action.fromChainId !== action.toChainId) invalid(`${field}/action/toChainId`, 'sameChain', `body field ${field}/action/toChainId: a swap step stays on its chain (${action.fromChainId})`);
      const data = step.estimate.data as Record<string, unknown> | undefined;
      const poolId = data?.poolId;
      if (poolId !== undefined && typeof poolId !== 'string') invalid(`${field}/estimate/data/poolId`, 'type', `body field ${field}/estimate/data/poolId must be a string`);
      return {
        kind: 'swap', field, chainId: action.fromChainId, tool: step.tool,
        fromToken: action.fromToken.address, toToken: action.toToken.address,
        fromAmount: BigInt(action.fromAmount),
        ...(typeof poolId === 'string' ? { poolId } : {}),
      };
    }
    case 'cross':
      return {
        kind: 'cross', field, bridge: step.tool,
        fromAmount: BigInt(action.fromAmount),
        fromChainId: action.fromChainId, toChainId: action.toChainId,
        fromToken: action.fromToken.address, toToken: action.toToken.address,
      };
    default:
      return invalid(`${field}/type`, 'supportedType', `body field ${field}/type: ${step.type} steps cannot be included in a route step (swap, cross or protocol)`);
  }
}

function invalid(name: string, rule: string, message: string): never {
  throw new InvalidRequestError(message, { issues: [{ in: 'body', name, rule, message }] });
}

/** The name of the relayer's fee among a gasless step's fee costs (src/core/routing/assemble.ts). */
const RELAY_FEE_COST = 'Gasless relay fee';

/**
 * A signed gasless step (POST /v1/relayer/relay, /v1/advanced/relay) in domain form: the transfer it quotes as route
 * parameters — an exact input from its fromAddress with its slippage and receiver, its integrator's fee (the
 * percentage of its `Integrator fee` cost) and its tool — and the relayer's fee it carries. Whether the step is the
 * one the signatures cover is the use case's to decide.
 */
export function relayRequest(step: BodyOf<'relayTransaction'>): RelayRequest {
  const { action, estimate } = step;
  const costs = estimate.feeCosts ?? [];
  const relayAt = costs.findIndex((c) => c.name === RELAY_FEE_COST);
  if (relayAt < 0) invalid('/estimate/feeCosts', 'relayFee', `body field /estimate/feeCosts holds no "${RELAY_FEE_COST}": the step is not a gasless step of this service (GET /v1/relayer/quote)`);
  const integratorFee = costs.find((c) => c.name === 'Integrator fee');
  const fee = integratorFee ? Number(integratorFee.percentage) : undefined;
  if (fee !== undefined && !(fee >= 0 && fee < 1)) invalid('/estimate/feeCosts', 'fee', 'body field /estimate/feeCosts: the integrator fee\'s percentage must be a fraction in [0, 1)');
  const tool = step.tool;
  return {
    parameters: {
      fromChain: action.fromChainId,
      toChain: action.toChainId,
      fromToken: action.fromToken.address,
      toToken: action.toToken.address,
      amount: action.fromAmount,
      mode: 'exactIn',
      names: { amount: '/action/fromAmount', fromChain: '/action/fromChainId', toChain: '/action/toChainId', fromToken: '/action/fromToken/address', toToken: '/action/toToken/address' },
      fromAddress: action.fromAddress,
      toAddress: action.toAddress,
      slippage: action.slippage,
      fee,
      integrator: step.integrator,
      referrer: step.referrer,
      bridges: { allow: [tool] },
    },
    relayFee: BigInt(costs[relayAt].amount),
    typedData: step.typedData,
    step,
  };
}
