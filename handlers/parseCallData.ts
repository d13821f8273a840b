import type { Catalog } from '../src/core/catalog/catalog';
import { requireChain } from '../src/core/catalog/resolve';
import { CallDataParser } from '../src/core/transactions/parse';
import { operation } from './typedOperation';

/** One parser per catalog (its bridges give the router's facet functions). */
const parsers = new WeakMap<Catalog, CallDataParser>();
function parserFor(catalog: Catalog): CallDataParser {
  let parser = parsers.get(catalog);
  if (!parser) {
    parser = new CallDataParser(catalog.bridges.map((b) => b.key));
    parsers.set(catalog, parser);
  }
  return parser;
}

/**
 * Decodes call data with the known ABIs (the router and its facets, the fee collector, ERC-20, wrapped
 * native, the exchange routers, Curve pools, common functions), nested swap calls recursively.
 * chainId, when given, must name a supported chain (the ABIs are the same on every chain).
 */
export const parseCallData = operation('parseCallData', (request, { catalog }) => {
  if (request.query.chainId !== undefined) requireChain(catalog, request.query.chainId, 'chainId');
  return { status: 200, body: parserFor(catalog).parse(request.query.callData, 'callData') };
});
