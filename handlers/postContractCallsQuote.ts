import { contractCallsStep } from '../src/usecases/contractCalls';
import { operation } from './typedOperation';
import { contractCallsInput } from './wire/requests';
import { contractCallsStepToWire, noRouteError } from './wire/routes';

/**
 * POST /v1/quote/contractCalls (beta): a transfer followed by contract calls as a Step of type lifi whose included
 * steps end in one `custom` step per call (an empty list: the plain transfer's step, as GET /v1/quote or
 * /v1/quote/toAmount); 404 code 1002 when no route, 400 naming the body field otherwise.
 */
export const postContractCallsQuote = operation('postContractCallsQuote', async (request, dependencies) => {
  const result = await contractCallsStep(dependencies, contractCallsInput(request.body));
  if (!result.ok) throw noRouteError(result);
  return { status: 200, body: contractCallsStepToWire(dependencies.catalog, result) };
}, { limit: 'quote' });
