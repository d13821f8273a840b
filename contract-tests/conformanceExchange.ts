/**
 * One request of the conformance run through a Prism proxy, and the judgement of what comes back: Prism's violations
 * (its sl-violations header, or the body of its error when the header's list was cut), the status against the
 * expected one, and the findings tolerated (Prism's int64 range).
 */
import type { WireRequest } from '../test/support/fuzzModel';
import type { Started } from '../test/support/processes';

interface Violation {
  location: string[];
  code?: string | number;
  message: string;
  severity?: string;
}

export interface Exchange {
  name: string;
  operationId: string;
  proxy: 'strict' | 'lenient';
  request: { method: string; url: string; headers: Record<string, string>; body?: string };
  expected?: number;
  status: number;
  violations: Violation[];
  problems: string[];
  /** Tolerated findings (Prism's int64 range). */
  notes: string[];
}

/**
 * Prism (@stoplight/http-spec) reads `format: int64` as the JavaScript-safe range ±(2^53 − 1), so it
 * flags Sui's chain id 9270000000000000: a valid int64, exactly representable in JSON and in a double,
 * and accepted by the contract's own validator (ajv-formats). Counted and printed, not a violation.
 */
export function isPrismInt64Bound(v: Violation): boolean {
  return /must be [<>]= -?9007199254740991$/.test(v.message);
}

export interface Answer {
  status: number;
  contentType: string;
  violations: Violation[];
  tooMany: boolean;
  body: string;
  /** Why there is no answer (the connection failed). */
  failure?: string;
  /** Prism's list of violations was truncated and could not be had otherwise. */
  unjudged?: boolean;
}

export function isViolationsProblem(answer: Answer): boolean {
  return answer.contentType.startsWith('application/problem+json') && answer.body.includes('prism/errors#VIOLATIONS');
}

/** Sends a request through a proxy; the answer with Prism's violations of the contract (none when it has no answer). */
export async function exchange(proxy: Started, req: WireRequest): Promise<Answer> {
  let res: Response;
  try {
    res = await fetch(`${proxy.url}${req.url}`, {
      method: req.method,
      headers: req.headers,
      ...(req.body !== undefined ? { body: req.body } : {}),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    const cause = (error as { cause?: { message?: string; code?: string } }).cause;
    return { status: 0, contentType: '', violations: [], tooMany: false, body: '', failure: `no answer: ${(error as Error).message}${cause ? ` (${cause.code ?? ''} ${cause.message ?? ''})` : ''}` };
  }
  const body = await res.text();
  const header = res.headers.get('sl-violations');
  const contentType = res.headers.get('content-type') ?? '';
  let violations: Violation[] = [];
  let tooMany = false;
  if (header) {
    if (header.startsWith('Too many violations!')) tooMany = true;
    else violations = JSON.parse(header) as Violation[];
  }
  // with --errors, the answer's violations are also in the body of Prism's error, never truncated
  if (tooMany && contentType.startsWith('application/problem+json')) {
    const listed = (JSON.parse(body) as { validation?: Violation[] }).validation;
    if (Array.isArray(listed) && listed.every((v) => Array.isArray(v.location))) {
      violations = listed;
      tooMany = false;
    }
  }
  return { status: res.status, contentType, violations, tooMany, body };
}

/** The problems (and tolerated notes) of an answer: its violations, its status against `expected`, Prism's own answers. */
/** The transport's refusals the contract declares once, in info.description's "Errors". */
const TRANSPORT_STATUSES = new Set([413, 414, 415, 431]);

export function judge(name: string, operationId: string, proxy: 'strict' | 'lenient', req: WireRequest, answer: Answer, expected?: number, meantValid = false): Exchange {
  const problems: string[] = [];
  const notes: string[] = [];
  if (answer.failure) problems.push(answer.failure);
  const int64 = answer.violations.filter((v) => v.location[0] === 'response' && isPrismInt64Bound(v));
  if (int64.length > 0) notes.push(`${int64.length} chain id(s) beyond 2^53 − 1 that Prism flags as int64 (e.g. ${int64[0]!.location.join('.')})`);
  // the transport's refusals (a body over the limit, a URL over the limit, a body in another charset, a head too
  // large) come before any operation and are declared once, in the contract's "Errors" (info.description), not per
  // operation: Prism's "Unable to match the returned status code" for them is not a violation
  const transport = TRANSPORT_STATUSES.has(answer.status);
  const undeclaredTransport = (v: Violation) => transport && v.message.startsWith('Unable to match the returned status code');
  if (transport && answer.violations.some(undeclaredTransport)) notes.push(`${answer.status}: a transport refusal the contract declares in its "Errors"`);
  const ofAnswer = answer.violations.filter((v) => v.location[0] === 'response' && !isPrismInt64Bound(v) && !undeclaredTransport(v));
  const onlyInt64 = proxy === 'strict' && ofAnswer.length === 0 && int64.length > 0;
  const ofRequest = answer.violations.filter((v) => v.location[0] === 'request');
  if (ofAnswer.length > 0) problems.push(`the answer breaks the contract: ${ofAnswer.map((v) => `${v.location.join('.')} ${v.message}`).join(' | ')}`);
  if (answer.unjudged) {
    notes.push("unjudged: Prism's list of violations did not fit its header and the request breaks the contract");
    return { name, operationId, proxy, request: req, ...(expected !== undefined ? { expected } : {}), status: answer.status, violations: [], problems, notes };
  }
  if (onlyInt64) return { name, operationId, proxy, request: req, ...(expected !== undefined ? { expected } : {}), status: answer.status, violations: answer.violations, problems, notes };
  if (answer.contentType.startsWith('application/problem+json')) problems.push(`Prism answered itself (${answer.status}): ${answer.body.slice(0, 300)}`);
  if (proxy === 'strict' && ofRequest.length > 0) problems.push(`Prism finds the request invalid: ${ofRequest.map((v) => `${v.location.join('.')} ${v.message}`).join(' | ')}`);
  if (answer.status >= 500) problems.push(`server error ${answer.status}`);
  if (expected !== undefined && answer.status !== expected) problems.push(`answered ${answer.status}, expected ${expected}: ${answer.body.slice(0, 200)}`);
  if (proxy === 'lenient' && meantValid && ofRequest.length > 0) problems.push(`Prism finds the request invalid: ${ofRequest.map((v) => `${v.location.join('.')} ${v.message}`).join(' | ')}`);
  if (proxy === 'lenient' && !meantValid && expected !== undefined && ofRequest.length === 0) problems.push('the request was meant to break the contract, but Prism reports no violation of it');
  return { name, operationId, proxy, request: req, ...(expected !== undefined ? { expected } : {}), status: answer.status, violations: answer.violations, problems, notes };
}
