/**
 * Keeps a test on the loopback interface: every request through the global `fetch` (the LI.FI SDK's API calls,
 * viem's HTTP transport) is recorded with its URL, and every TCP connection this process opens (node:http, https,
 * undici, WebSocket clients...) is checked at `net.Socket#connect`. A request or connection to any other host than
 * 127.0.0.0/8, ::1 or localhost is refused at once (the request fails, nothing leaves the machine) and recorded as a
 * violation for the test to assert on.
 */
import net from 'node:net';

export interface RecordedRequest {
  readonly method: string;
  readonly url: URL;
}

export interface LoopbackGuard {
  /** Every request made through fetch since install, in order (refused ones included). */
  readonly requests: readonly RecordedRequest[];
  /** Every refused request or connection: `fetch <url>` or `connect <host>:<port>`. */
  readonly violations: readonly string[];
  /**
   * Ends network use from this test environment: fetch never settles any more (a client still polling after its
   * test then waits without holding a timer or a socket), and net.Socket#connect is restored.
   */
  close(): void;
}

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || h === '0:0:0:0:0:0:0:1' || /^127(\.\d{1,3}){3}$/.test(h) || /^::ffff:127(\.\d{1,3}){3}$/.test(h);
}

/** Where a net.Socket#connect call goes: a host and port, or an IPC path (not a network connection). */
function connectTarget(args: unknown[]): { host: string; port: unknown } | undefined {
  // net.connect() hands its normalised arguments over as one array
  const first = Array.isArray(args[0]) ? (args[0] as unknown[])[0] : args[0];
  if (typeof first === 'object' && first !== null) {
    const options = first as { host?: string; port?: unknown; path?: string };
    if (options.path !== undefined) return undefined;
    return { host: options.host ?? 'localhost', port: options.port };
  }
  if (typeof first === 'string' && !/^\d+$/.test(first)) return undefined;
  return { host: typeof args[1] === 'string' ? args[1] : 'localhost', port: first };
}

/**
 * Installs the guard on `globalThis.fetch` and `net.Socket.prototype.connect`. `observe` sees every answer of an
 * allowed request (a clone: reading it does not consume the caller's body).
 */
export function guardLoopback(options: { observe?: (request: RecordedRequest, response: Response) => void | Promise<void> } = {}): LoopbackGuard {
  const requests: RecordedRequest[] = [];
  const violations: string[] = [];
  const originalFetch = globalThis.fetch;
  const originalConnect = net.Socket.prototype.connect;
  let closed = false;

  const guardedFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    if (closed) return new Promise<Response>(() => {});
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const request = { method, url };
    requests.push(request);
    if (!isLoopbackHost(url.hostname)) {
      violations.push(`fetch ${url.href}`);
      throw new TypeError(`loopback guard: refused a request to ${url.host} (${url.href})`);
    }
    const response = await originalFetch(input, init);
    await options.observe?.(request, response.clone());
    return response;
  };
  globalThis.fetch = guardedFetch as typeof fetch;

  net.Socket.prototype.connect = function guardedConnect(this: net.Socket, ...args: unknown[]) {
    const target = connectTarget(args);
    if (target && !isLoopbackHost(target.host)) {
      violations.push(`connect ${target.host}:${String(target.port)}`);
      process.nextTick(() => this.destroy(new Error(`loopback guard: refused a connection to ${target.host}:${String(target.port)}`)));
      return this;
    }
    return (originalConnect as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof net.Socket.prototype.connect;

  return {
    requests,
    violations,
    close() {
      closed = true;
      net.Socket.prototype.connect = originalConnect;
    },
  };
}
