import { createHash } from 'node:crypto';
import type { components } from '../src/generated/openapi';
import type { Catalog } from '../src/core/catalog/catalog';
import type { FeeCost, GasCost, PlannedStep, Route, RouteTransaction, UnavailableRoutes } from '../src/core/routing/types';
import { tokenToWire } from './wire';

/** Explicit converters from routes (domain) to Steps and Routes (wire): big integers as decimal strings. */
type Schemas = components['schemas'];

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

function plannedStepToWire(catalog: Catalog, route: Route, step: PlannedStep, id: string): Schemas['Step'] {
  const slippage = route.slippage;
  return {
    id,
    type: step.type,
    tool: step.tool,
    toolDetails: toolDetails(catalog, step.tool),
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
      executionDuration: step.durationSeconds,
      feeCosts: step.feeCosts.map(feeCostToWire),
      gasCosts: [],
      ...(step.poolAddress ? { data: { pool: step.poolAddress, poolId: step.poolId, poolKind: step.poolKind } } : {}),
    },
  };
}

/** One transaction of a route as a Step of type lifi, with its included steps. */
export function transactionToStep(catalog: Catalog, route: Route, tx: RouteTransaction, index: number): Schemas['Step'] {
  const id = index === 0 ? route.id : childId(route.id, 1000 + index);
  const step: Schemas['Step'] = {
    id,
    type: 'lifi',
    tool: tx.tool,
    toolDetails: toolDetails(catalog, tx.tool),
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
      executionDuration: tx.durationSeconds,
      feeCosts: tx.feeCosts.map(feeCostToWire),
      gasCosts: [gasCostToWire(tx.gasCost)],
      data: { priceImpact: route.priceImpact.toFixed(6), overallPath: route.overallPath },
    },
    includedSteps: tx.steps.map((s, k) => plannedStepToWire(catalog, route, s, childId(id, k))),
  };
  if (route.request.integrator) step.integrator = route.request.integrator;
  if (route.request.referrer) step.referrer = route.request.referrer;
  return step;
}

export function routeToWire(catalog: Catalog, route: Route): Schemas['Route'] {
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
    steps: route.transactions.map((tx, k) => transactionToStep(catalog, route, tx, k)),
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
