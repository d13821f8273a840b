import type { RelayedQuote } from '../../src/usecases/relayQuote';
import type { components } from '../../src/generated/openapi';
import type { Catalog } from '../../src/core/catalog/catalog';
import { NoRouteError } from '../../src/core/errors';
import { hasPrice, type Token } from '../../src/core/entities';
import type { FeeCost, GasCost, Route, UnavailableRoutes } from '../../src/core/routing/route';
import type { EvmTransactionRequest } from '../../src/core/transactions/context';
import type { StepTransactionRequest } from '../../src/core/transactions/step';
import type { ContractCallsStep, ContractCallView } from '../../src/usecases/contractCalls';
import type { NoRoute, QuotedStep, RouteView } from '../../src/usecases/quote';
import type { IncludedStepView, StepView } from '../../src/usecases/stepViews';
import { tokenToWire } from './catalog';

/** Explicit converters from routes (domain, as src/usecases presents them) to Steps and Routes (wire): format only. */
type Schemas = components['schemas'];

const hex = (value: bigint) => `0x${value.toString(16)}`;

/**
 * A step's transaction as the contract shows it: an EVM transaction with numbers as 0x hex quantities, or a Solana
 * transaction as its base64 bytes (SvmTransactionRequest).
 */
export function stepTransactionToWire(request: StepTransactionRequest): NonNullable<Schemas['Step']['transactionRequest']> {
  if (request.kind === 'svm') return { data: request.data, chainId: request.chainId };
  return transactionRequestToWire(request);
}

/** An EVM transaction request as the contract shows it: numbers as 0x hex quantities. */
export function transactionRequestToWire(request: EvmTransactionRequest): Schemas['TransactionRequest'] {
  return {
    to: request.to,
    ...(request.from !== undefined ? { from: request.from } : {}),
    data: request.data,
    value: hex(request.value),
    chainId: request.chainId,
    gasPrice: hex(request.gasPrice),
    gasLimit: hex(request.gasLimit),
  };
}

export function usdString(value: number): string {
  return (Math.max(0, value) || 0).toFixed(6).replace(/\.?0+$/, '') || '0';
}

function feeCostToWire(cost: FeeCost): Schemas['FeeCost'] {
  return {
    name: cost.name,
    description: cost.description,
    percentage: cost.percentage,
    token: tokenToWire(cost.token),
    amount: cost.amount.toString(),
    amountUSD: usdString(cost.amountUSD),
    included: cost.included,
  };
}

function gasCostToWire(cost: GasCost): Schemas['GasCost'] {
  return {
    type: cost.type,
    price: cost.price.toString(),
    estimate: cost.estimate.toString(),
    limit: cost.limit.toString(),
    amount: cost.amount.toString(),
    amountUSD: usdString(cost.amountUSD),
    token: tokenToWire(cost.token),
  };
}

/** The service's own steps, which are not tools of the catalog. */
const OWN_TOOLS: Record<string, string> = {
  feeCollection: 'Integrator fee collection',
  wrapper: 'Native coin wrapper',
  custom: 'Contract call',
};

function toolDetails(catalog: Catalog, key: string): Schemas['ToolDetails'] {
  const tool = catalog.bridges.find((b) => b.key === key) ?? catalog.exchanges.find((e) => e.key === key);
  if (!tool) return { key, name: OWN_TOOLS[key] ?? key };
  return tool.logoURI ? { key, name: tool.name, logoURI: tool.logoURI } : { key, name: tool.name };
}

function includedStepToWire(catalog: Catalog, view: StepView, included: IncludedStepView): Schemas['Step'] {
  const { route } = view;
  const { step } = included;
  return {
    id: included.id,
    type: step.type,
    tool: step.tool,
    toolDetails: toolDetails(catalog, step.tool),
    action: actionToWire(route, step.fromChainId, step.toChainId, step.fromToken, step.toToken, step.fromAmount),
    estimate: {
      tool: step.tool,
      fromAmount: step.fromAmount.toString(),
      toAmount: step.toAmount.toString(),
      toAmountMin: step.toAmount.toString(),
      approvalAddress: included.approvalAddress,
      executionDuration: step.durationSeconds,
      feeCosts: step.feeCosts.map(feeCostToWire),
      gasCosts: [],
      ...(step.poolAddress ? { data: { pool: step.poolAddress, poolId: step.poolId, poolKind: step.poolKind } } : {}),
    },
  };
}

