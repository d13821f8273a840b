import { bestStep, isTimed } from './getQuote';
import { quoteParameters } from './quoteParameters';
import { operation } from './types';

export const getQuoteToAmount = operation('getQuoteToAmount', (request, dependencies) => {
  const parameters = quoteParameters(request.query, { value: request.query.toAmount, mode: 'exactOut', name: 'toAmount' });
  return { status: 200, body: bestStep(dependencies, parameters), uncacheable: isTimed(parameters) };
}, { cache: 'liquidity' });
