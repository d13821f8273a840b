/**
 * Typed domain errors. The core raises these; the server maps each class to an HTTP status and
 * a stable error code through one table (src/server/httpErrors.ts), never by message text.
 */

/** Stable error codes of the public contract (shared with the ecosystem's clients). */
export const ErrorCode = {
  DefaultError: 1000,
  FailedToBuildTransactionError: 1001,
  NoQuoteError: 1002,
  NotFoundError: 1003,
  NotProcessableError: 1004,
  RateLimitError: 1005,
  ServerError: 1006,
  SlippageError: 1007,
  ThirdPartyError: 1008,
  TimeoutError: 1009,
  UnauthorizedError: 1010,
  ValidationError: 1011,
  RpcFailure: 1012,
  MalformedSchema: 1013,
} as const;
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/**
 * A domain error is an expected outcome (no route, unknown token, invalid request...), answered by its class
 * and message, never logged with a stack.
 */
export abstract class DomainError extends Error {
  abstract readonly code: ErrorCodeValue;
  /** Structured details returned to the client under `errors`. */
  readonly details?: unknown;
  constructor(message: string, details?: unknown) {
    super(message);
    this.name = new.target.name;
    this.details = details;
  }
}

/**
 * One problem of a request, under `details.issues` of an InvalidRequestError: the field by its logical name (a
 * parameter's name, or a JSON pointer for a field inside a body), the rule it breaks and what is wrong. Where the
 * field is (query, path or body) is the HTTP layer's to say (src/server/httpErrors.ts, locateField).
 */
export interface RequestIssue {
  readonly name: string;
  readonly rule: string;
  readonly message: string;
}

/** A request that is well-formed for the contract but names something invalid (e.g. an unknown chain). */
export class InvalidRequestError extends DomainError {
  readonly code = ErrorCode.ValidationError;
}

/** The request needs an API key it did not present (or one the caller is not known by). */
export class UnauthorizedError extends DomainError {
  readonly code = ErrorCode.UnauthorizedError;
}

/** The caller is known but may not have what it asks for (another integrator's data...). */
export class ForbiddenError extends DomainError {
  readonly code = ErrorCode.UnauthorizedError;
}

/** A feature this deployment does not run (it needs a part that is not configured: a database...). */
export class NotConfiguredError extends DomainError {
  readonly code = ErrorCode.DefaultError;
}

/** The caller holds as many long-lived connections (event streams) as it may: it closes one, or retries later. */
export class TooManyConnectionsError extends DomainError {
  readonly code = ErrorCode.RateLimitError;
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** This instance serves as many long-lived connections as it may: the client retries later (or on another instance). */
export class OverloadedError extends DomainError {
  readonly code = ErrorCode.ServerError;
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** A resource (token, integrator...) that does not exist. */
export class NotFoundError extends DomainError {
  readonly code = ErrorCode.NotFoundError;
}

/** The operation exists in the contract but is not available in this build yet. */
export class NotImplementedError extends DomainError {
  readonly code = ErrorCode.DefaultError;
  constructor(operationId: string) {
    super(`not implemented: ${operationId} is not available on this server yet`);
  }
}

/** No route satisfies the request; `details` carries `filteredOut` and `failed` with the reason for each candidate. */
export class NoRouteError extends DomainError {
  readonly code = ErrorCode.NoQuoteError;
  /** The search was bounded by timing strategies: another run may find a route (the answer is not cached). */
  readonly dependsOnTiming: boolean;
  constructor(message: string, details?: unknown, options: { dependsOnTiming?: boolean } = {}) {
    super(message, details);
    this.dependsOnTiming = options.dependsOnTiming ?? false;
  }
}

/**
 * The request is well-formed but cannot be carried out as it stands (a signature relayed already, a step whose price
 * moved since it was quoted): the client asks for a new quote rather than sending it again.
 */
export class ConflictError extends DomainError {
  readonly code = ErrorCode.NotProcessableError;
}

/** A re-priced step would return less than its toAmountMin: the price moved past the slippage (request new routes). */
export class SlippageMovedError extends DomainError {
  readonly code = ErrorCode.SlippageError;
}
