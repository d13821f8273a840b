import type { components } from '../src/generated/openapi';
import { InvalidRequestError, NoRouteError } from '../src/core/errors';
import { repriceStep, type StepDescription, type StepHop } from '../src/core/transactions/reprice';
import { stepWithTransaction } from './getQuote';
import { unavailableToWire } from './routeWire';
import { operation } from './types';

type WireStep = components['schemas']['Step'];

const BODY_NAMES = { in: 'body', fromAddress: '/action/fromAddress', toAddress: '/action/toAddress' } as const;

/**
 * Re-prices a route step (from POST /v1/advanced/routes) on the current data along the same plan and
 * returns it with a fresh estimate and its transactionRequest; 409 code 1007 when the new output fell
 * below the step's estimate.toAmountMin, 404 code 1002 when it can no longer be priced.
 */
export const postStepTransaction = operation('postStepTransaction', (request, dependencies) => {
  const step = request.body;
  const result = repriceStep(dependencies.graph, describeStep(step));
  if (!result.ok) throw new NoRouteError(result.message, unavailableToWire(result.unavailable));
  const body = stepWithTransaction(dependencies, result.route, 0, BODY_NAMES);
  return { status: 200, body };
});

/** The wire Step in domain form: what identifies its plan (the contract already checked the field types). */
function describeStep(step: WireStep): StepDescription {
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
