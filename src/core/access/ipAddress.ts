import ipaddr from 'ipaddr.js';

/**
 * Strips brackets, a zone and an IPv4-mapped IPv6 prefix, lower-cases; returns undefined for anything not an IP.
 * IPv4 in four decimal parts only (no octal, hex or shortened forms), as node's net.isIP reads it.
 */
export function normalizeIp(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  let ip = raw.trim();
  if (ip.startsWith('[') && ip.endsWith(']')) ip = ip.slice(1, -1);
  const zone = ip.indexOf('%');
  if (zone >= 0) {
    // a zone (fe80::1%eth0) belongs to IPv6 only and names an interface: letters, digits, '-', '.', ':'
    if (!ip.slice(0, zone).includes(':') || !/^[0-9a-z.:-]+$/i.test(ip.slice(zone + 1))) return undefined;
    ip = ip.slice(0, zone);
  }
  ip = ip.toLowerCase();
  if (ipaddr.IPv4.isValidFourPartDecimal(ip)) return ip;
  if (!ipaddr.IPv6.isValid(ip)) return undefined;
  const [a, b, c, d, e, f, g, h] = ipaddr.IPv6.parse(withHexTail(ip)).parts as [number, number, number, number, number, number, number, number];
  // ::ffff:1.2.3.4 and ::ffff:102:304 are the IPv4 client 1.2.3.4
  const mapped = a === 0 && b === 0 && c === 0 && d === 0 && e === 0 && f === 0xffff;
  return mapped ? `${g >> 8}.${g & 255}.${h >> 8}.${h & 255}` : ip;
}

/**
 * An IPv6 address whose last 32 bits are written as IPv4 (::1.2.3.4) with them as two hex groups (::102:304):
 * ipaddr.js reads any such tail as IPv4-mapped (::ffff:1.2.3.4), which only the ::ffff: prefix makes it.
 */
function withHexTail(ip: string): string {
  const v4 = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ip);
  if (!v4) return ip;
  const [p, q, r, t] = v4.slice(1).map(Number) as [number, number, number, number];
  return `${ip.slice(0, v4.index)}${((p << 8) | q).toString(16)}:${((r << 8) | t).toString(16)}`;
}

/** A normal-form address (normalizeIp) parsed. */
function parseNormal(ip: string): ipaddr.IPv4 | ipaddr.IPv6 {
  return ip.includes(':') ? ipaddr.IPv6.parse(withHexTail(ip)) : ipaddr.IPv4.parse(ip);
}

/** An address set's ranges, by family: [first address, prefix length]. */
interface Ranges {
  readonly ipv4: [ipaddr.IPv4, number][];
  readonly ipv6: [ipaddr.IPv6, number][];
}

/** A set of addresses and CIDR ranges, IPv4 and IPv6. */
export class AddressSet {
  private readonly ranges: Ranges = { ipv4: [], ipv6: [] };
  readonly entries: readonly string[];

  /** Throws an Error naming the first invalid entry. */
  constructor(entries: readonly string[]) {
    this.entries = [...entries];
    for (const entry of entries) addEntry(this.ranges, entry);
  }

  has(address: string): boolean {
    const ip = normalizeIp(address);
    if (!ip) return false;
    const parsed = parseNormal(ip);
    if (parsed.kind() === 'ipv6') return this.ranges.ipv6.some((range) => (parsed as ipaddr.IPv6).match(range));
    // an IPv4 address is also its IPv4-mapped IPv6 address (::ffff:1.2.3.4), as node's BlockList reads it
    const mapped = (parsed as ipaddr.IPv4).toIPv4MappedAddress();
    return this.ranges.ipv4.some((range) => (parsed as ipaddr.IPv4).match(range)) || this.ranges.ipv6.some((range) => mapped.match(range));
  }
}

const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

function addEntry(ranges: Ranges, entry: string): void {
  const trimmed = entry.trim();
  const named = NAMED_RANGES[trimmed.toLowerCase()];
  if (named) {
    for (const range of named) addEntry(ranges, range);
    return;
  }
  const [address, prefixText, ...rest] = trimmed.split('/');
  const ip = normalizeIp(address);
  if (!ip || rest.length > 0) throw new Error(`"${entry}" is not an IP address or CIDR range`);
  const parsed = parseNormal(ip);
  const max = parsed.kind() === 'ipv6' ? 128 : 32;
  if (prefixText !== undefined && (!/^[0-9]{1,3}$/.test(prefixText) || Number(prefixText) > max)) {
    throw new Error(`"${entry}" has an invalid prefix length (0 to ${max})`);
  }
  const bits = prefixText === undefined ? max : Number(prefixText);
  if (parsed.kind() === 'ipv4') ranges.ipv4.push([parsed as ipaddr.IPv4, bits]);
  else ranges.ipv6.push([parsed as ipaddr.IPv6, bits]);
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
  const text = withHexTail(ip); // an embedded IPv4 tail (::ffff:0:1.2.3.4 and the like) becomes two groups
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
