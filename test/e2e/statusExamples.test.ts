/**
 * The transfer-state examples of openapi.yaml (what the staging mock answers to GET /v1/status and
 * GET /v1/gas/status) are the service's real answers in chain mode on the sandbox devnet: mocks/devnetScenarios.ts
 * sends the transfers and records them. Here they are recorded again and each answer must
 * (a) conform to the contract, (b) be the state its scenario is named after, and (c) equal the example of
 * openapi.yaml of the same name (`components.examples['<operationId>.<name>']`: its `value` and its `x-request`),
 * once what varies between two recordings (hashes, block times) is replaced by placeholders (normalizeDevnetAnswer).
 */
import fs from 'node:fs';
import yaml from 'js-yaml';
import type { Response } from 'supertest';
import { DEVNET_SCENARIO_NAMES, normalizeDevnetAnswer, recordDevnetScenarios, type DevnetRecordedAnswer } from '../../mocks/devnetScenarios';
import { RELAYER_SCENARIO_NAMES } from '../../mocks/relayerScenarios';
import { contractValidator, OPENAPI_PATH } from '../support/contract';

jest.setTimeout(120_000);

/** What each scenario's name says the answer is (a GasStatus has no substatus; an INVALID answer none either). */
const EXPECTED: Readonly<Record<string, { readonly status: string; readonly substatus?: string }>> = {
  'getStatus.done': { status: 'DONE', substatus: 'COMPLETED' },
  'getStatus.sameChainDone': { status: 'DONE', substatus: 'COMPLETED' },
  'getStatus.pendingSourceConfirmations': { status: 'PENDING', substatus: 'WAIT_SOURCE_CONFIRMATIONS' },
  'getStatus.pendingDestination': { status: 'PENDING', substatus: 'WAIT_DESTINATION_TRANSACTION' },
  'getStatus.failed': { status: 'FAILED', substatus: 'SLIPPAGE_EXCEEDED' },
  'getStatus.invalid': { status: 'INVALID' },
  'getGasStatus.done': { status: 'DONE' },
};
const IDS = Object.keys(EXPECTED);

interface Example {
  readonly summary?: string;
  readonly value?: unknown;
  readonly 'x-request'?: { readonly service?: string };
}
const contractExamples = (): Record<string, Example> =>
  ((yaml.load(fs.readFileSync(OPENAPI_PATH, 'utf8')) as { components?: { examples?: Record<string, Example> } }).components?.examples ?? {});

let recorded: DevnetRecordedAnswer[] = [];
beforeAll(async () => {
  recorded = await recordDevnetScenarios();
}, 120_000);

/** Runs expectations, prefixing a failure's message with what to do about it. */
function withHint(hint: string, expectations: () => void): void {
  try {
    expectations();
  } catch (error) {
    if (error instanceof Error) error.message = `${hint}\n\n${error.message}`;
    throw error;
  }
}

function answerOf(id: string): DevnetRecordedAnswer {
  const answer = recorded.find((a) => `${a.scenario.operationId}.${a.scenario.name}` === id);
  if (!answer) throw new Error(`scenario ${id} was not recorded`);
  return answer;
}

test('every scenario is recorded once, in a fixed order (getStatus first, done its default), as a devnet GET', () => {
  expect(recorded.map((a) => `${a.scenario.operationId}.${a.scenario.name}`)).toEqual(IDS);
  expect(Object.entries(DEVNET_SCENARIO_NAMES).flatMap(([op, names]) => names.map((n) => `${op}.${n}`))).toEqual(IDS);
  for (const a of recorded) {
    const path = a.scenario.operationId === 'getStatus' ? '/v1/status' : '/v1/gas/status';
    expect(a.request).toEqual({ method: 'GET', url: expect.stringMatching(new RegExp(`^${path}\\?txHash=0x[0-9a-f]{64}(&fromChain=[a-z]+)?$`)), service: 'devnet' });
    expect(a.scenario).toMatchObject({ status: 200, service: 'devnet', request: a.request });
    expect(a.scenario.summary).toMatch(/^[^\n]{10,200}$/);
    expect(a.status).toBe(200);
  }
});

