import { operation } from './types';
import { chainToWire } from './wire';

export const getChains = operation('getChains', (request, { catalog }) => ({
  status: 200,
  body: { chains: catalog.listChains(request.query.chainTypes).map(chainToWire) },
}));
