/**
 * GET /v1/status: which reference a request looks a transfer up by, and the answer to a request the tracker cannot
 * look up. The ecosystem's SDK polls with `txHash` and, when its step has one, `transactionId`; a relayer `taskId`
 * (gasless transfers) has no transfer here, since this service runs no relayer.
 */
import { requireChain } from '../core/catalog/resolve';
import { InvalidRequestError } from '../core/errors';
import type { TransferStatus } from '../core/status/transferStatus';
import type { Dependencies } from '../server/dependencies';

export interface StatusQuery {
  readonly txHash?: string;
  readonly transactionId?: string;
  readonly taskId?: string;
  readonly bridge?: string;
  readonly fromChain?: string | number;
  readonly toChain?: string | number;
}

export async function transferStatus({ catalog, transfers }: Dependencies, query: StatusQuery): Promise<TransferStatus> {
  const fromChainId = query.fromChain !== undefined ? requireChain(catalog, query.fromChain, 'fromChain').id : undefined;
  const toChainId = query.toChain !== undefined ? requireChain(catalog, query.toChain, 'toChain').id : undefined;
  const ref = query.txHash ?? query.transactionId;
  if (ref === undefined) {
    if (query.taskId !== undefined) {
      return { status: 'NOT_FOUND', substatusMessage: 'This service runs no relayer, so no relayer task has this id: gasless transfers are not offered here.' };
    }
    throw new InvalidRequestError('Invalid request: query parameter txHash is required (or transactionId, or taskId)', {
      issues: [{ in: 'query', name: 'txHash', rule: 'required', message: 'query parameter txHash is required (or transactionId, or taskId)' }],
    });
  }
  return transfers.status({
    ref,
    ...(query.bridge !== undefined ? { bridge: query.bridge } : {}),
    ...(fromChainId !== undefined ? { fromChainId } : {}),
    ...(toChainId !== undefined ? { toChainId } : {}),
  });
}
