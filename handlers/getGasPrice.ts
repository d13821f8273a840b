import { requireChain } from '../src/core/catalog/resolve';
import { InvalidRequestError } from '../src/core/errors';
import { gasPricesOf } from '../src/core/gas/prices';
import { operation } from './types';
import { gasPricesToWire } from './wire';

/** Gas prices of one EVM chain (by id or key). */
export const getGasPrice = operation('getGasPrice', (request, { catalog, graph }) => {
  const chain = requireChain(catalog, request.path.chainId, 'chainId');
  const gas = chain.chainType === 'EVM' ? graph.snapshot.gas.get(chain.id) : undefined;
  if (!gas) {
    const message = `chainId: gas prices are given for EVM chains with a known gas price, not for ${chain.name} (${chain.id})`;
    throw new InvalidRequestError(message, { issues: [{ in: 'path', name: 'chainId', rule: 'evmChain', message }] });
  }
  return { status: 200, body: gasPricesToWire(gasPricesOf(gas, graph.snapshot.asOf)) };
}, { cache: 'liquidity' });
