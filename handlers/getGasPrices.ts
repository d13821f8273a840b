import { gasPricesOfAllChains } from '../src/usecases/gasPrices';
import { operation } from './typedOperation';
import { gasPricesToWire } from './wire/catalog';

/** Gas prices of every EVM chain, keyed by chain id. */
export const getGasPrices = operation('getGasPrices', (_request, dependencies) => {
  const body: Record<string, ReturnType<typeof gasPricesToWire>> = {};
  for (const prices of gasPricesOfAllChains(dependencies)) body[String(prices.chainId)] = gasPricesToWire(prices);
  return { status: 200, body };
}, { cache: 'liquidity' });
