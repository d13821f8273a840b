/**
 * Builds a RouteRequest from the parameters of the quote and route operations (already checked against
 * the contract's types and bounds): resolves chains and tokens, applies the preset and the defaults,
 * parses the timing strategies. Fails with errors naming the parameter.
 */
import type { Catalog } from '../catalog/catalog';
import { requireChain } from '../catalog/resolve';
import type { Chain, Token } from '../entities';
import { familyOf } from '../chains/families';
import type { SvmPriorityFeeLevel } from '../chains/solana/fees';
import { DEFAULT_PRIORITY_FEE_LEVEL } from './solanaDeposit';
import { InvalidRequestError, NoRouteError } from '../errors';
import type { Order, RouteRequest, TimingStrategy } from './route';
import type { ToolSelection } from './tools';

/**
 * The orders a request may name: the two rankings, and the ecosystem's RECOMMENDED (the default ranking, CHEAPEST)
 * and SAFEST (ranked as RECOMMENDED: the service keeps no safety score of its tools).
 */
export type RequestedOrder = Order | 'RECOMMENDED' | 'SAFEST';

export interface RouteParameters {
  readonly fromChain: string | number;
  readonly toChain: string | number;
  readonly fromToken: string;
  readonly toToken: string;
  readonly amount: string;
  readonly mode: 'exactIn' | 'exactOut';
  readonly fromAddress?: string;
  readonly toAddress?: string;
  readonly order?: RequestedOrder;
  readonly slippage?: number;
  readonly fee?: number;
  readonly integrator?: string;
  readonly referrer?: string;
  readonly bridges?: ToolSelection;
  readonly exchanges?: ToolSelection;
  readonly allowDestinationCall?: boolean;
  readonly allowSwitchChain?: boolean;
  readonly maxPriceImpact?: number;
  readonly fromAmountForGas?: string;
  readonly preset?: string;
  readonly timingStrategies?: readonly (string | TimingStrategy)[];
  readonly maxRoutes?: number;
  /** Pools that must not be used: addresses, or Uniswap V4 ids `<poolManager>-<poolId>` (none here, so they deny nothing). */
  readonly denyPools?: readonly string[];
  /** How the route is executed: every route here is a transaction, so `message` finds none. */
  readonly executionType?: 'transaction' | 'message' | 'all';
  /** Gasless execution asked for: no route here is gasless. */
  readonly gasless?: boolean;
  /** The parameter that asked for a destination action (Smart Deposits), which no tool here executes. */
  readonly destinationActionParameter?: string;
  /** The priority fee level of a transaction sent from Solana (ignored from other chains). */
  readonly svmPriorityFeeLevel?: SvmPriorityFeeLevel;
  /** Names of the parameters as the operation calls them, for error messages. */
  readonly names?: Partial<Record<'fromChain' | 'toChain' | 'fromToken' | 'toToken' | 'amount', string>>;
}

/** What the stablecoin preset supplies; explicit parameters override each value. */
export const STABLECOIN_PRESET = { slippage: 0.0005, maxPriceImpact: 0.005, preferExchanges: ['curve'] } as const;
export const DEFAULT_MAX_PRICE_IMPACT = 0.1;
const PRESETS = new Set(['stablecoin']);

