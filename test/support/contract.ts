import path from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { OpenAPIBackend, SetMatchType } from 'openapi-backend';
import { loadContract } from '../../src/server/contract';
import type { Response } from 'supertest';

export const OPENAPI_PATH = path.resolve(__dirname, '..', '..', 'openapi.yaml');

export interface ContractValidator {
  /** Fails unless the status is declared for the operation and body and headers match their schemas. */
  expectResponse(operationId: string, response: Response): void;
  /**
   * Fails unless an event stream answer (text/event-stream) is declared for the operation with its headers, and each
   * event's data is a value of the schema `dataSchema` (a components.schemas name).
   */
  expectEventStream(operationId: string, answer: { status: number; headers: Record<string, string> }, data: readonly unknown[], dataSchema: string): void;
  /** Fails unless the body is a contract error body (for answers outside any operation: 404 path, 405). */
  expectErrorBody(body: unknown): void;
  /** The operation a request goes to, if any (for answers recorded outside supertest, e.g. a client's fetches). */
  operationIdOf(method: string, path: string): string | undefined;
}

let cached: Promise<ContractValidator> | undefined;

/** Validates real responses against openapi.yaml: Dredd checks only keys, so every HTTP test does this. */
export function contractValidator(): Promise<ContractValidator> {
  cached ??= build();
  return cached;
}

async function build(): Promise<ContractValidator> {
  const api = new OpenAPIBackend({
    definition: loadContract(OPENAPI_PATH),
    strict: false,
    quick: true,
    ajvOpts: { strict: false },
    customizeAjv: (instance) => {
      addFormats(instance);
      return instance;
    },
  });
  await api.init();
  const document = api.definition as unknown as { components: { schemas: Record<string, unknown> } };
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  const errorSchema = ajv.compile(document.components.schemas.Error as object);

  return {
    expectResponse(operationId, response) {
      const operation = api.getOperation(operationId);
      if (!operation) throw new Error(`unknown operationId ${operationId}`);
      const status = String(response.status);
      if (!operation.responses?.[status]) {
        throw new Error(`${operationId} answered ${status}, which the contract does not declare: ${JSON.stringify(response.body)}`);
      }
      const contentType = String(response.headers['content-type'] ?? '');
      if (!contentType.startsWith('application/json')) throw new Error(`${operationId} ${status}: content-type ${contentType}`);
      const body = api.validateResponse(response.body, operationId, response.status);
      if (body.errors && body.errors.length > 0) {
        throw new Error(`${operationId} ${status} body violates the contract: ${JSON.stringify(body.errors.slice(0, 5))}`);
      }
      const headers = api.validateResponseHeaders(response.headers, operationId, { statusCode: response.status, setMatchType: SetMatchType.Superset });
      if (headers.errors && headers.errors.length > 0) {
        throw new Error(`${operationId} ${status} headers violate the contract: ${JSON.stringify(headers.errors.slice(0, 5))}`);
      }
    },
    expectEventStream(operationId, answer, data, dataSchema) {
      const operation = api.getOperation(operationId);
      if (!operation) throw new Error(`unknown operationId ${operationId}`);
      const declared = operation.responses?.[String(answer.status)] as { content?: Record<string, unknown> } | undefined;
      if (!declared?.content?.['text/event-stream']) throw new Error(`${operationId} declares no event stream answer ${answer.status}`);
      if (!String(answer.headers['content-type']).startsWith('text/event-stream')) throw new Error(`${operationId} ${answer.status}: content-type ${answer.headers['content-type']}`);
      const headers = api.validateResponseHeaders(answer.headers, operationId, { statusCode: answer.status, setMatchType: SetMatchType.Superset });
      if (headers.errors && headers.errors.length > 0) throw new Error(`${operationId} ${answer.status} headers violate the contract: ${JSON.stringify(headers.errors.slice(0, 5))}`);
      const validate = ajv.compile(document.components.schemas[dataSchema] as object);
      for (const value of data) {
        if (!validate(value)) throw new Error(`${operationId} event data violates ${dataSchema}: ${JSON.stringify(validate.errors?.slice(0, 5))}`);
      }
    },
    operationIdOf(method, path) {
      return api.router.matchOperation({ method: method.toLowerCase(), path, headers: {}, query: {} })?.operationId;
    },
    expectErrorBody(body) {
      if (!errorSchema(body)) throw new Error(`not a contract error body: ${JSON.stringify(errorSchema.errors)}`);
    },
  };
}

/**
 * The contract's answer to an invalid request (in a jest test): declared for the operation, 400 with code 1011,
 * and a message that matches each of `messages` (what is wrong, and where).
 */
export function expectInvalidRequest(contract: ContractValidator, operationId: string, response: Response, ...messages: RegExp[]): void {
  contract.expectResponse(operationId, response);
  expect(response.status).toBe(400);
  expect(response.body.code).toBe(1011);
  for (const message of messages) expect(response.body.message).toMatch(message);
}
