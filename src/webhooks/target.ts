/**
 * Where a webhook may be sent. Its URL is an integrator's input, hostile until checked: it must never make the
 * service reach its own network (a database, an admin port, the cloud's metadata service and the credentials it
 * hands out). Three checks, each at the last moment it can be made:
 *
 * - checkWebhookUrl, when the URL is set: an absolute https URL of at most 2048 characters, without credentials or
 *   fragment, whose host is neither a cloud metadata name nor an IP literal in a refused range;
 * - resolveWebhookTarget, when the URL is set too: every address its host resolves to is allowed;
 * - deliverWebhook, at every delivery: the same checks, and the address refused or allowed is the address the socket
 *   connects to (a lookup of node's own connect step is wrapped), so that a name that resolved to a public address
 *   when it was set and to 127.0.0.1 now (DNS rebinding) reaches nothing. Redirects are never followed.
 *
 * Refused ranges (IANA's special-purpose registries): unspecified, loopback, private (RFC 1918, IPv6 unique local),
 * link-local (the metadata address 169.254.169.254 among them), carrier-grade NAT, multicast, broadcast, reserved and
 * documentation ranges, 6to4 and Teredo, every IPv6 address outside global unicast 2000::/3; IPv4-mapped and NAT64
 * (64:ff9b::/96) addresses are judged by the IPv4 address they carry. `allowPrivate` (the sandbox and tests, whose
 * receivers run on the same machine or network) allows http, loopback and private addresses, never the rest: link-local
 * and the metadata addresses stay refused.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type net from 'node:net';

export const WEBHOOK_USER_AGENT = 'xchain-router-webhooks/1';
export const MAX_WEBHOOK_URL_LENGTH = 2048;
export const DEFAULT_MAX_RESPONSE_BYTES = 4096;

/** Why a webhook URL is refused: its form (url), an address it names or resolves to (address), or its name does not resolve. */
export class WebhookUrlError extends Error {
  constructor(message: string, readonly kind: 'url' | 'address' | 'resolution') {
    super(message);
    this.name = 'WebhookUrlError';
  }
}

/** Resolves a host to all its addresses; dns.promises.lookup is one. */
export type HostLookup = (hostname: string, options: { all: true }) => Promise<dns.LookupAddress[]>;

export interface TargetOptions {
  /** Allows http, loopback and private addresses (sandbox, tests); link-local and metadata stay refused. */
  readonly allowPrivate: boolean;
  /** The resolver (default dns.promises.lookup). */
  readonly lookup?: HostLookup;
}

export interface DeliveryOptions extends TargetOptions {
  /** The whole exchange's deadline: connection, request, answer and the part of its body read. */
  readonly timeoutMs: number;
  /** How much of the answer's body is read before the connection is closed (default 4096). */
  readonly maxResponseBytes?: number;
}

export interface DeliveryResult {
  /** A 2xx answer. */
  readonly ok: boolean;
  /** The answer's status, when one came. */
  readonly status?: number;
  /** Why the delivery failed. */
  readonly error?: string;
}

/** Names of cloud metadata services (their addresses are link-local or refused anyway). */
const METADATA_HOSTS: ReadonlySet<string> = new Set(['metadata.google.internal', 'metadata.goog', 'metadata', 'instance-data', 'instance-data.ec2.internal']);

/**
 * The URL, when it may be a webhook's; otherwise throws a WebhookUrlError naming the rule. A host name is not
 * resolved here (resolveWebhookTarget does).
 */
export function checkWebhookUrl(raw: string, options: { readonly allowPrivate: boolean }): URL {
  if (raw.length > MAX_WEBHOOK_URL_LENGTH) throw new WebhookUrlError(`webhook URL must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`, 'url');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookUrlError('webhook URL must be an absolute URL', 'url');
  }
  const schemes = options.allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) throw new WebhookUrlError('webhook URL must use https', 'url');
  if (url.username !== '' || url.password !== '') throw new WebhookUrlError('webhook URL must not carry credentials', 'url');
  if (url.href.includes('#')) throw new WebhookUrlError('webhook URL must not have a fragment', 'url');
  const host = bareHost(url.hostname);
  if (host === '') throw new WebhookUrlError('webhook URL must name a host', 'url');
  if (METADATA_HOSTS.has(host.replace(/\.+$/, ''))) throw new WebhookUrlError(`webhook URL names a cloud metadata host (${host})`, 'address');
  if (parseIp(host) !== undefined) refuseBlocked([host], options.allowPrivate);
  return url;
}

/**
 * Every address the URL's host resolves to (the literal itself for an IP), after checkWebhookUrl's checks; throws a
 * WebhookUrlError if any address is refused (one private address among public ones is enough) or the host does
 * not resolve.
 */
export async function resolveWebhookTarget(url: URL, options: TargetOptions): Promise<string[]> {
  checkWebhookUrl(url.href, options);
  const host = bareHost(url.hostname);
  if (parseIp(host) !== undefined) return [host];
  const addresses = await resolveAll(options.lookup ?? dns.promises.lookup, host);
  refuseBlocked(addresses.map((a) => a.address), options.allowPrivate);
  return addresses.map((a) => a.address);
}

