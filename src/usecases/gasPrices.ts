/** GET /v1/gas/prices and /v1/gas/prices/{chainId}: the gas prices of the liquidity graph in use, EVM chains only. */
import { requireChain } from '../core/catalog/resolve';
import { familyOf } from '../core/chains/families';
import { InvalidRequestError } from '../core/errors';
import { allGasPrices, gasPricesOf, type GasPrices } from '../core/gas/prices';
import type { Ports } from './ports';

export function gasPricesOfAllChains({ catalog, graph }: Ports): GasPrices[] {
  return allGasPrices(catalog, graph.snapshot.gas, graph.snapshot.asOf);
}

export function gasPricesOfChain({ catalog, graph }: Ports, chainRef: string | number): GasPrices {
  const chain = requireChain(catalog, chainRef, 'chainId');
  const gas = familyOf(chain).evmContracts ? graph.snapshot.gas.get(chain.id) : undefined;
  if (!gas) {
    const message = `chainId: gas prices are given for EVM chains with a known gas price, not for ${chain.name} (${chain.id})`;
    throw new InvalidRequestError(message, { issues: [{ in: 'path', name: 'chainId', rule: 'evmChain', message }] });
  }
  return gasPricesOf(gas, graph.snapshot.asOf);
}
