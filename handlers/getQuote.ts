import { quote } from '../src/usecases/quote';
import { relayerQuote } from '../src/usecases/relayQuote';
import { operation } from './typedOperation';
import { quoteParameters } from './wire/requests';
import { gaslessStepToWire, noRouteError, quotedStepToWire } from './wire/routes';

/**
 * The best single-transaction route for an exact input, as a Step with its transactionRequest (404 code 1002 saying
 * why there is none); with gasless=true (or executionType=message) where the service runs a relayer, the gasless step
 * of GET /v1/relayer/quote.
 */
export const getQuote = operation('getQuote', async (request, dependencies) => {
  const parameters = quoteParameters(request.query, { value: request.query.fromAmount, mode: 'exactIn', name: 'fromAmount' });
  if (dependencies.relaying && (parameters.gasless === true || parameters.executionType === 'message')) {
    const result = await relayerQuote(dependencies, parameters);
    if (!result.ok) throw noRouteError(result);
    return { status: 200, body: gaslessStepToWire(dependencies.catalog, result), uncacheable: true };
  }
  const result = await quote(dependencies, parameters);
  if (!result.ok) throw noRouteError(result);
  return { status: 200, body: quotedStepToWire(dependencies.catalog, result), uncacheable: result.uncacheable };
}, { cache: 'liquidity', limit: 'quote' });
