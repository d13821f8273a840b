import { bestStep } from './getQuote';
import { quoteParameters } from './quoteParameters';
import { operation } from './types';

export const getQuoteToAmount = operation('getQuoteToAmount', (request, dependencies) => ({
  status: 200,
  body: bestStep(dependencies, quoteParameters(request.query, { value: request.query.toAmount, mode: 'exactOut', name: 'toAmount' })),
}));
