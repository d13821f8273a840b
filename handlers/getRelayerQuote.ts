import { relayerQuote } from '../src/usecases/relayQuote';
import { operation } from './typedOperation';
import { quoteParameters } from './wire/requests';
import { gaslessStepToWire, noRouteError } from './wire/routes';

/** A gasless step (typedData to sign, no transactionRequest), wrapped as the ecosystem's relayer answers are. */
export const getRelayerQuote = operation('getRelayerQuote', async (request, dependencies) => {
  const result = await relayerQuote(dependencies, quoteParameters(request.query, { value: request.query.fromAmount, mode: 'exactIn', name: 'fromAmount' }));
  if (!result.ok) throw noRouteError(result);
  return { status: 200, body: { status: 'ok' as const, data: gaslessStepToWire(dependencies.catalog, result) } };
}, { limit: 'quote' });
