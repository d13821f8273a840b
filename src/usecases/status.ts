/**
 * GET /v1/status: which reference a request looks a transfer up by, and the answer to a request the tracker cannot
 * look up. A transfer the index holds as final (DONE, FAILED, INVALID: they never change) is answered from it, by
 * its sending hash or transfer id, without reading the chains (so also when a chain does not answer, or its logs no
 * longer reach that far back); everything else is read from the chains. The ecosystem's SDK polls with `txHash` and, when its step has one, `transactionId`; a relayer `taskId`
 * (gasless transfers) is PENDING until the relayer's transaction is mined, then that transaction's transfer. A failed transfer read on the chains
 * is kept in the index (TransferHistory.rememberFailed): it emits no event for the indexer to find.
 */
import { requireChain } from '../core/catalog/resolve';
import { InvalidRequestError } from '../core/errors';
import { isFinal, type TransferStatus } from '../core/status/transferStatus';
import type { Ports } from './ports';

export interface StatusQuery {
  readonly txHash?: string;
  readonly transactionId?: string;
  readonly taskId?: string;
  readonly bridge?: string;
  readonly fromChain?: string | number;
  readonly toChain?: string | number;
}

export async function transferStatus({ catalog, transfers, history, relaying }: Pick<Ports, 'catalog' | 'transfers' | 'history' | 'relaying'>, query: StatusQuery): Promise<TransferStatus> {
  const fromChainId = query.fromChain !== undefined ? requireChain(catalog, query.fromChain, 'fromChain').id : undefined;
  const toChainId = query.toChain !== undefined ? requireChain(catalog, query.toChain, 'toChain').id : undefined;
  let ref = query.txHash ?? query.transactionId;
  if (ref === undefined && query.taskId !== undefined) {
    // a relayed (gasless) transfer: followed as the relayer's transaction once it is mined
    if (!relaying) return { status: 'NOT_FOUND', substatusMessage: 'This service runs no relayer, so no relayer task has this id: gasless transfers are not offered here.' };
    const task = /^0x[0-9a-fA-F]{64}$/.test(query.taskId) ? await relaying.tasks.get(query.taskId.toLowerCase()) : undefined;
    if (!task) return { status: 'NOT_FOUND', substatusMessage: `No relayer task ${query.taskId}: the relay answer gives the task id of each accepted step.` };
    if (task.state === 'failed') return { status: 'FAILED', substatus: 'UNKNOWN_FAILED_ERROR', substatusMessage: `The relayer did not send it: ${task.error ?? 'failed'}` };
    if (task.state !== 'mined' || !task.minedTxHash) return { status: 'PENDING', substatus: 'WAIT_SOURCE_CONFIRMATIONS', substatusMessage: `The relayer ${task.state === 'queued' ? 'sends it next' : 'sent it; waiting for it to be mined'}` };
    ref = task.minedTxHash;
  }
  if (ref === undefined) {
    throw new InvalidRequestError('Invalid request: query parameter txHash is required (or transactionId, or taskId)', {
      issues: [{ in: 'query', name: 'txHash', rule: 'required', message: 'query parameter txHash is required (or transactionId, or taskId)' }],
    });
  }
  const indexed = history ? await history.find(ref).catch(() => undefined) : undefined;
  if (indexed && isFinal(indexed.status) && matches(indexed, { bridge: query.bridge, fromChainId, toChainId })) return indexed;
  const read = await transfers.status({
    ref,
    ...(query.bridge !== undefined ? { bridge: query.bridge } : {}),
    ...(fromChainId !== undefined ? { fromChainId } : {}),
    ...(toChainId !== undefined ? { toChainId } : {}),
  });
  // a failed transfer emits no event for the indexer to find: kept when a status request reads it (not in the index
  // yet); a failing index does not fail the answer
  if (history && read.status === 'FAILED' && indexed === undefined) await history.rememberFailed(read).catch(() => undefined);
  return read;
}

/** Whether an indexed transfer is the one the request narrows to (else the chains are asked, and say why not). */
function matches(status: TransferStatus, narrowed: { readonly bridge?: string; readonly fromChainId?: number; readonly toChainId?: number }): boolean {
  if (narrowed.bridge !== undefined && status.tool !== narrowed.bridge) return false;
  if (narrowed.fromChainId !== undefined && status.sending?.chainId !== narrowed.fromChainId) return false;
  return narrowed.toChainId === undefined || status.receiving?.chainId === narrowed.toChainId;
}
