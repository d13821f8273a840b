import net from 'node:net';

/** Strips an IPv4-mapped IPv6 prefix and zone, lower-cases; returns undefined for anything not an IP. */
export function normalizeIp(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  let ip = raw.trim();
  if (ip.startsWith('[') && ip.endsWith(']')) ip = ip.slice(1, -1);
  const zone = ip.indexOf('%');
  if (zone >= 0) ip = ip.slice(0, zone);
  ip = ip.toLowerCase();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(ip);
  if (mapped) ip = mapped[1]!;
  return net.isIP(ip) === 0 ? undefined : ip;
}

/** A set of addresses and CIDR ranges, IPv4 and IPv6 (node's BlockList). */
export class AddressSet {
  private readonly list = new net.BlockList();
  readonly entries: readonly string[];

  /** Throws an Error naming the first invalid entry. */
  constructor(entries: readonly string[]) {
    this.entries = [...entries];
    for (const entry of entries) addEntry(this.list, entry);
  }

  has(address: string): boolean {
    const ip = normalizeIp(address);
    if (!ip) return false;
    return this.list.check(ip, net.isIPv6(ip) ? 'ipv6' : 'ipv4');
  }
}

const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

function addEntry(list: net.BlockList, entry: string): void {
  const trimmed = entry.trim();
  const named = NAMED_RANGES[trimmed.toLowerCase()];
  if (named) {
    for (const range of named) addEntry(list, range);
    return;
  }
  const [address, prefixText, ...rest] = trimmed.split('/');
  const ip = normalizeIp(address);
  if (!ip || rest.length > 0) throw new Error(`"${entry}" is not an IP address or CIDR range`);
  const family = net.isIPv6(ip) ? 'ipv6' : 'ipv4';
  if (prefixText === undefined) {
    list.addAddress(ip, family);
    return;
  }
  const max = family === 'ipv6' ? 128 : 32;
  if (!/^[0-9]{1,3}$/.test(prefixText) || Number(prefixText) > max) {
    throw new Error(`"${entry}" has an invalid prefix length (0 to ${max})`);
  }
  list.addSubnet(ip, Number(prefixText), family);
}

/**
 * Which proxies to believe when they say, in X-Forwarded-For, who the client is.
 * none: the socket's peer is the client (X-Forwarded-For ignored);
 * hops: that many proxies stand in front of the service;
 * addresses: proxies are the listed addresses/ranges.
 */
export type TrustProxy =
  | { readonly kind: 'none' }
  | { readonly kind: 'hops'; readonly hops: number }
  | { readonly kind: 'addresses'; readonly addresses: AddressSet };

/**
 * The client's address: the socket peer, unless it is a trusted proxy, in which case X-Forwarded-For
 * is walked from the right (each trusted proxy appends the address it received the request from)
 * and the first address not vouched for by a trusted proxy is the client.
 */
export function clientAddress(socketAddress: string | undefined, forwardedFor: string | string[] | undefined, trust: TrustProxy): string {
  const peer = normalizeIp(socketAddress) ?? 'unknown';
  if (trust.kind === 'none' || forwardedFor === undefined) return peer;
  const chain = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor)
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
  // addresses from nearest to farthest: the peer first, then X-Forwarded-For right to left
  const hops = [peer, ...chain.reverse()];
  if (trust.kind === 'hops') {
    const index = Math.min(trust.hops, hops.length - 1);
    return normalizeIp(hops[index]) ?? peer;
  }
  let client = peer;
  for (let i = 0; i < hops.length - 1; i += 1) {
    if (!trust.addresses.has(hops[i]!)) break;
    const next = normalizeIp(hops[i + 1]);
    if (!next) break; // a garbled entry: stop at the last trustworthy address
    client = next;
  }
  return client;
}

/**
 * The rate-limit identity of an unauthenticated client: its IPv4 address, or the /64 network of its
 * IPv6 address (one subscriber usually holds a whole /64, so single addresses would be free to rotate).
 */
export function clientLimitId(address: string): string {
  const ip = normalizeIp(address);
  if (!ip) return address;
  if (!ip.includes(':')) return ip; // a valid address (normalizeIp) is IPv6 exactly when it has a colon
  const groups = expandIpv6(ip);
  return `${groups.slice(0, 4).join(':')}::/64`;
}

function expandIpv6(ip: string): string[] {
  let text = ip;
  // an embedded IPv4 tail (::ffff:0:1.2.3.4 and the like) becomes two groups
  const v4 = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : new Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...fill, ...right].map((group) => group.replace(/^0+(?=.)/, ''));
}

/** Parses TRUST_PROXY: unset/false/0 = none, an integer = hops, else a comma-separated address list. */
export function parseTrustProxy(raw: string | undefined): TrustProxy {
  const text = raw?.trim() ?? '';
  if (text === '' || text === 'false' || text === '0') return { kind: 'none' };
  if (/^[0-9]+$/.test(text)) {
    const hops = Number(text);
    if (hops > 20) throw new Error(`TRUST_PROXY hop count must be from 0 to 20 (got "${raw}")`);
    return { kind: 'hops', hops };
  }
  if (text === 'true') {
    throw new Error('TRUST_PROXY=true would believe any client\'s X-Forwarded-For; give the number of proxies or their addresses');
  }
  try {
    return { kind: 'addresses', addresses: new AddressSet(text.split(',').filter((part) => part.trim() !== '')) };
  } catch (error) {
    throw new Error(`TRUST_PROXY must be false, a number of proxies, or a comma-separated list of proxy addresses/CIDR ranges (loopback, linklocal, uniquelocal allowed): ${(error as Error).message}`);
  }
}
