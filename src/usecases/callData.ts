/**
 * Call data decoded (GET /v1/calldata/parse) with the known ABIs: the router and its facets, the fee collector,
 * ERC-20, wrapped native, the exchange routers, Curve pools, common functions; nested swap calls recursively.
 * chainId, when given, must name a supported chain (the ABIs are the same on every chain).
 */
import type { Catalog } from '../core/catalog/catalog';
import { requireChain } from '../core/catalog/resolve';
import { ObjectMemo } from '../core/memo';
import { CallDataParser, type ParsedCall } from '../core/transactions/parse';

/** One parser per catalog: its bridges give the router's facet functions. */
const parsers = new ObjectMemo<Catalog, CallDataParser>();
const parserOf = (catalog: Catalog) => new CallDataParser(catalog.bridges.map((b) => b.key));

export function parseCallData(catalog: Catalog, callData: string, chainId?: string | number): ParsedCall[] {
  if (chainId !== undefined) requireChain(catalog, chainId, 'chainId');
  return parsers.get(catalog, parserOf).parse(callData, 'callData');
}
