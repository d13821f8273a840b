/**
 * Golden answers: the answer of every operation to a recorded set of requests (cases.ts), byte for byte, as in
 * test/golden/answers.jsonl (one line per request: name, request, status, the headers that say something about the
 * request, the body as sent). A reorganisation must leave every line as it is; a change of behaviour regenerates
 * the file on purpose and shows in its diff:
 *
 *   GOLDEN=update npx jest test/golden
 *
 * Derived cases use earlier answers: call data of quotes parsed, a route's step sent to stepTransaction.
 */
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { makeTestApp, type TestApp } from '../support/app';
import { goldenCases, type GoldenCase } from './cases';

const FILE = path.join(__dirname, 'answers.jsonl');
const UPDATE = process.env.GOLDEN === 'update';
/** Response headers that are part of an answer's meaning (the others are transport, limits or request ids). */
const HEADERS = ['content-type', 'allow', 'x-ignored-parameters', 'etag'];

interface Recorded {
  readonly name: string;
  readonly request: string;
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

jest.setTimeout(120_000);

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});

async function answer(c: GoldenCase): Promise<Recorded> {
  const agent = request(t.app);
  const req = c.method === 'GET' ? agent.get(c.url) : c.method === 'POST' ? agent.post(c.url) : agent.put(c.url);
  const res = c.body === undefined ? await req : await req.send(c.body as object);
  const headers: Record<string, string> = {};
  for (const name of HEADERS) if (res.headers[name] !== undefined) headers[name] = String(res.headers[name]);
  return { name: c.name, request: `${c.method} ${c.url}${c.body === undefined ? '' : ` ${JSON.stringify(c.body)}`}`, status: res.status, headers, body: res.text };
}

/** Cases made from answers already given: the call data of quotes, parsed; a route's first step, re-priced. */
function derivedCases(answers: readonly Recorded[]): GoldenCase[] {
  const cases: GoldenCase[] = [];
  for (const a of answers.filter((x) => x.name.startsWith('quote ') && x.status === 200).slice(0, 12)) {
    const quote = JSON.parse(a.body) as { transactionRequest?: { data: string; chainId: number } };
    if (quote.transactionRequest) cases.push({ name: `calldata of ${a.name}`, method: 'GET', url: `/v1/calldata/parse?callData=${quote.transactionRequest.data}&chainId=${quote.transactionRequest.chainId}` });
  }
  for (const a of answers.filter((x) => x.name.startsWith('routes ') && x.status === 200).slice(0, 4)) {
    const routes = JSON.parse(a.body) as { routes: { steps: unknown[] }[] };
    cases.push({ name: `stepTransaction of ${a.name}`, method: 'POST', url: '/v1/advanced/stepTransaction', body: routes.routes[0].steps[0] });
  }
  return cases;
}

test('every operation answers the recorded requests exactly as recorded', async () => {
  const cases = goldenCases(t.dependencies.graph);
  const answers: Recorded[] = [];
  for (const c of cases) answers.push(await answer(c));
  for (const c of derivedCases(answers)) answers.push(await answer(c));
  expect(new Set(answers.map((a) => a.name)).size).toBe(answers.length);

  if (UPDATE || !fs.existsSync(FILE)) {
    if (!UPDATE) throw new Error(`${FILE} is missing: record it with GOLDEN=update npx jest test/golden`);
    fs.writeFileSync(FILE, `${answers.map((a) => JSON.stringify(a)).join('\n')}\n`);
    return;
  }
  const recorded = new Map(
    fs.readFileSync(FILE, 'utf8').trim().split('\n').map((line) => {
      const r = JSON.parse(line) as Recorded;
      return [r.name, r] as const;
    }),
  );
  expect(answers.map((a) => a.name)).toEqual([...recorded.keys()]);
  const changed = answers.filter((a) => JSON.stringify(a) !== JSON.stringify(recorded.get(a.name)));
  // the first few differences in full; the count tells the rest
  expect({ changed: changed.length, first: changed.slice(0, 3).map((a) => ({ now: a, recorded: recorded.get(a.name) })) }).toEqual({ changed: 0, first: [] });
});

test('the recorded set covers every operation of the contract', () => {
  const lines = fs.readFileSync(FILE, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Recorded);
  const paths = new Set(lines.map((l) => l.request.split(' ')[1].split('?')[0].replace(/\/v1\/integrators\/[^/]+/, '/v1/integrators/{id}').replace(/\/(suggestion|prices)\/[^/]+$/, '/$1/{chain}')));
  for (const p of ['/v1/quote', '/v1/quote/toAmount', '/v1/advanced/routes', '/v1/advanced/stepTransaction', '/v1/quote/contractCalls', '/v1/quote/contractCall', '/v1/advanced/possibilities', '/v1/chains', '/v1/tokens', '/v1/token', '/v1/tools', '/v1/connections', '/v1/gas/suggestion/{chain}', '/v1/gas/prices', '/v1/gas/prices/{chain}', '/v1/status', '/v1/gas/status', '/v1/calldata/parse', '/v1/integrators/{id}', '/v1/integrators/{id}/withdraw/42161']) {
    expect([p, paths.has(p)]).toEqual([p, true]);
  }
  // most quotes of the mix find a route: the set is not a list of errors
  expect(lines.filter((l) => l.name.startsWith('mix quote') && l.status === 200).length).toBeGreaterThan(100);
});
