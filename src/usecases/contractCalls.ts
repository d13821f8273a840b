/**
 * A transfer followed by contract calls (POST /v1/quote/contractCalls, and the deprecated single-call
 * POST /v1/quote/contractCall mapped onto it), step by step:
 *
 * 1. check the request (contractCallsRequest.ts): every problem is a 400 naming the body field;
 * 2. search the transfer's routes with the calls' gas priced in (core/routing/contractCallsRoute.ts: how much to
 *    search for); same chain and same token: the route without swaps;
 * 3. take the best route whose guaranteed output (toAmountMin) covers the calls: exact output guarantees it by
 *    the search; exact input is a 400 naming the first call the best route cannot fund;
 * 4. check that the route's swaps and the calls fit in one transaction;
 * 5. give the route an id that identifies the calls too, then the step: each call as a `custom` step after the
 *    route's own steps, and the router transaction that runs the calls after the swaps.
 *
 * An empty list of calls is a plain transfer: the quote GET /v1/quote (fromAmount) or GET /v1/quote/toAmount
 * (toAmount) gives for the same transfer to fromAddress, the same step (the ecosystem's SDK asks exact-output
 * quotes this way), its problems named as body fields.
 *
 * No route is `{ok: false}` with the reasons (the handler answers 404 code 1002).
 */
import { getAddress } from 'ethers';
import type { Token } from '../core/entities';
import { requireFeeOwner } from '../core/fees/booking';
import {
  callsRunnerGas,
  contractCallsRouteId,
  contractCallsSearch,
  estimateCallOutput,
  fitsInOneTransaction,
  isSameToken,
  sameTokenRoutes,
  type ContractCall,
  type ContractCallsQuote,
} from '../core/routing/contractCallsRoute';
import type { Route, UnavailableRoutes } from '../core/routing/route';
import { toCallData } from '../core/transactions/contractCallsTransaction';
import { buildStepTransaction, type StepTransactionRequest } from '../core/transactions/step';
import { ZERO_ADDRESS } from '../core/transactions/ids';
import type { Ports } from './ports';
import { BodyIssues, callsGasTooHighForRoute, callsNotFunded, checkContractCalls, inBody, inBodyAsync, plainTransferParameters, transferRequest, type ContractCallsInput } from './contractCallsRequest';
import { noRouteMessage, quote as quoteTransfer, type NoRoute, type QuotedStep } from './quote';
import { childStepId, stepView, type StepView } from './stepViews';

export type { ContractCallInput, ContractCallsInput } from './contractCallsRequest';

/** What a contract-calls quote reads. */
export type ContractCallsContext = Pick<Ports, 'catalog' | 'graph' | 'finder' | 'routers'>;

export type ContractCallsResult =
  | { readonly ok: true; readonly quote: ContractCallsQuote }
  | { readonly ok: false; readonly message: string; readonly unavailable: UnavailableRoutes };

/** A contract call as an included step: who runs it (the router on its chain), what it is estimated to return. */
export interface ContractCallView {
  readonly id: string;
  readonly call: ContractCall;
  /** The router of the call's chain, which spends the call's amount by calling the contract. */
  readonly executor: string;
  readonly outputToken: Token;
  /** The call's output at reference prices (the input itself when it names no output token). */
  readonly estimatedOutput: bigint;
  /** Nothing to approve for the native coin; the call's spender otherwise. */
  readonly approvalAddress: string;
}

export interface ContractCallsStep {
  readonly ok: true;
  readonly view: StepView;
  readonly quote: ContractCallsQuote;
  readonly calls: readonly ContractCallView[];
  readonly transaction: StepTransactionRequest;
}

/** The quote, or why there is no route; throws InvalidRequestError naming every invalid body field. */
export function quoteContractCalls(ctx: ContractCallsContext, input: ContractCallsInput): ContractCallsResult {
  const issues = BodyIssues.of(input);
  const { mode, amount, calls, callsAmount, callsGas } = checkContractCalls(ctx, input, issues);

  const transfer = transferRequest(ctx.catalog, input, mode, amount, issues);
  const request = contractCallsSearch(transfer, mode, amount, callsGas);
  const result = isSameToken(request) ? sameTokenRoutes(ctx.graph, request) : inBody(issues, () => ctx.finder.find(request));
  const candidates = result.routes.filter((r) => !r.containsSwitchChain);
  if (candidates.length === 0) {
    return { ok: false, message: noRouteMessage(result.unavailable, 'the transfer before the contract calls'), unavailable: result.unavailable };
  }
  const guaranteed = mode === 'exactOut' ? amount : callsAmount;
  const route = candidates.find((r) => r.toAmountMin >= guaranteed) ?? callsNotFunded(issues, input, candidates[0]);
  const gas = callsRunnerGas(route, callsGas);
  if (!fitsInOneTransaction(gas)) callsGasTooHighForRoute(issues, input, route, gas);

  const quoted: Route = { ...route, id: contractCallsRouteId(route.id, calls) };
  return { ok: true, quote: { route: quoted, calls, receiver: getAddress(input.fromAddress.toLowerCase()), mode, callsAmount, callsGas } };
}

/**
 * The quote as a step: the route's transaction, each call a `custom` step after it, and the transaction to send;
 * with no calls, the plain transfer's quoted step.
 */
export async function contractCallsStep(dependencies: Ports, input: ContractCallsInput): Promise<ContractCallsStep | QuotedStep | NoRoute> {
  // a fee is booked only for an integrator with an owner (src/core/fees/booking.ts), named as the body's field
  inBody(BodyIssues.of(input), () => requireFeeOwner(dependencies, input));
  if (input.contractCalls.length === 0) {
    const issues = BodyIssues.of(input);
    const parameters = plainTransferParameters(input, issues);
    // the transfer goes to fromAddress (the body has no toAddress); inBody names the fields as the body's
    return inBodyAsync(issues, () => quoteTransfer(dependencies, parameters, { fromAddress: 'fromAddress', toAddress: 'fromAddress' }));
  }
  const result = quoteContractCalls(dependencies, input);
  if (!result.ok) return { ok: false, message: result.message, unavailable: result.unavailable, dependsOnTiming: false };
  const { quote } = result;
  const view = stepView(dependencies, quote.route, 0);
  const executor = dependencies.routers.routerOf(quote.route.request.toChain.id);
  if (!executor) throw new Error(`routers.json has no router on chain ${quote.route.request.toChain.id} to run the contract calls`);
  const calls = quote.calls.map((call, k): ContractCallView => ({
    id: childStepId(view.id, view.included.length + k),
    call,
    executor,
    outputToken: call.outputToken ?? call.token,
    estimatedOutput: estimateCallOutput(call.amount, call.token, call.outputToken),
    approvalAddress: call.token.address.toLowerCase() === ZERO_ADDRESS ? ZERO_ADDRESS : call.approveTo,
  }));
  const field = input.field ?? ((path: string) => `/${path}`);
  const names = { fromAddress: field('fromAddress'), toAddress: field('fromAddress') };
  const transaction = await buildStepTransaction(dependencies, quote.route, 0, view.id, names, quote.calls.map(toCallData));
  return { ok: true, view, quote, calls, transaction };
}
