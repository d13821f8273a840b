/**
 * The service's Prometheus metrics (prom-client), served at GET /metrics (operations.ts). One Metrics object per
 * application, made by the composition root and handed to what records into it; each has a registry of its own
 * (never prom-client's global one), so that several applications in one process (tests) keep apart.
 *
 *   http_request_duration_seconds{operation,status}   histogram: answered requests, the operators' and the docs' excepted (_count: the request count)
 *   response_cache_hits_total{operation}              answers sent from the response cache
 *   response_cache_misses_total{operation}            cacheable requests the cache could not answer
 *   route_search_duration_seconds                     histogram: searches the route finder ran (not those answered from a cache)
 *   access_refused_total{reason}                      requests the access control refused, by reason (429s included)
 *   access_blocked_total{rule}                        requests a block rule stopped, by rule
 *   chain_following{chain_id}                         chain mode: 1 while the chain is followed, 0 while connecting or rejected
 *   chain_last_block{chain_id}                        chain mode: the last block read from the chain
 *   chain_head_age_seconds{chain_id}                  chain mode: seconds since the chain was last read at its head
 *   process_*, nodejs_*                               prom-client's default metrics, when asked for (processMetrics)
 *
 * Labels are bounded: `operation` is an operationId of the contract, or "unmatched" for a request no operation
 * matches; `status` an HTTP status; `reason` and `rule` names the access control passes (at most
 * MAX_FREE_LABEL_VALUES distinct values each, the others counted as "other"). No label carries a key, a URL or a
 * client address.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ChainLiquidityStatus } from '../chain/liveLiquidity';

/** The operation label of a request that matches no operation of the contract. */
export const UNMATCHED = 'unmatched';

/** Request durations, in seconds: from an answer out of the response cache (well under 1 ms) to a slow search (seconds). */
export const REQUEST_BUCKETS: readonly number[] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
/** Route search durations, in seconds: a search on a small graph takes tenths of a millisecond, a wide one up to seconds. */
export const ROUTE_SEARCH_BUCKETS: readonly number[] = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/** Distinct values a label named by the caller (a refusal reason, a block rule) may take; later ones count as "other". */
export const MAX_FREE_LABEL_VALUES = 50;
/** What such a value may look like (a short name); anything else counts as "other". */
const FREE_LABEL_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;

export interface MetricsOptions {
  /**
   * prom-client's default metrics of the process (CPU, memory, event loop lag, GC, handles). They start process-wide
   * monitors that cannot be stopped (an event-loop delay timer, a GC observer), so only the service's composition
   * root asks for them (default false: the applications tests make have none).
   */
  readonly processMetrics?: boolean;
}

type RequestChild = Histogram.Internal<'operation' | 'status'>;

/** The current state of the followed chains (ChainMode.status). */
export type ChainStatusSource = () => readonly ChainLiquidityStatus[];

export class Metrics {
  readonly registry = new Registry();
  private readonly requestDuration: Histogram<'operation' | 'status'>;
  private readonly cacheHits: Counter<'operation'>;
  private readonly cacheMisses: Counter<'operation'>;
  private readonly routeSearchDuration: Histogram;
  private readonly refusals: Counter<'reason'>;
  private readonly blocks: Counter<'rule'>;
  /** Label children made once per label value: prom-client checks and hashes the labels on every `labels()` call. */
  private readonly requestChildren = new Map<string, Map<number, RequestChild>>();
  private readonly hitChildren = new Map<string, Counter.Internal>();
  private readonly missChildren = new Map<string, Counter.Internal>();
  private readonly refusalChildren = new Map<string, Counter.Internal>();
  private readonly blockChildren = new Map<string, Counter.Internal>();
  private chains: ChainStatusSource = () => [];

