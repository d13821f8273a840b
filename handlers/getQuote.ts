import { quote } from '../src/usecases/quote';
import { operation } from './typedOperation';
import { quoteParameters } from './wire/requests';
import { noRouteError, quotedStepToWire } from './wire/routes';

/** The best single-transaction route for an exact input, as a Step with its transactionRequest (404 code 1002 saying why there is none). */
export const getQuote = operation('getQuote', async (request, dependencies) => {
  const result = await quote(dependencies, quoteParameters(request.query, { value: request.query.fromAmount, mode: 'exactIn', name: 'fromAmount' }));
  if (!result.ok) throw noRouteError(result);
  return { status: 200, body: quotedStepToWire(dependencies.catalog, result), uncacheable: result.uncacheable };
}, { cache: 'liquidity', limit: 'quote' });
