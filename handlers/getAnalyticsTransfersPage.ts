import { transferHistoryPage } from '../src/usecases/analytics';
import { operation } from './typedOperation';
import { statusToWire } from './wire/status';

/** One page of the same transfers as GET /v1/analytics/transfers, and the cursor of the next one. */
export const getAnalyticsTransfersPage = operation('getAnalyticsTransfersPage', async (request, dependencies) => {
  const page = await transferHistoryPage(dependencies, request.caller, request.query);
  return {
    status: 200,
    body: { data: page.transfers.map((t) => statusToWire(dependencies.catalog, t, dependencies.publicUrl)), hasNext: page.next !== undefined, ...(page.next ? { next: page.next } : {}) },
  };
});
