/**
 * The explorer: a page per transfer, served by the service outside /v1 (mounted at /explorer by app.ts, like the
 * portal and the docs: not the API's keys and rate limits, a limit of its own):
 *
 * - `GET /explorer/tx/:ref`: the transfer of a sending transaction hash (EVM: 0x and 64 hex digits; Solana: a
 *   signature) or a transfer id (0x and 64 hex digits), server-rendered (explorerPage.ts): 200 with what happened on
 *   each chain; 404 "not found yet" for a reference nothing knows (a transaction sent a moment ago may not be seen
 *   yet); 400 for a malformed reference, naming the rule; 429 past the per-client limit (a page may read the chains);
 *   503 when the chains could not be read. 400 and 429 answer the API's `{ message, code }` to a client that prefers
 *   JSON. Pages of a transfer that may still change (and the 404 and 503 pages) are live: they load the page script;
 * - `GET /explorer/explorer.js` and `/explorer/explorer.css`: the page's script (explorerScript.ts) and stylesheet.
 *
 * The look-up: the transfer index first (a final transfer is answered from it, as GET /v1/status does), then the
 * chains through the use case of GET /v1/status; the index's state stands in when the chains know nothing of the
 * transfer or cannot be read. Every page has its own Content-Security-Policy (its own script and stylesheet, its own
 * origin to connect to, never framed), `X-Content-Type-Options: nosniff` and `Referrer-Policy: no-referrer`.
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import { ErrorCode } from '../core/errors';
import { clientAddress, clientLimitId, type TrustProxy } from '../core/access/ipAddress';
import { isSolanaSignature } from '../core/status/solana';
import { isFinal, type TransferStatus } from '../core/status/transferStatus';
import { transferStatus } from '../usecases/status';
import { AttemptLimiter } from '../portal/attempts';
import type { Dependencies } from './dependencies';
import { EXPLORER_CSP, EXPLORER_CSS, notFoundPage, refusalPage, transferPage, unavailablePage } from './explorerPage';
import { EXPLORER_SCRIPT } from './explorerScript';

/** Pages a client address may open per minute (each may read the chains). */
export const EXPLORER_PAGES_PER_MINUTE = 60;

/** The rule a reference must follow (the 400's message names it). */
export const REFERENCE_RULE =
  'a transfer is named by its sending transaction hash or its transfer id (0x and 64 hexadecimal digits), or by a Solana transaction signature (base58 of 64 bytes)';

const HEX_32_BYTES = /^0x[0-9a-fA-F]{64}$/;

export interface ExplorerOptions {
  /** The catalog (chain names and explorers, tools), the chains' tracker and the transfer index; read on each request. */
  readonly dependencies: Pick<Dependencies, 'catalog' | 'transfers' | 'history'>;
  /** How a client's address is read for the limit (default: the connection's; TRUST_PROXY's setting). */
  readonly trustProxy?: TrustProxy;
  /** Pages per client address and minute (default 60). */
  readonly pagesPerMinute?: number;
  /** Unix ms (default Date.now): the limit's windows. */
  readonly clock?: () => number;
}

/** Whether `ref` names a transfer the explorer can look up (see REFERENCE_RULE). */
export function isTransferReference(ref: string): boolean {
  return HEX_32_BYTES.test(ref) || isSolanaSignature(ref);
}

