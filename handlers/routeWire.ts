import { createHash } from 'node:crypto';
import type { components } from '../src/generated/openapi';
import type { Catalog } from '../src/core/catalog/catalog';
import type { RouterDeployments } from '../src/core/catalog/routers';
import type { Chain, Token } from '../src/core/catalog/types';
import type { FeeCost, GasCost, PlannedStep, Route, RouteTransaction, UnavailableRoutes } from '../src/core/routing/types';
import { estimateCallOutput, type ContractCall } from '../src/core/routing/contractCalls';
import { approvalAddressOf, refuelToAmountMin, type EvmTransactionRequest } from '../src/core/transactions/build';
import { ZERO_ADDRESS } from '../src/core/transactions/ids';
import { tokenToWire } from './wire';

/** Explicit converters from routes (domain) to Steps and Routes (wire): big integers as decimal strings. */
type Schemas = components['schemas'];

/** What the converters read: the catalog (tool names) and the router deployments (approval addresses). */
export interface WireContext {
  readonly catalog: Catalog;
  readonly routers: RouterDeployments;
}

function approvalAddress(context: WireContext, chainId: number, token: Token): string {
  const chain: Chain | undefined = context.catalog.getChain(chainId);
  if (!chain) throw new Error(`chain ${chainId} is not in the catalog`);
  return approvalAddressOf(context.routers, chain, token);
}

const hex = (value: bigint) => `0x${value.toString(16)}`;

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

/** A deterministic UUID for a sub-step: derived from the route id and the step's position. */
function childId(parent: string, index: number): string {
  const hex = createHash('sha256').update(`${parent}/${index}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function plannedStepToWire(context: WireContext, route: Route, step: PlannedStep, id: string): Schemas['Step'] {
  const slippage = route.slippage;
  return {
    id,
    type: step.type,
    tool: step.tool,
    toolDetails: toolDetails(context.catalog, step.tool),
    action: {
      fromChainId: step.fromChainId,
      toChainId: step.toChainId,
      fromToken: tokenToWire(step.fromToken),
      toToken: tokenToWire(step.toToken),
      fromAmount: step.fromAmount.toString(),
      slippage,
      ...(route.request.fromAddress ? { fromAddress: route.request.fromAddress } : {}),
      ...(route.request.toAddress ? { toAddress: route.request.toAddress } : {}),
    },
    estimate: {
      tool: step.tool,
      fromAmount: step.fromAmount.toString(),
      toAmount: step.toAmount.toString(),
      toAmountMin: step.toAmount.toString(),
      approvalAddress: approvalAddress(context, step.fromChainId, step.fromToken),
      executionDuration: step.durationSeconds,
      feeCosts: step.feeCosts.map(feeCostToWire),
      gasCosts: [],
      ...(step.poolAddress ? { data: { pool: step.poolAddress, poolId: step.poolId, poolKind: step.poolKind } } : {}),
    },
  };
}

/** One transaction of a route as a Step of type lifi, with its included steps. */
export function transactionToStep(context: WireContext, route: Route, tx: RouteTransaction, index: number): Schemas['Step'] {
  const id = stepIdOf(route, index);
  const step: Schemas['Step'] = {
    id,
    type: 'lifi',
    tool: tx.tool,
    toolDetails: toolDetails(context.catalog, tx.tool),
    action: {
      fromChainId: tx.chainId,
      toChainId: tx.toChainId,
      fromToken: tokenToWire(tx.fromToken),
      toToken: tokenToWire(tx.toToken),
      fromAmount: tx.fromAmount.toString(),
      slippage: route.slippage,
      ...(route.request.fromAddress ? { fromAddress: route.request.fromAddress } : {}),
      ...(route.request.toAddress ? { toAddress: route.request.toAddress } : {}),
    },
    estimate: {
      tool: tx.tool,
      fromAmount: tx.fromAmount.toString(),
      fromAmountUSD: usdString(tx.fromAmountUSD),
      toAmount: tx.toAmount.toString(),
      toAmountMin: tx.toAmountMin.toString(),
      toAmountUSD: usdString(tx.toAmountUSD),
      approvalAddress: approvalAddress(context, tx.chainId, tx.fromToken),
      executionDuration: tx.durationSeconds,
      feeCosts: tx.feeCosts.map(feeCostToWire),
      gasCosts: [gasCostToWire(tx.gasCost)],
      data: {
        priceImpact: route.priceImpact.toFixed(6),
        overallPath: route.overallPath,
        // fromAmountForGas: the part routed to the destination's native coin in this transaction
        ...(index === 0 && route.gasRefuel
          ? {
              gasRefuel: {
                fromAmount: route.gasRefuel.fromAmount.toString(),
                toAmount: route.gasRefuel.toAmount.toString(),
                toAmountMin: refuelToAmountMin(route)!.toString(),
                token: tokenToWire(route.gasRefuel.token),
              },
            }
          : {}),
      },
    },
    includedSteps: tx.steps.map((s, k) => plannedStepToWire(context, route, s, childId(id, k))),
  };
  if (route.request.integrator) step.integrator = route.request.integrator;
  if (route.request.referrer) step.referrer = route.request.referrer;
  return step;
}

/**
 * A contract call as a `custom` included step of the step `parentId`, at `position` among its included steps:
 * the router `executor` (on the call's chain) spends `amount` of the delivered token by calling the contract.
 * toAmount estimates the call's output at reference prices (the input itself when it names no output token);
 * toAmountMin is 0: the router guarantees what a call receives, not what it returns.
 */
export function contractCallToWire(route: Route, call: ContractCall, parentId: string, position: number, executor: string): Schemas['Step'] {
  const output = call.outputToken ?? call.token;
  const native = call.token.address.toLowerCase() === ZERO_ADDRESS;
  return {
    id: childId(parentId, position),
    type: 'custom',
    tool: 'custom',
    toolDetails: { key: 'custom', name: OWN_TOOLS.custom },
    action: {
      fromChainId: call.token.chainId,
      toChainId: output.chainId,
      fromToken: tokenToWire(call.token),
      toToken: tokenToWire(output),
      fromAmount: call.amount.toString(),
      fromAddress: executor,
      ...(route.request.toAddress ? { toAddress: route.request.toAddress } : {}),
      toContractAddress: call.target,
      toContractCallData: call.callData,
      toFallbackAddress: call.fallbackReceiver,
      callDataGasLimit: call.gasLimit.toString(),
    },
    estimate: {
      tool: 'custom',
      fromAmount: call.amount.toString(),
      toAmount: estimateCallOutput(call.amount, call.token, call.outputToken).toString(),
      toAmountMin: '0',
      approvalAddress: native ? ZERO_ADDRESS : call.approveTo,
      executionDuration: 0,
      feeCosts: [],
      gasCosts: [],
      data: { contractCallIndex: call.index },
    },
  };
}

/** The id of the step of a route's transaction `index` (the route id for the first). */
export function stepIdOf(route: Route, index: number): string {
  return index === 0 ? route.id : childId(route.id, 1000 + index);
}

export function routeToWire(context: WireContext, route: Route): Schemas['Route'] {
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
    steps: route.transactions.map((tx, k) => transactionToStep(context, route, tx, k)),
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
