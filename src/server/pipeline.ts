import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Middlewares run in order as one express middleware: each calls `next()` to go on, `next(error)` to leave for
 * the error handler, or answers and stops, exactly as in their own layers. Each layer of express's router costs
 * a little on every request (matching, parameter processing), and these run on every request.
 */
export function pipeline(...steps: RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    let index = 0;
    const step = (error?: unknown): void => {
      if (error !== undefined || index === steps.length) {
        next(error);
        return;
      }
      const handler = steps[index++]!;
      // as express's layers do: a middleware that throws, or whose promise rejects, leaves for the error handler
      try {
        const returned: unknown = handler(req, res, step);
        if (returned instanceof Promise) returned.catch((rejected: unknown) => next(rejected ?? new Error('middleware rejected')));
      } catch (thrown) {
        next(thrown);
      }
    };
    step();
  };
}