/** `unpricedTokens` of a step's estimate data: its tokens without a USD price (none: no field). */
function unpricedTokens(...tokens: Token[]): { unpricedTokens?: { chainId: number; address: string; symbol: string }[] } {
  const unpriced = tokens.filter((t, k) => !hasPrice(t) && tokens.indexOf(t) === k);
  return unpriced.length > 0 ? { unpricedTokens: unpriced.map((t) => ({ chainId: t.chainId, address: t.address, symbol: t.symbol })) } : {};
}

/** What a step does: from which chain and token to which, how much, for whom. */
function actionToWire(route: Route, fromChainId: number, toChainId: number, fromToken: Token, toToken: Token, fromAmount: bigint): Schemas['Action'] {
  return {
    fromChainId,
    toChainId,
    fromToken: tokenToWire(fromToken),
    toToken: tokenToWire(toToken),
    fromAmount: fromAmount.toString(),
    slippage: route.slippage,
    ...(route.request.fromAddress ? { fromAddress: route.request.fromAddress } : {}),
    ...(route.request.toAddress ? { toAddress: route.request.toAddress } : {}),
  };
}

/** One transaction of a route as a Step of type lifi, with its included steps. */
export function stepToWire(catalog: Catalog, view: StepView): Schemas['Step'] {
  const { route, transaction: tx } = view;
  const step: Schemas['Step'] = {
    id: view.id,
    type: 'lifi',
    tool: tx.tool,
    toolDetails: toolDetails(catalog, tx.tool),
    action: actionToWire(route, tx.chainId, tx.toChainId, tx.fromToken, tx.toToken, tx.fromAmount),
    estimate: {
      tool: tx.tool,
      fromAmount: tx.fromAmount.toString(),
      fromAmountUSD: usdString(tx.fromAmountUSD),
      toAmount: tx.toAmount.toString(),
      toAmountMin: tx.toAmountMin.toString(),
      toAmountUSD: usdString(tx.toAmountUSD),
      approvalAddress: view.approvalAddress,
      executionDuration: tx.durationSeconds,
      feeCosts: tx.feeCosts.map(feeCostToWire),
      gasCosts: [gasCostToWire(tx.gasCost)],
      data: {
        ...(route.priceImpact !== undefined ? { priceImpact: route.priceImpact.toFixed(6) } : {}),
        overallPath: route.overallPath,
        ...unpricedTokens(tx.fromToken, tx.toToken),
        // fromAmountForGas: the part routed to the destination's native coin in this transaction
        ...(view.refuel
          ? {
              gasRefuel: {
                fromAmount: view.refuel.fromAmount.toString(),
                toAmount: view.refuel.toAmount.toString(),
                toAmountMin: view.refuel.toAmountMin.toString(),
                token: tokenToWire(view.refuel.token),
              },
            }
          : {}),
      },
    },
    includedSteps: view.included.map((included) => includedStepToWire(catalog, view, included)),
  };
  if (route.request.integrator) step.integrator = route.request.integrator;
  if (route.request.referrer) step.referrer = route.request.referrer;
  return step;
}

/** A quoted step with its transaction request. */
export function quotedStepToWire(catalog: Catalog, quoted: QuotedStep): Schemas['Step'] {
  return withTransaction(stepToWire(catalog, quoted.view), quoted.transaction);
}

/** The step with its transaction; a Solana deposit's gas cost is the built transaction's (its fee at the cluster's prices). */
function withTransaction(step: Schemas['Step'], transaction: StepTransactionRequest): Schemas['Step'] {
  step.transactionRequest = stepTransactionToWire(transaction);
  if (transaction.kind === 'svm') step.estimate.gasCosts = [gasCostToWire(transaction.gasCost)];
  return step;
}

/**
 * A contract call as a `custom` included step: the router (`executor`, on the call's chain) spends the call's
 * amount of the delivered token by calling the contract. toAmountMin is 0: the router guarantees what a call
 * receives, not what it returns.
 */
