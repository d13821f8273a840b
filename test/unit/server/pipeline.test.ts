import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { pipeline } from '../../../src/server/pipeline';

const req = {} as Request;
const res = {} as Response;

/** Runs a pipeline and resolves with what it passed to the final next (after microtasks settle). */
async function run(...steps: RequestHandler[]): Promise<{ called: boolean; error: unknown; order: string[] }> {
  const order: string[] = [];
  const outcome = { called: false, error: undefined as unknown, order };
  const traced = steps.map((step, k) => ((q: Request, s: Response, n: NextFunction) => {
    order.push(`step${k}`);
    return step(q, s, n);
  }) as RequestHandler);
  pipeline(...traced)(req, res, (error?: unknown) => {
    outcome.called = true;
    outcome.error = error;
  });
  await new Promise((resolve) => setImmediate(resolve));
  return outcome;
}

describe('pipeline of middlewares', () => {
  it('runs every step in order, then goes on', async () => {
    const outcome = await run((_q, _s, n) => n(), (_q, _s, n) => setImmediate(() => n()), (_q, _s, n) => n());
    expect(outcome).toEqual({ called: true, error: undefined, order: ['step0', 'step1', 'step2'] });
  });

  it('stops at a step that answers without calling next', async () => {
    const outcome = await run((_q, _s, n) => n(), () => undefined, (_q, _s, n) => n());
    expect(outcome.order).toEqual(['step0', 'step1']);
    expect(outcome.called).toBe(false);
  });

  it('leaves for the error handler on next(error), a throw or a rejected promise, skipping the rest', async () => {
    const boom = new Error('boom');
    for (const failing of [
      ((_q, _s, n) => n(boom)) as RequestHandler,
      (() => {
        throw boom;
      }) as RequestHandler,
      (async () => {
        throw boom;
      }) as RequestHandler,
    ]) {
      const outcome = await run((_q, _s, n) => n(), failing, (_q, _s, n) => n());
      expect(outcome).toEqual({ called: true, error: boom, order: ['step0', 'step1'] });
    }
  });
});
