/**
 * The limits of the interface specification (section Limits), as data:
 * which endpoint class a path belongs to, and what limit applies to whom.
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

const CLASS_BY_PATH: ReadonlyMap<string, EndpointClass> = new Map<string, EndpointClass>([
  ['/v1/quote', 'quote'],
  ['/v1/quote/toAmount', 'quote'],
  ['/v1/quote/contractCalls', 'quote'],
  ['/v1/quote/contractCall', 'quote'],
  ['/v1/advanced/routes', 'routes'],
  ['/v1/advanced/stepTransaction', 'stepTransaction'],
]);

/** Endpoints that answer only to a valid key. */
const PROTECTED_PATHS: ReadonlySet<string> = new Set(['/v1/keys/test']);

/** The router ignores trailing slashes, so classification does too (`/v1/quote/` is a quote). */
export function canonicalPath(path: string): string {
  let result = path;
  while (result.length > 1 && result.endsWith('/')) result = result.slice(0, -1);
  return result;
}

export function endpointClass(path: string): EndpointClass {
  return CLASS_BY_PATH.get(canonicalPath(path)) ?? 'minute';
}

export function isProtectedPath(path: string): boolean {
  return PROTECTED_PATHS.has(canonicalPath(path));
}

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