/**
 * POSTs a JSON body to a webhook, with node's http/https (no proxy, no redirect followed, a fresh connection), and
 * says how it went; never throws. The URL is checked again, and the address connected to is checked when the
 * connection is made. ok is a 2xx answer; a 3xx is a failure whose location is not requested. At most
 * `maxResponseBytes` of the answer's body are read, then the connection is closed.
 */
export async function deliverWebhook(url: URL, body: string, headers: Readonly<Record<string, string>>, options: DeliveryOptions): Promise<DeliveryResult> {
  try {
    checkWebhookUrl(url.href, options);
  } catch (error) {
    return { ok: false, error: messageOf(error) };
  }
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const lowerCased = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  return new Promise<DeliveryResult>((resolve) => {
    let request: http.ClientRequest | undefined;
    let answered: DeliveryResult | undefined;
    let settled = false;
    const finish = (result: DeliveryResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request?.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => finish(answered ?? { ok: false, error: `no answer within ${options.timeoutMs} ms` }), options.timeoutMs);
    try {
      request = (url.protocol === 'https:' ? https : http).request({
        protocol: url.protocol,
        hostname: bareHost(url.hostname),
        port: url.port === '' ? undefined : Number(url.port),
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: { 'user-agent': WEBHOOK_USER_AGENT, ...lowerCased, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
        agent: false, // a connection of its own: never a pooled socket opened without this lookup
        lookup: guardedLookup(options.lookup ?? dns.promises.lookup, options.allowPrivate),
      });
    } catch (error) {
      finish({ ok: false, error: messageOf(error) });
      return;
    }
    request.on('error', (error) => finish(answered ?? { ok: false, error: messageOf(error) }));
    request.on('response', (response) => {
      answered = outcomeOf(response.statusCode ?? 0);
      const outcome = answered;
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read >= maxResponseBytes) finish(outcome);
      });
      response.on('end', () => finish(outcome));
      response.on('error', () => finish(outcome));
      response.on('close', () => finish(outcome));
    });
    request.end(body);
  });
}

function outcomeOf(status: number): DeliveryResult {
  if (status >= 200 && status < 300) return { ok: true, status };
  if (status >= 300 && status < 400) return { ok: false, status, error: `redirect not followed (HTTP ${status}): its location was not requested` };
  return { ok: false, status, error: `the receiver answered HTTP ${status}` };
}

/**
 * A lookup for node's connect step that resolves every address of the host with `lookup` and fails with a
 * WebhookUrlError if any is refused, so the socket only ever connects to an address that was checked.
 */
function guardedLookup(lookup: HostLookup, allowPrivate: boolean): net.LookupFunction {
  return (hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 'IPv4' ? 4 : options.family === 6 || options.family === 'IPv6' ? 6 : 0;
    resolveAll(lookup, hostname)
      .then((all) => {
        refuseBlocked(all.map((a) => a.address), allowPrivate);
        const addresses = wanted === 0 ? all : all.filter((a) => a.family === wanted);
        if (addresses.length === 0) throw new WebhookUrlError(`webhook URL host ${hostname} has no IPv${wanted} address`, 'resolution');
        return addresses;
      })
      .then(
        (addresses) => (options.all ? callback(null, addresses) : callback(null, addresses[0]!.address, addresses[0]!.family)),
        (error: NodeJS.ErrnoException) => callback(error, []),
      );
  };
}

