import { requireChain } from '../src/core/catalog/resolve';
import { InvalidRequestError } from '../src/core/errors';
import { operation } from './types';
import { statusToWire } from './statusWire';

/**
 * The status of a transfer from the connected chains (200 also for NOT_FOUND; chain mode: README "Chain mode").
 * Looked up by `txHash`, else by `transactionId` (the ecosystem's SDK sends both while polling); a relayer
 * `taskId` alone is NOT_FOUND, since this service runs no relayer.
 */
export const getStatus = operation('getStatus', async (request, { catalog, transfers }) => {
  const q = request.query;
  const fromChainId = q.fromChain !== undefined ? requireChain(catalog, q.fromChain, 'fromChain').id : undefined;
  const toChainId = q.toChain !== undefined ? requireChain(catalog, q.toChain, 'toChain').id : undefined;
  const ref = q.txHash ?? q.transactionId;
  if (ref === undefined) {
    if (q.taskId !== undefined) {
      return { status: 200, body: { status: 'NOT_FOUND' as const, substatusMessage: 'This service runs no relayer, so no relayer task has this id: gasless transfers are not offered here.' } };
    }
    throw new InvalidRequestError('Invalid request: query parameter txHash is required (or transactionId, or taskId)', {
      issues: [{ in: 'query', name: 'txHash', rule: 'required', message: 'query parameter txHash is required (or transactionId, or taskId)' }],
    });
  }
  const status = await transfers.status({
    ref,
    ...(q.bridge !== undefined ? { bridge: q.bridge } : {}),
    ...(fromChainId !== undefined ? { fromChainId } : {}),
    ...(toChainId !== undefined ? { toChainId } : {}),
  });
  return { status: 200, body: statusToWire(catalog, status) };
});
