/**
 * POST /v1/advanced/stepTransaction: a route's step re-priced on the current data along the same plan, with its
 * transaction; refused (409) when the new output fell below the step's toAmountMin (repriceStep), no route when it
 * can no longer be priced.
 */
import { requireFeeOwner } from '../core/fees/booking';
import { repriceStep, type StepDescription } from '../core/transactions/reprice';
import type { ParameterNames } from '../core/transactions/requestAddresses';
import type { Ports } from './ports';
import { quotedStep, type NoRoute, type QuotedStep } from './quote';

/** The step's addresses are fields of its action in the body. */
const BODY_NAMES: ParameterNames = { fromAddress: '/action/fromAddress', toAddress: '/action/toAddress' };

export async function stepTransaction(dependencies: Ports, step: StepDescription): Promise<QuotedStep | NoRoute> {
  // a step names its integrator in the body (/integrator): its fee is booked only for an integrator with an owner
  const feeHop = step.hops.find((hop) => hop.kind === 'fee');
  requireFeeOwner(dependencies, { fee: feeHop?.kind === 'fee' ? feeHop.fee : undefined, integrator: step.integrator }, { name: '/integrator', label: 'body field /integrator' });
  const result = repriceStep(dependencies.graph, step);
  if (!result.ok) return { ok: false, message: result.message, unavailable: result.unavailable, dependsOnTiming: false };
  return quotedStep(dependencies, result.route, 0, BODY_NAMES);
}