  constructor(options: MetricsOptions = {}) {
    const registers = [this.registry];
    this.requestDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Answered requests by operationId ("unmatched": no operation) and HTTP status, and how long they took (seconds, until the answer was written)',
      labelNames: ['operation', 'status'],
      buckets: [...REQUEST_BUCKETS],
      registers,
    });
    this.cacheHits = new Counter({ name: 'response_cache_hits_total', help: 'Answers sent from the response cache, by operationId', labelNames: ['operation'], registers });
    this.cacheMisses = new Counter({ name: 'response_cache_misses_total', help: 'Requests of cacheable operations the response cache could not answer, by operationId', labelNames: ['operation'], registers });
    this.routeSearchDuration = new Histogram({
      name: 'route_search_duration_seconds',
      help: 'Route searches the route finder ran (answers from the search cache are not counted), in seconds',
      buckets: [...ROUTE_SEARCH_BUCKETS],
      registers,
    });
    this.refusals = new Counter({ name: 'access_refused_total', help: 'Requests the access control refused, by reason (rate limits included)', labelNames: ['reason'], registers });
    this.blocks = new Counter({ name: 'access_blocked_total', help: 'Requests stopped by a block rule, by rule', labelNames: ['rule'], registers });
    const chains = () => this.chains();
    const perChain = (name: string, help: string, value: (s: ChainLiquidityStatus, now: number) => number | undefined) =>
      new Gauge({
        name, help, labelNames: ['chain_id'], registers,
        collect() {
          this.reset(); // a chain no longer reported leaves no stale value
          const now = Date.now();
          for (const status of chains()) {
            const v = value(status, now);
            if (v !== undefined) this.set({ chain_id: String(status.chainId) }, v);
          }
        },
      });
    perChain('chain_following', 'Chain mode: 1 while the chain is followed, 0 while it is connecting or rejected (wrong chain id)', (s) => (s.state === 'following' ? 1 : 0));
    perChain('chain_last_block', 'Chain mode: the last block read from the chain', (s) => s.lastBlock);
    perChain('chain_head_age_seconds', 'Chain mode: seconds since the chain was last read at its head (grows while its RPC does not answer)', (s, now) =>
      s.lastBlockAt === undefined ? undefined : Math.max(0, (now - s.lastBlockAt) / 1000));
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry });
  }

  /** The chains chain mode follows (startChainMode's status), read at every scrape. */
  observeChains(status: ChainStatusSource): void {
    this.chains = status;
  }

  /** One answered request: its operation (or UNMATCHED), status and duration in seconds. */
  observeRequest(operation: string, status: number, seconds: number): void {
    let byStatus = this.requestChildren.get(operation);
    if (!byStatus) this.requestChildren.set(operation, (byStatus = new Map()));
    let child = byStatus.get(status);
    if (!child) byStatus.set(status, (child = this.requestDuration.labels(operation, String(status))));
    child.observe(seconds);
  }

  /** An answer sent from the response cache. */
  cacheHit(operation: string): void {
    counterChild(this.hitChildren, this.cacheHits, operation).inc();
  }

  /** A cacheable request the response cache did not answer (the operation's handler ran). */
  cacheMiss(operation: string): void {
    counterChild(this.missChildren, this.cacheMisses, operation).inc();
  }

  /** One search of the route finder, in seconds (bound: handed to the use cases as it is). */
  readonly routeSearch = (seconds: number): void => {
    this.routeSearchDuration.observe(seconds);
  };

  /** A request the access control refused (401, 403, 429...); `reason` is a fixed name such as "rate-limited" (bound). */
  readonly accessRefused = (reason: string): void => {
    counterChild(this.refusalChildren, this.refusals, freeLabel(this.refusalChildren, reason)).inc();
  };

  /** A request stopped by a block rule; `rule` names the rule, never the blocked value (bound). */
  readonly blocked = (rule: string): void => {
    counterChild(this.blockChildren, this.blocks, freeLabel(this.blockChildren, rule)).inc();
  };

  /** The text exposition of every metric, and its content type. */
  async exposition(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }
}

function counterChild<T extends string>(children: Map<string, Counter.Internal>, counter: Counter<T>, value: string): Counter.Internal {
  let child = children.get(value);
  if (!child) children.set(value, (child = counter.labels(value)));
  return child;
}

/** A caller-named label value as it is if it is a short name and there is room for it, "other" otherwise. */
function freeLabel(seen: ReadonlyMap<string, unknown>, value: string): string {
  if (seen.has(value)) return value;
  return FREE_LABEL_PATTERN.test(value) && seen.size < MAX_FREE_LABEL_VALUES ? value : 'other';
}

/** Where the request's start time is kept, on the response (one property, no object per request). */
const STARTED = Symbol('metricsStarted');
type TimedResponse = Response & { [STARTED]?: number };

/**
 * The middleware that records every request that reaches it: the time it starts, and at 'finish' (the answer
 * handed to the connection) its duration, status and operation. The operation is `res.locals.operationId` when
 * the dispatcher set it (dispatch.ts), otherwise `operationOf(req)` (requests answered before the dispatcher: 401,
 * 429, 413...), otherwise UNMATCHED; and whether the response cache answered it (`res.locals.responseCache`, set by
 * the dispatcher for cacheable operations).
 */
export function requestMetrics(metrics: Metrics, operationOf: (req: Request) => string | undefined): RequestHandler {
  // a listener of 'finish' must not throw (it would take the process down)
  const matched = (req: Request): string => {
    try {
      return operationOf(req) ?? UNMATCHED;
    } catch {
      return UNMATCHED;
    }
  };
  function finished(this: TimedResponse): void {
    const started = this[STARTED];
    if (started === undefined) return;
    const seconds = (performance.now() - started) / 1000;
    const operation = (this.locals.operationId as string | undefined) ?? matched(this.req);
    metrics.observeRequest(operation, this.statusCode, seconds);
    const cache = this.locals.responseCache as 'hit' | 'miss' | undefined;
    if (cache === 'hit') metrics.cacheHit(operation);
    else if (cache === 'miss') metrics.cacheMiss(operation);
  }
  return (_req: Request, res: Response, next: NextFunction) => {
    (res as TimedResponse)[STARTED] = performance.now();
    res.on('finish', finished);
    next();
  };
}