describe.each(IDS)('%s', (id) => {
  test('conforms to the contract', async () => {
    const contract = await contractValidator();
    const a = answerOf(id);
    contract.expectResponse(a.scenario.operationId, { status: a.status, body: a.body, headers: a.headers } as unknown as Response);
  });

  test(`is ${EXPECTED[id].status}${EXPECTED[id].substatus ? ` ${EXPECTED[id].substatus}` : ''}`, () => {
    const body = answerOf(id).body as { status: string; substatus?: string; sending?: { txHash?: string; chainId: number }; receiving?: { txHash?: string; chainId: number } };
    expect({ status: body.status, substatus: body.substatus }).toEqual({ status: EXPECTED[id].status, substatus: EXPECTED[id].substatus });
    if (id === 'getStatus.done') {
      expect(body.sending?.txHash).toMatch(/^0x[0-9a-f]{64}$/);
      expect(body.receiving?.txHash).toMatch(/^0x[0-9a-f]{64}$/);
      expect(body.receiving?.chainId).not.toBe(body.sending?.chainId);
    }
    if (id === 'getStatus.sameChainDone') expect(body.receiving?.chainId).toBe(body.sending?.chainId);
    if (id === 'getStatus.pendingDestination') expect(body.receiving?.txHash).toBeUndefined();
  });

  test(`equals the example ${id} of openapi.yaml`, () => {
      const example = contractExamples()[id];
      if (!example) throw new Error(`openapi.yaml has no example ${id} (components.examples): run \`npm run mock:examples\` to record the devnet scenarios into it`);
      const a = answerOf(id);
      withHint(`the example ${id} of openapi.yaml is not the service's answer any more: run \`npm run mock:examples\``, () => {
        expect(normalizeDevnetAnswer(a.body)).toEqual(normalizeDevnetAnswer(example.value));
        expect(normalizeDevnetAnswer(a.request)).toEqual(normalizeDevnetAnswer(example['x-request']));
      });
  });
});

test('openapi.yaml has no devnet example that is not recorded any more (here, or by the relayer\'s scenarios)', () => {
  const relayer = Object.entries(RELAYER_SCENARIO_NAMES).flatMap(([op, names]) => names.map((n) => `${op}.${n}`));
  const devnetExamples = Object.entries(contractExamples()).filter(([, e]) => e['x-request']?.service === 'devnet').map(([id]) => id);
  expect(devnetExamples.filter((id) => !IDS.includes(id) && !relayer.includes(id))).toEqual([]);
});

describe('normalizeDevnetAnswer', () => {
  test('replaces hashes (numbered, links and messages included) and block times; keeps transfer ids, amounts and states', () => {
    const h1 = `0x${'ab'.repeat(32)}`;
    const h2 = `0x${'CD'.repeat(32)}`;
    const id = `0x${'12'.repeat(16)}${'0'.repeat(32)}`;
    const calldata = `0x${'ef'.repeat(40)}`;
    expect(normalizeDevnetAnswer({
      status: 'DONE', substatus: 'COMPLETED', transactionId: id, substatusMessage: `Transaction ${h2} failed`,
      sending: { txHash: h1, txLink: `https://basescan.org/tx/${h1}`, amount: '1000000000', chainId: 8453, timestamp: 1795696396, block: 6, data: calldata },
      receiving: { txHash: h2.toLowerCase(), lastUpdated: 1795696396000, at: '2026-11-25T10:33:16.000Z' },
      url: `/v1/status?txHash=${h1}&fromChain=bas`,
    })).toEqual({
      status: 'DONE', substatus: 'COMPLETED', transactionId: id, substatusMessage: 'Transaction <txHash#1> failed',
      sending: { txHash: '<txHash#2>', txLink: 'https://basescan.org/tx/<txHash#2>', amount: '1000000000', chainId: 8453, timestamp: '<timestamp>', block: 6, data: calldata },
      receiving: { txHash: '<txHash#1>', lastUpdated: '<timestamp>', at: '<timestamp>' },
      url: '/v1/status?txHash=<txHash#2>&fromChain=bas',
    });
  });
});
