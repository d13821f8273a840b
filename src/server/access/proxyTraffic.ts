/**
 * Warns (once per kind) when the traffic the service sees contradicts its TRUST_PROXY setting:
 *
 * - TRUST_PROXY unset, and requests arrive with X-Forwarded-For: the service is behind a proxy it does not trust, so
 *   every client behind it is that proxy's address (one limit, one block for all of them);
 * - TRUST_PROXY a hop count, and requests arrive without X-Forwarded-For: clients reach the service without passing
 *   the proxy, and such a client chooses its own address by sending the header itself;
 * - TRUST_PROXY a list of addresses, and X-Forwarded-For arrives from a peer not on it: a proxy that is not listed
 *   (its clients share its address), or a client sending the header (ignored, as it should be).
 */
import { normalizeIp, type TrustProxy } from '../../core/access/ipAddress';

export type ProxyTrafficWarning = 'forwarded-untrusted' | 'direct-with-hops' | 'forwarded-from-unlisted';

export function proxyTrafficWatch(trust: TrustProxy, warn: (kind: ProxyTrafficWarning, message: string) => void): (peer: string | undefined, forwardedFor: string | string[] | undefined) => void {
  const warned = new Set<ProxyTrafficWarning>();
  const once = (kind: ProxyTrafficWarning, message: string) => {
    if (warned.has(kind)) return;
    warned.add(kind);
    warn(kind, message);
  };
  return (peer, forwardedFor) => {
    const forwarded = forwardedFor !== undefined && forwardedFor !== '';
    const from = normalizeIp(peer) ?? String(peer);
    if (trust.kind === 'none') {
      if (forwarded) once('forwarded-untrusted', `requests arrive with X-Forwarded-For (from ${from}) but TRUST_PROXY is not set: every client behind that proxy counts as ${from} (one rate limit, one block for all); set TRUST_PROXY to the proxy's address or the number of proxies in front of the service`);
    } else if (trust.kind === 'hops') {
      if (trust.hops > 0 && !forwarded) once('direct-with-hops', `TRUST_PROXY=${trust.hops} and a request arrived without X-Forwarded-For (from ${from}): clients reach the service without passing the proxy, and such a client chooses its own address by sending X-Forwarded-For itself; let clients reach the service only through the proxy, or set TRUST_PROXY to the proxy's addresses`);
    } else if (forwarded && !trust.addresses.has(from)) {
      once('forwarded-from-unlisted', `X-Forwarded-For arrived from ${from}, which TRUST_PROXY does not list: it is ignored (the client counts as ${from}); if ${from} is a proxy of yours, add it to TRUST_PROXY`);
    }
  };
}
