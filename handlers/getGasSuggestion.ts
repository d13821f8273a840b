import type { components } from '../src/generated/openapi';
import type { GasAmount } from '../src/core/gas/suggestion';
import { gasSuggestion } from '../src/usecases/gasSuggestion';
import { usdString } from './wire/routes';
import { operation } from './typedOperation';
import { tokenToWire } from './wire/catalog';

type Schemas = components['schemas'];

/** Recommended and limit amounts of the chain's native gas; with fromChain and fromToken, what to send for it. */
export const getGasSuggestion = operation('getGasSuggestion', (request, dependencies) => {
  const suggestion = gasSuggestion(dependencies, {
    chain: request.path.chain,
    fromChain: request.query.fromChain,
    fromToken: request.query.fromToken,
  });
  const body: Schemas['GasSuggestion'] = { available: suggestion.available };
  if (!suggestion.available) body.message = suggestion.message;
  if (suggestion.recommended) body.recommended = gasAmountToWire(suggestion.recommended);
  if (suggestion.limit) body.limit = gasAmountToWire(suggestion.limit);
  if (suggestion.available && suggestion.fromToken && suggestion.fromAmount !== undefined) {
    body.fromToken = tokenToWire(suggestion.fromToken);
    body.fromAmount = suggestion.fromAmount.toString();
  }
  return { status: 200, body };
}, { cache: 'liquidity' });

function gasAmountToWire(amount: GasAmount): Schemas['TokenAmount'] {
  return { token: tokenToWire(amount.token), amount: amount.amount.toString(), amountUsd: usdString(amount.amountUSD) };
}
