import type { Logger } from 'pino';
import type { RequestCaller } from './access/middleware';
import type { OperationAccess } from '../core/access/policy';
import type { Dependencies } from './dependencies';
import type { CachedAnswer } from './responseCache';

/** What a handler receives: the validated, type-coerced request and a request-scoped logger. */
export interface OperationRequest {
  readonly operationId: string;
  readonly query: Record<string, unknown>;
  readonly path: Record<string, unknown>;
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly requestId: string;
  /** Who calls: the key the access control authenticated (if any) and the client address. */
  readonly caller: RequestCaller;
  readonly log: Logger;
}

/** What a handler returns; the adapter writes it. Errors are thrown as DomainErrors. */
export interface OperationResponse {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * The answer depends on more than the request and the loaded data (a search bounded by timing strategies
   * depends on how long it ran): not kept in the response cache.
   */
  readonly uncacheable?: boolean;
  /** The answer as serialized by the response cache (sent instead of `body`). */
  readonly cached?: CachedAnswer;
  /** A Server-Sent Events answer, written as its events come (eventStream.ts) instead of `body`. */
  readonly stream?: EventStreamAnswer;
}

/** One event of a text/event-stream answer; `data` is one line (JSON). */
export interface ServerSentEvent {
  readonly id?: string;
  readonly event: string;
  readonly data: string;
}

export interface EventStreamAnswer {
  /** The events; the answer ends when they do. */
  readonly events: AsyncIterable<ServerSentEvent>;
  /** Called when the client leaves (or the events end): their source gives back what it holds. */
  readonly stop: () => void;
  /** A comment line is written on a quiet stream this often. */
  readonly heartbeatMs: number;
}

/**
 * What the response cache may keep of an operation's answers, declared with the operation (handlers/):
 * - `none`: nothing (the answer depends on more than the request and the loaded data);
 * - `catalog`: 200 answers, a function of the request and the catalog and router deployments;
 * - `liquidity`: 200 answers and "no route" answers, a function of the request, the catalog and the liquidity
 *   graph in use (a new graph is a new entry); a handler marks an answer `uncacheable` when it depends on time.
 */
export type CachePolicy = 'none' | 'catalog' | 'liquidity';

export type RawOperationHandler = ((
  request: OperationRequest,
  dependencies: Dependencies,
) => OperationResponse | Promise<OperationResponse>) & {
  readonly cache?: CachePolicy;
  /** The rate-limit class the operation's requests count against (default: the one-minute class). */
  readonly limit?: OperationAccess['limit'];
};

export type HandlerTable = Readonly<Record<string, RawOperationHandler>>;
