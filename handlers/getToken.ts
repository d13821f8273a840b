import { requireChain, requireToken } from '../src/core/catalog/resolve';
import { operation } from './typedOperation';
import { tokenToWire } from './wire/catalog';

export const getToken = operation('getToken', (request, { catalog }) => {
  const chain = requireChain(catalog, request.query.chain, 'chain');
  return { status: 200, body: tokenToWire(requireToken(catalog, chain, request.query.token, 'token')) };
}, { cache: 'catalog' });
