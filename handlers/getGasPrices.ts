import { allGasPrices } from '../src/core/gas/prices';
import { operation } from './types';
import { gasPricesToWire } from './wire';

/** Gas prices of every EVM chain, keyed by chain id. */
export const getGasPrices = operation('getGasPrices', (_request, { catalog, graph }) => {
  const body: Record<string, ReturnType<typeof gasPricesToWire>> = {};
  for (const prices of allGasPrices(catalog, graph.snapshot.gas, graph.snapshot.asOf)) body[String(prices.chainId)] = gasPricesToWire(prices);
  return { status: 200, body };
}, { cache: 'liquidity' });
