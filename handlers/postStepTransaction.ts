import { stepTransaction } from '../src/usecases/stepTransaction';
import { operation } from './typedOperation';
import { stepDescription } from './wire/requests';
import { noRouteError, quotedStepToWire } from './wire/routes';

/**
 * Re-prices a route step (from POST /v1/advanced/routes) on the current data along the same plan and returns it
 * with a fresh estimate and its transactionRequest; 409 code 1007 when the new output fell below the step's
 * estimate.toAmountMin, 404 code 1002 when it can no longer be priced.
 */
export const postStepTransaction = operation('postStepTransaction', async (request, dependencies) => {
  const result = await stepTransaction(dependencies, { ...stepDescription(request.body), svmPriorityFeeLevel: request.query.svmPriorityFeeLevel });
  if (!result.ok) throw noRouteError(result);
  return { status: 200, body: quotedStepToWire(dependencies.catalog, result) };
}, { limit: 'stepTransaction' });
