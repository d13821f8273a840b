import { requireChain } from '../src/core/catalog/resolve';
import { operation } from './types';
import { statusToWire } from './statusWire';

/** The status of a transfer from the connected chains (200 also for NOT_FOUND; chain mode: README "Chain mode"). */
export const getStatus = operation('getStatus', async (request, { catalog, transfers }) => {
  const q = request.query;
  const fromChainId = q.fromChain !== undefined ? requireChain(catalog, q.fromChain, 'fromChain').id : undefined;
  const toChainId = q.toChain !== undefined ? requireChain(catalog, q.toChain, 'toChain').id : undefined;
  const status = await transfers.status({
    ref: q.txHash,
    ...(q.bridge !== undefined ? { bridge: q.bridge } : {}),
    ...(fromChainId !== undefined ? { fromChainId } : {}),
    ...(toChainId !== undefined ? { toChainId } : {}),
  });
  return { status: 200, body: statusToWire(catalog, status) };
});
