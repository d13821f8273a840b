import { transferHistory } from '../src/usecases/analytics';
import { operation } from './typedOperation';
import { statusToWire } from './wire/status';

/** A wallet's (or, with its key, an integrator's) transfers from the index, newest first (src/usecases/analytics.ts). */
export const getAnalyticsTransfers = operation('getAnalyticsTransfers', async (request, dependencies) => {
  const transfers = await transferHistory(dependencies, request.caller, request.query);
  return { status: 200, body: { transfers: transfers.map((t) => statusToWire(dependencies.catalog, t, dependencies.publicUrl)) } };
});
