/**
 * A transfer followed by contract calls (POST /v1/quote/contractCalls, and the deprecated single-call
 * POST /v1/quote/contractCall mapped onto it): the routing core's quote, each call as a `custom` step after the
 * route's own steps, and the router transaction that runs the calls after the swaps.
 */
import type { Token } from '../core/catalog/types';
import { estimateCallOutput, quoteContractCalls, type ContractCall, type ContractCallsInput, type ContractCallsQuote } from '../core/routing/contractCalls';
import { buildContractCallsTransaction } from '../core/transactions/contractCalls';
import type { EvmTransactionRequest } from '../core/transactions/build';
import { ZERO_ADDRESS } from '../core/transactions/ids';
import type { Dependencies } from '../server/dependencies';
import type { NoRoute } from './quote';
import { childStepId, stepView, type StepView } from './stepViews';

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
  readonly transaction?: EvmTransactionRequest;
}

export function contractCallsStep(dependencies: Dependencies, input: ContractCallsInput): ContractCallsStep | NoRoute {
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
  const names = { in: 'body', fromAddress: field('fromAddress'), toAddress: field('fromAddress') } as const;
  const transaction = buildContractCallsTransaction(dependencies, quote, view.id, names);
  return { ok: true, view, quote, calls, ...(transaction ? { transaction } : {}) };
}
