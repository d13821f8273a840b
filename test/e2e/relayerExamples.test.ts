/**
 * The gasless relayer's examples of openapi.yaml (what the staging mock answers to GET /v1/relayer/quote,
 * POST /v1/relayer/relay, POST /v1/advanced/relay and GET /v1/relayer/status/{taskId}) are the service's real answers
 * on the sandbox: mocks/relayerScenarios.ts asks, signs, relays and follows, and records them. Here they are recorded
 * again and each answer must (a) conform to the contract, (b) have its scenario's status, and (c) equal the example
 * of openapi.yaml of the same name (its `value` and its `x-request`), once what varies between two recordings
 * (hashes, the signed deadline and the nonce drawn from it, signatures) is replaced by placeholders
 * (normalizeDevnetAnswer).
 */
import fs from 'node:fs';
import yaml from 'js-yaml';
import type { Response } from 'supertest';
import { normalizeDevnetAnswer, type DevnetRecordedAnswer } from '../../mocks/devnetScenarios';
import { recordRelayerScenarios, RELAYER_SCENARIO_NAMES } from '../../mocks/relayerScenarios';
import { contractValidator, OPENAPI_PATH } from '../support/contract';

jest.setTimeout(120_000);

const EXPECTED_STATUS: Readonly<Record<string, number>> = {
  'getRelayerQuote.usdcToWeth': 200,
  'relayTransaction.accepted': 200,
  'relayTransaction.relayedAlready': 409,
  'relayAdvanced.accepted': 200,
  'getRelayerStatus.done': 200,
};
const IDS = Object.keys(EXPECTED_STATUS);

interface Example {
  readonly value?: unknown;
  readonly 'x-request'?: unknown;
}
const contractExamples = (): Record<string, Example> =>
  ((yaml.load(fs.readFileSync(OPENAPI_PATH, 'utf8')) as { components?: { examples?: Record<string, Example> } }).components?.examples ?? {});

let recorded: DevnetRecordedAnswer[] = [];
beforeAll(async () => {
  recorded = await recordRelayerScenarios();
}, 120_000);

const answerOf = (id: string): DevnetRecordedAnswer => {
  const answer = recorded.find((a) => `${a.scenario.operationId}.${a.scenario.name}` === id);
  if (!answer) throw new Error(`scenario ${id} was not recorded`);
  return answer;
};

test('every scenario is recorded once, in a fixed order', () => {
  expect(recorded.map((a) => `${a.scenario.operationId}.${a.scenario.name}`)).toEqual(IDS);
  expect(Object.entries(RELAYER_SCENARIO_NAMES).flatMap(([op, names]) => names.map((n) => `${op}.${n}`))).toEqual(IDS);
});

describe.each(IDS)('%s', (id) => {
  test('conforms to the contract, with its scenario\'s status', async () => {
    const contract = await contractValidator();
    const a = answerOf(id);
    expect(a.status).toBe(EXPECTED_STATUS[id]);
    contract.expectResponse(a.scenario.operationId, { status: a.status, body: a.body, headers: a.headers } as unknown as Response);
  });

  test('is the example of openapi.yaml of that name (npm run mock:examples writes them)', () => {
    const example = contractExamples()[id];
    expect(example).toBeDefined();
    const a = answerOf(id);
    expect(normalizeDevnetAnswer(a.body)).toEqual(normalizeDevnetAnswer(example.value));
    expect(normalizeDevnetAnswer(a.request)).toEqual(normalizeDevnetAnswer(example['x-request']));
  });
});

test('the relayed step\'s signed messages and the task are what the names say', () => {
  const quote = answerOf('getRelayerQuote.usdcToWeth').body as { data: { typedData: { primaryType: string }[]; transactionRequest?: unknown } };
  expect(quote.data.typedData.map((t) => t.primaryType)).toEqual(['Permit', 'PermitWitnessTransferFrom']);
  expect(quote.data.transactionRequest).toBeUndefined();
  const accepted = answerOf('relayTransaction.accepted').body as { data: { taskId: string } };
  expect((answerOf('relayTransaction.relayedAlready').body as { message: string }).message).toContain(accepted.data.taskId);
  expect(answerOf('getRelayerStatus.done').body).toMatchObject({ status: 'ok', data: { status: 'DONE', metadata: { chainId: 42161 } } });
});
