import { quote } from '../src/usecases/quote';
import { operation } from './typedOperation';
import { quoteParameters } from './wire/requests';
import { noRouteError, quotedStepToWire } from './wire/routes';

/** The best single-transaction route for an exact output, as a Step with its transactionRequest. */
export const getQuoteToAmount = operation('getQuoteToAmount', async (request, dependencies) => {
  const result = await quote(dependencies, quoteParameters(request.query, { value: request.query.toAmount, mode: 'exactOut', name: 'toAmount' }));
  if (!result.ok) throw noRouteError(result);
  return { status: 200, body: quotedStepToWire(dependencies.catalog, result), uncacheable: result.uncacheable };
}, { cache: 'liquidity', limit: 'quote' });
