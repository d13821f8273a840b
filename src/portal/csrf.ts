/**
 * Cross-site request forgery protection of the portal's changes (POST, PUT, PATCH, DELETE), two checks that each
 * suffice against a page of another site:
 *
 * - the request's Origin is one of this portal's configured origins (browsers send Origin with every such request,
 *   and a page cannot forge it; `Sec-Fetch-Site`, when sent, must say same-origin too);
 * - the `x-csrf-token` header carries the session's CSRF token (a random token only this origin's script can read,
 *   from GET /portal/api/me), compared in constant time.
 *
 * The session cookie is SameSite=Strict as well (sessions.ts), so another site's page does not even send it.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { normalizeIp, type TrustProxy } from '../core/access/ipAddress';

export const CSRF_HEADER = 'x-csrf-token';
/** The methods that change something; every other method only reads. */
export const CHANGE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A new session's token: 256 random bits. */
export function newCsrfToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Whether the presented token is the session's, in time that does not depend on where they differ: both are hashed
 * to 32 bytes first, so that their lengths tell nothing either.
 */
export function csrfTokenMatches(expected: string, presented: unknown): boolean {
  if (typeof presented !== 'string' || presented.length === 0) return false;
  const a = createHash('sha256').update(expected).digest();
  const b = createHash('sha256').update(presented).digest();
  return timingSafeEqual(a, b);
}

export interface OriginFacts {
  /** The Origin header. */
  readonly origin: string | undefined;
  /** The Sec-Fetch-Site header. */
  readonly fetchSite: string | undefined;
}

/**
 * Undefined when the request comes from one of the portal's own origins (PORTAL_ORIGIN, src/config.ts); otherwise
 * why not. The request's Host is not looked at: a client other than a browser chooses its Host as freely as its
 * Origin, so an origin is the portal's only because the configuration says so.
 */
export function originRefusal(facts: OriginFacts, origins: readonly string[]): string | undefined {
  if (facts.fetchSite !== undefined && facts.fetchSite !== 'same-origin') return `the request was sent from another site (Sec-Fetch-Site: ${facts.fetchSite})`;
  if (!facts.origin || facts.origin === 'null') return 'the request has no Origin header: changes are accepted only from the portal\'s own page';
  let origin: string;
  try {
    origin = new URL(facts.origin).origin;
  } catch {
    return `the Origin header is not an origin: ${facts.origin}`;
  }
  if (!origins.includes(origin)) return `the request comes from ${facts.origin}, not from this portal (${origins.join(', ')})`;
  return undefined;
}

/**
 * Whether the browser reached the service over TLS: the connection is TLS (`encrypted`), or it comes from a trusted
 * proxy (TRUST_PROXY: any peer when it counts hops, a listed address otherwise) whose X-Forwarded-Proto (its first
 * value, the client-facing proxy's) is https. With an https portal origin, decides the session cookie's Secure
 * attribute.
 */
export function isSecureRequest(facts: { readonly encrypted: boolean; readonly peer: string | undefined; readonly forwardedProto: string | undefined }, trust: TrustProxy): boolean {
  if (facts.encrypted) return true;
  if (trust.kind === 'none' || facts.forwardedProto === undefined) return false;
  const peer = normalizeIp(facts.peer);
  const trusted = trust.kind === 'hops' ? trust.hops > 0 : peer !== undefined && trust.addresses.has(peer);
  return trusted && facts.forwardedProto.split(',')[0]!.trim().toLowerCase() === 'https';
}
