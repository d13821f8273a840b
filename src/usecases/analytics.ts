/**
 * The transfer history (GET /v1/analytics/transfers, GET /v2/analytics/transfers, GET /v1/analytics/transfers/summary)
 * from the service's index of transfers.
 *
 * Who may read what: a wallet's own transfers are public (they are on the chains for anyone to read), so a request
 * naming `wallet` is answered to anyone, narrowed to `integrator` when it names one too (the ecosystem's SDK sends
 * its configured integrator with every history request). All of an integrator's transfers, and its summary, need an
 * API key of that integrator: without one 401, with another's 403.
 */
import { ForbiddenError, InvalidRequestError, NotConfiguredError, UnauthorizedError } from '../core/errors';
import { decodeCursor, encodeCursor, type TransferFilter, type TransferHistory, type TransferSummary } from '../core/status/history';
import type { TransferStatus } from '../core/status/transferStatus';
import type { ApiKeyRecord } from '../core/access/keys';
import type { Ports } from './ports';

/** Who asks: the API key the access control authenticated, if any. */
export interface HistoryCaller {
  readonly apiKey?: Pick<ApiKeyRecord, 'id' | 'integrators'>;
}

/** The most transfers GET /v1/analytics/transfers answers (the newest): more are read page by page from /v2. */
export const MAX_V1_TRANSFERS = 1000;
/** Page sizes of GET /v2/analytics/transfers. */
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;

export interface HistoryQuery {
  readonly wallet?: string;
  readonly integrator?: string;
  /** ALL (or absent): every state. */
  readonly status?: 'ALL' | 'PENDING' | 'DONE' | 'FAILED';
  /** Unix seconds. */
  readonly fromTimestamp?: number;
  readonly toTimestamp?: number;
}

/** The transfers of a wallet (or of an integrator, with its key), newest first, at most MAX_V1_TRANSFERS. */
export async function transferHistory(dependencies: Pick<Ports, 'history'>, caller: HistoryCaller, query: HistoryQuery): Promise<readonly TransferStatus[]> {
  const history = historyOf(dependencies);
  const page = await history.list(filterOf(caller, query), { limit: MAX_V1_TRANSFERS });
  return page.transfers;
}

/** One page of the same, and the cursor of the next one. */
export async function transferHistoryPage(
  dependencies: Pick<Ports, 'history'>,
  caller: HistoryCaller,
  query: HistoryQuery & { readonly limit?: number; readonly next?: string },
): Promise<{ transfers: readonly TransferStatus[]; next?: string }> {
  const history = historyOf(dependencies);
  const filter = filterOf(caller, query);
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) throw invalid('limit', 'range', `limit must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  const after = query.next === undefined ? undefined : decodeCursor(query.next);
  if (query.next !== undefined && !after) throw invalid('next', 'cursor', 'next must be the `next` cursor of a previous page, as it was answered');
  const page = await history.list(filter, { limit, ...(after ? { after } : {}) });
  return { transfers: page.transfers, ...(page.next ? { next: encodeCursor(page.next) } : {}) };
}

/** Counts and volumes of an integrator's transfers over a time range (its key required). */
export async function transferSummary(dependencies: Pick<Ports, 'history'>, caller: HistoryCaller, query: HistoryQuery): Promise<TransferSummary> {
  const history = historyOf(dependencies);
  if (query.integrator === undefined) throw invalid('integrator', 'required', 'integrator is required: the summary is an integrator\'s, read with its API key');
  return history.summary(filterOf(caller, { ...query, wallet: undefined }));
}

function historyOf(dependencies: Pick<Ports, 'history'>): TransferHistory {
  if (!dependencies.history) throw new NotConfiguredError('The transfer history needs the service\'s database (DATABASE_URL or DATABASE_DIR), which this deployment runs without');
  return dependencies.history;
}

/** The filter of a request, once the caller may read it (see the module comment). */
function filterOf(caller: HistoryCaller, query: HistoryQuery): TransferFilter {
  const { wallet, integrator } = query;
  if (wallet === undefined && integrator === undefined) throw invalid('wallet', 'required', 'wallet is required (or integrator, with that integrator\'s API key)');
  if (wallet === undefined && integrator !== undefined) {
    const key = caller.apiKey;
    if (!key) throw new UnauthorizedError(`All of integrator "${integrator}"'s transfers are read with one of its API keys: send it in x-svc-api-key (or x-lifi-api-key), or name a wallet`);
    if (!key.integrators?.includes(integrator)) throw new ForbiddenError(`API key ${key.id} is not a key of integrator "${integrator}": its transfers are read with one of its own keys`);
  }
  const from = secondsToDate(query.fromTimestamp, 'fromTimestamp');
  const to = secondsToDate(query.toTimestamp, 'toTimestamp');
  if (from && to && from.getTime() > to.getTime()) throw invalid('toTimestamp', 'order', 'toTimestamp must not be before fromTimestamp');
  return {
    ...(wallet !== undefined ? { wallet } : {}),
    ...(integrator !== undefined ? { integrator } : {}),
    ...(query.status !== undefined && query.status !== 'ALL' ? { status: query.status } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
  };
}

function secondsToDate(seconds: number | undefined, name: string): Date | undefined {
  if (seconds === undefined) return undefined;
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > 253_402_300_799) throw invalid(name, 'range', `${name} must be a unix time in seconds (an integer from 0)`);
  return new Date(seconds * 1000);
}

function invalid(name: string, rule: string, message: string): InvalidRequestError {
  return new InvalidRequestError(`Invalid request: ${message}`, { issues: [{ name, rule, message }] });
}