async function resolveAll(lookup: HostLookup, host: string): Promise<dns.LookupAddress[]> {
  let addresses: dns.LookupAddress[];
  try {
    addresses = await lookup(host, { all: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new WebhookUrlError(`webhook URL host ${host} does not resolve${code ? ` (${code})` : ''}`, 'resolution');
  }
  if (addresses.length === 0) throw new WebhookUrlError(`webhook URL host ${host} does not resolve`, 'resolution');
  return addresses;
}

/** Throws a WebhookUrlError for the first refused address. */
function refuseBlocked(addresses: readonly string[], allowPrivate: boolean): void {
  for (const address of addresses) {
    const range = refusedRange(address, allowPrivate);
    if (range !== undefined) throw new WebhookUrlError(`webhook URL resolves to ${range} address (${address})`, 'address');
  }
}

// ---- address ranges ----

interface Ip {
  readonly family: 4 | 6;
  readonly value: bigint;
}

interface Range {
  /** With its article, as a message says it: "a loopback", "an unspecified". */
  readonly name: string;
  /** Allowed when private addresses are. */
  readonly privateUse: boolean;
  readonly cidrs: readonly string[];
}

/** The first range that contains an address names it (the metadata addresses before link-local and private). */
const RANGES: readonly (Range & { readonly nets: readonly (Ip & { readonly prefix: number })[] })[] = (
  [
    { name: 'a cloud metadata', privateUse: false, cidrs: ['169.254.169.254/32', '100.100.100.200/32', '192.0.0.192/32', 'fd00:ec2::254/128'] },
    { name: 'an unspecified', privateUse: false, cidrs: ['0.0.0.0/8', '::/128'] },
    { name: 'a loopback', privateUse: true, cidrs: ['127.0.0.0/8', '::1/128'] },
    { name: 'a private', privateUse: true, cidrs: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'] },
    { name: 'a link-local', privateUse: false, cidrs: ['169.254.0.0/16', 'fe80::/10'] },
    { name: 'a carrier-grade NAT', privateUse: false, cidrs: ['100.64.0.0/10'] },
    { name: 'a multicast', privateUse: false, cidrs: ['224.0.0.0/4', 'ff00::/8'] },
    { name: 'a broadcast', privateUse: false, cidrs: ['255.255.255.255/32'] },
    {
      name: 'a reserved',
      privateUse: false,
      // IETF protocol assignments, documentation, benchmarking, 6to4 relays, class E; IPv6: discard-only, IETF
      // protocol assignments (Teredo, ORCHID, benchmarking), documentation, 6to4, local-use NAT64, site-local
      cidrs: ['192.0.0.0/24', '192.0.2.0/24', '192.88.99.0/24', '198.18.0.0/15', '198.51.100.0/24', '203.0.113.0/24', '240.0.0.0/4',
        '100::/64', '2001::/23', '2001:db8::/32', '2002::/16', '3fff::/20', '64:ff9b:1::/48', 'fec0::/10'],
    },
  ] satisfies Range[]
).map((range) => ({ ...range, nets: range.cidrs.map(parseCidr) }));

const IPV4_MAPPED = parseCidr('::ffff:0:0/96');
const NAT64 = parseCidr('64:ff9b::/96');
const GLOBAL_UNICAST = parseCidr('2000::/3');

/** The refused range an address is in ("a loopback"), or undefined when it may be connected to. */
function refusedRange(address: string, allowPrivate: boolean): string | undefined {
  const ip = parseIp(address);
  if (ip === undefined) return 'a malformed';
  // an IPv6 form of an IPv4 address is judged by the IPv4 address
  const judged = contains(IPV4_MAPPED, ip) || contains(NAT64, ip) ? { family: 4 as const, value: ip.value & 0xffffffffn } : ip;
  const range = RANGES.find((r) => r.nets.some((n) => contains(n, judged)));
  if (range !== undefined) return allowPrivate && range.privateUse ? undefined : range.name;
  if (judged.family === 6 && !contains(GLOBAL_UNICAST, judged)) return 'a reserved';
  return undefined;
}

function contains(network: Ip & { readonly prefix: number }, ip: Ip): boolean {
  if (network.family !== ip.family) return false;
  const shift = BigInt((network.family === 4 ? 32 : 128) - network.prefix);
  return network.value >> shift === ip.value >> shift;
}

function parseCidr(cidr: string): Ip & { readonly prefix: number } {
  const [address = '', prefix = ''] = cidr.split('/');
  const ip = parseIp(address);
  if (ip === undefined || !/^[0-9]{1,3}$/.test(prefix)) throw new Error(`bad CIDR ${cidr}`);
  return { ...ip, prefix: Number(prefix) };
}

/** An IPv4 or IPv6 address (brackets and zone dropped) as a number, or undefined if it is none. */
function parseIp(raw: string): Ip | undefined {
  const text = bareHost(raw).replace(/%.*$/, '').toLowerCase();
  const v4 = ipv4Value(text);
  if (v4 !== undefined) return { family: 4, value: v4 };
  if (!/^[0-9a-f:.]+$/.test(text) || !text.includes(':')) return undefined;
  let hex = text;
  const tail = text.slice(text.lastIndexOf(':') + 1);
  if (tail.includes('.')) {
    // an embedded IPv4 tail (::ffff:1.2.3.4) becomes two groups
    const embedded = ipv4Value(tail);
    if (embedded === undefined) return undefined;
    hex = `${text.slice(0, text.length - tail.length)}${(embedded >> 16n).toString(16)}:${(embedded & 0xffffn).toString(16)}`;
  }
  const halves = hex.split('::');
  if (halves.length > 2) return undefined;
  const groupsOf = (part: string | undefined): string[] => (part ? part.split(':') : []);
  const head = groupsOf(halves[0]);
  const rest = groupsOf(halves[1]);
  const missing = 8 - head.length - rest.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const groups = [...head, ...new Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return undefined;
  return { family: 6, value: groups.reduce((value, g) => (value << 16n) | BigInt(`0x${g}`), 0n) };
}

function ipv4Value(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^(0|[1-9][0-9]{0,2})$/.test(p) && Number(p) <= 255)) return undefined;
  return parts.reduce((value, p) => (value << 8n) | BigInt(p), 0n);
}

/** A URL's hostname without the brackets of an IPv6 literal. */
function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
