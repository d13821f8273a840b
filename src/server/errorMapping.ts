import { DomainError, ErrorCode, InvalidRequestError, NoRouteError, NotFoundError, NotImplementedError, SlippageMovedError } from '../core/errors';

/** The wire error body of the contract: `{message, code, errors?, requestId?}`. */
export interface ErrorBody {
  message: string;
  code: number;
  errors?: unknown;
  requestId?: string;
}

export interface HttpError {
  status: number;
  body: ErrorBody;
}

/** One table maps each domain error class to its HTTP status (matched by class, never by message). */
const STATUS_BY_CLASS: ReadonlyArray<[new (...args: never[]) => DomainError, number]> = [
  [InvalidRequestError, 400],
  [NotFoundError, 404],
  [NoRouteError, 404],
  [SlippageMovedError, 409],
  [NotImplementedError, 501],
];

export function domainErrorToHttp(error: DomainError): HttpError {
  const status = STATUS_BY_CLASS.find(([cls]) => error instanceof cls)?.[1] ?? 500;
  const body: ErrorBody = { message: error.message, code: error.code };
  if (error.details !== undefined) body.errors = error.details;
  return { status, body };
}

export function serverError(requestId: string): HttpError {
  return {
    status: 500,
    body: {
      message: `Internal server error; quote request id ${requestId} when reporting it`,
      code: ErrorCode.ServerError,
      requestId,
    },
  };
}
