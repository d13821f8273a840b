/**
 * The listening socket's handler while the service starts: the process listens as soon as its configuration is read
 * (src/main.ts), before it loads the catalog, the liquidity snapshot and the contract's validators (most of a start),
 * so that a client, a load balancer or a supervisor is answered at once instead of refused:
 *
 * - `GET /health` (and HEAD): 200 `{"status":"ok","starting":true}`: the process is alive (liveness);
 * - `GET /ready`: 503 with the one check `service` not passed: not yet to be sent traffic (readiness);
 * - any other request is held, and handed to the service once it serves, in the order it came: it is answered as
 *   it would have been a moment later. At most {@link StartingGateOptions.maxHeld} requests are held, each for at
 *   most {@link StartingGateOptions.holdMs}; a request beyond either is answered 503 with Retry-After.
 *
 * {@link StartingGate.open} hands the socket to the service: from then on every request goes to it, /health and
 * /ready included.
 */
import type http from 'node:http';
import { serviceStarting, type HttpError } from './httpErrors';

export interface StartingGateOptions {
  /** The most requests held at once (default 1,000). */
  readonly maxHeld?: number;
  /** How long a request is held before it is answered 503 (default 30 s: chain mode reads the chains first). */
  readonly holdMs?: number;
}

interface Held {
  readonly req: http.IncomingMessage;
  readonly res: http.ServerResponse;
  readonly timer: NodeJS.Timeout;
}

export class StartingGate {
  private service: http.RequestListener | undefined;
  private readonly held = new Set<Held>();
  private readonly maxHeld: number;
  private readonly holdMs: number;

  constructor(options: StartingGateOptions = {}) {
    this.maxHeld = options.maxHeld ?? 1000;
    this.holdMs = options.holdMs ?? 30_000;
  }

  /** The server's request listener: the service's once open, the gate's until then. */
  readonly listener: http.RequestListener = (req, res) => {
    if (this.service) {
      this.service(req, res);
      return;
    }
    this.whileStarting(req, res);
  };

  /** Whether the service serves. */
  get isOpen(): boolean {
    return this.service !== undefined;
  }

  /** How many requests wait for the service. */
  get waiting(): number {
    return this.held.size;
  }

  /** Hands the socket to `service`, and the requests held to it, in the order they came. */
  open(service: http.RequestListener): void {
    if (this.service) throw new Error('the starting gate is already open');
    this.service = service;
    const held = [...this.held];
    this.held.clear();
    for (const { req, res, timer } of held) {
      clearTimeout(timer);
      // a client that left meanwhile is not served
      if (!req.destroyed && !res.writableEnded) service(req, res);
    }
  }

  private whileStarting(req: http.IncomingMessage, res: http.ServerResponse): void {
    const path = (req.url ?? '/').split('?')[0];
    const method = req.method ?? 'GET';
    if (path === '/health' && (method === 'GET' || method === 'HEAD')) {
      writeJson(res, 200, { status: 'ok', starting: true, uptimeSeconds: Math.round(process.uptime()) });
      return;
    }
    if (path === '/ready' && (method === 'GET' || method === 'HEAD')) {
      writeJson(res, 503, { status: 'not ready', checks: [{ name: 'service', ok: false, detail: 'starting: loading the catalog, the liquidity and the contract' }] });
      return;
    }
    if (this.held.size >= this.maxHeld) {
      writeError(res, serviceStarting(`${this.maxHeld} requests already wait for it`));
      return;
    }
    const entry: Held = {
      req,
      res,
      timer: setTimeout(() => {
        this.held.delete(entry);
        writeError(res, serviceStarting(`not within ${this.holdMs} ms`));
      }, this.holdMs),
    };
    this.held.add(entry);
    // a client that leaves is forgotten at once (its place is free for another)
    res.once('close', () => {
      if (this.held.delete(entry)) clearTimeout(entry.timer);
    });
  }
}

/**
 * Lets the event loop turn a few times (its I/O included) before going on: the steps of a start are synchronous, and
 * the gate answers only between them. One turn is not enough: a connection is accepted in one, its request read in
 * the next, and answered in that one.
 */
export async function nextTurn(turns = 3): Promise<void> {
  for (let k = 0; k < turns; k++) await new Promise((resolve) => setImmediate(resolve));
}

function writeJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store', ...headers });
  res.end(res.req?.method === 'HEAD' ? undefined : text);
}

function writeError(res: http.ServerResponse, error: HttpError): void {
  if (res.headersSent || res.writableEnded) return;
  writeJson(res, error.status, error.body, error.headers);
}
