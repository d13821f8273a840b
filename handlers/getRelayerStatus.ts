import { relayStatus } from '../src/usecases/relay';
import { operation } from './typedOperation';

/** A relay task's state: PENDING, then DONE or FAILED, with the relayer's transaction. */
export const getRelayerStatus = operation('getRelayerStatus', async (request, dependencies) => {
  const state = await relayStatus(dependencies, request.path.taskId);
  return {
    status: 200,
    body: {
      status: 'ok' as const,
      data: { status: state.status, message: state.message, metadata: { chainId: state.chainId, ...(state.txHash ? { txHash: state.txHash } : {}) } },
    },
  };
});
