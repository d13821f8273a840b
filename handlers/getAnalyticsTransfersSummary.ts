import { transferSummary } from '../src/usecases/analytics';
import { operation } from './typedOperation';
import { usdString } from './wire/routes';

/** Counts and USD volumes of an integrator's transfers over a time range (its key required). */
export const getAnalyticsTransfersSummary = operation('getAnalyticsTransfersSummary', async (request, dependencies) => {
  const { query } = request;
  const summary = await transferSummary(dependencies, request.caller, query);
  return {
    status: 200,
    body: {
      integrator: query.integrator,
      ...(query.fromTimestamp !== undefined ? { fromTimestamp: query.fromTimestamp } : {}),
      ...(query.toTimestamp !== undefined ? { toTimestamp: query.toTimestamp } : {}),
      count: summary.count,
      volumeUsd: usdString(summary.volumeUsd),
      byStatus: summary.byStatus.map((g) => ({ status: g.key as 'PENDING' | 'DONE' | 'FAILED' | 'INVALID', count: g.count, volumeUsd: usdString(g.volumeUsd) })),
      byChain: summary.byChain.map((g) => ({ chainId: g.key, count: g.count, volumeUsd: usdString(g.volumeUsd) })),
      byTool: summary.byTool.map((g) => ({ tool: g.key, count: g.count, volumeUsd: usdString(g.volumeUsd) })),
    },
  };
});
