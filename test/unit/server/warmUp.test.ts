import pino from 'pino';
import { handlers } from '../../../handlers';
import { warmUp, warmUpQueries } from '../../../src/server/warmUp';
import type { HandlerTable } from '../../../src/server/operation';
import { makeTestApp, type TestApp } from '../../support/app';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t.dependencies.access.close();
});

test('the warm-up quotes are made from the catalog: a stablecoin to the native coin, and to another chain', () => {
  const queries = warmUpQueries(t.dependencies.catalog);
  expect(queries.length).toBe(6);
  const sameChain = queries.filter((q) => q.fromChain === q.toChain);
  const crossChain = queries.filter((q) => q.fromChain !== q.toChain);
  expect(sameChain).toHaveLength(3);
  expect(crossChain).toHaveLength(3);
  for (const q of queries) {
    const token = t.dependencies.catalog.findToken(Number(q.fromChain), q.fromToken)!;
    expect(token.tags).toContain('stablecoin');
    expect(BigInt(q.fromAmount)).toBe(1000n * 10n ** BigInt(token.decimals));
  }
  for (const q of sameChain) expect(q.toToken).toBe(t.dependencies.catalog.getChain(Number(q.toChain))!.nativeToken.address);
});

test('every warm-up quote runs through the getQuote handler and is answered on the embedded data', async () => {
  const calls: string[] = [];
  const counting: HandlerTable = { getQuote: (request, dependencies) => (calls.push(`${String(request.query.fromChain)}>${String(request.query.toChain)}:${String(request.query.fromAmount)}`), handlers.getQuote(request, dependencies)) };
  const result = await warmUp(counting, t.dependencies, pino({ level: 'silent' }), 2);
  expect(result).toMatchObject({ quotes: 12, answered: 12 });
  expect(new Set(calls).size).toBe(12); // another amount in each round
});

test('without a getQuote handler there is nothing to warm', async () => {
  expect(await warmUp({}, t.dependencies, pino({ level: 'silent' }))).toMatchObject({ quotes: 0, answered: 0 });
});
