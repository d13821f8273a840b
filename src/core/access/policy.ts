/**
 * The limits of the interface specification (section Limits), as data: the endpoint classes operations declare,
 * and what limit applies to whom.
 */

/** quote, routes and stepTransaction have two-hour rolling windows; everything else a one-minute one. */
export type EndpointClass = 'quote' | 'routes' | 'stepTransaction' | 'minute';

export const MINUTE_MS = 60_000;
export const TWO_HOURS_MS = 7_200_000;
export const DEFAULT_PER_MINUTE = 100;
/** Authenticated two-hour windows hold the per-minute limit times this. */
export const TWO_HOUR_MULTIPLIER = 120;

export const UNAUTHENTICATED_LIMITS: Readonly<Record<EndpointClass, number>> = {
  quote: 75,
  routes: 75,
  stepTransaction: 50,
  minute: 100,
};

/**
 * What an operation asks of its callers, declared with the operation (handlers/: `operation(id, fn, { limit })`, as
 * its cache policy is; keyRequired from the contract's security): the limit class it counts against, and whether
 * only a key may call it. The access rules decide by this, never by a URL.
 */
export interface OperationAccess {
  readonly operationId?: string;
  readonly limit: EndpointClass;
  readonly keyRequired?: boolean;
}

/** An operation that declares nothing (or a request that names none, such as an unknown path): the one-minute class. */
export const DEFAULT_OPERATION_ACCESS: OperationAccess = Object.freeze({ limit: 'minute' });

export function isTwoHourClass(endpoint: EndpointClass): boolean {
  return endpoint !== 'minute';
}

/** Who is counted: a key (across all its requests) or, without one, a client address. */
export type LimitSubject =
  | { readonly kind: 'key'; readonly keyId: string; readonly perMinute?: number }
  | { readonly kind: 'client'; readonly clientId: string };

export interface LimitRule {
  /** Store key of the counter: one per subject and endpoint class. */
  readonly bucket: string;
  readonly limit: number;
  readonly windowMs: number;
  /** For messages: "75 quote requests per 2 hours without an API key". */
  readonly description: string;
}

const CLASS_NOUN: Readonly<Record<EndpointClass, string>> = {
  quote: 'quote requests',
  routes: 'route requests',
  stepTransaction: 'step transaction requests',
  minute: 'requests',
};

/** The limits of a key with `perMinute` (default 100): per minute, and per-minute × 120 over two hours. */
export function keyLimits(perMinute: number | undefined): { perMinute: number; twoHourWindow: number } {
  const minute = perMinute ?? DEFAULT_PER_MINUTE;
  return { perMinute: minute, twoHourWindow: minute * TWO_HOUR_MULTIPLIER };
}

/**
 * The rule for one request. `override` (RATE_LIMIT_OVERRIDE) replaces every limit, windows unchanged.
 */
export function limitRule(subject: LimitSubject, endpoint: EndpointClass, override?: number): LimitRule {
  const windowMs = isTwoHourClass(endpoint) ? TWO_HOURS_MS : MINUTE_MS;
  const period = windowMs === MINUTE_MS ? 'minute' : 'rolling 2 hours';
  if (subject.kind === 'client') {
    const limit = override ?? UNAUTHENTICATED_LIMITS[endpoint];
    return {
      bucket: `c:${subject.clientId}:${endpoint}`,
      limit,
      windowMs,
      description: `${limit} ${CLASS_NOUN[endpoint]} per ${period} without an API key`,
    };
  }
  const limits = keyLimits(subject.perMinute);
  const limit = override ?? (isTwoHourClass(endpoint) ? limits.twoHourWindow : limits.perMinute);
  return {
    bucket: `k:${subject.keyId}:${endpoint}`,
    limit,
    windowMs,
    description: `${limit} ${CLASS_NOUN[endpoint]} per ${period} for API key ${subject.keyId}`,
  };
}
