import { operation } from './typedOperation';
import { gasStatusToWire } from './wire/status';

/** The status of the gas refuel leg started by a transaction (200 also for NOT_FOUND). */
export const getGasStatus = operation('getGasStatus', async (request, { catalog, transfers }) => {
  return { status: 200, body: gasStatusToWire(catalog, await transfers.gasStatus(request.query.txHash)) };
});
