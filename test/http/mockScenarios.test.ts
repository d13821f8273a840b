/**
 * Every answer example of openapi.yaml (what the staging mock serves) is a real answer of the service: each names
 * the request that produced it (`x-request`), and the service, asked again, answers it with the example's status
 * and body, modulo what legitimately varies (a 500's request id, a rate limit's reset time). The examples are the
 * scenarios of mocks/scenarios.ts, written by `npm run mock:examples`; answers recorded on the devnet are checked by
 * test/e2e/statusExamples.test.ts.
 */
import fs from 'node:fs';
import yaml from 'js-yaml';
import { exampleId, ScenarioServices, send } from '../../mocks/examples';
import type { RecordedRequest } from '../../mocks/scenarios';
import { SCENARIOS } from '../../mocks/scenarios';
import { OPENAPI_PATH } from '../support/contract';

jest.setTimeout(120_000);

type Json = Record<string, unknown>;
interface Example {
  summary?: string;
  'x-request'?: RecordedRequest;
  value?: unknown;
}

const spec = yaml.load(fs.readFileSync(OPENAPI_PATH, 'utf8')) as { paths: Record<string, Record<string, Json>>; components: { examples?: Record<string, Example>; responses: Record<string, Json> } };
const examples = spec.components.examples ?? {};
const REGENERATE = 'run `npm run mock:examples` and commit openapi.yaml';

/** Every answer's examples: `<METHOD path> <status>` → example references (`#/components/examples/<id>`) or inline values. */
function answerExamples(): { where: string; status: number; refs: string[]; inline: boolean }[] {
  const out: { where: string; status: number; refs: string[]; inline: boolean }[] = [];
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(item)) {
      for (const [status, raw] of Object.entries((op.responses ?? {}) as Record<string, Json>)) {
        const response = typeof raw.$ref === 'string' ? spec.components.responses[raw.$ref.split('/').pop()!] : raw;
        const media = ((response.content ?? {}) as Record<string, Json>)['application/json'];
        if (!media) continue;
        const refs = Object.values((media.examples ?? {}) as Record<string, { $ref?: string }>).map((e) => e.$ref ?? '(inline)');
        out.push({ where: `${method.toUpperCase()} ${path} ${status}`, status: Number(status), refs, inline: media.example !== undefined });
      }
    }
  }
  return out;
}

/** What varies between two answers to the same request: a 500's request id, the reset time of a rate limit. */
function normalize(body: unknown): unknown {
  let text = JSON.stringify(body);
  const requestId = (body as { requestId?: unknown } | null)?.requestId;
  if (typeof requestId === 'string') text = text.split(requestId).join('<requestId>');
  text = text.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<time>').replace(/resets in \d+ seconds/g, 'resets in <n> seconds');
  return JSON.parse(text);
}

describe('the contract\'s answer examples', () => {
  it('are named examples only, each the recorded answer to a request (x-request)', () => {
    const answers = answerExamples();
    expect(answers.length).toBeGreaterThan(100);
    expect(answers.filter((a) => a.inline).map((a) => `${a.where}: a hand-written example; ${REGENERATE}`)).toEqual([]);
    expect(answers.filter((a) => a.refs.length === 0).map((a) => `${a.where}: no example`)).toEqual([]);
    for (const a of answers) {
      for (const ref of a.refs) {
        const example = examples[ref.replace('#/components/examples/', '')];
        expect({ ref, exists: example !== undefined, request: example?.['x-request'] !== undefined }).toEqual({ ref, exists: true, request: true });
      }
    }
  });

  it('are the scenarios of mocks/scenarios.ts, in order, the first of each answer its default', () => {
    const embedded = Object.entries(examples).filter(([, e]) => e['x-request']?.service !== 'devnet').map(([id]) => id);
    expect(embedded).toEqual(SCENARIOS.map(exampleId));
    for (const scenario of SCENARIOS) expect(examples[exampleId(scenario)]!.summary).toBe(scenario.summary);
  });

  describe('are what the service answers to their request today', () => {
    const services = new ScenarioServices();
    afterAll(() => services.close());
    const referencedAt = new Map<string, Set<number>>();
    for (const a of answerExamples()) for (const ref of a.refs) referencedAt.set(ref.split('/').pop()!, new Set([...(referencedAt.get(ref.split('/').pop()!) ?? []), a.status]));

    it.each(Object.entries(examples).filter(([, e]) => e['x-request']?.service !== 'devnet'))('%s', async (id, example) => {
      const answer = await send(services, example['x-request']!);
      // the example sits under the answer of its status
      expect([...(referencedAt.get(id) ?? [])]).toEqual([answer.status]);
      if (JSON.stringify(normalize(answer.body)) !== JSON.stringify(normalize(example.value))) {
        expect({ id, body: normalize(example.value), hint: REGENERATE }).toEqual({ id, body: normalize(answer.body), hint: REGENERATE });
      }
    });
  });
});
