import type { operations } from '../src/generated/openapi';
import type { Dependencies } from '../src/server/dependencies';
import type { CachePolicy, EventStreamAnswer, OperationRequest, RawOperationHandler } from '../src/server/operation';
import type { EndpointClass } from '../src/core/access/policy';

/** Handlers are typed from the generated contract by operationId. */
export type OperationId = keyof operations;

type ParametersOf<Op extends OperationId> = operations[Op]['parameters'];
export type QueryOf<Op extends OperationId> = NonNullable<ParametersOf<Op>['query']>;
export type PathOf<Op extends OperationId> = NonNullable<ParametersOf<Op>['path']>;
export type BodyOf<Op extends OperationId> = operations[Op] extends {
  requestBody: { content: { 'application/json': infer B } };
}
  ? B
  : operations[Op] extends { requestBody?: { content: { 'application/json': infer B } } }
    ? B | undefined
    : undefined;

type ResponsesOf<Op extends OperationId> = operations[Op]['responses'];
type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : never;
/** Success responses only: failures are thrown as DomainErrors and mapped in one place. */
type SuccessStatus<Op extends OperationId> = Extract<keyof ResponsesOf<Op>, 200 | 201 | 202>;

export type SuccessResponse<Op extends OperationId> = {
  [S in SuccessStatus<Op>]: { status: S; body: JsonOf<ResponsesOf<Op>[S]>; headers?: Record<string, string>; uncacheable?: boolean };
}[SuccessStatus<Op>];

/**
 * The answers of an operation whose 200 is an event stream (text/event-stream): the stream, or 204 when there is
 * nothing to stream.
 */
type EventStreamResponse<Op extends OperationId> = ResponsesOf<Op> extends { 200: { content: { 'text/event-stream': unknown } } }
  ? { status: 200; body: undefined; stream: EventStreamAnswer } | { status: 204; body: undefined }
  : never;

export interface TypedRequest<Op extends OperationId> extends Omit<OperationRequest, 'query' | 'path' | 'body'> {
  readonly query: QueryOf<Op>;
  readonly path: PathOf<Op>;
  readonly body: BodyOf<Op>;
}

export type OperationHandler<Op extends OperationId> = (
  request: TypedRequest<Op>,
  dependencies: Dependencies,
) => SuccessResponse<Op> | EventStreamResponse<Op> | Promise<SuccessResponse<Op> | EventStreamResponse<Op>>;

/**
 * Erases the operation type once the handler has been checked against it, and declares what the response cache
 * may keep of its answers (src/server/operation.ts, CachePolicy; default none) and the rate-limit class its
 * requests count against (src/core/access/policy.ts, EndpointClass; default the one-minute class).
 */
export function operation<Op extends OperationId>(_operationId: Op, handler: OperationHandler<Op>, options: { cache?: CachePolicy; limit?: EndpointClass } = {}): RawOperationHandler {
  return Object.assign(handler as unknown as RawOperationHandler, { cache: options.cache ?? 'none', limit: options.limit ?? 'minute' });
}
