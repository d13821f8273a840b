import { gasPricesOfChain } from '../src/usecases/gasPrices';
import { operation } from './typedOperation';
import { gasPricesToWire } from './wire/catalog';

/** Gas prices of one EVM chain (by id or key). */
export const getGasPrice = operation('getGasPrice', (request, dependencies) => {
  return { status: 200, body: gasPricesToWire(gasPricesOfChain(dependencies, request.path.chainId)) };
}, { cache: 'liquidity' });
