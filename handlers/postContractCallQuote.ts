import { contractCallsStep } from '../src/usecases/contractCalls';
import { operation } from './typedOperation';
import { contractCallInput } from './wire/requests';
import { contractCallsStepToWire, noRouteError } from './wire/routes';

/**
 * POST /v1/quote/contractCall (deprecated): the same use case as /v1/quote/contractCalls with one call that takes
 * the whole toAmount of the delivered toToken; problems are named by this body's fields.
 */
export const postContractCallQuote = operation('postContractCallQuote', async (request, dependencies) => {
  const result = await contractCallsStep(dependencies, contractCallInput(request.body));
  if (!result.ok) throw noRouteError(result);
  return { status: 200, body: contractCallsStepToWire(dependencies.catalog, result) };
}, { limit: 'quote' });
