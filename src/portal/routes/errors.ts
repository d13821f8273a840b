/**
 * The portal API's error answers: PortalError (a status the portal decides), and answerOf, which turns any error (the
 * portal's, the repositories', the core's, the body parser's) into its status and `{ message, code }` body.
 */
import type { Request } from 'express';
import { DomainError, ErrorCode } from '../../core/errors';
import { ConflictError, IntegratorBlockedError, InvalidValueError, isDatabaseUnavailable, NotFoundError } from '../../persistence/errors';
import { domainErrorToHttp, requestRefused } from '../../server/httpErrors';
import type { PortalErrorBody } from '../api';
import { SignInError } from '../siwe';
import { InputError } from '../views';

/** The largest JSON body the portal's API reads. */
export const MAX_BODY_BYTES = 16 * 1024;

/** An answer other than 200, decided by the portal: its status, and the body `{ message, code, errors? }`. */
export class PortalError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly details?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const DATABASE_UNAVAILABLE = 'The portal\'s database is not available right now: try again in a moment';

/** The status and body of an error (at `now`, unix ms): the portal's, the repositories', the core's, the body parser's, or a 500. */
export function answerOf(error: unknown, req: Request, now: number): { status: number; body: PortalErrorBody; headers?: Record<string, string> } {
  if (error instanceof PortalError) return { status: error.status, body: body(error.message, error.code, error.details), ...(error.headers ? { headers: error.headers } : {}) };
  if (error instanceof SignInError) return { status: error.status, body: body(`Sign-in refused: ${error.message}`, error.status === 401 ? ErrorCode.UnauthorizedError : ErrorCode.ValidationError) };
  if (error instanceof InputError) return { status: 400, body: body(error.message, ErrorCode.ValidationError, error.details) };
  if (error instanceof InvalidValueError) return { status: 400, body: body(error.message, ErrorCode.ValidationError) };
  if (error instanceof NotFoundError) return { status: 404, body: body(error.message, ErrorCode.NotFoundError) };
  if (error instanceof ConflictError) return { status: 409, body: body(error.message, ErrorCode.DefaultError) };
  if (error instanceof IntegratorBlockedError) {
    // as /v1 answers a blocked key: 403 code 1010, with Retry-After at the block's end (none for a block until lifted)
    const retryAfter = error.retryAfterSeconds(now);
    return { status: 403, body: body(`Refused: ${error.message}`, ErrorCode.UnauthorizedError), ...(retryAfter === undefined ? {} : { headers: { 'retry-after': String(retryAfter) } }) };
  }
  if (error instanceof DomainError) {
    // the core's errors (fees, withdrawal) with their status and code; their message names what is wrong
    const answer = domainErrorToHttp(error);
    return { status: answer.status, body: body(answer.body.message, answer.body.code) };
  }
  const refused = requestRefused(error, MAX_BODY_BYTES);
  if (refused) return { status: refused.status, body: body(refused.body.message, refused.body.code) };
  // the database stopped answering after it opened: as when it does not come at all (and as /v1 answers)
  if (isDatabaseUnavailable(error)) return { status: 503, body: body(DATABASE_UNAVAILABLE, ErrorCode.ServerError), headers: { 'retry-after': '5' } };
  const requestId = String((req as { id?: unknown }).id ?? 'unknown');
  return { status: 500, body: { message: `Internal server error; quote request id ${requestId} when reporting it`, code: ErrorCode.ServerError } };
}

function body(message: string, code: number, errors?: unknown): PortalErrorBody {
  return errors === undefined ? { message, code } : { message, code, errors };
}