export function explorerRouter(options: ExplorerOptions): express.Router {
  const { dependencies } = options;
  const trustProxy: TrustProxy = options.trustProxy ?? { kind: 'none' };
  const pages = new AttemptLimiter({ perMinute: options.pagesPerMinute ?? EXPLORER_PAGES_PER_MINUTE, ...(options.clock ? { clock: options.clock } : {}) });
  const router = express.Router();

  router.get('/explorer.js', (_req: Request, res: Response) => {
    res.type('application/javascript; charset=utf-8').set({ 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' }).send(EXPLORER_SCRIPT);
  });
  router.get('/explorer.css', (_req: Request, res: Response) => {
    res.type('text/css; charset=utf-8').set({ 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' }).send(EXPLORER_CSS);
  });

  /** Counts a page of the client: 429 past the limit. */
  const limited = (req: Request, res: Response, next: NextFunction) => {
    const attempt = pages.attempt(clientLimitId(clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], trustProxy)));
    if (attempt.allowed) return next();
    res.set('retry-after', String(attempt.retryAfterSeconds));
    refuse(req, res, 429, ErrorCode.RateLimitError, 'Too many pages', `Too many explorer pages from this address: at most ${pages.perMinute} a minute; try again in ${attempt.retryAfterSeconds} s`);
  };

  router.get(['/tx', '/tx/'], limited, (req: Request, res: Response) => {
    refuse(req, res, 400, ErrorCode.ValidationError, 'Invalid transfer reference', `Invalid transfer reference: none was given: ${REFERENCE_RULE}`);
  });

  router.get('/tx/:ref', limited, async (req: Request, res: Response) => {
    const ref = String(req.params.ref);
    if (!isTransferReference(ref)) {
      refuse(req, res, 400, ErrorCode.ValidationError, 'Invalid transfer reference', `Invalid transfer reference "${ref.slice(0, 100)}": ${REFERENCE_RULE}`);
      return;
    }
    const found = await lookUp(dependencies, ref);
    if (found.kind === 'unavailable') {
      req.log.warn({ err: { message: found.error.message }, ref }, 'explorer: the chains could not be read');
      res.set('retry-after', '5');
      page(res, 503, unavailablePage(ref), false);
      return;
    }
    const { status, notice } = found;
    if (status.status === 'NOT_FOUND') {
      page(res, 404, notFoundPage(ref, status.substatusMessage), false);
      return;
    }
    page(res, 200, transferPage(ref, status, dependencies.catalog, notice ? { notice } : {}), isFinal(status.status));
  });

  return router;
}

/** What the look-up of a reference found: a status (with a note on where it came from), or a failure of the chains. */
type Found = { readonly kind: 'status'; readonly status: TransferStatus; readonly notice?: string } | { readonly kind: 'unavailable'; readonly error: Error };

/**
 * The index first (a final transfer never changes: answered from it), then the chains as GET /v1/status reads them;
 * the index's state when the chains know nothing of the transfer or fail.
 */
async function lookUp(dependencies: ExplorerOptions['dependencies'], ref: string): Promise<Found> {
  const indexed = dependencies.history ? await dependencies.history.find(ref).catch(() => undefined) : undefined;
  if (indexed && isFinal(indexed.status)) return { kind: 'status', status: indexed };
  let read: TransferStatus;
  try {
    read = await transferStatus(dependencies, { txHash: ref });
  } catch (error) {
    if (indexed) return { kind: 'status', status: indexed, notice: 'The chains could not be read just now: this is the state the index last saw.' };
    return { kind: 'unavailable', error: error instanceof Error ? error : new Error(String(error)) };
  }
  if (read.status === 'NOT_FOUND' && indexed) return { kind: 'status', status: indexed, notice: 'The connected chains do not show this transfer just now: this is the state the index last saw.' };
  return { kind: 'status', status: read };
}

/** Sends a page with the explorer's headers; a final transfer's page may be kept a minute, any other never. */
function page(res: Response, status: number, body: string, final: boolean): void {
  res
    .status(status)
    .set({
      'content-security-policy': EXPLORER_CSP,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'DENY',
      'cache-control': final ? 'public, max-age=60' : 'no-store',
    })
    .type('html')
    .send(body);
}

/** A refusal: the API's error body to a client that prefers JSON, a page otherwise. */
function refuse(req: Request, res: Response, status: number, code: number, title: string, message: string): void {
  if (req.accepts(['html', 'json']) === 'json') {
    res.status(status).set({ 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' }).json({ message, code });
    return;
  }
  page(res, status, refusalPage(title, message), false);
}