export function buildRouteRequest(catalog: Catalog, p: RouteParameters): RouteRequest {
  const names = { fromChain: 'fromChain', toChain: 'toChain', fromToken: 'fromToken', toToken: 'toToken', amount: 'fromAmount', ...p.names };
  const fromChain = requireChain(catalog, p.fromChain, names.fromChain);
  // a route is served only where its transaction can be built: never a step with nothing to sign
  const sending = familyOf(fromChain).sending;
  if (!sending.supported) {
    invalid(names.fromChain, 'sendingSupported', `${names.fromChain}: sending from ${fromChain.name} (${fromChain.id}) is not supported yet: ${sending.reason}`);
  }
  // a Solana deposit carries the bridge and its destination swaps only (src/core/routing/solanaDeposit.ts)
  const deposit = sending.supported && sending.transaction === 'svmBridgeDeposit';
  if (deposit && p.fee !== undefined && p.fee > 0) {
    invalid('fee', 'sendingChainCollectsFees', `fee: integrator fees are collected by the service's fee collector, which runs on EVM chains only; sending from ${fromChain.name} (${fromChain.id}) takes no fee yet`);
  }
  if (deposit && p.fromAmountForGas !== undefined) {
    invalid('fromAmountForGas', 'sendingChainRefuels', `fromAmountForGas: a refuel is a second leg of the router's transaction, which runs on EVM chains only; sending from ${fromChain.name} (${fromChain.id}) cannot refuel yet`);
  }
  const toChain = requireChain(catalog, p.toChain, names.toChain);
  const fromToken = requireRouteToken(catalog, fromChain, p.fromToken, names.fromToken);
  const toToken = requireRouteToken(catalog, toChain, p.toToken, names.toToken);
  const amount = BigInt(p.amount);
  if (amount <= 0n) invalid(names.amount, 'positive', `${names.amount} must be greater than 0`);
  if (p.fee !== undefined && p.fee > 0 && !p.integrator) invalid('fee', 'requiresIntegrator', 'fee needs an integrator: say whose fee it is with the integrator parameter');
  const fromAmountForGas = p.fromAmountForGas !== undefined ? BigInt(p.fromAmountForGas) : undefined;
  if (fromAmountForGas !== undefined) {
    if (p.mode !== 'exactIn') invalid('fromAmountForGas', 'exactInputOnly', 'fromAmountForGas works with an exact fromAmount only');
    if (fromChain.id === toChain.id) invalid('fromAmountForGas', 'crossChainOnly', 'fromAmountForGas refuels the destination chain: it needs a cross-chain transfer');
    if (!familyOf(toChain).evmContracts) invalid('fromAmountForGas', 'evmDestination', `fromAmountForGas: refuelling is supported to EVM chains only, not ${toChain.name}`);
    if (fromAmountForGas <= 0n || fromAmountForGas >= amount) {
      invalid('fromAmountForGas', 'lessThanFromAmount', `fromAmountForGas must be greater than 0 and less than ${names.amount} (${amount})`);
    }
  }
  if (p.preset !== undefined && !PRESETS.has(p.preset)) {
    invalid('preset', 'knownPreset', `preset "${p.preset}" is unknown; supported presets: ${[...PRESETS].join(', ')}`);
  }
  if (p.destinationActionParameter !== undefined) {
    invalid(p.destinationActionParameter, 'unsupported', `${p.destinationActionParameter}: destination actions (Smart Deposits) are not executed by any tool of this service, and a route is never served without the action it was asked for`);
  }
  if (p.executionType === 'message' || p.gasless === true) {
    const asked = p.gasless === true ? 'gasless=true' : 'executionType=message';
    throw new NoRouteError(`No available quotes for the requested transfer: ${asked} asks for routes executed by signing a message (gasless), and every route of this service is executed by a transaction; ask for executionType=transaction or all`, { filteredOut: [], failed: [] });
  }
  const deniedPools = [...new Set((p.denyPools ?? []).map((pool) => pool.toLowerCase()))].sort();
  const stable = p.preset === 'stablecoin';
  const exchanges: ToolSelection = {
    ...p.exchanges,
    prefer: p.exchanges?.prefer ?? (stable ? [...STABLECOIN_PRESET.preferExchanges] : undefined),
  };
  return {
    fromChain, toChain, fromToken, toToken, amount, mode: p.mode,
    fromAddress: p.fromAddress,
    toAddress: p.toAddress ?? p.fromAddress,
    order: p.order === 'FASTEST' ? 'FASTEST' : 'CHEAPEST',
    slippage: p.slippage ?? (stable ? STABLECOIN_PRESET.slippage : undefined),
    fee: p.fee,
    integrator: p.integrator,
    referrer: p.referrer,
    bridges: p.bridges ?? {},
    exchanges,
    allowDestinationCall: p.allowDestinationCall ?? true,
    allowSwitchChain: p.allowSwitchChain ?? false,
    maxPriceImpact: p.maxPriceImpact ?? (stable ? STABLECOIN_PRESET.maxPriceImpact : DEFAULT_MAX_PRICE_IMPACT),
    fromAmountForGas,
    timing: p.timingStrategies?.length ? parseTiming(p.timingStrategies) : undefined,
    maxRoutes: p.maxRoutes ?? 1,
    ...(deniedPools.length > 0 ? { deniedPools } : {}),
    ...(deposit ? { svmPriorityFeeLevel: p.svmPriorityFeeLevel ?? DEFAULT_PRIORITY_FEE_LEVEL } : {}),
  };
}

/** "minWaitTime-<ms>-<startingExpectedResults>-<reduceEveryMs>"; several strategies: the tightest budget wins. */
export function parseTiming(strategies: readonly (string | TimingStrategy)[]): TimingStrategy {
  const parsed = strategies.map((s) => {
    if (typeof s !== 'string') return s;
    const match = /^minWaitTime-([0-9]+)-([0-9]+)-([0-9]+)$/.exec(s);
    if (!match) invalid('timingStrategies', 'pattern', `timing strategy "${s}" must look like minWaitTime-<minWaitTimeMs>-<startingExpectedResults>-<reduceEveryMs>`);
    return { minWaitTimeMs: Number(match[1]), startingExpectedResults: Number(match[2]), reduceEveryMs: Number(match[3]) };
  });
  return parsed.reduce((a, b) => (b.minWaitTimeMs < a.minWaitTimeMs ? b : a));
}

function requireRouteToken(catalog: Catalog, chain: Chain, ref: string, parameter: string): Token {
  const token = catalog.findToken(chain.id, ref);
  if (!token) {
    invalid(parameter, 'knownToken', `${parameter} "${ref}" is not a known token on ${chain.name} (${chain.id}); GET /v1/tokens?chains=${chain.key} lists them`);
  }
  return token;
}

function invalid(name: string, rule: string, message: string): never {
  throw new InvalidRequestError(message, { issues: [{ name, rule, message }] });
}