function contractCallToWire(view: StepView, callView: ContractCallView): Schemas['Step'] {
  const { call } = callView;
  return {
    id: callView.id,
    type: 'custom',
    tool: 'custom',
    toolDetails: { key: 'custom', name: OWN_TOOLS.custom },
    action: {
      fromChainId: call.token.chainId,
      toChainId: callView.outputToken.chainId,
      fromToken: tokenToWire(call.token),
      toToken: tokenToWire(callView.outputToken),
      fromAmount: call.amount.toString(),
      fromAddress: callView.executor,
      ...(view.route.request.toAddress ? { toAddress: view.route.request.toAddress } : {}),
      toContractAddress: call.target,
      toContractCallData: call.callData,
      toFallbackAddress: call.fallbackReceiver,
      callDataGasLimit: call.gasLimit.toString(),
    },
    estimate: {
      tool: 'custom',
      fromAmount: call.amount.toString(),
      toAmount: callView.estimatedOutput.toString(),
      toAmountMin: '0',
      approvalAddress: callView.approvalAddress,
      executionDuration: 0,
      feeCosts: [],
      gasCosts: [],
      data: { contractCallIndex: call.index },
    },
  };
}

/** A transfer followed by contract calls: the route's step, its included steps followed by the calls. */
export function contractCallsStepToWire(catalog: Catalog, result: ContractCallsStep | QuotedStep): Schemas['Step'] {
  if (!('calls' in result)) return quotedStepToWire(catalog, result); // no calls: the plain transfer's step
  const { view, quote } = result;
  const step = stepToWire(catalog, view);
  step.includedSteps = [...(step.includedSteps ?? []), ...result.calls.map((call) => contractCallToWire(view, call))];
  step.estimate.data = {
    ...step.estimate.data,
    contractCalls: {
      count: quote.calls.length,
      // what the calls take in all, and who gets what arrives above it
      fromAmount: quote.callsAmount.toString(),
      remainderReceiver: quote.receiver,
      gasLimit: quote.calls.reduce((sum, c) => sum + c.gasLimit, 0n).toString(),
    },
  };
  return withTransaction(step, result.transaction);
}

export function routeToWire(catalog: Catalog, { route, steps }: RouteView): Schemas['Route'] {
  const { request } = route;
  return {
    id: route.id,
    fromChainId: request.fromChain.id,
    fromAmountUSD: usdString(route.fromAmountUSD),
    fromAmount: route.fromAmount.toString(),
    fromToken: tokenToWire(request.fromToken),
    ...(request.fromAddress ? { fromAddress: request.fromAddress } : {}),
    toChainId: request.toChain.id,
    toAmountUSD: usdString(route.toAmountUSD),
    toAmount: route.toAmount.toString(),
    toAmountMin: route.toAmountMin.toString(),
    toToken: tokenToWire(request.toToken),
    ...(request.toAddress ? { toAddress: request.toAddress } : {}),
    gasCostUSD: usdString(route.gasCostUSD),
    containsSwitchChain: route.containsSwitchChain,
    steps: steps.map((view) => stepToWire(catalog, view)),
    tags: [...route.tags],
  };
}

const MAX_REASONS = 20;

/** The no-route reasons, capped so the body stays small, with totals saying how many there were. */
export function unavailableToWire(unavailable: UnavailableRoutes) {
  return {
    filteredOut: unavailable.filteredOut.slice(0, MAX_REASONS),
    failed: unavailable.failed.slice(0, MAX_REASONS).map((f) => ({
      overallPath: f.overallPath,
      subpaths: Object.fromEntries(
        Object.entries(f.subpaths).map(([path, errors]) => [
          path,
          errors.map((e) => ({
            errorType: e.errorType,
            code: e.code,
            tool: e.tool,
            message: e.message,
            action: {
              fromChainId: e.action.fromChainId,
              toChainId: e.action.toChainId,
              fromToken: tokenToWire(e.action.fromToken),
              toToken: tokenToWire(e.action.toToken),
              fromAmount: e.action.fromAmount.toString(),
            },
          })),
        ]),
      ),
    })),
    filteredOutTotal: unavailable.filteredOut.length,
    failedTotal: unavailable.failed.length,
  };
}

/** The use case's "no route" as the contract's 404 (code 1002): the reasons under `errors`. */
export function noRouteError(noRoute: NoRoute): NoRouteError {
  return new NoRouteError(noRoute.message, unavailableToWire(noRoute.unavailable), { dependsOnTiming: noRoute.dependsOnTiming });
}

/** A gasless step: the quoted step without a transaction for the user, with the messages to sign instead. */
export function gaslessStepToWire(catalog: Catalog, quote: RelayedQuote): Schemas['Step'] {
  const { transactionRequest: _relayersCall, ...step } = stepToWire(catalog, quote.quoted.view);
  return { ...step, typedData: quote.typedData.map((t) => JSON.parse(JSON.stringify(t)) as Record<string, unknown>) };
}
